/*
 * render_placement.c - the placement plan every engine is written from,
 * and its semantics in C (render.h, "Placement semantics as data").
 */
#include <string.h>

#include "base/arena.h"
#include "render/render_placement.h"
#include "render/render_util.h"

static const struct pos no_pos = { NULL, 0, 0 };

void
render_placement_plan(struct render_placement_plan *out,
		      const struct spec_site *site)
{
	const struct spec_placement *p = &site->placement;

	memset(out, 0, sizeof(*out));
	out->name = NULL;	/* set by the engines: "gpusite-<site>-placement" */
	out->gpu_resource = RENDER_GPU_RESOURCE;
	out->namespaces = p->namespaces;
	out->namespace_count = p->namespace_count;
	out->pod_selector = p->pod_selector;
	out->taint_key = site->gpu_taint.key;
	out->taint_value = site->gpu_taint.value ? site->gpu_taint.value : "";
	out->taint_effect = site->gpu_taint.effect;
	out->not_ready_seconds = p->not_ready_toleration_seconds;
	out->unreachable_seconds = p->unreachable_toleration_seconds;
	out->replace_not_ready = p->not_ready_toleration_seconds !=
				 RENDER_DEFAULT_TOLERATION_SECONDS;
	out->replace_unreachable = p->unreachable_toleration_seconds !=
				   RENDER_DEFAULT_TOLERATION_SECONDS;
	out->mode = p->mode;
	out->weight = p->weight;
}

/* Label selector semantics of metav1.LabelSelector. */
bool
render_selector_matches(const struct node *sel, const struct node *labels)
{
	const struct node *ml, *me;

	if (!sel || sel->kind != NODE_MAP)
		return true;
	ml = node_map_get(sel, "matchLabels");
	for (size_t i = 0; ml && ml->kind == NODE_MAP && i < ml->map.count; i++) {
		const char *k = node_text(ml->map.pairs[i].key);
		const char *want = node_text(ml->map.pairs[i].value);
		const char *have = k ? node_text(node_map_get(labels, k)) : NULL;

		if (!have || !want || strcmp(have, want))
			return false;
	}
	me = node_map_get(sel, "matchExpressions");
	for (size_t i = 0; me && me->kind == NODE_SEQ && i < me->seq.count; i++) {
		const struct node *e = me->seq.items[i];
		const char *k = node_str(node_map_get(e, "key"));
		const char *op = node_str(node_map_get(e, "operator"));
		const struct node *vals = node_map_get(e, "values");
		const char *have = k ? node_text(node_map_get(labels, k)) : NULL;
		bool in = false;

		if (!k || !op)
			return false;
		for (size_t j = 0; have && vals && vals->kind == NODE_SEQ &&
				   j < vals->seq.count; j++) {
			const char *v = node_text(vals->seq.items[j]);

			if (v && !strcmp(v, have))
				in = true;
		}
		if (!strcmp(op, "In") && !in)
			return false;
		if (!strcmp(op, "NotIn") && in)
			return false;
		if (!strcmp(op, "Exists") && !have)
			return false;
		if (!strcmp(op, "DoesNotExist") && have)
			return false;
		if (strcmp(op, "In") && strcmp(op, "NotIn") && strcmp(op, "Exists") &&
		    strcmp(op, "DoesNotExist"))
			return false;
	}
	return true;
}

static bool
requests_gpu(const struct node *pod, const char *resource)
{
	const struct node *cs = node_path(pod, "spec.containers");

	for (size_t i = 0; cs && cs->kind == NODE_SEQ && i < cs->seq.count; i++) {
		const struct node *r = node_map_get(cs->seq.items[i], "resources");

		if (node_map_get(node_map_get(r, "limits"), resource) ||
		    node_map_get(node_map_get(r, "requests"), resource))
			return true;
	}
	return false;
}

bool
render_placement_applies(const struct render_placement_plan *plan,
			 const struct node *pod, const char *ns)
{
	bool ns_ok = plan->namespace_count == 0;

	for (size_t i = 0; i < plan->namespace_count; i++)
		if (ns && !strcmp(plan->namespaces[i], ns))
			ns_ok = true;
	if (!ns_ok)
		return false;
	if (!render_selector_matches(plan->pod_selector,
				     node_path(pod, "metadata.labels")))
		return false;
	return requests_gpu(pod, plan->gpu_resource);
}

static void
patch_add(struct arena *a, struct render_patch *p, const char *op,
	  const char *path, struct node *value)
{
	if (p->count == p->alloc) {
		size_t n = p->alloc ? p->alloc * 2 : 8;

		p->ops = arena_realloc(a, p->ops, p->alloc * sizeof(*p->ops),
				       n * sizeof(*p->ops));
		p->alloc = n;
	}
	p->ops[p->count].op = op;
	p->ops[p->count].path = path;
	p->ops[p->count].value = value;
	p->count++;
}

static const char *
field(const struct node *m, const char *key)
{
	const char *s = node_text(node_map_get(m, key));

	return s ? s : "";
}

/* Whether toleration t tolerates the GPU taint (core/v1 ToleratesTaint). */
static bool
tolerates_gpu(const struct render_placement_plan *plan, const struct node *t)
{
	const char *key = field(t, "key"), *op = field(t, "operator");
	const char *effect = field(t, "effect");

	if (*effect && strcmp(effect, plan->taint_effect))
		return false;
	if (*key ? strcmp(key, plan->taint_key) : strcmp(op, "Exists"))
		return false;
	if (!strcmp(op, "Exists"))
		return true;
	return (!*op || !strcmp(op, "Equal")) && !strcmp(field(t, "value"),
							  plan->taint_value);
}

/* The nodeAffinity value of step 3. */
static struct node *
node_affinity(struct arena *a, const struct render_placement_plan *plan)
{
	static const char *const hybrid[] = { RENDER_HYBRID_VALUE };
	struct node *na = node_new_map(a, no_pos), *terms, *term, *exprs;

	exprs = node_new_seq(a, no_pos);
	node_seq_push(a, exprs, render_requirement(a, RENDER_HYBRID_LABEL, "In",
						   hybrid, 1));
	if (plan->mode == PLACE_REQUIRE_ONPREM) {
		struct node *req = node_map_add(a, na,
			"requiredDuringSchedulingIgnoredDuringExecution",
			node_new_map(a, no_pos));

		terms = node_map_add(a, req, "nodeSelectorTerms", node_new_seq(a, no_pos));
		term = node_new_map(a, no_pos);
		node_map_add(a, term, "matchExpressions", exprs);
		node_seq_push(a, terms, term);
	} else {
		struct node *pref = node_map_add(a, na,
			"preferredDuringSchedulingIgnoredDuringExecution",
			node_new_seq(a, no_pos));

		term = node_new_map(a, no_pos);
		node_map_add_int(a, term, "weight", plan->weight);
		node_map_add(a, node_map_add(a, term, "preference", node_new_map(a, no_pos)),
			     "matchExpressions", exprs);
		node_seq_push(a, pref, term);
	}
	return na;
}

/* The GPU toleration of step 2. */
static struct node *
gpu_toleration(struct arena *a, const struct render_placement_plan *plan)
{
	return render_toleration(a, plan->taint_key, "Exists", NULL,
				 plan->taint_effect, -1);
}

int
render_placement_patches(struct render_patch *out, struct arena *a,
			 const struct render_placement_plan *plan,
			 const struct node *pod, const char *ns)
{
	const struct node *tols = node_path(pod, "spec.tolerations");
	const struct node *aff = node_path(pod, "spec.affinity");
	bool tolerated = false;

	/* null is absent, as the API server decodes it */
	if (tols && tols->kind != NODE_SEQ)
		tols = NULL;
	if (aff && aff->kind != NODE_MAP)
		aff = NULL;

	memset(out, 0, sizeof(*out));
	if (!render_placement_applies(plan, pod, ns))
		return 0;

	/* step 1: DefaultTolerationSeconds' 300 s entries -> the spec's seconds */
	for (size_t i = 0; tols && i < tols->seq.count; i++) {
		const struct node *t = tols->seq.items[i];
		const struct node *secs = node_map_get(t, "tolerationSeconds");
		const char *key = field(t, "key");
		int64_t want;

		if (strcmp(field(t, "operator"), "Exists") ||
		    strcmp(field(t, "effect"), "NoExecute") || !node_is_int(secs) ||
		    secs->scalar.i != RENDER_DEFAULT_TOLERATION_SECONDS)
			continue;
		if (plan->replace_not_ready && !strcmp(key, RENDER_NOT_READY_KEY))
			want = plan->not_ready_seconds;
		else if (plan->replace_unreachable && !strcmp(key, RENDER_UNREACHABLE_KEY))
			want = plan->unreachable_seconds;
		else
			continue;
		patch_add(a, out, "replace",
			  arena_printf(a, "/spec/tolerations/%zu/tolerationSeconds", i),
			  node_new_int(a, no_pos, want));
	}

	/* step 2: the GPU toleration unless the taint is tolerated already */
	for (size_t i = 0; tols && i < tols->seq.count; i++)
		if (tolerates_gpu(plan, tols->seq.items[i]))
			tolerated = true;
	if (!tolerated) {
		if (tols) {
			patch_add(a, out, "add", "/spec/tolerations/-", gpu_toleration(a, plan));
		} else {
			struct node *list = node_new_seq(a, no_pos);

			node_seq_push(a, list, gpu_toleration(a, plan));
			patch_add(a, out, "add", "/spec/tolerations", list);
		}
	}

	/* step 3: node affinity only where the Pod has none of its own */
	if (!aff || !node_map_get(aff, "nodeAffinity") ||
	    node_is_null(node_map_get(aff, "nodeAffinity"))) {
		if (!aff)
			patch_add(a, out, "add", "/spec/affinity", node_new_map(a, no_pos));
		patch_add(a, out, "add", "/spec/affinity/nodeAffinity",
			  node_affinity(a, plan));
	}
	return 0;
}

/* Exposed to the engine files through render_placement.h. */
struct node *
render_placement_node_affinity(struct arena *a,
			       const struct render_placement_plan *plan)
{
	return node_affinity(a, plan);
}

const char *
render_placement_name(struct arena *a, const struct spec_site *site)
{
	return arena_printf(a, "gpusite-%s-placement", site->name);
}

struct node *
render_placement_gpu_toleration(struct arena *a,
				const struct render_placement_plan *plan)
{
	return gpu_toleration(a, plan);
}

struct node *
render_placement_namespace_selector(struct arena *a,
				    const struct render_placement_plan *plan)
{
	struct node *sel, *exprs;

	if (!plan->namespace_count)
		return NULL;
	sel = node_new_map(a, no_pos);
	exprs = node_map_add(a, sel, "matchExpressions", node_new_seq(a, no_pos));
	/* Every namespace carries its name as this label. */
	node_seq_push(a, exprs, render_requirement(a, "kubernetes.io/metadata.name",
						   "In", plan->namespaces,
						   plan->namespace_count));
	return sel;
}

struct node *
render_placement_pod_rules(struct arena *a)
{
	static const char *const core[] = { "" }, *const v1[] = { "v1" };
	static const char *const create[] = { "CREATE" }, *const pods[] = { "pods" };
	struct node *rules = node_new_seq(a, no_pos), *r = node_new_map(a, no_pos);

	/* CREATE only: affinity is immutable afterwards. */
	node_map_add(a, r, "apiGroups", render_str_seq(a, core, 1));
	node_map_add(a, r, "apiVersions", render_str_seq(a, v1, 1));
	node_map_add(a, r, "operations", render_str_seq(a, create, 1));
	node_map_add(a, r, "resources", render_str_seq(a, pods, 1));
	node_seq_push(a, rules, r);
	return rules;
}

/* CEL: Object.<path>{...} for the toleration of step 2. */
static const char *
cel_toleration(struct arena *a, const struct render_placement_plan *plan)
{
	return arena_printf(a, "Object.spec.tolerations{key: %s, operator: \"Exists\","
			    " effect: %s}", render_quote(a, plan->taint_key),
			    render_quote(a, plan->taint_effect));
}

/* CEL: the nodeAffinity of step 3 as typed Object constructors. */
static const char *
cel_node_affinity(struct arena *a, const struct render_placement_plan *plan)
{
	const char *na = "Object.spec.affinity.nodeAffinity";
	const char *expr = arena_printf(a, "{\n        key: %s, operator: \"In\","
					" values: [%s]}",
					render_quote(a, RENDER_HYBRID_LABEL),
					render_quote(a, RENDER_HYBRID_VALUE));

	if (plan->mode == PLACE_REQUIRE_ONPREM) {
		const char *req = arena_printf(a, "%s.requiredDuringSchedulingIgnoredDuringExecution", na);

		return arena_printf(a, "%s{\n"
			"  requiredDuringSchedulingIgnoredDuringExecution: %s{\n"
			"    nodeSelectorTerms: [%s.nodeSelectorTerms{\n"
			"      matchExpressions: [%s.nodeSelectorTerms.matchExpressions%s]}]}}",
			na, req, req, req, expr);
	}
	return arena_printf(a, "%s{\n"
		"  preferredDuringSchedulingIgnoredDuringExecution: [%s.preferredDuringSchedulingIgnoredDuringExecution{\n"
		"    weight: %d,\n"
		"    preference: %s.preferredDuringSchedulingIgnoredDuringExecution.preference{\n"
		"      matchExpressions: [%s.preferredDuringSchedulingIgnoredDuringExecution.preference.matchExpressions%s]}}]}",
		na, na, plan->weight, na, na, expr);
}

static void
add_named(struct arena *a, struct node *seq, const char *name, const char *expr)
{
	struct node *m = node_new_map(a, no_pos);

	node_map_add_str(a, m, "name", name);
	node_map_add_str(a, m, "expression", expr);
	node_seq_push(a, seq, m);
}

static void
add_json_patch(struct arena *a, struct node *seq, const char *expr)
{
	struct node *m = node_new_map(a, no_pos);

	node_map_add_str(a, m, "patchType", "JSONPatch");
	node_map_add_str(a, node_map_add(a, m, "jsonPatch", node_new_map(a, no_pos)),
			 "expression", expr);
	node_seq_push(a, seq, m);
}

void
render_placement_cel(struct arena *a, struct node *spec,
		     const struct render_placement_plan *plan)
{
	const char *res = render_quote(a, plan->gpu_resource);
	struct node *conds, *muts;

	conds = node_map_add(a, spec, "matchConditions", node_new_seq(a, no_pos));
	add_named(a, conds, "requests-gpu", arena_printf(a,
		"object.spec.containers.exists(c, has(c.resources) && (\n"
		"  (has(c.resources.limits) && %s in c.resources.limits) ||\n"
		"  (has(c.resources.requests) && %s in c.resources.requests)))", res, res));

	if (plan->replace_not_ready || plan->replace_unreachable) {
		struct node *vars = node_map_add(a, spec, "variables", node_new_seq(a, no_pos));
		const char *m = "";

		if (plan->replace_not_ready)
			m = arena_printf(a, "%s: %lld", render_quote(a, RENDER_NOT_READY_KEY),
					 (long long)plan->not_ready_seconds);
		if (plan->replace_unreachable)
			m = arena_printf(a, "%s%s%s: %lld", m, *m ? ", " : "",
					 render_quote(a, RENDER_UNREACHABLE_KEY),
					 (long long)plan->unreachable_seconds);
		/* key -> the seconds that replace DefaultTolerationSeconds' 300 */
		add_named(a, vars, "evictionSeconds", arena_printf(a, "{%s}", m));
	}

	muts = node_map_add(a, spec, "mutations", node_new_seq(a, no_pos));
	if (plan->replace_not_ready || plan->replace_unreachable)
		add_json_patch(a, muts, arena_printf(a,
			"lists.range(size(object.spec.?tolerations.orValue([]))).filter(i,\n"
			"  object.spec.tolerations[i].?key.orValue(\"\") in variables.evictionSeconds &&\n"
			"  object.spec.tolerations[i].?operator.orValue(\"\") == \"Exists\" &&\n"
			"  object.spec.tolerations[i].?effect.orValue(\"\") == \"NoExecute\" &&\n"
			"  object.spec.tolerations[i].?tolerationSeconds.orValue(-1) == %d\n"
			").map(i, JSONPatch{op: \"replace\",\n"
			"  path: \"/spec/tolerations/\" + string(i) + \"/tolerationSeconds\",\n"
			"  value: variables.evictionSeconds[object.spec.tolerations[i].key]})",
			RENDER_DEFAULT_TOLERATION_SECONDS));

	add_json_patch(a, muts, arena_printf(a,
		"object.spec.?tolerations.orValue([]).exists(t,\n"
		"  (t.?key.orValue(\"\") == %s ||\n"
		"    (t.?key.orValue(\"\") == \"\" && t.?operator.orValue(\"\") == \"Exists\")) &&\n"
		"  (t.?operator.orValue(\"\") == \"Exists\" || t.?value.orValue(\"\") == %s) &&\n"
		"  (t.?effect.orValue(\"\") == \"\" || t.?effect.orValue(\"\") == %s)) ? [] :\n"
		"has(object.spec.tolerations) ?\n"
		"  [JSONPatch{op: \"add\", path: \"/spec/tolerations/-\",\n"
		"    value: %s}] :\n"
		"  [JSONPatch{op: \"add\", path: \"/spec/tolerations\",\n"
		"    value: [%s]}]",
		render_quote(a, plan->taint_key), render_quote(a, plan->taint_value),
		render_quote(a, plan->taint_effect), cel_toleration(a, plan),
		cel_toleration(a, plan)));

	add_json_patch(a, muts, arena_printf(a,
		"has(object.spec.affinity) && has(object.spec.affinity.nodeAffinity) ? [] :\n"
		"(has(object.spec.affinity) ? [] :\n"
		"  [JSONPatch{op: \"add\", path: \"/spec/affinity\", value: Object.spec.affinity{}}]) +\n"
		"[JSONPatch{op: \"add\", path: \"/spec/affinity/nodeAffinity\", value: %s}]",
		cel_node_affinity(a, plan)));
}

const char *
render_placement_purpose(struct arena *a, const struct render_placement_plan *plan)
{
	return arena_printf(a, "adds to GPU Pods in %s the GPU toleration%s and a %s"
			    " affinity to hybrid nodes (%s)",
			    plan->namespace_count ? "the placement namespaces" : "every namespace",
			    plan->replace_not_ready || plan->replace_unreachable ?
			    ", the eviction toleration seconds" : "",
			    plan->mode == PLACE_REQUIRE_ONPREM ? "required" : "preferred",
			    plan->mode == PLACE_REQUIRE_ONPREM ? "on-prem only"
							       : "on-prem first, cloud fallback");
}
