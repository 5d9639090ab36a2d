/*
 * gs005_duplicate_names.c - GS005: two node groups of one site share a
 * name, or a node name appears twice in the repository (a Node name is
 * the identity the cluster, IAM Roles Anywhere and the NodeConfig files
 * all key on).  Reported at the second occurrence, naming the first.
 */
#include <string.h>

#include "base/arena.h"
#include "rules/rules_int.h"

static void
check_groups(struct rule_ctx *c, const struct spec_site *s)
{
	size_t i, j;

	for (i = 1; i < s->group_count; i++) {
		const struct spec_node_group *g = &s->groups[i];

		for (j = 0; j < i; j++) {
			if (strcmp(g->name, s->groups[j].name))
				continue;
			rule_report(c, s, rule_pos(s, g->src, "name"),
				    arena_printf(c->arena, "%s.name", rule_group_path(c, s, g)),
				    "node group name '%s' is used twice in site '%s': "
				    "rename one (first at %s)",
				    g->name, s->name,
				    rule_pos_text(c, rule_pos(s, s->groups[j].src, "name")));
			break;
		}
	}
}

static void
report_node(struct rule_ctx *c, const struct rule_occurrence *first,
	    const struct rule_occurrence *again, void *payload)
{
	(void)payload;
	rule_report(c, again->site, again->at, again->path,
		    "node name '%s' is listed twice: a node can join one "
		    "node group of one site only, remove one (first at %s)",
		    rule_quote(again->key), rule_pos_text(c, first->at));
}

static void
check_nodes(struct rule_ctx *c, const struct spec_fleet *f)
{
	struct rule_occurrence *v;
	size_t n = 0, i, j, k;

	for (i = 0; i < f->count; i++)
		for (j = 0; j < f->sites[i]->group_count; j++)
			n += f->sites[i]->groups[j].node_count;
	if (n < 2)
		return;
	v = arena_alloc(c->arena, n * sizeof(*v));
	n = 0;
	for (i = 0; i < f->count; i++) {
		const struct spec_site *s = f->sites[i];

		for (j = 0; j < s->group_count; j++) {
			const struct spec_node_group *g = &s->groups[j];

			for (k = 0; k < g->node_count; k++)
				rule_occurrence_set(&v[n++], s, g->nodes[k], g->node_srcs[k]->at,
						    arena_printf(c->arena, "%s.nodes[%zu]",
								 rule_group_path(c, s, g), k));
		}
	}
	rule_each_repeat(c, v, n, report_node, NULL);
}

/* Sites meet by node names. */
static void
keys(struct rule_keys *k, const struct spec_site *s)
{
	for (size_t j = 0; j < s->group_count; j++)
		for (size_t n = 0; n < s->groups[j].node_count; n++)
			rule_key(k, s->groups[j].nodes[n]);
}

const struct rule rule_gs005 = {
	.id = "GS005",
	.check_site = check_groups,
	.check_fleet = check_nodes,
	.fleet_keys = keys,
};
