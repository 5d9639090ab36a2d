/*
 * strdist.h - how far apart two short strings are, for "did you mean"
 * hints (unknown schema fields, instance type names).
 */
#ifndef GS_STRDIST_H
#define GS_STRDIST_H

#include <stddef.h>

/* The longest string strdist_edit() measures, in bytes. */
#define STRDIST_MAX 64

/*
 * The Levenshtein distance between a and b (insertions, deletions and
 * substitutions of bytes, each costing 1), or limit + 1 as soon as it is
 * known to exceed `limit`, and when either string is longer than
 * STRDIST_MAX bytes.  Pass (size_t)-2 as limit for no limit.
 */
size_t strdist_edit(const char *a, const char *b, size_t limit);

#endif
