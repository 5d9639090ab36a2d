/*
 * diff.h - comparing rendered objects: between Git revisions and against
 * the live cluster.  Text diffs come from libgit2's diff of two buffers
 * (implemented in source/, the only module that sees libgit2).
 */
#ifndef GS_DIFF_H
#define GS_DIFF_H

#include <stddef.h>

struct buf;

/*
 * Append a unified diff (3 lines of context) of a_text -> b_text to out,
 * with "--- a_label" / "+++ b_label" headers.  Nothing is appended when
 * the texts are equal.  Returns 1 when they differ, 0 when equal, -1 on
 * error (out of the buffer's cap, libgit2 failure).
 */
int diff_unified(struct buf *out, const char *a_text, size_t a_len,
		 const char *a_label, const char *b_text, size_t b_len,
		 const char *b_label);

#endif
