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
	{ "\xc2\xb5s", 1000ull }, /* U+00B5 micro sign */
	{ "\xce\xbcs", 1000ull }, /* U+03BC greek mu */
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
				return -1; /* overflow */
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
			return -1; /* ".s" */
		while (s[ulen] && s[ulen] != '.' && !is_digit(s[ulen]))
			ulen++;
		if (!ulen)
			return -1; /* missing unit */
		for (i = 0; i < sizeof(duration_units) / sizeof(duration_units[0]); i++) {
			if (strlen(duration_units[i].name) == ulen &&
			    !memcmp(duration_units[i].name, s, ulen)) {
				unit = duration_units[i].ns;
				break;
			}
		}
		if (!unit)
			return -1; /* unknown unit */
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
		snprintf(out, size, "%lldh%lldm%llds", (long long)h, (long long)m, (long long)s);
	else if (m)
		snprintf(out, size, "%lldm%llds", (long long)m, (long long)s);
	else
		snprintf(out, size, "%llds", (long long)s);
}

static uint64_t
gcd_u64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/*
 * A Go duration read exactly, in nanoseconds: 0 with *ns set; -1 when it
 * is not a Go duration, or not a whole number of nanoseconds, or over
 * 2^63 ns (Go's limit).  No double rounding: "2m30.5s" is 150.5 s.
 */
static int
duration_exact_ns(const char *text, uint64_t *ns)
{
	const char *s = text;
	uint64_t total = 0;

	if (*s == '+')
		s++;
	if (!strcmp(s, "0")) {
		*ns = 0;
		return 0;
	}
	if (!*s)
		return -1;
	while (*s) {
		uint64_t v = 0, frac = 0, pow10 = 1, unit = 0, part;
		size_t ulen = 0, i, nfrac = 0;
		bool pre = false;

		while (is_digit(*s)) {
			if (v > (DURATION_MAX_NS - 9) / 10)
				return -1;
			v = v * 10 + (uint64_t)(*s++ - '0');
			pre = true;
		}
		if (*s == '.') {
			for (s++; is_digit(*s); s++, nfrac++) {
				if (nfrac >= 18) {
					if (*s != '0')
						return -1; /* finer than any unit's ns */
					continue;
				}
				frac = frac * 10 + (uint64_t)(*s - '0');
				pow10 *= 10;
			}
		}
		if (!pre && !nfrac)
			return -1;
		while (s[ulen] && s[ulen] != '.' && !is_digit(s[ulen]))
			ulen++;
		for (i = 0; i < sizeof(duration_units) / sizeof(duration_units[0]); i++)
			if (strlen(duration_units[i].name) == ulen &&
			    !memcmp(duration_units[i].name, s, ulen))
				unit = duration_units[i].ns;
		if (!unit)
			return -1;
		s += ulen;
		if (v > DURATION_MAX_NS / unit)
			return -1;
		part = v * unit;
		if (frac) {
			/* frac / pow10 * unit, exactly or not at all */
			uint64_t g = gcd_u64(pow10, unit), d = pow10 / g, q = unit / g;

			if (frac % d)
				return -1;
			if (frac / d > DURATION_MAX_NS / q)
				return -1;
			part += frac / d * q;
		}
		if (part > DURATION_MAX_NS - total)
			return -1;
		total += part;
	}
	*ns = total;
	return 0;
}

/* ^(([0-9]+(s|m|h))+|Never)$: the pattern of Karpenter's NodePool CRD. */
static bool
karpenter_form(const char *s)
{
	if (!strcmp(s, "Never"))
		return true;
	if (!*s)
		return false;
	while (*s) {
		if (!is_digit(*s))
			return false;
		while (is_digit(*s))
			s++;
		if (*s != 's' && *s != 'm' && *s != 'h')
			return false;
		s++;
	}
	return true;
}

int
spec_duration_karpenter(const char *text, char *out, size_t size, const char **why)
{
	uint64_t ns, secs;

	*why = NULL;
	if (!strcmp(text, "Never"))
		return 1;
	if (duration_exact_ns(text, &ns) < 0) {
		*why = "it is not a whole number of nanoseconds Go can hold";
		return -1;
	}
	if (karpenter_form(text))
		return 1; /* as written, however long */
	if (ns % 1000000000ull) {
		*why = "the Karpenter NodePool CRD takes whole seconds only "
		       "(^(([0-9]+(s|m|h))+|Never)$)";
		return -1;
	}
	secs = ns / 1000000000ull;
	if (secs && secs % 3600 == 0)
		snprintf(out, size, "%lluh", (unsigned long long)(secs / 3600));
	else if (secs && secs % 60 == 0)
		snprintf(out, size, "%llum", (unsigned long long)(secs / 60));
	else
		snprintf(out, size, "%llus", (unsigned long long)secs);
	return 0;
}
