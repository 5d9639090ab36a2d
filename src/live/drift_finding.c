/*
 * drift_finding.c - one drift finding, at the severity the table of
 * findings gives its ID, counted when it is drift (a note is not).  The
 * lowest file of src/live/: drift.c and drift_versions.c both report
 * through it, and it calls neither.
 */
#include <stdarg.h>

#include "base/diag.h"
#include "base/findings.h"
#include "live/drift_int.h"

void
drift_finding(struct diags *d, size_t *count, const char *rule, struct pos at, const char *path,
	      const char *site, const char *fmt, ...)
{
	const struct finding *r = findings_find(rule);
	va_list ap;

	va_start(ap, fmt);
	diag_vreport(d, at, rule, path, fmt, ap);
	va_end(ap);
	d->items[d->count - 1].site = site;
	if (r->level != DIAG_NOTE)
		(*count)++;
}
