/*
 * source_util.c - helpers of every source of spec files (source_util.h),
 * and the file set they fill (source_set_add, source_set_sort).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"

#include "source/source_util.h"

bool
source__spec_name(const char *name)
{
	size_t n = strlen(name);

	return (n > 5 && !strcmp(name + n - 5, ".yaml")) ||
	       (n > 4 && !strcmp(name + n - 4, ".yml"));
}

int
source__fail(struct diags *d, int code, const char *fmt, ...)
{
	struct pos none = POS_NONE;
	va_list ap;

	va_start(ap, fmt);
	diag_vreport(d, none, SOURCE_RULE_FETCH, "", fmt, ap);
	va_end(ap);
	return code;
}

void
source__file_error(struct diags *d, const char *rule, const char *path, const char *fmt, ...)
{
	struct pos at = { path, 0, 0 };
	va_list ap;

	va_start(ap, fmt);
	diag_vreport(d, at, rule, "", fmt, ap);
	va_end(ap);
}

void
source__set_finish(struct source_set *s)
{
	size_t k = 0;

	source_set_sort(s);
	for (size_t i = 0; i < s->count; i++)
		if (k == 0 || strcmp(s->files[k - 1].path, s->files[i].path))
			s->files[k++] = s->files[i];
	s->count = k;
}

void
source_set_add(struct arena *a, struct source_set *s, const char *path, const char *data,
	       size_t len)
{
	char *copy;

	ARENA_GROW(a, s->files, s->count, s->alloc, 16);
	copy = arena_alloc(a, len + 1);
	if (len)
		memcpy(copy, data, len);
	copy[len] = '\0';
	s->files[s->count].path = arena_strdup(a, path);
	s->files[s->count].data = copy;
	s->files[s->count].len = len;
	s->count++;
}

static int
cmp_file(const void *x, const void *y)
{
	const struct source_file *a = x, *b = y;

	return strcmp(a->path, b->path);
}

void
source_set_sort(struct source_set *s)
{
	if (s->count > 1)
		qsort(s->files, s->count, sizeof(*s->files), cmp_file);
}

size_t
source_set_bytes(const struct source_set *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->count; i++)
		n += s->files[i].len;
	return n;
}
