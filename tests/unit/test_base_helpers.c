/*
 * test_base_helpers.c - the small base helpers that replace copies:
 * ARENA_GROW, POS_NONE, strdist_edit, utf8_length.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/strdist.h"
#include "base/strlist.h"
#include "base/utf8.h"

static void
test_base__arena_grow_doubles_and_keeps(void **state)
{
	struct arena a = ARENA_INIT;
	int *items = NULL;
	size_t count = 0, alloc = 0, grown = 0, last = 0;

	(void)state;
	for (int i = 0; i < 100; i++) {
		ARENA_GROW(&a, items, count, alloc, 4);
		if (alloc != last) {
			grown++;
			last = alloc;
		}
		items[count++] = i;
	}
	/* 4, 8, 16, 32, 64, 128 */
	assert_int_equal(alloc, 128);
	assert_int_equal(grown, 6);
	for (int i = 0; i < 100; i++)
		assert_int_equal(items[i], i);
	/* no growth while there is room */
	int *same = items;
	size_t cap = alloc;
	assert_ptr_equal(arena_grow(&a, items, sizeof(*items), 5, &cap, 4), same);
	assert_int_equal(cap, 128);
	arena_release(&a);
}

static void
test_base__pos_none(void **state)
{
	struct pos p = POS_NONE;
	struct pos q = (struct pos)POS_NONE;

	(void)state;
	assert_null(p.file);
	assert_int_equal(p.line, 0);
	assert_int_equal(p.col, 0);
	assert_null(q.file);
}

static void
test_base__strdist_edit(void **state)
{
	char long_a[STRDIST_MAX + 2];

	(void)state;
	assert_int_equal(strdist_edit("kitten", "sitting", 10), 3);
	assert_int_equal(strdist_edit("nodeGroups", "nodeGroups", 2), 0);
	assert_int_equal(strdist_edit("nodeGroup", "nodeGroups", 2), 1);
	assert_int_equal(strdist_edit("", "abc", 5), 3);
	/* over the limit: limit + 1, early */
	assert_int_equal(strdist_edit("kitten", "sitting", 2), 3);
	assert_int_equal(strdist_edit("a", "abcdef", 2), 3);
	assert_int_equal(strdist_edit("g6e.12xlarge", "g6e.2xlarge", (size_t)-2), 1);
	memset(long_a, 'a', sizeof(long_a) - 1);
	long_a[sizeof(long_a) - 1] = '\0';
	assert_int_equal(strdist_edit(long_a, long_a, 4), 5);
}

static void
test_base__utf8_length(void **state)
{
	(void)state;
	assert_int_equal(utf8_length("abc", 3), 3);
	assert_int_equal(utf8_length("h\xc3\xa9", 3), 2);
	assert_int_equal(utf8_length("\xe2\x82\xac\xf0\x9f\x98\x80", 7), 2);
	assert_int_equal(utf8_length("", 0), 0);
	/* only len bytes count */
	assert_int_equal(utf8_length("abcdef", 2), 2);
}

static void
test_base__str_listed(void **state)
{
	static const char *const list[] = { "In", "NotIn", "" };

	(void)state;
	assert_true(str_listed("NotIn", list, 3));
	assert_true(str_listed("", list, 3));
	assert_false(str_listed("in", list, 3));
	assert_false(str_listed("In", list, 0));
	assert_false(str_listed(NULL, list, 3));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_base__arena_grow_doubles_and_keeps),
		cmocka_unit_test(test_base__pos_none),
		cmocka_unit_test(test_base__strdist_edit),
		cmocka_unit_test(test_base__str_listed),
		cmocka_unit_test(test_base__utf8_length),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
