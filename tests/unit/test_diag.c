/*
 * test_diag.c - the diagnostic list: return values, copies, stable sort.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/findings.h"

static struct pos
at(const char *file, unsigned line, unsigned col)
{
	struct pos p = { file, line, col };

	return p;
}

static void
test_diag__add_returns_by_level(void **state)
{
	struct arena a = ARENA_INIT;
	struct diags d;

	(void)state;
	diags_init(&d, &a);
	assert_int_equal(diag_add(&d, DIAG_ERROR, at("f", 1, 1), "GS001", "", "e"), -1);
	assert_int_equal(diag_add(&d, DIAG_WARNING, at("f", 1, 1), "GS002", "", "w"), 0);
	assert_int_equal(diag_add(&d, DIAG_NOTE, at("f", 1, 1), "GS003", "", "n"), 0);
	assert_int_equal(d.count, 3);
	assert_int_equal(diags_count(&d, DIAG_ERROR), 1);
	assert_int_equal(diags_count(&d, DIAG_WARNING), 1);
	assert_int_equal(diags_count(&d, DIAG_NOTE), 1);
	assert_string_equal(diag_level_name(DIAG_ERROR), "error");
	assert_string_equal(diag_level_name(DIAG_WARNING), "warning");
	assert_string_equal(diag_level_name(DIAG_NOTE), "note");
	diags_promote_warnings(&d);
	assert_int_equal(diags_count(&d, DIAG_ERROR), 2);
	assert_int_equal(diags_count(&d, DIAG_NOTE), 1);
	arena_release(&a);
}

/* The level is the ID's row, never the caller's: GS131's note and error
 * are IDs of their own. */
static void
test_diag__report_takes_the_tables_level(void **state)
{
	static const char *const ids[] = { "GS041", "GS127", "GS131", "GS240", "GS241", "GS242" };
	struct arena a = ARENA_INIT;
	struct diags d, e;

	(void)state;
	diags_init(&d, &a);
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		enum diag_level want = findings_find(ids[i])->level;

		assert_int_equal(diag_report(&d, at("f", 1, 1), ids[i], "", "m %zu", i),
				 want == DIAG_ERROR ? -1 : 0);
		assert_int_equal(d.items[i].level, want);
	}
	assert_int_equal(d.items[2].level, DIAG_WARNING); /* GS131 */
	assert_int_equal(d.items[3].level, DIAG_NOTE);    /* GS240 */
	assert_int_equal(d.items[4].level, DIAG_ERROR);   /* GS241 */
	/* an ID without a row is an error (test_catalogue fails on one) */
	assert_int_equal(diag_report(&d, at("f", 2, 1), "GS999", "", "x"), -1);
	assert_int_equal(d.items[d.count - 1].level, DIAG_ERROR);
	/* a copy keeps the level as found, --strict's promotion included */
	diags_promote_warnings(&d);
	d.items[2].site = "seoul-dc1";
	diags_init(&e, &a);
	for (size_t i = 0; i < d.count; i++)
		diag_copy(&e, &d.items[i]);
	assert_int_equal(e.count, d.count);
	for (size_t i = 0; i < d.count; i++) {
		assert_int_equal(e.items[i].level, d.items[i].level);
		assert_string_equal(e.items[i].rule, d.items[i].rule);
		assert_string_equal(e.items[i].msg, d.items[i].msg);
	}
	assert_int_equal(e.items[2].level, DIAG_ERROR);
	assert_string_equal(e.items[2].site, "seoul-dc1");
	arena_release(&a);
}

static void
test_diag__strings_are_copied(void **state)
{
	struct arena a = ARENA_INIT;
	struct diags d;
	char file[] = "sites/a.yaml", rule[] = "GS041", path[] = "spec.x", arg[] = "val";
	int i;

	(void)state;
	diags_init(&d, &a);
	for (i = 0; i < 100; i++) /* also grows the array */
		diag_add(&d, DIAG_ERROR, at(file, (unsigned)i + 1, 2), rule, path,
			 "bad value '%s' number %d", arg, i);
	memset(file, 'X', sizeof(file) - 1);
	memset(rule, 'X', sizeof(rule) - 1);
	memset(path, 'X', sizeof(path) - 1);
	memset(arg, 'X', sizeof(arg) - 1);
	assert_int_equal(d.count, 100);
	assert_string_equal(d.items[99].at.file, "sites/a.yaml");
	assert_string_equal(d.items[99].rule, "GS041");
	assert_string_equal(d.items[99].path, "spec.x");
	assert_string_equal(d.items[99].msg, "bad value 'val' number 99");
	assert_int_equal(d.items[99].at.line, 100);
	assert_null(d.items[0].site);
	/* NULL path and file are allowed. */
	diag_add(&d, DIAG_ERROR, at(NULL, 0, 0), "GS001", NULL, "x");
	assert_string_equal(d.items[100].path, "");
	assert_null(d.items[100].at.file);
	arena_release(&a);
}

static void
test_diag__sort_is_stable_and_ordered(void **state)
{
	struct arena a = ARENA_INIT;
	struct diags d;
	static const char *const want[] = {
		"a.yaml:1:1 GS001 m", "a.yaml:2:1 GS001 m", "a.yaml:2:5 GS001 a",
		"a.yaml:2:5 GS001 b", "a.yaml:2:5 GS002 a", "a.yaml:10:1 GS001 m",
		"b.yaml:1:1 GS001 m",
	};
	char line[64];
	size_t i;

	(void)state;
	diags_init(&d, &a);
	diag_add(&d, DIAG_ERROR, at("b.yaml", 1, 1), "GS001", "", "m");
	diag_add(&d, DIAG_ERROR, at("a.yaml", 10, 1), "GS001", "", "m");
	diag_add(&d, DIAG_ERROR, at("a.yaml", 2, 5), "GS002", "", "a");
	diag_add(&d, DIAG_ERROR, at("a.yaml", 2, 5), "GS001", "", "b");
	diag_add(&d, DIAG_ERROR, at("a.yaml", 2, 5), "GS001", "", "a");
	diag_add(&d, DIAG_ERROR, at("a.yaml", 2, 1), "GS001", "", "m");
	diag_add(&d, DIAG_ERROR, at("a.yaml", 1, 1), "GS001", "", "m");
	diags_sort(&d);
	for (i = 0; i < d.count; i++) {
		snprintf(line, sizeof(line), "%s:%u:%u %s %s", d.items[i].at.file,
			 d.items[i].at.line, d.items[i].at.col, d.items[i].rule, d.items[i].msg);
		assert_string_equal(line, want[i]);
	}

	/* Equal keys keep insertion order (told apart by severity here). */
	diags_init(&d, &a);
	diag_add(&d, DIAG_WARNING, at("x", 1, 1), "GS001", "", "same");
	diag_add(&d, DIAG_ERROR, at("x", 1, 1), "GS001", "", "same");
	diag_add(&d, DIAG_NOTE, at("x", 1, 1), "GS001", "", "same");
	diag_add(&d, DIAG_ERROR, at("a", 1, 1), "GS001", "", "first");
	diags_sort(&d);
	assert_string_equal(d.items[0].msg, "first");
	assert_int_equal(d.items[1].level, DIAG_WARNING);
	assert_int_equal(d.items[2].level, DIAG_ERROR);
	assert_int_equal(d.items[3].level, DIAG_NOTE);
	arena_release(&a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_diag__add_returns_by_level),
		cmocka_unit_test(test_diag__report_takes_the_tables_level),
		cmocka_unit_test(test_diag__strings_are_copied),
		cmocka_unit_test(test_diag__sort_is_stable_and_ordered),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
