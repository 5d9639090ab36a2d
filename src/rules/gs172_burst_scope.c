/*
 * gs172_burst_scope.c - GS172: a site's burst scope and its placement
 * scope may not select the same Pod.  A burst Pod is kept off the
 * on-demand fallback and a placement Pod never tolerates the burst taint;
 * a Pod in both would get both and the site could no longer say which
 * capacity it uses.  Reported at the burst namespace both scopes list.
 */
#include <string.h>

#include "base/arena.h"
#include "k8s/k8s_selector.h"
#include "rules/rules_int.h"

/* One pool's own scope (the burst scope) against the placement scope. */
static void
check_pool(struct rule_ctx *c, const struct spec_site *s, const struct inv_pool *pool)
{
	const struct inv_scope *sc = pool->scope;
	const struct spec_placement *p = &s->placement;
	const struct node *seq = node_map_get(sc->src, "namespaces");

	if (k8s_label_selectors_disjoint(sc->pod_selector, p->pod_selector))
		return;
	for (size_t i = 0; i < sc->namespace_count; i++) {
		bool shared = false;

		for (size_t k = 0; k < p->namespace_count && !shared; k++)
			shared = !strcmp(sc->namespaces[i], p->namespaces[k]);
		if (!shared)
			continue;
		rule_report(c, s,
			    seq && seq->kind == NODE_SEQ && i < seq->seq.count
				    ? seq->seq.items[i]->at
				    : rule_pos(s, sc->src, "namespaces"),
			    arena_printf(c->arena, "%s.namespaces", sc->path),
			    "namespace '%s' is in both the %s scope and the placement scope of"
			    " site '%s', and their pod selectors can both match one Pod: %s"
			    " work must never use the on-demand %s; list the namespace in"
			    " one scope only, or give %s.podSelector a label the placement"
			    " scope excludes",
			    sc->namespaces[i], pool->noun, s->name, pool->noun,
			    inventory_excludes_text(c->arena, sc), pool->spec_key);
	}
}

static void
check_site(struct rule_ctx *c, const struct spec_site *s)
{
	const struct inventory *inv = inventory_site(c->arena, s);

	if (s->placement.engine == ENGINE_NONE)
		return;
	for (size_t i = 0; i < inv->pool_count; i++)
		if (inv->pools[i].scope)
			check_pool(c, s, &inv->pools[i]);
}

const struct rule rule_gs172 = {
	.id = "GS172",
	.check_site = check_site,
};
