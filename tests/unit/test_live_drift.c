/*
 * test_live_drift.c - the drift checks over records, without a server:
 * each GS2xx finding from a minimal cluster, positions in the spec, and
 * notes (an active fallback) that are state, not drift; the pool nodes'
 * taints (GS246) and the Pods' node affinity against the placement plans
 * (GS247).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/findings.h"
#include "pipeline/live_drift.h"
#include "pipeline/pipeline.h"
#include "live/drift.h"
#include "inventory/inventory.h"
#include "json/json.h"
#include "node/node.h"
#include "source/source.h"

static const char spec_text[] =
	"apiVersion: gpusite.io/v1alpha1\n"
	"kind: GPUSite\n"
	"metadata:\n"
	"  name: seoul-dc1\n"
	"spec:\n"
	"  cluster: {name: my-hybrid-cluster, region: us-west-2}\n"
	"  nodeGroups:\n"
	"    - name: rack-a\n"
	"      gpu: {model: h200, perNode: 8}\n"
	"      nodes: [gpu-a-01, gpu-a-02]\n"
	"      credentials:\n"
	"        iamRolesAnywhere:\n"
	"          trustAnchorArn: "
	"arn:aws:rolesanywhere:us-west-2:111122223333:trust-anchor/"
	"1f2e3d4c-aaaa-bbbb-cccc-111122223333\n"
	"          profileArn: "
	"arn:aws:rolesanywhere:us-west-2:111122223333:profile/"
	"9a8b7c6d-aaaa-bbbb-cccc-111122223333\n"
	"          roleArn: arn:aws:iam::111122223333:role/HybridNodesRole\n"
	"  gpuStack:\n"
	"    chart: {version: 0.20.0}\n"
	"  fallback:\n"
	"    instanceTypes: [g6e.12xlarge]\n"
	"    gpuLimit: 16\n"
	"    minGpuMemoryMiB: 40000\n"
	"  placement:\n"
	"    namespaces: [inference]\n"
	"    podSelector: {matchLabels: {gpu: \"yes\"}}\n";

struct fixture {
	struct arena a;
	struct source_set files;
	struct pipeline p;
	struct diags d;
	struct drift_node nodes[8];
	size_t nnodes;
	struct drift_pod pods[16];
	size_t npods;
	struct drift_input in;
	const struct spec_site *sites[1];
};

static int
setup(void **state)
{
	struct fixture *f = test_calloc(1, sizeof(*f));

	arena_init(&f->a);
	source_set_add(&f->a, &f->files, "sites/seoul-dc1.yaml", spec_text, sizeof(spec_text) - 1);
	if (pipeline_load(&f->p, &f->a, &f->files) < 0 || f->p.fleet.count != 1)
		return -1;
	diags_init(&f->d, &f->a);
	f->sites[0] = f->p.fleet.sites[0];
	f->in.cluster = "my-hybrid-cluster";
	f->in.sites = f->sites;
	f->in.nsites = 1;
	f->in.nodes = f->nodes;
	f->in.pods = f->pods;
	f->in.stack_listed = true;
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture *f = *state;

	arena_release(&f->a);
	test_free(f);
	return 0;
}

/* The loaded site carries its inventory, built once: every reader gets
 * that same one (docs/design/inventory.md). */
static void
test_live_drift__loaded_site_owns_one_inventory(void **state)
{
	struct fixture *f = *state;
	const struct spec_site *s = f->sites[0];

	assert_non_null(s->inventory);
	assert_ptr_equal(inventory_site(&f->a, s), s->inventory);
	assert_ptr_equal(inventory_site(&f->a, s), inventory_site(&f->a, s));
	assert_true(s->inventory->pool_count >= 1);
	assert_ptr_equal(s->inventory->site, s);
}

static const struct node *
J(struct fixture *f, const char *text)
{
	struct diags d;
	const struct node *n;

	diags_init(&d, &f->a);
	n = json_parse(&f->a, &d, "T", "test", text, strlen(text));
	assert_non_null(n);
	return n;
}

/* A hybrid node of rack-a as nodeadm registers it; `extra` is spliced
 * into spec (taints). */
static void
add_node(struct fixture *f, const char *name, const char *compute, const char *taints,
	 const char *gpus, bool ready)
{
	char text[2048];

	snprintf(text, sizeof(text),
		 "{\"metadata\":{\"name\":\"%s\",\"labels\":{"
		 "\"eks.amazonaws.com/compute-type\":\"%s\",\"node-type\":\"hybrid-gpu\","
		 "\"gpu.model\":\"h200\",\"gpusite.io/site\":\"seoul-dc1\","
		 "\"gpusite.io/node-group\":\"rack-a\"}},"
		 "\"spec\":{\"taints\":%s},"
		 "\"status\":{\"capacity\":{%s},\"conditions\":[{\"type\":\"Ready\","
		 "\"status\":\"%s\",\"reason\":\"%s\"}]}}",
		 name, compute, taints, gpus, ready ? "True" : "Unknown",
		 ready ? "KubeletReady" : "NodeStatusUnknown");
	drift_node_from(&f->nodes[f->nnodes++], &f->a, J(f, text));
	f->in.nnodes = f->nnodes;
}

static void
add_pod(struct fixture *f, const char *ns, const char *name, const char *node, const char *phase,
	const char *labels, const char *owner, int gpus, const char *tolerations)
{
	char text[2048];

	snprintf(text, sizeof(text),
		 "{\"metadata\":{\"namespace\":\"%s\",\"name\":\"%s\",\"labels\":%s,"
		 "\"ownerReferences\":[{\"kind\":\"%s\",\"name\":\"o\",\"controller\":true}]},"
		 "\"spec\":{%s%s%s\"containers\":[{\"name\":\"c\",\"resources\":{\"limits\":"
		 "{\"%s\":\"%d\"}}}],\"tolerations\":%s},"
		 "\"status\":{\"phase\":\"%s\"}}",
		 ns, name, labels, owner, node ? "\"nodeName\":\"" : "", node ? node : "",
		 node ? "\"," : "", gpus ? "nvidia.com/gpu" : "cpu", gpus ? gpus : 1, tolerations,
		 phase);
	drift_pod_from(&f->pods[f->npods++], &f->a, J(f, text));
	f->in.npods = f->npods;
}

#define GPU_TAINT "[{\"key\":\"nvidia.com/gpu\",\"value\":\"Exists\",\"effect\":\"NoSchedule\"}]"
/* what the placement policy adds: the GPU taint's toleration and the
 * site taint's (the fallback pool is exclusive by default) */
#define GPU_TOL                                                                                    \
	"[{\"key\":\"nvidia.com/gpu\",\"operator\":\"Exists\"},"                                   \
	"{\"key\":\"gpusite.io/site\",\"operator\":\"Equal\",\"value\":\"seoul-dc1\","             \
	"\"effect\":\"NoSchedule\"}]"
/* what the fallback NodePool's template puts on its nodes: the GPU taint,
 * then the site taint (exclusive by default) */
#define POOL_TAINTS                                                                                \
	"[{\"key\":\"nvidia.com/gpu\",\"value\":\"Exists\",\"effect\":\"NoSchedule\"},"            \
	"{\"key\":\"gpusite.io/site\",\"value\":\"seoul-dc1\",\"effect\":\"NoSchedule\"}]"
#define DP_LABELS "{\"app.kubernetes.io/name\":\"nvidia-device-plugin\"}"

static void
healthy(struct fixture *f)
{
	add_node(f, "gpu-a-01", "hybrid", GPU_TAINT, "\"nvidia.com/gpu\":\"8\"", true);
	add_node(f, "gpu-a-02", "hybrid", GPU_TAINT, "\"nvidia.com/gpu\":\"8\"", true);
	add_pod(f, "nvidia-device-plugin", "dp-1", "gpu-a-01", "Running", DP_LABELS, "DaemonSet", 0,
		"[]");
	add_pod(f, "nvidia-device-plugin", "dp-2", "gpu-a-02", "Running", DP_LABELS, "DaemonSet", 0,
		"[]");
}

static size_t
count_rule(const struct diags *d, const char *rule)
{
	size_t n = 0;

	for (size_t i = 0; i < d->count; i++)
		n += !strcmp(d->items[i].rule, rule);
	return n;
}

static const struct diag *
first(const struct diags *d, const char *rule)
{
	for (size_t i = 0; i < d->count; i++)
		if (!strcmp(d->items[i].rule, rule))
			return &d->items[i];
	fail_msg("no %s finding", rule);
	return NULL;
}

/* The k-th finding of `rule` (from 0). */
static const struct diag *
nth(const struct diags *d, const char *rule, size_t k)
{
	for (size_t i = 0; i < d->count; i++)
		if (!strcmp(d->items[i].rule, rule) && k-- == 0)
			return &d->items[i];
	fail_msg("no %s finding", rule);
	return NULL;
}

static void
test_live_drift__healthy_cluster_has_no_finding(void **state)
{
	struct fixture *f = *state;

	healthy(f);
	assert_int_equal(drift_check(&f->a, &f->d, &f->in), 0);
	assert_int_equal(f->d.count, 0);
}

static void
test_live_drift__untainted_node_points_at_its_name(void **state)
{
	struct fixture *f = *state;
	const struct diag *x;

	healthy(f);
	f->nodes[1].taints = NULL;
	assert_int_equal(drift_check(&f->a, &f->d, &f->in), 1);
	x = first(&f->d, DRIFT_NO_TAINT);
	assert_int_equal(x->level, DIAG_ERROR);
	assert_string_equal(x->at.file, "sites/seoul-dc1.yaml");
	assert_int_equal(x->at.line, 10);
	assert_int_equal(x->at.col, 25); /* gpu-a-02 in the nodes list */
	assert_non_null(strstr(x->msg, "node gpu-a-02 of site seoul-dc1 has no GPU taint"));
	assert_string_equal(x->site, "seoul-dc1");
}

static void
test_live_drift__wrong_effect_absent_notready_unknown(void **state)
{
	struct fixture *f = *state;

	add_node(f, "gpu-a-01", "hybrid",
		 "[{\"key\":\"nvidia.com/gpu\",\"value\":\"Exists\",\"effect\":\"NoExecute\"}]",
		 "\"nvidia.com/gpu\":\"8\"", false);
	add_node(f, "gpu-z-09", "hybrid", GPU_TAINT, "\"nvidia.com/gpu\":\"8\"", true);
	add_pod(f, "nvidia-device-plugin", "dp-1", "gpu-a-01", "Running", DP_LABELS, "DaemonSet", 0,
		"[]");
	/* gpu-a-02 is absent, gpu-z-09 is in no spec */
	assert_int_equal(drift_check(&f->a, &f->d, &f->in), 4);
	assert_int_equal(count_rule(&f->d, DRIFT_TAINT_WRONG), 1);
	assert_int_equal(count_rule(&f->d, DRIFT_NODE_ABSENT), 1);
	assert_int_equal(count_rule(&f->d, DRIFT_NODE_NOT_READY), 1);
	assert_int_equal(first(&f->d, DRIFT_NODE_UNKNOWN)->level, DIAG_WARNING);
	assert_non_null(strstr(first(&f->d, DRIFT_NODE_UNKNOWN)->msg, "gpu-z-09"));
	assert_non_null(strstr(first(&f->d, DRIFT_NODE_ABSENT)->msg, "gpu-a-02"));
}

static void
test_live_drift__device_plugin_and_capacity(void **state)
{
	struct fixture *f = *state;

	add_node(f, "gpu-a-01", "hybrid", GPU_TAINT, "\"nvidia.com/gpu\":\"8\"", true);
	add_node(f, "gpu-a-02", "hybrid", GPU_TAINT, "\"cpu\":\"96\"", true);
	add_node(f, "i-0auto", "auto", "[]", "\"nvidia.com/gpu\":\"1\"", true);
	add_pod(f, "nvidia-device-plugin", "dp-1", "gpu-a-01", "Running", DP_LABELS, "DaemonSet", 0,
		"[]");
	add_pod(f, "nvidia-device-plugin", "dp-x", "i-0auto", "Running", DP_LABELS, "DaemonSet", 0,
		"[]");
	assert_int_equal(drift_check(&f->a, &f->d, &f->in), 3);
	assert_non_null(strstr(first(&f->d, DRIFT_STACK_OFF_HYBRID)->msg,
			       "dp-x runs on node i-0auto, an EKS Auto Mode node"));
	assert_non_null(strstr(first(&f->d, DRIFT_NO_DEVICE_PLUGIN)->msg, "gpu-a-02"));
	assert_non_null(strstr(first(&f->d, DRIFT_NO_GPU_CAPACITY)->msg, "gpu-a-02"));
}

static void
test_live_drift__active_fallback_is_state_not_drift(void **state)
{
	struct fixture *f = *state;
	struct drift_fallback fb;
	const char *claims[] = { "pool-abc" };
	const struct node *pool = J(f, "{\"apiVersion\":\"karpenter.sh/v1\","
				       "\"kind\":\"NodePool\",\"metadata\":{\"name\":\"p\"},"
				       "\"spec\":{\"limits\":{\"nvidia.com/gpu\":16}}}");

	healthy(f);
	memset(&fb, 0, sizeof(fb));
	fb.site = f->sites[0];
	fb.pool = inventory_pool(inventory_site(&f->a, f->sites[0]), INV_ROLE_FALLBACK_POOL);
	fb.rendered = pool;
	fb.live = pool;
	fb.class_kind = "EC2NodeClass";
	fb.claims = claims;
	fb.nclaims = 1;
	f->in.fallbacks = &fb;
	f->in.nfallbacks = 1;
	assert_int_equal(drift_check(&f->a, &f->d, &f->in), 0);
	assert_int_equal(f->d.count, 1);
	assert_int_equal(first(&f->d, DRIFT_FALLBACK_ACTIVE)->level, DIAG_NOTE);
	assert_non_null(strstr(first(&f->d, DRIFT_FALLBACK_ACTIVE)->msg, "1 NodeClaim (pool-abc)"));
}

static void
test_live_drift__fallback_near_its_limit(void **state)
{
	struct fixture *f = *state;
	struct drift_fallback fb;
	const struct node *pool = J(f, "{\"spec\":{\"limits\":{\"nvidia.com/gpu\":16}}}");

	healthy(f);
	drift_node_from(&f->nodes[f->nnodes++], &f->a,
			J(f, "{\"metadata\":{\"name\":\"ip-10-0-1-2\",\"labels\":{"
			     "\"karpenter.sh/nodepool\":\"seoul-dc1-gpu-fallback\"}},"
			     "\"spec\":{\"taints\":" POOL_TAINTS "},"
			     "\"status\":{\"capacity\":{\"nvidia.com/gpu\":\"14\"},"
			     "\"allocatable\":{\"nvidia.com/gpu\":\"14\"},"
			     "\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}}"));
	f->in.nnodes = f->nnodes;
	memset(&fb, 0, sizeof(fb));
	fb.site = f->sites[0];
	fb.pool = inventory_pool(inventory_site(&f->a, f->sites[0]), INV_ROLE_FALLBACK_POOL);
	fb.rendered = pool;
	fb.live = pool;
	fb.class_kind = "EC2NodeClass";
	f->in.fallbacks = &fb;
	f->in.nfallbacks = 1;
	assert_int_equal(drift_check(&f->a, &f->d, &f->in), 0);
	assert_non_null(strstr(first(&f->d, DRIFT_FALLBACK_ACTIVE)->msg,
			       "0 NodeClaims, 1 node (ip-10-0-1-2), 14 of 16 GPUs in use (87%): "
			       "near gpuLimit"));
}

static void
test_live_drift__pool_missing_changed_class_missing(void **state)
{
	struct fixture *f = *state;
	struct drift_fallback fb[2];

	healthy(f);
	memset(fb, 0, sizeof(fb));
	fb[0].site = f->sites[0];
	fb[0].pool = inventory_pool(inventory_site(&f->a, f->sites[0]), INV_ROLE_FALLBACK_POOL);
	fb[0].rendered = J(f, "{\"spec\":{\"limits\":{\"nvidia.com/gpu\":16}}}");
	fb[0].live = J(f, "{\"spec\":{\"limits\":{\"nvidia.com/gpu\":\"8\"},\"weight\":5},"
			  "\"status\":{}}");
	fb[0].class_missing = true;
	fb[0].class_kind = "EC2NodeClass";
	fb[1].site = f->sites[0];
	fb[1].pool = inventory_pool(inventory_site(&f->a, f->sites[0]), INV_ROLE_FALLBACK_POOL);
	fb[1].rendered = fb[0].rendered;
	fb[1].class_kind = "EC2NodeClass";
	f->in.fallbacks = fb;
	f->in.nfallbacks = 2;
	assert_int_equal(drift_check(&f->a, &f->d, &f->in), 3);
	assert_non_null(strstr(first(&f->d, DRIFT_POOL_DIFFERS)->msg,
			       "spec.limits[\"nvidia.com/gpu\"] (cluster '8', rendered 16)"));
	/* the server-side weight is not a difference */
	assert_null(strstr(first(&f->d, DRIFT_POOL_DIFFERS)->msg, "weight"));
	assert_int_equal(count_rule(&f->d, DRIFT_POOL_MISSING), 1);
	assert_non_null(
		strstr(first(&f->d, DRIFT_CLASS_MISSING)->msg, "EC2NodeClass gpu-fallback"));
}

static void
test_live_drift__pending_and_untolerated_gpu_pods(void **state)
{
	struct fixture *f = *state;

	healthy(f);
	add_pod(f, "inference", "llm-0", NULL, "Pending", "{\"gpu\":\"yes\"}", "StatefulSet", 8,
		GPU_TOL);
	add_pod(f, "inference", "llm-1", "gpu-a-01", "Running", "{\"gpu\":\"yes\"}", "StatefulSet",
		8, "[]");
	/* outside the podSelector: the policy does not apply to it */
	add_pod(f, "inference", "other", NULL, "Pending", "{}", "Job", 1, "[]");
	/* no GPU request: not a GPU pod */
	add_pod(f, "inference", "cpu", NULL, "Pending", "{\"gpu\":\"yes\"}", "Job", 0, "[]");
	assert_int_equal(drift_check(&f->a, &f->d, &f->in), 2);
	assert_non_null(
		strstr(first(&f->d, DRIFT_PODS_PENDING)->msg,
		       "1 GPU pod is Pending in namespace inference of site seoul-dc1: llm-0"));
	assert_non_null(strstr(first(&f->d, DRIFT_PODS_NO_TOLERATION)->msg, ": llm-1;"));
	assert_null(strstr(first(&f->d, DRIFT_PODS_NO_TOLERATION)->msg, "other"));
}

/* Every GPU request form makes a GPU Pod for drift as for the placement
 * policy (src/k8s/k8s_gpu.h): a MIG resource in an init container, a
 * native sidecar's nvidia.com/gpu, resource claims; a CPU Pod does not. */
static void
test_live_drift__every_gpu_request_form(void **state)
{
	struct fixture *f = *state;
	static const char *const pods[] = {
		"{\"metadata\":{\"namespace\":\"inference\",\"name\":\"mig-init\","
		"\"labels\":{\"gpu\":\"yes\"}},\"spec\":{\"initContainers\":[{\"name\":\"i\","
		"\"resources\":{\"limits\":{\"nvidia.com/mig-1g.10gb\":\"1\"}}}],"
		"\"containers\":[{\"name\":\"c\"}]},\"status\":{\"phase\":\"Running\"}}",
		"{\"metadata\":{\"namespace\":\"inference\",\"name\":\"sidecar\","
		"\"labels\":{\"gpu\":\"yes\"}},\"spec\":{\"initContainers\":[{\"name\":\"s\","
		"\"restartPolicy\":\"Always\",\"resources\":{\"requests\":{\"nvidia.com/gpu\":"
		"\"1\"}}}],\"containers\":[{\"name\":\"c\"}]},\"status\":{\"phase\":\"Running\"}}",
		"{\"metadata\":{\"namespace\":\"inference\",\"name\":\"claims\","
		"\"labels\":{\"gpu\":\"yes\"}},\"spec\":{\"resourceClaims\":[{\"name\":\"g\","
		"\"resourceClaimTemplateName\":\"gpu\"}],\"containers\":[{\"name\":\"c\"}]},"
		"\"status\":{\"phase\":\"Running\"}}",
		"{\"metadata\":{\"namespace\":\"inference\",\"name\":\"cpu-only\","
		"\"labels\":{\"gpu\":\"yes\"}},\"spec\":{\"containers\":[{\"name\":\"c\","
		"\"resources\":{\"limits\":{\"cpu\":\"1\",\"example.com/fpga\":\"1\"}}}]},"
		"\"status\":{\"phase\":\"Running\"}}",
	};
	const struct diag *tol;

	healthy(f);
	for (size_t i = 0; i < sizeof(pods) / sizeof(pods[0]); i++) {
		drift_pod_from(&f->pods[f->npods], &f->a, J(f, pods[i]));
		assert_int_equal(drift_pod_maybe_gpu(&f->pods[f->npods]), i < 3);
		f->npods++;
	}
	f->in.npods = f->npods;
	drift_check(&f->a, &f->d, &f->in);
	tol = first(&f->d, DRIFT_PODS_NO_TOLERATION);
	assert_non_null(tol);
	assert_non_null(strstr(tol->msg, "3 GPU pods in namespace inference"));
	assert_non_null(strstr(tol->msg, "mig-init, sidecar, claims"));
	assert_null(strstr(tol->msg, "cpu-only"));
}

/* A Ready fallback node whose allocatable GPUs are 0 is GS216; one that
 * is not Ready yet is not judged. */
static void
test_live_drift__fallback_node_without_allocatable_gpus(void **state)
{
	struct fixture *f = *state;
	struct drift_fallback fb;
	const struct node *pool = J(f, "{\"spec\":{\"limits\":{\"nvidia.com/gpu\":16}}}");

	healthy(f);
	drift_node_from(&f->nodes[f->nnodes++], &f->a,
			J(f, "{\"metadata\":{\"name\":\"ip-10-0-1-2\",\"labels\":{"
			     "\"karpenter.sh/nodepool\":\"seoul-dc1-gpu-fallback\"}},"
			     "\"spec\":{\"taints\":" POOL_TAINTS "},"
			     "\"status\":{\"capacity\":{\"nvidia.com/gpu\":\"4\"},"
			     "\"allocatable\":{\"nvidia.com/gpu\":\"0\"},"
			     "\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}}"));
	drift_node_from(
		&f->nodes[f->nnodes++], &f->a,
		J(f, "{\"metadata\":{\"name\":\"ip-10-0-1-3\",\"labels\":{"
		     "\"karpenter.sh/nodepool\":\"seoul-dc1-gpu-fallback\"}},"
		     "\"spec\":{\"taints\":" POOL_TAINTS "},"
		     "\"status\":{\"conditions\":[{\"type\":\"Ready\",\"status\":\"False\"}]}}"));
	f->in.nnodes = f->nnodes;
	memset(&fb, 0, sizeof(fb));
	fb.site = f->sites[0];
	fb.pool = inventory_pool(inventory_site(&f->a, f->sites[0]), INV_ROLE_FALLBACK_POOL);
	fb.rendered = pool;
	fb.live = pool;
	fb.class_kind = "EC2NodeClass";
	f->in.fallbacks = &fb;
	f->in.nfallbacks = 1;
	assert_int_equal(drift_check(&f->a, &f->d, &f->in), 1);
	assert_non_null(strstr(first(&f->d, DRIFT_FALLBACK_NO_GPU)->msg,
			       "fallback node ip-10-0-1-2 of NodePool seoul-dc1-gpu-fallback "
			       "(site seoul-dc1) is Ready but advertises no allocatable "
			       "nvidia.com/gpu (0)"));
	assert_null(strstr(first(&f->d, DRIFT_FALLBACK_NO_GPU)->msg, "ip-10-0-1-3"));
}

/* A fallback node as its NodePool launches it, with `taints`. */
static void
add_pool_node(struct fixture *f, const char *name, const char *pool, const char *taints)
{
	char text[2048];

	snprintf(text, sizeof(text),
		 "{\"metadata\":{\"name\":\"%s\",\"labels\":{\"karpenter.sh/nodepool\":\"%s\"}},"
		 "\"spec\":{\"taints\":%s},"
		 "\"status\":{\"capacity\":{\"nvidia.com/gpu\":\"4\"},"
		 "\"allocatable\":{\"nvidia.com/gpu\":\"4\"},"
		 "\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}}",
		 name, pool, taints);
	drift_node_from(&f->nodes[f->nnodes++], &f->a, J(f, text));
	f->in.nnodes = f->nnodes;
}

/* GS246: each node of a pool of the inventory against every taint its
 * NodePool lists (the GPU taint and inv_pool.taints); a node of another
 * NodePool is not the site's. */
static void
test_live_drift__pool_node_lacks_its_taints(void **state)
{
	struct fixture *f = *state;
	const struct diag *x;

	healthy(f);
	add_pool_node(f, "ip-ok", "seoul-dc1-gpu-fallback", POOL_TAINTS);
	add_pool_node(f, "ip-nosite", "seoul-dc1-gpu-fallback", GPU_TAINT);
	add_pool_node(f, "ip-bare", "seoul-dc1-gpu-fallback", "[]");
	add_pool_node(
		f, "ip-other", "seoul-dc1-gpu-fallback",
		"[{\"key\":\"nvidia.com/gpu\",\"value\":\"Exists\",\"effect\":\"NoSchedule\"},"
		"{\"key\":\"gpusite.io/site\",\"value\":\"busan-dc2\","
		"\"effect\":\"NoSchedule\"}]");
	add_pool_node(f, "ip-stranger", "gpu", "[]");
	assert_int_equal(drift_check(&f->a, &f->d, &f->in), 3);
	assert_int_equal(count_rule(&f->d, DRIFT_POOL_NODE_UNTAINTED), 3);
	x = first(&f->d, DRIFT_POOL_NODE_UNTAINTED);
	assert_int_equal(x->level, DIAG_ERROR);
	assert_string_equal(x->path, "spec.fallback");
	assert_string_equal(x->site, "seoul-dc1");
	assert_non_null(strstr(x->msg,
			       "fallback node ip-nosite of NodePool seoul-dc1-gpu-fallback "
			       "(site seoul-dc1) lacks the taint "
			       "gpusite.io/site=seoul-dc1:NoSchedule: any Pod that tolerates "
			       "nvidia.com/gpu=Exists:NoSchedule can land on it;"));
	assert_non_null(strstr(x->msg, "Karpenter's drift replaces"));
	assert_non_null(strstr(x->msg, "'kubectl drain ip-nosite --ignore-daemonsets'"));
	x = nth(&f->d, DRIFT_POOL_NODE_UNTAINTED, 1);
	assert_non_null(strstr(x->msg,
			       "ip-bare of NodePool seoul-dc1-gpu-fallback (site seoul-dc1) "
			       "lacks the taints nvidia.com/gpu=Exists:NoSchedule, "
			       "gpusite.io/site=seoul-dc1:NoSchedule: any Pod can land"));
	x = nth(&f->d, DRIFT_POOL_NODE_UNTAINTED, 2);
	assert_non_null(strstr(x->msg,
			       "ip-other of NodePool seoul-dc1-gpu-fallback (site seoul-dc1) "
			       "lacks the taint gpusite.io/site=seoul-dc1:NoSchedule (has "
			       "gpusite.io/site=busan-dc2:NoSchedule)"));
	for (size_t i = 0; i < f->d.count; i++) {
		assert_null(strstr(f->d.items[i].msg, "ip-ok "));
		assert_null(strstr(f->d.items[i].msg, "ip-stranger"));
	}
}

/* A GPU Pod of the placement scope with `affinity` (spec.affinity's
 * nodeAffinity, or NULL) and `selector` (spec.nodeSelector, or NULL). */
static void
add_bound_pod(struct fixture *f, const char *name, const char *phase, const char *affinity,
	      const char *selector)
{
	char text[2048];

	snprintf(text, sizeof(text),
		 "{\"metadata\":{\"namespace\":\"inference\",\"name\":\"%s\","
		 "\"labels\":{\"gpu\":\"yes\"}},"
		 "\"spec\":{%s%s%s%s%s%s\"containers\":[{\"name\":\"c\",\"resources\":{\"limits\":"
		 "{\"nvidia.com/gpu\":\"1\"}}}],\"tolerations\":" GPU_TOL "},"
		 "\"status\":{\"phase\":\"%s\"}}",
		 name, affinity ? "\"affinity\":{\"nodeAffinity\":" : "", affinity ? affinity : "",
		 affinity ? "}," : "", selector ? "\"nodeSelector\":" : "",
		 selector ? selector : "", selector ? "," : "", phase);
	drift_pod_from(&f->pods[f->npods++], &f->a, J(f, text));
	f->in.npods = f->npods;
}

#define PREF_HYBRID                                                                                \
	"\"preferredDuringSchedulingIgnoredDuringExecution\":[{\"weight\":100,\"preference\":"     \
	"{\"matchExpressions\":[{\"key\":\"eks.amazonaws.com/compute-type\",\"operator\":\"In\","  \
	"\"values\":[\"hybrid\"]}]}}]"
#define SITE_EXPR "{\"key\":\"gpusite.io/site\",\"operator\":\"In\",\"values\":[\"seoul-dc1\"]}"
#define REQUIRED(terms)                                                                            \
	"\"requiredDuringSchedulingIgnoredDuringExecution\":{\"nodeSelectorTerms\":[" terms "]}"

/* GS247: the requirements of the rendered placement plan (prefer-onprem:
 * the hybrid term preferred; siteBinding required), each Pod judged on
 * what it lacks, Pods grouped by it; a stricter requirement, a site
 * nodeSelector count; finished Pods and Pods outside the podSelector are
 * not judged. */
static void
test_live_drift__unbound_gpu_pods(void **state)
{
	struct fixture *f = *state;
	const struct diag *x;

	healthy(f);
	live_drift_plans(&f->in, &f->a);
	assert_int_equal(f->in.nplans, 1);
	assert_int_equal(f->in.plans[0].req_count, 2);
	/* what the policy makes of a Pod without affinity */
	add_bound_pod(f, "bound", "Running",
		      "{" PREF_HYBRID "," REQUIRED("{\"matchExpressions\":[" SITE_EXPR "]}") "}",
		      NULL);
	/* every term has it, one with a narrower value list of its own */
	add_bound_pod(f, "two-terms", "Pending",
		      "{" PREF_HYBRID "," REQUIRED("{\"matchExpressions\":[" SITE_EXPR "]},"
						   "{\"matchExpressions\":[{\"key\":"
						   "\"gpusite.io/site\",\"operator\":\"In\","
						   "\"values\":[\"seoul-dc1\"]},{\"key\":\"zone\","
						   "\"operator\":\"In\",\"values\":[\"a\"]}]}") "}",
		      NULL);
	add_bound_pod(f, "by-selector", "Running", "{" PREF_HYBRID "}",
		      "{\"gpusite.io/site\":\"seoul-dc1\"}");
	/* one term of two lacks the site: the Pod may land anywhere */
	add_bound_pod(f, "one-term", "Running",
		      "{" PREF_HYBRID "," REQUIRED("{\"matchExpressions\":[" SITE_EXPR "]},"
						   "{\"matchExpressions\":[{\"key\":\"zone\","
						   "\"operator\":\"In\",\"values\":[\"a\"]}]}") "}",
		      NULL);
	/* another site's value, and a selector of another site */
	add_bound_pod(f, "wrong-site", "Running",
		      "{" PREF_HYBRID
		      "," REQUIRED("{\"matchExpressions\":[{\"key\":"
				   "\"gpusite.io/site\",\"operator\":\"In\","
				   "\"values\":[\"seoul-dc1\",\"busan-dc2\"]}]}") "}",
		      "{\"gpusite.io/site\":\"busan-dc2\"}");
	/* the hybrid preference narrowed by a second expression is another one */
	add_bound_pod(f, "narrow-pref", "Running",
		      "{\"preferredDuringSchedulingIgnoredDuringExecution\":[{\"weight\":100,"
		      "\"preference\":{\"matchExpressions\":[{\"key\":"
		      "\"eks.amazonaws.com/compute-type\",\"operator\":\"In\",\"values\":"
		      "[\"hybrid\"]},{\"key\":\"zone\",\"operator\":\"In\",\"values\":[\"a\"]}]}}]"
		      "," REQUIRED("{\"matchExpressions\":[" SITE_EXPR "]}") "}",
		      NULL);
	add_bound_pod(f, "bare", "Running", NULL, NULL);
	add_bound_pod(f, "done", "Succeeded", NULL, NULL);
	add_pod(f, "inference", "not-selected", NULL, "Running", "{}", "Job", 1, "[]");
	/* three GS247, and GS214 of the Pending two-terms */
	assert_int_equal(drift_check(&f->a, &f->d, &f->in), 4);
	assert_int_equal(count_rule(&f->d, DRIFT_PODS_UNBOUND), 3);
	/* grouped by what they lack, in the order of the plan's requirements */
	x = nth(&f->d, DRIFT_PODS_UNBOUND, 0);
	assert_string_equal(x->path, "spec.placement.namespaces");
	assert_non_null(strstr(x->msg,
			       "1 GPU pod in namespace inference of site seoul-dc1 lacks "
			       "the node affinity eks.amazonaws.com/compute-type In [hybrid] "
			       "(preferred, weight 100) that the kyverno placement policy "
			       "gpusite-seoul-dc1-placement adds: narrow-pref;"));
	x = nth(&f->d, DRIFT_PODS_UNBOUND, 1);
	assert_non_null(strstr(x->msg,
			       "2 GPU pods in namespace inference of site seoul-dc1 lack "
			       "the node affinity gpusite.io/site In [seoul-dc1] (required) "
			       "that the kyverno placement policy gpusite-seoul-dc1-placement "
			       "adds: one-term, wrong-site; they were admitted while the "
			       "policy was not acting"));
	assert_non_null(strstr(x->msg, "'kubectl rollout restart'"));
	x = nth(&f->d, DRIFT_PODS_UNBOUND, 2);
	assert_non_null(strstr(x->msg, "lacks the node affinity eks.amazonaws.com/compute-type In "
				       "[hybrid] (preferred, weight 100) and gpusite.io/site In "
				       "[seoul-dc1] (required) that the kyverno placement policy "
				       "gpusite-seoul-dc1-placement adds: bare;"));
	for (size_t i = 0; i < f->d.count; i++)
		assert_null(strstr(f->d.items[i].msg, "done"));
}

/* The expectation is the plan's: siteBinding preferred asks for the
 * preferred site term (a required one counts too), none for no site term;
 * with engine none no policy is rendered and nothing is judged; the list
 * of Pods is bounded. */
static void
test_live_drift__binding_follows_the_plan(void **state)
{
	struct fixture *f = *state;
	struct spec_site *s = (struct spec_site *)f->sites[0];

	healthy(f);
	for (int i = 0; i < 12; i++) {
		char name[16];

		snprintf(name, sizeof(name), "pod-%02d", i);
		add_bound_pod(f, arena_strdup(&f->a, name), "Running", "{" PREF_HYBRID "}", NULL);
	}
	s->placement.site_binding = BIND_PREFERRED;
	live_drift_plans(&f->in, &f->a);
	assert_false(f->in.plans[0].reqs[1].required);
	assert_int_equal(drift_check(&f->a, &f->d, &f->in), 1);
	assert_non_null(
		strstr(first(&f->d, DRIFT_PODS_UNBOUND)->msg,
		       "12 GPU pods in namespace inference of site seoul-dc1 lack the node "
		       "affinity gpusite.io/site In [seoul-dc1] (preferred, weight 100) "
		       "that the kyverno placement policy gpusite-seoul-dc1-placement adds: "
		       "pod-00, pod-01, pod-02, pod-03, pod-04, pod-05, pod-06, pod-07, "
		       "pod-08, pod-09 and 2 more;"));
	s->placement.site_binding = BIND_NONE;
	live_drift_plans(&f->in, &f->a);
	assert_int_equal(f->in.plans[0].req_count, 1);
	diags_init(&f->d, &f->a);
	assert_int_equal(drift_check(&f->a, &f->d, &f->in), 0);
	s->placement.site_binding = BIND_REQUIRED;
	s->placement.engine = ENGINE_NONE;
	live_drift_plans(&f->in, &f->a);
	diags_init(&f->d, &f->a);
	assert_int_equal(drift_check(&f->a, &f->d, &f->in), 0);
}

static void
test_live_drift__rule_table_is_whole(void **state)
{
	size_t n = 0;

	(void)state;
	/* the drift rows of the table of findings: GS201-GS219, then
	 * GS246-GS247, each in a row */
	for (size_t i = 0; i < findings_count; i++) {
		char want[8];

		if (findings_table[i].source != FINDING_DRIFT)
			continue;
		snprintf(want, sizeof(want), "GS%03zu", n < 19 ? 201 + n : 246 + n - 19);
		n++;
		assert_string_equal(findings_table[i].id, want);
		assert_true(strlen(findings_table[i].summary) > 10);
	}
	assert_int_equal(n, 21);
	assert_int_equal(findings_find(DRIFT_FALLBACK_ACTIVE)->level, DIAG_NOTE);
	assert_int_equal(findings_find(DRIFT_FALLBACK_ACTIVE)->source, FINDING_DRIFT);
	assert_null(findings_find("GS299"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_live_drift__loaded_site_owns_one_inventory,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_live_drift__healthy_cluster_has_no_finding,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_live_drift__untainted_node_points_at_its_name,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_live_drift__wrong_effect_absent_notready_unknown, setup, teardown),
		cmocka_unit_test_setup_teardown(test_live_drift__device_plugin_and_capacity, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_live_drift__active_fallback_is_state_not_drift,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_live_drift__fallback_near_its_limit, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_live_drift__pool_missing_changed_class_missing,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_live_drift__every_gpu_request_form, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_live_drift__pending_and_untolerated_gpu_pods,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_live_drift__fallback_node_without_allocatable_gpus, setup, teardown),
		cmocka_unit_test_setup_teardown(test_live_drift__pool_node_lacks_its_taints, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_live_drift__unbound_gpu_pods, setup, teardown),
		cmocka_unit_test_setup_teardown(test_live_drift__binding_follows_the_plan, setup,
						teardown),
		cmocka_unit_test(test_live_drift__rule_table_is_whole),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
