/*
 * gs06x_recovery.c - failover timing and the admission API in reach:
 *   GS060 the RTO budget, term by term, against recovery.targetRTO;
 *   GS061 toleration seconds above the Kubernetes default slow failover;
 *   GS062 MutatingAdmissionPolicy is not served before Kubernetes 1.34;
 *   GS063 on 1.34-1.35 it is beta and off by default;
 *   GS176 toleration seconds under 30 evict on a blip (the other end of
 *   GS061's range, a rule of its own: a warning for another reason).
 */
#include "base/arena.h"
#include "rules/rules_int.h"

#define K8S_DEFAULT_TOLERATION 300 /* DefaultTolerationSeconds */
#define MIN_TOLERATION 30          /* GS176: below it a blip evicts */

static void
check_gs060(struct rule_ctx *c, const struct spec_site *s)
{
	const struct spec_recovery *r = &s->recovery;
	int64_t eviction, budget;
	bool cached;
	char b[SPEC_DURATION_BUFSZ], ev[SPEC_DURATION_BUFSZ], nm[SPEC_DURATION_BUFSZ],
		pr[SPEC_DURATION_BUFSZ], ip[SPEC_DURATION_BUFSZ], ml[SPEC_DURATION_BUFSZ];

	if (!r->set || !r->target_rto.set)
		return;
	eviction = s->placement.not_ready_toleration_seconds;
	if (s->placement.unreachable_toleration_seconds > eviction)
		eviction = s->placement.unreachable_toleration_seconds;
	budget = eviction + r->node_monitor_grace_period.seconds + r->node_provisioning.seconds +
		 spec_image_pull_seconds(s, &cached) + r->model_load.seconds;
	if (budget <= r->target_rto.seconds)
		return;
	spec_duration_format(b, sizeof(b), budget);
	spec_duration_format(ev, sizeof(ev), eviction);
	spec_duration_format(nm, sizeof(nm), r->node_monitor_grace_period.seconds);
	spec_duration_format(pr, sizeof(pr), r->node_provisioning.seconds);
	spec_duration_format(ip, sizeof(ip), spec_image_pull_seconds(s, NULL));
	spec_duration_format(ml, sizeof(ml), r->model_load.seconds);
	rule_report(c, s, rule_pos(s, r->src, "targetRTO"), "spec.recovery.targetRTO",
		    "RTO budget %s exceeds targetRTO %s: eviction %s + node "
		    "monitor grace %s + provisioning %s + image pull%s %s + model "
		    "load %s; shorten a term or raise targetRTO",
		    b, r->target_rto.text, ev, nm, pr, cached ? " (cached)" : "", ip, ml);
}

static void
toleration(struct rule_ctx *c, const struct spec_site *s, const char *key, int64_t seconds)
{
	if (seconds <= K8S_DEFAULT_TOLERATION)
		return;
	rule_report(c, s, rule_pos(s, s->placement.src, key),
		    arena_printf(c->arena, "spec.placement.%s", key),
		    "placement.%s %lld is above the Kubernetes default of %d: "
		    "pods stay bound to a dead node longer before they fail "
		    "over",
		    key, (long long)seconds, K8S_DEFAULT_TOLERATION);
}

static void
check_gs061(struct rule_ctx *c, const struct spec_site *s)
{
	toleration(c, s, "notReadyTolerationSeconds", s->placement.not_ready_toleration_seconds);
	toleration(c, s, "unreachableTolerationSeconds",
		   s->placement.unreachable_toleration_seconds);
}

static void
toleration_short(struct rule_ctx *c, const struct spec_site *s, const char *key, int64_t seconds)
{
	if (seconds >= MIN_TOLERATION)
		return;
	rule_report(c, s, rule_pos(s, s->placement.src, key),
		    arena_printf(c->arena, "spec.placement.%s", key),
		    "placement.%s %lld is under %d seconds: a kubelet restart or a"
		    " short network blip of a hybrid node evicts its GPU pods, which"
		    " then load their models again elsewhere; use %d or more (the"
		    " Kubernetes default is %d)",
		    key, (long long)seconds, MIN_TOLERATION, MIN_TOLERATION,
		    K8S_DEFAULT_TOLERATION);
}

static void
check_gs176(struct rule_ctx *c, const struct spec_site *s)
{
	toleration_short(c, s, "notReadyTolerationSeconds",
			 s->placement.not_ready_toleration_seconds);
	toleration_short(c, s, "unreachableTolerationSeconds",
			 s->placement.unreachable_toleration_seconds);
}

static void
check_gs062(struct rule_ctx *c, const struct spec_site *s)
{
	if (s->placement.engine != ENGINE_MAP || s->cluster.kube_minor >= 34)
		return;
	rule_report(c, s, rule_pos(s, s->placement.src, "engine"), "spec.placement.engine",
		    "placement.engine mutating-admission-policy needs Kubernetes "
		    "1.34 or later, and the cluster runs 1.%d: use kyverno",
		    s->cluster.kube_minor);
}

static void
check_gs063(struct rule_ctx *c, const struct spec_site *s)
{
	if (s->placement.engine != ENGINE_MAP || s->cluster.kube_minor < 34 ||
	    s->cluster.kube_minor > 35)
		return;
	rule_report(c, s, rule_pos(s, s->placement.src, "engine"), "spec.placement.engine",
		    "placement.engine mutating-admission-policy on Kubernetes 1.%d "
		    "uses the v1beta1 API, off by default: the API server needs "
		    "the MutatingAdmissionPolicy feature gate and "
		    "--runtime-config=admissionregistration.k8s.io/v1beta1=true",
		    s->cluster.kube_minor);
}

const struct rule rule_gs060 = {
	.id = "GS060",
	.check_site = check_gs060,
};

const struct rule rule_gs061 = {
	.id = "GS061",
	.check_site = check_gs061,
};

const struct rule rule_gs062 = {
	.id = "GS062",
	.check_site = check_gs062,
};

const struct rule rule_gs063 = {
	.id = "GS063",
	.check_site = check_gs063,
};

const struct rule rule_gs176 = {
	.id = "GS176",
	.check_site = check_gs176,
};
