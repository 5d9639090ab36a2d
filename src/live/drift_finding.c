/*
 * drift_finding.c - one drift finding, at the severity the table of
 * findings gives its ID, counted when it is drift (a note is not), and
 * the words findings share (a taint, a bounded list of names).  The
 * lowest file of src/live/: the other files report through it, and it
 * calls none of them.
 */
#include <stdarg.h>

#include "base/arena.h"
#include "base/buf.h"
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

const char *
drift_taint_text(struct arena *a, const char *key, const char *value, const char *effect)
{
	return value && *value ? arena_printf(a, "%s=%s:%s", key, value, effect)
			       : arena_printf(a, "%s:%s", key, effect);
}

const char *
drift_name_list(struct arena *a, const char *const *names, size_t n)
{
	struct buf b;
	const char *res;

	buf_init(&b, 0);
	for (size_t i = 0; i < n && i < DRIFT_MAX_NAMED; i++)
		if (buf_printf(&b, "%s%s", i ? ", " : "", names[i]) < 0)
			break;
	if (n > DRIFT_MAX_NAMED && buf_printf(&b, " and %zu more", n - DRIFT_MAX_NAMED) < 0)
		buf_reset(&b);
	res = arena_strdup(a, b.data);
	buf_release(&b);
	return res;
}
