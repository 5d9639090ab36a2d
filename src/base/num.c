/*
 * num.c - locale-independent number conversions.
 */
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"
#include "base/xalloc.h"

static char locale_point(void)
{
	const char *dp = localeconv()->decimal_point;

	return dp && dp[0] && !dp[1] ? dp[0] : '.';
}

double num_strtod(const char *s, char **end)
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

size_t num_fmt_double(char *out, size_t size, double f)
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
