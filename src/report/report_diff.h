/*
 * report_diff.h - the writers of `gpusite diff --base` (text, json,
 * markdown, github) over a diff_result.
 */
#ifndef GS_REPORT_DIFF_H
#define GS_REPORT_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "diff/diff_revisions.h"

struct arena;
struct buf;

#define REPORT_DIFF_COMMENT_BUDGET 60000         /* a PR comment holds 65,536 characters */
#define REPORT_DIFF_SUMMARY_BUDGET (1000u << 10) /* a job summary step holds 1 MiB */

/* The diffs, then the summary line (left out when quiet and no change). */
int report_diff_text(FILE *out, struct arena *a, const struct diff_result *res,
		     bool quiet);
/* One JSON document: base, head, objects, summary. */
int report_diff_json(FILE *out, struct arena *a, const struct diff_result *res);
/*
 * The pull-request comment: heading, summary, a table of what changed,
 * then one diff block per object, folded when long.  Whatever would take
 * it past `budget` bytes is left out and counted instead.
 */
int report_diff_markdown(struct buf *b, struct arena *a, const struct diff_result *res,
			 size_t budget);
/* Log groups and notice annotations, the summary line, and the markdown
 * appended to $GITHUB_STEP_SUMMARY when it is set. */
int report_diff_github(FILE *out, struct arena *a, const struct diff_result *res);

#endif
