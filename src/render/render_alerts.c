/*
 * render_alerts.c - the site's PrometheusRule (monitoring.coreos.com/v1,
 * <alerts.namespace>/gpusite-<site>): fallback activated, fallback (and
 * burst pool) near its GPU limit, GPU Pods pending, an on-prem GPU node NotReady (docs/design/artifacts.md,
 * "Alerts").  Metric names: docs/design/upstream.md, "Karpenter" and "Admission policies".
 */
#include <string.h>

#include "base/arena.h"
#include "render/render_util.h"

static const struct pos no_pos = POS_NONE;

struct alert {
	const char *name;
	const char *expr;
	const char *for_;
	const char *severity;
	const char *summary;
	const char *description;
};

static struct node *
alert_node(struct arena *a, const char *site, const struct alert *al)
{
	struct node *r = node_new_map(a, no_pos), *labels, *ann;

	node_map_add_str(a, r, "alert", al->name);
	node_map_add_str(a, r, "expr", al->expr);
	node_map_add_str(a, r, "for", al->for_);
	labels = node_map_add(a, r, "labels", node_new_map(a, no_pos));
	node_map_add_str(a, labels, "gpusite_site", site);
	node_map_add_str(a, labels, "severity", al->severity);
	ann = node_map_add(a, r, "annotations", node_new_map(a, no_pos));
	node_map_add_str(a, ann, "description", al->description);
	node_map_add_str(a, ann, "summary", al->summary);
	return r;
}

/* The kube-state-metrics flag that exports the node labels the SSM part
 * of the NotReady alert joins on (kube_node_labels has no series without
 * it; docs/design/upstream.md, "Admission policies"). */
#define KSM_ALLOWLIST "--metric-labels-allowlist=nodes=[" INV_SITE_LABEL "," INV_GROUP_LABEL "]"

/* What the NotReady alert watches, from the spec. */
struct watched {
	const char **names; /* nodes named in the spec (any credentials) */
	size_t name_count;
	const char **groups; /* node groups without names (SSM, named at activation) */
	size_t group_count;
};

static void
watched_nodes(struct watched *w, struct arena *a, const struct spec_site *site)
{
	size_t total = 0;

	for (size_t g = 0; g < site->group_count; g++)
		total += site->groups[g].node_count;
	w->names = arena_alloc(a, (total + 1) * sizeof(*w->names));
	w->groups = arena_alloc(a, (site->group_count + 1) * sizeof(*w->groups));
	w->name_count = w->group_count = 0;
	for (size_t g = 0; g < site->group_count; g++) {
		const struct spec_node_group *grp = &site->groups[g];

		if (!grp->node_count) {
			w->groups[w->group_count++] = grp->name;
			continue;
		}
		for (size_t i = 0; i < grp->node_count; i++)
			w->names[w->name_count++] = grp->nodes[i];
	}
}

/* "a, b and c" */
static const char *
and_list(struct arena *a, const char *const *items, size_t n)
{
	const char *s = "";

	for (size_t i = 0; i < n; i++)
		s = arena_printf(a, "%s%s%s", s, !i ? "" : i + 1 == n ? " and " : ", ", items[i]);
	return s;
}

/*
 * The site's on-prem nodes as a PromQL expression that is 1 for each one
 * not Ready.  Nodes named in the spec match by name on
 * kube_node_status_condition, which kube-state-metrics always exports (a
 * node whose Ready condition is False or Unknown has status="true" at 0).
 * Nodes of an SSM group are named at activation, so they match through the
 * group's gpusite.io labels on kube_node_labels (KSM_ALLOWLIST; the cloud
 * fallback's nodes carry the site label but no node-group label).
 */
static const char *
not_ready_expr(struct arena *a, const struct spec_site *site, const struct watched *w)
{
	const char *by_name = NULL, *by_label = NULL;

	if (w->name_count)
		by_name = arena_printf(
			a,
			"kube_node_status_condition{condition=\"Ready\",status=\"true\",node=~%s} "
			"== 0",
			render_quote(a, render_promql_alt(a, w->names, w->name_count)));
	if (w->group_count)
		by_label = arena_printf(
			a,
			"(kube_node_status_condition{condition=\"Ready\",status=\"true\"} == 0)\n"
			"  and on (node)\n"
			"kube_node_labels{label_gpusite_io_site=%s,label_gpusite_io_node_group=~%"
			"s}",
			render_quote(a, site->name),
			render_quote(a, render_promql_alt(a, w->groups, w->group_count)));
	if (by_name && by_label)
		return arena_printf(a, "(%s)\nor\n(%s)", by_name, by_label);
	return by_name ? by_name : by_label;
}

/* The NotReady alert's own words on what it watches. */
static const char *
watch_note(struct arena *a, const struct watched *w)
{
	const char *named = NULL, *ssm = NULL;

	if (w->name_count)
		named = arena_printf(a,
				     "%s %s by name (kube_node_status_condition,"
				     " no kube-state-metrics flag needed)",
				     w->name_count == 1 ? "node" : "nodes",
				     and_list(a, w->names, w->name_count));
	if (w->group_count)
		ssm = arena_printf(a,
				   "the SSM nodes of node %s %s by their " INV_SITE_LABEL
				   " and " INV_GROUP_LABEL " labels (kube_node_labels, which"
				   " kube-state-metrics exports only when started with %s)",
				   w->group_count == 1 ? "group" : "groups",
				   and_list(a, w->groups, w->group_count), KSM_ALLOWLIST);
	return arena_printf(a, "Watches %s%s%s.", named ? named : "", named && ssm ? " and " : "",
			    ssm ? ssm : "");
}

/* absent() per SSM group: 1 while kube-state-metrics shows no node of it. */
static const char *
labels_missing_expr(struct arena *a, const struct spec_site *site, const struct watched *w)
{
	const char *s = "";

	for (size_t i = 0; i < w->group_count; i++)
		s = arena_printf(a,
				 "%s%sabsent(kube_node_labels{label_gpusite_io_site=%s,"
				 "label_gpusite_io_node_group=%s})",
				 s, i ? "\nor\n" : "", render_quote(a, site->name),
				 render_quote(a, w->groups[i]));
	return s;
}

/* ",namespace=~\"a|b\"" for the namespaces, "" for all (none named). */
static const char *
namespace_matcher(struct arena *a, const char *const *names, size_t count)
{
	if (!count)
		return "";
	return arena_printf(a, ",namespace=~%s",
			    render_quote(a, render_promql_alt(a, names, count)));
}

/* The matcher of the placement namespaces and those of every pool with a
 * scope of its own (the burst pool's): every GPU pod a pool of the site
 * may launch for. */
static const char *
scopes_matcher(struct arena *a, const struct spec_site *site, const struct inventory *inv)
{
	const struct spec_placement *p = &site->placement;
	const char **all;
	size_t n = 0, total = p->namespace_count + 1;

	if (!p->namespace_count)
		return "";
	for (size_t k = 0; k < inv->pool_count; k++)
		total += inv->pools[k].scope ? inv->pools[k].scope->namespace_count : 0;
	all = arena_alloc(a, total * sizeof(*all));
	for (size_t i = 0; i < p->namespace_count; i++)
		all[n++] = p->namespaces[i];
	for (size_t k = 0; k < inv->pool_count; k++)
		for (size_t i = 0; inv->pools[k].scope && i < inv->pools[k].scope->namespace_count;
		     i++)
			all[n++] = inv->pools[k].scope->namespaces[i];
	return namespace_matcher(a, all, n);
}

static const char *
pending_expr(struct arena *a, const char *const *names, size_t count)
{
	const char *ns = namespace_matcher(a, names, count);

	return arena_printf(
		a,
		"(max by (namespace, pod) (kube_pod_status_phase{phase=\"Pending\"%s}) == 1)\n"
		"  and on (namespace, pod)\n"
		"(max by (namespace, pod) "
		"(kube_pod_container_resource_requests{resource=\"nvidia_com_gpu\"%s}) > 0)",
		ns, ns);
}

/* The site's PrometheusRule, and the one rule group its alerts go in. */
static struct node *
alerts_rules(struct render_ctx *ctx, const struct spec_site *site, const struct watched *w)
{
	struct arena *a = ctx->arena;
	const struct spec_alerts *al = &site->alerts;
	const struct spec_fallback *fb = &site->fallback;
	const struct inv_object *rule = inventory_object(ctx->inv, INV_ROLE_ALERT_RULE);
	struct render_kvs extra = { NULL, 0, 0 };
	struct render_object *o;
	struct node *spec, *groups, *group, *rules;

	for (size_t i = 0; i < al->label_count; i++)
		render_kvs_add(a, &extra, al->labels[i].key, al->labels[i].value);
	o = render_object_add(
		ctx, &render_kind_alerts, NULL, NULL, rule->namespace, rule->name, site->name,
		site->cluster.name, &extra,
		arena_printf(
			a, "%s%s",
			fb->enabled ? "alerts when the cloud fallback takes over or nears its"
				      " GPU limit, GPU Pods stay pending, or an on-prem GPU node"
				      " is NotReady"
				    : "alerts when GPU Pods stay pending or an on-prem GPU node"
				      " is NotReady",
			w->group_count ? "; the SSM nodes are"
					 " watched through kube_node_labels: run kube-state-metrics"
					 " with " KSM_ALLOWLIST
				       : ""));
	spec = node_map_add(a, o->obj, "spec", node_new_map(a, no_pos));
	groups = node_map_add(a, spec, "groups", node_new_seq(a, no_pos));
	group = node_new_map(a, no_pos);
	node_map_add_str(a, group, "name", rule->name);
	rules = node_map_add(a, group, "rules", node_new_seq(a, no_pos));
	node_seq_push(a, groups, group);
	return rules;
}

static struct node *
fallback_active_alert(struct arena *a, const struct spec_site *site, const char *pool,
		      const char *pool_sel)
{
	struct alert x;

	x.name = "GPUSiteFallbackActive";
	x.expr = arena_printf(a,
			      "karpenter_nodepools_usage{%s,resource_type=\"nodes\"} > 0\n"
			      "or\n"
			      "increase(karpenter_nodeclaims_created_total{%s,reason="
			      "\"provisioned\"}[10m]) > 0",
			      pool_sel, pool_sel);
	x.for_ = "1m";
	x.severity = "warning";
	x.summary = arena_printf(a, "GPU site %s runs GPU pods on the cloud fallback", site->name);
	x.description =
		arena_printf(a,
			     "The fallback NodePool %s has nodes or"
			     " launched NodeClaims for pending pods: the on-prem GPU nodes of"
			     " site %s cannot take the load.",
			     pool, site->name);
	return alert_node(a, site->name, &x);
}

/* A pool near its GPU limit: the fallback (failover capacity running
 * out) or a pool of normal-time capacity (the burst pool's Spot bursts
 * about to stay pending); the pool's entry says which. */
static struct node *
near_limit_alert(struct arena *a, const struct spec_site *site, const struct inv_pool *pool,
		 const char *pool_sel)
{
	struct alert x;

	x.name = arena_printf(a, "%sNearLimit", pool->alert_prefix);
	x.expr = arena_printf(
		a,
		"karpenter_nodepools_usage{%s,resource_type=\"nvidia.com/gpu\"}\n"
		"  / karpenter_nodepools_limit{%s,resource_type=\"nvidia.com/gpu\"} > 0.8",
		pool_sel, pool_sel);
	x.for_ = "5m";
	x.severity = "warning";
	x.summary = arena_printf(a, "GPU site %s: %s is over 80%% of its GPU limit", site->name,
				 pool->title);
	x.description = arena_printf(a,
				     "The %s NodePool %s uses more than 80%%"
				     " of its limit of %lld GPUs; %s",
				     pool->noun, pool->name, (long long)pool->spec->gpu_limit,
				     pool->limit_note);
	return alert_node(a, site->name, &x);
}

/* The alerts of one pool, on its NodePool: its activation (the on-prem
 * nodes cannot take the load) and its limit; only the limit of a pool of
 * normal-time capacity (the burst pool's). */
static void
pool_alerts(struct arena *a, struct node *rules, const struct spec_site *site,
	    const struct inv_pool *pool)
{
	const char *pool_sel = arena_printf(a, "nodepool=%s", render_quote(a, pool->name));

	if (!pool->normal_time)
		node_seq_push(a, rules, fallback_active_alert(a, site, pool->name, pool_sel));
	node_seq_push(a, rules, near_limit_alert(a, site, pool, pool_sel));
}

/* What a failover takes by the site's own budget, for the alerts' `for`:
 * node provisioning, the image pull (cached or not) and a margin.  A term
 * recovery does not give is assumed (ALERT_ASSUMED_*), and the alert says
 * so. */
#define ALERT_ASSUMED_PROVISIONING 300
#define ALERT_ASSUMED_IMAGE_PULL 300
#define ALERT_PENDING_NO_FALLBACK 300

struct failover {
	int64_t provisioning, pull, margin;
	bool provisioning_assumed, pull_assumed, cached;
};

static void
failover_budget(struct failover *f, const struct spec_site *s)
{
	const struct spec_recovery *r = &s->recovery;

	f->provisioning_assumed = !r->node_provisioning.set;
	f->provisioning =
		f->provisioning_assumed ? ALERT_ASSUMED_PROVISIONING : r->node_provisioning.seconds;
	f->pull = spec_image_pull_seconds(s, &f->cached);
	f->pull_assumed = !f->cached && !r->image_pull.set;
	if (f->pull_assumed)
		f->pull = ALERT_ASSUMED_IMAGE_PULL;
	f->margin = s->alerts.pending_margin.seconds;
}

/* A Prometheus duration: "12m", "1h2m30s", "0s". */
static const char *
prom_duration(struct arena *a, int64_t seconds)
{
	const char *s = "";
	int64_t h = seconds / 3600, m = seconds / 60 % 60, sec = seconds % 60;

	if (h)
		s = arena_printf(a, "%lldh", (long long)h);
	if (m)
		s = arena_printf(a, "%s%lldm", s, (long long)m);
	if (sec || !*s)
		s = arena_printf(a, "%s%llds", s, (long long)sec);
	return s;
}

static const char *
term_text(struct arena *a, const char *what, int64_t seconds, const char *note)
{
	return arena_printf(a, "%s %s%s", what, prom_duration(a, seconds), note);
}

static struct node *
pods_pending_alert(struct arena *a, const struct spec_site *site, const struct failover *f)
{
	struct alert x;
	const char *wait;

	x.name = "GPUSitePodsPending";
	x.expr = pending_expr(a, site->placement.namespaces, site->placement.namespace_count);
	x.severity = "warning";
	if (!site->fallback.enabled) {
		x.for_ = prom_duration(a, ALERT_PENDING_NO_FALLBACK);
		x.summary = arena_printf(a, "GPU pods of site %s pending for over %s", site->name,
					 x.for_);
		x.description = arena_printf(a,
					     "Pod {{ $labels.namespace }}/{{ $labels.pod }}"
					     " requests GPUs and has been Pending for more than %s:"
					     " the on-prem GPU nodes cannot place it and the site"
					     " has no cloud fallback.",
					     x.for_);
		return alert_node(a, site->name, &x);
	}
	x.for_ = prom_duration(a, f->provisioning + f->pull + f->margin);
	wait = arena_printf(a, "%s + %s + %s",
			    term_text(a, "node provisioning", f->provisioning,
				      f->provisioning_assumed
					      ? " (assumed: set recovery.nodeProvisioning)"
					      : ""),
			    term_text(a, f->cached ? "cached image pull" : "image pull", f->pull,
				      f->pull_assumed ? " (assumed: set recovery.imagePull)" : ""),
			    term_text(a, "margin", f->margin, ""));
	x.summary = arena_printf(a, "GPU pods of site %s pending longer than a failover takes (%s)",
				 site->name, x.for_);
	x.description = arena_printf(
		a,
		"Pod {{ $labels.namespace }}/{{ $labels.pod }}"
		" requests GPUs and has been Pending for more than %s, longer than the"
		" site's own failover takes (%s): neither the on-prem nodes nor the cloud"
		" fallback can place it. A normal failover keeps pods Pending for"
		" provisioning plus image pull and does not page.",
		x.for_, wait);
	return alert_node(a, site->name, &x);
}

/* The Pods of a pool's own scope pending (the burst pool's): the on-prem
 * nodes are full and the pool gets no capacity (Spot) or is at its limit.
 * Not a failover: that work never uses the fallback. */
static struct node *
scope_pending_alert(struct arena *a, const struct spec_site *site, const struct inv_pool *pool,
		    const struct failover *f)
{
	const struct inv_scope *sc = pool->scope;
	const char *cap = spec_capacity_name(pool->spec->capacity_type);
	struct alert x;

	x.name = arena_printf(a, "%sPodsPending", pool->alert_prefix);
	x.expr = pending_expr(a, sc->namespaces, sc->namespace_count);
	x.severity = "warning";
	x.for_ = prom_duration(a, f->provisioning + f->pull + f->margin);
	x.summary = arena_printf(a,
				 "%s GPU pods of site %s pending for over %s: %s capacity"
				 " missing",
				 pool->noun, site->name, x.for_, cap);
	x.description = arena_printf(
		a,
		"Pod {{ $labels.namespace }}/{{ $labels.pod }} of the %s scope requests GPUs"
		" and has been Pending for more than %s (node provisioning, image pull and"
		" margin): the on-prem GPU nodes are full and %s launches no node for"
		" it, because the instance types have no %s capacity in the zones"
		" (InsufficientCapacityError events on the NodeClaims) or the pool is at"
		" %s.gpuLimit. This is not a failover: %s work never runs on the on-demand"
		" fallback, it waits for on-prem or %s capacity.",
		pool->noun, x.for_, pool->title, cap, pool->spec_key, pool->noun, pool->noun);
	return alert_node(a, site->name, &x);
}

/* GPU pods in scope that no node can take yet (PodScheduled False,
 * Unschedulable), or NodeClaims of the site's pools that failed to launch. */
static const char *
launch_failing_expr(struct arena *a, const struct spec_site *site, const struct inventory *inv,
		    const char *pools)
{
	const char *ns = scopes_matcher(a, site, inv);

	return arena_printf(
		a,
		"(\n"
		"  (max by (namespace, pod) (kube_pod_status_unschedulable{%s}) == 1)\n"
		"    and on (namespace, pod)\n"
		"  (max by (namespace, pod) "
		"(kube_pod_container_resource_requests{resource=\"nvidia_com_gpu\"%s}) > 0)\n"
		")\n"
		"or\n"
		"(sum by (karpenter_sh_nodepool) (operator_nodeclaim_status_condition_count"
		"{type=\"Launched\",status=\"False\",karpenter_sh_nodepool=~%s}) > 0)",
		*ns ? ns + 1 : "", ns, render_quote(a, pools));
}

/* Who launches no node, for the summary: "the cloud fallback launches",
 * or with more pools "the cloud pools (fallback and burst) launch". */
static const char *
launchers(struct arena *a, const struct inventory *inv)
{
	const char **nouns = arena_alloc(a, (inv->pool_count + 1) * sizeof(*nouns));

	if (inv->pool_count == 1)
		return arena_printf(a, "%s launches", inv->pools[0].title);
	for (size_t i = 0; i < inv->pool_count; i++)
		nouns[i] = inv->pools[i].noun;
	return arena_printf(a, "the cloud pools (%s) launch", and_list(a, nouns, inv->pool_count));
}

static struct node *
launch_failing_alert(struct arena *a, const struct spec_site *site, const struct inventory *inv,
		     const struct failover *f)
{
	const char **names = arena_alloc(a, (inv->pool_count + 1) * sizeof(*names));
	struct alert x;
	const char *list;

	for (size_t i = 0; i < inv->pool_count; i++)
		names[i] = inv->pools[i].name;
	list = and_list(a, names, inv->pool_count);
	x.name = "GPUSiteFallbackLaunchFailing";
	x.expr = launch_failing_expr(a, site, inv, render_promql_alt(a, names, inv->pool_count));
	x.for_ = prom_duration(a, f->provisioning + f->margin);
	x.severity = "critical";
	x.summary = arena_printf(a, "GPU site %s: %s no node for pending GPU pods", site->name,
				 launchers(a, inv));
	x.description = arena_printf(
		a,
		"GPU pods of site %s have found no node for more than %s (%s + margin %s), or"
		" Karpenter reports NodeClaims of NodePool %s that failed to launch. Likely"
		" causes: no capacity for the listed instance types in the region's zones"
		" (InsufficientCapacityError events on the NodeClaims), the pool's GPU limit"
		" reached (karpenter_nodepools_usage at karpenter_nodepools_limit), or an"
		" EC2NodeClass that is not Ready (NodeClassNotReady events). kubectl describe"
		" nodepool %s and the Karpenter controller's log say which.",
		site->name, x.for_,
		term_text(a, "node provisioning", f->provisioning,
			  f->provisioning_assumed ? " (assumed: set recovery.nodeProvisioning)"
						  : ""),
		prom_duration(a, f->margin), list, list);
	return alert_node(a, site->name, &x);
}

static struct node *
node_not_ready_alert(struct arena *a, const struct spec_site *site, const struct watched *w)
{
	struct alert x;

	x.name = "GPUSiteOnPremNodeNotReady";
	x.expr = not_ready_expr(a, site, w);
	x.for_ = "1m";
	x.severity = "critical";
	x.summary = arena_printf(a,
				 "On-prem GPU node {{ $labels.node }} of site %s"
				 " is not Ready",
				 site->name);
	x.description =
		arena_printf(a,
			     "Node {{ $labels.node }} of GPU site %s has"
			     " not been Ready for a minute; its GPU pods are evicted after the"
			     " eviction toleration (%llds unreachable, %llds not-ready)%s. %s",
			     site->name, (long long)site->placement.unreachable_toleration_seconds,
			     (long long)site->placement.not_ready_toleration_seconds,
			     site->fallback.enabled ? " and may move to the cloud fallback" : "",
			     watch_note(a, w));
	return alert_node(a, site->name, &x);
}

static struct node *
node_labels_missing_alert(struct arena *a, const struct spec_site *site, const struct watched *w)
{
	struct alert x;

	x.name = "GPUSiteNodeLabelsMissing";
	x.expr = labels_missing_expr(a, site, w);
	x.for_ = "15m";
	x.severity = "warning";
	x.summary = arena_printf(a,
				 "No node of node group {{ $labels.label_gpusite_io_node_group }}"
				 " of site %s is visible in kube_node_labels",
				 site->name);
	x.description = arena_printf(
		a,
		"GPUSiteOnPremNodeNotReady finds the SSM nodes"
		" of node group {{ $labels.label_gpusite_io_node_group }} (named at"
		" activation) through kube_node_labels, and kube-state-metrics exports"
		" that series only when started with %s. Until it is, or while no node"
		" of the group has joined, a NotReady node of the group raises no alert.",
		KSM_ALLOWLIST);
	return alert_node(a, site->name, &x);
}

static int
alerts_site(struct render_ctx *ctx, const struct spec_site *site)
{
	struct arena *a = ctx->arena;
	struct node *rules;
	struct watched w;
	struct failover f;

	if (!site->alerts.enabled)
		return 0;
	watched_nodes(&w, a, site);
	failover_budget(&f, site);
	rules = alerts_rules(ctx, site, &w);
	for (size_t i = 0; i < ctx->inv->pool_count; i++)
		pool_alerts(a, rules, site, &ctx->inv->pools[i]);
	if (ctx->inv->pool_count)
		node_seq_push(a, rules, launch_failing_alert(a, site, ctx->inv, &f));
	node_seq_push(a, rules, pods_pending_alert(a, site, &f));
	for (size_t i = 0; i < ctx->inv->pool_count; i++)
		if (ctx->inv->pools[i].scope)
			node_seq_push(a, rules,
				      scope_pending_alert(a, site, &ctx->inv->pools[i], &f));
	if (site->group_count)
		node_seq_push(a, rules, node_not_ready_alert(a, site, &w));
	if (w.group_count)
		node_seq_push(a, rules, node_labels_missing_alert(a, site, &w));
	return 0;
}

const struct render_kind render_kind_alerts = {
	.kind = "PrometheusRule",
	.api_version = "monitoring.coreos.com/v1",
	.rank = RENDER_RANK_PROMETHEUSRULE,
	.render_site = alerts_site,
	.render_cluster = NULL,
	.group = "monitoring.coreos.com",
	.version = "v1",
	.plural = "prometheusrules",
	.namespaced = true,
	.crd = "prometheus-operator/monitoring.coreos.com_prometheusrules.yaml",
	.live = true,
	.unchecked = NULL,
};
