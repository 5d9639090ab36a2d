/*
 * test_utf8.c - utf8_check against a reference decoder written from RFC
 * 3629 (decode the code point, then judge its range), on edge cases and
 * on random byte strings mixing ASCII runs with multi-byte and broken
 * sequences at every alignment: the verdict and the offset of the first
 * bad sequence must agree, whatever the eight-byte ASCII fast path skips.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/utf8.h"

/* 0 when well-formed; else 1 and *bad = the first bad sequence's start */
static int
reference(const unsigned char *p, size_t len, size_t *bad)
{
	for (size_t i = 0; i < len;) {
		unsigned char c = p[i];
		size_t n;
		uint32_t cp, min;

		if (c < 0x80) {
			if (!c)
				goto bad;
			i++;
			continue;
		}
		if ((c & 0xe0) == 0xc0)
			n = 2, cp = c & 0x1f, min = 0x80;
		else if ((c & 0xf0) == 0xe0)
			n = 3, cp = c & 0x0f, min = 0x800;
		else if ((c & 0xf8) == 0xf0)
			n = 4, cp = c & 0x07, min = 0x10000;
		else
			goto bad;
		if (len - i < n)
			goto bad;
		for (size_t k = 1; k < n; k++) {
			if ((p[i + k] & 0xc0) != 0x80)
				goto bad;
			cp = cp << 6 | (p[i + k] & 0x3f);
		}
		if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			goto bad;
		i += n;
		continue;
	bad:
		*bad = i;
		return 1;
	}
	return 0;
}

static void
agree(const unsigned char *p, size_t len)
{
	size_t want_off = (size_t)-1, got_off = (size_t)-1;
	const char *why = NULL;
	int want = reference(p, len, &want_off);
	int got = utf8_check((const char *)p, len, &got_off, &why);

	assert_int_equal(got, want);
	if (want) {
		assert_int_equal(got_off, want_off);
		assert_non_null(why);
	}
}

static void
test_utf8__edge_cases(void **state)
{
	static const char *const cases[] = {
		"",
		"a",
		"abcdefgh",
		"abcdefghi",
		"abcdefg\xc3\xa9",
		"\xc3\xa9z",
		"abcdefgh\xe2\x82\xac",
		"\xf0\x9f\x98\x80",
		"\xf4\x8f\xbf\xbf",
		"\xc0\x80",
		"\xc1\xbf",
		"\xe0\x80\x80",
		"\xe0\x9f\xbf",
		"\xed\xa0\x80",
		"\xf0\x80\x80\x80",
		"\xf4\x90\x80\x80",
		"\xf5\x80\x80\x80",
		"\xff",
		"\x80",
		"abcdefg\x80",
		"abcdefgh\xc3",
		"abcdefghijklmno\xe2\x82",
		"\xef\xbb\xbf",
		"\xed\x9f\xbf",
		"\xee\x80\x80",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		agree((const unsigned char *)cases[i], strlen(cases[i]));
	/* a NUL at every place of a 24-byte ASCII run */
	for (size_t at = 0; at < 24; at++) {
		unsigned char b[24];

		memset(b, 'x', sizeof(b));
		b[at] = 0;
		agree(b, sizeof(b));
	}
}

static void
test_utf8__random_strings(void **state)
{
	static const char *const pieces[] = {
		"a",
		"abcdefgh",
		"abcdefghijklmnopq",
		"\xc3\xa9",
		"\xe2\x82\xac",
		"\xf0\x9f\x98\x80",
		"\xed\xa0\x80",
		"\xc0\xaf",
		"\x80",
		"\xff",
		"\xe2\x82",
		"\x7f",
		"\x01",
		"",
		"\xf4\x90\x80\x80",
	};
	unsigned char b[96];
	unsigned seed = 12345;

	(void)state;
	for (int run = 0; run < 200000; run++) {
		size_t n = 0;

		while (n < 64) {
			seed = seed * 1103515245u + 12345u;
			const char *p = pieces[(seed >> 16) % (sizeof(pieces) / sizeof(pieces[0]))];
			size_t l = strlen(p);

			/* most strings stay valid, so the fast path is crossed */
			if ((seed >> 8) % 16 == 0 || (p[0] & 0x80) == 0 || !strcmp(p, "\xc3\xa9") ||
			    !strcmp(p, "\xe2\x82\xac") || !strcmp(p, "\xf0\x9f\x98\x80")) {
				memcpy(b + n, p, l);
				n += l;
			}
			if ((seed >> 4) % 7 == 0)
				break;
		}
		agree(b, n);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_utf8__edge_cases),
		cmocka_unit_test(test_utf8__random_strings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
