/*
 * diff_unified.c - the unified diff of two texts, "--- a" / "+++ b"
 * headers and 3 lines of context, from source_diff_buffers() (libgit2's
 * line diff: no diff algorithm of our own).
 */
#include <string.h>

#include "base/buf.h"
#include "diff/diff.h"
#include "source/source.h"

static int
add_hunk(void *ctx, const char *header, size_t len)
{
	return buf_add(ctx, header, len) < 0 ? -1 : 0;
}

static int
add_line(void *ctx, char origin, const char *text, size_t len)
{
	struct buf *out = ctx;

	if (buf_addch(out, origin) < 0 || buf_add(out, text, len) < 0)
		return -1;
	return 0;
}

int
diff_unified(struct buf *out, const char *a_text, size_t a_len, const char *a_label,
	     const char *b_text, size_t b_len, const char *b_label)
{
	struct source_diff_sink sink = { add_hunk, add_line, out };

	if (a_len == b_len && !memcmp(a_text, b_text, a_len))
		return 0;
	if (buf_printf(out, "--- %s\n+++ %s\n", a_label, b_label) < 0)
		return -1;
	if (source_diff_buffers(a_text, a_len, b_text, b_len, 3, &sink) < 0)
		return -1;
	return 1;
}
