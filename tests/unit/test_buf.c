/*
 * test_buf.c - capped buffers: invariants, the cap, reading files and
 * streams without ever reading more than the cap.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>
#include <cmocka.h>

#include "base/buf.h"

static char tmpdir[256];

static int
setup(void **state)
{
	const char *t = getenv("TMPDIR");

	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "%s/test_buf.XXXXXX", t ? t : "/tmp");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int
teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static const char *
tmp_path(const char *name)
{
	static char p[512];

	snprintf(p, sizeof(p), "%s/%s", tmpdir, name);
	return p;
}

static void
write_file(const char *path, const char *s, size_t n)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(s, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

static void
test_buf__init_invariants(void **state)
{
	struct buf b = BUF_INIT;

	(void)state;
	assert_ptr_equal(b.data, buf_empty);
	assert_int_equal(b.len, 0);
	assert_int_equal(b.data[0], '\0');
	buf_init(&b, 10);
	assert_ptr_equal(b.data, buf_empty);
	assert_int_equal(b.cap, 10);
	/* Releasing an empty buffer frees nothing and keeps the sentinel. */
	buf_release(&b);
	assert_ptr_equal(b.data, buf_empty);
	assert_int_equal(buf_empty[0], '\0');
}

static void
test_buf__append_keeps_nul(void **state)
{
	struct buf b = BUF_INIT;
	int i;

	(void)state;
	assert_int_equal(buf_adds(&b, "abc"), 0);
	assert_int_equal(buf_addch(&b, '-'), 0);
	assert_int_equal(buf_add(&b, "xyz\0q", 5), 0);
	assert_int_equal(b.len, 9);
	assert_memory_equal(b.data, "abc-xyz\0q", 9);
	assert_int_equal(b.data[9], '\0');
	for (i = 0; i < 1000; i++)
		assert_int_equal(buf_printf(&b, "%d,", i), 0);
	assert_int_equal(b.data[b.len], '\0');
	assert_non_null(strstr(b.data + 10, "999,"));
	buf_reset(&b);
	assert_int_equal(b.len, 0);
	assert_string_equal(b.data, "");
	buf_release(&b);
}

static void
test_buf__printf_long(void **state)
{
	struct buf b = BUF_INIT;
	char s[2000];

	(void)state;
	memset(s, 'x', sizeof(s) - 1);
	s[sizeof(s) - 1] = '\0';
	assert_int_equal(buf_printf(&b, "<%s>", s), 0);
	assert_int_equal(b.len, sizeof(s) + 1);
	assert_int_equal(b.data[b.len - 1], '>');
	buf_release(&b);
}

static void
test_buf__cap_refuses_and_leaves_buffer(void **state)
{
	struct buf b;

	(void)state;
	buf_init(&b, 8);
	assert_int_equal(buf_adds(&b, "12345"), 0);
	assert_int_equal(buf_adds(&b, "6789"), BUF_ETOOBIG);
	assert_int_equal(b.len, 5);
	assert_string_equal(b.data, "12345");
	assert_int_equal(buf_printf(&b, "%s", "abcdef"), BUF_ETOOBIG);
	assert_string_equal(b.data, "12345");
	assert_int_equal(buf_adds(&b, "678"), 0); /* exactly at the cap */
	assert_int_equal(buf_addch(&b, '9'), BUF_ETOOBIG);
	assert_string_equal(b.data, "12345678");
	buf_release(&b);
}

static void
test_buf__detach_hands_over(void **state)
{
	struct buf b = BUF_INIT;
	size_t len = 99;
	char *p;

	(void)state;
	p = buf_detach(&b, &len);
	assert_int_equal(len, 0);
	assert_string_equal(p, "");
	assert_ptr_not_equal(p, buf_empty);
	free(p);
	assert_int_equal(buf_adds(&b, "hello"), 0);
	p = buf_detach(&b, &len);
	assert_int_equal(len, 5);
	assert_string_equal(p, "hello");
	assert_ptr_equal(b.data, buf_empty);
	assert_int_equal(b.len, 0);
	free(p);
}

static void
test_buf__read_file(void **state)
{
	struct buf b;
	const char *path = tmp_path("small");

	(void)state;
	write_file(path, "a: 1\n", 5);
	buf_init(&b, 100);
	assert_int_equal(buf_read_file(&b, path), 0);
	assert_int_equal(b.len, 5);
	assert_string_equal(b.data, "a: 1\n");
	buf_release(&b);

	/* Exactly at the cap is fine, one byte more is not. */
	buf_init(&b, 5);
	assert_int_equal(buf_read_file(&b, path), 0);
	buf_release(&b);
	buf_init(&b, 4);
	assert_int_equal(buf_read_file(&b, path), BUF_ETOOBIG);
	assert_int_equal(b.len, 0);
	buf_release(&b);

	/* Empty file. */
	write_file(tmp_path("empty"), "", 0);
	buf_init(&b, 4);
	assert_int_equal(buf_read_file(&b, tmp_path("empty")), 0);
	assert_int_equal(b.len, 0);
	buf_release(&b);
}

static void
test_buf__read_file_refuses_huge_without_reading(void **state)
{
	struct buf b;
	const char *path = tmp_path("huge");
	struct timeval t0, t1;
	int fd;

	(void)state;
	fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0600);
	assert_true(fd >= 0);
	/* 1 GiB, sparse: reading it would take seconds and a GiB of RAM. */
	assert_int_equal(ftruncate(fd, (off_t)1 << 30), 0);
	close(fd);
	buf_init(&b, 4u << 20);
	gettimeofday(&t0, NULL);
	assert_int_equal(buf_read_file(&b, path), BUF_ETOOBIG);
	gettimeofday(&t1, NULL);
	assert_int_equal(b.len, 0);
	assert_int_equal(b.alloc, 0); /* not a byte was buffered */
	assert_true((t1.tv_sec - t0.tv_sec) * 1000000 + (t1.tv_usec - t0.tv_usec) < 200000);
	buf_release(&b);
}

static void
test_buf__read_file_refuses_non_regular(void **state)
{
	struct buf b = BUF_INIT;
	const char *fifo = tmp_path("fifo");

	(void)state;
	errno = 0;
	assert_int_equal(buf_read_file(&b, tmpdir), -1);
	assert_int_equal(errno, EISDIR);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	/* Must neither block waiting for a writer nor read. */
	assert_int_equal(buf_read_file(&b, fifo), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(buf_read_file(&b, tmp_path("missing")), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(b.len, 0);
	buf_release(&b);
}

static void
test_buf__read_fd_under_cap(void **state)
{
	struct buf b;
	int fds[2];
	char chunk[1000];
	size_t i;

	(void)state;
	memset(chunk, 'y', sizeof(chunk));
	assert_int_equal(pipe(fds), 0);
	for (i = 0; i < 10; i++)
		assert_int_equal(write(fds[1], chunk, sizeof(chunk)), sizeof(chunk));
	close(fds[1]);
	buf_init(&b, 10000);
	assert_int_equal(buf_read_fd(&b, fds[0]), 0);
	assert_int_equal(b.len, 10000);
	close(fds[0]);
	buf_release(&b);

	assert_int_equal(pipe(fds), 0);
	for (i = 0; i < 10; i++)
		assert_int_equal(write(fds[1], chunk, sizeof(chunk)), sizeof(chunk));
	close(fds[1]);
	buf_init(&b, 9999);
	assert_int_equal(buf_adds(&b, "keep"), 0);
	assert_int_equal(buf_read_fd(&b, fds[0]), BUF_ETOOBIG);
	/* Failure leaves what was there before. */
	assert_string_equal(b.data, "keep");
	close(fds[0]);
	buf_release(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buf__init_invariants),
		cmocka_unit_test(test_buf__append_keeps_nul),
		cmocka_unit_test(test_buf__printf_long),
		cmocka_unit_test(test_buf__cap_refuses_and_leaves_buffer),
		cmocka_unit_test(test_buf__detach_hands_over),
		cmocka_unit_test(test_buf__read_file),
		cmocka_unit_test(test_buf__read_file_refuses_huge_without_reading),
		cmocka_unit_test(test_buf__read_file_refuses_non_regular),
		cmocka_unit_test(test_buf__read_fd_under_cap),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
