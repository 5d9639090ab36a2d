/*
 * spec_duration.c - Go durations ("90s", "1h30m", "1.5h", "720h") as
 * Karpenter, Kubernetes and the spec write them, and Go's way of
 * printing them back ("16m50s", "5m0s").
 */
#include <stdio.h>
#include <string.h>

#include "spec/spec.h"

/* time.ParseDuration's units, in nanoseconds. */
static const struct {
	const char *name;
	uint64_t ns;
} duration_units[] = {
	{ "ns", 1ull },
	{ "us", 1000ull },
	{ "\xc2\xb5s", 1000ull },	/* U+00B5 micro sign */
	{ "\xce\xbcs", 1000ull },	/* U+03BC greek mu */
	{ "ms", 1000000ull },
	{ "s", 1000000000ull },
	{ "m", 60ull * 1000000000ull },
	{ "h", 3600ull * 1000000000ull },
};

#define DURATION_MAX_NS ((uint64_t)1 << 63)

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * Parse like Go's time.ParseDuration: a sequence of decimal numbers, each
 * with an optional fraction and a unit, summed.  A leading '-' is refused
 * (no field of the spec takes a negative duration); '+' is accepted as Go
 * does.  Seconds are rounded up so that "1500ms" never shrinks a budget.
 */
int
spec_parse_duration(const char *text, bool allow_never, struct spec_duration *out)
{
	const char *s = text;
	uint64_t total = 0;

	if (!text || !out)
		return -1;
	memset(out, 0, sizeof(*out));
	out->text = text;
	if (allow_never && !strcmp(text, "Never")) {
		out->never = true;
		out->set = true;
		return 0;
	}
	if (*s == '+')
		s++;
	if (!strcmp(s, "0")) {
		out->set = true;
		return 0;
	}
	if (!*s)
		return -1;
	while (*s) {
		uint64_t v = 0, unit = 0;
		double frac = 0, scale = 1;
		bool pre = false, post = false;
		size_t ulen = 0, i;

		if (!(*s == '.' || is_digit(*s)))
			return -1;
		while (is_digit(*s)) {
			if (v > (DURATION_MAX_NS - 9) / 10)
				return -1;	/* overflow */
			v = v * 10 + (uint64_t)(*s - '0');
			s++;
			pre = true;
		}
		if (*s == '.') {
			s++;
			while (is_digit(*s)) {
				/* beyond 18 digits the fraction no longer matters */
				if (scale < 1e18) {
					frac = frac * 10 + (*s - '0');
					scale *= 10;
				}
				s++;
				post = true;
			}
		}
		if (!pre && !post)
			return -1;	/* ".s" */
		while (s[ulen] && s[ulen] != '.' && !is_digit(s[ulen]))
			ulen++;
		if (!ulen)
			return -1;	/* missing unit */
		for (i = 0; i < sizeof(duration_units) / sizeof(duration_units[0]); i++) {
			if (strlen(duration_units[i].name) == ulen &&
			    !memcmp(duration_units[i].name, s, ulen)) {
				unit = duration_units[i].ns;
				break;
			}
		}
		if (!unit)
			return -1;	/* unknown unit */
		s += ulen;
		if (v > DURATION_MAX_NS / unit)
			return -1;
		v *= unit;
		if (frac > 0) {
			v += (uint64_t)(frac * ((double)unit / scale));
			if (v > DURATION_MAX_NS)
				return -1;
		}
		total += v;
		if (total > DURATION_MAX_NS)
			return -1;
	}
	out->seconds = (int64_t)((total + 999999999ull) / 1000000000ull);
	out->set = true;
	return 0;
}

void
spec_duration_format(char *out, size_t size, int64_t seconds)
{
	int64_t h, m, s;

	if (!out || !size)
		return;
	if (seconds < 0)
		seconds = 0;
	h = seconds / 3600;
	m = (seconds % 3600) / 60;
	s = seconds % 60;
	if (h)
		snprintf(out, size, "%lldh%lldm%llds", (long long)h, (long long)m,
			 (long long)s);
	else if (m)
		snprintf(out, size, "%lldm%llds", (long long)m, (long long)s);
	else
		snprintf(out, size, "%llds", (long long)s);
}
