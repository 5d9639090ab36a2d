/*
 * pipeline_diff.h - the road of `gpusite diff --base`: two sides read,
 * rendered and compared object by object into a diff_result, which the
 * writers of report/report_diff.h print.
 */
#ifndef GS_PIPELINE_DIFF_H
#define GS_PIPELINE_DIFF_H

#include <stdbool.h>
#include <stddef.h>

#include "pipeline/pipeline.h"
#include "render/render.h"
#include "report/report_diff.h"
#include "source/source.h"

struct arena;

/* One side of the comparison: read, checked, rendered. */
struct diff_side {
	const char *rev;   /* as given, or NULL */
	const char *where; /* "at main", "in the work tree", "in the index" */
	const char *label; /* "main", "work tree", "index" */
	struct source_set files;
	struct pipeline p;
	struct render_result r;
	const struct render_object **objs; /* sorted by key */
	size_t count;
};

enum diff_side_result {
	DIFF_SIDE_EINVALID = -1, /* the head side's specs are invalid */
	DIFF_SIDE_EFAIL = -2,    /* unreadable, or the base side invalid */
};

/*
 * Read side `s` (s->rev over `src`: its repo, staged flag and paths; its
 * ref is ignored), check and render it, and sort its objects.  No spec
 * file at all is a side without objects.  Returns 0, or after printing why
 * on stderr (coloured as `flags` says): DIFF_SIDE_EINVALID when the specs
 * are invalid on the head side, DIFF_SIDE_EFAIL when they could not be
 * read or are invalid on the base side (`is_base`): nothing to compare.
 */
int diff_side_load(struct diff_side *s, struct arena *a, const struct pipeline_source *src,
		   bool is_base, unsigned flags);

/* Rank, namespace, name, kind: the order of diff_side.objs. */
int diff_revisions_cmp(const void *x, const void *y);

/* Match and compare the objects of both sides into `res`, secrets masked:
 * 0, or -1 when an object could not be written (over the cap). */
int diff_revisions_compare(struct diff_result *res, struct arena *a, struct diff_side *base,
			   struct diff_side *head);

/* The formats of `diff --base`. */
enum diff_format { DIFF_FORMAT_TEXT, DIFF_FORMAT_JSON, DIFF_FORMAT_MARKDOWN, DIFF_FORMAT_GITHUB };

/* "text", "json", "markdown" or "github" (NULL: text): 0, or -1. */
int diff_format_parse(enum diff_format *out, const char *s);

/* Name the --head side: the revision `head`, else the index (`staged`),
 * HEAD of --repo (`repo`) or the work tree. */
void diff_side_name_head(struct diff_side *hs, struct arena *a, const char *head, bool staged,
			 bool repo);

/*
 * Write the comparison to stdout in `fmt` (github annotations name each
 * spec file from the top of src's work tree); negative when it could not
 * be written.
 */
int diff_revisions_write(enum diff_format fmt, struct arena *a, struct diff_result *res,
			 const struct pipeline_source *src, bool quiet);

#endif
