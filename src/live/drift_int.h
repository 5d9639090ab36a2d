/*
 * drift_int.h - what the files of src/live/ share: one finding with the
 * severity of the table of findings, counted when it is drift.
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

/* drift_versions.c (called by drift.c): the declared controller releases against what the
 * cluster serves (GS219). */
void drift_check_versions(struct arena *a, struct diags *d, size_t *count,
			  const struct drift_input *in);

#endif
