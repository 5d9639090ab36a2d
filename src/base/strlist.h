/*
 * strlist.h - whether a string is one of a list of strings: the one
 * look-up the modules used to write each for itself.
 */
#ifndef GS_STRLIST_H
#define GS_STRLIST_H

#include <stdbool.h>
#include <stddef.h>

/* Whether `s` equals one of the `n` strings of `list`; false for a NULL
 * `s`. */
bool str_listed(const char *s, const char *const *list, size_t n);

#endif
