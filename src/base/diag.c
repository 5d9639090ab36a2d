/*
 * diag.c - the list of diagnostics a run collects.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/findings.h"
#include "base/xalloc.h"

void
diags_init(struct diags *d, struct arena *a)
{
	d->arena = a;
	d->items = NULL;
	d->count = 0;
	d->alloc = 0;
}

int
diag_vadd(struct diags *d, enum diag_level level, struct pos at, const char *rule, const char *path,
	  const char *fmt, va_list ap)
{
	struct diag *g;

	ARENA_GROW(d->arena, d->items, d->count, d->alloc, 16);
	g = &d->items[d->count++];
	g->level = level;
	g->at = at;
	if (at.file)
		g->at.file = arena_strdup(d->arena, at.file);
	g->rule = arena_strdup(d->arena, rule ? rule : "");
	g->path = arena_strdup(d->arena, path ? path : "");
	g->msg = arena_vprintf(d->arena, fmt, ap);
	g->site = NULL;
	return level == DIAG_ERROR ? -1 : 0;
}

int
diag_add(struct diags *d, enum diag_level level, struct pos at, const char *rule, const char *path,
	 const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = diag_vadd(d, level, at, rule, path, fmt, ap);
	va_end(ap);
	return ret;
}

int
diag_vreport(struct diags *d, struct pos at, const char *rule, const char *path, const char *fmt,
	     va_list ap)
{
	const struct finding *f = findings_find(rule);

	return diag_vadd(d, f ? f->level : DIAG_ERROR, at, rule, path, fmt, ap);
}

int
diag_report(struct diags *d, struct pos at, const char *rule, const char *path, const char *fmt,
	    ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = diag_vreport(d, at, rule, path, fmt, ap);
	va_end(ap);
	return ret;
}

void
diag_copy(struct diags *to, const struct diag *g)
{
	diag_add(to, g->level, g->at, g->rule, g->path, "%s", g->msg);
	to->items[to->count - 1].site = g->site;
}

static int
strcmp_null(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

static int
diag_cmp(const struct diag *a, const struct diag *b)
{
	int c = strcmp_null(a->at.file, b->at.file);

	if (c)
		return c;
	if (a->at.line != b->at.line)
		return a->at.line < b->at.line ? -1 : 1;
	if (a->at.col != b->at.col)
		return a->at.col < b->at.col ? -1 : 1;
	c = strcmp_null(a->rule, b->rule);
	if (c)
		return c;
	return strcmp_null(a->msg, b->msg);
}

/* Merge sort: stable, so equal diagnostics keep the order they came in. */
static void
merge_sort(struct diag *v, struct diag *tmp, size_t n)
{
	size_t mid = n / 2, i = 0, j = mid, k = 0;

	if (n < 2)
		return;
	merge_sort(v, tmp, mid);
	merge_sort(v + mid, tmp, n - mid);
	while (i < mid && j < n) {
		if (diag_cmp(&v[j], &v[i]) < 0)
			tmp[k++] = v[j++];
		else
			tmp[k++] = v[i++];
	}
	while (i < mid)
		tmp[k++] = v[i++];
	while (j < n)
		tmp[k++] = v[j++];
	memcpy(v, tmp, n * sizeof(*v));
}

void
diags_sort(struct diags *d)
{
	struct diag *tmp;

	if (d->count < 2)
		return;
	tmp = xmalloc(d->count * sizeof(*tmp));
	merge_sort(d->items, tmp, d->count);
	free(tmp);
}

size_t
diags_count(const struct diags *d, enum diag_level level)
{
	size_t i, n = 0;

	for (i = 0; i < d->count; i++)
		if (d->items[i].level == level)
			n++;
	return n;
}

const char *
diag_level_name(enum diag_level level)
{
	switch (level) {
	case DIAG_NOTE: return "note";
	case DIAG_WARNING: return "warning";
	case DIAG_ERROR: return "error";
	}
	return "error";
}

void
diags_promote_warnings(struct diags *d)
{
	size_t i;

	for (i = 0; i < d->count; i++)
		if (d->items[i].level == DIAG_WARNING)
			d->items[i].level = DIAG_ERROR;
}
