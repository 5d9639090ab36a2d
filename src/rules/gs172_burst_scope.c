/*
 * gs172_burst_scope.c - GS172: a site's burst scope and its placement
 * scope may not select the same Pod.  A burst Pod is kept off the
 * on-demand fallback and a placement Pod never tolerates the burst taint;
 * a Pod in both would get both and the site could no longer say which
 * capacity it uses.  Reported at the burst namespace both scopes list.
 */
#include <string.h>

#include "k8s/k8s_selector.h"
#include "rules/rules_int.h"

static void
check_site(struct rule_ctx *c, const struct spec_site *s)
{
	const struct spec_burst *b = &s->burst;
	const struct spec_placement *p = &s->placement;
	const struct node *seq = node_map_get(b->src, "namespaces");

	if (!b->pool.enabled || p->engine == ENGINE_NONE ||
	    k8s_label_selectors_disjoint(b->pod_selector, p->pod_selector))
		return;
	for (size_t i = 0; i < b->namespace_count; i++) {
		bool shared = false;

		for (size_t k = 0; k < p->namespace_count && !shared; k++)
			shared = !strcmp(b->namespaces[i], p->namespaces[k]);
		if (!shared)
			continue;
		rule_report(c, s,
			    seq && seq->kind == NODE_SEQ && i < seq->seq.count
				    ? seq->seq.items[i]->at
				    : rule_pos(s, b->src, "namespaces"),
			    "spec.burst.namespaces",
			    "namespace '%s' is in both the burst scope and the placement scope of"
			    " site '%s', and their pod selectors can both match one Pod: burst"
			    " work must never use the on-demand fallback; list the namespace in"
			    " one scope only, or give burst.podSelector a label the placement"
			    " scope excludes",
			    b->namespaces[i], s->name);
	}
}

const struct rule rule_gs172 = {
	.id = "GS172",
	.check_site = check_site,
};
