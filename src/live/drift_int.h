/*
 * drift_int.h - what the files of src/live/ share: one finding with the
 * severity of the table of findings, counted when it is drift, and the
 * words of findings.
 */
#ifndef GS_DRIFT_INT_H
#define GS_DRIFT_INT_H

#include <stddef.h>

#include "base/diag.h"
#include "live/drift.h"

struct arena;

/* drift_finding.c */
void drift_finding(struct diags *d, size_t *count, const char *rule, struct pos at,
		   const char *path, const char *site, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));

/* objects named in one message before "and N more" */
#define DRIFT_MAX_NAMED 10

/* "key=value:effect" (or "key:effect" without a value), in `a` */
const char *drift_taint_text(struct arena *a, const char *key, const char *value,
			     const char *effect);

/* "a, b, c and 4 more" of at most DRIFT_MAX_NAMED names, in `a` */
const char *drift_name_list(struct arena *a, const char *const *names, size_t n);

/* drift_bound.c (called by drift.c): what keeps a site's pools and its GPU
 * Pods to each other: each node of a site's pool carries the pool's
 * taints (GS246); each GPU Pod of a scope has the node affinity its
 * placement policy adds (GS247, from in->plans). */
void drift_check_pool_taints(struct arena *a, struct diags *d, size_t *count,
			     const struct drift_input *in);
void drift_check_bindings(struct arena *a, struct diags *d, size_t *count,
			  const struct drift_input *in);

/* drift_versions.c (called by drift.c): the declared controller releases against what the
 * cluster serves (GS219). */
void drift_check_versions(struct arena *a, struct diags *d, size_t *count,
			  const struct drift_input *in);

#endif
