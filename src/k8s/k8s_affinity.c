/*
 * k8s_affinity.c - nodeSelectorTerms (see k8s_affinity.h).
 */
#include "k8s/k8s_affinity.h"

#include <string.h>

static size_t
seq_count(const struct node *n)
{
	return n && n->kind == NODE_SEQ ? n->seq.count : 0;
}

static enum k8s_req_result
field_eval(const struct node *e, const char *name)
{
	const char *key = node_str(node_map_get(e, "key"));
	const char *op = node_str(node_map_get(e, "operator"));
	const struct node *values = node_map_get(e, "values");
	const char *v;
	bool in;

	if (!key || !op || strcmp(key, "metadata.name") ||
	    (strcmp(op, "In") && strcmp(op, "NotIn")) || seq_count(values) != 1)
		return K8S_REQ_INVALID;
	v = node_text(values->seq.items[0]);
	in = v && name && !strcmp(v, name);
	return (op[0] == 'I' ? in : !in) ? K8S_REQ_YES : K8S_REQ_NO;
}

static void
set(struct k8s_term_result *out, enum k8s_term_verdict v, size_t i)
{
	if (out) {
		out->verdict = v;
		out->index = i;
	}
}

bool
k8s_node_selector_term_matches(struct k8s_term_result *out, const struct node *term,
			       const struct k8s_node_ref *n)
{
	const struct node *exprs = node_map_get(term, "matchExpressions");
	const struct node *fields = node_map_get(term, "matchFields");
	size_t ne = seq_count(exprs), nf = seq_count(fields);

	if (ne + nf == 0) {
		set(out, K8S_TERM_EMPTY, 0);
		return false;
	}
	for (size_t i = 0; i < ne; i++) {
		const struct node *e = exprs->seq.items[i];
		const char *key = node_str(node_map_get(e, "key"));
		const char *op = node_str(node_map_get(e, "operator"));
		enum k8s_req_result r = K8S_REQ_INVALID;

		if (e->kind == NODE_MAP && key && op)
			r = k8s_requirement_eval(op, node_map_get(e, "values"),
						 n->label(n->ctx, key), K8S_REQ_NODE);
		if (r != K8S_REQ_YES) {
			set(out, r == K8S_REQ_NO ? K8S_TERM_EXPR_NO : K8S_TERM_EXPR_INVALID, i);
			return false;
		}
	}
	for (size_t i = 0; i < nf; i++) {
		enum k8s_req_result r = field_eval(fields->seq.items[i], n->name);

		if (r != K8S_REQ_YES) {
			set(out, r == K8S_REQ_NO ? K8S_TERM_FIELD_NO : K8S_TERM_FIELD_INVALID, i);
			return false;
		}
	}
	set(out, K8S_TERM_MATCH, 0);
	return true;
}

bool
k8s_node_selector_terms_match(const struct node *terms, const struct k8s_node_ref *n)
{
	for (size_t i = 0; i < seq_count(terms); i++)
		if (k8s_node_selector_term_matches(NULL, terms->seq.items[i], n))
			return true;
	return false;
}
