/*
 * source_util.c - helpers of every source of spec files (source_util.h).
 */
#include <stdarg.h>
#include <string.h>

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
	struct pos none = { NULL, 0, 0 };
	va_list ap;

	va_start(ap, fmt);
	diag_vadd(d, DIAG_ERROR, none, "", "", fmt, ap);
	va_end(ap);
	return code;
}

void
source__file_error(struct diags *d, const char *rule, const char *path, const char *fmt, ...)
{
	struct pos at = { path, 0, 0 };
	va_list ap;

	va_start(ap, fmt);
	diag_vadd(d, DIAG_ERROR, at, rule, "", fmt, ap);
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
