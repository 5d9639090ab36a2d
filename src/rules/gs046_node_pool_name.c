/*
 * gs046_node_pool_name.c - GS046: NodePools are cluster-scoped, so two
 * sites of one cluster may not render the same fallback nodePoolName.
 * Reported at the second site (position order), naming the first.
 */
#include <string.h>

#include "base/arena.h"
#include "rules/rule.h"

static void
check_fleet(struct rule_ctx *c, const struct spec_fleet *f)
{
	struct rule_occurrence *v;
	size_t n = 0, i, first = 0;

	if (f->count < 2)
		return;
	v = arena_alloc(c->arena, f->count * sizeof(*v));
	for (i = 0; i < f->count; i++) {
		const struct spec_site *s = f->sites[i];

		if (!s->fallback.enabled)
			continue;	/* no NodePool rendered */
		v[n].key = arena_printf(c->arena, "%s%c%s", s->cluster.name, '\n',
					s->fallback.node_pool_name);
		v[n].at = rule_pos(s, s->fallback.src, "nodePoolName");
		if (!v[n].at.file)
			v[n].at.file = s->file;
		v[n].site = s;
		v[n].path = "spec.fallback.nodePoolName";
		n++;
	}
	rule_sort_occurrences(v, n);
	for (i = 1; i < n; i++) {
		if (strcmp(v[i].key, v[first].key)) {
			first = i;
			continue;
		}
		rule_report(c, v[i].site, v[i].at, v[i].path,
			    "fallback.nodePoolName '%s' is also the NodePool of "
			    "site '%s' in cluster '%s': NodePools are "
			    "cluster-wide, give each site its own name (first at "
			    "%s)", v[i].site->fallback.node_pool_name,
			    v[first].site->name, v[i].site->cluster.name,
			    rule_pos_text(c, v[first].at));
	}
}

const struct rule rule_gs046 = {
	.id = "GS046",
	.level = DIAG_ERROR,
	.summary = "two sites in the same cluster use the same nodePoolName",
	.check_fleet = check_fleet,
};
