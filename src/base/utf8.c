/*
 * utf8.c - strict UTF-8 validation (RFC 3629) with the place of the
 * first bad sequence, for the YAML and JSON readers.
 */
#include <stdint.h>
#include <string.h>

#include "base/utf8.h"

/* Lead bytes fix the length and the allowed range of the second byte. */
int
utf8_check(const char *s, size_t len, size_t *bad_off, const char **why)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < len) {
		unsigned char c;
		size_t n, k;
		unsigned char lo = 0x80, hi = 0xbf;
		uint64_t w;

		/* eight ASCII bytes with no NUL at a time: most text is that */
		if (len - i >= 8) {
			memcpy(&w, p + i, 8);
			if (!(w & 0x8080808080808080ull) &&
			    !((w - 0x0101010101010101ull) & ~w & 0x8080808080808080ull)) {
				i += 8;
				continue;
			}
		}
		c = p[i];

		if (c < 0x80) {
			if (c == 0) {
				*bad_off = i;
				*why = "NUL byte";
				return 1;
			}
			i++;
			continue;
		}
		if (c < 0xc2) {
			*bad_off = i;
			*why = c < 0xc0 ? "unexpected continuation byte" : "overlong encoding";
			return 1;
		} else if (c < 0xe0) {
			n = 2;
		} else if (c < 0xf0) {
			n = 3;
			if (c == 0xe0)
				lo = 0xa0; /* overlong */
			else if (c == 0xed)
				hi = 0x9f; /* UTF-16 surrogates */
		} else if (c < 0xf5) {
			n = 4;
			if (c == 0xf0)
				lo = 0x90; /* overlong */
			else if (c == 0xf4)
				hi = 0x8f; /* beyond U+10FFFF */
		} else {
			*bad_off = i;
			*why = c < 0xf8 ? "beyond U+10FFFF" : "never valid in UTF-8";
			return 1;
		}
		for (k = 1; k < n; k++) {
			unsigned char lo_k = k == 1 ? lo : 0x80;
			unsigned char hi_k = k == 1 ? hi : 0xbf;

			if (i + k >= len || p[i + k] < 0x80 || p[i + k] > 0xbf) {
				*bad_off = i;
				*why = "truncated sequence";
				return 1;
			}
			if (p[i + k] < lo_k || p[i + k] > hi_k) {
				*bad_off = i;
				*why = c == 0xed   ? "UTF-16 surrogate"
				       : c == 0xf4 ? "beyond U+10FFFF"
						   : "overlong encoding";
				return 1;
			}
		}
		i += n;
	}
	return 0;
}

size_t
utf8_seq_len(const char *s, size_t len)
{
	size_t off;
	const char *why;
	size_t n;
	unsigned char c;

	if (len == 0)
		return 0;
	c = (unsigned char)s[0];
	if (c == 0)
		return 1; /* NUL is a valid (if unwelcome) character here */
	n = c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
	if (n > len)
		return 0;
	return utf8_check(s, n, &off, &why) ? 0 : n;
}

size_t
utf8_length(const char *s, size_t len)
{
	size_t k, n = 0;

	for (k = 0; k < len; k++)
		if (((unsigned char)s[k] & 0xC0) != 0x80)
			n++;
	return n;
}
