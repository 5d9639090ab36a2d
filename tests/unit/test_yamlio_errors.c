/*
 * test_yamlio_errors.c - loader errors said where they are: escaped NUL
 * characters at the scalar that holds them, and layout mistakes (bad
 * indentation, a tab, a missing ':') at the offending line with a hint
 * instead of libyaml's parser text.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "base/arena.h"
#include "base/diag.h"
#include "yamlio/yamlio.h"

#include "testutil.h"

static int
load(const char *s)
{
	struct yamlio_docs docs = { NULL, 0 };

	diags_init(&D, &A);
	return yamlio_load(&docs, &A, &D, "t.yaml", s, strlen(s), NULL);
}

/* Exactly one GS001 at line:col whose message holds `msg` and none of
 * libyaml's own words. */
static void
expect_at(unsigned line, unsigned col, const char *msg)
{
	if (D.count != 1 || D.items[0].at.line != line || D.items[0].at.col != col ||
	    strcmp(D.items[0].rule, "GS001") || !strstr(D.items[0].msg, msg)) {
		size_t i;

		print_message("want %u:%u '%s', got %zu:\n", line, col, msg, D.count);
		for (i = 0; i < D.count; i++)
			print_message("  %u:%u %s [%s]\n", D.items[i].at.line, D.items[i].at.col,
				      D.items[i].msg, D.items[i].rule);
		fail();
	}
	assert_null(strstr(D.items[0].msg, "while parsing"));
	assert_null(strstr(D.items[0].msg, "did not find expected"));
}

static void
test_yamlio_errors__escaped_nul(void **state)
{
	static const char *const docs[] = {
		"a: 1\nb: \"x\\0y\"\n",        "a: 1\nb: \"x\\x00y\"\n", "a: 1\nb: \"x\\u0000y\"\n",
		"a: 1\nb: \"x\\U00000000\"\n", "a: 1\n\"b\\0\": 2\n", /* a key */
		"a: 1\nb: [ok, \"\\0\"]\n",
	};
	static const unsigned cols[] = { 4, 4, 4, 4, 1, 9 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
		assert_int_equal(load(docs[i]), -1);
		expect_at(2, cols[i], "NUL character");
	}
	/* the key "gpuLimit\0" no longer slips past the duplicate check as a
	 * second key: the file does not load at all */
	assert_int_equal(load("gpuLimit: 8\n\"gpuLimit\\0\": 0\n"), -1);
	expect_at(2, 1, "NUL character");
	/* an escaped character that is not NUL is fine */
	assert_int_equal(load("b: \"x\\x01y\\ty\"\n"), 0);
	assert_int_equal(D.count, 0);
}

static void
test_yamlio_errors__layout_at_the_offending_line(void **state)
{
	(void)state;
	/* a key dedented between two levels */
	assert_int_equal(load("a:\n  b:\n    c: 1\n   d: 2\n"), -1);
	expect_at(4, 4,
		  "bad indentation: this line starts at column 4, between the "
		  "column 5 of the line above and the column 3");
	/* dedented below every level but the root, after a blank line */
	assert_int_equal(load("a:\n  b: 1\n\n c: 2\n"), -1);
	expect_at(4, 2, "bad indentation");
	/* indented deeper than its sibling */
	assert_int_equal(load("a:\n  b: 1\n    c: 2\n"), -1);
	expect_at(3, 5, "indented deeper than the key above it");
	/* a tab in the indentation, at the first level and deeper */
	assert_int_equal(load("a:\n\tb: 1\n"), -1);
	expect_at(2, 1, "a tab character in the indentation");
	assert_int_equal(load("a:\n  b: 1\n\tc: 2\n"), -1);
	expect_at(3, 1, "replace the tab with spaces");
	/* a missing ':' is the line that lacks it, not the next one */
	assert_int_equal(load("a:\n  b: 1\n  c 2\n  d: 4\n"), -1);
	expect_at(3, 3, "no ':' after its key");
	assert_int_equal(load("a:\n  name lab\n  region: x\n"), -1);
	expect_at(2, 3, "no ':' after its key");
	/* a list item among keys, a key among list items */
	assert_int_equal(load("a:\n  b: 1\n  - c\n"), -1);
	expect_at(3, 3, "a list item where the mapping that starts at line 2");
	assert_int_equal(load("a:\n  - x\n  y: 1\n"), -1);
	expect_at(3, 3, "expects '- ' items here");
	/* two ': ' on one line */
	assert_int_equal(load("a: b: c\n"), -1);
	expect_at(1, 5, "quote the value");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		TESTUTIL_CASE(test_yamlio_errors__escaped_nul),
		TESTUTIL_CASE(test_yamlio_errors__layout_at_the_offending_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
