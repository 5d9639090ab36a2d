/*
 * report_diff.h - the writers of `gpusite diff --base` (text, json,
 * markdown, github) over a diff_result, and the result itself.
 */
#ifndef GS_REPORT_DIFF_H
#define GS_REPORT_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "render/render.h"

struct arena;
struct buf;

/* Most bytes of one object's YAML or diff, and of a whole report. */
#define DIFF_REVISIONS_CAP ((size_t)1 << 30)

enum diff_change { DIFF_SAME, DIFF_CHANGED, DIFF_ADDED, DIFF_REMOVED };

/* "unchanged", "changed", "added", "removed", by enum diff_change. */
extern const char *const diff_change_names[];

/* One object of the comparison, and the comparison: what the writers
 * print (filled by pipeline/pipeline_diff.h). */
struct diff_item {
	const struct render_object *obj; /* head's; base's when removed */
	const char *key;                 /* Kind/name or Kind/namespace/name */
	enum diff_change change;
	const char *diff;
	size_t len;
	size_t plus, minus;
	const char *file; /* spec file of the object's site, or NULL */
};

struct diff_result {
	struct diff_item *items;
	size_t count;
	size_t n[4]; /* per enum diff_change */
	const char *base;
	const char *head;
	const char *title; /* the markdown heading; NULL: "gpusite diff: BASE → HEAD" */
};

#define REPORT_DIFF_COMMENT_BUDGET 60000         /* a PR comment holds 65,536 characters */
#define REPORT_DIFF_SUMMARY_BUDGET (1000u << 10) /* a job summary step holds 1 MiB */

/* The diffs, then the summary line (left out when quiet and no change). */
int report_diff_text(FILE *out, struct arena *a, const struct diff_result *res, bool quiet);
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
