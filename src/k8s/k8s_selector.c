/*
 * k8s_selector.c - label selector semantics (see k8s_selector.h).
 */
#include "k8s/k8s_selector.h"

#include <string.h>

#include "k8s/k8s_int.h"

static size_t
count_values(const struct node *values)
{
	return values && values->kind == NODE_SEQ ? values->seq.count : 0;
}

static bool
value_in(const char *have, const struct node *values)
{
	for (size_t i = 0; i < count_values(values); i++) {
		const char *v = node_text(values->seq.items[i]);

		if (v && !strcmp(v, have))
			return true;
	}
	return false;
}

enum k8s_req_result
k8s_requirement_eval(const char *op, const struct node *values, const char *have, unsigned flags)
{
	size_t n = count_values(values);
	long long want, got;

	if (!op)
		return K8S_REQ_INVALID;
	if (!strcmp(op, "In") || !strcmp(op, "NotIn")) {
		bool in;

		if (!n)
			return K8S_REQ_INVALID;
		in = have && value_in(have, values);
		return (op[0] == 'I' ? in : !in) ? K8S_REQ_YES : K8S_REQ_NO;
	}
	if (!strcmp(op, "Exists") || !strcmp(op, "DoesNotExist")) {
		if (n)
			return K8S_REQ_INVALID;
		return ((have != NULL) == (op[0] == 'E')) ? K8S_REQ_YES : K8S_REQ_NO;
	}
	if ((flags & K8S_REQ_NODE) && (!strcmp(op, "Gt") || !strcmp(op, "Lt"))) {
		if (n != 1 || !k8s_parse_int64(node_text(values->seq.items[0]), &want))
			return K8S_REQ_INVALID;
		if (!have || !k8s_parse_int64(have, &got))
			return K8S_REQ_NO;
		return (op[0] == 'G' ? got > want : got < want) ? K8S_REQ_YES : K8S_REQ_NO;
	}
	return K8S_REQ_INVALID;
}

/*
 * The one walk over a selector's requirements (matchLabels, then
 * matchExpressions).  Without `only_key`: whether all hold for `labels`.
 * With it: whether every requirement on that key holds for the value
 * `only_have` (NULL: the label is absent); the others are not asked.
 */
static bool
requirements_hold(const struct node *sel, const struct node *labels, const char *only_key,
		  const char *only_have)
{
	const struct node *ml, *me;

	if (!sel || sel->kind != NODE_MAP)
		return true;
	ml = node_map_get(sel, "matchLabels");
	for (size_t i = 0; ml && ml->kind == NODE_MAP && i < ml->map.count; i++) {
		const char *k = node_text(ml->map.pairs[i].key);
		const char *want = node_text(ml->map.pairs[i].value);
		const char *have;

		if (only_key && (!k || strcmp(k, only_key)))
			continue;
		have = only_key ? only_have : k ? node_text(node_map_get(labels, k)) : NULL;
		if (!have || !want || strcmp(have, want))
			return false;
	}
	me = node_map_get(sel, "matchExpressions");
	for (size_t i = 0; me && me->kind == NODE_SEQ && i < me->seq.count; i++) {
		const struct node *e = me->seq.items[i];
		const char *k = node_str(node_map_get(e, "key"));
		const char *have;

		if (only_key && (!k || strcmp(k, only_key)))
			continue;
		if (!k)
			return false;
		have = only_key ? only_have : node_text(node_map_get(labels, k));
		if (k8s_requirement_eval(node_str(node_map_get(e, "operator")),
					 node_map_get(e, "values"), have, 0) != K8S_REQ_YES)
			return false;
	}
	return true;
}

bool
k8s_label_selector_matches(const struct node *sel, const struct node *labels)
{
	return requirements_hold(sel, labels, NULL, NULL);
}

/* Whether every requirement of `sel` on label `key` holds for the value
 * `have` (NULL: the label is absent). */
static bool
key_holds(const struct node *sel, const char *key, const char *have)
{
	return requirements_hold(sel, NULL, key, have);
}

/* Whether `have` satisfies both selectors' requirements on `key`. */
static bool
key_both(const struct node *a, const struct node *b, const char *key, const char *have)
{
	return key_holds(a, key, have) && key_holds(b, key, have);
}

/* Whether some value of label `key` (absent, one the selectors name, or
 * one they do not) satisfies both selectors' requirements on it. */
static bool
key_satisfiable(const struct node *a, const struct node *b, const char *key)
{
	/* no label value holds a control character: a value neither names */
	static const char other[] = "\x01";
	const struct node *sels[2] = { a, b };

	if (key_both(a, b, key, NULL) || key_both(a, b, key, other))
		return true;
	for (int s = 0; s < 2; s++) {
		const struct node *ml = node_map_get(sels[s], "matchLabels");
		const struct node *me = node_map_get(sels[s], "matchExpressions");

		for (size_t i = 0; ml && ml->kind == NODE_MAP && i < ml->map.count; i++) {
			const char *v = node_text(ml->map.pairs[i].value);

			if (v && key_both(a, b, key, v))
				return true;
		}
		for (size_t i = 0; me && me->kind == NODE_SEQ && i < me->seq.count; i++) {
			const struct node *vals = node_map_get(me->seq.items[i], "values");

			for (size_t j = 0; vals && vals->kind == NODE_SEQ && j < vals->seq.count;
			     j++) {
				const char *v = node_text(vals->seq.items[j]);

				if (v && key_both(a, b, key, v))
					return true;
			}
		}
	}
	return false;
}

bool
k8s_label_selectors_disjoint(const struct node *a, const struct node *b)
{
	const struct node *sels[2] = { a, b };

	/* requirements on different keys are independent: the selectors
	 * share no object exactly when some key has no value both accept */
	for (int s = 0; s < 2; s++) {
		const struct node *ml, *me;

		if (!sels[s] || sels[s]->kind != NODE_MAP)
			continue;
		ml = node_map_get(sels[s], "matchLabels");
		me = node_map_get(sels[s], "matchExpressions");
		for (size_t i = 0; ml && ml->kind == NODE_MAP && i < ml->map.count; i++) {
			const char *k = node_text(ml->map.pairs[i].key);

			if (k && !key_satisfiable(a, b, k))
				return true;
		}
		for (size_t i = 0; me && me->kind == NODE_SEQ && i < me->seq.count; i++) {
			const char *k = node_str(node_map_get(me->seq.items[i], "key"));

			if (k && !key_satisfiable(a, b, k))
				return true;
		}
	}
	return false;
}
