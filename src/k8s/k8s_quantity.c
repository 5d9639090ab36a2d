/*
 * k8s_quantity.c - resource.ParseQuantity's grammar (see k8s_quantity.h).
 */
#include "k8s/k8s_quantity.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "base/num.h"

static bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static const struct {
	const char *sfx;
	double mul;
} suffixes[] = {
	{ "Ki", 1024.0 },
	{ "Mi", 1048576.0 },
	{ "Gi", 1073741824.0 },
	{ "Ti", 1099511627776.0 },
	{ "Pi", 1125899906842624.0 },
	{ "Ei", 1152921504606846976.0 },
	{ "n", 1e-9 },
	{ "u", 1e-6 },
	{ "m", 1e-3 },
	{ "k", 1e3 },
	{ "M", 1e6 },
	{ "G", 1e9 },
	{ "T", 1e12 },
	{ "P", 1e15 },
	{ "E", 1e18 },
};

int
k8s_quantity_parse(const char *s, size_t len, double *out)
{
	char num[64];
	size_t i = 0, int_digits = 0, frac_digits = 0, nlen;
	double v, mul = 1.0;

	if (!s)
		return -1;
	if (i < len && (s[i] == '+' || s[i] == '-'))
		i++;
	while (i < len && is_digit(s[i]))
		i++, int_digits++;
	if (i < len && s[i] == '.') {
		i++;
		while (i < len && is_digit(s[i]))
			i++, frac_digits++;
	}
	if (!int_digits && !frac_digits)
		return -1;
	nlen = i;
	if (nlen >= sizeof(num))
		return -1;
	if (i < len && (s[i] == 'e' || s[i] == 'E') && i + 1 < len &&
	    (is_digit(s[i + 1]) || s[i + 1] == '+' || s[i + 1] == '-')) {
		/* a decimal exponent: [eE][+-]?digits, the whole rest */
		size_t j = i + 1, d = 0;
		long e = 0;
		bool neg = false;

		if (s[j] == '+' || s[j] == '-')
			neg = s[j++] == '-';
		while (j < len && is_digit(s[j])) {
			if (e < 100000)
				e = e * 10 + (s[j] - '0');
			j++, d++;
		}
		if (!d || j != len)
			return -1;
		mul = pow(10.0, (double)(neg ? -e : e));
	} else if (i < len) {
		size_t k;

		for (k = 0; k < sizeof(suffixes) / sizeof(suffixes[0]); k++)
			if (strlen(suffixes[k].sfx) == len - i &&
			    !memcmp(suffixes[k].sfx, s + i, len - i))
				break;
		if (k == sizeof(suffixes) / sizeof(suffixes[0]))
			return -1;
		mul = suffixes[k].mul;
	}
	memcpy(num, s, nlen);
	num[nlen] = '\0';
	v = num_strtod(num, NULL);
	*out = v * mul;
	return 0;
}
