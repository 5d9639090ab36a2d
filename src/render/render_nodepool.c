/*
 * render_nodepool.c - the cloud GPU fallback NodePool (karpenter.sh/v1),
 * in self-managed Karpenter's or EKS Auto Mode's vocabulary, never both
 * (docs/design/artifacts.md, "Fallback NodePool"; docs/design/upstream.md, "Karpenter").
 */
#include <string.h>

#include "base/arena.h"
#include "render/render_fallback.h"
#include "render/render_util.h"
#include "rules/instance_types.h"

/* The budgets as written, with a count written as a number given as the
 * string the NodePool's nodes field takes ("1"). */
static struct node *
budgets_of(struct arena *a, const struct node *written)
{
	struct node *budgets = node_clone(a, written);

	for (size_t i = 0; i < budgets->seq.count; i++) {
		struct node *b = budgets->seq.items[i];

		for (size_t k = 0; b->kind == NODE_MAP && k < b->map.count; k++) {
			struct node *v = b->map.pairs[k].value;

			if (v->kind == NODE_SCALAR && v->type == NODE_INT &&
			    !strcmp(node_str(b->map.pairs[k].key), "nodes"))
				b->map.pairs[k].value =
					node_new_str(a, v->at, render_itoa(a, v->scalar.i));
		}
	}
	return budgets;
}

static const struct pos no_pos = POS_NONE;

/* The two vocabularies; one object only ever uses one of them. */
struct nodepool_vocab {
	const char *class_group;
	const char *class_kind;
	const char *gpu_manufacturer; /* label key */
	const char *gpu_memory;       /* label key, MiB per GPU */
};

static const struct nodepool_vocab vocab_karpenter = {
	"karpenter.k8s.aws",
	"EC2NodeClass",
	"karpenter.k8s.aws/instance-gpu-manufacturer",
	"karpenter.k8s.aws/instance-gpu-memory",
};

static const struct nodepool_vocab vocab_auto_mode = {
	"eks.amazonaws.com",
	"NodeClass",
	"eks.amazonaws.com/instance-gpu-manufacturer",
	"eks.amazonaws.com/instance-gpu-memory",
};

/* The reservation types the pool leaves out (render_fallback.h): NotIn,
 * never In those it lists.  Karpenter gives every on-demand and Spot
 * offering that label (and capacity-reservation-id) as DoesNotExist, which
 * no In intersects but NotIn does, so an In would leave the pool's other
 * capacity types nothing to launch; for the reserved offerings, which carry
 * the label, NotIn the rest and In the listed are the same.  With every
 * type listed (or none) there is no requirement; nor before Karpenter 1.6,
 * which has neither the label (its NodePool CRD refuses the key) nor
 * Capacity Blocks; nor with Auto Mode (docs/design/artifacts.md, "Fallback
 * NodePool"). */
size_t
render_reservation_excluded(const struct spec_site *site, const struct spec_fallback *fb,
			    const char *out[RENDER_RESERVATION_TYPES])
{
	const struct spec_version *karpenter = &site->cluster.karpenter_version;
	size_t n = 0;

	if (!fb->reserved || !fb->reservation_type_count ||
	    site->cluster.provisioner == PROV_AUTO_MODE ||
	    (karpenter->set && !k8s_release_serves(karpenter->release, K8S_CAPACITY_BLOCK)))
		return 0;
	for (size_t t = 0; t < RENDER_RESERVATION_TYPES; t++) {
		bool listed = false;

		for (size_t i = 0; i < fb->reservation_type_count; i++)
			listed |= !strcmp(fb->reservation_types[i], k8s_reservation_types[t]);
		if (!listed)
			out[n++] = k8s_reservation_types[t];
	}
	return n;
}

/* One pool of the site's inventory. */
static void
nodepool_one(struct render_ctx *ctx, const struct spec_site *site, const struct inv_pool *pool)
{
	const struct spec_fallback *fb;
	const struct nodepool_vocab *v;
	struct arena *a = ctx->arena;
	struct render_kvs tl = { NULL, 0, 0 };
	struct render_object *o;
	struct node *spec, *tmpl, *tspec, *ref, *reqs, *taints, *dis, *limits;
	const char *capacity, *arch, *excluded[RENDER_RESERVATION_TYPES];
	size_t excluded_count;
	static const char *const nvidia[] = { "nvidia" };

	fb = pool->spec;
	v = site->cluster.provisioner == PROV_AUTO_MODE ? &vocab_auto_mode : &vocab_karpenter;
	o = render_object_add(ctx, &render_kind_nodepool, NULL, NULL, "", pool->name, site->name,
			      site->cluster.name, NULL, pool->purpose);
	spec = node_map_add(a, o->obj, "spec", node_new_map(a, no_pos));
	tmpl = node_map_add(a, spec, "template", node_new_map(a, no_pos));
	for (size_t i = 0; i < pool->node_label_count; i++)
		render_kvs_add(a, &tl, pool->node_labels[i].key, pool->node_labels[i].value);
	node_map_add(a, node_map_add(a, tmpl, "metadata", node_new_map(a, no_pos)), "labels",
		     render_kvs_node(a, &tl));
	tspec = node_map_add(a, tmpl, "spec", node_new_map(a, no_pos));

	ref = node_map_add(a, tspec, "nodeClassRef", node_new_map(a, no_pos));
	node_map_add_str(a, ref, "group", v->class_group);
	node_map_add_str(a, ref, "kind", v->class_kind);
	node_map_add_str(a, ref, "name", pool->class_name);

	reqs = node_map_add(a, tspec, "requirements", node_new_seq(a, no_pos));
	node_seq_push(a, reqs, render_requirement(a, v->gpu_manufacturer, "In", nvidia, 1));
	if (fb->instance_type_count)
		node_seq_push(a, reqs,
			      render_requirement(a, "node.kubernetes.io/instance-type", "In",
						 fb->instance_types, fb->instance_type_count));
	/* the one architecture of the types (GS179 refuses a mix) */
	arch = instance_types_arch(fb->instance_types, fb->instance_type_count);
	if (arch)
		node_seq_push(a, reqs, render_requirement(a, "kubernetes.io/arch", "In", &arch, 1));
	/* the capacity types in the spec's order; Karpenter prefers reserved
	 * to on-demand and on-demand to spot whatever the order */
	capacity = spec_capacity_name(fb->capacity_type);
	node_seq_push(
		a, reqs,
		fb->capacity_type_count
			? render_requirement(a, "karpenter.sh/capacity-type", "In",
					     fb->capacity_types, fb->capacity_type_count)
			: render_requirement(a, "karpenter.sh/capacity-type", "In", &capacity, 1));
	/* Capacity Blocks or plain reservations (Karpenter 1.6+) */
	excluded_count = render_reservation_excluded(site, fb, excluded);
	if (excluded_count)
		node_seq_push(a, reqs,
			      render_requirement(a, "karpenter.k8s.aws/capacity-reservation-type",
						 "NotIn", excluded, excluded_count));
	if (fb->zone_count)
		node_seq_push(a, reqs,
			      render_requirement(a, "topology.kubernetes.io/zone", "In", fb->zones,
						 fb->zone_count));
	if (fb->min_gpu_memory_mib > 0) {
		/* Gte is served from Karpenter 1.9 (k8s_controllers.c); for an
		 * older or undeclared release (and Auto Mode's), the equivalent
		 * Gt of one MiB less: the label is whole MiB per GPU. */
		const struct spec_version *kv = &site->cluster.karpenter_version;
		bool gte = v == &vocab_karpenter && kv->set &&
			   k8s_release_serves(kv->release, K8S_REQ_GTE);
		const char *mib = render_itoa(a, fb->min_gpu_memory_mib - (gte ? 0 : 1));

		node_seq_push(a, reqs,
			      render_requirement(a, v->gpu_memory, gte ? "Gte" : "Gt", &mib, 1));
	}

	/* The fallback nodes carry the same GPU taint as the on-prem ones, so
	 * only Pods that tolerate it (the placement policy adds that) land. */
	taints = node_map_add(a, tspec, "taints", node_new_seq(a, no_pos));
	node_seq_push(a, taints, render_toleration_taint(a, &site->gpu_taint));
	/* the pool's own taints (the burst taint, the site taint of an
	 * exclusive pool): only its scope's Pods tolerate them */
	for (size_t t = 0; t < pool->taint_count; t++)
		node_seq_push(a, taints, render_toleration_taint(a, &pool->taints[t]));
	node_map_add_str(a, tspec, "expireAfter",
			 fb->expire_after.text                         ? fb->expire_after.text
			 : site->cluster.provisioner == PROV_AUTO_MODE ? "336h"
								       : "720h");

	dis = node_map_add(a, spec, "disruption", node_new_map(a, no_pos));
	node_map_add_str(a, dis, "consolidationPolicy",
			 fb->consolidation_policy ? fb->consolidation_policy
						  : "WhenEmptyOrUnderutilized");
	node_map_add_str(a, dis, "consolidateAfter",
			 fb->consolidate_after.text ? fb->consolidate_after.text : "5m");
	/* as written; the CRD checks nodes, reasons, schedule and duration */
	if (fb->disruption_budgets && fb->disruption_budgets->seq.count)
		node_map_add(a, dis, "budgets", budgets_of(a, fb->disruption_budgets));
	limits = node_map_add(a, spec, "limits", node_new_map(a, no_pos));
	node_map_add_int(a, limits, RENDER_GPU_RESOURCE, fb->gpu_limit);
}

/* Every pool of the site (src/inventory/), in the inventory's order. */
static int
nodepool_site(struct render_ctx *ctx, const struct spec_site *site)
{
	for (size_t i = 0; i < ctx->inv->pool_count; i++)
		nodepool_one(ctx, site, &ctx->inv->pools[i]);
	return 0;
}

const struct render_kind render_kind_nodepool = {
	.kind = "NodePool",
	.api_version = "karpenter.sh/v1",
	.rank = RENDER_RANK_NODEPOOL,
	.render_site = nodepool_site,
	.render_cluster = NULL,
	.group = "karpenter.sh",
	.version = "v1",
	.plural = "nodepools",
	.namespaced = false,
	.crd = "karpenter/aws-provider/karpenter.sh_nodepools.yaml",
	.live = true,
	.unchecked = NULL,
};
