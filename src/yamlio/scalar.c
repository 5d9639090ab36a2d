/*
 * scalar.c - YAML 1.2 core schema number syntax, shared by the reader
 * (to resolve plain scalars) and the writer (to check number text).
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"
#include "base/xalloc.h"
#include "yamlio/scalar.h"

/*
 * YAML 1.2 core int: [-+]?[0-9]+ | 0o[0-7]+ | 0x[0-9a-fA-F]+.
 * Returns 1 (int64 in *i), 2 (too big: value in *f only), 0 (not an int).
 */
int
yamlio_parse_int(const char *s, size_t len, int64_t *i, double *f)
{
	unsigned base = 10;
	bool neg = false, over = false;
	uint64_t v = 0, lim;
	double dv = 0;
	size_t k = 0;

	if (len > 2 && s[0] == '0' && (s[1] == 'o' || s[1] == 'x')) {
		base = s[1] == 'o' ? 8 : 16;
		k = 2;
	} else if (len > 0 && (s[0] == '-' || s[0] == '+')) {
		neg = s[0] == '-';
		k = 1;
	}
	if (k >= len)
		return 0;
	lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (; k < len; k++) {
		unsigned c = (unsigned char)s[k], dgt;

		if (c >= '0' && c <= '9')
			dgt = c - '0';
		else if (base == 16 && c >= 'a' && c <= 'f')
			dgt = c - 'a' + 10;
		else if (base == 16 && c >= 'A' && c <= 'F')
			dgt = c - 'A' + 10;
		else
			return 0;
		if (dgt >= base)
			return 0;
		dv = dv * base + dgt;
		if (!over && v > (lim - dgt) / base)
			over = true;
		if (!over)
			v = v * base + dgt;
	}
	if (over) {
		/* strtod rounds decimal and hex text correctly. */
		if (base != 8) {
			char tmp[128];

			if (len < sizeof(tmp)) {
				memcpy(tmp, s, len);
				tmp[len] = '\0';
				dv = num_strtod(tmp, NULL);
				*f = dv;
				return 2;
			}
		}
		*f = neg ? -dv : dv;
		return 2;
	}
	*i = neg ? (int64_t)(0 - v) : (int64_t)v;
	if (neg && v == (uint64_t)INT64_MAX + 1)
		*i = INT64_MIN;
	*f = (double)*i;
	return 1;
}

/* YAML 1.2 core float; 1 with *f set, else 0. */
int
yamlio_parse_float(const char *s, size_t len, double *f)
{
	size_t k = 0, digits = 0;
	const char *p = s;
	char tmp[64], *copy, *end;

	if (len > 0 && (s[0] == '-' || s[0] == '+'))
		k = 1;
	if (len - k == 4 && s[k] == '.' &&
	    (memcmp(s + k, ".inf", 4) == 0 || memcmp(s + k, ".Inf", 4) == 0 ||
	     memcmp(s + k, ".INF", 4) == 0)) {
		*f = s[0] == '-' ? -INFINITY : INFINITY;
		return 1;
	}
	if (len == 4 &&
	    (memcmp(s, ".nan", 4) == 0 || memcmp(s, ".NaN", 4) == 0 || memcmp(s, ".NAN", 4) == 0)) {
		*f = NAN;
		return 1;
	}
	/* (\.[0-9]+ | [0-9]+(\.[0-9]*)?) ([eE][-+]?[0-9]+)? */
	while (k < len && s[k] >= '0' && s[k] <= '9')
		k++, digits++;
	if (k < len && s[k] == '.') {
		size_t frac = 0;

		k++;
		while (k < len && s[k] >= '0' && s[k] <= '9')
			k++, frac++;
		if (!digits && !frac)
			return 0;
		digits += frac;
	}
	if (!digits)
		return 0;
	if (k < len && (s[k] == 'e' || s[k] == 'E')) {
		size_t exp = 0;

		k++;
		if (k < len && (s[k] == '-' || s[k] == '+'))
			k++;
		while (k < len && s[k] >= '0' && s[k] <= '9')
			k++, exp++;
		if (!exp)
			return 0;
	}
	if (k != len)
		return 0;
	copy = len < sizeof(tmp) ? tmp : xmalloc(len + 1);
	memcpy(copy, p, len);
	copy[len] = '\0';
	*f = num_strtod(copy, &end);
	if (copy != tmp)
		free(copy);
	return 1;
}
