/*
 * render_placement_kyverno.c - placement engine `kyverno`: a Kyverno
 * MutatingPolicy (policies.kyverno.io/v1, served since Kyverno 1.17) that
 * applies the placement plan with CEL JSON patches (docs/design/artifacts.md, "Placement";
 * docs/design/upstream.md, "Admission policies").
 */
#include "base/arena.h"
#include "render/render_placement.h"
#include "render/render_util.h"

static const struct pos no_pos = POS_NONE;

/* The policy of one scope of a site; shared with `explain`'s snippet for
 * engine none. */
static struct render_object *
mutating_policy(struct render_ctx *ctx, const struct spec_site *site,
		const struct render_placement_plan *p)
{
	struct arena *a = ctx->arena;
	struct render_placement_plan plan = *p;
	struct render_object *o;
	struct node *spec, *ag, *ev, *mc, *nssel;

	o = render_object_add(ctx, &render_kind_placement_kyverno, NULL, NULL, "", plan.name,
			      site->name, site->cluster.name, NULL,
			      render_placement_purpose(a, &plan));
	spec = node_map_add(a, o->obj, "spec", node_new_map(a, no_pos));
	/* A Pod admitted without the toleration could never schedule on the
	 * tainted GPU nodes: failing loudly is better. */
	node_map_add_str(a, spec, "failurePolicy", "Fail");
	/* Pods only: JSON patch paths are not rewritten for controllers, and
	 * the Deployments Argo CD manages must not show a diff. */
	ag = node_map_add(a, spec, "autogen", node_new_map(a, no_pos));
	node_map_add(a, node_map_add(a, ag, "podControllers", node_new_map(a, no_pos)),
		     "controllers", node_new_seq(a, no_pos));
	ev = node_map_add(a, spec, "evaluation", node_new_map(a, no_pos));
	node_map_add_bool(a, node_map_add(a, ev, "admission", node_new_map(a, no_pos)), "enabled",
			  true);
	/* Background scans would only report running Pods as "not mutated". */
	node_map_add_bool(a, node_map_add(a, ev, "background", node_new_map(a, no_pos)), "enabled",
			  false);
	mc = node_map_add(a, spec, "matchConstraints", node_new_map(a, no_pos));
	node_map_add(a, mc, "resourceRules", render_placement_pod_rules(a));
	if ((nssel = render_placement_namespace_selector(a, &plan)))
		node_map_add(a, mc, "namespaceSelector", nssel);
	if (plan.pod_selector && plan.pod_selector->kind == NODE_MAP &&
	    plan.pod_selector->map.count)
		node_map_add(a, mc, "objectSelector", node_clone(a, plan.pod_selector));
	render_placement_cel(a, spec, &plan);
	return o;
}

static void
kyverno_one(struct render_ctx *ctx, const struct spec_site *site,
	    const struct render_placement_plan *plan)
{
	mutating_policy(ctx, site, plan);
}

static int
kyverno_site(struct render_ctx *ctx, const struct spec_site *site)
{
	return render_placement_each(ctx, site, ENGINE_KYVERNO, kyverno_one);
}

int
render_placement_snippet(struct render_object *out, struct arena *a, struct diags *d,
			 const struct spec_site *site, const struct render_options *opt)
{
	static const struct render_options defaults; /* all zero: every site, no files */
	struct render_result tmp = { NULL, 0, 0, NULL, 0, 0 };
	struct render_ctx ctx = { a, d, opt ? opt : &defaults, &tmp, inventory_site(a, site) };
	struct render_placement_plan plans[RENDER_PLANS_MAX];

	render_placement_plans(plans, a, site);
	*out = *mutating_policy(&ctx, site, &plans[0]);
	return 0;
}

const struct render_kind render_kind_placement_kyverno = {
	.kind = "MutatingPolicy",
	.api_version = "policies.kyverno.io/v1",
	.rank = RENDER_RANK_MUTATINGPOLICY,
	.render_site = kyverno_site,
	.render_cluster = NULL,
	.group = "policies.kyverno.io",
	.version = "v1",
	.plural = "mutatingpolicies",
	.namespaced = false,
	.crd = "kyverno/policies.kyverno.io_mutatingpolicies.yaml",
	.live = true,
	.unchecked = NULL,
};
