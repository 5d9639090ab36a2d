/*
 * drill_plan.c - `drill plan`: what the cluster must show before a
 * drill is started (GS230-GS238).  GET and LIST only.  What it prints
 * after (the handout) is drill_handout.c.
 */
#include <stdio.h>
#include <string.h>

#include "inventory/inventory.h"
#include "base/arena.h"
#include "base/buf.h"
#include "diff/diff.h"
#include "live/drift.h"
#include "drill/drill.h"
#include "k8s/k8s_selector.h"
#include "kube/kube.h"
#include "node/node.h"
#include "render/render.h"
#include "rules/instance_types.h"
#include "spec/spec.h"

#define MAX_PATHS 5

static void
finding(struct diags *d, struct drill_plan *p, struct pos at, const char *rule, const char *path,
	const char *msg)
{
	diag_report(d, at, rule, path, "%s", msg);
	p->findings++;
}

static bool
drilled(const struct drill_plan_input *in, const char *node)
{
	for (size_t i = 0; node && i < in->node_count; i++)
		if (!strcmp(in->nodes[i], node))
			return true;
	return false;
}

/* A PDB's selector: policy/v1 selects nothing with none, every pod with {}. */
static bool
selects(const struct node *sel, const struct node *labels)
{
	return sel && sel->kind == NODE_MAP && k8s_label_selector_matches(sel, labels);
}

static int
check_pool(struct arena *a, struct diags *d, struct drill_plan *p,
	   const struct drill_plan_input *in)
{
	const struct spec_site *s = in->site;
	struct pos at = spec_field_pos(s->fallback.src, "enabled");
	struct node *live = NULL, *cls = NULL;
	bool automode = s->cluster.provisioner == PROV_AUTO_MODE;
	int rc;

	rc = kube_get(&live, in->kube, a, "karpenter.sh/v1", "NodePool", NULL,
		      drill_pool_name(a, s));
	if (rc == KUBE_EFAIL)
		return -1;
	if (!live) {
		finding(d, p, at, DRILL_POOL, "spec.fallback",
			arena_printf(a,
				     "fallback NodePool %s is not in the cluster: the"
				     " drill would leave the pods Pending; sync the Argo CD"
				     " Application that carries it before the drill",
				     drill_pool_name(a, s)));
	} else if (in->rendered_pool) {
		struct node *r = diff_normalize(a, in->rendered_pool);
		struct node *l = diff_live_subset(a, diff_normalize(a, live), r);
		const char *paths[MAX_PATHS];
		size_t n = diff_paths(a, l, r, paths, MAX_PATHS);

		if (n) {
			const char *list = paths[0];

			for (size_t i = 1; i < n && i < MAX_PATHS; i++)
				list = arena_printf(a, "%s, %s", list, paths[i]);
			finding(d, p, at, DRILL_POOL, "spec.fallback",
				arena_printf(a,
					     "fallback NodePool %s differs from the render at"
					     " %s%s: the drill would measure another pool; sync it"
					     " (see 'gpusite diff --live')",
					     drill_pool_name(a, s), list,
					     n > MAX_PATHS ? " and more" : ""));
		}
	}
	rc = kube_get(&cls, in->kube, a, automode ? "eks.amazonaws.com/v1" : "karpenter.k8s.aws/v1",
		      automode ? "NodeClass" : "EC2NodeClass", NULL, drill_class_name(a, s));
	if (rc == KUBE_EFAIL)
		return -1;
	if (!cls)
		finding(d, p, spec_field_pos(s->fallback.src, "nodeClassName"), DRILL_CLASS,
			"spec.fallback.nodeClassName",
			arena_printf(
				a,
				"%s %s, the fallback pool's node class, is not in the"
				" cluster: no fallback node can launch; create it before the drill",
				automode ? "NodeClass" : "EC2NodeClass", drill_class_name(a, s)));
	return 0;
}

static int
check_plugin(struct arena *a, struct diags *d, struct drill_plan *p,
	     const struct drill_plan_input *in)
{
	const struct spec_site *s = in->site;
	struct node *ds = NULL;
	bool found = false;

	if (!(s->fallback.enabled && s->cluster.provisioner == PROV_KARPENTER &&
	      s->fallback.node_image == IMAGE_AL2023))
		return 0; /* bottlerocket and auto mode bring their own */
	if (kube_list_daemonsets(&ds, in->kube, a, NULL) == KUBE_EFAIL)
		return -1;
	for (size_t i = 0; ds && ds->kind == NODE_SEQ && i < ds->seq.count; i++) {
		const struct node *o = ds->seq.items[i];
		const char *name = node_str(node_path(o, "metadata.name"));
		const char *inst = node_str(node_map_get(node_path(o, "metadata.labels"),
							 "app.kubernetes.io/instance"));

		found = found || (name && !strcmp(name, INV_RELEASE_FALLBACK_PLUGIN)) ||
			(inst && !strcmp(inst, INV_RELEASE_FALLBACK_PLUGIN));
	}
	if (!found)
		finding(d, p, spec_field_pos(s->fallback.src, "nodeImage"), DRILL_DEVICE_PLUGIN,
			"spec.fallback.nodeImage",
			arena_printf(a,
				     "fallback.nodeImage is al2023 but the fallback device plugin's"
				     " DaemonSet (nvidia-device-plugin-fallback) is not in the"
				     " cluster: the fallback nodes would have no nvidia.com/gpu and"
				     " the pods would stay Pending; sync the %s Application",
				     render_fallback_plugin_app_name(a, s->cluster.name)));
	return 0;
}

/* What the GPU pods of the placement namespaces show, as they are read. */
struct pod_scan {
	const char **pending; /* "ns/name" of the Pending ones */
	const char *unfenced; /* the first one a partition would not fence */
	size_t nunfenced;
};

static void
note_pending(struct arena *a, struct drill_plan *p, struct pod_scan *scan,
	     const struct drift_pod *dp)
{
	scan->pending = arena_realloc(a, scan->pending, p->pending_pods * sizeof(*scan->pending),
				      (p->pending_pods + 1) * sizeof(*scan->pending));
	scan->pending[p->pending_pods++] = arena_printf(a, "%s/%s", dp->ns, dp->name);
}

static void
note_unfenced(struct arena *a, struct pod_scan *scan, const struct drill_plan_input *in,
	      const struct drift_pod *dp)
{
	const struct spec_site *s = in->site;

	/* fencing statefulset fences only the pods of a StatefulSet */
	if (in->scenario != DRILL_PARTITION || !s->placement.single_writer ||
	    s->placement.fencing != FENCE_STATEFULSET ||
	    (dp->owner_kind && !strcmp(dp->owner_kind, "StatefulSet")))
		return;
	if (!scan->unfenced)
		scan->unfenced = arena_printf(a, "%s/%s (owned by %s)", dp->ns, dp->name,
					      dp->owner_kind ? dp->owner_kind : "nothing");
	scan->nunfenced++;
}

/* The PDBs of ns that allow no disruption now and cover the pod, once each. */
static void
note_blocking_pdbs(struct arena *a, struct drill_plan *p, const char *ns, const struct node *pdbs,
		   const struct drift_pod *dp)
{
	for (size_t j = 0; pdbs && j < pdbs->seq.count; j++) {
		const struct node *b = pdbs->seq.items[j];
		const struct node *allowed = node_path(b, "status.disruptionsAllowed");
		const char *bn =
			arena_printf(a, "%s/%s", ns, node_str(node_path(b, "metadata.name")));
		bool seen = false;

		if (!allowed || !node_is_int(allowed) || allowed->scalar.i > 0 ||
		    !selects(node_path(b, "spec.selector"), dp->labels))
			continue;
		for (size_t k = 0; k < p->blocking_count; k++)
			seen = seen || !strcmp(p->blocking_pdbs[k], bn);
		if (seen)
			continue;
		p->blocking_pdbs = arena_realloc(
			a, p->blocking_pdbs, p->blocking_count * sizeof(*p->blocking_pdbs),
			(p->blocking_count + 1) * sizeof(*p->blocking_pdbs));
		p->blocking_pdbs[p->blocking_count++] = bn;
	}
}

static int
scan_namespace(struct arena *a, struct drill_plan *p, struct pod_scan *scan,
	       const struct drill_plan_input *in, const char *ns)
{
	struct kube_list_query q = { "v1", "Pod", ns, NULL, NULL, 0 };
	struct kube_list_query pq = { "policy/v1", "PodDisruptionBudget", ns, NULL, NULL, 0 };
	struct node *pods = NULL, *pdbs = NULL;

	if (kube_list_all(&pods, in->kube, a, &q) == KUBE_EFAIL)
		return -1;
	if (kube_list_all(&pdbs, in->kube, a, &pq) == KUBE_EFAIL)
		return -1;
	for (size_t i = 0; pods && i < pods->seq.count; i++) {
		struct drift_pod dp;

		drift_pod_from(&dp, a, pods->seq.items[i]);
		if (dp.gpus <= 0)
			continue;
		if (!strcmp(dp.phase, "Pending"))
			note_pending(a, p, scan, &dp);
		if (!drilled(in, dp.node) || (dp.owner_kind && !strcmp(dp.owner_kind, "DaemonSet")))
			continue;
		p->moving_pods++;
		p->moving_gpus += dp.gpus;
		if (dp.gpus > p->largest_pod_gpus)
			p->largest_pod_gpus = dp.gpus;
		note_unfenced(a, scan, in, &dp);
		note_blocking_pdbs(a, p, ns, pdbs, &dp);
	}
	return 0;
}

/* The largest pod of the drilled nodes must fit one node of a listed
 * fallback type, or it stays Pending however high gpuLimit is. */
static void
report_largest_pod(struct arena *a, struct diags *d, struct drill_plan *p,
		   const struct drill_plan_input *in)
{
	const struct spec_fallback *fb = &in->site->fallback;
	const struct instance_type *widest = NULL;

	if (!fb->enabled || !fb->instance_type_count || !p->largest_pod_gpus)
		return;
	for (size_t i = 0; i < fb->instance_type_count; i++) {
		const struct instance_type *t = instance_type_find(fb->instance_types[i]);

		if (!t || !instance_type_whole_nvidia(t))
			return; /* unknown types: the rules said so; no guess here */
		if (!widest || t->nvidia_gpus > widest->nvidia_gpus)
			widest = t;
	}
	if (widest->nvidia_gpus >= p->largest_pod_gpus)
		return;
	finding(d, p, spec_field_pos(fb->src, "instanceTypes"), DRILL_GPU_LIMIT,
		"spec.fallback.instanceTypes",
		arena_printf(a,
			     "a GPU pod of the drilled nodes requests %lld GPUs, but the largest"
			     " fallback instance type, %s, has %d: it would stay Pending on the"
			     " fallback, in the drill and in an outage; list a type with %lld"
			     " GPUs or more in fallback.instanceTypes",
			     (long long)p->largest_pod_gpus, widest->name, widest->nvidia_gpus,
			     (long long)p->largest_pod_gpus));
}

static void
report_pods(struct arena *a, struct diags *d, struct drill_plan *p,
	    const struct drill_plan_input *in, const struct pod_scan *scan)
{
	const struct spec_site *s = in->site;
	size_t nunfenced = scan->nunfenced;

	for (size_t k = 0; k < p->blocking_count; k++)
		finding(d, p, spec_field_pos(s->placement.src, "namespaces"), DRILL_PDB,
			"spec.placement.namespaces",
			arena_printf(a,
				     "PodDisruptionBudget %s allows no disruption now and"
				     " covers GPU pods of the drilled nodes: their eviction would"
				     " be refused (429); scale the workload up or relax the budget"
				     " for the drill",
				     p->blocking_pdbs[k]));
	if (nunfenced)
		finding(d, p, spec_field_pos(s->placement.src, "fencing"), DRILL_SINGLE_WRITER,
			"spec.placement.fencing",
			arena_printf(a,
				     "placement.singleWriter is true with fencing statefulset, but"
				     " %zu GPU pod%s of the drilled nodes %s not of a StatefulSet"
				     " (first %s): in a partition the old pod%s may keep running"
				     " beside %s replacement%s, two writers at once; run single"
				     " writers as StatefulSets or use fencing lease",
				     nunfenced, nunfenced == 1 ? "" : "s",
				     nunfenced == 1 ? "is" : "are", scan->unfenced,
				     nunfenced == 1 ? "" : "s", nunfenced == 1 ? "its" : "their",
				     nunfenced == 1 ? "" : "s"));
	if (p->pending_pods)
		finding(d, p, spec_field_pos(s->placement.src, "namespaces"), DRILL_NOT_IDLE,
			"spec.placement.namespaces",
			arena_printf(a,
				     "%zu GPU pod%s Pending now (first %s): the drill could not"
				     " tell its replacements from these; let them schedule or"
				     " delete them first",
				     p->pending_pods, p->pending_pods == 1 ? " is" : "s are",
				     scan->pending[0]));
	if (s->fallback.enabled && s->fallback.gpu_limit_set &&
	    p->moving_gpus > s->fallback.gpu_limit)
		finding(d, p, spec_field_pos(s->fallback.src, "gpuLimit"), DRILL_GPU_LIMIT,
			"spec.fallback.gpuLimit",
			arena_printf(a,
				     "fallback.gpuLimit %lld is below the %lld GPUs that the"
				     " %zu GPU pods of the drilled nodes request: some would stay"
				     " Pending; drill fewer nodes or raise gpuLimit",
				     (long long)s->fallback.gpu_limit, (long long)p->moving_gpus,
				     p->moving_pods));
	report_largest_pod(a, d, p, in);
}

static int
check_pods(struct arena *a, struct diags *d, struct drill_plan *p,
	   const struct drill_plan_input *in)
{
	const struct spec_site *s = in->site;
	struct pod_scan scan = { NULL, NULL, 0 };

	for (size_t n = 0; n < s->placement.namespace_count; n++)
		if (scan_namespace(a, p, &scan, in, s->placement.namespaces[n]) < 0)
			return -1;
	report_pods(a, d, p, in, &scan);
	return 0;
}

static int
check_active(struct arena *a, struct diags *d, struct drill_plan *p,
	     const struct drill_plan_input *in)
{
	const struct spec_site *s = in->site;
	struct kube_list_query q = {
		"v1", "Node",
		NULL, arena_printf(a, "karpenter.sh/nodepool=%s", drill_pool_name(a, s)),
		NULL, 0
	};
	struct node *nodes = NULL;

	if (kube_list_all(&nodes, in->kube, a, &q) == KUBE_EFAIL)
		return -1;
	p->fallback_nodes = nodes ? nodes->seq.count : 0;
	if (p->fallback_nodes)
		finding(d, p, spec_field_pos(s->fallback.src, "enabled"), DRILL_NOT_IDLE,
			"spec.fallback",
			arena_printf(a,
				     "the fallback is already active: NodePool %s has %zu"
				     " node%s (first %s); a drill now would measure nothing; wait"
				     " until it is back to zero nodes",
				     drill_pool_name(a, s), p->fallback_nodes,
				     p->fallback_nodes == 1 ? "" : "s",
				     node_str(node_path(nodes->seq.items[0], "metadata.name"))));
	return 0;
}

int
drill_plan_check(struct arena *a, struct diags *d, struct drill_plan *out,
		 const struct drill_plan_input *in)
{
	const struct spec_site *s = in->site;

	memset(out, 0, sizeof(*out));
	if (!s->fallback.enabled) {
		finding(d, out, spec_field_pos(s->fallback.src, "enabled"), DRILL_POOL,
			"spec.fallback.enabled",
			"fallback.enabled is false: there is no fallback to drill");
		return 0;
	}
	if (check_pool(a, d, out, in) < 0 || check_plugin(a, d, out, in) < 0 ||
	    check_pods(a, d, out, in) < 0 || check_active(a, d, out, in) < 0)
		return -1;
	if (s->alerts.enabled && in->rule_name) {
		struct node *rule = NULL;
		int rc = kube_get(&rule, in->kube, a, "monitoring.coreos.com/v1", "PrometheusRule",
				  in->rule_namespace, in->rule_name);

		if (rc == KUBE_EFAIL)
			return -1;
		if (!rule)
			finding(d, out, spec_field_pos(s->alerts.src, "enabled"), DRILL_PROM_RULE,
				"spec.alerts",
				arena_printf(
					a,
					"PrometheusRule %s/%s is not in the cluster: the drill"
					" would not show whether the alerts fire; sync it first",
					in->rule_namespace ? in->rule_namespace : "",
					in->rule_name));
	}
	if (in->scenario == DRILL_PARTITION && s->placement.single_writer &&
	    s->placement.fencing == FENCE_NONE)
		finding(d, out, spec_field_pos(s->placement.src, "fencing"), DRILL_SINGLE_WRITER,
			"spec.placement.fencing",
			"placement.singleWriter is true and fencing is none: in a partition the"
			" old pods may still run on the unreachable nodes while their"
			" replacements start, two writers at once; set placement.fencing"
			" (lease or statefulset) before a partition drill");
	return 0;
}

void
drill_plan_rendered(struct drill_plan_input *in, struct arena *a, const struct render_result *r)
{
	const struct spec_site *s = in->site;
	const char *pool = drill_pool_name(a, s);

	for (size_t i = 0; i < r->count; i++) {
		const struct render_object *ro = &r->objects[i];

		if (!strcmp(ro->kind, "NodePool") && pool && !strcmp(ro->name, pool))
			in->rendered_pool = ro->obj;
		if (!strcmp(ro->kind, "PrometheusRule") && ro->site && !strcmp(ro->site, s->name)) {
			in->rendered_rule = ro->obj;
			in->rule_namespace = ro->namespace;
			in->rule_name = ro->name;
		}
	}
}
