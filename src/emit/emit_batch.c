/*
 * emit_batch.c - the cluster stream of a fleet as text, rendered a few
 * whole clusters at a time, and written in render_fleet()'s order.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/xalloc.h"
#include "emit/emit_batch.h"
#include "emit/emit_file.h"

/*
 * A large fleet is rendered a few whole clusters at a time, each batch into
 * a scratch arena that is released once its objects and files are text:
 * the trees of 1,000 sites took 60 MB, their text takes 10.  The results
 * are merged in render_fleet()'s own order, so the output is the same
 * bytes as one render_fleet() over the fleet.  With --site, or a fleet of
 * at most RENDER_BATCH sites, there is one batch: the whole fleet.
 */
#define RENDER_BATCH 64

#define SPOOL_CHUNK ((size_t)1 << 20)
#define SPOOL_AFTER ((size_t)16 << 20) /* stream bytes kept in memory first */

static void
spool_open(struct emit_batch *r)
{
	const char *dir = getenv("TMPDIR");
	char *path;
	int fd = -1;

	if (!dir || !*dir)
		dir = "/tmp";
#ifdef O_TMPFILE
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
#endif
	if (fd < 0 && (path = malloc(strlen(dir) + 32))) {
		snprintf(path, strlen(dir) + 32, "%s/.gpusite-spool-XXXXXX", dir);
		fd = mkstemp(path);
		if (fd >= 0)
			unlink(path);
		free(path);
	}
	r->spool = fd;
	r->spool_tried = true;
	buf_init(&r->pending, SPOOL_CHUNK * 2);
}

static int
spool_flush(struct emit_batch *r)
{
	int rc = 0;

	if (r->spool >= 0 && r->pending.len) {
		rc = emit_write_all(r->spool, r->pending.data, r->pending.len);
		buf_reset(&r->pending);
	}
	return rc;
}

/* The stream in sort order, to fd or (fd < 0) to stdout. */
int
emit_batch_write(int fd, const struct emit_batch *r)
{
	char *chunk = NULL;
	size_t cap = 0;
	int rc = 0;

	for (size_t i = 0; i < r->count && rc == 0; i++) {
		const struct emit_text_object *t = &r->objects[i];
		const char *p = t->text;

		if (!p) {
			size_t got = 0;

			if (t->len > cap) {
				cap = t->len > 65536 ? t->len : 65536;
				free(chunk);
				chunk = xmalloc(cap);
			}
			while (got < t->len) {
				ssize_t n = pread(r->spool, chunk + got, t->len - got,
						  (off_t)(t->off + got));

				if (n < 0 && errno == EINTR)
					continue;
				if (n <= 0) {
					rc = -1;
					break;
				}
				got += (size_t)n;
			}
			p = chunk;
		}
		if (rc == 0)
			rc = fd >= 0 ? emit_write_all(fd, p, t->len)
				     : (fwrite(p, 1, t->len, stdout) == t->len ? 0 : -1);
	}
	free(chunk);
	return rc;
}

int
emit_batch_write_fd(int fd, const void *batch)
{
	return emit_batch_write(fd, batch);
}

void
emit_batch_init(struct emit_batch *r, const char *name)
{
	memset(r, 0, sizeof(*r));
	r->name = name;
	r->spool = -1;
	buf_init(&r->pending, 0);
}

void
emit_batch_release(struct emit_batch *r)
{
	for (size_t i = 0; i < r->file_count; i++)
		buf_release(r->files[i].data);
	buf_release(&r->pending);
	if (r->spool >= 0)
		close(r->spool);
	r->spool = -1;
}

static int
text_object_cmp(const void *pa, const void *pb)
{
	const struct emit_text_object *a = pa, *b = pb;

	return render_object_cmp(&a->key, &b->key);
}

static int
text_file_cmp(const void *pa, const void *pb)
{
	const struct emit_text_file *a = pa, *b = pb;

	return render_file_cmp(&a->key, &b->key);
}

static const char *
keep_str(struct arena *a, const char *s)
{
	return s ? arena_strdup(a, s) : NULL;
}

static int
str_cmp(const void *pa, const void *pb)
{
	return strcmp(*(const char *const *)pa, *(const char *const *)pb);
}

/* Keep `name` among the first EMIT_CLUSTER_NAMES names in name order. */
static void
keep_cluster_name(struct emit_batch *out, struct arena *a, const char *name)
{
	const char **v = out->cluster_names;
	size_t n = out->clusters < EMIT_CLUSTER_NAMES ? out->clusters : EMIT_CLUSTER_NAMES, at = n;

	while (at > 0 && strcmp(v[at - 1], name) > 0)
		at--;
	if (at == EMIT_CLUSTER_NAMES)
		return;
	if (n == EMIT_CLUSTER_NAMES)
		n--;
	memmove(v + at + 1, v + at, (n - at) * sizeof(*v));
	v[at] = arena_strdup(a, name);
}

/*
 * Count the clusters of the batch's objects that live in a cluster.  A
 * batch holds whole clusters (emit_batch_render), so no cluster is in
 * two batches and the counts add up.
 */
static void
count_clusters(struct emit_batch *out, struct arena *a, const struct render_result *r)
{
	const char **names = xmalloc((r->count + 1) * sizeof(*names));
	size_t n = 0;

	for (size_t i = 0; i < r->count; i++) {
		const struct render_object *o = &r->objects[i];

		if (o->cluster && !(out->hub && out->hub(o)))
			names[n++] = o->cluster;
	}
	qsort(names, n, sizeof(*names), str_cmp);
	for (size_t i = 0; i < n; i++) {
		if (i && !strcmp(names[i - 1], names[i]))
			continue;
		keep_cluster_name(out, a, names[i]);
		out->clusters++;
	}
	free(names);
}

/* Turn one batch's trees into text in the run's arena `a`. */
static int
keep_batch(struct emit_batch *out, struct arena *a, const struct render_result *r,
	   enum emit_format fmt)
{
	struct buf one;
	int rc = 0;

	count_clusters(out, a, r);
	buf_init(&one, EMIT_STREAM_CAP);
	for (size_t i = 0; i < r->count; i++) {
		const struct render_object *o = &r->objects[i];
		struct render_result single = { (struct render_object *)o, 1, 1, NULL, 0, 0 };
		struct emit_text_object *t;

		buf_reset(&one);
		if (emit_stream(&one, &single, fmt) < 0) {
			fprintf(stderr,
				"%s: error: the stream could not be"
				" formatted (over %zu MiB?)\n",
				out->name, EMIT_STREAM_CAP >> 20);
			rc = -1;
			break;
		}
		ARENA_GROW(a, out->objects, out->count, out->alloc, 256);
		t = &out->objects[out->count++];
		t->key.rank = o->rank;
		/* what the sort reads (render_object_cmp); no more */
		t->key.api_version = NULL;
		t->key.kind = keep_str(a, o->kind);
		t->key.namespace = keep_str(a, o->namespace);
		t->key.name = keep_str(a, o->name);
		t->key.site = NULL;
		t->key.cluster = NULL;
		t->key.purpose = NULL;
		t->key.obj = NULL;
		t->len = one.len;
		if (out->may_spool && !out->spool_tried && out->stream_len >= SPOOL_AFTER)
			spool_open(out);
		if (out->spool >= 0) {
			t->text = NULL;
			t->off = out->spool_len;
			out->spool_len += one.len;
			if (buf_add(&out->pending, one.data, one.len) < 0 ||
			    (out->pending.len >= SPOOL_CHUNK && spool_flush(out) < 0)) {
				fprintf(stderr,
					"%s: error: cannot write the"
					" stream to a temporary file: %s\n",
					out->name, strerror(errno));
				rc = -1;
				break;
			}
		} else {
			t->text = arena_strndup(a, one.data, one.len);
			t->off = 0;
		}
		out->stream_len += one.len;
	}
	buf_release(&one);
	for (size_t i = 0; i < r->file_count && rc == 0; i++) {
		const struct render_file *f = &r->files[i];
		struct emit_text_file *t;
		struct buf *b = arena_alloc(a, sizeof(*b));

		buf_init(b, EMIT_FILE_CAP);
		if (f->text ? buf_add(b, f->text, f->text_len) < 0
			    : emit_document(b, f->doc, EMIT_YAML) < 0) {
			fprintf(stderr, "%s: error: cannot format '%s'\n", out->name, f->path);
			buf_release(b);
			rc = -1;
			break;
		}
		ARENA_GROW(a, out->files, out->file_count, out->file_alloc, 64);
		t = &out->files[out->file_count++];
		t->key.kind = f->kind;
		t->key.path = keep_str(a, f->path);
		t->key.site = keep_str(a, f->site);
		t->key.doc = NULL;
		t->key.text = NULL;
		t->key.text_len = 0;
		t->key.has_secret = f->has_secret;
		t->data = b;
	}
	return rc;
}

/*
 * render_fleet() over `fleet` in a scratch arena, kept as text.  Returns 0;
 * -1 after diagnostics (in d) or a message; 1 when the batch rendered
 * nothing and said only that (GS191), which one batch of a fleet may.
 */
static int
render_batch(struct emit_batch *out, struct arena *a, struct diags *d, const struct emit_sites *p,
	     const struct spec_fleet *fleet, const struct render_options *opt, enum emit_format fmt)
{
	struct arena scratch = ARENA_INIT;
	struct render_result r;
	struct spec_fleet whole;
	size_t before = d->count;
	int rc;

	if (p && p->whole) {
		p->whole(&whole, &scratch, p->ctx, fleet);
		fleet = &whole;
	}
	rc = render_fleet(&r, &scratch, d, fleet, opt);
	if (rc == 0) {
		rc = keep_batch(out, a, &r, fmt);
	} else if (d->count == before + 1 && !strcmp(d->items[before].rule, RENDER_RULE_EMPTY)) {
		d->count = before;
		rc = 1;
	}
	arena_release(&scratch);
	return rc;
}

/* A site of the fleet: its cluster and its place in the fleet. */
struct batch_ent {
	const char *cluster;
	size_t pos;
};

static int
batch_cluster_cmp(const void *pa, const void *pb)
{
	const struct batch_ent *a = pa, *b = pb;
	int c = strcmp(a->cluster, b->cluster);

	if (c)
		return c;
	return a->pos < b->pos ? -1 : a->pos > b->pos;
}

static int
batch_pos_cmp(const void *pa, const void *pb)
{
	const struct batch_ent *a = pa, *b = pb;

	return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/*
 * Render the fleet into `out`, sorted as render_fleet() sorts: whole
 * clusters in batches of about RENDER_BATCH sites.  Every batch is
 * rendered even after one fails, so every finding is reported.
 */
/* render_fleet() over the whole fleet, for what it says of a fleet that
 * renders nothing (GS191). */
static int
render_nothing(struct arena *a, struct diags *d, const struct emit_sites *p,
	       const struct spec_fleet *fleet, const struct render_options *opt)
{
	struct render_result none;
	struct spec_fleet whole;

	if (p && p->whole) {
		p->whole(&whole, a, p->ctx, fleet);
		fleet = &whole;
	}
	return render_fleet(&none, a, d, fleet, opt);
}

int
emit_batch_render(struct emit_batch *out, struct arena *a, struct diags *d,
		  const struct emit_sites *p, const struct spec_fleet *fleet,
		  const struct render_options *opt, enum emit_format fmt)
{
	struct batch_ent *ents, *batch;
	size_t n = fleet->count, nb = 0;
	int rc = 0;

	if (opt->sites || n <= RENDER_BATCH) {
		rc = render_batch(out, a, d, p, fleet, opt, fmt);
		/* a fleet that renders nothing must say so (GS191) */
		if (rc == 1)
			rc = render_nothing(a, d, p, fleet, opt) < 0 ? -1 : 0;
		return rc < 0 ? -1 : 0;
	}
	out->may_spool = true;
	ents = arena_alloc(a, n * sizeof(*ents));
	batch = arena_alloc(a, n * sizeof(*batch));
	for (size_t i = 0; i < n; i++) {
		const char *cl = fleet->sites[i]->cluster.name;

		ents[i].cluster = cl ? cl : "";
		ents[i].pos = i;
	}
	qsort(ents, n, sizeof(*ents), batch_cluster_cmp);
	for (size_t i = 0; i < n; i++) {
		bool cluster_ends = i + 1 == n || strcmp(ents[i].cluster, ents[i + 1].cluster);

		batch[nb++] = ents[i];
		if (cluster_ends && (nb >= RENDER_BATCH || i + 1 == n)) {
			struct spec_site **sites = arena_alloc(a, nb * sizeof(*sites));
			struct spec_fleet sub = { sites, nb, fleet->files };

			/* the fleet's order within the batch, as render_fleet has it */
			qsort(batch, nb, sizeof(*batch), batch_pos_cmp);
			for (size_t j = 0; j < nb; j++)
				sites[j] = fleet->sites[batch[j].pos];
			if (render_batch(out, a, d, p, &sub, opt, fmt) < 0)
				rc = -1;
			nb = 0;
		}
	}
	if (rc == 0 && spool_flush(out) < 0) {
		fprintf(stderr,
			"%s: error: cannot write the stream to a"
			" temporary file: %s\n",
			out->name, strerror(errno));
		rc = -1;
	}
	/* nothing at all: render_fleet says so for the whole fleet */
	if (rc == 0 && out->count == 0 && render_nothing(a, d, p, fleet, opt) < 0)
		rc = -1;
	if (rc < 0)
		return -1;
	qsort(out->objects, out->count, sizeof(*out->objects), text_object_cmp);
	if (out->file_count > 1)
		qsort(out->files, out->file_count, sizeof(*out->files), text_file_cmp);
	return 0;
}

/* The files of `kind` of a batched render, below `dir`. */
static int
plan_files(struct arena *a, struct emit_files *s, const struct emit_batch *r,
	   enum render_file_kind kind, const char *dir)
{
	for (size_t i = 0; i < r->file_count; i++) {
		const struct emit_text_file *f = &r->files[i];

		if (f->key.kind != kind)
			continue;
		if (!emit_path_is_plain(f->key.path)) {
			fprintf(stderr, "%s: error: refusing to write '%s' outside '%s'\n", r->name,
				f->key.path, dir);
			return -1;
		}
		emit_files_add(a, s, dir, f->key.path, f->data, f->key.has_secret);
	}
	return 0;
}

int
emit_batch_commit(struct arena *a, struct emit_files *outs, const struct emit_batch *r,
		  const char *nodeconfigs, const char *values, const char *output)
{
	if ((nodeconfigs && plan_files(a, outs, r, RENDER_FILE_NODECONFIG, nodeconfigs) < 0) ||
	    (values && plan_files(a, outs, r, RENDER_FILE_VALUES, values) < 0))
		return -1;
	if (output)
		emit_files_add_writer(a, outs, output, emit_batch_write_fd, r);
	return emit_files_commit(a, outs) < 0 ? -1 : 0;
}

/*
 * A stream holding the objects of several clusters fits no one cluster:
 * say so, once, on stderr (stdout and the exit code stay as they are).
 */
void
emit_batch_note_clusters(struct arena *a, const struct emit_batch *r)
{
	const char *names = "";

	if (r->clusters < 2)
		return;
	for (size_t i = 0; i < r->clusters && i < EMIT_CLUSTER_NAMES; i++)
		names = arena_printf(a, "%s%s%s", names, i ? ", " : "", r->cluster_names[i]);
	fprintf(stderr,
		"%s: note: the stream holds the objects of %zu clusters (%s%s);"
		" it fits no single cluster: render one cluster at a time"
		" (--objects cluster --cluster NAME), or --objects argocd for a hub Argo CD\n",
		r->name, r->clusters, names, r->clusters > EMIT_CLUSTER_NAMES ? ", ..." : "");
}
