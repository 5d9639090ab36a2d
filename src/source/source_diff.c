/*
 * source_diff.c - libgit2's git_diff_buffers() behind source_diff_buffers():
 * no diff algorithm of our own, and libgit2 seen by source/ only.
 * diff/diff_unified.c makes the unified diff of it.
 */
#include <git2.h>

#include "source/source.h"

struct sink_state {
	const struct source_diff_sink *sink;
	int err;
};

static int
on_hunk(const git_diff_delta *delta, const git_diff_hunk *hunk, void *payload)
{
	struct sink_state *st = payload;

	(void)delta;
	if (st->sink->on_hunk(st->sink->ctx, hunk->header, hunk->header_len)) {
		st->err = -1;
		return -1;
	}
	return 0;
}

static int
on_line(const git_diff_delta *delta, const git_diff_hunk *hunk, const git_diff_line *line,
	void *payload)
{
	struct sink_state *st = payload;

	(void)delta;
	(void)hunk;
	switch (line->origin) {
	case GIT_DIFF_LINE_CONTEXT:
	case GIT_DIFF_LINE_ADDITION:
	case GIT_DIFF_LINE_DELETION: break;
	default: /* "\ No newline at end of file" markers */ return 0;
	}
	if (st->sink->on_line(st->sink->ctx, line->origin, line->content, line->content_len)) {
		st->err = -1;
		return -1;
	}
	return 0;
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
source_diff_buffers(const char *a_text, size_t a_len, const char *b_text, size_t b_len,
		    unsigned context, const struct source_diff_sink *sink)
{
	git_diff_options opts;
	struct sink_state st = { sink, 0 };
	int error;

	diff_git_init();
	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	opts.context_lines = context;
	opts.flags |= GIT_DIFF_FORCE_TEXT;
	error = git_diff_buffers(a_text, a_len, NULL, b_text, b_len, NULL, &opts, NULL, NULL,
				 on_hunk, on_line, &st);
	return error < 0 || st.err < 0 ? -1 : 0;
}
