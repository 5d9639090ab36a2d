/*
 * render_placement_map.c - placement engine `mutating-admission-policy`:
 * a Kubernetes MutatingAdmissionPolicy and its Binding,
 * admissionregistration.k8s.io/v1 on 1.36+ (GA), v1beta1 on 1.34-1.35
 * (docs/design/upstream.md, "Admission policies").  JSONPatch only: the API server
 * rejects apply configurations that touch the atomic toleration and node
 * affinity lists.
 */
#include "base/arena.h"
#include "render/render_placement.h"
#include "render/render_util.h"

static const struct pos no_pos = POS_NONE;

/* The policy and binding of one scope of a site. */
static void
map_policy(struct render_ctx *ctx, const struct spec_site *site,
	   const struct render_placement_plan *p)
{
	struct arena *a = ctx->arena;
	struct render_placement_plan plan = *p;
	struct render_object *o, *b;
	struct node *spec, *mc, *bspec, *mr, *nssel;
	const char *api = render_map_api_version(render_kube_minor(site, ctx->opt));

	o = render_object_add(ctx, &render_kind_placement_map, api, NULL, "", plan.name, site->name,
			      site->cluster.name, NULL, render_placement_purpose(a, &plan));
	spec = node_map_add(a, o->obj, "spec", node_new_map(a, no_pos));
	node_map_add_str(a, spec, "failurePolicy", "Fail");
	/* Every patch is guarded, so a second pass changes nothing. */
	node_map_add_str(a, spec, "reinvocationPolicy", "IfNeeded");
	mc = node_map_add(a, spec, "matchConstraints", node_new_map(a, no_pos));
	node_map_add(a, mc, "resourceRules", render_placement_pod_rules(a));
	render_placement_cel(a, spec, &plan);

	b = render_object_add(
		ctx, &render_kind_placement_map, api, "MutatingAdmissionPolicyBinding", "",
		plan.name, site->name, site->cluster.name, NULL,
		arena_printf(a,
			     "binds the %s MutatingAdmissionPolicy to the %s namespaces and"
			     " Pod selector",
			     plan.scope_noun, plan.scope_noun));
	b->rank = RENDER_RANK_MAP_BINDING;
	bspec = node_map_add(a, b->obj, "spec", node_new_map(a, no_pos));
	node_map_add_str(a, bspec, "policyName", plan.name);
	mr = node_map_add(a, bspec, "matchResources", node_new_map(a, no_pos));
	if ((nssel = render_placement_namespace_selector(a, &plan)))
		node_map_add(a, mr, "namespaceSelector", nssel);
	if (plan.pod_selector && plan.pod_selector->kind == NODE_MAP &&
	    plan.pod_selector->map.count)
		node_map_add(a, mr, "objectSelector", node_clone(a, plan.pod_selector));
}

static int
map_site(struct render_ctx *ctx, const struct spec_site *site)
{
	return render_placement_each(ctx, site, ENGINE_MAP, map_policy);
}

/* The binding, and both under v1beta1 (1.34-1.35). */
static const struct render_api map_more[] = {
	{ "admissionregistration.k8s.io", "v1", "MutatingAdmissionPolicyBinding",
	  "mutatingadmissionpolicybindings", false, NULL,
	  "check_rendered() matches each binding to a policy of the stream", true },
	{ "admissionregistration.k8s.io", "v1beta1", "MutatingAdmissionPolicy",
	  "mutatingadmissionpolicies", false, NULL, NULL, true },
	{ "admissionregistration.k8s.io", "v1beta1", "MutatingAdmissionPolicyBinding",
	  "mutatingadmissionpolicybindings", false, NULL,
	  "check_rendered() matches each binding to a policy of the stream", true },
};

const struct render_kind render_kind_placement_map = {
	.kind = "MutatingAdmissionPolicy",
	.api_version = "admissionregistration.k8s.io/v1",
	.rank = RENDER_RANK_MAP,
	.render_site = map_site,
	.render_cluster = NULL,
	.group = "admissionregistration.k8s.io",
	.version = "v1",
	.plural = "mutatingadmissionpolicies",
	.namespaced = false,
	.crd = NULL,
	.live = true,
	.unchecked = NULL,
	.more = map_more,
	.more_count = sizeof(map_more) / sizeof(map_more[0]),
};
