/*
 * test_spec_fleet.c - spec_fleet_add(): loading n sites costs O(n) arena
 * memory (a copy of the array per site made 10,000 sites take 400 MB),
 * and only the fleet it grew last is appended to in place: a fleet built
 * by hand or a copy of one is never written past its end or overwritten.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "base/arena.h"
#include "spec/spec.h"

static struct spec_site *
site(struct arena *a)
{
	return arena_alloc(a, sizeof(struct spec_site));
}

static void
test_spec_fleet__adding_is_linear(void **state)
{
	struct arena a = ARENA_INIT;
	struct spec_fleet f = { NULL, 0, 0 };
	enum { N = 5000 };
	struct spec_site **want;
	size_t before;

	(void)state;
	want = arena_alloc(&a, N * sizeof(*want));
	for (size_t i = 0; i < N; i++)
		want[i] = site(&a);
	before = a.total;
	for (size_t i = 0; i < N; i++)
		spec_fleet_add(&a, &f, want[i]);
	assert_int_equal(f.count, N);
	for (size_t i = 0; i < N; i++)
		assert_ptr_equal(f.sites[i], want[i]);
	/* doubling: under 4 pointers a site in all; a copy per add: 10,000 */
	if (a.total - before > (size_t)N * sizeof(void *) * 4)
		fail_msg("%zu bytes of arena for %d sites", a.total - before, N);
	arena_release(&a);
}

static void
test_spec_fleet__hand_built_fleet_gets_a_new_array(void **state)
{
	struct arena a = ARENA_INIT;
	struct spec_site *s0 = site(&a), *s1 = site(&a), *s2 = site(&a);
	struct spec_site **two = arena_alloc(&a, 2 * sizeof(*two));
	struct spec_fleet f = { NULL, 0, 0 }, other = { NULL, 0, 0 };

	(void)state;
	two[0] = s0;
	two[1] = s1;
	/* the last fleet grown had two sites too: no confusion with it */
	spec_fleet_add(&a, &other, s0);
	spec_fleet_add(&a, &other, s1);
	f.sites = two;
	f.count = 2;
	spec_fleet_add(&a, &f, s2);
	assert_int_equal(f.count, 3);
	assert_ptr_not_equal(f.sites, two); /* two has no room: never written */
	assert_ptr_equal(f.sites[0], s0);
	assert_ptr_equal(f.sites[1], s1);
	assert_ptr_equal(f.sites[2], s2);
	assert_int_equal(other.count, 2);
	arena_release(&a);
}

static void
test_spec_fleet__a_copy_does_not_overwrite_the_original(void **state)
{
	struct arena a = ARENA_INIT;
	struct spec_fleet f = { NULL, 0, 0 }, copy;
	struct spec_site *s[5];

	(void)state;
	for (size_t i = 0; i < 5; i++)
		s[i] = site(&a);
	spec_fleet_add(&a, &f, s[0]);
	spec_fleet_add(&a, &f, s[1]);
	spec_fleet_add(&a, &f, s[2]);
	copy = f;
	spec_fleet_add(&a, &f, s[3]);
	spec_fleet_add(&a, &copy, s[4]);
	assert_int_equal(f.count, 4);
	assert_int_equal(copy.count, 4);
	assert_ptr_equal(f.sites[3], s[3]);
	assert_ptr_equal(copy.sites[3], s[4]);
	for (size_t i = 0; i < 3; i++) {
		assert_ptr_equal(f.sites[i], s[i]);
		assert_ptr_equal(copy.sites[i], s[i]);
	}
	arena_release(&a);
}

static void
test_spec_fleet__a_new_arena_starts_afresh(void **state)
{
	struct arena a = ARENA_INIT, b = ARENA_INIT;
	struct spec_fleet f = { NULL, 0, 0 }, g = { NULL, 0, 0 };
	struct spec_site *x = site(&a), *y = site(&b);

	(void)state;
	spec_fleet_add(&a, &f, x);
	/* same count, other arena: its own array */
	g.sites = f.sites;
	g.count = f.count;
	spec_fleet_add(&b, &g, y);
	assert_ptr_not_equal(g.sites, f.sites);
	assert_ptr_equal(f.sites[0], x);
	assert_int_equal(f.count, 1);
	assert_ptr_equal(g.sites[1], y);
	arena_release(&b);
	arena_release(&a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spec_fleet__adding_is_linear),
		cmocka_unit_test(test_spec_fleet__hand_built_fleet_gets_a_new_array),
		cmocka_unit_test(test_spec_fleet__a_copy_does_not_overwrite_the_original),
		cmocka_unit_test(test_spec_fleet__a_new_arena_starts_afresh),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
