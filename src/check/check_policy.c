/*
 * check_policy.c - the placement policies as Kyverno and the API server
 * judge them (docs/design/upstream.md, "Admission policies"):
 *   - MutatingPolicy (policies.kyverno.io) and MutatingAdmissionPolicy
 *     (admissionregistration.k8s.io): mutations with a patch type and the
 *     matching expression; ApplyConfiguration may not touch atomic lists
 *     (tolerations, node affinity terms); only CREATE, UPDATE, CONNECT are
 *     matchable; matchConditions at most 64 with unique names; Pod affinity
 *     is immutable, so an affinity patch must not run on UPDATE; a JSON
 *     patch Pod policy needs pod-controller autogen off (its paths are not
 *     rewritten); a MutatingAdmissionPolicy needs reinvocationPolicy.
 *   - ClusterPolicy (kyverno.io/v1): patchesJson6902 is a list of RFC 6902
 *     operations; a strategic-merge patch replaces atomic lists
 *     (tolerations, node affinity terms) whole unless a +() anchor guards
 *     them; rule names are unique; autogen of Pod rules.
 */
#include <string.h>

#include "base/arena.h"
#include "check/check_int.h"
#include "yamlio/yamlio.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static bool
contains_any(const char *s, const char *const *words, size_t n)
{
	for (size_t i = 0; s && i < n; i++)
		if (strstr(s, words[i]))
			return true;
	return false;
}

static const char *const atomic_fields[] = {
	"tolerations",
	"affinity",
	"nodeSelectorTerms",
	"preferredDuringSchedulingIgnoredDuringExecution",
	"requiredDuringSchedulingIgnoredDuringExecution",
};

/* Does the operation list match UPDATE (an absent list: every operation)? */
static bool
ops_include_update(const struct node *ops)
{
	if (!ops || node_is_null(ops))
		return true;
	for (size_t i = 0; i < check_seq_count(ops); i++) {
		const char *o = check_text(ops->seq.items[i]);

		if (o && (!strcmp(o, "UPDATE") || !strcmp(o, "*")))
			return true;
	}
	return false;
}

/* matchConstraints of MutatingPolicy and MutatingAdmissionPolicy. */
static void
match_constraints(struct check_ctx *c, const struct node *spec, bool required,
		  bool patches_affinity, bool *single_pods_rule)
{
	const struct node *mc = node_map_get(spec, "matchConstraints");
	const struct node *rules = node_map_get(mc, "resourceRules");
	const struct node *conds = node_map_get(spec, "matchConditions");
	static const char *const ok_ops[] = { "CREATE", "UPDATE", "CONNECT", "*" };

	*single_pods_rule = false;
	if (!mc || node_is_null(mc)) {
		if (required)
			check_report(c, CHECK_POL_MATCH, spec, "spec.matchConstraints",
				     "matchConstraints is required: the API server rejects a "
				     "policy that does not say what it matches");
		return;
	}
	for (size_t i = 0; i < check_seq_count(rules); i++) {
		const struct node *r = rules->seq.items[i];
		const struct node *ops = node_map_get(r, "operations");
		const char *path = check_index(c, "spec.matchConstraints.resourceRules", i);
		const struct node *res = node_map_get(r, "resources");

		for (size_t k = 0; k < check_seq_count(ops); k++) {
			const char *o = check_text(ops->seq.items[k]);
			bool ok = false;

			for (size_t m = 0; o && m < COUNT(ok_ops); m++)
				ok = ok || !strcmp(o, ok_ops[m]);
			if (!ok)
				check_report(c, CHECK_POL_MATCH, ops->seq.items[k],
					     check_index(c, check_path(c, path, "operations"), k),
					     "operation \"%s\" cannot be matched by a mutating "
					     "policy: use CREATE, UPDATE, CONNECT or *",
					     o ? o : "");
		}
		if (patches_affinity && ops_include_update(ops))
			check_report(
				c, CHECK_POL_MATCH, ops ? ops : r,
				check_path(c, path, "operations"),
				"the policy patches spec.affinity but also matches UPDATE: a Pod's "
				"affinity is immutable after creation, so the API server rejects "
				"every update the policy touches; match CREATE only");
		if (check_seq_count(rules) == 1 && check_seq_count(res) == 1) {
			const char *rs = check_text(res->seq.items[0]);

			*single_pods_rule = rs && !strcmp(rs, "pods");
		}
	}
	if (check_seq_count(conds) > 64)
		check_report(c, CHECK_POL_MATCH, conds, "spec.matchConditions",
			     "%zu matchConditions: at most 64 are allowed", check_seq_count(conds));
	for (size_t i = 0; i < check_seq_count(conds); i++) {
		const struct node *m = conds->seq.items[i];
		const char *name = check_text(node_map_get(m, "name"));
		const char *expr = check_text(node_map_get(m, "expression"));
		const char *path = check_index(c, "spec.matchConditions", i);

		if (!name || check_qualified_name(name) < 0)
			check_report(c, CHECK_POL_MATCH, m, check_path(c, path, "name"),
				     "matchCondition name \"%s\" is not a qualified name",
				     name ? name : "");
		for (size_t k = 0; name && k < i; k++) {
			const char *o = check_text(node_map_get(conds->seq.items[k], "name"));

			if (o && !strcmp(o, name))
				check_report(c, CHECK_POL_MATCH, m, check_path(c, path, "name"),
					     "matchCondition name \"%s\" is used twice: names must "
					     "be unique",
					     name);
		}
		if (!expr || !*expr)
			check_report(c, CHECK_POL_MATCH, m, check_path(c, path, "expression"),
				     "matchCondition \"%s\" has no expression", name ? name : "");
	}
}

/* mutations[]; returns whether any touches spec.affinity, and whether any is a JSON patch. */
static void
mutations(struct check_ctx *c, const struct node *spec, bool *affinity, bool *json_patch)
{
	const struct node *muts = node_map_get(spec, "mutations");
	const struct node *ssa = node_path(spec, "evaluation.useServerSideApply");

	*affinity = *json_patch = false;
	if (!check_seq_count(muts))
		check_report(c, CHECK_POL_MUTATION, muts ? muts : spec, "spec.mutations",
			     "the policy has no mutations: it changes nothing (the API server "
			     "wants at least one)");
	for (size_t i = 0; i < check_seq_count(muts); i++) {
		const struct node *m = muts->seq.items[i];
		const char *type = check_text(node_map_get(m, "patchType"));
		const char *path = check_index(c, "spec.mutations", i);
		const char *jp = check_text(node_path(m, "jsonPatch.expression"));
		const char *ac = check_text(node_path(m, "applyConfiguration.expression"));
		const char *expr = NULL;

		if (!type || (strcmp(type, "JSONPatch") && strcmp(type, "ApplyConfiguration"))) {
			check_report(c, CHECK_POL_MUTATION, m, check_path(c, path, "patchType"),
				     "patchType \"%s\" is not JSONPatch or ApplyConfiguration",
				     type ? type : "");
			continue;
		}
		if (!strcmp(type, "JSONPatch")) {
			*json_patch = true;
			expr = jp;
			if (!jp || !*jp)
				check_report(c, CHECK_POL_MUTATION, m,
					     check_path(c, path, "jsonPatch.expression"),
					     "patchType JSONPatch needs jsonPatch.expression");
			if (node_map_get(m, "applyConfiguration"))
				check_report(c, CHECK_POL_MUTATION, m,
					     check_path(c, path, "applyConfiguration"),
					     "patchType JSONPatch with an applyConfiguration: the "
					     "API server allows only the one the patch type names");
		} else {
			expr = ac;
			if (!ac || !*ac)
				check_report(c, CHECK_POL_MUTATION, m,
					     check_path(c, path, "applyConfiguration.expression"),
					     "patchType ApplyConfiguration needs "
					     "applyConfiguration.expression");
			if (node_map_get(m, "jsonPatch"))
				check_report(c, CHECK_POL_MUTATION, m,
					     check_path(c, path, "jsonPatch"),
					     "patchType ApplyConfiguration with a jsonPatch: the "
					     "API server allows only the one the patch type names");
			if (contains_any(ac, atomic_fields, COUNT(atomic_fields)) &&
			    !(node_is_bool(ssa) && ssa->scalar.i))
				check_report(
					c, CHECK_POL_MUTATION, m,
					check_path(c, path, "applyConfiguration.expression"),
					"an apply configuration that sets tolerations or node "
					"affinity is rejected (\"may not mutate atomic arrays, "
					"maps or structs\"): write it as a JSONPatch that appends");
		}
		if (expr && (strstr(expr, "/spec/affinity") || strstr(expr, "affinity:")))
			*affinity = true;
	}
}

void
check_mutatingpolicy(struct check_ctx *c)
{
	const struct node *spec = node_map_get(c->obj, "spec");
	const struct node *ctrl = node_path(spec, "autogen.podControllers.controllers");
	bool affinity, json_patch, pods_only;

	mutations(c, spec, &affinity, &json_patch);
	match_constraints(c, spec, false, affinity, &pods_only);
	/* autogen copies a single-"pods" policy to controllers, rewriting
	 * matchConditions and apply configurations but not JSON patch paths */
	if (json_patch && pods_only && !(ctrl && ctrl->kind == NODE_SEQ && ctrl->seq.count == 0))
		check_report(c, CHECK_POL_AUTOGEN, spec, "spec.autogen.podControllers.controllers",
			     "a JSONPatch policy on pods with pod-controller autogen on: Kyverno "
			     "copies it to Deployments, Jobs and the rest without rewriting the "
			     "/spec/... paths, so the copies patch the wrong place; set "
			     "autogen.podControllers.controllers: []");
}

void
check_admissionpolicy(struct check_ctx *c)
{
	const struct node *spec = node_map_get(c->obj, "spec");
	const struct node *rp = node_map_get(spec, "reinvocationPolicy");
	const char *r = check_text(rp);
	bool affinity, json_patch, pods_only;

	mutations(c, spec, &affinity, &json_patch);
	match_constraints(c, spec, true, affinity, &pods_only);
	if (!r || (strcmp(r, "Never") && strcmp(r, "IfNeeded")))
		check_report(c, CHECK_POL_MUTATION, rp ? rp : spec, "spec.reinvocationPolicy",
			     "reinvocationPolicy %s%s%s: the API server requires Never or IfNeeded",
			     r ? "\"" : "is missing", r ? r : "", r ? "\" is not valid" : "");
}

/* ClusterPolicy --------------------------------------------------------- */

static void
json6902(struct check_ctx *c, const struct node *patch, const char *path)
{
	static const char *const ops[] = { "add", "remove", "replace", "move", "copy", "test" };
	const char *text = node_str(patch);
	struct yamlio_docs docs;
	const struct node *list;
	size_t before = c->d->count;

	if (!text) {
		check_report(c, CHECK_POL_JSONPATCH, patch, path,
			     "patchesJson6902 must be a string holding a YAML or JSON list of "
			     "operations");
		return;
	}
	if (yamlio_load(&docs, c->a, c->d, patch->at.file, text, strlen(text), NULL) < 0 ||
	    docs.count != 1 || docs.docs[0]->kind != NODE_SEQ) {
		/* the parser's diagnostics are inside the string: point at it */
		for (size_t j = before; j < c->d->count; j++)
			c->d->items[j].at = patch->at;
		check_report(c, CHECK_POL_JSONPATCH, patch, path,
			     "patchesJson6902 is not a list of JSON patch operations");
		return;
	}
	list = docs.docs[0];
	for (size_t i = 0; i < list->seq.count; i++) {
		const struct node *op = list->seq.items[i];
		const char *o = check_text(node_map_get(op, "op"));
		const char *p = check_text(node_map_get(op, "path"));
		const char *from = check_text(node_map_get(op, "from"));
		bool known = false;

		for (size_t k = 0; o && k < COUNT(ops); k++)
			known = known || !strcmp(o, ops[k]);
		if (!known) {
			check_report(c, CHECK_POL_JSONPATCH, patch, path,
				     "patch operation %zu: op \"%s\" is not add, remove, replace, "
				     "move, copy or test",
				     i, o ? o : "");
			continue;
		}
		if (!p || (*p && *p != '/'))
			check_report(c, CHECK_POL_JSONPATCH, patch, path,
				     "patch operation %zu (%s): path \"%s\" is not a JSON pointer",
				     i, o, p ? p : "");
		if ((!strcmp(o, "add") || !strcmp(o, "replace") || !strcmp(o, "test")) &&
		    !node_map_get(op, "value"))
			check_report(c, CHECK_POL_JSONPATCH, patch, path,
				     "patch operation %zu (%s %s) has no value", i, o, p ? p : "");
		if ((!strcmp(o, "move") || !strcmp(o, "copy")) &&
		    (!from || (*from && *from != '/')))
			check_report(c, CHECK_POL_JSONPATCH, patch, path,
				     "patch operation %zu (%s) needs from, a JSON pointer", i, o);
	}
}

/* A strategic-merge overlay: lists there replace the Pod's lists whole. */
static void
smp_walk(struct check_ctx *c, const struct node *n, const char *path, bool anchored, int depth)
{
	if (!n || n->kind != NODE_MAP || depth > 32)
		return;
	for (size_t i = 0; i < n->map.count; i++) {
		const char *k = node_text(n->map.pairs[i].key);
		const struct node *v = n->map.pairs[i].value;
		bool anchor = !strncmp(k, "+(", 2);
		const char *bare =
			anchor ? arena_strndup(c->a, k + 2, strlen(k) > 3 ? strlen(k) - 3 : 0) : k;
		const char *sub = check_path(c, path, k);

		if (!strcmp(bare, "tolerations") && v && v->kind == NODE_SEQ) {
			if (anchor)
				check_report(c, CHECK_POL_ANCHOR, n->map.pairs[i].key, sub,
					     "+(tolerations) never fires: DefaultTolerationSeconds "
					     "has always added a list by the time the webhook "
					     "runs; append with patchesJson6902");
			else if (!anchored)
				check_report(
					c, CHECK_POL_JSONPATCH, n->map.pairs[i].key, sub,
					"a strategic-merge patch of tolerations replaces the Pod's "
					"whole list (spec.tolerations has no merge key): the "
					"user's tolerations and the default not-ready/unreachable "
					"ones are lost; append with patchesJson6902");
			continue;
		}
		if (v && v->kind == NODE_SEQ && !anchor && !anchored &&
		    (!strcmp(bare, "nodeSelectorTerms") ||
		     !strcmp(bare, "preferredDuringSchedulingIgnoredDuringExecution")))
			check_report(
				c, CHECK_POL_JSONPATCH, n->map.pairs[i].key, sub,
				"a strategic-merge patch of %s replaces the Pod's own list (it is "
				"atomic); guard it with a +() anchor or use patchesJson6902",
				bare);
		smp_walk(c, v, sub, anchored || anchor, depth + 1);
	}
}

static bool
rule_pods_only(const struct node *rule, const struct node **ops_out)
{
	static const char *const blocks[] = { "any", "all" };
	const struct node *match = node_map_get(rule, "match");
	bool pods = false, other = false;

	*ops_out = NULL;
	for (size_t b = 0; b < COUNT(blocks); b++) {
		const struct node *list = node_map_get(match, blocks[b]);

		for (size_t i = 0; i < check_seq_count(list); i++) {
			const struct node *res = node_map_get(list->seq.items[i], "resources");
			const struct node *kinds = node_map_get(res, "kinds");

			if (!*ops_out)
				*ops_out = node_map_get(res, "operations");
			for (size_t k = 0; k < check_seq_count(kinds); k++) {
				const char *kind = check_text(kinds->seq.items[k]);

				if (kind && (!strcmp(kind, "Pod") || !strcmp(kind, "v1/Pod")))
					pods = true;
				else
					other = true;
			}
		}
	}
	if (node_map_get(match, "resources")) {
		const struct node *kinds = node_path(match, "resources.kinds");

		*ops_out = node_path(match, "resources.operations");
		for (size_t k = 0; k < check_seq_count(kinds); k++) {
			const char *kind = check_text(kinds->seq.items[k]);

			if (kind && !strcmp(kind, "Pod"))
				pods = true;
			else
				other = true;
		}
	}
	return pods && !other;
}

void
check_clusterpolicy(struct check_ctx *c)
{
	const struct node *rules = node_path(c->obj, "spec.rules");
	const char *autogen =
		check_text(node_map_get(node_path(c->obj, "metadata.annotations"),
					"pod-policies.kyverno.io/autogen-controllers"));

	for (size_t i = 0; i < check_seq_count(rules); i++) {
		const struct node *r = rules->seq.items[i];
		const char *path = check_index(c, "spec.rules", i);
		const char *name = check_text(node_map_get(r, "name"));
		const struct node *jp = node_path(r, "mutate.patchesJson6902");
		const struct node *smp = node_path(r, "mutate.patchStrategicMerge");
		const struct node *ops;
		bool pods_only = rule_pods_only(r, &ops);
		bool affinity = false;

		for (size_t k = 0; name && k < i; k++) {
			const char *o = check_text(node_map_get(rules->seq.items[k], "name"));

			if (o && !strcmp(o, name))
				check_report(c, CHECK_POL_JSONPATCH, r, check_path(c, path, "name"),
					     "rule name \"%s\" is used twice: Kyverno requires "
					     "unique rule names",
					     name);
		}
		if (jp) {
			json6902(c, jp, check_path(c, path, "mutate.patchesJson6902"));
			affinity = node_str(jp) && strstr(node_str(jp), "/spec/affinity");
		}
		for (size_t k = 0; k < check_seq_count(node_path(r, "mutate.foreach")); k++) {
			const struct node *fe = node_path(r, "mutate.foreach")->seq.items[k];
			const struct node *fjp = node_map_get(fe, "patchesJson6902");

			if (!fjp)
				continue;
			json6902(
				c, fjp,
				check_path(c,
					   check_index(c, check_path(c, path, "mutate.foreach"), k),
					   "patchesJson6902"));
			affinity = affinity ||
				   (node_str(fjp) && strstr(node_str(fjp), "/spec/affinity"));
		}
		if (smp) {
			smp_walk(c, smp, check_path(c, path, "mutate.patchStrategicMerge"), false,
				 0);
			affinity = affinity || node_path(smp, "spec.affinity") ||
				   node_map_get(node_map_get(smp, "spec"), "+(affinity)");
			if (pods_only && !(autogen && !strcmp(autogen, "none")))
				check_report(c, CHECK_POL_AUTOGEN_SMP, r, path,
					     "rule \"%s\" mutates Pods with a strategic-merge "
					     "patch and autogen is on: Kyverno copies it onto "
					     "Deployments, StatefulSets and Jobs, which Argo CD "
					     "then shows as changed; annotate the policy "
					     "pod-policies.kyverno.io/autogen-controllers: none",
					     name ? name : "");
		}
		if (affinity && ops_include_update(ops))
			check_report(
				c, CHECK_POL_MATCH, ops ? ops : r, check_path(c, path, "match"),
				"rule \"%s\" patches spec.affinity but matches UPDATE%s: a Pod's "
				"affinity is immutable after creation; add operations: [CREATE]",
				name ? name : "",
				ops ? "" : " (no operations means CREATE and UPDATE)");
	}
}
