/*
 * test_emit_file.c - files written all or nothing and never through a
 * link, on a real temporary tree: a directory swapped for a symlink while
 * the files are written (between the check and the write, or between the
 * write and the rename) fails the commit and sends no byte through the
 * link; a secret is mode 0600 from its first byte; the path predicates.
 */
#include <dirent.h>
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
#include "base/buf.h"
#include "emit/emit_file.h"

#include "testutil_fs.h"

static int
setup(void **state)
{
	*state = testutil_fs_new("gpusite-emit-file");
	return 0;
}

static char *
at(struct fixture *f, const char *rel)
{
	return arena_printf(&f->arena, "%s/%s", f->base, rel);
}

/* How many entries `dir` holds (not . and ..), or -1. */
static int
entries(const char *dir)
{
	struct dirent *e;
	DIR *d = opendir(dir);
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

/* Swap the directory `dir` for a symlink to `to` (the attacker's move). */
struct swap {
	const char *dir;
	const char *moved;
	const char *to;
	mode_t mode; /* the mode of the file being written, as seen */
};

static int
swap_writer(int fd, const void *ctx)
{
	const struct swap *sw = ctx;
	struct stat st;

	if (fstat(fd, &st) < 0 || rename(sw->dir, sw->moved) < 0 || symlink(sw->to, sw->dir) < 0)
		return -1;
	((struct swap *)sw)->mode = st.st_mode & 07777;
	return emit_write_all(fd, "stream\n", 7);
}

static struct buf *
bytes(struct fixture *f, const char *text)
{
	struct buf *b = arena_alloc(&f->arena, sizeof(*b));

	buf_init(b, 0);
	assert_int_equal(buf_add(b, text, strlen(text)), 0);
	return b;
}

/* A later file's directory becomes a link while an earlier file is
 * written: the write through it fails, nothing reaches the target. */
static void
test_emit_file__link_swapped_in_before_write(void **state)
{
	struct fixture *f = *state;
	struct emit_files s = { .name = "test" };
	struct swap sw = { at(f, "nc/seoul"), at(f, "nc/seoul.real"), at(f, "outside"), 0 };
	struct buf *code = bytes(f, "activationCode: secret\n");

	assert_int_equal(mkdir(at(f, "nc"), 0777), 0);
	assert_int_equal(mkdir(at(f, "nc/seoul"), 0777), 0);
	assert_int_equal(mkdir(at(f, "outside"), 0777), 0);
	emit_files_add_writer(&f->arena, &s, at(f, "stream.yaml"), swap_writer, &sw);
	emit_files_add(&f->arena, &s, at(f, "nc"), "seoul/rack-b.yaml", code, true);
	assert_int_equal(emit_files_commit(&f->arena, &s), -1);
	assert_int_equal(entries(at(f, "outside")), 0);
	assert_int_equal(entries(at(f, "nc/seoul.real")), 0);
	/* the -o temporary is gone, and no stream.yaml was renamed in */
	assert_int_equal(entries(f->base), 2); /* nc, outside */
	buf_release(code);
}

/* A file's own directory becomes a link after its temporary was made:
 * the rename does not follow it. */
static void
test_emit_file__link_swapped_in_before_rename(void **state)
{
	struct fixture *f = *state;
	struct emit_files s = { .name = "test" };
	struct swap sw = { at(f, "out"), at(f, "out.real"), at(f, "outside"), 0 };

	assert_int_equal(mkdir(at(f, "out"), 0777), 0);
	assert_int_equal(mkdir(at(f, "outside"), 0777), 0);
	assert_int_equal(mkdir(at(f, "out/site"), 0777), 0);
	/* the root (out) is the user's; its own directory below is not */
	emit_files_add_writer(&f->arena, &s, at(f, "out/site/stream.yaml"), swap_writer, &sw);
	s.files[0].root = at(f, "out");
	s.files[0].rel = "site/stream.yaml";
	sw.dir = at(f, "out/site");
	sw.moved = at(f, "out/site.real");
	assert_int_equal(emit_files_commit(&f->arena, &s), -1);
	assert_int_equal(entries(at(f, "outside")), 0);
	assert_int_equal(access(at(f, "out/site.real/stream.yaml"), F_OK), -1);
}

/* A secret's temporary is 0600 while its bytes are written, whatever the
 * umask; a file that is not secret gets 0666 less the umask. */
static void
test_emit_file__secret_is_0600_from_the_first_byte(void **state)
{
	struct fixture *f = *state;
	struct emit_files s = { .name = "test" };
	struct swap sw = { at(f, "a"), at(f, "a.moved"), at(f, "a.moved"), 0 };
	mode_t old = umask(0);
	struct stat st;

	assert_int_equal(mkdir(at(f, "a"), 0777), 0);
	emit_files_add_writer(&f->arena, &s, at(f, "x/secret.yaml"), swap_writer, &sw);
	s.files[0].secret = true;
	/* the writer moves an unrelated directory: the commit succeeds */
	assert_int_equal(emit_files_commit(&f->arena, &s), 0);
	assert_int_equal(sw.mode, 0600);
	assert_int_equal(stat(at(f, "x/secret.yaml"), &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	memset(&s, 0, sizeof(s));
	s.name = "test";
	sw = (struct swap){ at(f, "b"), at(f, "b.moved"), at(f, "b.moved"), 0 };
	assert_int_equal(mkdir(at(f, "b"), 0777), 0);
	emit_files_add_writer(&f->arena, &s, at(f, "x/plain.yaml"), swap_writer, &sw);
	assert_int_equal(emit_files_commit(&f->arena, &s), 0);
	assert_int_equal(sw.mode, 0666);
	umask(old);
}

/* A link found by the check: nothing is written, no directory made. */
static void
test_emit_file__link_refused_before_any_write(void **state)
{
	struct fixture *f = *state;
	struct emit_files s = { .name = "test" };
	struct buf *one = bytes(f, "one\n"), *two = bytes(f, "two\n");

	assert_int_equal(mkdir(at(f, "v"), 0777), 0);
	assert_int_equal(mkdir(at(f, "outside"), 0777), 0);
	assert_int_equal(symlink(at(f, "outside"), at(f, "v/c2")), 0);
	emit_files_add(&f->arena, &s, at(f, "nc"), "s1/g.yaml", one, true);
	emit_files_add(&f->arena, &s, at(f, "v"), "c2/values.yaml", two, false);
	assert_int_equal(emit_files_commit(&f->arena, &s), -1);
	assert_int_equal(access(at(f, "nc"), F_OK), -1);
	assert_int_equal(entries(at(f, "outside")), 0);
	assert_int_equal(entries(at(f, "v")), 1);
	buf_release(one);
	buf_release(two);
}

static void
test_emit_file__path_predicates(void **state)
{
	(void)state;
	assert_true(emit_path_is_plain("site/group.yaml"));
	assert_true(emit_path_is_plain("a"));
	assert_false(emit_path_is_plain(""));
	assert_false(emit_path_is_plain("/etc/passwd"));
	assert_false(emit_path_is_plain("../x"));
	assert_false(emit_path_is_plain("a/./b"));
	assert_false(emit_path_is_plain("a//b"));
	assert_false(emit_path_is_plain("a/"));
	assert_true(emit_path_is_stdout("-"));
	assert_true(emit_path_is_stdout("/dev/stdout"));
	assert_true(emit_path_is_stdout("/dev/fd/1"));
	assert_false(emit_path_is_stdout("/dev/stderr"));
	assert_false(emit_path_is_stdout("./-"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_emit_file__link_swapped_in_before_write, setup,
						testutil_fs_teardown),
		cmocka_unit_test_setup_teardown(test_emit_file__link_swapped_in_before_rename,
						setup, testutil_fs_teardown),
		cmocka_unit_test_setup_teardown(test_emit_file__secret_is_0600_from_the_first_byte,
						setup, testutil_fs_teardown),
		cmocka_unit_test_setup_teardown(test_emit_file__link_refused_before_any_write,
						setup, testutil_fs_teardown),
		cmocka_unit_test(test_emit_file__path_predicates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
