/*
 * test_hydrate.c - the pure parts of `gpusite hydrate`: the paths of the
 * branch, names a directory may take, the commit message and its
 * trailers, the files in path order with the index first, and what
 * changed between two trees.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "hydrate/hydrate.h"
#include "testutil.h"

static void
test_hydrate__paths(void **state)
{
	(void)state;
	assert_string_equal(hydrate_path(&A, "eu", HYDRATE_CLUSTER, HYDRATE_MANIFEST),
			    "clusters/eu/cluster/manifest.yaml");
	assert_string_equal(hydrate_path(&A, "eu", HYDRATE_ARGOCD, HYDRATE_README),
			    "clusters/eu/argocd/README.md");
}

static void
test_hydrate__names(void **state)
{
	(void)state;
	assert_true(hydrate_name_ok("inference-eu"));
	assert_false(hydrate_name_ok(""));
	assert_false(hydrate_name_ok(NULL));
	assert_false(hydrate_name_ok(".."));
	assert_false(hydrate_name_ok(".git"));
	assert_false(hydrate_name_ok("a/b"));
	assert_false(hydrate_name_ok("a\\b"));
	assert_false(hydrate_name_ok("a\nb"));
}

static void
test_hydrate__message_ends_with_the_trailers(void **state)
{
	const char *m = hydrate_message(&A, "0123456789abcdef0123456789abcdef01234567", "1.2.3", 2);
	const char *tail = "\n\nGpusite-Source: 0123456789abcdef0123456789abcdef01234567\n"
			   "Gpusite-Version: 1.2.3\n";

	(void)state;
	assert_true(strlen(m) > strlen(tail));
	assert_string_equal(m + strlen(m) - strlen(tail), tail);
	assert_non_null(strstr(m, "2 clusters"));
	assert_int_equal(strncmp(m, "gpusite hydrate: rendered manifests of 0123456789ab\n\n", 53),
			 0);
	/* the same input, the same bytes: the commit id depends on them */
	assert_string_equal(
		m, hydrate_message(&A, "0123456789abcdef0123456789abcdef01234567", "1.2.3", 2));
}

static const char *sites_a[] = { "a1" };
static const char *sites_b[] = { "b1", "b2" };

static void
test_hydrate__files_sorted_index_first_empty_parts_left_out(void **state)
{
	/* "a-b" sorts before "a/" in byte order: the files are sorted by path */
	struct hydrate_cluster cs[2] = {
		{ "a", sites_a, 1, { "x: 1\n", NULL }, { 5, 0 } },
		{ "a-b", sites_b, 2, { "y: 1\n", "z: 1\n" }, { 5, 5 } },
	};
	struct source_tree_file *f;
	size_t n = hydrate_files(&f, &A, cs, 2);
	static const char *const want[] = {
		"README.md",
		"clusters/a-b/argocd/README.md",
		"clusters/a-b/argocd/manifest.yaml",
		"clusters/a-b/cluster/README.md",
		"clusters/a-b/cluster/manifest.yaml",
		"clusters/a/cluster/README.md",
		"clusters/a/cluster/manifest.yaml",
	};

	(void)state;
	assert_int_equal(n, 7);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(f[i].path, want[i]);
	assert_memory_equal(f[2].data, "z: 1\n", 5);
	assert_non_null(strstr(f[0].data, "| `a-b` | `b1`, `b2` |"));
	assert_non_null(strstr(f[0].data, "| `a` | `a1` | [cluster/](clusters/a/cluster/) | - |"));
	assert_non_null(strstr(f[3].data, "gpusite render --objects cluster --cluster a-b"));
	assert_non_null(strstr(f[3].data, "do not edit"));
}

static void
test_hydrate__changes(void **state)
{
	struct source_set old = { NULL, 0, 0, NULL };
	struct source_tree_file now[] = {
		{ "a", "same", 4 },
		{ "b", "new", 3 },
		{ "d", "added", 5 },
	};
	struct hydrate_change *ch;
	size_t n;

	(void)state;
	source_set_add(&A, &old, "a", "same", 4);
	source_set_add(&A, &old, "b", "old", 3);
	source_set_add(&A, &old, "c", "gone", 4);
	n = hydrate_changes(&ch, &A, &old, now, 3);
	assert_int_equal(n, 3);
	assert_int_equal(ch[0].status, 'M');
	assert_string_equal(ch[0].path, "b");
	assert_int_equal(ch[1].status, 'D');
	assert_string_equal(ch[1].path, "c");
	assert_int_equal(ch[2].status, 'A');
	assert_string_equal(ch[2].path, "d");
	assert_int_equal(hydrate_changes(&ch, &A, &old, NULL, 0), 3);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		TESTUTIL_CASE(test_hydrate__paths),
		TESTUTIL_CASE(test_hydrate__names),
		TESTUTIL_CASE(test_hydrate__message_ends_with_the_trailers),
		TESTUTIL_CASE(test_hydrate__files_sorted_index_first_empty_parts_left_out),
		TESTUTIL_CASE(test_hydrate__changes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
