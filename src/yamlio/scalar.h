/*
 * scalar.h - YAML 1.2 core schema number syntax (yamlio internal).
 */
#ifndef GS_YAMLIO_SCALAR_H
#define GS_YAMLIO_SCALAR_H

#include <stddef.h>
#include <stdint.h>

/*
 * [-+]?[0-9]+ | 0o[0-7]+ | 0x[0-9a-fA-F]+.  Returns 1 (value in *i and
 * *f), 2 (too big for int64: value in *f only), 0 (not an int).
 */
int yamlio_parse_int(const char *s, size_t len, int64_t *i, double *f);

/* [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?, [-+]?.inf, .nan
 * (and their capitalised forms).  1 with *f set, else 0. */
int yamlio_parse_float(const char *s, size_t len, double *f);

#endif
