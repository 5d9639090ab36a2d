/*
 * gs171_scope_collision.c - GS171: two sites of one cluster whose
 * scopes (placement, or a pool's own: the burst scope) can select the same Pod (a namespace both
 * list, and pod selectors that are not provably disjoint).  Such a Pod
 * would get both sites' policies: two site requirements, and it never
 * schedules.  Reported at the second site (position order), naming the
 * first.  One site's own two scopes are GS172's.
 */
#include <string.h>

#include "base/arena.h"
#include "k8s/k8s_selector.h"
#include "rules/rules_int.h"

/* One scope of a site: the placement scope, or the scope of a pool with
 * one of its own (the burst pool's). */
struct scope {
	const char *name; /* "placement" | the pool's noun */
	const char *path; /* "spec.placement" | the pool's scope path */
	const struct node *src;
	const char *const *namespaces;
	size_t count;
	const struct node *selector;
};

/* The most scopes of a site: its placement scope and one per pool. */
#define SCOPES_MAX (1 + INV_POOL_MAX)

/* The k-th scope of `s` when it renders a policy that selects Pods. */
static bool
scope_of(struct arena *a, const struct spec_site *s, size_t k, struct scope *out)
{
	const struct inventory *inv;

	if (s->placement.engine == ENGINE_NONE)
		return false;
	if (!k) {
		*out = (struct scope){ "placement",
				       "spec.placement",
				       s->placement.src,
				       (const char *const *)s->placement.namespaces,
				       s->placement.namespace_count,
				       s->placement.pod_selector };
		return out->count > 0;
	}
	inv = inventory_site(a, s);
	for (size_t i = 0; i < inv->pool_count; i++) {
		const struct inv_scope *sc = inv->pools[i].scope;

		if (sc && !--k) {
			*out = (struct scope){
				inv->pools[i].noun,  sc->path,        sc->src, sc->namespaces,
				sc->namespace_count, sc->pod_selector
			};
			return out->count > 0;
		}
	}
	return false;
}

/* The node of namespaces[i], for the position. */
static struct pos
namespace_pos(const struct spec_site *s, const struct scope *sc, size_t i)
{
	const struct node *seq = node_map_get(sc->src, "namespaces");

	if (seq && seq->kind == NODE_SEQ && i < seq->seq.count)
		return seq->seq.items[i]->at;
	return rule_pos(s, sc->src, "namespaces");
}

/* The scope an occurrence's path names. */
static struct scope
occurrence_scope(struct arena *a, const struct rule_occurrence *o)
{
	struct scope sc = { 0 };

	for (size_t k = 0; k < SCOPES_MAX; k++)
		if (scope_of(a, o->site, k, &sc) && !strncmp(o->path, sc.path, strlen(sc.path)) &&
		    o->path[strlen(sc.path)] == '.')
			return sc;
	return (struct scope){ 0 };
}

static const char *
ns_key(struct arena *a, const struct spec_site *s, const char *ns)
{
	return arena_printf(a, "%s%c%s", s->cluster.name ? s->cluster.name : "", '\n', ns);
}

static void
report(struct rule_ctx *c, const struct rule_occurrence *first,
       const struct rule_occurrence *second)
{
	const struct spec_site *a = first->site, *b = second->site;
	struct scope sa = occurrence_scope(c->arena, first),
		     sb = occurrence_scope(c->arena, second);
	const char *ns = strchr(second->key, '\n') + 1;

	if (!strcmp(sa.name, "placement") && !strcmp(sb.name, "placement"))
		rule_report(c, b, second->at, second->path,
			    "namespace '%s' is in the placement scope of site '%s' and of"
			    " site '%s' in cluster '%s', and their pod selectors can"
			    " both match one Pod: it would get both sites' node"
			    " requirements and never schedule; give each site its own"
			    " namespaces, or pod selectors that cannot match the same"
			    " Pod (first at %s)",
			    ns, b->name, a->name, b->cluster.name, rule_pos_text(c, first->at));
	else
		rule_report(c, b, second->at, second->path,
			    "namespace '%s' is in the %s scope of site '%s' and in the %s"
			    " scope of site '%s' in cluster '%s', and their pod selectors can"
			    " both match one Pod: it would get both sites' node"
			    " requirements and never schedule; give each site its own"
			    " namespaces, or pod selectors that cannot match the same"
			    " Pod (first at %s)",
			    ns, sb.name, b->name, sa.name, a->name, b->cluster.name,
			    rule_pos_text(c, first->at));
}

static void
check_fleet(struct rule_ctx *c, const struct spec_fleet *f)
{
	struct rule_occurrence *v;
	size_t n = 0, cap = 0;
	struct scope sc;

	for (size_t i = 0; i < f->count; i++)
		for (size_t k = 0; k < SCOPES_MAX; k++)
			if (scope_of(c->arena, f->sites[i], k, &sc))
				cap += sc.count;
	if (cap < 2)
		return;
	v = arena_alloc(c->arena, cap * sizeof(*v));
	for (size_t i = 0; i < f->count; i++) {
		const struct spec_site *s = f->sites[i];

		for (size_t m = 0; m < SCOPES_MAX; m++)
			for (size_t k = 0; scope_of(c->arena, s, m, &sc) && k < sc.count; k++)
				rule_occurrence_set(
					&v[n++], s, ns_key(c->arena, s, sc.namespaces[k]),
					namespace_pos(s, &sc, k),
					arena_printf(c->arena, "%s.namespaces[%zu]", sc.path, k));
	}
	rule_sort_occurrences(v, n);
	/* each run of one cluster and namespace: every later site against
	 * the earlier ones, one finding at the nearest it collides with */
	for (size_t i = 0; i < n; i++) {
		for (size_t j = i; j-- > 0 && !strcmp(v[j].key, v[i].key);) {
			if (v[j].site == v[i].site ||
			    k8s_label_selectors_disjoint(
				    occurrence_scope(c->arena, &v[j]).selector,
				    occurrence_scope(c->arena, &v[i]).selector))
				continue;
			report(c, &v[j], &v[i]);
			break;
		}
	}
}

/* Sites meet by cluster and scope namespace. */
static void
keys(struct rule_keys *k, const struct spec_site *s)
{
	struct scope sc;

	for (size_t m = 0; m < SCOPES_MAX; m++)
		for (size_t i = 0; scope_of(k->arena, s, m, &sc) && i < sc.count; i++)
			rule_key(k, ns_key(k->arena, s, sc.namespaces[i]));
}

const struct rule rule_gs171 = {
	.id = "GS171",
	.fleet_keys = keys,
	.check_fleet = check_fleet,
};
