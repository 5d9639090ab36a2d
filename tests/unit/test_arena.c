/*
 * test_arena.c - the bump allocator: alignment, zeroing, big requests,
 * growth in place, strings.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "base/arena.h"

static void
test_arena__alloc_is_aligned_and_zeroed(void **state)
{
	struct arena a = ARENA_INIT;
	size_t sizes[] = { 1, 3, 7, 16, 17, 100, 1000, 5000 };
	size_t i, k;

	(void)state;
	for (i = 0; i < 1000; i++) {
		size_t n = sizes[i % 8];
		unsigned char *p = arena_alloc(&a, n);

		assert_non_null(p);
		assert_int_equal((uintptr_t)p % 16, 0);
		for (k = 0; k < n; k++)
			assert_int_equal(p[k], 0);
		memset(p, 0xab, n);
	}
	assert_true(a.total >= 1000);
	arena_release(&a);
	assert_null(a.head);
	assert_int_equal(a.total, 0);
}

static void
test_arena__allocations_do_not_overlap(void **state)
{
	struct arena a = ARENA_INIT;
	unsigned char *p[300];
	size_t i, k;

	(void)state;
	/* Mix small and block-sized requests; each keeps its own bytes. */
	for (i = 0; i < 300; i++) {
		size_t n = (i % 7 == 0) ? 40000 : 24;

		p[i] = arena_alloc(&a, n);
		memset(p[i], (int)(i & 0xff), n);
	}
	for (i = 0; i < 300; i++) {
		size_t n = (i % 7 == 0) ? 40000 : 24;

		for (k = 0; k < n; k += 97)
			assert_int_equal(p[i][k], i & 0xff);
		assert_int_equal(p[i][n - 1], i & 0xff);
	}
	arena_release(&a);
}

static void
test_arena__zero_size_gives_distinct_pointers(void **state)
{
	struct arena a = ARENA_INIT;
	void *x = arena_alloc(&a, 0), *y = arena_alloc(&a, 0);

	(void)state;
	assert_non_null(x);
	assert_non_null(y);
	assert_ptr_not_equal(x, y);
	arena_release(&a);
}

static void
test_arena__realloc_keeps_contents(void **state)
{
	struct arena a = ARENA_INIT;
	int *v = NULL;
	size_t n = 0, i;

	(void)state;
	for (i = 0; i < 10000; i++) {
		if (i == n) {
			size_t m = n ? n * 2 : 4;

			v = arena_realloc(&a, v, n * sizeof(*v), m * sizeof(*v));
			/* Grown part is zeroed. */
			assert_int_equal(v[m - 1], 0);
			n = m;
		}
		v[i] = (int)i * 3;
	}
	for (i = 0; i < 10000; i++)
		assert_int_equal(v[i], (int)i * 3);
	arena_release(&a);
}

static void
test_arena__realloc_of_older_block_copies(void **state)
{
	struct arena a = ARENA_INIT;
	char *s = arena_strdup(&a, "hello");
	char *other = arena_strdup(&a, "other");
	char *t = arena_realloc(&a, s, 6, 64);

	(void)state;
	/* s is not the newest allocation: it must move, not overwrite other. */
	assert_ptr_not_equal(s, t);
	assert_string_equal(t, "hello");
	assert_string_equal(other, "other");
	arena_release(&a);
}

static void
test_arena__strings(void **state)
{
	struct arena a = ARENA_INIT;
	char big[1000];
	char *p;

	(void)state;
	assert_string_equal(arena_strdup(&a, "abc"), "abc");
	assert_string_equal(arena_strndup(&a, "abcdef", 3), "abc");
	assert_string_equal(arena_printf(&a, "%s-%d", "x", 42), "x-42");
	memset(big, 'z', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	/* Longer than the printf fast path. */
	p = arena_printf(&a, "[%s]", big);
	assert_int_equal(strlen(p), sizeof(big) + 1);
	assert_int_equal(p[0], '[');
	assert_int_equal(p[sizeof(big)], ']');
	arena_release(&a);
}

static void
test_arena__init_and_reuse_after_release(void **state)
{
	struct arena a;

	(void)state;
	arena_init(&a);
	assert_null(a.head);
	assert_string_equal(arena_strdup(&a, "one"), "one");
	arena_release(&a);
	assert_string_equal(arena_strdup(&a, "two"), "two");
	arena_release(&a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arena__alloc_is_aligned_and_zeroed),
		cmocka_unit_test(test_arena__allocations_do_not_overlap),
		cmocka_unit_test(test_arena__zero_size_gives_distinct_pointers),
		cmocka_unit_test(test_arena__realloc_keeps_contents),
		cmocka_unit_test(test_arena__realloc_of_older_block_copies),
		cmocka_unit_test(test_arena__strings),
		cmocka_unit_test(test_arena__init_and_reuse_after_release),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
