/*
 * test_diff_unified.c - diff_unified() over many objects: the text is
 * right on every call and libgit2 is not set up again for each one (that
 * reloaded the system CA bundle, about 10 ms a call); the libgit2 call
 * under it, source_diff_buffers(), hands over hunks and lines only.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "base/buf.h"
#include "diff/diff.h"
#include "source/source.h"

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void
test_diff_unified__many_calls_stay_right(void **state)
{
	struct buf out;

	(void)state;
	buf_init(&out, 0);
	for (int i = 0; i < 50; i++) {
		char a[64], b[64];

		snprintf(a, sizeof(a), "kind: NodePool\nlimit: %d\nname: x\n", i);
		snprintf(b, sizeof(b), "kind: NodePool\nlimit: %d\nname: x\n", i + 1);
		buf_reset(&out);
		assert_int_equal(diff_unified(&out, a, strlen(a), "a/x", b, strlen(b), "b/x"), 1);
		snprintf(a, sizeof(a), "-limit: %d\n+limit: %d\n", i, i + 1);
		assert_non_null(strstr(out.data, a));
		assert_memory_equal(out.data, "--- a/x\n+++ b/x\n@@ ", 19);
	}
	buf_release(&out);
}

static void
test_diff_unified__a_thousand_diffs_are_cheap(void **state)
{
	const char a[] = "spec:\n  gpuLimit: 16\n", b[] = "spec:\n  gpuLimit: 24\n";
	struct buf out;
	double t0, spent;

	(void)state;
	buf_init(&out, 0);
	t0 = now();
	for (int i = 0; i < 1000; i++) {
		buf_reset(&out);
		assert_int_equal(diff_unified(&out, a, strlen(a), "a", b, strlen(b), "b"), 1);
	}
	spent = now() - t0;
	/* about 10 ms a call when libgit2 was set up each time: 10 s here;
	 * a few ms in all otherwise, so 2 s leaves room for a slow machine
	 * or a sanitizer build */
	if (spent > 2.0)
		fail_msg("1000 diffs took %.2f s", spent);
	buf_release(&out);
}

/* What source_diff_buffers() handed over, one mark a callback. */
static int
log_hunk(void *ctx, const char *header, size_t len)
{
	return buf_printf(ctx, "H[%.*s]", (int)len, header) < 0;
}

static int
log_line(void *ctx, char origin, const char *text, size_t len)
{
	return buf_printf(ctx, "%c[%.*s]", origin, (int)len, text) < 0;
}

static int
stop_line(void *ctx, char origin, const char *text, size_t len)
{
	(void)ctx;
	(void)origin;
	(void)text;
	(void)len;
	return 1;
}

static void
test_diff_unified__source_hands_over_hunks_and_lines(void **state)
{
	const char a[] = "a\nb\nc", b[] = "a\nB\nc";
	struct buf out;
	struct source_diff_sink sink = { log_hunk, log_line, &out };
	struct source_diff_sink stop = { log_hunk, stop_line, &out };

	(void)state;
	buf_init(&out, 0);
	assert_int_equal(source_diff_buffers(a, strlen(a), b, strlen(b), 1, &sink), 0);
	/* one hunk, no "\\ No newline" marker, no file headers */
	assert_string_equal(out.data, "H[@@ -1,3 +1,3 @@\n] [a\n]-[b\n]+[B\n] [c]");
	buf_reset(&out);
	assert_int_equal(source_diff_buffers(a, strlen(a), a, strlen(a), 3, &sink), 0);
	assert_string_equal(out.data, "");
	/* a callback that says stop makes the call fail */
	assert_int_equal(source_diff_buffers(a, strlen(a), b, strlen(b), 3, &stop), -1);
	buf_release(&out);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_diff_unified__many_calls_stay_right),
		cmocka_unit_test(test_diff_unified__a_thousand_diffs_are_cheap),
		cmocka_unit_test(test_diff_unified__source_hands_over_hunks_and_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
