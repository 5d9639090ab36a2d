/*
 * drill_handout.c - what `drill plan` prints after its checks: a handout
 * a person can run the drill from.  The steps as full commands (grant
 * the drill's rights, silence the site's alerts for the drill window, dry
 * run, run, report, restore, expire the silence and revoke the rights),
 * the expected timeline from the recovery budget, the availability and
 * return conditions, the drill window, when to abort, and what the
 * fallback nodes are expected to cost over the window.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "drill/drill.h"
#include "node/node.h"
#include "rules/instance_types.h"
#include "spec/spec.h"

#define RBAC_FILE "examples/rbac/gpusite-drill.yaml"
#define RECORD_FILE "drill.json"
/* the label every alert of the site's PrometheusRule carries
 * (render_alerts.c) */
#define ALERT_SITE_LABEL "gpusite_site"
/* what the restore waits past consolidateAfter (drill run's default) */
#define RETURN_MARGIN 300
/* how long drill run waits for availability by default */
#define RUN_TIMEOUT 1800

struct handout {
	struct buf *out;
	const struct drill_plan_input *in;
	const struct drill_plan *plan;
	const struct drill_budget *b;
	struct arena a;
	const char *nodes;   /* "a,b": the drilled nodes */
	const char *restore; /* "a,b": those the drill cordons, NULL when none */
	int64_t abort_after; /* targetRTO, else the budget's total */
	int64_t window;      /* the drill window, seconds */
	const char *alerts;  /* "A|B|C": the site's alerts as rendered, or NULL */
	const char *ctl;     /* "gpusite drill run SITE<again>" */
	int step;
	int rc;
};

static const char *
dur(struct handout *h, int64_t s)
{
	char b[SPEC_DURATION_BUFSZ];

	spec_duration_format(b, sizeof(b), s);
	return arena_strdup(&h->a, b);
}

/* amtool's --duration: whole minutes, rounded up ("25m", "1h5m") */
static const char *
minutes(struct handout *h, int64_t s)
{
	int64_t m = (s + 59) / 60;

	if (m >= 60 && m % 60)
		return arena_printf(&h->a, "%lldh%lldm", (long long)(m / 60), (long long)(m % 60));
	if (m >= 60)
		return arena_printf(&h->a, "%lldh", (long long)(m / 60));
	return arena_printf(&h->a, "%lldm", (long long)m);
}

static void put(struct handout *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
put(struct handout *h, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	h->rc |= buf_adds(h->out, arena_vprintf(&h->a, fmt, ap));
	va_end(ap);
}

/* "A|B|C": the alert names of the rendered PrometheusRule; NULL without */
static const char *
alert_names(struct arena *a, const struct node *rule)
{
	const struct node *groups = node_path(rule, "spec.groups");
	const char *names = NULL;

	for (size_t g = 0; groups && groups->kind == NODE_SEQ && g < groups->seq.count; g++) {
		const struct node *rules = node_map_get(groups->seq.items[g], "rules");

		for (size_t i = 0; rules && rules->kind == NODE_SEQ && i < rules->seq.count; i++) {
			const char *n = node_str(node_map_get(rules->seq.items[i], "alert"));

			if (n)
				names = names ? arena_printf(a, "%s|%s", names, n) : n;
		}
	}
	return names;
}

/* The nodes, and those of them the drill cordons (not unschedulable now). */
static void
node_lists(struct handout *h)
{
	const struct drill_plan_input *in = h->in;

	for (size_t i = 0; i < in->node_count; i++) {
		bool before = false;

		for (size_t j = 0; j < in->cordoned_count; j++)
			before |= !strcmp(in->cordoned[j], in->nodes[i]);
		h->nodes = h->nodes ? arena_printf(&h->a, "%s,%s", h->nodes, in->nodes[i])
				    : in->nodes[i];
		if (!before)
			h->restore =
				h->restore ? arena_printf(&h->a, "%s,%s", h->restore, in->nodes[i])
					   : in->nodes[i];
	}
}

static void
step_rights(struct handout *h, bool grant)
{
	if (grant)
		put(h,
		    "  %d. grant the drill's write rights, for the drill only (on top of"
		    " gpusite-read-only.yaml; bind them to whoever runs the drill):\n"
		    "       kubectl apply -f %s\n",
		    h->step++, RBAC_FILE);
	else
		put(h, "       kubectl delete -f %s\n", RBAC_FILE);
}

static void
step_silence(struct handout *h)
{
	const char *site = h->in->site->name;

	if (!h->alerts) {
		put(h,
		    "  %d. no alerts are rendered for the site (alerts.enabled is false): none"
		    " of gpusite's to silence\n",
		    h->step++);
		return;
	}
	put(h,
	    "  %d. silence the notifications of the site's alerts for the drill window %s"
	    " (they still fire in Prometheus: check there that they do):\n"
	    "       SILENCE=$(amtool silence add --alertmanager.url=\"$ALERTMANAGER_URL\""
	    " --duration=%s --comment='gpusite drill of site %s' 'alertname=~\"%s\"'"
	    " '%s=\"%s\"')\n",
	    h->step++, dur(h, h->window), minutes(h, h->window), site, h->alerts, ALERT_SITE_LABEL,
	    site);
}

static void
steps_drain(struct handout *h)
{
	const char *site = h->in->site->name;

	step_rights(h, true);
	step_silence(h);
	put(h,
	    "  %d. the dry run (the exact API calls, nothing changed), then the drill (cordon,"
	    " then evict through the Eviction API; cordoning alone moves nothing):\n"
	    "       %s --nodes %s\n"
	    "       %s --nodes %s --record %s --execute\n",
	    h->step++, h->ctl, h->nodes, h->ctl, h->nodes, RECORD_FILE);
	put(h,
	    "  %d. watch until the availability condition holds, then measure:\n"
	    "       gpusite drill report %s%s --record %s\n",
	    h->step++, drill_shell_word(&h->a, site, "SITE"), h->in->again ? h->in->again : "",
	    RECORD_FILE);
	if (h->restore)
		put(h,
		    "  %d. restore (it uncordons only the nodes the drill cordoned), and wait"
		    " for the return condition:\n"
		    "       %s\n",
		    h->step++,
		    drill_restore_command(&h->a, site, h->in->again, &h->restore, 1, RECORD_FILE));
	else
		put(h,
		    "  %d. the drill cordons no node (all are unschedulable already): wait for"
		    " the return condition\n",
		    h->step++);
	put(h, "  %d. expire the silence and revoke the rights:\n", h->step++);
	if (h->alerts)
		put(h, "       amtool silence expire --alertmanager.url=\"$ALERTMANAGER_URL\""
		       " \"$SILENCE\"\n");
	step_rights(h, false);
}

static void
steps_partition(struct handout *h)
{
	const struct spec_site *s = h->in->site;

	put(h, "  %d. gpusite sends no write in a partition drill: no drill rights are needed\n",
	    h->step++);
	step_silence(h);
	put(h,
	    "  %d. block the path between the site and the VPC (Direct Connect or VPN) for the"
	    " drilled nodes; gpusite never touches the network\n",
	    h->step++);
	put(h,
	    "  %d. expect the nodes NotReady after nodeMonitorGracePeriod %s, the pods evicted"
	    " after unreachableTolerationSeconds %llds; the old pods may keep running on the"
	    " cut-off nodes\n",
	    h->step++, dur(h, h->b->seconds[DRILL_TERM_NODE_MONITOR_GRACE]),
	    (long long)s->placement.unreachable_toleration_seconds);
	put(h,
	    "  %d. watch until the availability condition holds, then measure:\n"
	    "       gpusite drill report %s%s --scenario partition --since START\n",
	    h->step++, drill_shell_word(&h->a, s->name, "SITE"), h->in->again ? h->in->again : "");
	put(h, "  %d. restore the path, and wait for the return condition\n", h->step++);
	if (h->alerts)
		put(h,
		    "  %d. expire the silence:\n"
		    "       amtool silence expire --alertmanager.url=\"$ALERTMANAGER_URL\""
		    " \"$SILENCE\"\n",
		    h->step++);
}

static void
timeline(struct handout *h)
{
	const struct drill_budget *b = h->b;
	int64_t at = 0;

	put(h, "expected timeline (recovery budget%s):\n",
	    b->set ? "" : ", no spec.recovery block: defaults");
	for (int t = 0; t < DRILL_TERM_COUNT; t++) {
		if (!b->applies[t]) {
			put(h, "  %-18s        -  (absent in a drain)\n",
			    drill_term_name((enum drill_term)t));
			continue;
		}
		at += b->seconds[t];
		put(h, "  %-18s %8s  (at +%s)\n", drill_term_name((enum drill_term)t),
		    dur(h, b->seconds[t]), dur(h, at));
	}
	put(h, "  %-18s %8s  targetRTO %s\n", "total", dur(h, b->total),
	    b->target ? dur(h, b->target) : "not given");
}

static void
conditions(struct handout *h)
{
	const struct spec_site *s = h->in->site;

	put(h, "availability: every GPU pod of namespace%s",
	    s->placement.namespace_count == 1 ? "" : "s");
	for (size_t i = 0; i < s->placement.namespace_count; i++)
		put(h, "%s %s", i ? "," : "", s->placement.namespaces[i]);
	put(h, " Ready again, on nodes of NodePool %s\n", drill_pool_name(&h->a, s));
	put(h,
	    "return: the drilled nodes schedulable and Ready, the pods back on-prem, NodePool %s"
	    " at zero nodes within consolidateAfter %s plus a margin\n",
	    drill_pool_name(&h->a, s),
	    s->fallback.consolidate_after.never ? "Never"
						: dur(h, s->fallback.consolidate_after.seconds));
}

/* The drill window: the longest the drill runs before it is aborted
 * (targetRTO, else the budget's total), then the return. */
static void
window(struct handout *h)
{
	const struct spec_site *s = h->in->site;
	const struct spec_duration *ca = &s->fallback.consolidate_after;
	int64_t back = (ca->never ? 0 : ca->seconds) + RETURN_MARGIN;

	h->abort_after = h->b->target ? h->b->target : h->b->total;
	h->window = h->abort_after + back;
}

static void
window_text(struct handout *h)
{
	const struct spec_duration *ca = &h->in->site->fallback.consolidate_after;

	put(h,
	    "drill window: %s = %s %s (the longest the drill runs before it is aborted) + the"
	    " return (consolidateAfter %s + a %s margin, the restore's default wait)%s\n",
	    dur(h, h->window), h->b->target ? "targetRTO" : "the expected total",
	    dur(h, h->abort_after), ca->never ? "Never: 0" : dur(h, ca->seconds),
	    dur(h, RETURN_MARGIN),
	    ca->never ? "; with consolidateAfter Never the fallback nodes stay until removed" : "");
}

static void
abort_text(struct handout *h)
{
	const struct spec_site *s = h->in->site;

	put(h, "abort (restore at once) when:\n");
	if (h->in->scenario == DRILL_NODE_FAILURE)
		put(h, "  - drill run stops with exit 3 (a write refused, a PodDisruptionBudget,"
		       " interrupted): it names the nodes it cordoned and the restore command\n");
	put(h,
	    "  - the availability condition does not hold %s after the start (drill run"
	    " waits until its --timeout, %s by default: stop it with Ctrl-C)\n",
	    dur(h, h->abort_after), dur(h, RUN_TIMEOUT));
	put(h,
	    "  - GPU pods the drill does not move go Pending, or the fallback nears"
	    " gpuLimit %lld (GPUSiteFallbackNearLimit fires in Prometheus)\n",
	    (long long)s->fallback.gpu_limit);
	put(h, "  - an incident anywhere needs the site's GPUs back\n");
}

/* One instance type's line; its cost for the window in *cost (< 0:
 * unknown, or no node of the type fits the largest pod that moves). */
static void
cost_type(struct handout *h, const char *name, int64_t gpus, double *cost)
{
	const struct instance_type *t = instance_type_find(name);
	int64_t nodes;

	*cost = -1;
	if (!t || !instance_type_whole_nvidia(t)) {
		put(h, "  %-18s not a known type with whole NVIDIA GPUs: price not known\n", name);
		return;
	}
	if (h->plan->largest_pod_gpus > t->nvidia_gpus) {
		put(h,
		    "  %-18s %d GPU%s a node, fewer than the %lld a moving pod asks: not "
		    "launched\n",
		    name, t->nvidia_gpus, t->nvidia_gpus == 1 ? "" : "s",
		    (long long)h->plan->largest_pod_gpus);
		return;
	}
	nodes = (gpus + t->nvidia_gpus - 1) / t->nvidia_gpus;
	if (t->usd_per_hour <= 0) {
		put(h, "  %-18s %lld node%s: price not known (%s ships none)\n", name,
		    (long long)nodes, nodes == 1 ? "" : "s", instance_price_source);
		return;
	}
	*cost = (double)nodes * t->usd_per_hour * (double)h->window / 3600;
	put(h, "  %-18s %lld node%s x $%.4f/h = $%.2f/h: $%.2f for the window\n", name,
	    (long long)nodes, nodes == 1 ? "" : "s", t->usd_per_hour,
	    (double)nodes * t->usd_per_hour, *cost);
}

static bool
capacity_lists(const struct spec_fallback *fb, const char *type)
{
	for (size_t i = 0; i < fb->capacity_type_count; i++)
		if (!strcmp(fb->capacity_types[i], type))
			return true;
	return !fb->capacity_type_count && !strcmp(type, "on-demand");
}

/* "spot" or "[reserved, on-demand]", as the spec lists them */
static const char *
capacity_text(struct handout *h, const struct spec_fallback *fb)
{
	const char *text = "";

	if (fb->capacity_type_count == 1)
		return fb->capacity_types[0];
	if (!fb->capacity_type_count)
		return spec_capacity_name(fb->capacity_type);
	for (size_t i = 0; i < fb->capacity_type_count; i++)
		text = arena_printf(&h->a, "%s%s%s", text, i ? ", " : "[", fb->capacity_types[i]);
	return arena_printf(&h->a, "%s]", text);
}

static void
cost_text(struct handout *h)
{
	const struct spec_fallback *fb = &h->in->site->fallback;
	const char *region = h->in->site->cluster.region;
	int64_t gpus = h->plan->moving_gpus;
	double best = -1, c;

	if (!capacity_lists(fb, "on-demand")) {
		put(h,
		    "cost: price not known (capacityType %s: gpusite knows on-demand list"
		    " prices only%s)\n",
		    capacity_text(h, fb),
		    fb->reserved ? "; a reservation is billed whether the drill uses it or not"
				 : "");
		return;
	}
	if (fb->gpu_limit_set && gpus > fb->gpu_limit)
		gpus = fb->gpu_limit;
	put(h, "cost of the fallback for the drill window %s (%s on-demand list prices of %s, %s",
	    dur(h, h->window), instance_price_region, instance_price_date, instance_price_source);
	if (region && strcmp(region, instance_price_region))
		put(h, "; only an estimate in %s", region);
	put(h, "):\n  %lld GPU%s to replace (the GPUs of the pods that move%s)\n", (long long)gpus,
	    gpus == 1 ? "" : "s",
	    fb->gpu_limit_set
		    ? arena_printf(&h->a, ", within gpuLimit %lld", (long long)fb->gpu_limit)
		    : "");
	if (fb->capacity_type_count > 1)
		put(h,
		    "  capacityType %s: Karpenter launches %s first%s; the prices below are"
		    " on-demand's, the most the window costs\n",
		    capacity_text(h, fb), fb->reserved ? "reserved" : "spot",
		    fb->reserved ? " (billed whether the drill uses it or not)" : "");
	if (!gpus) {
		put(h, "  no fallback node should launch: $0\n");
		return;
	}
	if (!fb->instance_type_count) {
		put(h, "  price not known: fallback.instanceTypes is empty, Karpenter may pick any"
		       " GPU type\n");
		return;
	}
	for (size_t i = 0; i < fb->instance_type_count; i++) {
		cost_type(h, fb->instance_types[i], gpus, &c);
		if (c >= 0 && (best < 0 || c < best))
			best = c;
	}
	if (best >= 0)
		put(h, "  Karpenter launches the cheapest type that fits: expect about $%.2f\n",
		    best);
	else
		put(h,
		    "  no estimate: no type both fits the largest pod (%lld GPUs) and has a known"
		    " price\n",
		    (long long)h->plan->largest_pod_gpus);
}

int
drill_plan_text(struct buf *out, const struct drill_plan_input *in, const struct drill_plan *plan,
		const struct drill_budget *b)
{
	const struct spec_site *s = in->site;
	struct handout h = { out, in, plan, b, ARENA_INIT, NULL, NULL, 0, 0, NULL, NULL, 1, 0 };

	arena_init(&h.a);
	node_lists(&h);
	window(&h);
	h.alerts = in->rendered_rule ? alert_names(&h.a, in->rendered_rule) : NULL;
	h.ctl = arena_printf(&h.a, "gpusite drill run %s%s",
			     drill_shell_word(&h.a, s->name, "SITE"), in->again ? in->again : "");
	put(&h, "drill plan: site %s, scenario %s, %zu node%s:", s->name,
	    drill_scenario_name(in->scenario), in->node_count, in->node_count == 1 ? "" : "s");
	for (size_t i = 0; i < in->node_count; i++)
		put(&h, " %s", in->nodes[i]);
	put(&h, "\n");
	put(&h, "  %zu GPU pod%s (%lld GPUs) will move to fallback NodePool %s (gpuLimit %lld)\n",
	    plan->moving_pods, plan->moving_pods == 1 ? "" : "s", (long long)plan->moving_gpus,
	    drill_pool_name(&h.a, s), (long long)s->fallback.gpu_limit);
	for (size_t i = 0; i < in->cordoned_count; i++)
		put(&h,
		    "  node %s is unschedulable now (cordoned before the drill): the drill"
		    " drains it but sends no cordon, and the restore leaves it cordoned\n",
		    in->cordoned[i]);
	put(&h, "steps:\n");
	if (in->scenario == DRILL_NODE_FAILURE)
		steps_drain(&h);
	else
		steps_partition(&h);
	timeline(&h);
	conditions(&h);
	window_text(&h);
	abort_text(&h);
	cost_text(&h);
	arena_release(&h.a);
	return h.rc ? BUF_ETOOBIG : 0;
}
