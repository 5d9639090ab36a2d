/*
 * test_inventory.c - what a site owns (src/inventory/): the names a
 * pool and its node class get when the spec leaves them out, the labels
 * of its nodes, that a hybrid node's labels are the rendered ones, and
 * the shared GPU resource names of its device-plugin sharing configs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "base/arena.h"
#include "inventory/inventory.h"
#include "spec/spec.h"
#include "yamlio/yamlio.h"

#include "testutil.h"

#define SITE_STACK(cluster, stack, fallback)                                                       \
	"apiVersion: gpusite.io/v1alpha1\n"                                                        \
	"kind: GPUSite\n"                                                                          \
	"metadata: {name: lab}\n"                                                                  \
	"spec:\n"                                                                                  \
	"  cluster: " cluster "\n"                                                                 \
	"  nodeGroups:\n"                                                                          \
	"  - name: rack-a\n"                                                                       \
	"    gpu: {model: h200, perNode: 8}\n"                                                     \
	"    nodes: [gpu-01]\n"                                                                    \
	"    credentials:\n"                                                                       \
	"      iamRolesAnywhere: {trustAnchorArn: ta, profileArn: pa, roleArn: ra}\n"              \
	"    labels: {zeta: z, node-type: mine}\n"                                                 \
	"  gpuStack: " stack "\n"                                                                  \
	"  fallback: " fallback "\n"

#define SITE(cluster, fallback) SITE_STACK(cluster, "{chart: {version: 0.20.0}}", fallback)
#define STACK_SITE(stack) SITE_STACK("{name: c, region: us-west-2}", stack, "{enabled: false}")

static const struct inventory *
inventory_of(const char *yaml)
{
	struct yamlio_docs docs =
		testutil_yaml_docs("sites/lab.yaml", yaml, &yamlio_default_limits);
	struct spec_site *s;

	assert_int_equal(docs.count, 1);
	s = spec_load(&A, &D, docs.docs[0]);
	assert_non_null(s);
	return inventory_site(&A, s);
}

static const char *
label_of(const struct spec_kv *kv, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(kv[i].key, key))
			return kv[i].value;
	return NULL;
}

static void
test_inventory__default_names_karpenter(void **state)
{
	const struct inventory *inv = inventory_of(SITE(
		"{name: c, region: us-west-2}", "{instanceTypes: [g6e.12xlarge], gpuLimit: 8}"));
	const struct inv_pool *p = inventory_pool(inv, INV_ROLE_FALLBACK_POOL);

	(void)state;
	assert_int_equal(inv->pool_count, 1);
	assert_non_null(p);
	assert_string_equal(p->name, "lab-gpu-fallback");
	assert_string_equal(p->class_name, "gpu-fallback");
	assert_string_equal(p->class_kind, "EC2NodeClass");
	assert_string_equal(p->node_selector, "karpenter.sh/nodepool=lab-gpu-fallback");
	assert_false(p->renders_class); /* no nodeClass block */
	assert_string_equal(label_of(p->node_labels, p->node_label_count, INV_SITE_LABEL), "lab");
	assert_string_equal(label_of(p->node_labels, p->node_label_count, INV_NODE_TYPE_LABEL),
			    INV_NODE_TYPE_FALLBACK);
	assert_null(label_of(p->node_labels, p->node_label_count, INV_NODE_IMAGE_LABEL));
	assert_ptr_equal(inventory_pool_named(inv, "lab-gpu-fallback"), p);
	assert_null(inventory_pool_named(inv, "other"));
}

/* The burst pool: one more entry after the fallback's, its own name,
 * labels and taint, Spot and the fallback's instance types by default. */
static void
test_inventory__burst_pool(void **state)
{
	const struct inventory *inv = inventory_of(SITE(
		"{name: c, region: us-west-2}", "{instanceTypes: [g6e.12xlarge], gpuLimit: 8}\n"
						"  burst: {gpuLimit: 4, namespaces: [batch]}"));
	const struct inv_pool *fb = inventory_pool(inv, INV_ROLE_FALLBACK_POOL);
	const struct inv_pool *b = inventory_pool(inv, INV_ROLE_BURST_POOL);

	(void)state;
	assert_int_equal(inv->pool_count, 2);
	assert_ptr_equal(&inv->pools[0], fb);
	assert_ptr_equal(&inv->pools[1], b);
	assert_string_equal(b->name, "lab-gpu-burst");
	assert_string_equal(b->class_name, fb->class_name);
	assert_string_equal(b->node_selector, "karpenter.sh/nodepool=lab-gpu-burst");
	assert_string_equal(b->spec_path, "spec.burst");
	assert_int_equal(b->spec->capacity_type, CAP_SPOT);
	assert_int_equal(b->spec->gpu_limit, 4);
	assert_int_equal(b->spec->instance_type_count, 1);
	assert_string_equal(b->spec->instance_types[0], "g6e.12xlarge");
	assert_string_equal(label_of(b->node_labels, b->node_label_count, INV_POOL_LABEL),
			    INV_POOL_BURST);
	assert_string_equal(label_of(fb->node_labels, fb->node_label_count, INV_POOL_LABEL),
			    INV_POOL_FALLBACK);
	assert_string_equal(label_of(b->node_labels, b->node_label_count, INV_SITE_LABEL), "lab");
	/* the burst taint, then the site taint (exclusive by default) */
	assert_int_equal(b->taint_count, 2);
	assert_string_equal(b->taints[0].key, INV_BURST_TAINT_KEY);
	assert_string_equal(b->taints[1].key, INV_SITE_TAINT_KEY);
	assert_string_equal(b->taints[1].value, "lab");
	assert_string_equal(b->taints[1].effect, INV_POOL_TAINT_EFFECT);
	assert_int_equal(fb->taint_count, 1);
	assert_string_equal(fb->taints[0].key, INV_SITE_TAINT_KEY);
	assert_string_equal(fb->taints[0].value, "lab");
	/* what the modules read instead of asking the role */
	assert_string_equal(b->noun, "burst");
	assert_string_equal(b->node_type, INV_NODE_TYPE_BURST);
	assert_true(b->normal_time);
	assert_false(b->owns_class);
	assert_true(b->plugin_covers);
	assert_non_null(b->scope);
	assert_string_equal(b->scope->policy_name, "gpusite-lab-burst-placement");
	assert_int_equal(b->scope->namespace_count, 1);
	assert_string_equal(b->scope->namespaces[0], "batch");
	assert_int_equal(b->scope->exclude_count, 1);
	assert_string_equal(b->scope->excludes[0], INV_POOL_FALLBACK);
	assert_string_equal(b->alert_prefix, "GPUSiteBurst");
	assert_null(fb->scope);
	assert_false(fb->normal_time);
	assert_true(fb->owns_class);
	assert_ptr_equal(inventory_failover_pool(inv), fb);
	assert_int_equal(inv->placement_exclude_count, 1);
	assert_string_equal(inv->placement_excludes[0], INV_POOL_BURST);
	assert_true(inventory_is_pool_node_type(INV_NODE_TYPE_FALLBACK));
	assert_true(inventory_is_pool_node_type(INV_NODE_TYPE_BURST));
	assert_false(inventory_is_pool_node_type(INV_NODE_TYPE_HYBRID));
	assert_false(inventory_is_pool_node_type(NULL));
	/* the kinds' table says what the builders set */
	assert_int_equal(inventory_pool_kind_count(), 2);
	for (size_t k = 0; k < inventory_pool_kind_count(); k++) {
		assert_ptr_equal(inventory_pool_of_kind(inv, k), &inv->pools[k]);
		assert_string_equal(inventory_pool_kind_noun(k), inv->pools[k].noun);
		assert_true(inventory_is_pool_node_type(inv->pools[k].node_type));
		assert_int_equal(inventory_pool_kind_normal_time(k), inv->pools[k].normal_time);
	}
	assert_null(inventory_pool_kind_noun(inventory_pool_kind_count()));
	/* without the block: no burst pool */
	assert_null(
		inventory_pool(inventory_of(SITE("{name: c, region: us-west-2}",
						 "{instanceTypes: [g6e.12xlarge], gpuLimit: 8}")),
			       INV_ROLE_BURST_POOL));
}

static void
test_inventory__default_names_auto_mode_and_written_names(void **state)
{
	const struct inventory *inv =
		inventory_of(SITE("{name: c, region: us-west-2, provisioner: auto-mode}",
				  "{instanceTypes: [g6e.12xlarge], gpuLimit: 8}"));
	const struct inv_pool *p = inventory_pool(inv, INV_ROLE_FALLBACK_POOL);

	(void)state;
	assert_string_equal(p->class_name, "default");
	assert_string_equal(p->class_kind, "NodeClass");
	inv = inventory_of(SITE("{name: c, region: us-west-2}",
				"{instanceTypes: [g6e.12xlarge], gpuLimit: 8, nodePoolName: mine,"
				" nodeClassName: cls, nodeImage: al2023}"));
	p = inventory_pool(inv, INV_ROLE_FALLBACK_POOL);
	assert_string_equal(p->name, "mine");
	assert_string_equal(p->class_name, "cls");
	assert_string_equal(label_of(p->node_labels, p->node_label_count, INV_NODE_IMAGE_LABEL),
			    "al2023");
}

static void
test_inventory__no_pool_without_fallback(void **state)
{
	const struct inventory *inv =
		inventory_of(SITE("{name: c, region: us-west-2}", "{enabled: false}"));

	(void)state;
	assert_int_equal(inv->pool_count, 0);
	assert_null(inventory_pool(inv, INV_ROLE_FALLBACK_POOL));
}

/* The tool's labels win over a group label of the same key, and the list
 * is sorted: it is the kubelet's --node-labels as rendered. */
static void
test_inventory__hybrid_labels(void **state)
{
	const struct inventory *inv = inventory_of(SITE(
		"{name: c, region: us-west-2}", "{instanceTypes: [g6e.12xlarge], gpuLimit: 8}"));
	const struct inv_group *g = &inv->groups[0];

	(void)state;
	assert_int_equal(inv->group_count, 1);
	assert_string_equal(g->name, "rack-a");
	assert_int_equal(g->node_label_count, 5);
	assert_string_equal(g->node_labels[0].key, INV_GPU_MODEL_LABEL);
	assert_string_equal(g->node_labels[1].key, INV_GROUP_LABEL);
	assert_string_equal(g->node_labels[2].key, INV_SITE_LABEL);
	assert_string_equal(g->node_labels[3].key, INV_NODE_TYPE_LABEL);
	assert_string_equal(g->node_labels[3].value, INV_NODE_TYPE_HYBRID);
	assert_string_equal(g->node_labels[4].key, "zeta");
	assert_string_equal(inventory_role_name(INV_ROLE_FALLBACK_POOL), "fallback pool");
}

/* The site's own objects and its cluster's Applications, by role. */
static void
test_inventory__objects_by_role(void **state)
{
	const struct inventory *inv =
		inventory_of(SITE("{name: My_Cluster, region: us-west-2}",
				  "{instanceTypes: [g6e.12xlarge], gpuLimit: 8}"));

	(void)state;
	assert_string_equal(inventory_object(inv, INV_ROLE_NODECONFIG_MAP)->name,
			    "gpusite-nodeconfig-lab");
	assert_string_equal(inventory_object(inv, INV_ROLE_NODECONFIG_MAP)->namespace,
			    "kube-system");
	assert_string_equal(inventory_object(inv, INV_ROLE_PLACEMENT_POLICY)->name,
			    "gpusite-lab-placement");
	assert_string_equal(inventory_object(inv, INV_ROLE_ALERT_RULE)->name, "gpusite-lab");
	assert_string_equal(inventory_object(inv, INV_ROLE_ALERT_RULE)->namespace, "monitoring");
	/* cluster names may hold upper case and '_', object names may not */
	assert_string_equal(inventory_object(inv, INV_ROLE_GPU_STACK_APP)->name,
			    "my-cluster-nvidia-device-plugin");
	assert_string_equal(inventory_object(inv, INV_ROLE_GPU_STACK_APP)->namespace, "argocd");
	assert_string_equal(inventory_object(inv, INV_ROLE_FALLBACK_PLUGIN_APP)->name,
			    "my-cluster-nvidia-device-plugin-fallback");
	assert_null(inventory_object(inv, INV_ROLE_FALLBACK_POOL));
	assert_string_equal(inventory_app_name(&A, "c", INV_ROLE_GPU_STACK_APP, STACK_GPU_OPERATOR),
			    "c-gpu-operator");
}

/* The names the device plugin's sharing configs rename GPUs to: a
 * rename (prefixed nvidia.com/ when it has none), <name>.shared with
 * renameByDefault, each once; a MIG share is a GPU name already; a name
 * the device plugin refuses (not a DNS-1123 subdomain after the prefix),
 * a config that is not YAML or not a string gives none. */
static void
test_inventory__gpu_shared_names(void **state)
{
	const struct inventory *inv = inventory_of(STACK_SITE(
		"{chart: {version: 0.20.0}, values: {config: {map: {"
		"default: 'sharing: {timeSlicing: {renameByDefault: true, resources: ["
		"{name: gpu, replicas: 4}, {name: nvidia.com/mig-1g.10gb, replicas: 2},"
		" {name: nvidia.com/gpu, rename: gpu-slice, replicas: 2}]}}',"
		" mps: 'sharing: {mps: {resources: [{name: gpu, rename: nvidia.com/gpu-mps, "
		"replicas: 2}, {name: gpu, rename: gpu-slice, replicas: 3},"
		" {name: gpu, rename: \"x}} || @\", replicas: 2},"
		" {name: gpu, rename: Upper_Case, replicas: 2}]}}',"
		" broken: 'sharing: [unclosed', number: 3,"
		" plain: 'version: v1', deep: '[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]'"
		"}}}}"));

	(void)state;
	assert_int_equal(inv->gpu_shared_name_count, 3);
	assert_string_equal(inv->gpu_shared_names[0], "nvidia.com/gpu.shared");
	assert_string_equal(inv->gpu_shared_names[1], "nvidia.com/gpu-slice");
	assert_string_equal(inv->gpu_shared_names[2], "nvidia.com/gpu-mps");

	/* the GPU Operator's configs live under devicePlugin.config.data;
	 * its config.map is no device-plugin config */
	inv = inventory_of(
		STACK_SITE("{type: gpu-operator, chart: {version: v25.3.0}, values: {"
			   "config: {map: {a: 'sharing: {mps: {resources: [{name: gpu, rename: x, "
			   "replicas: 2}]}}'}},"
			   " devicePlugin: {config: {create: true, name: dp, data: {"
			   "any: 'sharing: {timeSlicing: {renameByDefault: true, resources: ["
			   "{name: gpu, replicas: 2}]}}'}}}}}"));
	assert_int_equal(inv->gpu_shared_name_count, 1);
	assert_string_equal(inv->gpu_shared_names[0], "nvidia.com/gpu.shared");

	/* no sharing config: none */
	inv = inventory_of(STACK_SITE("{chart: {version: 0.20.0}}"));
	assert_int_equal(inv->gpu_shared_name_count, 0);
	assert_null(inv->gpu_shared_names);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		TESTUTIL_CASE(test_inventory__default_names_karpenter),

		TESTUTIL_CASE(test_inventory__burst_pool),
		TESTUTIL_CASE(test_inventory__default_names_auto_mode_and_written_names),
		TESTUTIL_CASE(test_inventory__no_pool_without_fallback),
		TESTUTIL_CASE(test_inventory__hybrid_labels),
		TESTUTIL_CASE(test_inventory__objects_by_role),
		TESTUTIL_CASE(test_inventory__gpu_shared_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
