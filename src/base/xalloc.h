/*
 * xalloc.h - malloc wrappers that never return NULL (tmux's xmalloc):
 * out of memory is fatal here, so every other error path means something.
 */
#ifndef GS_XALLOC_H
#define GS_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

#endif
