/*
 * diff_revisions.h - `gpusite diff --base REV [--head REV]`: what a change
 * does to the rendered output, object by object (cmd_diff dispatches;
 * cmd_diff_revisions.c).
 */
#ifndef GS_CMD_DIFF_REVISIONS_H
#define GS_CMD_DIFF_REVISIONS_H

#include "cmd/opts.h"

/*
 * Render the specs at `base` and at `head` (NULL: the index with
 * --staged, the repository's HEAD with --repo, else the work tree) and
 * print the difference in `format` ("text", NULL = text, "json",
 * "markdown", "github").  o->repo, o->staged and o->args (PATH) apply to
 * both sides.  Returns the exit code: 0 no difference, 1 a difference or
 * a side whose specs are invalid, 3 when a side could not be read.
 */
int diff_revisions_run(const struct opts *o, const char *base, const char *head,
		       const char *format);

#endif
