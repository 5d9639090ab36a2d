/*
 * k8s_toleration.h - whether a toleration tolerates a taint, exactly as
 * k8s.io/api core/v1 (*Toleration).ToleratesTaint decides it:
 *   - a toleration with an effect tolerates only taints of that effect
 *     (an empty effect matches all effects);
 *   - a toleration with a key tolerates only taints of that key (an
 *     empty key, which the API allows with Exists only, matches all keys);
 *   - operator "" or "Equal": the values must be equal;
 *     "Exists": any value; any other operator tolerates nothing.
 */
#ifndef GS_K8S_TOLERATION_H
#define GS_K8S_TOLERATION_H

#include <stdbool.h>

#include "node/node.h"

/* A taint as text; NULL reads as "". */
struct k8s_taint {
	const char *key;
	const char *value;
	const char *effect;
};

/* One toleration (a map with key, operator, value, effect; absent or
 * non-scalar fields read as "") against a taint.  A toleration that is
 * not a map tolerates nothing. */
bool k8s_toleration_tolerates(const struct node *toleration, const struct k8s_taint *taint);

/* Whether any toleration of the sequence tolerates the taint (false for
 * NULL or a non-sequence). */
bool k8s_tolerations_tolerate(const struct node *tolerations, const struct k8s_taint *taint);

#endif
