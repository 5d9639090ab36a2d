/*
 * drift_bound.c - what keeps a site's pools and its GPU Pods to each
 * other, as the cluster has it now:
 *
 *  GS246  every node of a site's pool (its karpenter.sh/nodepool label
 *         names a pool of the inventory) carries the taints the pool's
 *         NodePool template lists: the GPU taint, then the pool's own
 *         (inv_pool.taints: the burst taint, the site taint of an
 *         exclusive pool).  GS201-GS203 judge hybrid nodes only.
 *  GS247  every GPU Pod of a scope (its namespaces, its podSelector) not
 *         finished (Succeeded, Failed), as GS215, has the node affinity
 *         the scope's placement policy adds: each requirement of the
 *         plan's step 3 (render/render.h), handed down in
 *         drift_input.plans.  A Pod admitted while the policy was not
 *         acting lacks it for good: a Pod's affinity cannot change.
 */
#include <string.h>

#include "base/strlist.h"
#include "inventory/inventory.h"
#include "base/arena.h"
#include "base/buf.h"
#include "live/drift.h"
#include "live/drift_int.h"
#include "k8s/k8s_selector.h"
#include "node/node.h"

/* ------------------------------------------------------------ GS246 */

/* The node's taint with `key`, or NULL. */
static const struct node *
node_taint(const struct drift_node *n, const char *key)
{
	for (size_t i = 0; n->taints && i < n->taints->seq.count; i++) {
		const char *k = node_str(node_map_get(n->taints->seq.items[i], "key"));

		if (k && !strcmp(k, key))
			return n->taints->seq.items[i];
	}
	return NULL;
}

/* Append "<taint>" (or "<taint> (has <other>)") to `b` when node `n`
 * lacks taint `t`; returns whether it did. */
static bool
lacks_taint(struct arena *a, struct buf *b, const struct drift_node *n, const struct spec_taint *t)
{
	const struct node *have = node_taint(n, t->key);
	const char *want = drift_taint_text(a, t->key, t->value, t->effect);
	const char *v = have ? node_str(node_map_get(have, "value")) : NULL;
	const char *e = have ? node_str(node_map_get(have, "effect")) : NULL;

	if (have && !strcmp(v ? v : "", t->value ? t->value : "") && e && !strcmp(e, t->effect))
		return false;
	if (buf_printf(b, "%s%s", b->len ? ", " : "", want) < 0 ||
	    (have && buf_printf(b, " (has %s)", drift_taint_text(a, t->key, v, e ? e : "")) < 0))
		buf_reset(b);
	return true;
}

static void
check_pool_node(struct arena *a, struct diags *d, size_t *count, const struct spec_site *s,
		const struct inv_pool *p, const struct drift_node *n)
{
	struct buf b;
	const char *left = NULL; /* the pool's taints the node still carries */
	size_t missing = 0;

	buf_init(&b, 0);
	for (size_t t = 0; t <= p->taint_count; t++) {
		const struct spec_taint *pt = t ? &p->taints[t - 1] : &s->gpu_taint;

		if (lacks_taint(a, &b, n, pt))
			missing++;
		else
			left = arena_printf(a, "%s%s%s", left ? left : "", left ? " and " : "",
					    drift_taint_text(a, pt->key, pt->value, pt->effect));
	}
	if (missing)
		drift_finding(d, count, DRIFT_POOL_NODE_UNTAINTED,
			      spec_field_pos(p->spec->src, p->at_key), p->spec_path, s->name,
			      "%s node %s of NodePool %s (site %s) lacks the taint%s %s: %s%s can "
			      "land on it; the NodePool was changed by hand or the node predates "
			      "the taint; Karpenter's drift replaces a node whose NodePool "
			      "template changed: let it (sync the NodePool, see GS211), or cordon "
			      "and drain the node ('kubectl drain %s --ignore-daemonsets') for the "
			      "pool to launch a tainted one",
			      p->noun, n->name, p->name, s->name, missing == 1 ? "" : "s", b.data,
			      left ? "any Pod that tolerates " : "any Pod", left ? left : "",
			      n->name);
	buf_release(&b);
}

void
drift_check_pool_taints(struct arena *a, struct diags *d, size_t *count,
			const struct drift_input *in)
{
	for (size_t si = 0; si < in->nsites; si++) {
		const struct spec_site *s = in->sites[si];
		const struct inventory *inv = inventory_site(a, s);

		if (!inv->pool_count)
			continue;
		for (size_t i = 0; i < in->nnodes; i++) {
			const struct drift_node *n = &in->nodes[i];
			const char *pool =
				node_str(node_map_get(n->labels, "karpenter.sh/nodepool"));
			const struct inv_pool *p = pool ? inventory_pool_named(inv, pool) : NULL;

			if (p)
				check_pool_node(a, d, count, s, p, n);
		}
	}
}

/* ------------------------------------------------------------ GS247 */

/* Does matchExpression `e` (a Pod's) imply requirement `r`: the same key
 * and operator, and for In values the plan allows only (none outside
 * its list, at least one), for NotIn at least the values it excludes?
 * A Pod with the policy's own expression passes; so does a stricter one. */
static bool
expr_implies(const struct node *e, const struct drift_requirement *r)
{
	const char *key = node_str(node_map_get(e, "key"));
	const char *op = node_str(node_map_get(e, "operator"));
	const struct node *vals = node_map_get(e, "values");
	size_t nv = vals && vals->kind == NODE_SEQ ? vals->seq.count : 0;

	if (!key || !op || strcmp(key, r->key) || strcmp(op, r->op))
		return false;
	if (!strcmp(r->op, "In")) {
		for (size_t i = 0; i < nv; i++)
			if (!str_listed(node_str(vals->seq.items[i]), r->values, r->value_count))
				return false;
		return nv > 0;
	}
	for (size_t k = 0; k < r->value_count; k++) {
		bool found = false;

		for (size_t i = 0; i < nv && !found; i++) {
			const char *v = node_str(vals->seq.items[i]);

			found = v && !strcmp(v, r->values[k]);
		}
		if (!found)
			return false;
	}
	return true;
}

/* Does one of the matchExpressions of `term` imply `r`? */
static bool
term_has(const struct node *term, const struct drift_requirement *r)
{
	const struct node *exprs = node_map_get(term, "matchExpressions");

	for (size_t i = 0; exprs && exprs->kind == NODE_SEQ && i < exprs->seq.count; i++)
		if (expr_implies(exprs->seq.items[i], r))
			return true;
	return false;
}

/* Required: every nodeSelectorTerm (at least one) implies `r`, or, for
 * In, the Pod's nodeSelector has the key with one of its values. */
static bool
pod_requires(const struct drift_pod *p, const struct drift_requirement *r)
{
	const struct node *terms = node_map_get(
		node_map_get(p->node_affinity, "requiredDuringSchedulingIgnoredDuringExecution"),
		"nodeSelectorTerms");
	size_t n = terms && terms->kind == NODE_SEQ ? terms->seq.count : 0;
	bool all = n > 0;

	if (!strcmp(r->op, "In") &&
	    str_listed(node_str(node_map_get(p->node_selector, r->key)), r->values, r->value_count))
		return true;
	for (size_t i = 0; i < n && all; i++)
		all = term_has(terms->seq.items[i], r);
	return all;
}

/* Preferred: a preferred term of this one requirement (as the policy
 * writes it, any weight), or the requirement required. */
static bool
pod_prefers(const struct drift_pod *p, const struct drift_requirement *r)
{
	const struct node *terms =
		node_map_get(p->node_affinity, "preferredDuringSchedulingIgnoredDuringExecution");

	for (size_t i = 0; terms && terms->kind == NODE_SEQ && i < terms->seq.count; i++) {
		const struct node *pref = node_map_get(terms->seq.items[i], "preference");
		const struct node *exprs = node_map_get(pref, "matchExpressions");

		if (exprs && exprs->kind == NODE_SEQ && exprs->seq.count == 1 &&
		    expr_implies(exprs->seq.items[0], r))
			return true;
	}
	return pod_requires(p, r);
}

/* The requirements of `plan` the Pod lacks, as a bit set. */
static unsigned
pod_missing(const struct drift_pod *p, const struct drift_plan *plan)
{
	unsigned mask = 0;

	for (size_t k = 0; k < plan->req_count; k++)
		if (!(plan->reqs[k].required ? pod_requires(p, &plan->reqs[k])
					     : pod_prefers(p, &plan->reqs[k])))
			mask |= 1u << k;
	return mask;
}

/* "gpusite.io/site In [seoul-dc1] (required) and ..." of the bits of `mask` */
static const char *
missing_text(struct arena *a, const struct drift_plan *plan, unsigned mask)
{
	struct buf b;
	const char *res;
	size_t done = 0;

	buf_init(&b, 0);
	for (size_t k = 0; k < plan->req_count; k++) {
		const struct drift_requirement *r = &plan->reqs[k];

		if (!(mask & (1u << k)))
			continue;
		if (buf_printf(&b, "%s%s %s [", done++ ? " and " : "", r->key, r->op) < 0)
			break;
		for (size_t i = 0; i < r->value_count; i++)
			if (buf_printf(&b, "%s%s", i ? ", " : "", r->values[i]) < 0)
				break;
		if ((r->required ? buf_printf(&b, "] (required)")
				 : buf_printf(&b, "] (preferred, weight %d)", r->weight)) < 0)
			break;
	}
	res = arena_strdup(a, b.data ? b.data : "");
	buf_release(&b);
	return res;
}

/* GS247 for the Pods of namespace `ns` lacking exactly the requirements
 * of `mask`. */
static void
report_unbound(struct arena *a, struct diags *d, size_t *count, const struct drift_plan *plan,
	       const char *ns, unsigned mask, const char **names, size_t n)
{
	const struct spec_site *s = plan->site;
	const struct inv_pool *pool = plan->pool;
	const char *noun = pool ? arena_printf(a, "%s ", pool->noun) : "";
	struct pos at = pool ? spec_field_pos(pool->scope->src, "namespaces")
			     : spec_field_pos(s->placement.src, "namespaces");
	const char *path = pool ? arena_printf(a, "%s.namespaces", pool->scope->path)
				: "spec.placement.namespaces";

	drift_finding(d, count, DRIFT_PODS_UNBOUND, at, path, s->name,
		      "%zu %sGPU pod%s in namespace %s of site %s lack%s the node affinity "
		      "%s that the %s %splacement policy %s adds: %s; %s admitted while the "
		      "policy was not acting (admission controller down or the policy not "
		      "ready), and a Pod's affinity cannot change: recreate %s ('kubectl "
		      "rollout restart' of the Deployment or StatefulSet, or delete the Pod)",
		      n, noun, n == 1 ? "" : "s", ns, s->name, n == 1 ? "s" : "",
		      missing_text(a, plan, mask), spec_engine_name(s->placement.engine), noun,
		      plan->policy, drift_name_list(a, names, n), n == 1 ? "it was" : "they were",
		      n == 1 ? "it" : "them");
}

/* GS247 for the Pods of one namespace of `plan`'s scope, grouped by what
 * they lack. */
static void
check_namespace(struct arena *a, struct diags *d, size_t *count, const struct drift_input *in,
		const struct drift_plan *plan, const char *ns)
{
	unsigned *missing = arena_alloc(a, (in->npods + 1) * sizeof(*missing));
	const char **names = arena_alloc(a, (in->npods + 1) * sizeof(*names));
	unsigned seen = 0;

	for (size_t i = 0; i < in->npods; i++) {
		const struct drift_pod *p = &in->pods[i];

		missing[i] = 0;
		if (strcmp(p->ns, ns) || !drift_pod_is_gpu(a, p, plan->site) ||
		    !strcmp(p->phase, "Succeeded") || !strcmp(p->phase, "Failed") ||
		    !k8s_label_selector_matches(plan->pod_selector, p->labels))
			continue;
		missing[i] = pod_missing(p, plan);
		seen |= 1u << (missing[i] & 31u);
	}
	/* one finding per set of missing requirements, in the order of the sets' bits */
	for (unsigned mask = 1; mask < (1u << plan->req_count); mask++) {
		size_t n = 0;

		if (!(seen & (1u << mask)))
			continue;
		for (size_t i = 0; i < in->npods; i++)
			if (missing[i] == mask)
				names[n++] = in->pods[i].name;
		report_unbound(a, d, count, plan, ns, mask, names, n);
	}
}

void
drift_check_bindings(struct arena *a, struct diags *d, size_t *count, const struct drift_input *in)
{
	for (size_t k = 0; k < in->nplans; k++) {
		const struct drift_plan *plan = &in->plans[k];

		/* engine none: gpusite renders no policy (explain prints one
		 * to paste), so nothing says it was meant to act; as GS215 */
		if (plan->site->placement.engine == ENGINE_NONE)
			continue;
		for (size_t i = 0; i < plan->namespace_count; i++)
			check_namespace(a, d, count, in, plan, plan->namespaces[i]);
	}
}
