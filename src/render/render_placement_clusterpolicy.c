/*
 * render_placement_clusterpolicy.c - placement engine
 * `kyverno-clusterpolicy`: the legacy kyverno.io/v1 ClusterPolicy
 * (deprecated since Kyverno 1.18) for clusters with an older Kyverno.  The
 * same plan as the MutatingPolicy, with JMESPath preconditions and
 * patchesJson6902, never patchStrategicMerge (which replaces the whole
 * toleration list; docs/design/upstream.md, "Admission policies").
 */
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "json/json.h"
#include "k8s/k8s_toleration.h"
#include "render/render_placement.h"
#include "render/render_util.h"

#define JSON_VALUE_CAP (64u << 10)

static const struct pos no_pos = POS_NONE;

/* Compact JSON of a value for a patchesJson6902 document. */
static const char *
json_text(struct arena *a, const struct node *n)
{
	struct buf b;
	const char *s = NULL;

	buf_init(&b, JSON_VALUE_CAP);
	if (json_write(&b, n, 0) == 0)
		s = arena_strndup(a, b.data, b.len);
	buf_release(&b);
	return s ? s : "null";
}

static struct node *
condition(struct arena *a, const char *key, const char *op, struct node *value)
{
	struct node *c = node_new_map(a, no_pos);

	node_map_add_str(a, c, "key", key);
	node_map_add_str(a, c, "operator", op);
	node_map_add(a, c, "value", value);
	return c;
}

/* The GPU Pod preconditions (k8s/k8s_gpu.h), any of: a container or
 * init container (sidecars included) that names a GPU resource under
 * limits or requests; resource claims.  spec.ephemeralContainers have no
 * resources. */
static void
gpu_conditions(struct arena *a, struct node *any, const struct render_placement_plan *plan)
{
	static const struct render_gpu_syntax jp = { render_jp_raw, "@ == ", "", "starts_with(@, ",
						     ")" };

	node_seq_push(a, any,
		      condition(a,
				arena_printf(a,
					     "{{ length([request.object.spec.containers || `[]`, "
					     "request.object.spec.initContainers || `[]`][] | "
					     "[?length(keys(merge(resources.limits || `{}`, "
					     "resources.requests || `{}`))[?%s]) > `0`]) }}",
					     render_placement_gpu_test(a, plan, &jp)),
				"GreaterThan", node_new_int(a, no_pos, 0)));
	node_seq_push(a, any,
		      condition(a, "{{ length(request.object.spec.resourceClaims || `[]`) }}",
				"GreaterThan", node_new_int(a, no_pos, 0)));
}

static struct node *
match_block(struct arena *a, const struct render_placement_plan *plan)
{
	static const char *const pod[] = { "Pod" }, *const create[] = { "CREATE" };
	struct node *m = node_new_map(a, no_pos), *any, *item, *res;

	any = node_map_add(a, m, "any", node_new_seq(a, no_pos));
	item = node_new_map(a, no_pos);
	res = node_map_add(a, item, "resources", node_new_map(a, no_pos));
	node_map_add(a, res, "kinds", render_str_seq(a, pod, 1));
	if (plan->namespace_count)
		node_map_add(a, res, "namespaces",
			     render_str_seq(a, plan->namespaces, plan->namespace_count));
	/* CREATE only: affinity is immutable afterwards. */
	node_map_add(a, res, "operations", render_str_seq(a, create, 1));
	if (plan->pod_selector && plan->pod_selector->kind == NODE_MAP &&
	    plan->pod_selector->map.count)
		node_map_add(a, res, "selector", node_clone(a, plan->pod_selector));
	node_seq_push(a, any, item);
	return m;
}

/* A rule with the shared match block and preconditions (GPU Pod: any;
 * the rule's own: all, both must hold). */
static struct node *
rule(struct arena *a, struct node *rules, const char *name,
     const struct render_placement_plan *plan, struct node **all_out, struct node **mutate_out)
{
	struct node *r = node_new_map(a, no_pos), *pre;

	node_map_add_str(a, r, "name", name);
	node_map_add(a, r, "match", match_block(a, plan));
	pre = node_map_add(a, r, "preconditions", node_new_map(a, no_pos));
	gpu_conditions(a, node_map_add(a, pre, "any", node_new_seq(a, no_pos)), plan);
	*all_out = node_map_add(a, pre, "all", node_new_seq(a, no_pos));
	*mutate_out = node_map_add(a, r, "mutate", node_new_map(a, no_pos));
	node_seq_push(a, rules, r);
	return r;
}

/* foreach entry: replace DefaultTolerationSeconds' 300 s for `key`. */
static struct node *
seconds_foreach(struct arena *a, const char *key, int64_t seconds)
{
	struct node *f = node_new_map(a, no_pos), *pre, *all;

	node_map_add_str(a, f, "list", "request.object.spec.tolerations");
	pre = node_map_add(a, f, "preconditions", node_new_map(a, no_pos));
	all = node_map_add(a, pre, "all", node_new_seq(a, no_pos));
	node_seq_push(
		a, all,
		condition(a, "{{ element.key || '' }}", "Equals", node_new_str(a, no_pos, key)));
	node_seq_push(a, all,
		      condition(a, "{{ element.operator || '' }}", "Equals",
				node_new_str(a, no_pos, "Exists")));
	node_seq_push(a, all,
		      condition(a, "{{ element.effect || '' }}", "Equals",
				node_new_str(a, no_pos, "NoExecute")));
	node_seq_push(a, all,
		      condition(a, "{{ element.tolerationSeconds || `0` }}", "Equals",
				node_new_int(a, no_pos, RENDER_DEFAULT_TOLERATION_SECONDS)));
	node_map_add_str(
		a, f, "patchesJson6902",
		arena_printf(a,
			     "- op: replace\n"
			     "  path: /spec/tolerations/{{elementIndex}}/tolerationSeconds\n"
			     "  value: %lld\n",
			     (long long)seconds));
	return f;
}

#define JP_NA "request.object.spec.affinity.nodeAffinity"
#define JP_TERMS JP_NA ".requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms"
#define PATH_REQ "/spec/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution"

/* JMESPath filter: requirement @ (or `prefix`) is r. */
static const char *
jp_is_req(struct arena *a, const char *prefix, const struct render_affinity *r)
{
	return arena_printf(a, "%skey == %s && %soperator == %s && %svalues == `%s`", prefix,
			    render_jp_raw(a, r->key), prefix, render_jp_raw(a, r->op), prefix,
			    json_text(a, render_str_seq(a, r->values, r->value_count)));
}

/* A preferred requirement: append its term unless the Pod has it (with
 * any weight); Kyverno creates the missing path pieces of an add. */
static void
preferred_rule(struct arena *a, struct node *rules, const struct render_placement_plan *plan,
	       const struct render_affinity *r)
{
	struct node *all, *mutate;
	const struct node *na = render_placement_node_affinity(a, r);

	rule(a, rules, arena_printf(a, "%s-node-affinity", r->what), plan, &all, &mutate);
	node_seq_push(
		a, all,
		condition(
			a,
			arena_printf(
				a,
				"{{ length(" JP_NA
				".preferredDuringSchedulingIgnoredDuringExecution[?"
				"length(preference.matchExpressions || `[]`) == `1` && "
				"length(preference.matchFields || `[]`) == `0` && %s] || `[]`) }}",
				jp_is_req(a, "preference.matchExpressions[0].", r)),
			"Equals", node_new_int(a, no_pos, 0)));
	node_map_add_str(
		a, mutate, "patchesJson6902",
		arena_printf(
			a,
			"- op: add\n"
			"  path: "
			"/spec/affinity/nodeAffinity/"
			"preferredDuringSchedulingIgnoredDuringExecution/-\n"
			"  value: %s\n",
			json_text(a, node_map_get(na,
						  "preferredDuringSchedulingIgnoredDuringExecution")
					     ->seq.items[0])));
}

/* foreach entry over the required terms: AND requirement r in. */
static struct node *
term_foreach(struct arena *a, const struct render_affinity *r, bool has_exprs)
{
	struct node *f = node_new_map(a, no_pos), *pre, *all;
	const char *req = json_text(a, render_placement_requirement(a, r));

	node_map_add_str(a, f, "list", JP_TERMS);
	pre = node_map_add(a, f, "preconditions", node_new_map(a, no_pos));
	all = node_map_add(a, pre, "all", node_new_seq(a, no_pos));
	node_seq_push(a, all,
		      condition(a, "{{ length(element.matchExpressions || `[]`) }}",
				has_exprs ? "GreaterThan" : "Equals", node_new_int(a, no_pos, 0)));
	if (has_exprs) {
		node_seq_push(
			a, all,
			condition(a,
				  arena_printf(
					  a, "{{ length(element.matchExpressions[?%s] || `[]`) }}",
					  jp_is_req(a, "", r)),
				  "Equals", node_new_int(a, no_pos, 0)));
		node_map_add_str(
			a, f, "patchesJson6902",
			arena_printf(a,
				     "- op: add\n"
				     "  path: " PATH_REQ
				     "/nodeSelectorTerms/{{elementIndex}}/matchExpressions/-\n"
				     "  value: %s\n",
				     req));
	} else {
		node_map_add_str(
			a, f, "patchesJson6902",
			arena_printf(a,
				     "- op: add\n"
				     "  path: " PATH_REQ
				     "/nodeSelectorTerms/{{elementIndex}}/matchExpressions\n"
				     "  value: [%s]\n",
				     req));
	}
	return f;
}

/* A required requirement: the one required term where the Pod has none,
 * else the requirement ANDed into every term that lacks it. */
static void
required_rules(struct arena *a, struct node *rules, const struct render_placement_plan *plan,
	       const struct render_affinity *r)
{
	struct node *all, *mutate, *fe;
	const struct node *na = render_placement_node_affinity(a, r);

	rule(a, rules, arena_printf(a, "%s-node-affinity", r->what), plan, &all, &mutate);
	node_seq_push(a, all,
		      condition(a, "{{ length(" JP_TERMS " || `[]`) }}", "Equals",
				node_new_int(a, no_pos, 0)));
	node_map_add_str(
		a, mutate, "patchesJson6902",
		arena_printf(
			a,
			"- op: add\n"
			"  path: " PATH_REQ "\n"
			"  value: %s\n",
			json_text(a,
				  node_map_get(na,
					       "requiredDuringSchedulingIgnoredDuringExecution"))));

	rule(a, rules, arena_printf(a, "%s-node-affinity-terms", r->what), plan, &all, &mutate);
	node_seq_push(a, all,
		      condition(a, "{{ length(" JP_TERMS " || `[]`) }}", "GreaterThan",
				node_new_int(a, no_pos, 0)));
	fe = node_map_add(a, mutate, "foreach", node_new_seq(a, no_pos));
	node_seq_push(a, fe, term_foreach(a, r, true));
	node_seq_push(a, fe, term_foreach(a, r, false));
}

/* Step 2 (or 2b): the toleration of `t` unless one the Pod has
 * tolerates it. */
static void
toleration_rule(struct arena *a, struct node *rules, const struct render_placement_plan *plan,
		const char *name, const struct k8s_taint *t, bool exact)
{
	struct node *all, *mutate;

	rule(a, rules, name, plan, &all, &mutate);
	node_seq_push(a, all,
		      condition(a,
				arena_printf(a,
					     "{{ length(request.object.spec.tolerations[?(key == "
					     "%s || (!key && operator == 'Exists'))"
					     " && (operator == 'Exists' || value == %s) && "
					     "(!effect || effect == %s)] || `[]`) }}",
					     render_jp_raw(a, t->key), render_jp_raw(a, t->value),
					     render_jp_raw(a, t->effect)),
				"Equals", node_new_int(a, no_pos, 0)));
	/* Appended; Kyverno creates the list when it is absent. */
	node_map_add_str(
		a, mutate, "patchesJson6902",
		arena_printf(
			a,
			"- op: add\n"
			"  path: /spec/tolerations/-\n"
			"  value: %s\n",
			json_text(a, render_toleration(a, t->key, exact ? "Equal" : "Exists",
						       exact ? t->value : NULL, t->effect, -1))));
}

/* The ClusterPolicy of one scope of a site. */
static void
clusterpolicy_one(struct render_ctx *ctx, const struct spec_site *site,
		  const struct render_placement_plan *p)
{
	struct arena *a = ctx->arena;
	struct render_placement_plan plan = *p;
	struct render_object *o;
	struct node *spec, *rules, *all, *mutate;

	o = render_object_add(ctx, &render_kind_placement_clusterpolicy, NULL, NULL, "", plan.name,
			      site->name, site->cluster.name, NULL,
			      render_placement_purpose(a, &plan));
	/* No autogen onto controllers: Pods only. */
	render_object_annotate(a, o, "pod-policies.kyverno.io/autogen-controllers", "none");
	spec = node_map_add(a, o->obj, "spec", node_new_map(a, no_pos));
	node_map_add_bool(a, spec, "background", false);
	rules = node_map_add(a, spec, "rules", node_new_seq(a, no_pos));

	if (plan.replace_not_ready || plan.replace_unreachable) {
		struct node *fe;

		rule(a, rules, "eviction-toleration-seconds", &plan, &all, &mutate);
		node_seq_push(a, all,
			      condition(a,
					"{{ request.object.spec.tolerations || `[]` | length(@) }}",
					"GreaterThan", node_new_int(a, no_pos, 0)));
		fe = node_map_add(a, mutate, "foreach", node_new_seq(a, no_pos));
		if (plan.replace_not_ready)
			node_seq_push(
				a, fe,
				seconds_foreach(a, RENDER_NOT_READY_KEY, plan.not_ready_seconds));
		if (plan.replace_unreachable)
			node_seq_push(a, fe,
				      seconds_foreach(a, RENDER_UNREACHABLE_KEY,
						      plan.unreachable_seconds));
	}

	toleration_rule(a, rules, &plan, "gpu-toleration",
			&(struct k8s_taint){ plan.taint_key, plan.taint_value, plan.taint_effect },
			false);
	for (size_t t = 0; t < plan.pool_taint_count; t++) {
		const struct spec_taint *pt = plan.pool_taints[t].taint;

		toleration_rule(a, rules, &plan,
				arena_printf(a, "%s-toleration", plan.pool_taints[t].noun),
				&(struct k8s_taint){ pt->key, pt->value, pt->effect },
				plan.pool_taints[t].exact);
	}

	for (size_t k = 0; k < plan.affinity_count; k++) {
		if (plan.affinity[k].required)
			required_rules(a, rules, &plan, &plan.affinity[k]);
		else
			preferred_rule(a, rules, &plan, &plan.affinity[k]);
	}
}

static int
clusterpolicy_site(struct render_ctx *ctx, const struct spec_site *site)
{
	return render_placement_each(ctx, site, ENGINE_KYVERNO_CLUSTERPOLICY, clusterpolicy_one);
}

const struct render_kind render_kind_placement_clusterpolicy = {
	.kind = "ClusterPolicy",
	.api_version = "kyverno.io/v1",
	.rank = RENDER_RANK_CLUSTERPOLICY,
	.render_site = clusterpolicy_site,
	.render_cluster = NULL,
	.group = "kyverno.io",
	.version = "v1",
	.plural = "clusterpolicies",
	.namespaced = false,
	.crd = "kyverno/kyverno.io_clusterpolicies.yaml",
	.live = true,
	.unchecked = NULL,
};
