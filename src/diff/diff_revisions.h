/*
 * diff_revisions.h - what a change does to the rendered output, object by
 * object: two sides read, rendered and compared (`gpusite diff --base`).
 * The writers are report/report_diff.h's.
 */
#ifndef GS_DIFF_REVISIONS_H
#define GS_DIFF_REVISIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "pipeline/pipeline.h"
#include "render/render.h"
#include "source/source.h"

struct arena;
struct node;

/* Most bytes of one object's YAML or diff, and of a whole report. */
#define DIFF_REVISIONS_CAP ((size_t)1 << 30)

enum diff_change { DIFF_SAME, DIFF_CHANGED, DIFF_ADDED, DIFF_REMOVED };

/* "unchanged", "changed", "added", "removed", by enum diff_change. */
extern const char *const diff_change_names[];

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
};

enum diff_side_result {
	DIFF_SIDE_EINVALID = -1,	/* the head side's specs are invalid */
	DIFF_SIDE_EFAIL = -2,		/* unreadable, or the base side invalid */
};

/*
 * Read side `s` (s->rev over `src`: its repo, staged flag and paths; its
 * ref is ignored), check and render it, and sort its objects.  No spec
 * file at all is a side without objects.  Returns 0, or after printing why
 * on stderr (coloured as `flags` says): DIFF_SIDE_EINVALID when the specs
 * are invalid on the head side, DIFF_SIDE_EFAIL when they could not be
 * read or are invalid on the base side (`is_base`): nothing to compare.
 */
int diff_side_load(struct diff_side *s, struct arena *a,
		   const struct pipeline_source *src, bool is_base, unsigned flags);

/* Rank, namespace, name, kind: the order of diff_side.objs. */
int diff_revisions_cmp(const void *x, const void *y);

/* Match and compare the objects of both sides into `res`, secrets masked:
 * 0, or -1 when an object could not be written (over the cap). */
int diff_revisions_compare(struct diff_result *res, struct arena *a,
			   struct diff_side *base, struct diff_side *head);

/*
 * Mask secrets in a rendered object, in place: the value of every
 * activationCode key becomes SECRET_REDACTED, and so does an
 * activationCode written inside a string (a NodeConfig embedded in a
 * ConfigMap, as YAML "activationCode: x" or JSON "activationCode":"x"),
 * by secret_redact_text() of base/secret.h.
 */
void diff_revisions_redact(struct arena *a, struct node *n);

#endif
