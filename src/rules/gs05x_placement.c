/*
 * gs05x_placement.c - the placement policy against the fallback:
 *   GS050 require-onprem makes an enabled fallback unusable;
 *   GS051 single-writer workloads need fencing once a fallback exists;
 *   GS052 a policy engine with no namespaces applies to nothing.
 */
#include "base/arena.h"
#include "rules/rules_int.h"

static void
check_gs050(struct rule_ctx *c, const struct spec_site *s)
{
	if (s->placement.mode != PLACE_REQUIRE_ONPREM || !s->fallback.enabled)
		return;
	rule_report(c, s, rule_pos(s, s->placement.src, "mode"), "spec.placement.mode",
		    "placement.mode require-onprem with fallback.enabled true: "
		    "required affinity to hybrid nodes means the fallback can "
		    "never be used; use prefer-onprem, or disable the fallback");
}

static void
check_gs051(struct rule_ctx *c, const struct spec_site *s)
{
	if (!s->placement.single_writer || s->placement.fencing != FENCE_NONE ||
	    !s->fallback.enabled)
		return;
	rule_report(c, s, rule_pos(s, s->placement.src, "singleWriter"),
		    "spec.placement.singleWriter",
		    "placement.singleWriter is true with fencing none while a "
		    "fallback exists: during a network partition the old pod may "
		    "keep running beside its replacement; set placement.fencing "
		    "to lease or statefulset");
}

static void
check_gs052(struct rule_ctx *c, const struct spec_site *s)
{
	if (s->placement.engine == ENGINE_NONE || s->placement.namespace_count)
		return;
	rule_report(c, s, rule_pos(s, s->placement.src, "namespaces"), "spec.placement.namespaces",
		    "placement.namespaces is empty with engine %s: the policy "
		    "would place no workload; list the namespaces of the GPU "
		    "workloads, or set engine none",
		    spec_engine_name(s->placement.engine));
}

const struct rule rule_gs050 = {
	.id = "GS050",
	.check_site = check_gs050,
};

const struct rule rule_gs051 = {
	.id = "GS051",
	.check_site = check_gs051,
};

const struct rule rule_gs052 = {
	.id = "GS052",
	.check_site = check_gs052,
};
