/*
 * test_scope.c - placement as Kubernetes decides it: tolerations vs
 * taints, nodeSelector, required node affinity (operators, integer parse,
 * matchFields, empty terms), the DaemonSet controller's own tolerations,
 * node and DaemonSet classification, the runtime-label fixed point (NFD
 * labels a node, then the device plugin's affinity matches; the GPU
 * Operator's operands follow NFD) and the verdict (misses and leaks),
 * the site taint of pool nodes and the DaemonSets meant for them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "base/arena.h"
#include "k8s/k8s_int.h"
#include "scope/scope.h"
#include "yamlio/yamlio.h"

#include "testutil.h"

/* The first document of a YAML text. */
static struct node *
yaml(const char *text)
{
	return testutil_yaml_first("test.yaml", text, NULL);
}

static struct yamlio_docs
yaml_docs(const char *text)
{
	return testutil_yaml_docs("test.yaml", text, NULL);
}

/* A scope_node from a Node document. */
static struct scope_node
node_of(const char *text)
{
	struct node *obj = yaml(text);
	struct scope_node n;

	memset(&n, 0, sizeof(n));
	n.name = node_str(node_path(obj, "metadata.name"));
	n.labels = node_path(obj, "metadata.labels");
	n.taints = node_path(obj, "spec.taints");
	scope_node_classify(&n, obj);
	return n;
}

static const char hybrid_gpu_node[] =
	"kind: Node\n"
	"metadata:\n"
	"  name: gpu-a-01\n"
	"  labels:\n"
	"    eks.amazonaws.com/compute-type: hybrid\n"
	"    node-type: hybrid-gpu\n"
	"    gpu.count: \"8\"\n"
	"spec:\n"
	"  taints:\n"
	"    - {key: nvidia.com/gpu, value: Exists, effect: NoSchedule}\n";

static bool
tolerates(const char *toleration, const char *taint)
{
	return scope_toleration_tolerates(yaml(toleration), yaml(taint));
}

static void
test_scope__exists_tolerates_any_value_equal_needs_the_same(void **state)
{
	const char *taint = "{key: nvidia.com/gpu, value: Exists, effect: NoSchedule}";

	(void)state;
	assert_true(
		tolerates("{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}", taint));
	/* the device-plugin chart's NFD default: Equal "present" */
	assert_false(tolerates(
		"{key: nvidia.com/gpu, operator: Equal, value: present, effect: NoSchedule}",
		taint));
	assert_true(tolerates(
		"{key: nvidia.com/gpu, operator: Equal, value: Exists, effect: NoSchedule}",
		taint));
	/* an empty operator means Equal */
	assert_false(tolerates("{key: nvidia.com/gpu, value: present}", taint));
	assert_true(tolerates("{key: nvidia.com/gpu, value: Exists}", taint));
	/* another key */
	assert_false(tolerates("{key: nvidia.com/gpu.x, operator: Exists}", taint));
}

static void
test_scope__empty_key_and_empty_effect(void **state)
{
	(void)state;
	/* empty key with Exists tolerates every taint */
	assert_true(tolerates("{operator: Exists}", "{key: a, value: b, effect: NoExecute}"));
	/* empty effect matches every effect; a set one only its own */
	assert_true(tolerates("{key: a, operator: Exists}", "{key: a, effect: NoExecute}"));
	assert_false(tolerates("{key: a, operator: Exists, effect: NoSchedule}",
			       "{key: a, effect: NoExecute}"));
	/* an unknown operator tolerates nothing */
	assert_false(tolerates("{key: a, operator: Gt, value: \"1\"}",
			       "{key: a, value: \"2\", effect: NoSchedule}"));
}

static void
test_scope__taints_block_unless_tolerated_prefer_is_ignored(void **state)
{
	struct scope_node n = node_of("kind: Node\nmetadata: {name: n1}\nspec:\n  taints:\n"
				      "    - {key: soft, effect: PreferNoSchedule}\n"
				      "    - {key: hard, value: v, effect: NoExecute}\n");
	struct scope_cell c;

	(void)state;
	scope_place(&c, &A, &n, yaml("containers: []"), false);
	assert_false(c.runs);
	assert_int_equal(c.reason_count, 1);
	assert_string_equal(c.reasons[0], "taint hard=v:NoExecute");
	scope_place(&c, &A, &n, yaml("tolerations: [{key: hard, operator: Exists}]"), false);
	assert_true(c.runs);
}

static void
test_scope__daemon_pods_get_the_controller_tolerations(void **state)
{
	struct scope_node n =
		node_of("kind: Node\nmetadata: {name: n1}\nspec:\n  taints:\n"
			"    - {key: node.kubernetes.io/unschedulable, effect: NoSchedule}\n"
			"    - {key: node.kubernetes.io/not-ready, effect: NoExecute}\n");
	struct scope_node net = node_of(
		"kind: Node\nmetadata: {name: n2}\nspec:\n  taints:\n"
		"    - {key: node.kubernetes.io/network-unavailable, effect: NoSchedule}\n");
	struct scope_cell c;

	(void)state;
	scope_place(&c, &A, &n, yaml("containers: []"), true);
	assert_true(c.runs);
	/* a plain pod (not a daemon pod) gets none of them */
	scope_place(&c, &A, &n, yaml("containers: []"), false);
	assert_false(c.runs);
	assert_int_equal(c.reason_count, 2);
	/* network-unavailable only for hostNetwork daemon pods */
	scope_place(&c, &A, &net, yaml("containers: []"), true);
	assert_false(c.runs);
	scope_place(&c, &A, &net, yaml("hostNetwork: true"), true);
	assert_true(c.runs);
}

static void
test_scope__node_selector_needs_every_pair(void **state)
{
	struct scope_node n = node_of(hybrid_gpu_node);
	struct scope_cell c;

	(void)state;
	scope_place(&c, &A, &n,
		    yaml("nodeSelector: {eks.amazonaws.com/compute-type: hybrid, node-type: "
			 "hybrid-gpu}\n"
			 "tolerations: [{key: nvidia.com/gpu, operator: Exists}]\n"),
		    true);
	assert_true(c.runs);
	scope_place(&c, &A, &n,
		    yaml("nodeSelector: {eks.amazonaws.com/compute-type: hybrid, "
			 "nvidia.com/mps.capable: \"true\"}\n"
			 "tolerations: [{key: nvidia.com/gpu, operator: Exists}]\n"),
		    true);
	assert_false(c.runs);
	assert_int_equal(c.reason_count, 1);
	assert_string_equal(c.reasons[0], "nodeSelector nvidia.com/mps.capable=true");
	/* label present with another value */
	scope_place(&c, &A, &n,
		    yaml("nodeSelector: {eks.amazonaws.com/compute-type: auto}\n"
			 "tolerations: [{operator: Exists}]\n"),
		    true);
	assert_false(c.runs);
	assert_string_equal(c.reasons[0], "nodeSelector eks.amazonaws.com/compute-type=auto");
}

static const char *
affinity(const char *terms)
{
	return arena_printf(
		&A,
		"tolerations: [{operator: Exists}]\n"
		"affinity:\n  nodeAffinity:\n    requiredDuringSchedulingIgnoredDuringExecution:\n"
		"      nodeSelectorTerms: %s\n",
		terms);
}

static bool
lands(const struct scope_node *n, const char *terms)
{
	struct scope_cell c;

	scope_place(&c, &A, n, yaml(affinity(terms)), true);
	return c.runs;
}

static void
test_scope__terms_are_ored_expressions_anded(void **state)
{
	struct scope_node n = node_of(hybrid_gpu_node);

	(void)state;
	/* the device plugin's three ORed terms: only the last fits here */
	assert_false(
		lands(&n, "[{matchExpressions: [{key: feature.node.kubernetes.io/pci-10de.present, "
			  "operator: In, values: [\"true\"]}]},"
			  " {matchExpressions: [{key: node-type, operator: In, values: [cpu]}]}]"));
	assert_true(lands(
		&n,
		"[{matchExpressions: [{key: feature.node.kubernetes.io/pci-10de.present, operator: "
		"In, values: [\"true\"]}]},"
		" {matchExpressions: [{key: node-type, operator: In, values: [x, hybrid-gpu]}]}]"));
	/* ANDed inside one term */
	assert_false(lands(
		&n,
		"[{matchExpressions: [{key: node-type, operator: In, values: [hybrid-gpu]},"
		" {key: eks.amazonaws.com/compute-type, operator: NotIn, values: [hybrid]}]}]"));
	/* empty term and no terms match nothing */
	assert_false(lands(&n, "[{}]"));
	assert_false(lands(&n, "[]"));
}

static void
test_scope__operators(void **state)
{
	struct scope_node n = node_of(hybrid_gpu_node);

	(void)state;
	assert_true(
		lands(&n, "[{matchExpressions: [{key: absent, operator: NotIn, values: [a]}]}]"));
	assert_true(lands(&n, "[{matchExpressions: [{key: absent, operator: DoesNotExist}]}]"));
	assert_false(lands(&n, "[{matchExpressions: [{key: node-type, operator: DoesNotExist}]}]"));
	assert_true(lands(&n, "[{matchExpressions: [{key: node-type, operator: Exists}]}]"));
	/* Exists with values is invalid: the term never matches */
	assert_false(lands(
		&n, "[{matchExpressions: [{key: node-type, operator: Exists, values: [x]}]}]"));
	/* Gt / Lt: integers on both sides */
	assert_true(lands(
		&n, "[{matchExpressions: [{key: gpu.count, operator: Gt, values: [\"7\"]}]}]"));
	assert_false(lands(
		&n, "[{matchExpressions: [{key: gpu.count, operator: Gt, values: [\"8\"]}]}]"));
	assert_true(lands(
		&n, "[{matchExpressions: [{key: gpu.count, operator: Lt, values: [\"+9\"]}]}]"));
	/* two values, or a value that is not an integer: invalid */
	assert_false(lands(
		&n,
		"[{matchExpressions: [{key: gpu.count, operator: Gt, values: [\"1\", \"2\"]}]}]"));
	assert_false(lands(
		&n, "[{matchExpressions: [{key: gpu.count, operator: Gt, values: [\"1.5\"]}]}]"));
	/* a label that is not an integer never compares */
	assert_false(lands(
		&n, "[{matchExpressions: [{key: node-type, operator: Gt, values: [\"0\"]}]}]"));
	assert_false(lands(
		&n, "[{matchExpressions: [{key: gpu.count, operator: Like, values: [\"8\"]}]}]"));
}

static void
test_scope__parse_int64_like_strconv(void **state)
{
	long long v = 0;

	(void)state;
	assert_true(k8s_parse_int64("42", &v));
	assert_int_equal(v, 42);
	assert_true(k8s_parse_int64("-7", &v));
	assert_int_equal(v, -7);
	assert_true(k8s_parse_int64("007", &v));
	assert_int_equal(v, 7);
	assert_true(k8s_parse_int64("9223372036854775807", &v));
	assert_false(k8s_parse_int64("9223372036854775808", &v));
	assert_false(k8s_parse_int64(" 1", &v));
	assert_false(k8s_parse_int64("1 ", &v));
	assert_false(k8s_parse_int64("0x10", &v));
	assert_false(k8s_parse_int64("", &v));
	assert_false(k8s_parse_int64("-", &v));
	assert_false(k8s_parse_int64("1_000", &v));
}

static void
test_scope__match_fields_on_the_node_name(void **state)
{
	struct scope_node n = node_of(hybrid_gpu_node);

	(void)state;
	assert_true(lands(
		&n, "[{matchFields: [{key: metadata.name, operator: In, values: [gpu-a-01]}]}]"));
	assert_false(lands(
		&n,
		"[{matchFields: [{key: metadata.name, operator: NotIn, values: [gpu-a-01]}]}]"));
	/* only metadata.name, only one value */
	assert_false(lands(
		&n, "[{matchFields: [{key: metadata.uid, operator: In, values: [gpu-a-01]}]}]"));
	assert_false(lands(
		&n,
		"[{matchFields: [{key: metadata.name, operator: In, values: [gpu-a-01, x]}]}]"));
}

static void
test_scope__classify_nodes(void **state)
{
	struct scope_node h = node_of(hybrid_gpu_node);
	struct scope_node cap = node_of(
		"kind: Node\nmetadata: {name: c, labels: {eks.amazonaws.com/compute-type: auto}}\n"
		"status: {capacity: {nvidia.com/gpu: \"4\"}}\n");
	struct scope_node zero = node_of(
		"kind: Node\nmetadata: {name: z}\nstatus: {capacity: {nvidia.com/gpu: \"0\"}}\n");
	struct scope_node pci =
		node_of("kind: Node\nmetadata: {name: p, labels: "
			"{feature.node.kubernetes.io/pci-0302_10de.present: \"true\"}}\n");

	(void)state;
	assert_true(h.hybrid);
	assert_true(h.gpu);
	assert_string_equal(h.gpu_why, "node-type");
	assert_false(cap.hybrid);
	assert_true(cap.gpu);
	assert_false(zero.gpu);
	assert_true(pci.gpu);
}

static void
test_scope__gpu_stack_daemonsets_are_recognised(void **state)
{
	struct scope_ds ds;
	struct node *obj;

	(void)state;
	memset(&ds, 0, sizeof(ds));
	obj = yaml("kind: DaemonSet\nmetadata: {name: fluent-bit}\n"
		   "spec: {template: {spec: {containers: [{image: "
		   "cr.fluentbit.io/fluent/fluent-bit:4.0}]}}}\n");
	ds.name = "fluent-bit";
	ds.pod_spec = node_path(obj, "spec.template.spec");
	assert_false(scope_ds_is_gpu_stack(&ds, &A, obj));
	obj = yaml("kind: DaemonSet\nmetadata: {name: agent}\n"
		   "spec: {template: {spec: {containers: [{image: "
		   "nvcr.io/nvidia/k8s-device-plugin:v0.20.0}]}}}\n");
	ds.name = "agent";
	ds.pod_spec = node_path(obj, "spec.template.spec");
	assert_true(scope_ds_is_gpu_stack(&ds, &A, obj));
	assert_string_equal(ds.why, "image nvcr.io/nvidia/k8s-device-plugin:v0.20.0");
	obj = yaml("kind: DaemonSet\nmetadata: {name: x, labels: {helm.sh/chart: nfd-0.19.0}}\n"
		   "spec: {template: {spec: {containers: []}}}\n");
	ds.name = "x";
	ds.pod_spec = node_path(obj, "spec.template.spec");
	assert_true(scope_ds_is_gpu_stack(&ds, &A, obj));
	assert_string_equal(ds.why, "label helm.sh/chart=nfd-0.19.0");
}

/* The device-plugin chart's shape: NFD worker + plugin with the PCI affinity. */
static const char nodes_yaml[] =
	"kind: NodeList\napiVersion: v1\nitems:\n"
	"- kind: Node\n  metadata:\n    name: fresh\n    labels: {eks.amazonaws.com/compute-type: "
	"hybrid, node-type: hybrid-gpu}\n"
	"  spec: {taints: [{key: nvidia.com/gpu, value: Exists, effect: NoSchedule}]}\n"
	"- kind: Node\n  metadata:\n    name: cloud\n    labels: "
	"{karpenter.k8s.aws/instance-gpu-manufacturer: nvidia}\n"
	"  spec: {taints: [{key: nvidia.com/gpu, value: Exists, effect: NoSchedule}]}\n"
	"- kind: Node\n  metadata: {name: cpu}\n";

static const char pci_affinity[] =
	"      affinity:\n        nodeAffinity:\n          "
	"requiredDuringSchedulingIgnoredDuringExecution:\n"
	"            nodeSelectorTerms:\n"
	"            - matchExpressions: [{key: feature.node.kubernetes.io/pci-10de.present, "
	"operator: In, values: [\"true\"]}]\n";

static struct scope_result
run(const char *manifests, int want_rc)
{
	struct scope_result r;
	struct yamlio_docs n = yaml_docs(nodes_yaml), m = yaml_docs(manifests);

	scope_init(&r);
	assert_int_equal(scope_add_nodes(&r, &A, &D, n.docs, n.count), 0);
	assert_int_equal(scope_add_manifests(&r, &A, &D, m.docs, m.count), 0);
	assert_int_equal(scope_run(&r, &A, &D), want_rc);
	return r;
}

static void
test_scope__nfd_labels_then_the_plugin_lands(void **state)
{
	const char *m = arena_printf(
		&A,
		"kind: DaemonSet\nmetadata: {name: nvdp-node-feature-discovery-worker, namespace: "
		"nvdp}\n"
		"spec:\n  template:\n    spec:\n"
		"      containers: [{name: worker, command: [nfd-worker]}]\n"
		"      nodeSelector: {eks.amazonaws.com/compute-type: hybrid}\n"
		"      tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]\n"
		"---\n"
		"kind: DaemonSet\nmetadata: {name: nvdp-nvidia-device-plugin, namespace: nvdp}\n"
		"spec:\n  template:\n    spec:\n"
		"      nodeSelector: {eks.amazonaws.com/compute-type: hybrid}\n"
		"      tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: "
		"NoSchedule}]\n%s",
		pci_affinity);
	struct scope_result r = run(m, 0);

	(void)state;
	assert_int_equal(r.ds_count, 2);
	assert_int_equal(r.node_count, 3);
	assert_true(scope_cell_at(&r, 0, 0)->runs);
	/* the plugin lands on the fresh node only once NFD labelled it */
	assert_true(scope_cell_at(&r, 1, 0)->runs);
	assert_int_equal(scope_cell_at(&r, 1, 0)->reason_count, 1);
	assert_non_null(strstr(scope_cell_at(&r, 1, 0)->reasons[0],
			       "runtime label feature.node.kubernetes.io/pci-10de.present=true "
			       "(NFD worker nvdp/nvdp-node-feature-discovery-worker)"));
	for (size_t i = 0; i < 2; i++) {
		assert_false(scope_cell_at(&r, i, 1)->runs);
		assert_false(scope_cell_at(&r, i, 2)->runs);
	}
	assert_int_equal(r.misses, 0);
	assert_int_equal(r.leaks, 0);
}

static void
test_scope__default_nfd_tolerations_are_caught(void **state)
{
	/* no nodeSelector, Equal "present": misses the hybrid node, runs on cpu */
	const char *m = arena_printf(
		&A,
		"kind: DaemonSet\nmetadata: {name: nvdp-node-feature-discovery-worker, namespace: "
		"nvdp}\n"
		"spec:\n  template:\n    spec:\n"
		"      containers: [{name: worker, command: [nfd-worker]}]\n"
		"      tolerations: [{key: nvidia.com/gpu, operator: Equal, value: present, "
		"effect: NoSchedule}]\n"
		"---\n"
		"kind: DaemonSet\nmetadata: {name: nvdp-nvidia-device-plugin, namespace: nvdp}\n"
		"spec:\n  template:\n    spec:\n"
		"      nodeSelector: {eks.amazonaws.com/compute-type: hybrid}\n"
		"      tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: "
		"NoSchedule}]\n%s",
		pci_affinity);
	size_t before = D.count;
	struct scope_result r = run(m, -1);
	bool taint_msg = false;

	(void)state;
	assert_false(scope_cell_at(&r, 0, 0)->runs);
	assert_string_equal(scope_cell_at(&r, 0, 0)->reasons[0],
			    "taint nvidia.com/gpu=Exists:NoSchedule");
	assert_true(scope_cell_at(&r, 0, 2)->runs);
	/* no NFD label: the plugin misses the fresh node too */
	assert_false(scope_cell_at(&r, 1, 0)->runs);
	assert_int_equal(r.misses, 2);
	assert_int_equal(r.leaks, 1);
	for (size_t k = before; k < D.count; k++) {
		if (!strcmp(D.items[k].rule, SCOPE_RULE_MISSES) &&
		    strstr(D.items[k].msg,
			   "nvdp/nvdp-node-feature-discovery-worker does not run on hybrid GPU "
			   "node fresh: taint nvidia.com/gpu=Exists:NoSchedule; add a toleration"))
			taint_msg = true;
	}
	assert_true(taint_msg);
}

static void
test_scope__operator_operands_follow_nfd(void **state)
{
	const char *m =
		"kind: Deployment\nmetadata: {name: gpu-operator, namespace: gpu-operator}\n"
		"---\n"
		"kind: DaemonSet\nmetadata: {name: gpu-operator-node-feature-discovery-worker, "
		"namespace: gpu-operator}\n"
		"spec:\n  template:\n    spec:\n"
		"      containers: [{name: worker, command: [nfd-worker]}]\n"
		"      nodeSelector: {eks.amazonaws.com/compute-type: hybrid}\n"
		"      tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]\n"
		"---\n"
		"apiVersion: nvidia.com/v1\nkind: ClusterPolicy\nmetadata: {name: cluster-policy}\n"
		"spec:\n  daemonsets:\n    tolerations: [{key: nvidia.com/gpu, operator: Exists, "
		"effect: NoSchedule}]\n"
		"  driver: {enabled: false}\n  toolkit: {enabled: false}\n  dcgm: {enabled: "
		"false}\n"
		"  nodeStatusExporter: {enabled: false}\n";
	struct scope_result r = run(m, 0);
	bool driver = false;

	(void)state;
	assert_true(r.operator_model);
	/* NFD worker + device-plugin, gfd, dcgm-exporter, validator, mig-manager */
	assert_int_equal(r.ds_count, 6);
	for (size_t i = 0; i < r.ds_count; i++) {
		driver = driver || !strcmp(r.ds[i].name, "nvidia-driver-daemonset");
		assert_true(r.ds[i].gpu_stack);
		assert_true(scope_cell_at(&r, i, 0)->runs);
		assert_false(scope_cell_at(&r, i, 1)->runs);
		assert_false(scope_cell_at(&r, i, 2)->runs);
		if (r.ds[i].origin)
			assert_string_equal(r.ds[i].namespace, "gpu-operator");
	}
	assert_false(driver);
}

static void
test_scope__unscoped_operator_nfd_leaks_operands(void **state)
{
	const char *m =
		"kind: DaemonSet\nmetadata: {name: gpu-operator-node-feature-discovery-worker}\n"
		"spec:\n  template:\n    spec:\n"
		"      containers: [{name: worker, command: [nfd-worker]}]\n"
		"      tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]\n"
		"---\n"
		"apiVersion: nvidia.com/v1\nkind: ClusterPolicy\nmetadata: {name: cp}\n"
		"spec:\n  daemonsets:\n    tolerations: [{key: nvidia.com/gpu, operator: Exists, "
		"effect: NoSchedule}]\n"
		"  driver: {enabled: false}\n";
	struct scope_result r = run(m, -1);

	(void)state;
	/* NFD runs on the cloud GPU node and the CPU node, so the operator
	 * labels the cloud GPU node and its operands follow */
	assert_true(r.leaks >= 2);
	for (size_t i = 1; i < r.ds_count; i++)
		assert_true(scope_cell_at(&r, i, 1)->runs);
}

static void
test_scope__inputs_that_are_not_nodes(void **state)
{
	struct scope_result r;
	struct yamlio_docs n = yaml_docs("kind: Pod\nmetadata: {name: p}\n");
	size_t before = D.count;

	(void)state;
	scope_init(&r);
	assert_int_equal(scope_add_nodes(&r, &A, &D, n.docs, n.count), -1);
	assert_int_equal(D.count, before + 1);
	assert_string_equal(D.items[before].rule, SCOPE_RULE_INPUT);
	assert_int_equal(r.node_count, 0);
}

/* Two pool nodes, one of an exclusive pool (the site taint), one of a
 * shared one; an agent meant for pool nodes, a node exporter for every
 * node and one that tolerates every taint. */
static void
test_scope__site_taint_of_pool_nodes(void **state)
{
	static const char nodes[] =
		"kind: Node\nmetadata:\n  name: fb-excl\n  labels:\n"
		"    node-type: cloud-gpu-fallback\n    gpusite.io/pool: fallback\n"
		"    gpusite.io/site: lab\n"
		"spec:\n  taints:\n    - {key: nvidia.com/gpu, value: Exists, effect: NoSchedule}\n"
		"    - {key: gpusite.io/site, value: lab, effect: NoSchedule}\n"
		"---\n"
		"kind: Node\nmetadata:\n  name: burst-shared\n  labels:\n"
		"    node-type: cloud-gpu-burst\n    gpusite.io/pool: burst\n"
		"    gpusite.io/site: lab\n"
		"spec:\n  taints:\n    - {key: nvidia.com/gpu, value: Exists, effect: NoSchedule}\n"
		"    - {key: gpusite.io/burst, value: \"true\", effect: NoSchedule}\n";
	static const char manifests[] =
		"kind: DaemonSet\nmetadata: {name: pool-agent, namespace: mon}\n"
		"spec:\n  template:\n    spec:\n"
		"      nodeSelector: {node-type: cloud-gpu-fallback}\n"
		"      tolerations: [{key: nvidia.com/gpu, operator: Exists}]\n"
		"---\n"
		"kind: DaemonSet\nmetadata: {name: burst-agent, namespace: mon}\n"
		"spec:\n  template:\n    spec:\n"
		"      affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
		"{nodeSelectorTerms: [{matchExpressions: [{key: node-type, operator: In, values: "
		"[cloud-gpu-burst]}]}]}}}\n"
		"      tolerations: [{key: nvidia.com/gpu, operator: Exists}]\n"
		"---\n"
		"kind: DaemonSet\nmetadata: {name: node-exporter, namespace: mon}\n"
		"spec:\n  template:\n    spec:\n"
		"      nodeSelector: {node-type: hybrid-gpu}\n"
		"---\n"
		"kind: DaemonSet\nmetadata: {name: everywhere, namespace: mon}\n"
		"spec:\n  template:\n    spec:\n      nodeSelector: {gpusite.io/pool: fallback}\n"
		"      tolerations: [{operator: Exists}]\n";
	struct yamlio_docs n = yaml_docs(nodes), m = yaml_docs(manifests);
	struct scope_result r;
	size_t before = D.count, site = 0, burst = 0;

	(void)state;
	scope_init(&r);
	assert_int_equal(scope_add_nodes(&r, &A, &D, n.docs, n.count), 0);
	assert_int_equal(scope_add_manifests(&r, &A, &D, m.docs, m.count), 0);
	assert_string_equal(r.nodes[0].pool, "fallback");
	assert_string_equal(r.nodes[0].pool_site, "lab");
	assert_non_null(r.nodes[0].site_taint);
	assert_string_equal(scope_taint_text(&A, r.nodes[0].site_taint),
			    "gpusite.io/site=lab:NoSchedule");
	assert_string_equal(r.nodes[1].pool, "burst");
	assert_null(r.nodes[1].site_taint);
	assert_string_equal(r.ds[0].pool_key, "node-type");
	assert_string_equal(r.ds[1].pool_key, "node-type");
	assert_null(r.ds[2].pool_key); /* a hybrid node type is no pool's */
	assert_string_equal(r.ds[3].pool_key, "gpusite.io/pool");
	assert_int_equal(scope_run(&r, &A, &D), -1);
	assert_int_equal(r.pool_nodes, 2);
	assert_int_equal(r.shared_pool_nodes, 1);
	/* the site taint keeps pool-agent off fb-excl, the burst taint keeps
	 * burst-agent off burst-shared; the one tolerating every taint runs */
	assert_int_equal(r.misses, 2);
	assert_true(scope_cell_at(&r, 3, 0)->runs);
	for (size_t k = before; k < D.count; k++) {
		const char *msg = D.items[k].msg;

		if (strcmp(D.items[k].rule, SCOPE_RULE_MISSES))
			continue;
		site += strstr(msg,
			       "mon/pool-agent selects gpusite's pool nodes (node-type) but "
			       "does not run on fallback node fb-excl: taint "
			       "gpusite.io/site=lab:NoSchedule; tolerate the site taint") != NULL;
		burst += strstr(msg, "mon/burst-agent selects gpusite's pool nodes (node-type) but "
				     "does not run on burst node burst-shared: taint "
				     "gpusite.io/burst=true:NoSchedule; add a toleration") != NULL;
	}
	assert_int_equal(site, 1);
	assert_int_equal(burst, 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		TESTUTIL_CASE(test_scope__exists_tolerates_any_value_equal_needs_the_same),
		TESTUTIL_CASE(test_scope__empty_key_and_empty_effect),
		TESTUTIL_CASE(test_scope__taints_block_unless_tolerated_prefer_is_ignored),
		TESTUTIL_CASE(test_scope__daemon_pods_get_the_controller_tolerations),
		TESTUTIL_CASE(test_scope__node_selector_needs_every_pair),
		TESTUTIL_CASE(test_scope__terms_are_ored_expressions_anded),
		TESTUTIL_CASE(test_scope__operators),
		TESTUTIL_CASE(test_scope__parse_int64_like_strconv),
		TESTUTIL_CASE(test_scope__match_fields_on_the_node_name),
		TESTUTIL_CASE(test_scope__classify_nodes),
		TESTUTIL_CASE(test_scope__gpu_stack_daemonsets_are_recognised),
		TESTUTIL_CASE(test_scope__nfd_labels_then_the_plugin_lands),
		TESTUTIL_CASE(test_scope__default_nfd_tolerations_are_caught),
		TESTUTIL_CASE(test_scope__operator_operands_follow_nfd),
		TESTUTIL_CASE(test_scope__unscoped_operator_nfd_leaks_operands),
		TESTUTIL_CASE(test_scope__inputs_that_are_not_nodes),
		TESTUTIL_CASE(test_scope__site_taint_of_pool_nodes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
