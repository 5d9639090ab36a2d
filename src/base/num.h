/*
 * num.h - locale-independent number text: the output must be the same
 * bytes whatever LC_NUMERIC says, and "1.5" must read as 1.5 everywhere.
 */
#ifndef GS_NUM_H
#define GS_NUM_H

#include <stddef.h>

/* strtod() that always takes '.' as the decimal point. */
double num_strtod(const char *s, char **end);

/*
 * The shortest "%.Ng" text (N = 15..17) that reads back as exactly f,
 * with a '.' decimal point; "inf", "-inf", "nan" for non-finite values.
 * Returns the length written (out must hold at least 32 bytes).
 */
size_t num_fmt_double(char *out, size_t size, double f);

#endif
