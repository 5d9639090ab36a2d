/*
 * k8s_version.c - Kubernetes version text (see k8s_version.h).
 */
#include "k8s/k8s_version.h"

#include <stdbool.h>

static bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool
is_tail_char(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' ||
	       c == '-' || c == '+';
}

/* Digits at *i (at most `max`): their value, or -1 when there are none
 * or too many. */
static long
take_digits(const char *s, size_t len, size_t *i, size_t max)
{
	long v = 0;
	size_t n = 0;

	while (*i < len && is_digit(s[*i])) {
		if (++n > max)
			return -1;
		v = v * 10 + (s[*i] - '0');
		(*i)++;
	}
	return n ? v : -1;
}

int
k8s_version_parse(const char *text, size_t len, int *major, int *minor)
{
	size_t i = 0;
	long ma, mi;

	if (!text)
		return -1;
	if (i < len && (text[i] == 'v' || text[i] == 'V'))
		i++;
	ma = take_digits(text, len, &i, 4);
	if (ma < 0 || i >= len || text[i] != '.')
		return -1;
	i++;
	mi = take_digits(text, len, &i, 4);
	if (mi < 0)
		return -1;
	if (i < len && text[i] == '.') {
		i++;
		if (take_digits(text, len, &i, 9) < 0)
			return -1;
	}
	if (i < len) {
		char sign = text[i++];

		if (sign != '-' && sign != '+')
			return -1;
		/* "1.29+" is what EKS reports; "1.29-" says nothing */
		if (i == len && sign == '-')
			return -1;
		for (; i < len; i++)
			if (!is_tail_char(text[i]))
				return -1;
	}
	if (major)
		*major = (int)ma;
	if (minor)
		*minor = (int)mi;
	return 0;
}
