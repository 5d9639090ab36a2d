/*
 * emit_batch.h - a fleet's cluster stream and files as text, rendered in
 * batches of whole clusters so that the trees of a large fleet never
 * coexist: the output is the same bytes as one render_fleet() over the
 * fleet, written in its order.
 */
#ifndef GS_EMIT_BATCH_H
#define GS_EMIT_BATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "base/diag.h"
#include "emit/emit.h"
#include "render/render.h"
#include "spec/spec.h"

struct arena;

#define EMIT_STREAM_CAP ((size_t)1 << 30)
#define EMIT_FILE_CAP ((size_t)16 << 20)
#define EMIT_CLUSTER_NAMES 3 /* cluster names kept for a message */

struct emit_text_object {
	struct render_object key; /* rank, namespace, name, kind; the rest NULL */
	const char *text;         /* as emit_stream() writes the object, */
	size_t off;               /* or NULL and at off in the spool */
	size_t len;
};

struct emit_text_file {
	struct render_file key; /* kind, path, site, has_secret; doc NULL */
	struct buf *data;       /* heap (EMIT_FILE_CAP), see emit_batch_release */
};

/*
 * The objects' text of a batched render waits in the spool, an unnamed
 * temporary file (O_TMPFILE in $TMPDIR or /tmp; the stream holds no
 * secret), so the peak memory does not grow with the stream: 133 MB of
 * text at 10,000 sites.  Without a temporary file the text stays in
 * memory.  `pending` gathers the writes.
 */
struct emit_batch {
	const char *name; /* for messages: "gpusite render" */
	struct emit_text_object *objects;
	size_t count;
	size_t alloc;
	struct emit_text_file *files;
	size_t file_count;
	size_t file_alloc;
	bool may_spool; /* a batched render */
	bool spool_tried;
	int spool;          /* fd, or -1: the text in memory */
	size_t spool_len;   /* bytes in the spool and in pending */
	struct buf pending; /* not yet written to the spool */
	size_t stream_len;  /* the whole stream */
	/* The clusters (spec.cluster.name) of the stream's objects that live
	 * in a cluster, not in a hub (hub(o) false; hub NULL: every object):
	 * how many, and the first few in name order. */
	bool (*hub)(const struct render_object *o);
	size_t clusters;
	const char *cluster_names[EMIT_CLUSTER_NAMES];
};

/* Where the whole sites of a batch come from when the fleet holds stubs
 * (a lean pipeline): whole(out, t, ctx, stubs) reads them again into t.
 * NULL, or whole NULL: the fleet's sites are whole. */
struct emit_sites {
	void (*whole)(struct spec_fleet *out, struct arena *t, const void *ctx,
		      const struct spec_fleet *stubs);
	const void *ctx;
};

void emit_batch_init(struct emit_batch *r, const char *name);
/* The files' buffers and the spool; the arena holds the rest. */
void emit_batch_release(struct emit_batch *r);

/*
 * Render `fleet` into `out` as text in the arena `a`, sorted as
 * render_fleet() sorts: with opt->sites, or a small fleet, in one batch;
 * else whole clusters in batches of about 64 sites, each into a scratch
 * arena.  Every batch is rendered even after one fails, so every finding
 * is reported (in d).  A fleet that renders nothing says so (GS191).
 * Returns 0, or -1 after diagnostics or a message on stderr.
 */
int emit_batch_render(struct emit_batch *out, struct arena *a, struct diags *d,
		      const struct emit_sites *sites, const struct spec_fleet *fleet,
		      const struct render_options *opt, enum emit_format fmt);

/* The stream in sort order, to fd or (fd < 0) to stdout: 0, or -1. */
int emit_batch_write(int fd, const struct emit_batch *r);
/* emit_batch_write() as an emit_write_fn (emit_file.h). */
int emit_batch_write_fd(int fd, const void *batch);

struct emit_files;

/*
 * The files of a render without errors, committed all or nothing
 * (emit_file.h): the NodeConfig files below `nodeconfigs`, the Helm
 * values below `values`, then the stream to `output` (the largest, last;
 * each NULL: none).  0, or -1 after saying why on stderr.
 */
int emit_batch_commit(struct arena *a, struct emit_files *outs, const struct emit_batch *r,
		      const char *nodeconfigs, const char *values, const char *output);

/*
 * A stream holding the objects of several clusters fits no one cluster:
 * say so, once, on stderr, naming the first few (stdout and the exit code
 * stay as they are).
 */
void emit_batch_note_clusters(struct arena *a, const struct emit_batch *r);

#endif
