/*
 * gs171_scope_collision.c - GS171: two sites of one cluster whose
 * placement scopes can select the same Pod (a namespace both list, and pod
 * selectors that are not provably disjoint).  Such a Pod would get both
 * sites' policies: two site requirements, and it never schedules.
 * Reported at the second site (position order), naming the first.
 */
#include <string.h>

#include "base/arena.h"
#include "k8s/k8s_selector.h"
#include "rules/rules_int.h"

/* Whether the site renders a placement policy that selects Pods. */
static bool
has_scope(const struct spec_site *s)
{
	return s->placement.engine != ENGINE_NONE && s->placement.namespace_count;
}

/* The node of namespaces[i], for the position. */
static struct pos
namespace_pos(const struct spec_site *s, size_t i)
{
	const struct node *seq = node_map_get(s->placement.src, "namespaces");

	if (seq && seq->kind == NODE_SEQ && i < seq->seq.count)
		return seq->seq.items[i]->at;
	return rule_pos(s, s->placement.src, "namespaces");
}

static const char *
ns_key(struct arena *a, const struct spec_site *s, const char *ns)
{
	return arena_printf(a, "%s%c%s", s->cluster.name ? s->cluster.name : "", '\n', ns);
}

static void
check_fleet(struct rule_ctx *c, const struct spec_fleet *f)
{
	struct rule_occurrence *v;
	size_t n = 0, cap = 0;

	for (size_t i = 0; i < f->count; i++)
		if (has_scope(f->sites[i]))
			cap += f->sites[i]->placement.namespace_count;
	if (cap < 2)
		return;
	v = arena_alloc(c->arena, cap * sizeof(*v));
	for (size_t i = 0; i < f->count; i++) {
		const struct spec_site *s = f->sites[i];

		for (size_t k = 0; has_scope(s) && k < s->placement.namespace_count; k++)
			rule_occurrence_set(
				&v[n++], s, ns_key(c->arena, s, s->placement.namespaces[k]),
				namespace_pos(s, k),
				arena_printf(c->arena, "spec.placement.namespaces[%zu]", k));
	}
	rule_sort_occurrences(v, n);
	/* each run of one cluster and namespace: every later site against
	 * the earlier ones, one finding at the nearest it collides with */
	for (size_t i = 0; i < n; i++) {
		for (size_t j = i; j-- > 0 && !strcmp(v[j].key, v[i].key);) {
			const struct spec_site *a = v[j].site, *b = v[i].site;

			if (a == b || k8s_label_selectors_disjoint(a->placement.pod_selector,
								   b->placement.pod_selector))
				continue;
			rule_report(c, b, v[i].at, v[i].path,
				    "namespace '%s' is in the placement scope of site '%s' and of"
				    " site '%s' in cluster '%s', and their pod selectors can"
				    " both match one Pod: it would get both sites' node"
				    " requirements and never schedule; give each site its own"
				    " namespaces, or pod selectors that cannot match the same"
				    " Pod (first at %s)",
				    strchr(v[i].key, '\n') + 1, b->name, a->name, b->cluster.name,
				    rule_pos_text(c, v[j].at));
			break;
		}
	}
}

/* Sites meet by cluster and placement namespace. */
static void
keys(struct rule_keys *k, const struct spec_site *s)
{
	for (size_t i = 0; has_scope(s) && i < s->placement.namespace_count; i++)
		rule_key(k, ns_key(k->arena, s, s->placement.namespaces[i]));
}

const struct rule rule_gs171 = {
	.id = "GS171",
	.fleet_keys = keys,
	.check_fleet = check_fleet,
};
