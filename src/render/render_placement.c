/*
 * render_placement.c - the placement plan every engine is written from,
 * and its semantics in C (render.h, "Placement semantics as data").
 */
#include <string.h>

#include "inventory/inventory.h"
#include "inventory/inventory_labels.h"
#include "base/arena.h"
#include "k8s/k8s_selector.h"
#include "k8s/k8s_toleration.h"
#include "render/render_placement.h"
#include "render/render_util.h"

static const struct pos no_pos = POS_NONE;
static const char *const hybrid_values[] = { RENDER_HYBRID_VALUE };

/* JSON pointers of step 3 */
#define PATH_NA "/spec/affinity/nodeAffinity"
#define PATH_PREF PATH_NA "/preferredDuringSchedulingIgnoredDuringExecution"
#define PATH_REQ PATH_NA "/requiredDuringSchedulingIgnoredDuringExecution"

/* The steps both scopes share; `require` false keeps the hybrid nodes
 * only preferred. */
static void
plan_fill(struct render_placement_plan *out, const struct spec_site *site,
	  const struct inventory *inv, bool require)
{
	const struct spec_placement *p = &site->placement;

	memset(out, 0, sizeof(*out));
	out->name = NULL; /* set by render_placement_plans() */
	out->gpu_shared = inv->gpu_shared_names;
	out->gpu_shared_count = inv->gpu_shared_name_count;
	out->namespaces = p->namespaces;
	out->namespace_count = p->namespace_count;
	out->pod_selector = p->pod_selector;
	out->taint_key = site->gpu_taint.key;
	out->taint_value = site->gpu_taint.value ? site->gpu_taint.value : "";
	out->taint_effect = site->gpu_taint.effect;
	out->not_ready_seconds = p->not_ready_toleration_seconds;
	out->unreachable_seconds = p->unreachable_toleration_seconds;
	out->replace_not_ready =
		p->not_ready_toleration_seconds != RENDER_DEFAULT_TOLERATION_SECONDS;
	out->replace_unreachable =
		p->unreachable_toleration_seconds != RENDER_DEFAULT_TOLERATION_SECONDS;
	out->mode = require ? PLACE_REQUIRE_ONPREM : PLACE_PREFER_ONPREM;
	out->weight = p->weight;
	out->site_binding = p->site_binding;
	out->site = site->name;
	render_placement_affinity_add(out, "hybrid", RENDER_HYBRID_LABEL, "In", hybrid_values, 1,
				      require, p->weight);
	if (p->site_binding != BIND_NONE)
		render_placement_affinity_add(out, "site", INV_SITE_LABEL, "In", &site->name, 1,
					      p->site_binding == BIND_REQUIRED,
					      RENDER_SITE_PREFERENCE_WEIGHT);
}

void
render_placement_plan(struct render_placement_plan *out, struct arena *a,
		      const struct spec_site *site)
{
	const struct inventory *inv = inventory_site(a, site);

	plan_fill(out, site, inv, site->placement.mode == PLACE_REQUIRE_ONPREM);
	out->scope_noun = "placement";
	/* step 2b: the taints of the pools the placement scope launches from */
	out->pool_taint_count = inventory_scope_tolerations(inv, NULL, out->pool_taints);
	/* fallback work never lands on a pool of another scope (Spot),
	 * whatever the Pod tolerates itself (a catch-all toleration); hybrid
	 * nodes carry no pool label, so NotIn keeps them */
	if (inv->placement_exclude_count)
		render_placement_affinity_add(out, "pool", INV_POOL_LABEL, "NotIn",
					      inv->placement_excludes, inv->placement_exclude_count,
					      true, 0);
}

void
render_placement_pool_plan(struct render_placement_plan *out, struct arena *a,
			   const struct spec_site *site, const struct inv_pool *pool)
{
	const struct inv_scope *sc = pool->scope;
	const struct inventory *inv = inventory_site(a, site);

	/* on-prem first, then the pool: the hybrid nodes only preferred */
	plan_fill(out, site, inv, false);
	out->name = sc->policy_name;
	out->scope_noun = pool->noun;
	out->pool_scope = true;
	out->namespaces = sc->namespaces;
	out->namespace_count = sc->namespace_count;
	out->pod_selector = sc->pod_selector;
	out->pool_taint_count = inventory_scope_tolerations(inv, pool, out->pool_taints);
	render_placement_affinity_add(out, "pool", INV_POOL_LABEL, "NotIn", sc->excludes,
				      sc->exclude_count, true, 0);
}

size_t
render_placement_plans(struct render_placement_plan out[RENDER_PLANS_MAX], struct arena *a,
		       const struct spec_site *site)
{
	const struct inventory *inv = inventory_site(a, site);
	size_t n = 0;

	render_placement_plan(&out[n], a, site);
	out[n++].name = inventory_object(inv, INV_ROLE_PLACEMENT_POLICY)->name;
	for (size_t i = 0; i < inv->pool_count && n < RENDER_PLANS_MAX; i++)
		if (inv->pools[i].scope)
			render_placement_pool_plan(&out[n++], a, site, &inv->pools[i]);
	return n;
}

void
render_placement_affinity_add(struct render_placement_plan *plan, const char *what, const char *key,
			      const char *op, const char *const *values, size_t value_count,
			      bool required, int weight)
{
	if (plan->affinity_count < RENDER_AFFINITY_MAX)
		plan->affinity[plan->affinity_count++] =
			(struct render_affinity){ what,        key,      op,    values,
						  value_count, required, weight };
}

int
render_placement_each(struct render_ctx *ctx, const struct spec_site *site, enum spec_engine engine,
		      void (*one)(struct render_ctx *ctx, const struct spec_site *site,
				  const struct render_placement_plan *plan))
{
	struct render_placement_plan plans[RENDER_PLANS_MAX];
	size_t n;

	if (site->placement.engine != engine)
		return 0;
	n = render_placement_plans(plans, ctx->arena, site);
	for (size_t i = 0; i < n; i++)
		one(ctx, site, &plans[i]);
	return 0;
}

/* Label selector semantics of metav1.LabelSelector (k8s/k8s_selector.h). */
bool
render_selector_matches(const struct node *sel, const struct node *labels)
{
	return k8s_label_selector_matches(sel, labels);
}

const char *
render_placement_gpu_test(struct arena *a, const struct render_placement_plan *plan,
			  const struct render_gpu_syntax *syn)
{
	const char *t = "";

	for (size_t i = 0; i < k8s_gpu_resource_count + plan->gpu_shared_count; i++) {
		bool shared = i >= k8s_gpu_resource_count;
		const char *name = shared ? plan->gpu_shared[i - k8s_gpu_resource_count]
					  : k8s_gpu_resources[i].name;
		bool prefix = !shared && k8s_gpu_resources[i].prefix;

		t = arena_printf(a, "%s%s%s%s%s", t, i ? " || " : "",
				 prefix ? syn->prefix_pre : syn->exact_pre, syn->quote(a, name),
				 prefix ? syn->prefix_post : syn->exact_post);
	}
	return t;
}

bool
render_placement_applies(const struct render_placement_plan *plan, const struct node *pod,
			 const char *ns)
{
	bool ns_ok = plan->namespace_count == 0;

	for (size_t i = 0; i < plan->namespace_count; i++)
		if (ns && !strcmp(plan->namespaces[i], ns))
			ns_ok = true;
	if (!ns_ok)
		return false;
	if (!render_selector_matches(plan->pod_selector, node_path(pod, "metadata.labels")))
		return false;
	return k8s_gpu_pod(pod, plan->gpu_shared, plan->gpu_shared_count);
}

static void
patch_add(struct arena *a, struct render_patch *p, const char *op, const char *path,
	  struct node *value)
{
	ARENA_GROW(a, p->ops, p->count, p->alloc, 8);
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

/* The requirement of step 3's entry `r`. */
static struct node *
requirement(struct arena *a, const struct render_affinity *r)
{
	return render_requirement(a, r->key, r->op, r->values, r->value_count);
}

/* {matchExpressions: [r]}: a nodeSelectorTerm or a preference */
static struct node *
one_term(struct arena *a, const struct render_affinity *r)
{
	struct node *term = node_new_map(a, no_pos);
	struct node *exprs = node_map_add(a, term, "matchExpressions", node_new_seq(a, no_pos));

	node_seq_push(a, exprs, requirement(a, r));
	return term;
}

/* The preferred term of a preferred requirement. */
static struct node *
preferred_term(struct arena *a, const struct render_affinity *r)
{
	struct node *term = node_new_map(a, no_pos);

	node_map_add_int(a, term, "weight", r->weight);
	node_map_add(a, term, "preference", one_term(a, r));
	return term;
}

/* The required NodeSelector of a required requirement: one term. */
static struct node *
required_selector(struct arena *a, const struct render_affinity *r)
{
	struct node *req = node_new_map(a, no_pos);

	node_seq_push(a, node_map_add(a, req, "nodeSelectorTerms", node_new_seq(a, no_pos)),
		      one_term(a, r));
	return req;
}

/* The nodeAffinity value for a Pod without one. */
static struct node *
node_affinity(struct arena *a, const struct render_affinity *r)
{
	struct node *na = node_new_map(a, no_pos), *pref;

	if (r->required) {
		node_map_add(a, na, "requiredDuringSchedulingIgnoredDuringExecution",
			     required_selector(a, r));
	} else {
		pref = node_map_add(a, na, "preferredDuringSchedulingIgnoredDuringExecution",
				    node_new_seq(a, no_pos));
		node_seq_push(a, pref, preferred_term(a, r));
	}
	return na;
}

static const struct node *
seq_or_null(const struct node *n)
{
	return n && n->kind == NODE_SEQ ? n : NULL;
}

/* Whether requirement e is exactly r (key, operator, values in order). */
static bool
is_requirement(const struct node *e, const struct render_affinity *r)
{
	const struct node *vals = seq_or_null(node_map_get(e, "values"));

	if (strcmp(field(e, "key"), r->key) || strcmp(field(e, "operator"), r->op) || !vals ||
	    vals->seq.count != r->value_count)
		return false;
	for (size_t i = 0; i < r->value_count; i++)
		if (!node_str(vals->seq.items[i]) ||
		    strcmp(node_str(vals->seq.items[i]), r->values[i]))
			return false;
	return true;
}

/* Whether a preferred term is the one of r (any weight). */
static bool
is_preference(const struct node *p, const struct render_affinity *r)
{
	const struct node *pref = node_map_get(p, "preference");
	const struct node *me = seq_or_null(node_map_get(pref, "matchExpressions"));
	const struct node *mf = seq_or_null(node_map_get(pref, "matchFields"));

	return me && me->seq.count == 1 && (!mf || !mf->seq.count) &&
	       is_requirement(me->seq.items[0], r);
}

static bool
has_requirement(const struct node *exprs, const struct render_affinity *r)
{
	for (size_t i = 0; exprs && i < exprs->seq.count; i++)
		if (is_requirement(exprs->seq.items[i], r))
			return true;
	return false;
}

/* The toleration steps 2 and 2b add: key, Exists, the taint's effect;
 * `exact` (the site taint): key, Equal, the taint's value, so it
 * tolerates this site's taint and no other site's. */
static struct node *
toleration_of(struct arena *a, const struct k8s_taint *taint, bool exact)
{
	return render_toleration(a, taint->key, exact ? "Equal" : "Exists",
				 exact ? taint->value : NULL, taint->effect, -1);
}

/* Step 2 (or 2b) for `taint`: its toleration appended unless one the Pod
 * has (core/v1 ToleratesTaint) tolerates it; `*added` when a step before
 * created the list. */
static void
tolerate_step(struct arena *a, struct render_patch *out, bool *added, const struct node *tols,
	      const struct k8s_taint *taint, bool exact)
{
	struct node *list;

	if (k8s_tolerations_tolerate(tols, taint))
		return;
	if (tols || *added) {
		patch_add(a, out, "add", "/spec/tolerations/-", toleration_of(a, taint, exact));
		return;
	}
	list = node_new_seq(a, no_pos);
	node_seq_push(a, list, toleration_of(a, taint, exact));
	patch_add(a, out, "add", "/spec/tolerations", list);
	*added = true;
}

/*
 * The Pod's node affinity as step 3's requirements leave it: what it had
 * (pref, terms) and what the requirements before added.  Every requirement
 * of a plan has its own key, so one never finds another's expression.
 */
struct aff_state {
	bool aff, na, pref_list;
	const struct node *pref;  /* the Pod's preferred terms, or NULL */
	const struct node *terms; /* the Pod's required terms, NULL once replaced */
	size_t term_count;
	bool *term_exprs; /* per term: matchExpressions present */
};

static void
aff_state_init(struct arena *a, struct aff_state *st, const struct node *aff)
{
	const struct node *na = aff ? node_map_get(aff, "nodeAffinity") : NULL;

	if (na && na->kind != NODE_MAP)
		na = NULL;
	memset(st, 0, sizeof(*st));
	st->aff = aff != NULL;
	st->na = na != NULL;
	st->pref = seq_or_null(node_map_get(na, "preferredDuringSchedulingIgnoredDuringExecution"));
	st->pref_list = st->pref != NULL;
	st->terms = seq_or_null(
		node_path(na, "requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms"));
	st->term_count = st->terms ? st->terms->seq.count : 0;
	st->term_exprs = arena_alloc(a, (st->term_count + 1) * sizeof(*st->term_exprs));
	for (size_t i = 0; i < st->term_count; i++) {
		const struct node *me = node_map_get(st->terms->seq.items[i], "matchExpressions");

		st->term_exprs[i] = me && !node_is_null(me);
	}
}

/* One preferred requirement of step 3. */
static void
affinity_preferred(struct arena *a, struct render_patch *out, struct aff_state *st,
		   const struct render_affinity *r)
{
	for (size_t i = 0; st->pref && i < st->pref->seq.count; i++)
		if (is_preference(st->pref->seq.items[i], r))
			return;
	if (!st->na) {
		patch_add(a, out, "add", PATH_NA, node_affinity(a, r));
		st->na = st->pref_list = true;
	} else if (st->pref_list) {
		patch_add(a, out, "add", PATH_PREF "/-", preferred_term(a, r));
	} else {
		struct node *list = node_new_seq(a, no_pos);

		node_seq_push(a, list, preferred_term(a, r));
		patch_add(a, out, "add", PATH_PREF, list);
		st->pref_list = true;
	}
}

/* One required requirement of step 3. */
static void
affinity_required(struct arena *a, struct render_patch *out, struct aff_state *st,
		  const struct render_affinity *r)
{
	if (!st->na || !st->term_count) {
		if (!st->na)
			patch_add(a, out, "add", PATH_NA, node_affinity(a, r));
		else
			patch_add(a, out, "add", PATH_REQ, required_selector(a, r));
		st->na = true;
		st->terms = NULL;
		st->term_count = 1;
		st->term_exprs[0] = true;
		return;
	}
	for (size_t i = 0; i < st->term_count; i++) {
		const struct node *me =
			st->terms ? node_map_get(st->terms->seq.items[i], "matchExpressions")
				  : NULL;
		struct node *list;

		if (has_requirement(seq_or_null(me), r))
			continue;
		if (st->term_exprs[i]) {
			patch_add(a, out, "add",
				  arena_printf(a,
					       PATH_REQ "/nodeSelectorTerms/%zu/matchExpressions/-",
					       i),
				  requirement(a, r));
			continue;
		}
		list = node_new_seq(a, no_pos);
		node_seq_push(a, list, requirement(a, r));
		patch_add(a, out, "add",
			  arena_printf(a, PATH_REQ "/nodeSelectorTerms/%zu/matchExpressions", i),
			  list);
		st->term_exprs[i] = true;
	}
}

/* Step 3 (render.h): the patches that append each requirement in turn. */
static void
placement_affinity(struct arena *a, struct render_patch *out,
		   const struct render_placement_plan *plan, const struct node *aff)
{
	struct aff_state st;

	aff_state_init(a, &st, aff);
	for (size_t k = 0; k < plan->affinity_count; k++) {
		const struct render_affinity *r = &plan->affinity[k];

		/* without spec.affinity, every requirement adds something */
		if (!st.aff)
			patch_add(a, out, "add", "/spec/affinity", node_new_map(a, no_pos));
		st.aff = true;
		if (r->required)
			affinity_required(a, out, &st, r);
		else
			affinity_preferred(a, out, &st, r);
	}
}

int
render_placement_patches(struct render_patch *out, struct arena *a,
			 const struct render_placement_plan *plan, const struct node *pod,
			 const char *ns)
{
	const struct node *tols = node_path(pod, "spec.tolerations");
	const struct node *aff = node_path(pod, "spec.affinity");
	bool tols_added = false;

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

	/* step 2: the GPU toleration unless the taint is tolerated already;
	 * step 2b: the pool taint's the same way */
	tolerate_step(a, out, &tols_added, tols,
		      &(struct k8s_taint){ plan->taint_key, plan->taint_value, plan->taint_effect },
		      false);
	for (size_t t = 0; t < plan->pool_taint_count; t++) {
		const struct spec_taint *pt = plan->pool_taints[t].taint;

		tolerate_step(a, out, &tols_added, tols,
			      &(struct k8s_taint){ pt->key, pt->value, pt->effect },
			      plan->pool_taints[t].exact);
	}

	/* step 3: node affinity appended to what the Pod has */
	placement_affinity(a, out, plan, aff);
	return 0;
}

/* Exposed to the engine files through render_placement.h. */
struct node *
render_placement_requirement(struct arena *a, const struct render_affinity *r)
{
	return requirement(a, r);
}

struct node *
render_placement_node_affinity(struct arena *a, const struct render_affinity *r)
{
	return node_affinity(a, r);
}

struct node *
render_placement_namespace_selector(struct arena *a, const struct render_placement_plan *plan)
{
	struct node *sel, *exprs;

	if (!plan->namespace_count)
		return NULL;
	sel = node_new_map(a, no_pos);
	exprs = node_map_add(a, sel, "matchExpressions", node_new_seq(a, no_pos));
	/* Every namespace carries its name as this label. */
	node_seq_push(a, exprs,
		      render_requirement(a, "kubernetes.io/metadata.name", "In", plan->namespaces,
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

/* CEL: Object.<path>{...} for the toleration of step 2 (or 2b). */
static const char *
cel_toleration(struct arena *a, const struct k8s_taint *t, bool exact)
{
	if (exact)
		return arena_printf(a,
				    "Object.spec.tolerations{key: %s, operator: \"Equal\","
				    " value: %s, effect: %s}",
				    render_quote(a, t->key), render_quote(a, t->value),
				    render_quote(a, t->effect));
	return arena_printf(a,
			    "Object.spec.tolerations{key: %s, operator: \"Exists\","
			    " effect: %s}",
			    render_quote(a, t->key), render_quote(a, t->effect));
}

/* CEL: the JSON patch of step 2 (or 2b) for taint t. */
static const char *
cel_toleration_patch(struct arena *a, const struct k8s_taint *t, bool exact)
{
	return arena_printf(a,
			    "object.spec.?tolerations.orValue([]).exists(t,\n"
			    "  (t.?key.orValue(\"\") == %s ||\n"
			    "    (t.?key.orValue(\"\") == \"\" && "
			    "t.?operator.orValue(\"\") == \"Exists\")) &&\n"
			    "  (t.?operator.orValue(\"\") == \"Exists\" || "
			    "t.?value.orValue(\"\") == %s) &&\n"
			    "  (t.?effect.orValue(\"\") == \"\" || t.?effect.orValue(\"\") "
			    "== %s)) ? [] :\n"
			    "has(object.spec.tolerations) ?\n"
			    "  [JSONPatch{op: \"add\", path: \"/spec/tolerations/-\",\n"
			    "    value: %s}] :\n"
			    "  [JSONPatch{op: \"add\", path: \"/spec/tolerations\",\n"
			    "    value: [%s]}]",
			    render_quote(a, t->key), render_quote(a, t->value),
			    render_quote(a, t->effect), cel_toleration(a, t, exact),
			    cel_toleration(a, t, exact));
}

/* CEL: the values of r as a list literal. */
static const char *
cel_values(struct arena *a, const struct render_affinity *r)
{
	const char *v = "";

	for (size_t i = 0; i < r->value_count; i++)
		v = arena_printf(a, "%s%s%s", v, i ? ", " : "", render_quote(a, r->values[i]));
	return arena_printf(a, "[%s]", v);
}

/* CEL: the requirement r as a typed constructor of `type`. */
static const char *
cel_req_expr(struct arena *a, const char *type, const struct render_affinity *r)
{
	return arena_printf(a, "%s{\n      key: %s, operator: %s, values: %s}", type,
			    render_quote(a, r->key), render_quote(a, r->op), cel_values(a, r));
}

/* CEL: whether requirement `e` is r. */
static const char *
cel_is_req(struct arena *a, const char *e, const struct render_affinity *r)
{
	return arena_printf(a,
			    "%s.key == %s && %s.operator == %s &&\n"
			    "    %s.?values.orValue([]) == %s",
			    e, render_quote(a, r->key), e, render_quote(a, r->op), e,
			    cel_values(a, r));
}

#define CEL_NA "Object.spec.affinity.nodeAffinity"
#define CEL_PREF CEL_NA ".preferredDuringSchedulingIgnoredDuringExecution"
#define CEL_REQ CEL_NA ".requiredDuringSchedulingIgnoredDuringExecution"
#define CEL_POD_NA "object.spec.affinity.nodeAffinity"
#define CEL_POD_TERMS CEL_POD_NA ".requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms"
#define CEL_PARENTS                                                                                \
	"(has(object.spec.affinity) ? [] :\n"                                                      \
	"  [JSONPatch{op: \"add\", path: \"/spec/affinity\", value: "                              \
	"Object.spec.affinity{}}]) +\n"

/*
 * CEL: the JSON patches of one required requirement of step 3: ANDed into
 * every required term that lacks it, or the one term added.  Only the
 * missing path pieces are created; no list is replaced.
 */
static const char *
cel_required_patches(struct arena *a, const struct render_affinity *r)
{
	const char *expr = cel_req_expr(a, CEL_REQ ".nodeSelectorTerms.matchExpressions", r);
	const char *req =
		arena_printf(a,
			     CEL_REQ "{\n"
				     "    nodeSelectorTerms: [" CEL_REQ ".nodeSelectorTerms{\n"
				     "      matchExpressions: [%s]}]}",
			     expr);

	return arena_printf(a,
			    CEL_PARENTS
			    "(!object.spec.?affinity.?nodeAffinity.hasValue() ?\n"
			    "  [JSONPatch{op: \"add\", path: \"" PATH_NA "\", value: " CEL_NA "{\n"
			    "    requiredDuringSchedulingIgnoredDuringExecution: %s}}] :\n"
			    " size(" CEL_POD_NA ".?requiredDuringSchedulingIgnoredDuringExecution.?"
			    "nodeSelectorTerms.orValue([])) == 0 ?\n"
			    "  [JSONPatch{op: \"add\", path: \"" PATH_REQ "\", value: %s}] :\n"
			    "  lists.range(size(" CEL_POD_TERMS ")).filter(i,\n"
			    "    !" CEL_POD_TERMS "[i].?matchExpressions.orValue([]).exists(e,\n"
			    "      %s)\n"
			    "  ).map(i, " CEL_POD_TERMS "[i].?matchExpressions.hasValue() ?\n"
			    "    JSONPatch{op: \"add\", path: \"" PATH_REQ
			    "/nodeSelectorTerms/\" + string(i) + \"/matchExpressions/-\",\n"
			    "      value: %s} :\n"
			    "    JSONPatch{op: \"add\", path: \"" PATH_REQ
			    "/nodeSelectorTerms/\" + string(i) + \"/matchExpressions\",\n"
			    "      value: [%s]}))",
			    req, req, cel_is_req(a, "e", r), expr, expr);
}

/* CEL: the JSON patches of one preferred requirement of step 3: its term
 * appended unless the Pod has it (any weight). */
static const char *
cel_preferred_patches(struct arena *a, const struct render_affinity *r)
{
	const char *term = arena_printf(
		a,
		CEL_PREF "{\n"
			 "    weight: %d,\n"
			 "    preference: " CEL_PREF ".preference{\n"
			 "      matchExpressions: [%s]}}",
		r->weight, cel_req_expr(a, CEL_PREF ".preference.matchExpressions", r));

	return arena_printf(
		a,
		"object.spec.?affinity.?nodeAffinity.?"
		"preferredDuringSchedulingIgnoredDuringExecution.orValue([]).exists(p,\n"
		"  size(p.?preference.?matchExpressions.orValue([])) == 1 &&\n"
		"  size(p.?preference.?matchFields.orValue([])) == 0 &&\n"
		"  %s) ? [] :\n" CEL_PARENTS "(!object.spec.?affinity.?nodeAffinity.hasValue() ?\n"
		"  [JSONPatch{op: \"add\", path: \"" PATH_NA "\", value: " CEL_NA "{\n"
		"    preferredDuringSchedulingIgnoredDuringExecution: [%s]}}] :\n"
		" has(" CEL_POD_NA ".preferredDuringSchedulingIgnoredDuringExecution) ?\n"
		"  [JSONPatch{op: \"add\", path: \"" PATH_PREF "/-\", value: %s}] :\n"
		"  [JSONPatch{op: \"add\", path: \"" PATH_PREF "\", value: [%s]}])",
		cel_is_req(a, "p.preference.matchExpressions[0]", r), term, term, term);
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
	node_map_add_str(a, node_map_add(a, m, "jsonPatch", node_new_map(a, no_pos)), "expression",
			 expr);
	node_seq_push(a, seq, m);
}

/* CEL: whether the containers of list `list` (a field of object.spec)
 * name a GPU resource (`test`, over resource name r). */
static const char *
cel_containers_ask(struct arena *a, const char *list, const char *test)
{
	return arena_printf(a,
			    "object.spec.%s.exists(c, has(c.resources) && (\n"
			    "    (has(c.resources.limits) && c.resources.limits.exists(r,\n"
			    "      %s)) ||\n"
			    "    (has(c.resources.requests) && c.resources.requests.exists(r,\n"
			    "      %s))))",
			    list, test, test);
}

/* CEL: the match condition of a GPU Pod (k8s/k8s_gpu.h). */
static const char *
cel_gpu_pod(struct arena *a, const struct render_placement_plan *plan)
{
	static const struct render_gpu_syntax cel = { render_quote, "r == ", "", "r.startsWith(",
						      ")" };
	const char *test = render_placement_gpu_test(a, plan, &cel);

	/* spec.ephemeralContainers have no resources: nothing to look at */
	return arena_printf(
		a,
		"%s ||\n"
		"(has(object.spec.initContainers) &&\n"
		"  %s) ||\n"
		"(has(object.spec.resourceClaims) && size(object.spec.resourceClaims) > 0)",
		cel_containers_ask(a, "containers", test),
		cel_containers_ask(a, "initContainers", test));
}

void
render_placement_cel(struct arena *a, struct node *spec, const struct render_placement_plan *plan)
{
	struct node *conds, *muts;

	conds = node_map_add(a, spec, "matchConditions", node_new_seq(a, no_pos));
	add_named(a, conds, "gpu-pod", cel_gpu_pod(a, plan));

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
		add_json_patch(
			a, muts,
			arena_printf(a,
				     "lists.range(size(object.spec.?tolerations.orValue([])))."
				     "filter(i,\n"
				     "  object.spec.tolerations[i].?key.orValue(\"\") in "
				     "variables.evictionSeconds &&\n"
				     "  object.spec.tolerations[i].?operator.orValue(\"\") == "
				     "\"Exists\" &&\n"
				     "  object.spec.tolerations[i].?effect.orValue(\"\") == "
				     "\"NoExecute\" &&\n"
				     "  object.spec.tolerations[i].?tolerationSeconds.orValue(-1) "
				     "== %d\n"
				     ").map(i, JSONPatch{op: \"replace\",\n"
				     "  path: \"/spec/tolerations/\" + string(i) + "
				     "\"/tolerationSeconds\",\n"
				     "  value: "
				     "variables.evictionSeconds[object.spec.tolerations[i].key]})",
				     RENDER_DEFAULT_TOLERATION_SECONDS));

	add_json_patch(a, muts,
		       cel_toleration_patch(a,
					    &(struct k8s_taint){ plan->taint_key, plan->taint_value,
								 plan->taint_effect },
					    false));
	for (size_t t = 0; t < plan->pool_taint_count; t++) {
		const struct spec_taint *pt = plan->pool_taints[t].taint;

		add_json_patch(a, muts,
			       cel_toleration_patch(
				       a, &(struct k8s_taint){ pt->key, pt->value, pt->effect },
				       plan->pool_taints[t].exact));
	}

	for (size_t k = 0; k < plan->affinity_count; k++)
		add_json_patch(a, muts,
			       plan->affinity[k].required
				       ? cel_required_patches(a, &plan->affinity[k])
				       : cel_preferred_patches(a, &plan->affinity[k]));
}

/* What the site binding adds, for a purpose line. */
static const char *
binding_purpose(const struct render_placement_plan *plan)
{
	return plan->site_binding == BIND_REQUIRED    ? "; only the site's own nodes"
	       : plan->site_binding == BIND_PREFERRED ? "; the site's own nodes first"
						      : "";
}

/* The gpusite.io/pool values a plan keeps its Pods off, "a or b", or
 * NULL when it keeps them off none. */
static const char *
pools_off(struct arena *a, const struct render_placement_plan *plan)
{
	for (size_t k = 0; k < plan->affinity_count; k++)
		if (!strcmp(plan->affinity[k].key, INV_POOL_LABEL)) {
			const struct render_affinity *f = &plan->affinity[k];
			const char *list = f->value_count ? f->values[0] : "";

			for (size_t i = 1; i < f->value_count; i++)
				list = arena_printf(a, "%s or %s", list, f->values[i]);
			return list;
		}
	return NULL;
}

const char *
render_placement_purpose(struct arena *a, const struct render_placement_plan *plan)
{
	const char *off = pools_off(a, plan);
	const char *tols = "GPU";

	for (size_t t = 0; t < plan->pool_taint_count; t++)
		tols = arena_printf(a, "%s%s%s", tols,
				    t + 1 < plan->pool_taint_count ? ", " : " and ",
				    plan->pool_taints[t].noun);
	tols = arena_printf(a, "%s %s", tols,
			    plan->pool_taint_count ? "taint tolerations" : "toleration");
	if (plan->pool_scope)
		return arena_printf(a,
				    "adds to GPU Pods in the %s namespaces the %s, a preferred"
				    " affinity to hybrid nodes and"
				    " a required one to every pool but the %s (on-prem"
				    " first, then the %s pool, never the %s%s)",
				    plan->scope_noun, tols, off ? off : "", plan->scope_noun,
				    off ? off : "", binding_purpose(plan));
	const char *bind = binding_purpose(plan);

	return arena_printf(a,
			    "adds to GPU Pods in %s the %s%s and a %s"
			    " affinity to hybrid nodes (%s%s%s%s%s)",
			    plan->namespace_count ? "the placement namespaces" : "every namespace",
			    tols,
			    plan->replace_not_ready || plan->replace_unreachable
				    ? ", the eviction toleration seconds"
				    : "",
			    plan->mode == PLACE_REQUIRE_ONPREM ? "required" : "preferred",
			    plan->mode == PLACE_REQUIRE_ONPREM ? "on-prem only"
							       : "on-prem first, cloud fallback",
			    bind, off ? "; never the " : "", off ? off : "", off ? " pool" : "");
}
