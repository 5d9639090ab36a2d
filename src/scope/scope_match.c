/*
 * scope_match.c - Kubernetes' placement predicates for daemon pods, as
 * the DaemonSet controller applies them (NodeShouldRunDaemonPod): node
 * affinity (nodeSelector AND required node affinity), then taints with
 * effect NoSchedule or NoExecute against the pod's tolerations plus the
 * ones the controller adds to every daemon pod.  Copied from
 * k8s.io/component-helpers/scheduling/corev1 (nodeaffinity, helpers) and
 * k8s.io/api/core/v1 Toleration.ToleratesTaint.
 */
#include <string.h>

#include "base/arena.h"
#include "k8s/k8s_affinity.h"
#include "k8s/k8s_toleration.h"
#include "scope/scope.h"

/* Tolerations the DaemonSet controller adds to every daemon pod
 * (pkg/controller/daemon/util AddOrUpdateDaemonPodTolerations). */
static const struct {
	const char *key;
	const char *effect;
	bool host_network_only;
} daemon_tolerations[] = {
	{ "node.kubernetes.io/not-ready", "NoExecute", false },
	{ "node.kubernetes.io/unreachable", "NoExecute", false },
	{ "node.kubernetes.io/disk-pressure", "NoSchedule", false },
	{ "node.kubernetes.io/memory-pressure", "NoSchedule", false },
	{ "node.kubernetes.io/pid-pressure", "NoSchedule", false },
	{ "node.kubernetes.io/unschedulable", "NoSchedule", false },
	{ "node.kubernetes.io/network-unavailable", "NoSchedule", true },
};

static const char *
text_or_empty(const struct node *n)
{
	const char *s = node_is_null(n) ? NULL : node_text(n);

	return s ? s : "";
}

const char *
scope_node_label(const struct scope_node *n, const char *key)
{
	for (size_t i = 0; i < n->runtime_count; i++)
		if (!strcmp(n->runtime[i].key, key))
			return n->runtime[i].value;
	if (!n->labels || n->labels->kind != NODE_MAP)
		return NULL;
	const struct node_pair *p = node_map_pair(n->labels, key);

	return p ? text_or_empty(p->value) : NULL;
}

bool
scope_toleration_tolerates(const struct node *t, const struct node *taint)
{
	const struct k8s_taint k = {
		text_or_empty(node_map_get(taint, "key")),
		text_or_empty(node_map_get(taint, "value")),
		text_or_empty(node_map_get(taint, "effect")),
	};

	return k8s_toleration_tolerates(t, &k);
}

static const char *
values_text(struct arena *a, const struct node *values)
{
	const char *s = "";

	if (!values || values->kind != NODE_SEQ)
		return "[]";
	for (size_t i = 0; i < values->seq.count; i++)
		s = arena_printf(a, "%s%s%s", s, i ? "," : "", text_or_empty(values->seq.items[i]));
	return arena_printf(a, "[%s]", s);
}

static const char *
node_label(const void *ctx, const char *key)
{
	return scope_node_label(ctx, key);
}

/* Why a term does not match, in verify-scope's words. */
static const char *
term_why(struct arena *a, const struct node *term, const struct k8s_term_result *r)
{
	bool expr = r->verdict == K8S_TERM_EXPR_NO || r->verdict == K8S_TERM_EXPR_INVALID;
	const struct node *list = node_map_get(term, expr ? "matchExpressions" : "matchFields");
	const struct node *e = r->verdict == K8S_TERM_EMPTY ? NULL : list->seq.items[r->index];
	const char *key = node_str(node_map_get(e, "key"));
	const char *op = node_str(node_map_get(e, "operator"));
	const struct node *values = node_map_get(e, "values");
	size_t nvalues = values && values->kind == NODE_SEQ ? values->seq.count : 0;

	switch (r->verdict) {
	case K8S_TERM_MATCH: return NULL;
	case K8S_TERM_EMPTY: return "affinity: empty nodeSelectorTerm (matches no node)";
	case K8S_TERM_EXPR_NO:
		return arena_printf(a, "affinity %s %s%s%s", key, op, nvalues ? " " : "",
				    nvalues ? values_text(a, values) : "");
	case K8S_TERM_EXPR_INVALID:
		if (!e || e->kind != NODE_MAP || !key || !op)
			return "affinity expression without key or operator";
		return arena_printf(
			a, "affinity %s %s%s%s is not a valid requirement (the term never matches)",
			key, op, nvalues ? " " : "", nvalues ? values_text(a, values) : "");
	case K8S_TERM_FIELD_NO:
		return arena_printf(a, "affinity metadata.name %s %s", op, values_text(a, values));
	case K8S_TERM_FIELD_INVALID: break;
	}
	return arena_printf(a,
			    "affinity matchFields %s %s is not supported by Kubernetes (the term "
			    "never matches)",
			    key ? key : "?", op ? op : "?");
}

bool
scope_term_matches(const struct scope_node *n, const struct node *term, struct arena *a,
		   const char **why)
{
	const struct k8s_node_ref ref = { n->name, node_label, n };
	struct k8s_term_result r;

	if (k8s_node_selector_term_matches(&r, term, &ref))
		return true;
	*why = term_why(a, term, &r);
	return false;
}

static void
add_reason(struct scope_cell *c, struct arena *a, const char *why)
{
	c->reasons = arena_realloc(a, c->reasons, c->reason_count * sizeof(*c->reasons),
				   (c->reason_count + 1) * sizeof(*c->reasons));
	c->reasons[c->reason_count++] = why;
}

static bool
tolerated_by_daemon(const struct node *taint, bool host_network)
{
	const char *key = text_or_empty(node_map_get(taint, "key"));
	const char *effect = text_or_empty(node_map_get(taint, "effect"));

	for (size_t i = 0; i < sizeof(daemon_tolerations) / sizeof(daemon_tolerations[0]); i++) {
		if (daemon_tolerations[i].host_network_only && !host_network)
			continue;
		if (!strcmp(key, daemon_tolerations[i].key) &&
		    !strcmp(effect, daemon_tolerations[i].effect))
			return true;
	}
	return false;
}

const char *
scope_taint_text(struct arena *a, const struct node *taint)
{
	const char *value = text_or_empty(node_map_get(taint, "value"));

	return arena_printf(a, "%s%s%s:%s", text_or_empty(node_map_get(taint, "key")),
			    *value ? "=" : "", value, text_or_empty(node_map_get(taint, "effect")));
}

static const char *
taint_text(struct arena *a, const struct node *taint)
{
	return arena_printf(a, "taint %s", scope_taint_text(a, taint));
}

/* Which runtime labels the pod's placement refers to (for "yes" cells). */
static bool
placement_mentions(const struct node *pod_spec, const char *key)
{
	const struct node *sel = node_map_get(pod_spec, "nodeSelector");
	const struct node *terms = node_path(
		pod_spec, "affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
			  "nodeSelectorTerms");

	if (sel && sel->kind == NODE_MAP && node_map_pair(sel, key))
		return true;
	if (!terms || terms->kind != NODE_SEQ)
		return false;
	for (size_t i = 0; i < terms->seq.count; i++) {
		const struct node *ex = node_map_get(terms->seq.items[i], "matchExpressions");

		for (size_t j = 0; ex && ex->kind == NODE_SEQ && j < ex->seq.count; j++) {
			const char *k = node_str(node_map_get(ex->seq.items[j], "key"));

			if (k && !strcmp(k, key))
				return true;
		}
	}
	return false;
}

void
scope_place(struct scope_cell *out, struct arena *a, const struct scope_node *n,
	    const struct node *pod_spec, bool daemonset)
{
	const struct node *sel = node_map_get(pod_spec, "nodeSelector");
	const struct node *affinity = node_path(
		pod_spec, "affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution");
	const struct node *tols = node_map_get(pod_spec, "tolerations");
	const struct node *host_net = node_map_get(pod_spec, "hostNetwork");
	bool host_network = node_is_bool(host_net) && host_net->scalar.i;

	memset(out, 0, sizeof(*out));
	/* 1. nodeSelector: every pair must be a label of the node */
	if (sel && sel->kind == NODE_MAP) {
		for (size_t i = 0; i < sel->map.count; i++) {
			const char *key = node_text(sel->map.pairs[i].key);
			const char *want = text_or_empty(sel->map.pairs[i].value);
			const char *have = scope_node_label(n, key);

			if (!have || strcmp(have, want))
				add_reason(out, a,
					   arena_printf(a, "nodeSelector %s=%s", key, want));
		}
	} else if (sel && !node_is_null(sel)) {
		add_reason(out, a, "nodeSelector is not a mapping");
	}
	/* 2. required node affinity: terms ORed, requirements ANDed */
	if (affinity && !node_is_null(affinity)) {
		const struct node *terms = node_map_get(affinity, "nodeSelectorTerms");
		const char *why = NULL, *first = NULL;
		bool any = false;
		size_t count = terms && terms->kind == NODE_SEQ ? terms->seq.count : 0;

		for (size_t i = 0; i < count && !any; i++) {
			any = scope_term_matches(n, terms->seq.items[i], a, &why);
			if (!first)
				first = why;
		}
		if (!any) {
			if (count == 0)
				add_reason(out, a,
					   "affinity: no nodeSelectorTerms (matches no node)");
			else if (count == 1)
				add_reason(out, a, first);
			else
				add_reason(
					out, a,
					arena_printf(
						a,
						"affinity: none of %zu nodeSelectorTerms matches",
						count));
		}
	}
	/* 3. taints that keep pods off: NoSchedule and NoExecute */
	if (n->taints && n->taints->kind == NODE_SEQ) {
		for (size_t i = 0; i < n->taints->seq.count; i++) {
			const struct node *taint = n->taints->seq.items[i];
			const char *effect = text_or_empty(node_map_get(taint, "effect"));
			bool ok = false;

			if (strcmp(effect, "NoSchedule") && strcmp(effect, "NoExecute"))
				continue; /* PreferNoSchedule: a preference only */
			if (daemonset && tolerated_by_daemon(taint, host_network))
				continue;
			for (size_t j = 0;
			     tols && tols->kind == NODE_SEQ && j < tols->seq.count && !ok; j++)
				ok = scope_toleration_tolerates(tols->seq.items[j], taint);
			if (!ok)
				add_reason(out, a, taint_text(a, taint));
		}
	}
	out->runs = out->reason_count == 0;
	if (!out->runs)
		return;
	for (size_t i = 0; i < n->runtime_count; i++)
		if (placement_mentions(pod_spec, n->runtime[i].key))
			add_reason(out, a,
				   arena_printf(a, "runtime label %s=%s (%s)", n->runtime[i].key,
						n->runtime[i].value, n->runtime[i].by));
}
