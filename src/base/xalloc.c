/*
 * xalloc.c - allocation that never returns NULL.  Running out of memory
 * is the one fatal error outside the command layer: there is nothing
 * sensible left to do, and every other error path stays meaningful.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

static void
oom(size_t size)
{
	fprintf(stderr, "gpusite: fatal: out of memory allocating %zu bytes\n", size);
	abort();
}

void *
xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		oom(size);
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p;

	if (size && n > (size_t)-1 / size)
		oom((size_t)-1);
	p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		oom(n * size);
	return p;
}

void *
xrealloc(void *p, size_t size)
{
	void *q = realloc(p, size ? size : 1);

	if (!q)
		oom(size);
	return q;
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xstrndup(const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *p = xmalloc(len + 1);

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}
