/*
 * source_diff.c - diff_unified() on libgit2's git_diff_buffers(): no diff
 * algorithm of our own.
 */
#include <string.h>

#include <git2.h>

#include "base/buf.h"
#include "diff/diff.h"

struct diff_sink {
	struct buf *out;
	int err;
};

static int
diff_sink_hunk(const git_diff_delta *delta, const git_diff_hunk *hunk,
	       void *payload)
{
	struct diff_sink *sink = payload;

	(void)delta;
	if (buf_add(sink->out, hunk->header, hunk->header_len) < 0) {
		sink->err = -1;
		return -1;
	}
	return 0;
}

static int
diff_sink_line(const git_diff_delta *delta, const git_diff_hunk *hunk,
	       const git_diff_line *line, void *payload)
{
	struct diff_sink *sink = payload;

	(void)delta;
	(void)hunk;
	switch (line->origin) {
	case GIT_DIFF_LINE_CONTEXT:
	case GIT_DIFF_LINE_ADDITION:
	case GIT_DIFF_LINE_DELETION:
		if (buf_addch(sink->out, line->origin) < 0)
			goto fail;
		break;
	default:	/* "\ No newline at end of file" markers */
		return 0;
	}
	if (buf_add(sink->out, line->content, line->content_len) < 0)
		goto fail;
	return 0;
fail:
	sink->err = -1;
	return -1;
}

/*
 * libgit2 is initialised once and stays so for the rest of the run: each
 * git_libgit2_init() after a shutdown loads the system CA bundle again
 * (about 10 ms), which a diff of thousands of objects paid per object.
 */
static void
diff_git_init(void)
{
	static int ready;

	if (!ready) {
		git_libgit2_init();
		ready = 1;
	}
}

int
diff_unified(struct buf *out, const char *a_text, size_t a_len,
	     const char *a_label, const char *b_text, size_t b_len,
	     const char *b_label)
{
	git_diff_options opts;
	struct diff_sink sink = { out, 0 };
	int error;

	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	if (a_len == b_len && !memcmp(a_text, b_text, a_len))
		return 0;
	diff_git_init();
	opts.context_lines = 3;
	opts.flags |= GIT_DIFF_FORCE_TEXT;
	if (buf_printf(out, "--- %s\n+++ %s\n", a_label, b_label) < 0)
		return -1;
	error = git_diff_buffers(a_text, a_len, NULL, b_text, b_len, NULL,
				 &opts, NULL, NULL, diff_sink_hunk,
				 diff_sink_line, &sink);
	if (error < 0 || sink.err < 0)
		return -1;
	return 1;
}
