/*
 * k8s_selector.h - label selectors and their requirements, as
 * k8s.io/apimachinery pkg/labels and metav1.LabelSelectorAsSelector
 * evaluate them:
 *   In            the label is present and its value is one of values
 *   NotIn         the label is absent, or its value is none of values
 *   Exists        the label is present (whatever its value)
 *   DoesNotExist  the label is absent
 *   Gt, Lt        (node selectors only) the label is present, its value
 *                 and the one value are integers (strconv.ParseInt), and
 *                 the label's is greater / less
 * A requirement that the API would refuse (In/NotIn without values,
 * Exists/DoesNotExist with values, Gt/Lt without exactly one integer
 * value, an unknown operator) is invalid, and an invalid selector
 * selects nothing.
 */
#ifndef GS_K8S_SELECTOR_H
#define GS_K8S_SELECTOR_H

#include <stdbool.h>

#include "node/node.h"

enum k8s_req_flags {
	K8S_REQ_NODE = (1 << 0), /* a node-selector requirement: Gt and Lt too */
};

enum k8s_req_result {
	K8S_REQ_INVALID = -1,
	K8S_REQ_NO = 0,
	K8S_REQ_YES = 1,
};

/*
 * One requirement: operator `op`, `values` (a sequence of scalars, or
 * NULL), against the label's value `have` (NULL when the label is
 * absent).  Returns K8S_REQ_YES, K8S_REQ_NO or K8S_REQ_INVALID.
 */
enum k8s_req_result k8s_requirement_eval(const char *op, const struct node *values,
					 const char *have, unsigned flags);

/*
 * A metav1.LabelSelector (matchLabels AND matchExpressions) against a
 * map of labels (NULL: no labels).  The empty selector matches every
 * object; so does an absent one (sel NULL or not a map): callers for
 * which a missing selector selects nothing must check that first.
 */
bool k8s_label_selector_matches(const struct node *sel, const struct node *labels);

/*
 * Whether no set of labels matches both selectors (NULL or empty: every
 * object), decided exactly: requirements on different keys are
 * independent, so the selectors are disjoint when some key has no value
 * (absent included) that both selectors' requirements on it accept.  A
 * selector the API would refuse selects nothing.
 */
bool k8s_label_selectors_disjoint(const struct node *a, const struct node *b);

#endif
