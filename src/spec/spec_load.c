/*
 * spec_load.c - a schema-valid GPUSite document -> struct spec_site,
 * every default the schema states (docs/spec.md) applied.
 *
 * The schema has already checked types, enums and required fields, so
 * this file does not report them again; it still reads defensively (a
 * missing or mistyped field falls back to its default) so that no input
 * can crash it.  The one thing the schema cannot check is whether a
 * duration's digits overflow; that is reported here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/num.h"
#include "k8s/k8s_version.h"
#include "spec/spec.h"

struct loader {
	struct arena *a;
	struct diags *d;
	bool failed;
};

#define DEFAULT_TAINT_KEY "nvidia.com/gpu"
#define DEFAULT_TAINT_VALUE "Exists"
#define DEFAULT_TAINT_EFFECT "NoSchedule"
#define DEFAULT_CERT_PATH "/etc/iam/pki/server.pem"
#define DEFAULT_KEY_PATH "/etc/iam/pki/server.key"
#define DEFAULT_KUBE_MINOR 36

static const struct node *
get(const struct node *map, const char *key)
{
	if (!map || map->kind != NODE_MAP)
		return NULL;
	return node_map_get(map, key);
}

static const struct node *
get_map(const struct node *map, const char *key)
{
	const struct node *n = get(map, key);

	return n && n->kind == NODE_MAP ? n : NULL;
}

static const struct node *
get_seq(const struct node *map, const char *key)
{
	const struct node *n = get(map, key);

	return n && n->kind == NODE_SEQ ? n : NULL;
}

static const char *
get_str(const struct node *map, const char *key, const char *def)
{
	const char *s = node_str(get(map, key));

	return s ? s : def;
}

int
spec_node_int(struct arena *a, const struct node *n, int64_t *out)
{
	struct node *m = (struct node *)n; /* the run's tree, writable */
	int64_t v;
	char text[24];
	int r;

	if (!n || n->kind != NODE_SCALAR)
		return -1;
	if (n->type == NODE_INT) {
		*out = n->scalar.i;
		return 0;
	}
	if (n->type != NODE_FLOAT)
		return -1;
	/* The text's exact value, not its nearest double: 16.0000000000000001
	 * and 9007199254740993.0 are not the integers their doubles are. */
	r = num_decimal_to_int64(n->scalar.text, n->scalar.len, &v);
	if (r == -2) /* not decimal text, such as !!float 0x10 */
		r = num_double_to_int64(n->scalar.f, &v);
	if (r < 0)
		return -1;
	/* 16.0 is the integer 16 for every later reader too (rules, render,
	 * explain): the scalar becomes the int it equals. */
	snprintf(text, sizeof(text), "%lld", (long long)v);
	m->type = NODE_INT;
	m->scalar.i = v;
	m->scalar.f = (double)v;
	m->scalar.len = strlen(text);
	m->scalar.text = arena_strdup(a, text);
	*out = v;
	return 0;
}

/*
 * Every integer field of the model is read here, and only here.  A field
 * that is absent (or not a number: the schema has refused it) gives the
 * default and false.  A number outside [lo, hi] - the range of the model's
 * field, which the schema's minimum and maximum also say - is GS003, never
 * a clamp or a default.
 */
static bool
read_int(struct loader *L, const struct node *map, const char *key, const char *path, int64_t lo,
	 int64_t hi, int64_t def, int64_t *out)
{
	const struct node *n = get(map, key);
	int64_t v;

	*out = def;
	if (!n || n->kind != NODE_SCALAR || (n->type != NODE_INT && n->type != NODE_FLOAT))
		return false;
	if (spec_node_int(L->a, n, &v) < 0 || v < lo || v > hi) {
		L->failed = true;
		diag_report(L->d, n->at, "GS003", arena_printf(L->a, "%s.%s", path, key),
			    "%s.%s is %s; write a whole number from %lld to %lld", path, key,
			    node_text(n), (long long)lo, (long long)hi);
		return false;
	}
	*out = v;
	return true;
}

static bool
get_bool(const struct node *map, const char *key, bool def, bool *set)
{
	const struct node *n = get(map, key);

	if (set)
		*set = node_is_bool(n);
	return node_is_bool(n) ? n->scalar.i != 0 : def;
}

static bool
streq(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

/*
 * A duration field: parsed when written, else the default's text.  A
 * field that is rendered into a Karpenter NodePool (`karpenter`) keeps
 * only whole seconds, in the form the CRD's pattern takes: "1.5h" is
 * rendered as "90m", and "500ms" is GS003 here rather than an object the
 * API server refuses.
 */
static void
load_duration(struct loader *L, struct spec_duration *out, const struct node *map, const char *key,
	      const char *path, const char *def, bool allow_never, bool karpenter)
{
	const struct node *n = get(map, key);
	const char *text = node_str(n);

	memset(out, 0, sizeof(*out));
	if (text) {
		char norm[SPEC_DURATION_BUFSZ];
		const char *why;

		if (!spec_parse_duration(text, allow_never, out) && !karpenter)
			return;
		if (out->set && karpenter) {
			int r = spec_duration_karpenter(text, norm, sizeof(norm), &why);

			if (r == 0)
				out->text = arena_strdup(L->a, norm);
			if (r >= 0)
				return;
			L->failed = true;
			diag_report(L->d, n->at, "GS003", arena_printf(L->a, "%s.%s", path, key),
				    "%s.%s is %s: %s; write whole seconds, minutes or "
				    "hours such as 90s, 5m or 1h30m%s",
				    path + (strncmp(path, "spec.", 5) ? 0 : 5), key, text, why,
				    allow_never ? ", or Never" : "");
			goto defaulted;
		}
		L->failed = true;
		diag_report(L->d, n->at, "GS003", arena_printf(L->a, "%s.%s", path, key),
			    "%s.%s is not a duration: write Go syntax such as 90s, "
			    "5m or 1h30m%s",
			    path + (strncmp(path, "spec.", 5) ? 0 : 5), key,
			    allow_never ? ", or Never" : "");
	}
defaulted:
	if (def) {
		spec_parse_duration(def, allow_never, out);
		out->set = false;
	} else {
		memset(out, 0, sizeof(*out));
	}
}

static const char **
load_strings(struct loader *L, const struct node *seq, const struct node ***srcs_out,
	     size_t *count_out)
{
	const char **v;
	const struct node **srcs;
	size_t i, n = 0;

	*count_out = 0;
	if (srcs_out)
		*srcs_out = NULL;
	if (!seq || seq->kind != NODE_SEQ || !seq->seq.count)
		return NULL;
	v = arena_alloc(L->a, seq->seq.count * sizeof(*v));
	srcs = arena_alloc(L->a, seq->seq.count * sizeof(*srcs));
	for (i = 0; i < seq->seq.count; i++) {
		const char *s = node_text(seq->seq.items[i]);

		if (!s)
			continue;
		v[n] = s;
		srcs[n] = seq->seq.items[i];
		n++;
	}
	*count_out = n;
	if (srcs_out)
		*srcs_out = srcs;
	return v;
}

static int
kv_cmp(const void *pa, const void *pb)
{
	const struct spec_kv *a = pa, *b = pb;

	return strcmp(a->key, b->key);
}

/* A string map (labels); values of other scalar types keep their text. */
static struct spec_kv *
load_labels(struct loader *L, const struct node *map, size_t *count_out)
{
	struct spec_kv *kv;
	size_t i, n = 0;

	*count_out = 0;
	if (!map || map->kind != NODE_MAP || !map->map.count)
		return NULL;
	kv = arena_alloc(L->a, map->map.count * sizeof(*kv));
	for (i = 0; i < map->map.count; i++) {
		const struct node_pair *p = &map->map.pairs[i];
		const char *k = node_text(p->key);
		const char *v = node_is_null(p->value) ? "" : node_text(p->value);

		if (!k || !v)
			continue;
		kv[n].key = k;
		kv[n].value = v;
		kv[n].src = p->value;
		n++;
	}
	qsort(kv, n, sizeof(*kv), kv_cmp);
	*count_out = n;
	return kv;
}

static void
load_taint(struct spec_taint *t, const struct node *map, const char *def_key, const char *def_value,
	   const char *def_effect)
{
	t->key = get_str(map, "key", def_key);
	t->value = get_str(map, "value", def_value);
	t->effect = get_str(map, "effect", def_effect);
	t->src = map;
}

/* cluster.versions.<name>: the schema checked the form (GS003) */
static void
load_version(struct spec_version *v, const struct node *versions, const char *name)
{
	const struct node *n = get(versions, name);
	const char *text = get_str(versions, name, NULL);

	v->set = text && k8s_release_parse(text, &v->release) == 0;
	v->src = n;
}

static void
load_quotas(struct loader *L, struct spec_quotas *q, const struct node *map)
{
	static const char *const markets[QUOTA_MARKETS] = { "onDemand", "spot" };
	static const char *const groups[QUOTA_GROUPS] = { "G", "P" };

	q->set = map != NULL;
	for (int m = 0; m < QUOTA_MARKETS; m++) {
		const struct node *mm = get_map(map, markets[m]);

		for (int g = 0; g < QUOTA_GROUPS; g++) {
			q->src[m][g] = get(mm, groups[g]);
			if (!read_int(L, mm, groups[g],
				      arena_printf(L->a, "spec.cluster.quotas.%s", markets[m]), 0,
				      INT32_MAX, -1, &q->vcpus[m][g]))
				q->src[m][g] = NULL;
		}
	}
}

static void
load_cluster(struct loader *L, struct spec_cluster *c, const struct node *map)
{
	const char *v;

	c->src = map;
	c->name = get_str(map, "name", "");
	c->region = get_str(map, "region", "");
	c->provisioner = streq(get_str(map, "provisioner", NULL), "auto-mode") ? PROV_AUTO_MODE
									       : PROV_KARPENTER;
	v = get_str(map, "kubernetesVersion", NULL);
	c->kubernetes_version = v;
	c->kube_minor = DEFAULT_KUBE_MINOR;
	c->kube_version_assumed = true;
	c->versions_src = get_map(map, "versions");
	load_version(&c->karpenter_version, c->versions_src, "karpenter");
	load_version(&c->kyverno_version, c->versions_src, "kyverno");
	if (v) {
		/* k8s_version_parse's forms: "1.35", "v1.35", "1.35.2", ... */
		int major, minor;

		if (k8s_version_parse(v, strlen(v), &major, &minor) == 0 && major == 1) {
			c->kube_minor = minor;
			c->kube_version_assumed = false;
		}
	}
	load_quotas(L, &c->quotas, get_map(map, "quotas"));
}

static enum spec_credentials
load_credentials(struct spec_node_group *g, const struct node *cred)
{
	const struct node *ssm = get(cred, "ssm");
	const struct node *ra = get(cred, "iamRolesAnywhere");

	if (ssm && ra)
		return CRED_BOTH;
	if (ra) {
		g->iamra.src = ra;
		g->iamra.trust_anchor_arn = get_str(ra, "trustAnchorArn", "");
		g->iamra.profile_arn = get_str(ra, "profileArn", "");
		g->iamra.role_arn = get_str(ra, "roleArn", "");
		g->iamra.certificate_path = get_str(ra, "certificatePath", DEFAULT_CERT_PATH);
		g->iamra.private_key_path = get_str(ra, "privateKeyPath", DEFAULT_KEY_PATH);
		return CRED_IAMRA;
	}
	if (ssm) {
		g->ssm.src = ssm;
		g->ssm.activation_id = get_str(ssm, "activationId", "");
		g->ssm.activation_code_env = get_str(ssm, "activationCodeEnv", "");
		return CRED_SSM;
	}
	return CRED_NONE;
}

static void
load_group(struct loader *L, struct spec_node_group *g, const struct node *map, size_t index)
{
	const char *path = arena_printf(L->a, "spec.nodeGroups[%zu]", index);
	int64_t v;
	const struct node *gpu = get_map(map, "gpu");
	const struct node *kubelet = get_map(map, "kubelet");
	const struct node *taints = get_seq(map, "taints");
	const struct node *cred = get_map(map, "credentials");
	size_t i;

	g->src = map;
	g->name = get_str(map, "name", "");
	g->gpu_model = get_str(gpu, "model", "");
	g->arch = get_str(map, "arch", "amd64");
	read_int(L, gpu, "perNode", arena_printf(L->a, "%s.gpu", path), 1, 16, 0, &v);
	g->gpus_per_node = (int)v;
	g->nodes = load_strings(L, get_seq(map, "nodes"), &g->node_srcs, &g->node_count);
	g->count_set = read_int(L, map, "count", path, 1, INT32_MAX, 0, &v);
	g->count = (int)v;
	if (g->node_count)
		g->count = (int)g->node_count; /* the names are the truth */
	g->credentials = load_credentials(g, cred);
	g->labels = load_labels(L, get_map(map, "labels"), &g->label_count);
	if (taints && taints->seq.count) {
		g->taints = arena_alloc(L->a, taints->seq.count * sizeof(*g->taints));
		for (i = 0; i < taints->seq.count; i++) {
			const struct node *t = taints->seq.items[i];

			if (!t || t->kind != NODE_MAP)
				continue;
			load_taint(&g->taints[g->taint_count++], t, "", "", "");
		}
	}
	g->kubelet_flags = load_strings(L, get_seq(kubelet, "flags"), &g->kubelet_flag_srcs,
					&g->kubelet_flag_count);
	g->kubelet_config = get_map(kubelet, "config");
}

static void
load_gpu_stack(struct spec_gpu_stack *gs, const struct node *map)
{
	const struct node *chart = get_map(map, "chart");
	bool operator;

	gs->src = map;
	gs->type = streq(get_str(map, "type", NULL), "gpu-operator") ? STACK_GPU_OPERATOR
								     : STACK_DEVICE_PLUGIN;
	operator= gs->type == STACK_GPU_OPERATOR;
	gs->chart.src = chart;
	gs->chart.repo_url = get_str(chart, "repoURL",
					    operator? "https://helm.ngc.nvidia.com/nvidia"
						    : "https://nvidia.github.io/k8s-device-plugin");
	gs->chart.name = get_str(chart, "name", operator? "gpu-operator" : "nvidia-device-plugin");
	gs->chart.namespace =
		get_str(chart, "namespace", operator? "gpu-operator" : "nvidia-device-plugin");
	/* a chart version given as a number (1.2) still reaches GS030 */
	gs->chart.version = node_text(get(chart, "version"));
	if (!gs->chart.version)
		gs->chart.version = "";
	gs->gfd = get_bool(map, "gfd", true, NULL);
	gs->dcgm_exporter = get_bool(map, "dcgmExporter", operator, & gs->dcgm_exporter_set);
	gs->toolkit = get_bool(map, "toolkit", false, NULL);
	gs->values = get_map(map, "values");
}

static void
load_node_class(struct loader *L, struct spec_node_class *nc, const struct node *map)
{
	const struct node *meta = get_map(map, "metadataOptions");
	const struct node *cache = get_map(map, "imageCache");
	const struct node *vol = get_map(map, "imageVolume");

	nc->src = map;
	nc->set = map != NULL;
	nc->role = get_str(map, "role", NULL);
	nc->instance_profile = get_str(map, "instanceProfile", NULL);
	nc->subnet_terms = get_seq(map, "subnetSelectorTerms");
	nc->security_group_terms = get_seq(map, "securityGroupSelectorTerms");
	nc->ami_version = get_str(map, "amiVersion", NULL);
	nc->tags = load_labels(L, get_map(map, "tags"), &nc->tag_count);
	nc->http_tokens = get_str(meta, "httpTokens", "required");
	read_int(L, meta, "httpPutResponseHopLimit", "spec.fallback.nodeClass.metadataOptions", 1,
		 64, 1, &nc->http_put_response_hop_limit);
	nc->image_cache_snapshot = get_str(cache, "snapshotID", NULL);
	nc->image_cache_volume_size = get_str(cache, "volumeSize", NULL);
	nc->image_volume.src = vol;
	nc->image_volume.set = vol != NULL;
	nc->image_volume.size = get_str(vol, "size", NULL);
	nc->image_volume.type = get_str(vol, "type", "gp3");
	read_int(L, vol, "iops", "spec.fallback.nodeClass.imageVolume", 100, 256000, 0,
		 &nc->image_volume.iops);
	read_int(L, vol, "throughput", "spec.fallback.nodeClass.imageVolume", 125, 2000, 0,
		 &nc->image_volume.throughput);
	nc->image_volume.encrypted = get_bool(vol, "encrypted", true, NULL);
	nc->image_volume.kms_key_id = get_str(vol, "kmsKeyID", NULL);
	nc->instance_store_policy = get_str(map, "instanceStorePolicy", NULL);
	nc->reservation_terms = get_seq(map, "capacityReservationSelectorTerms");
}

/* A string, or a list of strings (capacityType and capacityReservationType
 * take both forms); `def` when absent. */
static const char **
load_one_or_list(struct loader *L, const struct node *map, const char *key, const char *def,
		 size_t *count)
{
	const char *one = get_str(map, key, def);
	const char **v;

	if (get_seq(map, key))
		return load_strings(L, get_seq(map, key), NULL, count);
	*count = 0;
	if (!one)
		return NULL;
	v = arena_alloc(L->a, sizeof(*v));
	v[0] = one;
	*count = 1;
	return v;
}

static enum spec_capacity
capacity_of(const char *cap)
{
	return streq(cap, "spot")       ? CAP_SPOT
	       : streq(cap, "reserved") ? CAP_RESERVED
					: CAP_ON_DEMAND;
}

static void
load_capacity(struct loader *L, struct spec_fallback *f, const struct node *map)
{
	f->capacity_types =
		load_one_or_list(L, map, "capacityType", "on-demand", &f->capacity_type_count);
	f->capacity_type = CAP_ON_DEMAND;
	if (f->capacity_type_count)
		f->capacity_type = capacity_of(f->capacity_types[0]);
	for (size_t i = 0; i < f->capacity_type_count; i++)
		f->reserved |= capacity_of(f->capacity_types[i]) == CAP_RESERVED;
	f->reservation_types = load_one_or_list(L, map, "capacityReservationType", NULL,
						&f->reservation_type_count);
	f->class_selects_reservations = get_bool(map, "nodeClassSelectsReservations", false, NULL);
	f->disruption_budgets = get_seq(map, "disruptionBudgets");
}

int64_t
spec_image_pull_seconds(const struct spec_site *s, bool *cached)
{
	bool c = s->fallback.node_class.image_cache_snapshot && s->recovery.image_pull_cached.set;

	if (cached)
		*cached = c;
	return c ? s->recovery.image_pull_cached.seconds : s->recovery.image_pull.seconds;
}

static void
load_fallback(struct loader *L, struct spec_fallback *f, const struct node *map,
	      enum spec_provisioner prov, const char *path)
{
	const char *image;
	bool auto_mode = prov == PROV_AUTO_MODE;

	f->src = map;
	f->enabled = get_bool(map, "enabled", true, NULL);
	/* NULL when not written: the names the tool derives are the
	 * inventory's (src/inventory/inventory.c) */
	f->node_pool_name = get_str(map, "nodePoolName", NULL);
	f->node_class_name = get_str(map, "nodeClassName", NULL);
	f->instance_types = load_strings(L, get_seq(map, "instanceTypes"), &f->instance_type_srcs,
					 &f->instance_type_count);
	load_capacity(L, f, map);
	f->gpu_limit_set = read_int(L, map, "gpuLimit", path, 0, INT64_MAX, 0, &f->gpu_limit);
	read_int(L, map, "minGpuMemoryMiB", path, 1, INT64_MAX, 0, &f->min_gpu_memory_mib);
	load_duration(L, &f->expire_after, map, "expireAfter", path, auto_mode ? "336h" : "720h",
		      true, true);
	f->exclusive = get_bool(map, "exclusive", true, NULL);
	f->consolidation_policy = get_str(map, "consolidationPolicy", "WhenEmptyOrUnderutilized");
	load_duration(L, &f->consolidate_after, map, "consolidateAfter", path, "5m", true, true);
	f->zones = load_strings(L, get_seq(map, "zones"), NULL, &f->zone_count);
	image = get_str(map, "nodeImage", NULL);
	f->node_image = streq(image, "al2023")         ? IMAGE_AL2023
			: streq(image, "bottlerocket") ? IMAGE_BOTTLEROCKET
						       : IMAGE_UNSET;
	f->device_plugin_version = get_str(map, "devicePluginVersion", "");
	load_node_class(L, &f->node_class, get_map(map, "nodeClass"));
}

/* spec.burst: read as a fallback block, then the burst pool's own
 * defaults (spot, the fallback's instance types) and the fallback's node
 * class and image, which its nodes boot with too. */
static void
load_burst(struct loader *L, struct spec_site *s, const struct node *map)
{
	struct spec_burst *b = &s->burst;
	const struct spec_fallback *fb = &s->fallback;

	load_fallback(L, &b->pool, map, s->cluster.provisioner, "spec.burst");
	b->src = map;
	b->pool.enabled = map && get_bool(map, "enabled", true, NULL);
	if (!get_str(map, "capacityType", NULL) && !get_seq(map, "capacityType")) {
		static const char *spot[] = { "spot" };

		b->pool.capacity_types = spot;
		b->pool.capacity_type_count = 1;
		b->pool.capacity_type = CAP_SPOT;
	}
	if (!get_seq(map, "instanceTypes")) {
		b->pool.instance_types = fb->instance_types;
		b->pool.instance_type_srcs = fb->instance_type_srcs;
		b->pool.instance_type_count = fb->instance_type_count;
	}
	b->pool.node_class_name = fb->node_class_name;
	b->pool.node_image = fb->node_image;
	b->pool.node_class = fb->node_class;
	b->pool.node_class.set = false; /* rendered once, with the fallback */
	b->namespaces = load_strings(L, get_seq(map, "namespaces"), NULL, &b->namespace_count);
	b->pod_selector = get_map(map, "podSelector");
}

static void
load_placement(struct loader *L, struct spec_placement *p, const struct node *map)
{
	const char *engine = get_str(map, "engine", "kyverno");
	const char *fencing = get_str(map, "fencing", "none");
	const char *binding = get_str(map, "siteBinding", "required");
	int64_t v;

	p->src = map;
	p->mode = streq(get_str(map, "mode", NULL), "require-onprem") ? PLACE_REQUIRE_ONPREM
								      : PLACE_PREFER_ONPREM;
	read_int(L, map, "weight", "spec.placement", 1, 100, 100, &v);
	p->weight = (int)v;
	p->engine = streq(engine, "kyverno-clusterpolicy")       ? ENGINE_KYVERNO_CLUSTERPOLICY
		    : streq(engine, "mutating-admission-policy") ? ENGINE_MAP
		    : streq(engine, "none")                      ? ENGINE_NONE
								 : ENGINE_KYVERNO;
	p->namespaces = load_strings(L, get_seq(map, "namespaces"), NULL, &p->namespace_count);
	p->pod_selector = get_map(map, "podSelector");
	read_int(L, map, "notReadyTolerationSeconds", "spec.placement", 0, INT64_MAX, 300,
		 &p->not_ready_toleration_seconds);
	read_int(L, map, "unreachableTolerationSeconds", "spec.placement", 0, INT64_MAX, 300,
		 &p->unreachable_toleration_seconds);
	p->single_writer = get_bool(map, "singleWriter", false, NULL);
	p->fencing = streq(fencing, "lease")         ? FENCE_LEASE
		     : streq(fencing, "statefulset") ? FENCE_STATEFULSET
						     : FENCE_NONE;
	p->site_binding = streq(binding, "preferred") ? BIND_PREFERRED
			  : streq(binding, "none")    ? BIND_NONE
						      : BIND_REQUIRED;
}

static void
load_recovery(struct loader *L, struct spec_recovery *r, const struct node *map)
{
	const char *path = "spec.recovery";

	r->src = map;
	r->set = map != NULL;
	load_duration(L, &r->target_rto, map, "targetRTO", path, NULL, false, false);
	load_duration(L, &r->node_monitor_grace_period, map, "nodeMonitorGracePeriod", path, "50s",
		      false, false);
	load_duration(L, &r->node_provisioning, map, "nodeProvisioning", path, NULL, false, false);
	load_duration(L, &r->image_pull, map, "imagePull", path, NULL, false, false);
	load_duration(L, &r->image_pull_cached, map, "imagePullCached", path, NULL, false, false);
	load_duration(L, &r->model_load, map, "modelLoad", path, NULL, false, false);
}

static void
load_sync_policy(struct loader *L, struct spec_sync_policy *sp, const struct node *map)
{
	const struct node *retry = get_map(map, "retry");
	const struct node *backoff = get_map(retry, "backoff");
	const char *path = "spec.argocd.syncPolicy.retry";

	sp->src = map;
	sp->automated = get_bool(map, "automated", true, NULL);
	sp->prune = get_bool(map, "prune", false, NULL);
	sp->self_heal = get_bool(map, "selfHeal", true, NULL);
	sp->retry = retry != NULL;
	sp->retry_limit_set = read_int(L, retry, "limit", path, 0, 1000, 0, &sp->retry_limit);
	sp->backoff_duration = get_str(backoff, "duration", NULL);
	sp->backoff_max_duration = get_str(backoff, "maxDuration", NULL);
	read_int(L, backoff, "factor", "spec.argocd.syncPolicy.retry.backoff", 1, 100, 0,
		 &sp->backoff_factor);
}

struct spec_site *
spec_load(struct arena *a, struct diags *d, const struct node *doc)
{
	struct loader L = { a, d, false };
	struct spec_site *s;
	const struct node *spec, *groups;
	size_t i;

	if (!doc || doc->kind != NODE_MAP ||
	    !streq(get_str(doc, "apiVersion", NULL), SPEC_API_VERSION) ||
	    !streq(get_str(doc, "kind", NULL), SPEC_KIND) || !get_map(doc, "spec")) {
		struct pos at = { doc ? doc->at.file : NULL, doc ? doc->at.line : 0,
				  doc ? doc->at.col : 0 };

		diag_report(d, at, "GS003", "",
			    "document is not a %s: write apiVersion: %s, kind: %s "
			    "and a spec mapping",
			    SPEC_KIND, SPEC_API_VERSION, SPEC_KIND);
		return NULL;
	}
	spec = get_map(doc, "spec");
	s = arena_alloc(a, sizeof(*s));
	s->doc = doc;
	s->file = doc->at.file;
	s->name = get_str(get_map(doc, "metadata"), "name", "");

	load_cluster(&L, &s->cluster, get_map(spec, "cluster"));
	load_taint(&s->gpu_taint, get_map(spec, "gpuTaint"), DEFAULT_TAINT_KEY, DEFAULT_TAINT_VALUE,
		   DEFAULT_TAINT_EFFECT);
	groups = get_seq(spec, "nodeGroups");
	if (groups && groups->seq.count) {
		s->groups = arena_alloc(a, groups->seq.count * sizeof(*s->groups));
		for (i = 0; i < groups->seq.count; i++) {
			const struct node *g = groups->seq.items[i];

			if (g && g->kind == NODE_MAP)
				load_group(&L, &s->groups[s->group_count++], g, i);
		}
	}
	load_gpu_stack(&s->gpu_stack, get_map(spec, "gpuStack"));
	load_fallback(&L, &s->fallback, get_map(spec, "fallback"), s->cluster.provisioner,
		      "spec.fallback");
	load_burst(&L, s, get_map(spec, "burst"));
	load_placement(&L, &s->placement, get_map(spec, "placement"));
	load_recovery(&L, &s->recovery, get_map(spec, "recovery"));

	s->alerts.src = get_map(spec, "alerts");
	s->alerts.enabled = get_bool(s->alerts.src, "enabled", true, NULL);
	s->alerts.namespace = get_str(s->alerts.src, "namespace", "monitoring");
	load_duration(&L, &s->alerts.pending_margin, s->alerts.src, "pendingMargin", "spec.alerts",
		      "2m", false, false);
	s->alerts.labels =
		load_labels(&L, get_map(s->alerts.src, "labels"), &s->alerts.label_count);

	s->argocd.src = get_map(spec, "argocd");
	s->argocd.namespace = get_str(s->argocd.src, "namespace", "argocd");
	s->argocd.project = get_str(s->argocd.src, "project", "default");
	s->argocd.destination_server =
		get_str(s->argocd.src, "destinationServer", "https://kubernetes.default.svc");
	s->argocd.destination_server_set =
		get_str(s->argocd.src, "destinationServer", NULL) != NULL;
	s->argocd.destination_name = get_str(s->argocd.src, "destinationName", NULL);
	load_sync_policy(&L, &s->argocd.sync, get_map(s->argocd.src, "syncPolicy"));
	return s;
}
