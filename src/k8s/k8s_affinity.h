/*
 * k8s_affinity.h - node-selector terms as the scheduler and the
 * DaemonSet controller match them (k8s.io/component-helpers
 * scheduling/corev1/nodeaffinity):
 *   - nodeSelectorTerms are ORed; an empty list matches no node;
 *   - a term ANDs its matchExpressions (on the node's labels, with Gt
 *     and Lt, k8s_selector.h) and its matchFields (metadata.name only,
 *     In or NotIn with exactly one value);
 *   - an empty term, or one with an invalid requirement, matches no node.
 */
#ifndef GS_K8S_AFFINITY_H
#define GS_K8S_AFFINITY_H

#include <stdbool.h>
#include <stddef.h>

#include "k8s/k8s_selector.h"
#include "node/node.h"

/* The node a term is matched against: its name and a label lookup
 * (NULL when the label is absent). */
struct k8s_node_ref {
	const char *name;
	const char *(*label)(const void *ctx, const char *key);
	const void *ctx;
};

enum k8s_term_verdict {
	K8S_TERM_MATCH = 0,
	K8S_TERM_EMPTY,         /* no requirement at all */
	K8S_TERM_EXPR_NO,       /* matchExpressions[index] does not hold */
	K8S_TERM_EXPR_INVALID,  /* matchExpressions[index] is not valid */
	K8S_TERM_FIELD_NO,      /* matchFields[index] does not hold */
	K8S_TERM_FIELD_INVALID, /* matchFields[index] is not supported */
};

struct k8s_term_result {
	enum k8s_term_verdict verdict;
	size_t index; /* the first requirement that failed */
};

/* One nodeSelectorTerm against a node; *out (may be NULL) says why not. */
bool k8s_node_selector_term_matches(struct k8s_term_result *out, const struct node *term,
				    const struct k8s_node_ref *n);

/* A sequence of nodeSelectorTerms (ORed; NULL or empty: no match). */
bool k8s_node_selector_terms_match(const struct node *terms, const struct k8s_node_ref *n);

#endif
