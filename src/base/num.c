/*
 * num.c - locale-independent number conversions.
 */
#include <locale.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"
#include "base/xalloc.h"

static char
locale_point(void)
{
	const char *dp = localeconv()->decimal_point;

	return dp && dp[0] && !dp[1] ? dp[0] : '.';
}

double
num_strtod(const char *s, char **end)
{
	char pt = locale_point();
	char *copy, *p, *e;
	double v;

	if (pt == '.' || !strchr(s, '.'))
		return strtod(s, end);
	copy = xstrdup(s);
	for (p = copy; *p; p++)
		if (*p == '.')
			*p = pt;
	v = strtod(copy, &e);
	if (end)
		*end = (char *)s + (e - copy);
	free(copy);
	return v;
}

size_t
num_fmt_double(char *out, size_t size, double f)
{
	char pt = locale_point();
	int prec, n = 0;
	char *p;

	if (isnan(f))
		return (size_t)snprintf(out, size, "nan");
	if (isinf(f))
		return (size_t)snprintf(out, size, f < 0 ? "-inf" : "inf");
	for (prec = 15; prec <= 17; prec++) {
		n = snprintf(out, size, "%.*g", prec, f);
		if (pt != '.')
			for (p = out; *p; p++)
				if (*p == pt)
					*p = '.';
		if (num_strtod(out, NULL) == f)
			break;
	}
	return n < 0 ? 0 : (size_t)n;
}

int
num_double_to_int64(double f, int64_t *out)
{
	/* 2^63 is exact in a double; every double below it in magnitude
	 * that is integral converts without rounding. */
	if (!isfinite(f) || f != trunc(f) || f < -9223372036854775808.0 ||
	    f >= 9223372036854775808.0)
		return -1;
	*out = (int64_t)f;
	return 0;
}

int
num_decimal_to_int64(const char *s, size_t len, int64_t *out)
{
	size_t k = 0, ip, il = 0, fp = 0, fl = 0, n, j;
	long long e = 0, point, first = -1, last = -1;
	bool neg = false, eneg = false;
	uint64_t v = 0;

	if (k < len && (s[k] == '-' || s[k] == '+'))
		neg = s[k++] == '-';
	ip = k;
	while (k < len && s[k] >= '0' && s[k] <= '9')
		k++, il++;
	if (k < len && s[k] == '.') {
		fp = ++k;
		while (k < len && s[k] >= '0' && s[k] <= '9')
			k++, fl++;
	}
	if (!il && !fl)
		return -2;
	if (k < len && (s[k] == 'e' || s[k] == 'E')) {
		size_t ed = 0;

		if (++k < len && (s[k] == '-' || s[k] == '+'))
			eneg = s[k++] == '-';
		for (; k < len && s[k] >= '0' && s[k] <= '9'; k++, ed++)
			if (e < 1000000000)
				e = e * 10 + (s[k] - '0');
		if (!ed)
			return -2;
	}
	if (k != len)
		return -2;
	/* The digits D = int digits then fraction digits; the decimal point
	 * sits after `point` of them. */
	n = il + fl;
	point = (long long)il + (eneg ? -e : e);
#define DIGIT(x) ((x) < il ? s[ip + (x)] : s[fp + (x)-il])
	for (j = 0; j < n; j++) {
		if (DIGIT(j) != '0') {
			if (first < 0)
				first = (long long)j;
			last = (long long)j;
		}
	}
	if (first < 0) {
		*out = 0;
		return 0;
	}
	if (last >= point)
		return -1; /* a non-zero digit behind the point */
	if (point - first > 19)
		return -3;
	for (j = (size_t)first; (long long)j < point; j++)
		v = v * 10 + (uint64_t)(j < n ? DIGIT(j) - '0' : 0);
#undef DIGIT
	if (v > (uint64_t)INT64_MAX + (neg ? 1u : 0u))
		return -3;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return 0;
}

bool
num_parse_int64(const char *s, size_t len, int64_t *out)
{
	bool neg = len > 0 && s[0] == '-';
	uint64_t v = 0, lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	size_t k = neg;

	if (k >= len)
		return false;
	for (; k < len; k++) {
		unsigned dg;

		if (s[k] < '0' || s[k] > '9')
			return false;
		dg = (unsigned)(s[k] - '0');
		if (v > (lim - dg) / 10)
			return false;
		v = v * 10 + dg;
	}
	if (neg)
		*out = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
	else
		*out = (int64_t)v;
	return true;
}

char *
num_u64_text(char *end, uint64_t u)
{
	do
		*--end = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	return end;
}
