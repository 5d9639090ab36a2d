/*
 * k8s_time.c - RFC 3339 timestamps as the API server writes them.
 */
#include <string.h>
#include <time.h>

#include "k8s/k8s_time.h"

/* the n digits at s as a number, or -1 when one is not a digit */
static int
digits(const char *s, int n, int *out)
{
	int v = 0;

	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return 0;
}

/* the zone at p ("Z", "+HH:MM", "-HH:MM", then the end): *off seconds
 * east of UTC; -1 when it is none of them */
static int
zone(const char *p, int64_t *off)
{
	int oh, om;

	if ((*p == 'Z' || *p == 'z') && !p[1]) {
		*off = 0;
		return 0;
	}
	if ((*p != '+' && *p != '-') || strlen(p) != 6 || p[3] != ':' || digits(p + 1, 2, &oh) ||
	    digits(p + 4, 2, &om) || oh > 23 || om > 59)
		return -1;
	*off = (int64_t)(oh * 3600 + om * 60) * (*p == '-' ? -1 : 1);
	return 0;
}

int
k8s_time_parse(int64_t *out, const char *s)
{
	struct tm tm;
	int y, mo, d, h, mi, se;
	int64_t off;
	const char *p;

	if (!s || strlen(s) < 20 || digits(s, 4, &y) || s[4] != '-' || digits(s + 5, 2, &mo) ||
	    s[7] != '-' || digits(s + 8, 2, &d) || (s[10] != 'T' && s[10] != 't' && s[10] != ' ') ||
	    digits(s + 11, 2, &h) || s[13] != ':' || digits(s + 14, 2, &mi) || s[16] != ':' ||
	    digits(s + 17, 2, &se))
		return -1;
	/* 60: a leap second, as RFC 3339 allows */
	if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 60)
		return -1;
	p = s + 19;
	if (*p == '.') {
		p++;
		if (*p < '0' || *p > '9')
			return -1;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (zone(p, &off) < 0)
		return -1;
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = se;
	*out = (int64_t)timegm(&tm) - off;
	return 0;
}
