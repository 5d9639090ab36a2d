/*
 * test_render.c - the renderer on hand-built models: labels and taints of
 * the NodeConfigs, secrets only in files, kind ranks and key order, the
 * GPU stack values and their merge, both NodePool vocabularies, the
 * admission policy API version, the placement patches on sample Pods,
 * the alerts, and the errors (unknown site, empty result, unset variable).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/arena.h"
#include "base/buf.h"
#include "emit/emit.h"
#include "render/render.h"
#include "render/render_placement.h"
#include "render/render_util.h"
#include "yamlio/yamlio.h"

static const struct pos P0 = { NULL, 0, 0 };

#define CODE "Abcdefghij0123456789XYZ+secret"

/* ---- fixtures ----------------------------------------------------- */

static struct spec_kv *
kvs(struct arena *a, size_t n, const char *const *kv)
{
	struct spec_kv *out = arena_alloc(a, (n + 1) * sizeof(*out));

	for (size_t i = 0; i < n; i++) {
		out[i].key = kv[2 * i];
		out[i].value = kv[2 * i + 1];
	}
	return out;
}

/* The site of docs/spec.md's example: rack-a (IAM Roles Anywhere, two
 * named nodes, a rack label), rack-b (SSM, count 2). */
static struct spec_site *
site_new(struct arena *a, const char *name, const char *cluster)
{
	static const char *const nodes_a[] = { "gpu-a-01", "gpu-a-02" };
	static const char *const rack_label[] = { "topology.example.com/rack", "a" };
	static const char *const types[] = { "g6.12xlarge", "g6e.12xlarge" };
	static const char *const ns[] = { "inference" };
	struct spec_site *s = arena_alloc(a, sizeof(*s));
	struct spec_node_group *g;

	s->name = name;
	s->file = arena_printf(a, "sites/%s.yaml", name);
	s->cluster.name = cluster;
	s->cluster.region = "us-west-2";
	s->cluster.provisioner = PROV_KARPENTER;
	s->cluster.kubernetes_version = "1.35";
	s->cluster.kube_minor = 35;
	s->gpu_taint.key = "nvidia.com/gpu";
	s->gpu_taint.value = "Exists";
	s->gpu_taint.effect = "NoSchedule";

	s->groups = g = arena_alloc(a, 2 * sizeof(*g));
	s->group_count = 2;
	g[0].name = "rack-a";
	g[0].gpu_model = "h200";
	g[0].gpus_per_node = 8;
	g[0].nodes = (const char **)nodes_a;
	g[0].node_count = 2;
	g[0].count = 2;
	g[0].credentials = CRED_IAMRA;
	g[0].iamra.trust_anchor_arn =
		"arn:aws:rolesanywhere:us-west-2:111122223333:trust-anchor/ta";
	g[0].iamra.profile_arn = "arn:aws:rolesanywhere:us-west-2:111122223333:profile/p";
	g[0].iamra.role_arn = "arn:aws:iam::111122223333:role/HybridNodesRole";
	g[0].iamra.certificate_path = "/etc/iam/pki/server.pem";
	g[0].iamra.private_key_path = "/etc/iam/pki/server.key";
	g[0].labels = kvs(a, 1, rack_label);
	g[0].label_count = 1;
	g[1].name = "rack-b";
	g[1].gpu_model = "h200";
	g[1].gpus_per_node = 8;
	g[1].count = 2;
	g[1].credentials = CRED_SSM;
	g[1].ssm.activation_id = "4b2c1a3e-5d6f-4a7b-8c9d-0e1f2a3b4c5d";
	g[1].ssm.activation_code_env = "SSM_ACTIVATION_CODE_RACK_B";

	s->gpu_stack.type = STACK_DEVICE_PLUGIN;
	s->gpu_stack.chart.repo_url = "https://nvidia.github.io/k8s-device-plugin";
	s->gpu_stack.chart.name = "nvidia-device-plugin";
	s->gpu_stack.chart.version = "0.20.0";
	s->gpu_stack.chart.namespace = "nvidia-device-plugin";
	s->gpu_stack.gfd = true;

	s->fallback.enabled = true;
	s->fallback.node_pool_name = "gpu-fallback";
	s->fallback.node_class_name = "gpu-fallback";
	s->fallback.instance_types = (const char **)types;
	s->fallback.instance_type_count = 2;
	s->fallback.capacity_type = CAP_ON_DEMAND;
	s->fallback.gpu_limit = 16;
	s->fallback.gpu_limit_set = true;
	s->fallback.expire_after.text = "720h";
	s->fallback.consolidation_policy = "WhenEmptyOrUnderutilized";
	s->fallback.consolidate_after.text = "5m";

	s->placement.mode = PLACE_PREFER_ONPREM;
	s->placement.weight = 100;
	s->placement.engine = ENGINE_KYVERNO;
	s->placement.namespaces = (const char **)ns;
	s->placement.namespace_count = 1;
	s->placement.not_ready_toleration_seconds = 300;
	s->placement.unreachable_toleration_seconds = 300;

	s->alerts.enabled = true;
	s->alerts.namespace = "monitoring";
	s->argocd.namespace = "argocd";
	s->argocd.project = "default";
	s->argocd.destination_server = "https://kubernetes.default.svc";
	return s;
}

static struct spec_fleet
fleet_of(struct arena *a, size_t n, struct spec_site **sites)
{
	struct spec_fleet f = { NULL, 0, 0 };

	for (size_t i = 0; i < n; i++)
		spec_fleet_add(a, &f, sites[i]);
	spec_fleet_sort(&f);
	return f;
}

static const char *
env_with_code(const char *name)
{
	return strcmp(name, "SSM_ACTIVATION_CODE_RACK_B") ? NULL : CODE;
}

static const char *
env_empty(const char *name)
{
	(void)name;
	return NULL;
}

struct fx {
	struct arena a;
	struct diags d;
};

static int
setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	arena_init(&f->a);
	diags_init(&f->d, &f->a);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fx *f = *state;

	arena_release(&f->a);
	free(f);
	return 0;
}

static const struct render_object *
find(const struct render_result *r, const char *kind, const char *name)
{
	for (size_t i = 0; i < r->count; i++)
		if (!strcmp(r->objects[i].kind, kind) && !strcmp(r->objects[i].name, name))
			return &r->objects[i];
	return NULL;
}

static size_t
count_kind(const struct render_result *r, const char *kind)
{
	size_t n = 0;

	for (size_t i = 0; i < r->count; i++)
		n += !strcmp(r->objects[i].kind, kind);
	return n;
}

static int
render_one(struct fx *f, struct spec_site *s, struct render_result *r,
	   const struct render_options *opt)
{
	struct spec_fleet fl = fleet_of(&f->a, 1, &s);

	return render_fleet(r, &f->a, &f->d, &fl, opt);
}

static const char *
key_at(const struct node *map, size_t i)
{
	assert_non_null(map);
	assert_int_equal(map->kind, NODE_MAP);
	assert_true(i < map->map.count);
	return node_str(map->map.pairs[i].key);
}

static const char *
seq_str(const struct node *seq, size_t i)
{
	assert_non_null(seq);
	assert_int_equal(seq->kind, NODE_SEQ);
	assert_true(i < seq->seq.count);
	return node_str(seq->seq.items[i]);
}

static bool
contains(const struct buf *b, const char *needle)
{
	return strstr(b->data, needle) != NULL;
}

/* ---- NodeConfig ---------------------------------------------------- */

static void
test_render__nodeconfig_labels_sorted_taint_first(void **state)
{
	struct fx *f = *state;
	struct spec_site *s = site_new(&f->a, "seoul-dc1", "my-hybrid-cluster");
	static struct spec_taint extra[] = {
		{ "dedicated", "ml", "NoSchedule", NULL },
		{ "example.com/maintenance", "", "NoExecute", NULL },
	};
	const struct node *flags, *doc;

	s->groups[0].taints = extra;
	s->groups[0].taint_count = 2;
	doc = render_nodeconfig_doc(&f->a, s, &s->groups[0], "gpu-a-01", NULL);
	flags = node_path(doc, "spec.kubelet.flags");
	assert_string_equal(seq_str(flags, 0),
			    "--node-labels=gpu.model=h200,gpusite.io/node-group=rack-a,"
			    "gpusite.io/site=seoul-dc1,node-type=hybrid-gpu,"
			    "topology.example.com/rack=a");
	/* The GPU taint first, then the group's taints in spec order. */
	assert_string_equal(seq_str(flags, 1),
			    "--register-with-taints=nvidia.com/gpu=Exists:NoSchedule,"
			    "dedicated=ml:NoSchedule,example.com/maintenance:NoExecute");
	assert_int_equal(flags->seq.count, 2);
	/* nodeadm adds compute-type itself; the tool never writes it. */
	assert_null(strstr(seq_str(flags, 0), "compute-type"));
}

static void
test_render__nodeconfig_iamra_shape(void **state)
{
	struct fx *f = *state;
	struct spec_site *s = site_new(&f->a, "seoul-dc1", "my-hybrid-cluster");
	const struct node *doc, *ra;

	s->groups[0].iamra.certificate_path = NULL; /* defaults still written */
	s->groups[0].iamra.private_key_path = NULL;
	doc = render_nodeconfig_doc(&f->a, s, &s->groups[0], "gpu-a-02", NULL);
	assert_string_equal(key_at(doc, 0), "apiVersion");
	assert_string_equal(node_str(node_map_get(doc, "apiVersion")), "node.eks.aws/v1alpha1");
	assert_string_equal(key_at(doc, 1), "kind");
	assert_string_equal(key_at(doc, 2), "spec");
	assert_string_equal(node_str(node_path(doc, "spec.cluster.name")), "my-hybrid-cluster");
	assert_string_equal(node_str(node_path(doc, "spec.cluster.region")), "us-west-2");
	ra = node_path(doc, "spec.hybrid.iamRolesAnywhere");
	assert_string_equal(key_at(ra, 0), "nodeName");
	assert_string_equal(node_str(node_map_get(ra, "nodeName")), "gpu-a-02");
	assert_string_equal(node_str(node_map_get(ra, "certificatePath")),
			    "/etc/iam/pki/server.pem");
	assert_string_equal(node_str(node_map_get(ra, "privateKeyPath")),
			    "/etc/iam/pki/server.key");
	assert_null(node_path(doc, "spec.hybrid.ssm"));
	assert_null(node_path(doc, "metadata"));
}

static void
test_render__ssm_code_only_in_the_file(void **state)
{
	struct fx *f = *state;
	struct spec_site *s = site_new(&f->a, "seoul-dc1", "my-hybrid-cluster");
	struct render_options opt = { 0 };
	struct render_result r;
	const struct render_object *cm;
	struct buf out = BUF_INIT;
	size_t with_code = 0;

	opt.files = true;
	opt.getenv = env_with_code;
	assert_int_equal(render_one(f, s, &r, &opt), 0);
	cm = find(&r, "ConfigMap", "gpusite-nodeconfig-seoul-dc1");
	assert_non_null(cm);
	assert_string_equal(cm->namespace, "kube-system");
	/* One data key per file: <group>.<node>.yaml, <group>.yaml. */
	assert_string_equal(key_at(node_map_get(cm->obj, "data"), 0), "rack-a.gpu-a-01.yaml");
	assert_string_equal(key_at(node_map_get(cm->obj, "data"), 1), "rack-a.gpu-a-02.yaml");
	assert_string_equal(key_at(node_map_get(cm->obj, "data"), 2), "rack-b.yaml");
	assert_non_null(strstr(node_str(node_map_get(node_map_get(cm->obj, "data"), "rack-b.yaml")),
			       "activationId:"));
	assert_null(strstr(node_str(node_map_get(node_map_get(cm->obj, "data"), "rack-b.yaml")),
			   "activationCode"));
	buf_init(&out, 0);
	assert_int_equal(emit_stream(&out, &r, EMIT_YAML), 0);
	assert_false(contains(&out, CODE));
	assert_true(contains(&out, "activationId: 4b2c1a3e-5d6f-4a7b-8c9d-0e1f2a3b4c5d"));
	buf_reset(&out);
	assert_int_equal(emit_stream(&out, &r, EMIT_JSON), 0);
	assert_false(contains(&out, CODE));
	buf_release(&out);

	assert_int_equal(r.file_count, 4); /* 2 IAM-RA nodes, 1 SSM group, 1 values */
	for (size_t i = 0; i < r.file_count; i++) {
		const struct render_file *fl = &r.files[i];
		const char *code = node_str(node_path(fl->doc, "spec.hybrid.ssm.activationCode"));

		if (fl->kind != RENDER_FILE_NODECONFIG)
			continue;
		if (!strcmp(fl->path, "seoul-dc1/rack-b.yaml")) {
			assert_true(fl->has_secret);
			assert_non_null(code);
			assert_string_equal(code, CODE);
			with_code++;
		} else {
			assert_false(fl->has_secret);
			assert_null(code);
			assert_true(!strcmp(fl->path, "seoul-dc1/rack-a/gpu-a-01.yaml") ||
				    !strcmp(fl->path, "seoul-dc1/rack-a/gpu-a-02.yaml"));
		}
	}
	assert_int_equal(with_code, 1);
}

static void
test_render__ssm_env_unset_names_the_variable(void **state)
{
	struct fx *f = *state;
	struct spec_site *s = site_new(&f->a, "seoul-dc1", "my-hybrid-cluster");
	struct render_options opt = { 0 };
	struct render_result r;
	bool named = false;

	opt.files = true;
	opt.getenv = env_empty;
	assert_int_equal(render_one(f, s, &r, &opt), -1);
	for (size_t i = 0; i < f->d.count; i++)
		if (!strcmp(f->d.items[i].rule, RENDER_RULE_SECRET_ENV) &&
		    f->d.items[i].level == DIAG_ERROR &&
		    strstr(f->d.items[i].msg, "SSM_ACTIVATION_CODE_RACK_B"))
			named = true;
	assert_true(named);
}

static void
test_render__no_files_needs_no_secret(void **state)
{
	struct fx *f = *state;
	struct spec_site *s = site_new(&f->a, "seoul-dc1", "my-hybrid-cluster");
	struct render_options opt = { 0 };
	struct render_result r;

	opt.getenv = env_empty;
	assert_int_equal(render_one(f, s, &r, &opt), 0);
	assert_int_equal(r.file_count, 0);
	assert_int_equal(diags_count(&f->d, DIAG_ERROR), 0);
	/* --values alone needs no activation code either */
	opt.files = true;
	opt.no_nodeconfig_files = true;
	assert_int_equal(render_one(f, s, &r, &opt), 0);
	assert_int_equal(r.file_count, 1);
	assert_int_equal(r.files[0].kind, RENDER_FILE_VALUES);
	assert_string_equal(r.files[0].path, "my-hybrid-cluster/values.yaml");
}

/* ---- stream order and envelope ------------------------------------- */

static void
test_render__kind_ranks_order_the_stream(void **state)
{
	struct fx *f = *state;
	struct spec_site *sites[2];
	struct spec_fleet fl;
	struct render_result r;
	static const char *const kinds[] = {
		"ConfigMap",
		"ConfigMap",
		"NodePool",
		"NodePool",
		"Application",
		"MutatingPolicy",
		"MutatingAdmissionPolicy",
		"MutatingAdmissionPolicyBinding",
		"PrometheusRule",
		"PrometheusRule",
	};

	sites[0] = site_new(&f->a, "zeta", "c1");
	sites[1] = site_new(&f->a, "alpha", "c1");
	sites[0]->fallback.node_pool_name = "zeta-pool";
	sites[0]->placement.engine = ENGINE_MAP;
	fl = fleet_of(&f->a, 2, sites);
	assert_int_equal(render_fleet(&r, &f->a, &f->d, &fl, NULL), 0);
	assert_int_equal(r.count, sizeof(kinds) / sizeof(kinds[0]));
	for (size_t i = 0; i < r.count; i++) {
		assert_string_equal(r.objects[i].kind, kinds[i]);
		if (i)
			assert_true(r.objects[i - 1].rank <= r.objects[i].rank);
	}
	/* equal rank: by namespace, then name */
	assert_string_equal(r.objects[0].name, "gpusite-nodeconfig-alpha");
	assert_string_equal(r.objects[1].name, "gpusite-nodeconfig-zeta");
	assert_string_equal(r.objects[2].name, "gpu-fallback");
	assert_string_equal(r.objects[3].name, "zeta-pool");
	assert_int_equal(RENDER_RANK_CONFIGMAP, 0);
	assert_true(RENDER_RANK_NODEPOOL < RENDER_RANK_APPLICATION);
	assert_true(RENDER_RANK_APPLICATION < RENDER_RANK_MUTATINGPOLICY);
	assert_true(RENDER_RANK_MAP < RENDER_RANK_MAP_BINDING);
	assert_true(RENDER_RANK_MAP_BINDING < RENDER_RANK_PROMETHEUSRULE);
}

static void
test_render__every_object_has_envelope_and_labels(void **state)
{
	struct fx *f = *state;
	struct spec_site *s = site_new(&f->a, "seoul-dc1", "my-hybrid-cluster");
	static const char *const extra[] = { "release", "prom", "aaa", "first" };
	struct render_result r;

	s->alerts.labels = kvs(&f->a, 2, extra);
	s->alerts.label_count = 2;
	s->placement.engine = ENGINE_KYVERNO_CLUSTERPOLICY;
	assert_int_equal(render_one(f, s, &r, NULL), 0);
	for (size_t i = 0; i < r.count; i++) {
		const struct node *o = r.objects[i].obj, *meta, *labels;
		size_t k = 0;

		assert_string_equal(key_at(o, 0), "apiVersion");
		assert_string_equal(key_at(o, 1), "kind");
		assert_string_equal(key_at(o, 2), "metadata");
		assert_true(!strcmp(key_at(o, 3), "spec") || !strcmp(key_at(o, 3), "data"));
		assert_int_equal(o->map.count, 4);
		meta = node_map_get(o, "metadata");
		assert_string_equal(key_at(meta, k++), "name");
		if (r.objects[i].namespace[0])
			assert_string_equal(key_at(meta, k++), "namespace");
		assert_string_equal(key_at(meta, k++), "labels");
		if (k < meta->map.count)
			assert_string_equal(key_at(meta, k), "annotations");
		labels = node_map_get(meta, "labels");
		assert_string_equal(node_str(node_map_get(labels, "app.kubernetes.io/managed-by")),
				    "gpusite");
		if (!strcmp(r.objects[i].kind, "Application")) {
			assert_null(node_map_get(labels, "gpusite.io/site"));
			assert_string_equal(node_str(node_map_get(labels, "gpusite.io/cluster")),
					    "my-hybrid-cluster");
		} else {
			assert_string_equal(node_str(node_map_get(labels, "gpusite.io/site")),
					    "seoul-dc1");
		}
		/* label keys sorted; no Argo CD tracking label */
		for (size_t j = 1; j < labels->map.count; j++)
			assert_true(strcmp(key_at(labels, j - 1), key_at(labels, j)) < 0);
		assert_null(node_map_get(labels, "app.kubernetes.io/instance"));
		assert_non_null(r.objects[i].purpose);
		assert_true(strlen(r.objects[i].purpose) > 10);
	}
	assert_string_equal(node_str(node_path(find(&r, "PrometheusRule", "gpusite-seoul-dc1")->obj,
					       "metadata.labels.release")),
			    "prom");
}

/* ---- GPU stack ----------------------------------------------------- */

static void
test_render__values_merge_is_deep_and_lists_replace(void **state)
{
	struct fx *f = *state;
	struct node *base = node_new_map(&f->a, P0), *over = node_new_map(&f->a, P0);
	struct node *b_img, *o_img, *list;

	b_img = node_map_add(&f->a, base, "image", node_new_map(&f->a, P0));
	node_map_add_str(&f->a, b_img, "repository", "nvcr.io/x");
	node_map_add_str(&f->a, b_img, "tag", "1");
	list = node_map_add(&f->a, base, "args", node_new_seq(&f->a, P0));
	node_seq_push(&f->a, list, node_new_str(&f->a, P0, "a"));
	node_seq_push(&f->a, list, node_new_str(&f->a, P0, "b"));

	o_img = node_map_add(&f->a, over, "image", node_new_map(&f->a, P0));
	node_map_add_str(&f->a, o_img, "tag", "2");
	list = node_map_add(&f->a, over, "args", node_new_seq(&f->a, P0));
	node_seq_push(&f->a, list, node_new_str(&f->a, P0, "c"));
	node_map_add_int(&f->a, over, "newKey", 7);

	render_values_merge(&f->a, base, over);
	assert_string_equal(node_str(node_path(base, "image.repository")), "nvcr.io/x");
	assert_string_equal(node_str(node_path(base, "image.tag")), "2");
	assert_int_equal(node_map_get(base, "args")->seq.count, 1);
	assert_string_equal(seq_str(node_map_get(base, "args"), 0), "c");
	assert_string_equal(key_at(base, 2), "newKey");
	/* the override was cloned, not shared */
	assert_true(node_map_get(base, "args") != list);
}

static void
test_render__device_plugin_values(void **state)
{
	struct fx *f = *state;
	struct spec_site *s = site_new(&f->a, "seoul-dc1", "c1");
	const struct spec_site *one[1];
	struct node *v, *tol, *user;
	static struct spec_taint extra[] = { { "dedicated", "ml", "NoSchedule", NULL } };

	s->groups[1].taints = extra;
	s->groups[1].taint_count = 1;
	user = node_new_map(&f->a, P0);
	node_map_add_str(&f->a, node_map_add(&f->a, user, "image", node_new_map(&f->a, P0)), "tag",
			 "v0.20.0");
	s->gpu_stack.values = user;
	one[0] = s;
	v = render_gpustack_values(&f->a, one, 1);
	assert_string_equal(node_str(node_map_get(node_map_get(v, "nodeSelector"),
						  "eks.amazonaws.com/compute-type")),
			    "hybrid");
	tol = node_map_get(v, "tolerations");
	assert_int_equal(tol->seq.count, 3);
	assert_string_equal(node_str(node_map_get(tol->seq.items[0], "key")), "CriticalAddonsOnly");
	assert_string_equal(node_str(node_map_get(tol->seq.items[1], "key")), "nvidia.com/gpu");
	assert_string_equal(node_str(node_map_get(tol->seq.items[1], "operator")), "Exists");
	assert_string_equal(node_str(node_map_get(tol->seq.items[1], "effect")), "NoSchedule");
	assert_string_equal(node_str(node_map_get(tol->seq.items[2], "key")), "dedicated");
	assert_true(node_path(v, "gfd.enabled")->scalar.i);
	/* NFD worker: hybrid only, GPU taint tolerated with Exists */
	assert_string_equal(node_str(node_map_get(node_path(v, "nfd.worker.nodeSelector"),
						  "eks.amazonaws.com/compute-type")),
			    "hybrid");
	tol = node_path(v, "nfd.worker.tolerations");
	assert_string_equal(node_str(node_map_get(tol->seq.items[0], "key")), "nvidia.com/gpu");
	assert_string_equal(node_str(node_map_get(tol->seq.items[0], "operator")), "Exists");
	assert_null(node_map_get(tol->seq.items[0], "value"));
	assert_string_equal(node_str(node_path(v, "image.tag")), "v0.20.0");
	assert_null(node_map_get(v, "driver"));

	s->gpu_stack.gfd = false;
	s->gpu_stack.values = NULL;
	v = render_gpustack_values(&f->a, one, 1);
	assert_null(node_map_get(v, "nfd"));
	assert_false(node_path(v, "gfd.enabled")->scalar.i);
}

static void
test_render__gpu_operator_values(void **state)
{
	struct fx *f = *state;
	struct spec_site *s = site_new(&f->a, "seoul-dc1", "c1");
	const struct spec_site *one[1];
	struct node *v, *tol;

	s->gpu_stack.type = STACK_GPU_OPERATOR;
	s->gpu_stack.dcgm_exporter = true;
	s->gpu_stack.toolkit = false;
	one[0] = s;
	v = render_gpustack_values(&f->a, one, 1);
	assert_string_equal(key_at(v, 0), "driver");
	assert_false(node_path(v, "driver.enabled")->scalar.i);
	assert_false(node_path(v, "toolkit.enabled")->scalar.i);
	assert_true(node_path(v, "dcgmExporter.enabled")->scalar.i);
	assert_true(node_path(v, "gfd.enabled")->scalar.i);
	tol = node_path(v, "daemonsets.tolerations");
	assert_string_equal(node_str(node_map_get(tol->seq.items[0], "operator")), "Exists");
	assert_string_equal(
		node_str(node_map_get(
			node_path(node_map_get(v, "node-feature-discovery"), "worker.nodeSelector"),
			"eks.amazonaws.com/compute-type")),
		"hybrid");
	assert_null(node_map_get(v, "nodeSelector")); /* there is no single one */
}

/* argocd.syncPolicy reaches every Application: automated with prune and
 * selfHeal, retry as written; without automated, syncOptions only. */
static void
test_render__sync_policy(void **state)
{
	struct fx *f = *state;
	struct spec_site *sites[2];
	struct spec_fleet fl;
	struct render_result r;
	const struct render_object *app;

	sites[0] = site_new(&f->a, "a", "auto");
	sites[1] = site_new(&f->a, "b", "manual");
	sites[0]->argocd.sync.automated = true;
	sites[0]->argocd.sync.self_heal = true;
	sites[0]->argocd.sync.retry = true;
	sites[0]->argocd.sync.retry_limit = 3;
	sites[0]->argocd.sync.retry_limit_set = true;
	sites[0]->argocd.sync.backoff_duration = "10s";
	sites[0]->argocd.sync.backoff_factor = 2;
	fl = fleet_of(&f->a, 2, sites);
	assert_int_equal(render_fleet(&r, &f->a, &f->d, &fl, NULL), 0);
	app = find(&r, "Application", "auto-nvidia-device-plugin");
	assert_non_null(app);
	assert_string_equal(key_at(node_path(app->obj, "spec.syncPolicy"), 0), "automated");
	assert_false(node_path(app->obj, "spec.syncPolicy.automated.prune")->scalar.i);
	assert_true(node_path(app->obj, "spec.syncPolicy.automated.selfHeal")->scalar.i);
	assert_int_equal(node_path(app->obj, "spec.syncPolicy.retry.limit")->scalar.i, 3);
	assert_string_equal(node_str(node_path(app->obj, "spec.syncPolicy.retry.backoff.duration")),
			    "10s");
	assert_int_equal(node_path(app->obj, "spec.syncPolicy.retry.backoff.factor")->scalar.i, 2);
	assert_null(node_path(app->obj, "spec.syncPolicy.retry.backoff.maxDuration"));
	app = find(&r, "Application", "manual-nvidia-device-plugin");
	assert_non_null(app);
	assert_null(node_path(app->obj, "spec.syncPolicy.automated"));
	assert_null(node_path(app->obj, "spec.syncPolicy.retry"));
	assert_string_equal(seq_str(node_path(app->obj, "spec.syncPolicy.syncOptions"), 0),
			    "CreateNamespace=true");
}

static void
test_render__one_application_per_cluster(void **state)
{
	struct fx *f = *state;
	struct spec_site *sites[3];
	struct spec_fleet fl;
	struct render_result r;
	const struct render_object *app;

	sites[0] = site_new(&f->a, "a", "shared");
	sites[1] = site_new(&f->a, "b", "shared");
	sites[2] = site_new(&f->a, "c", "other");
	sites[1]->fallback.node_pool_name = "b-pool";
	sites[2]->gpu_stack.type = STACK_GPU_OPERATOR;
	sites[2]->gpu_stack.chart.name = "gpu-operator";
	sites[2]->gpu_stack.chart.repo_url = "https://helm.ngc.nvidia.com/nvidia";
	sites[2]->gpu_stack.chart.namespace = "gpu-operator";
	sites[2]->gpu_stack.chart.version = "v26.7.0";
	fl = fleet_of(&f->a, 3, sites);
	assert_int_equal(render_fleet(&r, &f->a, &f->d, &fl, NULL), 0);
	assert_int_equal(count_kind(&r, "Application"), 2);
	app = find(&r, "Application", "shared-nvidia-device-plugin");
	assert_non_null(app);
	assert_null(app->site);
	assert_string_equal(app->namespace, "argocd");
	assert_string_equal(key_at(node_path(app->obj, "spec"), 0), "project");
	assert_string_equal(node_str(node_path(app->obj, "spec.source.targetRevision")), "0.20.0");
	assert_string_equal(node_str(node_path(app->obj, "spec.source.chart")),
			    "nvidia-device-plugin");
	assert_string_equal(node_str(node_path(app->obj, "spec.source.helm.releaseName")),
			    "nvidia-device-plugin");
	assert_non_null(node_path(app->obj, "spec.source.helm.valuesObject.nodeSelector"));
	assert_string_equal(node_str(node_path(app->obj, "spec.destination.namespace")),
			    "nvidia-device-plugin");
	assert_string_equal(seq_str(node_path(app->obj, "spec.syncPolicy.syncOptions"), 0),
			    "CreateNamespace=true");
	app = find(&r, "Application", "other-gpu-operator");
	assert_non_null(app);
	assert_string_equal(node_str(node_path(app->obj, "spec.source.repoURL")),
			    "https://helm.ngc.nvidia.com/nvidia");
}

/* ---- NodePool ------------------------------------------------------ */

static bool
tree_has_text(const struct node *n, const char *needle)
{
	if (!n)
		return false;
	if (n->kind == NODE_SCALAR)
		return node_text(n) && strstr(node_text(n), needle);
	if (n->kind == NODE_SEQ) {
		for (size_t i = 0; i < n->seq.count; i++)
			if (tree_has_text(n->seq.items[i], needle))
				return true;
		return false;
	}
	for (size_t i = 0; i < n->map.count; i++)
		if (tree_has_text(n->map.pairs[i].key, needle) ||
		    tree_has_text(n->map.pairs[i].value, needle))
			return true;
	return false;
}

/* Karpenter 1.9 declared: the Gte the contract names; 1.8: the Gt. */
static void
test_render__nodepool_gte_from_karpenter_1_9(void **state)
{
	struct fx *f = *state;
	struct spec_site *s = site_new(&f->a, "seoul-dc1", "c1");
	struct render_result r;
	const struct render_object *np;
	const struct node *reqs, *last;
	static const struct {
		int minor;
		const char *op, *value;
	} cases[] = { { 9, "Gte", "40000" }, { 8, "Gt", "39999" }, { 10, "Gte", "40000" } };

	s->fallback.min_gpu_memory_mib = 40000;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		s->cluster.karpenter_version.set = true;
		s->cluster.karpenter_version.release = (struct k8s_release){ 1, cases[i].minor, 0 };
		assert_int_equal(render_one(f, s, &r, NULL), 0);
		np = find(&r, "NodePool", "gpu-fallback");
		assert_non_null(np);
		reqs = node_path(np->obj, "spec.template.spec.requirements");
		last = reqs->seq.items[reqs->seq.count - 1];
		assert_string_equal(node_str(node_map_get(last, "operator")), cases[i].op);
		assert_string_equal(seq_str(node_map_get(last, "values"), 0), cases[i].value);
	}
}

static void
test_render__nodepool_karpenter_vocabulary(void **state)
{
	struct fx *f = *state;
	struct spec_site *s = site_new(&f->a, "seoul-dc1", "c1");
	struct render_result r;
	const struct render_object *np;
	const struct node *reqs, *last;

	s->fallback.min_gpu_memory_mib = 40000;
	assert_int_equal(render_one(f, s, &r, NULL), 0);
	np = find(&r, "NodePool", "gpu-fallback");
	assert_non_null(np);
	assert_string_equal(np->namespace, "");
	assert_string_equal(node_str(node_path(np->obj, "spec.template.spec.nodeClassRef.group")),
			    "karpenter.k8s.aws");
	assert_string_equal(node_str(node_path(np->obj, "spec.template.spec.nodeClassRef.kind")),
			    "EC2NodeClass");
	reqs = node_path(np->obj, "spec.template.spec.requirements");
	assert_string_equal(node_str(node_map_get(reqs->seq.items[0], "key")),
			    "karpenter.k8s.aws/instance-gpu-manufacturer");
	last = reqs->seq.items[reqs->seq.count - 1];
	assert_string_equal(node_str(node_map_get(last, "key")),
			    "karpenter.k8s.aws/instance-gpu-memory");
	/* no Karpenter release declared: the Gt every release serves */
	assert_string_equal(node_str(node_map_get(last, "operator")), "Gt");
	assert_string_equal(seq_str(node_map_get(last, "values"), 0), "39999");
	assert_false(tree_has_text(np->obj, "eks.amazonaws.com"));
	assert_int_equal(node_path(np->obj, "spec.limits")->map.pairs[0].value->scalar.i, 16);
	assert_string_equal(key_at(node_path(np->obj, "spec.limits"), 0), "nvidia.com/gpu");
	assert_string_equal(node_str(node_path(np->obj, "spec.template.spec.expireAfter")), "720h");
	assert_string_equal(node_str(node_path(np->obj, "spec.disruption.consolidateAfter")), "5m");
	assert_string_equal(
		node_str(node_map_get(node_path(np->obj, "spec.template.spec.taints")->seq.items[0],
				      "value")),
		"Exists");
}

/* The requirement on karpenter.k8s.aws/capacity-reservation-type, or NULL. */
static const struct node *
reservation_req(const struct render_object *np)
{
	const struct node *reqs = node_path(np->obj, "spec.template.spec.requirements");

	for (size_t i = 0; i < reqs->seq.count; i++)
		if (!strcmp(node_str(node_map_get(reqs->seq.items[i], "key")),
			    "karpenter.k8s.aws/capacity-reservation-type"))
			return reqs->seq.items[i];
	return NULL;
}

/* Reserved capacity with a backup: on-demand and Spot offerings carry the
 * reservation type as DoesNotExist, which only NotIn meets, so the pool
 * excludes the types left out and never requires the listed ones; with
 * both types (or none) listed, no requirement; before Karpenter 1.6 and
 * with Auto Mode, none. */
static void
test_render__nodepool_reservation_type_not_in(void **state)
{
	struct fx *f = *state;
	struct spec_site *s = site_new(&f->a, "seoul-dc1", "c1");
	struct render_result r;
	const struct node *req;
	static const char *caps[][3] = { { "reserved", NULL, NULL },
					 { "reserved", "on-demand", NULL },
					 { "reserved", "spot", NULL },
					 { "reserved", "on-demand", "spot" } };
	static const char *dflt[] = { "default" }, *block[] = { "capacity-block" },
			  *both[] = { "capacity-block", "default" };
	static const struct {
		const char **types;
		size_t n;
		const char *excluded; /* NULL: no requirement */
	} cases[] = { { dflt, 1, "capacity-block" },
		      { block, 1, "default" },
		      { both, 2, NULL },
		      { NULL, 0, NULL } };

	s->fallback.reserved = true;
	s->fallback.capacity_type = CAP_RESERVED;
	for (size_t c = 0; c < sizeof(caps) / sizeof(caps[0]); c++) {
		s->fallback.capacity_types = caps[c];
		s->fallback.capacity_type_count = caps[c][2] ? 3 : caps[c][1] ? 2 : 1;
		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			s->fallback.reservation_types = cases[i].types;
			s->fallback.reservation_type_count = cases[i].n;
			assert_int_equal(render_one(f, s, &r, NULL), 0);
			req = reservation_req(find(&r, "NodePool", "gpu-fallback"));
			if (!cases[i].excluded) {
				assert_null(req);
				continue;
			}
			assert_non_null(req);
			assert_string_equal(node_str(node_map_get(req, "operator")), "NotIn");
			assert_int_equal(node_map_get(req, "values")->seq.count, 1);
			assert_string_equal(seq_str(node_map_get(req, "values"), 0),
					    cases[i].excluded);
		}
	}
	/* before Karpenter 1.6 neither the label nor Capacity Blocks: none */
	s->fallback.reservation_types = dflt;
	s->fallback.reservation_type_count = 1;
	s->cluster.karpenter_version.set = true;
	s->cluster.karpenter_version.release = (struct k8s_release){ 1, 5, 0 };
	assert_int_equal(render_one(f, s, &r, NULL), 0);
	assert_null(reservation_req(find(&r, "NodePool", "gpu-fallback")));
	s->cluster.karpenter_version.release = (struct k8s_release){ 1, 6, 0 };
	assert_int_equal(render_one(f, s, &r, NULL), 0);
	assert_non_null(reservation_req(find(&r, "NodePool", "gpu-fallback")));
	s->cluster.karpenter_version.set = false;
	/* Auto Mode: gpusite writes no reservation type (GS183 says so) */
	s->cluster.provisioner = PROV_AUTO_MODE;
	s->fallback.node_class_name = NULL;
	assert_int_equal(render_one(f, s, &r, NULL), 0);
	assert_null(reservation_req(find(&r, "NodePool", "gpu-fallback")));
}

static void
test_render__nodepool_auto_mode_vocabulary(void **state)
{
	struct fx *f = *state;
	struct spec_site *s = site_new(&f->a, "seoul-dc1", "c1");
	struct render_result r;
	const struct render_object *np;

	s->cluster.provisioner = PROV_AUTO_MODE;
	s->fallback.node_class_name = NULL;
	s->fallback.expire_after.text = NULL;
	s->fallback.zones = (const char **)s->fallback.instance_types; /* any two strings */
	s->fallback.zone_count = 1;
	assert_int_equal(render_one(f, s, &r, NULL), 0);
	np = find(&r, "NodePool", "gpu-fallback");
	assert_string_equal(node_str(node_path(np->obj, "spec.template.spec.nodeClassRef.group")),
			    "eks.amazonaws.com");
	assert_string_equal(node_str(node_path(np->obj, "spec.template.spec.nodeClassRef.kind")),
			    "NodeClass");
	assert_string_equal(node_str(node_path(np->obj, "spec.template.spec.nodeClassRef.name")),
			    "default");
	assert_string_equal(node_str(node_path(np->obj, "spec.template.spec.expireAfter")), "336h");
	assert_false(tree_has_text(np->obj, "karpenter.k8s.aws"));
	assert_true(tree_has_text(np->obj, "topology.kubernetes.io/zone"));
}

static void
test_render__no_fallback_no_nodepool(void **state)
{
	struct fx *f = *state;
	struct spec_site *s = site_new(&f->a, "seoul-dc1", "c1");
	struct render_result r;
	const struct render_object *pr;

	s->fallback.enabled = false;
	s->placement.mode = PLACE_REQUIRE_ONPREM;
	assert_int_equal(render_one(f, s, &r, NULL), 0);
	assert_int_equal(count_kind(&r, "NodePool"), 0);
	pr = find(&r, "PrometheusRule", "gpusite-seoul-dc1");
	assert_false(tree_has_text(pr->obj, "karpenter_"));
	assert_true(tree_has_text(find(&r, "MutatingPolicy", "gpusite-seoul-dc1-placement")->obj,
				  "requiredDuringSchedulingIgnoredDuringExecution"));
}

/* ---- placement ----------------------------------------------------- */

static void
test_render__map_api_version_follows_kube_minor(void **state)
{
	struct fx *f = *state;
	struct spec_site *s = site_new(&f->a, "seoul-dc1", "c1");
	struct render_options opt = { 0 };
	struct render_result r;

	s->placement.engine = ENGINE_MAP;
	assert_int_equal(render_one(f, s, &r, NULL), 0);
	assert_string_equal(
		find(&r, "MutatingAdmissionPolicy", "gpusite-seoul-dc1-placement")->api_version,
		"admissionregistration.k8s.io/v1beta1");
	assert_string_equal(
		find(&r, "MutatingAdmissionPolicyBinding", "gpusite-seoul-dc1-placement")
			->api_version,
		"admissionregistration.k8s.io/v1beta1");
	opt.kube_minor = 36; /* overrides the spec's 1.35 */
	assert_int_equal(render_one(f, s, &r, &opt), 0);
	assert_string_equal(
		find(&r, "MutatingAdmissionPolicy", "gpusite-seoul-dc1-placement")->api_version,
		"admissionregistration.k8s.io/v1");
	assert_string_equal(node_str(node_path(find(&r, "MutatingAdmissionPolicyBinding",
						    "gpusite-seoul-dc1-placement")
						       ->obj,
					       "spec.policyName")),
			    "gpusite-seoul-dc1-placement");
	assert_string_equal(render_map_api_version(34), "admissionregistration.k8s.io/v1beta1");
	assert_string_equal(render_map_api_version(37), "admissionregistration.k8s.io/v1");
}

static void
test_render__engines_and_none(void **state)
{
	struct fx *f = *state;
	struct spec_site *s = site_new(&f->a, "seoul-dc1", "c1");
	struct render_result r;
	const struct render_object *cp, *mp;

	s->placement.engine = ENGINE_NONE;
	assert_int_equal(render_one(f, s, &r, NULL), 0);
	assert_int_equal(count_kind(&r, "MutatingPolicy") + count_kind(&r, "ClusterPolicy") +
				 count_kind(&r, "MutatingAdmissionPolicy"),
			 0);

	s->placement.engine = ENGINE_KYVERNO_CLUSTERPOLICY;
	s->placement.not_ready_toleration_seconds = 60;
	assert_int_equal(render_one(f, s, &r, NULL), 0);
	cp = find(&r, "ClusterPolicy", "gpusite-seoul-dc1-placement");
	assert_non_null(cp);
	assert_string_equal(node_str(node_map_get(node_path(cp->obj, "metadata.annotations"),
						  "pod-policies.kyverno.io/autogen-controllers")),
			    "none");
	/* Tolerations are appended with JSON patches, never a strategic merge. */
	assert_false(tree_has_text(cp->obj, "patchStrategicMerge"));
	assert_true(tree_has_text(cp->obj, "/spec/tolerations/-"));
	assert_true(tree_has_text(cp->obj, "value: 60"));
	assert_true(tree_has_text(cp->obj, "CREATE"));

	s->placement.engine = ENGINE_KYVERNO;
	assert_int_equal(render_one(f, s, &r, NULL), 0);
	mp = find(&r, "MutatingPolicy", "gpusite-seoul-dc1-placement");
	assert_non_null(mp);
	assert_string_equal(mp->api_version, "policies.kyverno.io/v1");
	assert_int_equal(node_path(mp->obj, "spec.autogen.podControllers.controllers")->seq.count,
			 0);
	assert_false(tree_has_text(mp->obj, "ApplyConfiguration"));
	assert_true(tree_has_text(mp->obj, "JSONPatch"));
	assert_true(tree_has_text(mp->obj, "\"node.kubernetes.io/not-ready\": 60"));
	assert_false(tree_has_text(mp->obj, "\"node.kubernetes.io/unreachable\":"));
}

/* A Pod from YAML text. */
static struct node *
pod(struct fx *f, const char *yaml)
{
	struct yamlio_docs docs = { NULL, 0 };

	assert_int_equal(yamlio_load(&docs, &f->a, &f->d, "pod.yaml", yaml, strlen(yaml),
				     &yamlio_default_limits),
			 0);
	assert_int_equal(docs.count, 1);
	return docs.docs[0];
}

static const char GPU_POD[] =
	"metadata: {name: p, labels: {app: llm}}\n"
	"spec:\n"
	"  containers:\n"
	"  - name: c\n"
	"    resources: {limits: {nvidia.com/gpu: 1}}\n"
	"  tolerations:\n"
	"  - {key: example.com/team, operator: Equal, value: ml, effect: NoSchedule}\n"
	"  - {key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute, "
	"tolerationSeconds: 300}\n"
	"  - {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, "
	"tolerationSeconds: 300}\n";

static void
test_render__patches_append_and_replace_defaults(void **state)
{
	struct fx *f = *state;
	struct spec_site *s = site_new(&f->a, "seoul-dc1", "c1");
	struct render_placement_plan plan;
	struct render_patch p;

	s->placement.not_ready_toleration_seconds = 60;
	s->placement.unreachable_toleration_seconds = 90;
	s->placement.site_binding = BIND_NONE;
	render_placement_plan(&plan, &f->a, s);
	assert_int_equal(render_placement_patches(&p, &f->a, &plan, pod(f, GPU_POD), "inference"),
			 0);
	assert_int_equal(p.count, 5);
	assert_string_equal(p.ops[0].op, "replace");
	assert_string_equal(p.ops[0].path, "/spec/tolerations/1/tolerationSeconds");
	assert_int_equal(p.ops[0].value->scalar.i, 60);
	assert_string_equal(p.ops[1].path, "/spec/tolerations/2/tolerationSeconds");
	assert_int_equal(p.ops[1].value->scalar.i, 90);
	/* appended, so the user's toleration stays */
	assert_string_equal(p.ops[2].op, "add");
	assert_string_equal(p.ops[2].path, "/spec/tolerations/-");
	assert_string_equal(node_str(node_map_get(p.ops[2].value, "key")), "nvidia.com/gpu");
	assert_string_equal(node_str(node_map_get(p.ops[2].value, "operator")), "Exists");
	assert_string_equal(p.ops[3].path, "/spec/affinity");
	assert_string_equal(p.ops[4].path, "/spec/affinity/nodeAffinity");
	assert_int_equal(
		node_path(p.ops[4].value, "preferredDuringSchedulingIgnoredDuringExecution")
			->seq.items[0]
			->map.pairs[0]
			.value->scalar.i,
		100);
}

static void
test_render__patches_respect_what_the_pod_has(void **state)
{
	struct fx *f = *state;
	struct spec_site *s = site_new(&f->a, "seoul-dc1", "c1");
	struct render_placement_plan plan;
	struct render_patch p;

	s->placement.site_binding = BIND_NONE;
	render_placement_plan(&plan, &f->a, s);
	/* GPU taint tolerated already (empty key + Exists tolerates all), 300 s
	 * kept because the spec says 300; own required node affinity: the
	 * preference is added beside it, nothing replaced */
	assert_int_equal(
		render_placement_patches(
			&p, &f->a, &plan,
			pod(f, "spec:\n"
			       "  containers: [{name: c, resources: {requests: {nvidia.com/gpu: "
			       "2}}}]\n"
			       "  tolerations: [{operator: Exists}, {key: "
			       "node.kubernetes.io/not-ready,"
			       " operator: Exists, effect: NoExecute, tolerationSeconds: 300}]\n"
			       "  affinity: {nodeAffinity: "
			       "{requiredDuringSchedulingIgnoredDuringExecution:"
			       " {nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: "
			       "In, values: [a]}]}]}}}\n"),
			"inference"),
		0);
	assert_int_equal(p.count, 1);
	assert_string_equal(
		p.ops[0].path,
		"/spec/affinity/nodeAffinity/preferredDuringSchedulingIgnoredDuringExecution");
	assert_int_equal(p.ops[0].value->kind, NODE_SEQ);

	/* a preference of its own: ours appended after it; the hybrid
	 * preference already there (weight 5): nothing */
	assert_int_equal(
		render_placement_patches(
			&p, &f->a, &plan,
			pod(f,
			    "spec:\n"
			    "  containers: [{name: c, resources: {limits: {nvidia.com/gpu: 1}}}]\n"
			    "  tolerations: [{operator: Exists}]\n"
			    "  affinity: {nodeAffinity: "
			    "{preferredDuringSchedulingIgnoredDuringExecution:"
			    " [{weight: 1, preference: {matchExpressions: [{key: zone, operator: "
			    "In, values: [a]}]}}]}}\n"),
			"inference"),
		0);
	assert_int_equal(p.count, 1);
	assert_string_equal(
		p.ops[0].path,
		"/spec/affinity/nodeAffinity/preferredDuringSchedulingIgnoredDuringExecution/-");
	assert_int_equal(
		render_placement_patches(
			&p, &f->a, &plan,
			pod(f,
			    "spec:\n"
			    "  containers: [{name: c, resources: {limits: {nvidia.com/gpu: 1}}}]\n"
			    "  tolerations: [{operator: Exists}]\n"
			    "  affinity: {nodeAffinity: "
			    "{preferredDuringSchedulingIgnoredDuringExecution:"
			    " [{weight: 5, preference: {matchExpressions: [{key: "
			    "eks.amazonaws.com/compute-type,"
			    " operator: In, values: [hybrid]}]}}]}}\n"),
			"inference"),
		0);
	assert_int_equal(p.count, 0);

	/* require-onprem: ANDed into every term that lacks it, a term with
	 * matchFields only gets the list */
	s->placement.mode = PLACE_REQUIRE_ONPREM;
	render_placement_plan(&plan, &f->a, s);
	assert_int_equal(
		render_placement_patches(
			&p, &f->a, &plan,
			pod(f,
			    "spec:\n"
			    "  containers: [{name: c, resources: {limits: {nvidia.com/gpu: 1}}}]\n"
			    "  tolerations: [{operator: Exists}]\n"
			    "  affinity: {nodeAffinity: "
			    "{requiredDuringSchedulingIgnoredDuringExecution:"
			    " {nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: In, "
			    "values: [a]}]},"
			    " {matchExpressions: [{key: eks.amazonaws.com/compute-type, operator: "
			    "In, values: [hybrid]}]},"
			    " {matchFields: [{key: metadata.name, operator: In, values: "
			    "[n1]}]}]}}}\n"),
			"inference"),
		0);
	assert_int_equal(p.count, 2);
	assert_string_equal(p.ops[0].path, "/spec/affinity/nodeAffinity/"
					   "requiredDuringSchedulingIgnoredDuringExecution/"
					   "nodeSelectorTerms/0/matchExpressions/-");
	assert_string_equal(node_str(node_map_get(p.ops[0].value, "key")),
			    "eks.amazonaws.com/compute-type");
	assert_string_equal(p.ops[1].path, "/spec/affinity/nodeAffinity/"
					   "requiredDuringSchedulingIgnoredDuringExecution/"
					   "nodeSelectorTerms/2/matchExpressions");
	assert_int_equal(p.ops[1].value->kind, NODE_SEQ);
	s->placement.mode = PLACE_PREFER_ONPREM;
	render_placement_plan(&plan, &f->a, s);

	/* Equal "present" does not tolerate the value "Exists": add ours;
	 * podAntiAffinity present: only nodeAffinity is added under it */
	assert_int_equal(
		render_placement_patches(
			&p, &f->a, &plan,
			pod(f,
			    "spec:\n"
			    "  containers: [{name: c, resources: {limits: {nvidia.com/gpu: 1}}}]\n"
			    "  tolerations: [{key: nvidia.com/gpu, operator: Equal, value: "
			    "present, effect: NoSchedule}]\n"
			    "  affinity: {podAntiAffinity: {}}\n"),
			"inference"),
		0);
	assert_int_equal(p.count, 2);
	assert_string_equal(p.ops[0].path, "/spec/tolerations/-");
	assert_string_equal(p.ops[1].path, "/spec/affinity/nodeAffinity");

	/* no tolerations at all: the list is created */
	assert_int_equal(render_placement_patches(&p, &f->a, &plan,
						  pod(f, "spec: {containers: [{name: c, resources: "
							 "{limits: {nvidia.com/gpu: 1}}}]}\n"),
						  "inference"),
			 0);
	assert_string_equal(p.ops[0].path, "/spec/tolerations");
	assert_int_equal(p.ops[0].value->kind, NODE_SEQ);
}

static const char *
op_key(const struct render_patch *p, size_t i)
{
	return node_str(node_map_get(p->ops[i].value, "key"));
}

/* siteBinding: the site's requirement after the hybrid one, each on the
 * Pod the one before left. */
/* The burst scope: the burst taint tolerated after the GPU one, the hybrid
 * nodes only preferred (even with require-onprem), and the fallback pool
 * refused with a required gpusite.io/pool NotIn [fallback]; the placement
 * scope never tolerates the burst taint. */
static void
test_render__burst_plan_keeps_burst_work_off_the_fallback(void **state)
{
	struct fx *f = *state;
	struct spec_site *s = site_new(&f->a, "seoul-dc1", "c1");
	static const char *batch[] = { "batch" };
	struct render_placement_plan plan, plans[RENDER_PLANS_MAX];
	struct render_patch p;
	const char *bare = "spec:\n"
			   "  containers: [{name: c, resources: {limits: {nvidia.com/gpu: 1}}}]\n";

	assert_int_equal(render_placement_plans(plans, &f->a, s), 1);
	s->burst.pool.enabled = true;
	s->burst.namespaces = batch;
	s->burst.namespace_count = 1;
	s->placement.mode = PLACE_REQUIRE_ONPREM;
	assert_int_equal(render_placement_plans(plans, &f->a, s), 2);
	assert_string_equal(plans[0].name, "gpusite-seoul-dc1-placement");
	assert_string_equal(plans[1].name, "gpusite-seoul-dc1-burst-placement");
	for (size_t t = 0; t < plans[0].pool_taint_count; t++)
		assert_string_not_equal(plans[0].pool_taints[t].taint->key, "gpusite.io/burst");
	plan = plans[1];
	assert_int_equal(plan.affinity_count, 3);
	assert_false(plan.affinity[0].required); /* hybrid: on-prem first */
	assert_true(plan.affinity[1].required);  /* the site */
	assert_string_equal(plan.affinity[2].key, "gpusite.io/pool");
	assert_string_equal(plan.affinity[2].op, "NotIn");
	assert_string_equal(plan.affinity[2].values[0], "fallback");
	assert_true(plan.affinity[2].required);
	/* not in the burst namespaces: nothing */
	assert_int_equal(render_placement_patches(&p, &f->a, &plan, pod(f, bare), "inference"), 0);
	assert_int_equal(p.count, 0);
	assert_int_equal(render_placement_patches(&p, &f->a, &plan, pod(f, bare), "batch"), 0);
	/* GPU toleration (the list), burst toleration (appended), affinity,
	 * nodeAffinity with the preference, the required term, pool ANDed in */
	assert_int_equal(p.count, 6);
	assert_string_equal(p.ops[0].path, "/spec/tolerations");
	assert_string_equal(p.ops[1].path, "/spec/tolerations/-");
	assert_string_equal(node_str(node_map_get(p.ops[1].value, "key")), "gpusite.io/burst");
	assert_string_equal(node_str(node_map_get(p.ops[1].value, "effect")), "NoSchedule");
	assert_string_equal(p.ops[5].path, "/spec/affinity/nodeAffinity/"
					   "requiredDuringSchedulingIgnoredDuringExecution/"
					   "nodeSelectorTerms/0/matchExpressions/-");
	assert_string_equal(op_key(&p, 5), "gpusite.io/pool");
	/* the placement scope's plan adds no burst toleration */
	assert_int_equal(render_placement_patches(&p, &f->a, &plans[0], pod(f, bare), "inference"),
			 0);
	for (size_t i = 0; i < p.count; i++)
		if (!strcmp(p.ops[i].path, "/spec/tolerations/-") ||
		    !strcmp(p.ops[i].path, "/spec/tolerations"))
			assert_null(
				strstr(node_str(node_map_get(p.ops[i].value->kind == NODE_SEQ
								     ? p.ops[i].value->seq.items[0]
								     : p.ops[i].value,
							     "key")),
				       "burst"));
}

static void
test_render__patches_bind_the_site(void **state)
{
	struct fx *f = *state;
	struct spec_site *s = site_new(&f->a, "seoul-dc1", "c1");
	struct render_placement_plan plan;
	struct render_patch p;
	const char *no_aff = "spec:\n"
			     "  containers: [{name: c, resources: {limits: {nvidia.com/gpu: 1}}}]\n"
			     "  tolerations: [{operator: Exists}]\n";
	const char *two_terms =
		"spec:\n"
		"  containers: [{name: c, resources: {limits: {nvidia.com/gpu: 1}}}]\n"
		"  tolerations: [{operator: Exists}]\n"
		"  affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution:"
		" {nodeSelectorTerms: [{matchExpressions: [{key: gpusite.io/site, operator: In,"
		" values: [seoul-dc1]}]}, {matchFields: [{key: metadata.name, operator: In,"
		" values: [n1]}]}]}}}\n";

	/* required (the default), prefer-onprem: the preference, then the
	 * one required term with the site */
	render_placement_plan(&plan, &f->a, s);
	assert_int_equal(plan.affinity_count, 2);
	assert_int_equal(render_placement_patches(&p, &f->a, &plan, pod(f, no_aff), "inference"),
			 0);
	assert_int_equal(p.count, 3);
	assert_string_equal(p.ops[0].path, "/spec/affinity");
	assert_string_equal(p.ops[1].path, "/spec/affinity/nodeAffinity");
	assert_string_equal(
		p.ops[2].path,
		"/spec/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution");
	assert_string_equal(node_str(node_map_get(node_path(p.ops[2].value, "nodeSelectorTerms")
							  ->seq.items[0]
							  ->map.pairs[0]
							  .value->seq.items[0],
						  "key")),
			    "gpusite.io/site");
	/* a term with the site already: untouched; one with matchFields only
	 * gets the list */
	assert_int_equal(render_placement_patches(&p, &f->a, &plan, pod(f, two_terms), "inference"),
			 0);
	assert_int_equal(p.count, 2);
	assert_string_equal(
		p.ops[0].path,
		"/spec/affinity/nodeAffinity/preferredDuringSchedulingIgnoredDuringExecution");
	assert_string_equal(p.ops[1].path, "/spec/affinity/nodeAffinity/"
					   "requiredDuringSchedulingIgnoredDuringExecution/"
					   "nodeSelectorTerms/1/matchExpressions");

	/* require-onprem: the hybrid term added first, the site ANDed into it */
	s->placement.mode = PLACE_REQUIRE_ONPREM;
	render_placement_plan(&plan, &f->a, s);
	assert_int_equal(render_placement_patches(&p, &f->a, &plan, pod(f, no_aff), "inference"),
			 0);
	assert_int_equal(p.count, 3);
	assert_string_equal(p.ops[2].path, "/spec/affinity/nodeAffinity/"
					   "requiredDuringSchedulingIgnoredDuringExecution/"
					   "nodeSelectorTerms/0/matchExpressions/-");
	assert_string_equal(op_key(&p, 2), "gpusite.io/site");

	/* preferred: a second preference of weight 100, nothing required */
	s->placement.mode = PLACE_PREFER_ONPREM;
	s->placement.site_binding = BIND_PREFERRED;
	s->placement.weight = 40;
	render_placement_plan(&plan, &f->a, s);
	assert_int_equal(render_placement_patches(&p, &f->a, &plan, pod(f, no_aff), "inference"),
			 0);
	assert_int_equal(p.count, 3);
	assert_string_equal(
		p.ops[2].path,
		"/spec/affinity/nodeAffinity/preferredDuringSchedulingIgnoredDuringExecution/-");
	assert_int_equal(node_map_get(p.ops[2].value, "weight")->scalar.i,
			 RENDER_SITE_PREFERENCE_WEIGHT);

	/* none: the hybrid preference only */
	s->placement.site_binding = BIND_NONE;
	render_placement_plan(&plan, &f->a, s);
	assert_int_equal(plan.affinity_count, 1);
	assert_int_equal(render_placement_patches(&p, &f->a, &plan, pod(f, no_aff), "inference"),
			 0);
	assert_int_equal(p.count, 2);
}

static void
test_render__patches_leave_other_pods_alone(void **state)
{
	struct fx *f = *state;
	struct spec_site *s = site_new(&f->a, "seoul-dc1", "c1");
	struct render_placement_plan plan;
	struct render_patch p;
	struct node *sel = node_new_map(&f->a, P0);

	render_placement_plan(&plan, &f->a, s);
	/* not a GPU Pod */
	assert_int_equal(
		render_placement_patches(
			&p, &f->a, &plan,
			pod(f, "spec: {containers: [{name: c, resources: {limits: {cpu: 1}}}]}\n"),
			"inference"),
		0);
	assert_int_equal(p.count, 0);
	/* outside the namespaces */
	assert_int_equal(render_placement_patches(&p, &f->a, &plan, pod(f, GPU_POD), "default"), 0);
	assert_int_equal(p.count, 0);
	assert_false(render_placement_applies(&plan, pod(f, GPU_POD), "default"));
	/* pod selector */
	node_map_add_str(&f->a, node_map_add(&f->a, sel, "matchLabels", node_new_map(&f->a, P0)),
			 "app", "other");
	plan.pod_selector = sel;
	assert_false(render_placement_applies(&plan, pod(f, GPU_POD), "inference"));
	node_map_set(&f->a, node_map_get(sel, "matchLabels"), "app",
		     node_new_str(&f->a, P0, "llm"));
	assert_true(render_placement_applies(&plan, pod(f, GPU_POD), "inference"));
}

/* Every GPU request form is a GPU Pod (k8s/k8s_gpu.h), the site's shared
 * names from its sharing config among them, and the engines' tests name
 * the same list. */
static void
test_render__patches_every_gpu_request_form(void **state)
{
	struct fx *f = *state;
	struct spec_site *s = site_new(&f->a, "seoul-dc1", "c1");
	struct render_placement_plan plan;
	static const struct render_gpu_syntax syn = { render_quote, "r == ", "", "r.startsWith(",
						      ")" };
	static const char *const forms[] = {
		"spec: {initContainers: [{name: i, resources: {limits: {nvidia.com/gpu: 1}}}],"
		" containers: [{name: c}]}\n",
		"spec: {initContainers: [{name: s, restartPolicy: Always, resources: {requests:"
		" {nvidia.com/gpu: 1}}}], containers: [{name: c}]}\n",
		"spec: {containers: [{name: c, resources: {limits: {nvidia.com/mig-2g.20gb: "
		"1}}}]}\n",
		"spec: {containers: [{name: c}], resourceClaims: [{name: gpu,"
		" resourceClaimTemplateName: gpu}]}\n",
	};
	const char *shared_pod = "spec: {containers: [{name: c, resources: {limits: "
				 "{nvidia.com/gpu.shared: 1}}}]}\n";
	struct render_patch p;

	render_placement_plan(&plan, &f->a, s);
	assert_int_equal(plan.gpu_shared_count, 0);
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		assert_true(render_placement_applies(&plan, pod(f, forms[i]), "inference"));
		assert_int_equal(
			render_placement_patches(&p, &f->a, &plan, pod(f, forms[i]), "inference"),
			0);
		assert_true(p.count > 0);
	}
	/* a shared name is a GPU only where the site's sharing config has it */
	assert_false(render_placement_applies(&plan, pod(f, shared_pod), "inference"));
	assert_false(render_placement_applies(
		&plan, pod(f, "spec: {containers: [{name: c}], resourceClaims: []}\n"),
		"inference"));
	assert_string_equal(render_placement_gpu_test(&f->a, &plan, &syn),
			    "r == \"nvidia.com/gpu\" || r.startsWith(\"nvidia.com/mig-\")");

	s->gpu_stack.values =
		pod(f, "config: {map: {default: 'sharing: {timeSlicing: {renameByDefault: true,"
		       " resources: [{name: gpu, replicas: 4}]}}'}}\n");
	s->inventory = NULL;
	render_placement_plan(&plan, &f->a, s);
	assert_int_equal(plan.gpu_shared_count, 1);
	assert_true(render_placement_applies(&plan, pod(f, shared_pod), "inference"));
	assert_string_equal(render_placement_gpu_test(&f->a, &plan, &syn),
			    "r == \"nvidia.com/gpu\" || r.startsWith(\"nvidia.com/mig-\") ||"
			    " r == \"nvidia.com/gpu.shared\"");
}

/* ---- alerts and errors --------------------------------------------- */

static void
test_render__alerts_use_real_metric_names(void **state)
{
	struct fx *f = *state;
	struct spec_site *s = site_new(&f->a, "seoul-dc1", "c1");
	struct render_result r;
	const struct render_object *pr;
	const struct node *rules;

	/* the failover by the site's budget: 4m + 6m, a margin of 2m */
	s->recovery.node_provisioning = (struct spec_duration){ 240, false, "4m", true };
	s->recovery.image_pull = (struct spec_duration){ 360, false, "6m", true };
	s->alerts.pending_margin = (struct spec_duration){ 120, false, "2m", true };
	assert_int_equal(render_one(f, s, &r, NULL), 0);
	pr = find(&r, "PrometheusRule", "gpusite-seoul-dc1");
	assert_string_equal(pr->namespace, "monitoring");
	rules = node_path(node_path(pr->obj, "spec.groups")->seq.items[0], "rules");
	assert_int_equal(rules->seq.count, 6);
	assert_true(tree_has_text(rules->seq.items[0], "karpenter_nodepools_usage{nodepool=\"gpu-"
						       "fallback\",resource_type=\"nodes\"} > 0"));
	assert_true(tree_has_text(rules->seq.items[1], "karpenter_nodepools_limit"));
	assert_true(tree_has_text(rules->seq.items[3], "kube_pod_status_phase{phase=\"Pending\""));
	assert_true(tree_has_text(rules->seq.items[3], "resource=\"nvidia_com_gpu\""));
	assert_true(tree_has_text(rules->seq.items[3], "namespace=~\"inference\""));
	assert_true(tree_has_text(rules->seq.items[4], "kube_node_status_condition"));
	assert_true(tree_has_text(rules->seq.items[4], "node=~\"gpu-a-01|gpu-a-02\""));
	/* named nodes by name, no kube_node_labels; rack-b is SSM (named at
	 * activation): its nodes are found by the site and node-group labels,
	 * and an alert says when kube-state-metrics exports none of them */
	assert_true(tree_has_text(rules->seq.items[4],
				  "kube_node_status_condition{condition=\"Ready\",status=\"true\","
				  "node=~\"gpu-a-01|gpu-a-02\"} == 0"));
	assert_true(tree_has_text(
		rules->seq.items[4],
		"label_gpusite_io_site=\"seoul-dc1\",label_gpusite_io_node_group=~\"rack-b\""));
	assert_string_equal(node_str(node_map_get(rules->seq.items[5], "alert")),
			    "GPUSiteNodeLabelsMissing");
	assert_true(tree_has_text(rules->seq.items[5], "--metric-labels-allowlist=nodes="));
	assert_string_equal(node_str(node_map_get(rules->seq.items[3], "for")), "12m");
	/* launches nothing past provisioning + margin, or Launched=False */
	assert_string_equal(node_str(node_map_get(rules->seq.items[2], "alert")),
			    "GPUSiteFallbackLaunchFailing");
	assert_string_equal(node_str(node_map_get(rules->seq.items[2], "for")), "6m");
	assert_true(tree_has_text(rules->seq.items[2], "kube_pod_status_unschedulable"));
	assert_true(tree_has_text(rules->seq.items[2], "karpenter_sh_nodepool=~\"gpu-fallback\""));
	assert_string_equal(key_at(rules->seq.items[0], 0), "alert");
}

static void
test_render__unknown_site_and_empty_are_errors(void **state)
{
	struct fx *f = *state;
	struct spec_site *s = site_new(&f->a, "seoul-dc1", "c1");
	struct spec_fleet empty = { NULL, 0, 0 }, fl = fleet_of(&f->a, 1, &s);
	struct render_options opt = { 0 };
	const char *const names[] = { "seoul-dc1", "busan" };
	struct render_result r;

	opt.sites = names;
	opt.site_count = 2;
	assert_int_equal(render_fleet(&r, &f->a, &f->d, &fl, &opt), -1);
	assert_int_equal(f->d.count, 1);
	assert_string_equal(f->d.items[0].rule, RENDER_RULE_UNKNOWN_SITE);
	assert_non_null(strstr(f->d.items[0].msg, "'busan'"));
	assert_int_equal(r.count, 0);

	assert_int_equal(render_fleet(&r, &f->a, &f->d, &empty, NULL), -1);
	assert_string_equal(f->d.items[1].rule, RENDER_RULE_EMPTY);
	assert_non_null(strstr(f->d.items[1].msg, "nothing to render"));

	opt.site_count = 1;
	assert_int_equal(render_fleet(&r, &f->a, &f->d, &fl, &opt), 0);
	assert_true(r.count > 0);
}

static void
test_render__same_bytes_whatever_the_input_order(void **state)
{
	struct fx *f = *state;
	struct spec_site *ab[2], *ba[2];
	struct spec_fleet f1, f2;
	struct render_result r1, r2;
	struct buf b1 = BUF_INIT, b2 = BUF_INIT;

	ab[0] = ba[1] = site_new(&f->a, "a", "c1");
	ab[1] = ba[0] = site_new(&f->a, "b", "c1");
	ab[1]->fallback.node_pool_name = "b-pool";
	f1 = fleet_of(&f->a, 2, ab);
	f2 = fleet_of(&f->a, 2, ba);
	assert_int_equal(render_fleet(&r1, &f->a, &f->d, &f1, NULL), 0);
	assert_int_equal(render_fleet(&r2, &f->a, &f->d, &f2, NULL), 0);
	buf_init(&b1, 0);
	buf_init(&b2, 0);
	assert_int_equal(emit_stream(&b1, &r1, EMIT_YAML), 0);
	assert_int_equal(emit_stream(&b2, &r2, EMIT_YAML), 0);
	assert_int_equal(b1.len, b2.len);
	assert_memory_equal(b1.data, b2.data, b1.len);
	buf_release(&b1);
	buf_release(&b2);
}

static void
test_render__cluster_names_become_valid_names(void **state)
{
	struct fx *f = *state;
	struct spec_site *s = site_new(&f->a, "seoul-dc1", "Prod_EKS-1");
	struct render_result r;
	char longname[80];

	assert_int_equal(render_one(f, s, &r, NULL), 0);
	assert_non_null(find(&r, "Application", "prod-eks-1-nvidia-device-plugin"));
	assert_string_equal(
		node_str(node_path(find(&r, "Application", "prod-eks-1-nvidia-device-plugin")->obj,
				   "metadata.labels")
				 ->map.pairs[1]
				 .value),
		"Prod_EKS-1");

	memset(longname, 'c', 70);
	longname[70] = '\0';
	s->cluster.name = longname;
	assert_int_equal(render_one(f, s, &r, NULL), -1);
	assert_string_equal(f->d.items[f->d.count - 1].rule, RENDER_RULE_NAME);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_render__nodeconfig_labels_sorted_taint_first,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_render__nodeconfig_iamra_shape, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_render__ssm_code_only_in_the_file, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_render__ssm_env_unset_names_the_variable,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_render__no_files_needs_no_secret, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_render__kind_ranks_order_the_stream, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_render__every_object_has_envelope_and_labels,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_render__values_merge_is_deep_and_lists_replace,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_render__device_plugin_values, setup, teardown),
		cmocka_unit_test_setup_teardown(test_render__gpu_operator_values, setup, teardown),
		cmocka_unit_test_setup_teardown(test_render__sync_policy, setup, teardown),
		cmocka_unit_test_setup_teardown(test_render__one_application_per_cluster, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_render__nodepool_karpenter_vocabulary, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_render__nodepool_gte_from_karpenter_1_9, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_render__nodepool_reservation_type_not_in,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_render__nodepool_auto_mode_vocabulary, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_render__no_fallback_no_nodepool, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_render__map_api_version_follows_kube_minor,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_render__engines_and_none, setup, teardown),
		cmocka_unit_test_setup_teardown(test_render__patches_append_and_replace_defaults,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_render__patches_respect_what_the_pod_has,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_render__patches_bind_the_site, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			test_render__burst_plan_keeps_burst_work_off_the_fallback, setup, teardown),
		cmocka_unit_test_setup_teardown(test_render__patches_every_gpu_request_form, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_render__patches_leave_other_pods_alone, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_render__alerts_use_real_metric_names, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_render__unknown_site_and_empty_are_errors,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_render__same_bytes_whatever_the_input_order,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_render__cluster_names_become_valid_names,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
