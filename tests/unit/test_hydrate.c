/*
 * test_hydrate.c - the pure parts of `gpusite hydrate`: the paths of the
 * branch, the DNS-1123 directory of a cluster, the paths a branch of
 * hydrate's may hold, the trailer that marks its commits, the branch
 * names refused, the commit message and its trailers, the files in path
 * order with the index first, and what changed between two trees.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "base/arena.h"
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
test_hydrate__dir_names_are_dns1123(void **state)
{
	(void)state;
	assert_string_equal(hydrate_dir_name(&A, "inference-eu"), "inference-eu");
	/* EKS allows upper case and '_'; a Kubernetes name neither */
	assert_string_equal(hydrate_dir_name(&A, "My_Cluster"), "my-cluster");
	assert_null(hydrate_dir_name(&A, ""));
	assert_null(hydrate_dir_name(&A, "a.b"));
	assert_null(hydrate_dir_name(&A, "_x"));
	assert_null(hydrate_dir_name(&A, "a/b"));
	assert_null(hydrate_dir_name(&A, "..")); /* never a path */
	assert_null(hydrate_dir_name(
		&A, "a234567890123456789012345678901234567890123456789012345678901234"));
}

static void
test_hydrate__owned_paths_are_the_layout(void **state)
{
	(void)state;
	assert_true(hydrate_owns_path("README.md"));
	assert_true(hydrate_owns_path("clusters/eu/cluster/manifest.yaml"));
	assert_true(hydrate_owns_path("clusters/eu/argocd/README.md"));
	assert_true(hydrate_owns_path("clusters/eu/argocd/cluster.json"));
	/* a directory an earlier version wrote (the cluster name as it was) */
	assert_true(hydrate_owns_path("clusters/My_Cluster/argocd/manifest.yaml"));
	assert_false(hydrate_owns_path("sites/eu.yaml"));
	assert_false(hydrate_owns_path("clusters/eu/cluster/extra.sh"));
	assert_false(hydrate_owns_path("clusters/eu/other/manifest.yaml"));
	assert_false(hydrate_owns_path("clusters/eu/manifest.yaml"));
	assert_false(hydrate_owns_path("clusters/.git/cluster/manifest.yaml"));
	assert_false(hydrate_owns_path("clusters/eu/cluster/a/manifest.yaml"));
	assert_false(hydrate_owns_path("clusters/README.md"));
	assert_false(hydrate_owns_path("readme.md"));
}

static void
test_hydrate__trailer_in_the_trailer_block_with_a_commit_id(void **state)
{
	static const char id[] = "0123456789abcdef0123456789abcdef01234567";
	const char *ours = hydrate_message(&A, id, "1.2.3", 1);

	(void)state;
	assert_true(source_branch_trailer_ok(ours, HYDRATE_TRAILER_KEY));
	/* in the body, a paragraph follows: not a trailer */
	assert_false(source_branch_trailer_ok(
		arena_printf(&A, "x\n\nGpusite-Source: %s\n\nmore words here\n", id),
		HYDRATE_TRAILER_KEY));
	assert_false(source_branch_trailer_ok("x\n\nGpusite-Source: main\n", HYDRATE_TRAILER_KEY));
	assert_false(source_branch_trailer_ok(
		"x\n\nGpusite-Source: 0123456789ABCDEF0123456789abcdef01234567\n",
		HYDRATE_TRAILER_KEY));
	assert_false(source_branch_trailer_ok(arena_printf(&A, "x\n\nGpusite-Source: %s0\n", id),
					      HYDRATE_TRAILER_KEY));
	assert_false(source_branch_trailer_ok("", HYDRATE_TRAILER_KEY));
}

static void
test_hydrate__branch_names(void **state)
{
	static const char *const bad[] = { "",
					   "HEAD",
					   "@",
					   "-x",
					   "a..b",
					   "a b",
					   "x.lock",
					   "a@{1}",
					   "refs/heads/x",
					   "heads/x",
					   "tags/v1",
					   "remotes/origin/x",
					   "origin/main",
					   "/abs",
					   "a//b",
					   "a/",
					   "a\x01" };

	(void)state;
	assert_null(source_branch_name_refusal("hydrated"));
	assert_null(source_branch_name_refusal("gpu/hydrated"));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_non_null(source_branch_name_refusal(bad[i]));
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
		{ "a", "a", NULL, sites_a, 1, { "x: 1\n", NULL }, { 5, 0 } },
		{ "A_B", "a-b", NULL, sites_b, 2, { "y: 1\n", "z: 1\n" }, { 5, 5 } },
	};
	struct source_tree_file *f;
	size_t n = hydrate_files(&f, &A, cs, 2);
	static const char *const want[] = {
		"README.md",
		"clusters/a-b/argocd/README.md",
		"clusters/a-b/argocd/cluster.json",
		"clusters/a-b/argocd/manifest.yaml",
		"clusters/a-b/cluster/README.md",
		"clusters/a-b/cluster/cluster.json",
		"clusters/a-b/cluster/manifest.yaml",
		"clusters/a/cluster/README.md",
		"clusters/a/cluster/cluster.json",
		"clusters/a/cluster/manifest.yaml",
	};

	(void)state;
	assert_int_equal(n, 10);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(f[i].path, want[i]);
	assert_memory_equal(f[3].data, "z: 1\n", 5);
	/* what the git files generator of plugin/hydrated reads */
	assert_string_equal(f[2].data, "{\"cluster\": \"A_B\", \"directory\": \"a-b\","
				       " \"destinationName\": \"A_B\"}\n");
	/* the index says which directory is which cluster */
	assert_non_null(strstr(f[0].data, "| `A_B` | `clusters/a-b/` | `b1`, `b2` |"));
	assert_non_null(strstr(
		f[0].data, "| `a` | `clusters/a/` | `a1` | [cluster/](clusters/a/cluster/) | - |"));
	assert_non_null(strstr(f[4].data, "gpusite render --objects cluster --cluster A_B"));
	assert_non_null(strstr(f[4].data, "do not edit"));
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
		TESTUTIL_CASE(test_hydrate__dir_names_are_dns1123),
		TESTUTIL_CASE(test_hydrate__owned_paths_are_the_layout),
		TESTUTIL_CASE(test_hydrate__trailer_in_the_trailer_block_with_a_commit_id),
		TESTUTIL_CASE(test_hydrate__branch_names),
		TESTUTIL_CASE(test_hydrate__message_ends_with_the_trailers),
		TESTUTIL_CASE(test_hydrate__files_sorted_index_first_empty_parts_left_out),
		TESTUTIL_CASE(test_hydrate__changes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
