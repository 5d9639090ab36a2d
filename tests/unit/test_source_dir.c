/*
 * test_source_dir.c - the work-tree walker on a real temporary tree:
 * order, hidden entries, defaults, path spelling, symlinks in and out of
 * the root, loops, FIFOs, directories named like specs, the size limit.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/arena.h"
#include "source/source.h"

#include "testutil_fs.h"

static void
write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* The temporary directory holds repo/ (the current directory) and
 * outside/. */
static int
setup(void **state)
{
	struct fixture *f = testutil_fs_new("gpusite-srcdir");
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/repo", f->base);
	assert_int_equal(mkdir(path, 0777), 0);
	snprintf(path, sizeof(path), "%s/outside", f->base);
	assert_int_equal(mkdir(path, 0777), 0);
	snprintf(path, sizeof(path), "%s/outside/secret.yaml", f->base);
	write_file(path, "kind: Secret\n");
	snprintf(path, sizeof(path), "%s/repo", f->base);
	assert_int_equal(chdir(path), 0);
	*state = f;
	return 0;
}

static int
collect(struct fixture *f, const char *const *paths, size_t n)
{
	memset(&f->set, 0, sizeof(f->set));
	return source_from_paths(&f->set, &f->arena, &f->diags, NULL, paths, n);
}

/* The diagnostic about `file`, or fail. */
static const struct diag *
diag_for(struct fixture *f, const char *file)
{
	for (size_t i = 0; i < f->diags.count; i++)
		if (f->diags.items[i].at.file && !strcmp(f->diags.items[i].at.file, file))
			return &f->diags.items[i];
	fail_msg("no diagnostic for '%s'", file);
	return NULL;
}

static void
make_tree(void)
{
	assert_int_equal(mkdir("sites", 0777), 0);
	assert_int_equal(mkdir("sites/sub", 0777), 0);
	assert_int_equal(mkdir("sites/a-b", 0777), 0);
	assert_int_equal(mkdir("sites/.git", 0777), 0);
	assert_int_equal(mkdir("sites/.hidden", 0777), 0);
	write_file("sites/b.yaml", "b: 1\n");
	write_file("sites/a.yml", "a: 1\n");
	write_file("sites/sub/c.yaml", "c: 1\n");
	write_file("sites/a-b/z.yaml", "z: 1\n");
	write_file("sites/.dot.yaml", "hidden: 1\n");
	write_file("sites/.git/HEAD.yaml", "git: 1\n");
	write_file("sites/.hidden/x.yaml", "hidden: 1\n");
	write_file("sites/notes.txt", "not a spec\n");
	write_file("top.yaml", "top: 1\n");
}

static void
test_source_dir__walks_sorted_and_skips_hidden(void **state)
{
	struct fixture *f = *state;
	static const char *const args[] = { "sites" };

	make_tree();
	assert_int_equal(collect(f, args, 1), SOURCE_OK);
	assert_int_equal(f->diags.count, 0);
	assert_int_equal(f->set.count, 4);
	assert_string_equal(f->set.files[0].path, "sites/a-b/z.yaml");
	assert_string_equal(f->set.files[1].path, "sites/a.yml");
	assert_string_equal(f->set.files[2].path, "sites/b.yaml");
	assert_string_equal(f->set.files[3].path, "sites/sub/c.yaml");
	assert_string_equal(f->set.files[2].data, "b: 1\n");
	assert_int_equal(f->set.files[2].len, 5);
}

static void
test_source_dir__defaults_to_sites_then_dot(void **state)
{
	struct fixture *f = *state;

	make_tree();
	assert_int_equal(collect(f, NULL, 0), SOURCE_OK);
	assert_int_equal(f->set.count, 4);
	assert_string_equal(f->set.files[0].path, "sites/a-b/z.yaml");
	assert_int_equal(chdir("sites/sub"), 0);
	assert_int_equal(collect(f, NULL, 0), SOURCE_OK);
	assert_int_equal(f->set.count, 1);
	assert_string_equal(f->set.files[0].path, "c.yaml"); /* not ./c.yaml */
}

static void
test_source_dir__paths_are_shown_as_given(void **state)
{
	struct fixture *f = *state;
	static const char *const args[] = { "./sites//sub/", "./top.yaml", "sites/notes.txt",
					    "top.yaml" };

	make_tree();
	assert_int_equal(collect(f, args, 4), SOURCE_OK);
	assert_int_equal(f->set.count, 3); /* top.yaml named twice, kept once */
	assert_string_equal(f->set.files[0].path, "sites/notes.txt"); /* named: taken */
	assert_string_equal(f->set.files[1].path, "sites/sub/c.yaml");
	assert_string_equal(f->set.files[2].path, "top.yaml");
}

static void
test_source_dir__symlink_inside_root_is_followed(void **state)
{
	struct fixture *f = *state;
	static const char *const args[] = { "sites" };

	make_tree();
	assert_int_equal(mkdir("shared", 0777), 0);
	write_file("shared/common.yaml", "shared: 1\n");
	assert_int_equal(symlink("../shared/common.yaml", "sites/link.yaml"), 0);
	assert_int_equal(symlink("../shared", "sites/linkdir"), 0); /* not walked */
	assert_int_equal(collect(f, args, 1), SOURCE_OK);
	assert_int_equal(f->diags.count, 0);
	assert_int_equal(f->set.count, 5);
	assert_string_equal(f->set.files[3].path, "sites/link.yaml");
	assert_string_equal(f->set.files[3].data, "shared: 1\n");
}

static void
test_source_dir__symlink_outside_root_is_gs006(void **state)
{
	struct fixture *f = *state;
	static const char *const args[] = { "sites" };
	const struct diag *d;

	make_tree();
	assert_int_equal(symlink("../../outside/secret.yaml", "sites/out.yaml"), 0);
	assert_int_equal(collect(f, args, 1), SOURCE_OK);
	assert_int_equal(f->set.count, 4); /* the target is never read */
	d = diag_for(f, "sites/out.yaml");
	assert_string_equal(d->rule, "GS006");
	assert_int_equal(d->level, DIAG_ERROR);
	assert_int_equal(d->at.line, 0);
	assert_non_null(strstr(d->msg, "symlink leads outside the repository"));
}

static void
test_source_dir__root_of_an_outside_argument_is_its_directory(void **state)
{
	struct fixture *f = *state;
	char dir[PATH_MAX + 16], link[PATH_MAX + 32], ok[PATH_MAX + 32];
	const char *args[1];

	snprintf(dir, sizeof(dir), "%s/outside/sub", f->base);
	assert_int_equal(mkdir(dir, 0777), 0);
	snprintf(ok, sizeof(ok), "%s/good.yaml", dir);
	write_file(ok, "good: 1\n");
	snprintf(link, sizeof(link), "%s/up.yaml", dir);
	assert_int_equal(symlink("../secret.yaml", link), 0); /* leaves outside/sub */
	args[0] = dir;
	assert_int_equal(collect(f, args, 1), SOURCE_OK);
	assert_int_equal(f->set.count, 1);
	assert_string_equal(f->set.files[0].data, "good: 1\n");
	assert_string_equal(diag_for(f, link)->rule, "GS006");
}

static void
test_source_dir__symlink_loop_is_gs006(void **state)
{
	struct fixture *f = *state;
	static const char *const args[] = { "sites" };
	const struct diag *d;

	make_tree();
	assert_int_equal(symlink("loop2.yaml", "sites/loop1.yaml"), 0);
	assert_int_equal(symlink("loop1.yaml", "sites/loop2.yaml"), 0);
	assert_int_equal(collect(f, args, 1), SOURCE_OK);
	assert_int_equal(f->set.count, 4);
	d = diag_for(f, "sites/loop1.yaml");
	assert_string_equal(d->rule, "GS006");
	assert_non_null(strstr(d->msg, "loop"));
	assert_string_equal(diag_for(f, "sites/loop2.yaml")->rule, "GS006");
}

static void
test_source_dir__fifo_and_directory_are_not_files(void **state)
{
	struct fixture *f = *state;
	static const char *const args[] = { "sites" };
	static const char *const fifo_arg[] = { "sites/fifo.yaml" };
	const struct diag *d;

	make_tree();
	assert_int_equal(mkfifo("sites/fifo.yaml", 0600), 0); /* opening it would block */
	assert_int_equal(mkdir("sites/dir.yaml", 0777), 0);
	assert_int_equal(collect(f, args, 1), SOURCE_OK);
	assert_int_equal(f->set.count, 4);
	d = diag_for(f, "sites/fifo.yaml");
	assert_string_equal(d->rule, "GS006");
	assert_non_null(strstr(d->msg, "FIFO"));
	d = diag_for(f, "sites/dir.yaml");
	assert_string_equal(d->rule, "GS006");
	assert_non_null(strstr(d->msg, "directory"));
	/* named on the command line, a FIFO is still refused */
	f->diags.count = 0;
	assert_int_equal(collect(f, fifo_arg, 1), SOURCE_OK);
	assert_int_equal(f->set.count, 0);
	assert_string_equal(diag_for(f, "sites/fifo.yaml")->rule, "GS006");
}

static void
test_source_dir__refuses_big_files_by_size(void **state)
{
	struct fixture *f = *state;
	static const char *const args[] = { "sites" };
	const struct diag *d;
	int fd;

	make_tree();
	fd = open("sites/big.yaml", O_WRONLY | O_CREAT, 0644);
	assert_true(fd >= 0);
	/* sparse: the size says no before a byte is read */
	assert_int_equal(ftruncate(fd, (off_t)SOURCE_MAX_FILE_BYTES + 1), 0);
	close(fd);
	fd = open("sites/edge.yaml", O_WRONLY | O_CREAT, 0644);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)SOURCE_MAX_FILE_BYTES), 0);
	close(fd);
	assert_int_equal(collect(f, args, 1), SOURCE_OK);
	assert_int_equal(f->set.count, 5); /* exactly at the limit is fine */
	assert_string_equal(f->set.files[3].path, "sites/edge.yaml");
	assert_int_equal(f->set.files[3].len, SOURCE_MAX_FILE_BYTES);
	d = diag_for(f, "sites/big.yaml");
	assert_string_equal(d->rule, "GS001");
	assert_non_null(strstr(d->msg, "limit"));
}

static void
test_source_dir__missing_path_is_not_found(void **state)
{
	struct fixture *f = *state;
	static const char *const args[] = { "./nope" };
	static const char *const deep[] = { "nodir/x.yaml" };

	assert_int_equal(collect(f, args, 1), SOURCE_ENOTFOUND);
	assert_int_equal(f->diags.count, 1);
	assert_string_equal(f->diags.items[0].msg, "cannot read 'nope': No such file or directory");
	assert_null(f->diags.items[0].at.file);
	f->diags.count = 0;
	assert_int_equal(collect(f, deep, 1), SOURCE_ENOTFOUND);
	assert_string_equal(f->diags.items[0].msg,
			    "cannot read 'nodir/x.yaml': No such file or directory");
}

static void
test_source_dir__set_sorts_by_path_bytes(void **state)
{
	struct fixture *f = *state;

	memset(&f->set, 0, sizeof(f->set));
	source_set_add(&f->arena, &f->set, "b", "1", 1);
	source_set_add(&f->arena, &f->set, "a/z", "2\0x", 3); /* NUL kept */
	source_set_add(&f->arena, &f->set, "a-z", "3", 1);
	source_set_sort(&f->set);
	assert_string_equal(f->set.files[0].path, "a-z");
	assert_string_equal(f->set.files[1].path, "a/z");
	assert_string_equal(f->set.files[2].path, "b");
	assert_int_equal(f->set.files[1].len, 3);
	assert_memory_equal(f->set.files[1].data, "2\0x\0", 4);
}

int
main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, testutil_fs_teardown)
	const struct CMUnitTest tests[] = {
		T(test_source_dir__walks_sorted_and_skips_hidden),
		T(test_source_dir__defaults_to_sites_then_dot),
		T(test_source_dir__paths_are_shown_as_given),
		T(test_source_dir__symlink_inside_root_is_followed),
		T(test_source_dir__symlink_outside_root_is_gs006),
		T(test_source_dir__root_of_an_outside_argument_is_its_directory),
		T(test_source_dir__symlink_loop_is_gs006),
		T(test_source_dir__fifo_and_directory_are_not_files),
		T(test_source_dir__refuses_big_files_by_size),
		T(test_source_dir__missing_path_is_not_found),
		T(test_source_dir__set_sorts_by_path_bytes),
	};
#undef T

	return cmocka_run_group_tests(tests, NULL, NULL);
}
