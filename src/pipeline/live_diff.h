/*
 * live_diff.h - the comparison of `gpusite diff --live`: each rendered
 * object of the cluster's sites against its live counterpart, then the
 * objects gpusite manages that are no longer rendered.  GET and LIST
 * only.  The command writes what it is handed (text or JSON).
 */
#ifndef GS_PIPELINE_LIVE_DIFF_H
#define GS_PIPELINE_LIVE_DIFF_H

#include <stdbool.h>
#include <stddef.h>

#include "pipeline/live.h"
#include "render/render.h"

/* What became of one object. */
enum live_change {
	LIVE_SAME,
	LIVE_CHANGED,
	LIVE_ADDED,   /* rendered, not in the cluster */
	LIVE_REMOVED, /* in the cluster, managed by gpusite, no longer rendered */
};

/* One object compared.  The strings live in the run's arena, except
 * `text`, which is valid during the callback only. */
struct live_diff_object {
	const char *api_version;
	const char *kind;
	const char *ns; /* "" for a cluster-scoped object */
	const char *name;
	enum live_change change;
	const char *text; /* the unified diff, live -> rendered; empty when the same */
	size_t len;
};

/* Called for every object in turn: rendered ones first (in the order
 * rendered), then the removed ones.  A negative return stops the walk. */
struct live_diff_cb {
	int (*object)(void *payload, const struct live_diff_object *o);
	void *payload;
};

enum live_diff_result {
	LIVE_DIFF_EKUBE = -1,    /* the cluster could not be read: r->errors says why */
	LIVE_DIFF_ECOMPARE = -2, /* *failed, a rendered object, could not be compared */
	LIVE_DIFF_EOUTPUT = -3,  /* a diff over `cap` bytes, or the callback said stop */
};

/*
 * Compare every rendered object of `r` (normalised, cut down to the
 * fields rendered sets, secrets masked) with the live one, then list the
 * kinds gpusite renders for objects of this cluster it no longer renders,
 * and hand each object to `cb`.  Each diff may take `cap` bytes.  Trees
 * and labels go into r->arena.  Returns 0 or a LIVE_DIFF_* code.
 */
int live_diff_compare(const struct render_object **failed, struct live_run *r, size_t cap,
		      const struct live_diff_cb *cb);

/* What live_diff_write() found. */
struct live_diff_tally {
	size_t changed, added, removed, same;
};

/*
 * live_diff_compare() writing to `out` (at most `cap` bytes): each
 * object's unified diff, then "N objects changed, N added, N removed"
 * (left out with `quiet` when nothing differs); with `json` one JSON
 * document instead: the cluster, every object with its status and diff,
 * the summary.  Returns 0, or a live_diff_result (LIVE_DIFF_EOUTPUT
 * also when the summary does not fit).
 */
int live_diff_write(struct buf *out, struct live_diff_tally *t, const struct render_object **failed,
		    struct live_run *r, size_t cap, bool json, bool quiet);

#endif
