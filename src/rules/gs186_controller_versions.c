/*
 * gs186_controller_versions.c - the controller releases a site declares
 * (cluster.versions) against what gpusite renders for it:
 *   GS186 a rendered construct the declared release does not serve: the
 *         karpenter.sh/v1 NodePool (Karpenter 1.0), reserved capacity of any
 *         pool of the inventory (1.3,
 *         with the ReservedCapacity gate), Capacity Blocks (1.6), Kyverno's
 *         MutatingPolicy (1.17), its ClusterPolicy (removed in 1.20).  The
 *         objects would be refused at sync, or accepted and never acted on;
 *   GS187 cluster.versions.karpenter with EKS Auto Mode, whose Karpenter
 *         AWS runs and gpusite does not read: a value read as nothing.
 * A requirement with operator Gte needs Karpenter 1.9; below it (or with
 * no release declared) the renderer writes the equivalent Gt instead, so
 * it is no finding.  The releases are those of src/k8s/k8s_controllers.c.
 */
#include <string.h>

#include "base/strlist.h"
#include "base/arena.h"
#include "inventory/inventory.h"
#include "rules/rules_int.h"

static const char *
field_of(enum k8s_controller c)
{
	return c == K8S_KARPENTER ? "karpenter" : "kyverno";
}

/* Report when the declared release of the construct's controller does
 * not serve it; `why` says which part of the spec renders it, `fix` what
 * to change instead of upgrading. */
static void
need(struct rule_ctx *c, const struct spec_site *s, enum k8s_construct what, const char *why,
     const char *fix)
{
	const struct k8s_construct_need *n = k8s_construct_need(what);
	const struct spec_cluster *cl = &s->cluster;
	const struct spec_version *v =
		n->controller == K8S_KARPENTER ? &cl->karpenter_version : &cl->kyverno_version;
	const char *field = field_of(n->controller);
	char have[32], rel[32];

	if (!v->set || k8s_release_serves(v->release, what))
		return;
	k8s_release_text(v->release, have, sizeof(have));
	if (n->removed && k8s_release_cmp(v->release, n->until) >= 0)
		rule_report(c, s, rule_pos(s, cl->versions_src, field),
			    arena_printf(c->arena, "spec.cluster.versions.%s", field),
			    "cluster.versions.%s %s no longer serves %s (%s): %s %s removed it;"
			    " use placement.engine kyverno (MutatingPolicy, %s 1.17 or later)",
			    field, have, n->construct, why, k8s_controller_name(n->controller),
			    k8s_release_text(n->until, rel, sizeof(rel)),
			    k8s_controller_name(n->controller));
	else
		rule_report(c, s, rule_pos(s, cl->versions_src, field),
			    arena_printf(c->arena, "spec.cluster.versions.%s", field),
			    "cluster.versions.%s %s does not serve %s (%s): it needs %s %s or"
			    " later%s%s; upgrade %s and set cluster.versions.%s, or %s",
			    field, have, n->construct, why, k8s_controller_name(n->controller),
			    k8s_release_text(n->since, rel, sizeof(rel)), n->note ? " " : "",
			    n->note ? n->note : "", k8s_controller_name(n->controller), field, fix);
}

/* The constructs a pool's NodePool needs: karpenter.sh/v1 (said once, for
 * the first pool), reserved capacity and Capacity Blocks per pool, named
 * by its spec key ("fallback.capacityType lists reserved"). */
static void
check_pool(struct rule_ctx *c, const struct spec_site *s, const struct inv_pool *p, bool first)
{
	const struct spec_fallback *f = p->spec;
	const char *key = p->spec_key;

	if (first)
		need(c, s, K8S_NODEPOOL_V1, arena_printf(c->arena, "the %s NodePool", p->noun),
		     arena_printf(c->arena, "disable the %s (%s.enabled: false)", key, key));
	if (f->reserved)
		need(c, s, K8S_RESERVED_CAPACITY,
		     arena_printf(c->arena, "%s.capacityType lists reserved", key),
		     arena_printf(c->arena, "remove reserved from %s.capacityType", key));
	if (f->reserved &&
	    str_listed(K8S_RESERVATION_CAPACITY_BLOCK, (const char *const *)f->reservation_types,
		       f->reservation_type_count))
		need(c, s, K8S_CAPACITY_BLOCK,
		     arena_printf(c->arena, "%s.capacityReservationType lists capacity-block", key),
		     arena_printf(c->arena, "remove capacity-block from %s.capacityReservationType",
				  key));
}

static void
check_gs186(struct rule_ctx *c, const struct spec_site *s)
{
	const struct inventory *inv = inventory_site(c->arena, s);

	for (size_t i = 0; s->cluster.provisioner == PROV_KARPENTER && i < inv->pool_count; i++)
		check_pool(c, s, &inv->pools[i], i == 0);
	if (s->placement.engine == ENGINE_KYVERNO)
		need(c, s, K8S_MUTATING_POLICY, "placement.engine kyverno",
		     "set placement.engine kyverno-clusterpolicy (Kyverno before 1.20)");
	else if (s->placement.engine == ENGINE_KYVERNO_CLUSTERPOLICY)
		need(c, s, K8S_KYVERNO_CLUSTERPOLICY, "placement.engine kyverno-clusterpolicy", "");
}

const struct rule rule_gs186 = {
	.id = "GS186",
	.check_site = check_gs186,
};

static void
check_gs187(struct rule_ctx *c, const struct spec_site *s)
{
	if (s->cluster.provisioner != PROV_AUTO_MODE || !s->cluster.karpenter_version.set)
		return;
	rule_report(c, s, rule_pos(s, s->cluster.versions_src, "karpenter"),
		    "spec.cluster.versions.karpenter",
		    "cluster.versions.karpenter is not read with cluster.provisioner auto-mode: EKS"
		    " Auto Mode runs a Karpenter AWS manages and upgrades; remove"
		    " cluster.versions.karpenter");
}

const struct rule rule_gs187 = {
	.id = "GS187",
	.check_site = check_gs187,
};
