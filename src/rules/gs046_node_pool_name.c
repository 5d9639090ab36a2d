/*
 * gs046_node_pool_name.c - GS046: NodePools are cluster-scoped, so no two
 * pools of the sites of one cluster (any pool of the inventory's list, of
 * one site or of two) may have the same name.  Reported at the second
 * (position order), naming the first.
 */
#include <string.h>

#include "inventory/inventory.h"
#include "base/arena.h"
#include "rules/rules_int.h"

static void
report_repeat(struct rule_ctx *c, const struct rule_occurrence *first,
	      const struct rule_occurrence *again, void *payload)
{
	(void)payload;
	rule_report(c, again->site, again->at, again->path,
		    "%s '%s' is also the NodePool of "
		    "site '%s' in cluster '%s': NodePools are "
		    "cluster-wide, give each site its own name (first at "
		    "%s)",
		    again->path + strlen("spec."), strchr(again->key, '\n') + 1, first->site->name,
		    again->site->cluster.name, rule_pos_text(c, first->at));
}

static void
check_fleet(struct rule_ctx *c, const struct spec_fleet *f)
{
	struct rule_occurrence *v;
	size_t n = 0, total = 0;

	if (f->count < 2)
		return;
	for (size_t i = 0; i < f->count; i++)
		total += inventory_site(c->arena, f->sites[i])->pool_count;
	v = arena_alloc(c->arena, (total + 1) * sizeof(*v));
	for (size_t i = 0; i < f->count; i++) {
		const struct spec_site *s = f->sites[i];
		const struct inventory *inv = inventory_site(c->arena, s);

		for (size_t k = 0; k < inv->pool_count; k++) {
			const struct inv_pool *p = &inv->pools[k];

			rule_occurrence_set(
				&v[n++], s,
				arena_printf(c->arena, "%s%c%s", s->cluster.name, '\n', p->name),
				rule_pos(s, p->spec->src, "nodePoolName"),
				arena_printf(c->arena, "%s.nodePoolName", p->spec_path));
		}
	}
	rule_each_repeat(c, v, n, report_repeat, NULL);
}

/* Sites meet by cluster and the name of one of their pools. */
static void
keys(struct rule_keys *k, const struct spec_site *s)
{
	const struct inventory *inv = inventory_site(k->arena, s);

	for (size_t p = 0; p < inv->pool_count; p++)
		rule_key(k, arena_printf(k->arena, "%s%c%s", s->cluster.name ? s->cluster.name : "",
					 '\n', inv->pools[p].name));
}

const struct rule rule_gs046 = {
	.id = "GS046",
	.fleet_keys = keys,
	.check_fleet = check_fleet,
};
