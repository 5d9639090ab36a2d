/*
 * gs184_disruption_budgets.c - the disruptionBudgets of every pool block
 * (fallback, burst):
 *   GS184 a budget with schedule but no duration, or duration but no
 *         schedule.  The NodePool CRD refuses it ("'schedule' must be set
 *         with 'duration'"), so the pool would not apply.
 */
#include "base/arena.h"
#include "rules/rules_int.h"

static void
pool_budgets(struct rule_ctx *c, const struct spec_site *s, const struct rule_pool *p)
{
	const struct node *budgets = p->f->disruption_budgets;

	if (!p->f->enabled || !budgets)
		return;
	for (size_t i = 0; i < budgets->seq.count; i++) {
		const struct node *b = budgets->seq.items[i];
		bool sched = node_map_get(b, "schedule") != NULL;
		bool dur = node_map_get(b, "duration") != NULL;

		if (sched == dur)
			continue;
		rule_report(c, s, rule_pos(s, b, sched ? "schedule" : "duration"),
			    arena_printf(c->arena, "%s.disruptionBudgets[%zu]", p->path, i),
			    "%s.disruptionBudgets[%zu] has %s but no %s: the NodePool takes"
			    " both or neither (a budget active for duration after each schedule"
			    " hit, or always); add %s, or remove %s",
			    p->block, i, sched ? "schedule" : "duration",
			    sched ? "duration" : "schedule",
			    sched ? "duration: 8h" : "schedule (e.g. \"0 9 * * mon-fri\")",
			    sched ? "schedule" : "duration");
	}
}

static void
check_gs184(struct rule_ctx *c, const struct spec_site *s)
{
	rule_each_pool(c, s, pool_budgets);
}

const struct rule rule_gs184 = {
	.id = "GS184",
	.check_site = check_gs184,
};
