/*
 * gs181_reservations.c - reserved capacity of the fallback and burst pools
 * (capacityType):
 *   GS181 reserved capacity with nothing that selects a reservation: with
 *         fallback.nodeClass (rendered) no capacityReservationSelectorTerms;
 *         with a node class gpusite does not render, no
 *         nodeClassSelectsReservations: true.  Karpenter offers reserved
 *         capacity only for the reservations the EC2NodeClass selects, so
 *         the pool would launch nothing as reserved;
 *   GS183 capacityReservationType or capacityReservationSelectorTerms
 *         without reserved in capacityType: Karpenter never uses them; and
 *         capacityReservationType with EKS Auto Mode, whose NodePool
 *         gpusite writes without that requirement: never a value read as
 *         nothing without a word.
 */
#include "base/arena.h"
#include "inventory/inventory.h"
#include "rules/rules_int.h"

/* The node class the fallback NodePool names (the inventory's). */
static const char *
class_name(struct rule_ctx *c, const struct spec_site *s)
{
	const struct inv_pool *pool = inventory_failover_pool(inventory_site(c->arena, s));

	return pool && pool->class_name ? pool->class_name : "of the fallback";
}

/* Whether a pool that shares the fallback's node class (the burst pool)
 * lists reserved capacity. */
static bool
class_sharer_reserved(struct arena *a, const struct spec_site *s)
{
	const struct inventory *inv = inventory_site(a, s);

	for (size_t i = 0; i < inv->pool_count; i++)
		if (!inv->pools[i].owns_class && inv->pools[i].spec->reserved)
			return true;
	return false;
}

/* GS181 for one pool block; the node class (and what says it selects
 * reservations) is always the fallback's: a pool that shares it (the
 * burst pool) is told at its capacityType. */
static void
gs181_pool(struct rule_ctx *c, const struct spec_site *s, const struct rule_pool *p)
{
	const struct spec_fallback *fb = &s->fallback;
	const struct spec_node_class *nc = &fb->node_class;
	bool rendered = nc->set && s->cluster.provisioner == PROV_KARPENTER;
	bool shares = p->pool && !p->pool->owns_class;

	if (!p->f->enabled || !p->f->reserved)
		return;
	if (rendered && !nc->reservation_terms)
		rule_report(c, s,
			    shares ? rule_pos(s, p->f->src, "capacityType")
				   : rule_pos(s, nc->src, NULL),
			    shares ? arena_printf(c->arena, "%s.capacityType", p->path)
				   : "spec.fallback.nodeClass",
			    "%s.capacityType lists reserved but fallback.nodeClass has no"
			    " capacityReservationSelectorTerms: Karpenter offers reserved capacity"
			    " only for the reservations the EC2NodeClass selects, so no node"
			    " launches as reserved; add capacityReservationSelectorTerms:"
			    " [{id: cr-...}] (or tags with an optional ownerID)",
			    p->block);
	else if (!rendered && !fb->class_selects_reservations)
		rule_report(c, s, rule_pos(s, p->f->src, "capacityType"),
			    arena_printf(c->arena, "%s.capacityType", p->path),
			    "%s.capacityType lists reserved but nothing says node class %s"
			    " selects a capacity reservation: Karpenter offers reserved capacity"
			    " only for the reservations the node class selects"
			    " (capacityReservationSelectorTerms); give the class those terms and"
			    " set fallback.nodeClassSelectsReservations: true, or let gpusite"
			    " render it (fallback.nodeClass)",
			    p->block, class_name(c, s));
}

static void
check_gs181(struct rule_ctx *c, const struct spec_site *s)
{
	rule_each_pool(c, s, gs181_pool);
}

const struct rule rule_gs181 = {
	.id = "GS181",
	.check_site = check_gs181,
};

static void
check_gs183(struct rule_ctx *c, const struct spec_site *s)
{
	const struct spec_fallback *fb = &s->fallback;

	if (!fb->enabled)
		return;
	if (fb->reserved && fb->reservation_type_count && s->cluster.provisioner == PROV_AUTO_MODE)
		rule_report(c, s, rule_pos(s, fb->src, "capacityReservationType"),
			    "spec.fallback.capacityReservationType",
			    "fallback.capacityReservationType is not rendered with EKS Auto Mode"
			    " (gpusite writes the karpenter.k8s.aws/capacity-reservation-type"
			    " requirement for self-managed Karpenter only), so the pool may launch"
			    " any reservation type the NodeClass selects; remove"
			    " capacityReservationType, or select only the reservations you mean in"
			    " the NodeClass");
	if (fb->reserved)
		return;
	if (fb->reservation_type_count)
		rule_report(
			c, s, rule_pos(s, fb->src, "capacityReservationType"),
			"spec.fallback.capacityReservationType",
			"fallback.capacityReservationType is set but fallback.capacityType does"
			" not list reserved, so Karpenter never uses a reservation; add reserved"
			" to capacityType (e.g. [reserved, on-demand]) or remove"
			" capacityReservationType");
	/* a pool that shares the node class (the burst pool) uses them with
	 * reserved capacity of its own */
	if (fb->node_class.reservation_terms && !class_sharer_reserved(c->arena, s))
		rule_report(
			c, s, rule_pos(s, fb->node_class.src, "capacityReservationSelectorTerms"),
			"spec.fallback.nodeClass.capacityReservationSelectorTerms",
			"fallback.nodeClass.capacityReservationSelectorTerms selects reservations"
			" but fallback.capacityType does not list reserved, so the nodes never"
			" use them; add reserved to capacityType (e.g. [reserved, on-demand])");
}

const struct rule rule_gs183 = {
	.id = "GS183",
	.check_site = check_gs183,
};
