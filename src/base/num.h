/*
 * num.h - locale-independent number text: the output must be the same
 * bytes whatever LC_NUMERIC says, and "1.5" must read as 1.5 everywhere.
 */
#ifndef GS_NUM_H
#define GS_NUM_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

/* strtod() that always takes '.' as the decimal point. */
double num_strtod(const char *s, char **end);

/*
 * The shortest "%.Ng" text (N = 15..17) that reads back as exactly f,
 * with a '.' decimal point; "inf", "-inf", "nan" for non-finite values.
 * Returns the length written (out must hold at least 32 bytes).
 */
size_t num_fmt_double(char *out, size_t size, double f);

/* The decimal text of u written backwards so that it ends just before
 * `end` (no NUL; up to NUM_U64_DIGITS bytes before it); returns where
 * the text starts.  For hot paths that would otherwise printf "%zu". */
#define NUM_U64_DIGITS 20
char *num_u64_text(char *end, uint64_t u);

/*
 * The int64 a double is exactly: 0 with *out set when f is finite, has
 * no fractional part and lies in [-2^63, 2^63); else -1 (*out untouched).
 * 16.0, 16e0 and 1.6e1 are 16; 16.5, 1e19, inf and nan are refused.
 * This is the number policy of the whole tool: an integral number is the
 * integer it equals, and one that does not fit is refused, never clamped.
 */
int num_double_to_int64(double f, int64_t *out);

/*
 * The exact value of decimal number text [-+]?(digits)(.digits)?([eE][-+]?digits)?
 * (YAML 1.2 core int and float syntax), with no rounding: 0 with *out set
 * when it is a whole number in int64 ("16.0", "1.6e1", "1600e-2" are 16);
 * -1 when it is not whole ("16.5", "16.0000000000000001"); -3 when it is
 * whole but outside int64 ("1e19", "9223372036854775808"); -2 when the
 * text is not of that form (hex, ".inf", "1_000").
 */
int num_decimal_to_int64(const char *s, size_t len, int64_t *out);

/* An int64 from an integer token ("-"? digits, as JSON writes one) of
 * `len` bytes: true with *out when it is one and fits, else false. */
bool num_parse_int64(const char *s, size_t len, int64_t *out);

#endif
