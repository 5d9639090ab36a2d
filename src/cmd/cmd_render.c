/*
 * cmd_render.c - `gpusite render [PATH] [--site NAME...] [-o FILE]
 * [--format yaml|json] [--nodeconfigs DIR] [--values DIR]`: print or write
 * the cluster stream; write NodeConfig and Helm values files.
 *
 * Exit 0 with output; 1 for invalid specs (nothing on stdout); 2 usage;
 * 3 when the job could not be done: specs unreadable, an SSM
 * activation-code variable unset, a file that could not be written.  Files
 * are written all or nothing: every one goes to a temporary file beside
 * its target, is synced, and only then are all of them renamed in place.
 * A run that was killed leaves its temporaries (.NAME.gpusite-XXXXXX);
 * the next successful run removes those of its own files (out_sweep).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/xalloc.h"
#include "cmd/argocd_env.h"
#include "cmd/cmd.h"
#include "cmd/opts.h"
#include "pipeline/pipeline.h"
#include "emit/emit.h"
#include "render/render.h"
#include "report/report.h"

#define STREAM_CAP ((size_t)1 << 30)
#define FILE_CAP ((size_t)16 << 20)

enum render_opt {
	R_SITE = 1,
	R_OUTPUT,
	R_FORMAT,
	R_NODECONFIGS,
	R_VALUES,
	R_KUBE_VERSION,
};

static const struct opt_spec render_opts[] = {
	{ R_SITE, "site", 0, "NAME", "only this site (metadata.name); repeat or"
	  " separate with commas" },
	{ R_OUTPUT, "output", 'o', "FILE", "write the stream to FILE instead of stdout" },
	{ R_FORMAT, "format", 0, "FMT", "yaml (default; '---' before every document)"
	  " or json (one object per line)" },
	{ R_NODECONFIGS, "nodeconfigs", 0, "DIR", "write the nodeadm NodeConfigs:"
	  " DIR/<site>/<group>/<node>.yaml, DIR/<site>/<group>.yaml (SSM, mode 0600)" },
	{ R_VALUES, "values", 0, "DIR", "write the GPU stack's Helm values:"
	  " DIR/<cluster>/values.yaml" },
	{ R_KUBE_VERSION, "kube-version", 0, "X.Y", "target Kubernetes version"
	  " (overrides cluster.kubernetesVersion)" },
	{ 0, NULL, 0, NULL, NULL },
};

struct render_args {
	struct arena *arena;
	const char **sites;
	size_t site_count;
	const char *output;
	enum emit_format format;
	const char *nodeconfigs;
	const char *values;
	int kube_minor;
};

static int on_option(void *payload, int id, const char *value);

static struct opts_cmd render_cmd = {
	.name = "render",
	.usage = "[options] [PATH]",
	.about =
	"Render the cluster stream of the site specs under PATH (default: sites/\n"
	"below the current directory if it exists, else the directory): the\n"
	"NodeConfig ConfigMaps, fallback NodePools, GPU stack Applications,\n"
	"placement policies and PrometheusRules, sorted by kind, namespace and\n"
	"name.  Any error prints the findings on stderr and nothing on stdout.\n"
	"SSM activation codes are read from the environment variables the specs\n"
	"name, only for --nodeconfigs, and only ever written to those files.\n",
	.common = OPTS_SOURCE | OPTS_STRICT | OPTS_COLOR | OPTS_QUIET | OPTS_VERBOSE,
	.own = render_opts,
	.on_option = on_option,
	.min_args = 0,
	.max_args = 1,
};

static int
on_option(void *payload, int id, const char *value)
{
	struct render_args *ra = payload;

	switch (id) {
	case R_SITE: {
		const char *p = value;

		if (!*value)
			return opts_usage_error(&render_cmd, "--site needs a site name");
		while (*p) {
			const char *comma = strchr(p, ',');
			size_t n = comma ? (size_t)(comma - p) : strlen(p);

			if (n) {
				ra->sites = arena_realloc(ra->arena, ra->sites,
					ra->site_count * sizeof(*ra->sites),
					(ra->site_count + 1) * sizeof(*ra->sites));
				ra->sites[ra->site_count++] = arena_strndup(ra->arena, p, n);
			}
			p += n + (comma ? 1 : 0);
		}
		return 0;
	}
	case R_OUTPUT:
		ra->output = value;
		return 0;
	case R_FORMAT:
		if (!strcmp(value, "yaml"))
			ra->format = EMIT_YAML;
		else if (!strcmp(value, "json"))
			ra->format = EMIT_JSON;
		else
			return opts_usage_error(&render_cmd, "unknown --format '%s': use yaml"
						" or json", value);
		return 0;
	case R_NODECONFIGS:
		ra->nodeconfigs = value;
		return 0;
	case R_VALUES:
		ra->values = value;
		return 0;
	case R_KUBE_VERSION:
		if (argocd_parse_kube_version(&ra->kube_minor, value) < 0)
			return opts_usage_error(&render_cmd, "--kube-version '%s' is not a"
						" Kubernetes 1.x version such as 1.35", value);
		return 0;
	}
	return 0;
}

static const char *
env_lookup(const char *name)
{
	return getenv(name);
}

/* ---- all-or-nothing output ---------------------------------------- */

#define TMP_TAG ".gpusite-"
#define TMP_RANDOM 6	/* mkstemp's XXXXXX */

struct rendered;
static int stream_write_fd(int fd, const struct rendered *r);

struct out_file {
	char *path;	/* final path */
	char *tmp;	/* temporary file beside it, or NULL once renamed */
	struct buf *data;
	const struct rendered *stream;	/* the stream, when data is NULL */
	bool secret;
	bool via_tmp;	/* written through a temporary (a regular target) */
};

struct out_set {
	struct out_file *files;
	size_t count;
	size_t alloc;
	char **dirs;	/* directories this run created, in creation order */
	size_t ndirs;
	size_t dirs_alloc;
};

static void
out_add(struct arena *a, struct out_set *s, const char *path,
	struct buf *data, bool secret)
{
	if (s->count == s->alloc) {
		size_t n = s->alloc ? s->alloc * 2 : 16;

		s->files = arena_realloc(a, s->files, s->alloc * sizeof(*s->files),
					 n * sizeof(*s->files));
		s->alloc = n;
	}
	s->files[s->count].path = arena_strdup(a, path);
	s->files[s->count].tmp = NULL;
	s->files[s->count].data = data;
	s->files[s->count].stream = NULL;
	s->files[s->count].secret = secret;
	s->files[s->count].via_tmp = false;
	s->count++;
}

/* mkdir -p for the parent of `path`, remembering what it made. */
static int
make_parents(struct arena *a, struct out_set *s, const char *path)
{
	char *dir = arena_strdup(a, path), *slash = strrchr(dir, '/');
	struct stat st;

	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	if (stat(dir, &st) == 0)
		return S_ISDIR(st.st_mode) ? 0 : (errno = ENOTDIR, -1);
	if (make_parents(a, s, dir) < 0)
		return -1;
	if (mkdir(dir, 0777) < 0 && errno != EEXIST)
		return -1;
	if (s->ndirs == s->dirs_alloc) {
		size_t n = s->dirs_alloc ? s->dirs_alloc * 2 : 16;

		s->dirs = arena_realloc(a, s->dirs, s->dirs_alloc * sizeof(*s->dirs),
					n * sizeof(*s->dirs));
		s->dirs_alloc = n;
	}
	s->dirs[s->ndirs++] = dir;
	return 0;
}

static int
write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static int
out_write(int fd, const struct out_file *f)
{
	if (f->stream)
		return stream_write_fd(fd, f->stream);
	return write_all(fd, f->data->data, f->data->len);
}

static void
out_abort(struct out_set *s)
{
	for (size_t i = 0; i < s->count; i++)
		if (s->files[i].tmp)
			unlink(s->files[i].tmp);
	for (size_t i = s->ndirs; i-- > 0;)
		rmdir(s->dirs[i]);
}

/* fsync the directory holding `path`, so the rename itself is durable. */
static void
sync_dir_of(const char *path)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	int n, fd;

	if (!slash)
		n = snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		n = snprintf(dir, sizeof(dir), "/");
	else
		n = snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	if (n < 0 || (size_t)n >= sizeof(dir))
		return;
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

/* Write every file to a temporary beside it, sync, then rename them all.
 * On failure nothing new is left behind; returns -1 with a message. */
static int
out_commit(struct arena *a, struct out_set *s)
{
	mode_t mask = umask(0);
	size_t i;

	umask(mask);
	for (i = 0; i < s->count; i++) {
		struct out_file *f = &s->files[i];
		const char *slash = strrchr(f->path, '/');
		struct stat st;
		int fd;

		/* A symlink, device or pipe (-o /dev/stdout) is written through
		 * in place: renaming over it would replace the link or the
		 * device node itself. */
		if (lstat(f->path, &st) == 0 && !S_ISREG(st.st_mode)) {
			if (S_ISDIR(st.st_mode) ||
			    (stat(f->path, &st) == 0 && S_ISDIR(st.st_mode))) {
				fprintf(stderr, "gpusite render: error: '%s' is a directory\n",
					f->path);
				goto fail;
			}
			continue;
		}
		if (make_parents(a, s, f->path) < 0) {
			fprintf(stderr, "gpusite render: error: cannot create the directory"
				" of '%s': %s\n", f->path, strerror(errno));
			goto fail;
		}
		f->tmp = slash ? arena_printf(a, "%.*s/.%s.gpusite-XXXXXX",
					      (int)(slash - f->path), f->path, slash + 1)
			       : arena_printf(a, ".%s.gpusite-XXXXXX", f->path);
		fd = mkstemp(f->tmp);	/* mode 0600 */
		if (fd < 0) {
			fprintf(stderr, "gpusite render: error: cannot write '%s': %s\n",
				f->path, strerror(errno));
			f->tmp = NULL;
			goto fail;
		}
		/* held while the file is written: out_sweep of another run
		 * never takes a temporary that a live writer is filling */
		(void)flock(fd, LOCK_EX | LOCK_NB);
		f->via_tmp = true;
		if ((!f->secret && fchmod(fd, 0666 & ~mask) < 0) ||
		    out_write(fd, f) < 0 || fsync(fd) < 0) {
			fprintf(stderr, "gpusite render: error: cannot write '%s': %s\n",
				f->path, strerror(errno));
			close(fd);
			goto fail;
		}
		if (close(fd) < 0) {
			fprintf(stderr, "gpusite render: error: cannot write '%s': %s\n",
				f->path, strerror(errno));
			goto fail;
		}
	}
	for (i = 0; i < s->count; i++) {
		struct out_file *f = &s->files[i];

		if (!f->tmp) {
			int fd = open(f->path, O_WRONLY | O_TRUNC);

			if (fd < 0 || out_write(fd, f) < 0) {
				fprintf(stderr, "gpusite render: error: cannot write '%s': %s\n",
					f->path, strerror(errno));
				if (fd >= 0)
					close(fd);
				goto fail;
			}
			close(fd);
			continue;
		}
		if (rename(f->tmp, f->path) < 0) {
			fprintf(stderr, "gpusite render: error: cannot replace '%s': %s\n",
				f->path, strerror(errno));
			goto fail;
		}
		f->tmp = NULL;
		sync_dir_of(f->path);
	}
	return 0;
fail:
	out_abort(s);
	return -1;
}

/* ---- stale temporaries of killed runs ------------------------------ */

/*
 * The length of NAME when `ent` is ".NAME.gpusite-XXXXXX" (six letters or
 * digits, as mkstemp makes them), else 0.
 */
static size_t
tmp_base_len(const char *ent)
{
	size_t n = strlen(ent), tail = strlen(TMP_TAG) + TMP_RANDOM;

	if (ent[0] != '.' || n <= tail + 1 ||
	    memcmp(ent + n - tail, TMP_TAG, strlen(TMP_TAG)))
		return 0;
	for (size_t i = n - TMP_RANDOM; i < n; i++)
		if (!isalnum((unsigned char)ent[i]))
			return 0;
	return n - tail - 1;
}

struct sweep_ent {
	const char *dir;	/* "." for a bare file name */
	const char *base;
};

static int
sweep_ent_cmp(const void *pa, const void *pb)
{
	const struct sweep_ent *a = pa, *b = pb;
	int c = strcmp(a->dir, b->dir);

	return c ? c : strcmp(a->base, b->base);
}

static bool
before(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/*
 * Remove `name` (in directory dfd) when it is a stale temporary: a
 * regular file (never through a symlink), owned by this user, last
 * written before this run began, and not locked by a writer that is
 * still running.  Returns 1 when removed.
 */
static int
sweep_one(int dfd, const char *name, const struct timespec *start)
{
	struct stat st, fst;
	int fd, removed = 0;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid() || !before(&st.st_mtim, start))
		return 0;
	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (fstat(fd, &fst) == 0 && fst.st_dev == st.st_dev && fst.st_ino == st.st_ino &&
	    S_ISREG(fst.st_mode) && flock(fd, LOCK_EX | LOCK_NB) == 0 &&
	    unlinkat(dfd, name, 0) == 0)
		removed = 1;
	close(fd);
	return removed;
}

/*
 * After a successful commit: in each directory this run wrote a file
 * through a temporary, remove the stale temporaries of those same files
 * (".NAME.gpusite-XXXXXX" for a NAME this run wrote there), which a run
 * killed before its renames left behind.  Nothing else in the directory
 * is looked at.  Returns how many were removed.
 */
static size_t
out_sweep(struct arena *a, const struct out_set *s, const struct timespec *start)
{
	struct sweep_ent *v = arena_alloc(a, (s->count + 1) * sizeof(*v));
	size_t n = 0, removed = 0;

	for (size_t i = 0; i < s->count; i++) {
		const char *p = s->files[i].path, *slash = strrchr(p, '/');

		if (!s->files[i].via_tmp)
			continue;
		v[n].dir = !slash ? "." : slash == p ? "/" :
			arena_strndup(a, p, (size_t)(slash - p));
		v[n].base = slash ? slash + 1 : p;
		n++;
	}
	qsort(v, n, sizeof(*v), sweep_ent_cmp);
	for (size_t i = 0; i < n;) {
		size_t j = i;
		struct dirent *e;
		DIR *d;
		int dfd;

		while (j < n && !strcmp(v[j].dir, v[i].dir))
			j++;
		dfd = open(v[i].dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		d = dfd >= 0 ? fdopendir(dfd) : NULL;
		if (!d && dfd >= 0)
			close(dfd);
		while (d && (e = readdir(d))) {
			size_t bl = tmp_base_len(e->d_name);
			struct sweep_ent key = { v[i].dir, NULL };

			if (!bl)
				continue;
			key.base = arena_strndup(a, e->d_name + 1, bl);
			if (bsearch(&key, v + i, j - i, sizeof(*v), sweep_ent_cmp))
				removed += (size_t)sweep_one(dirfd(d), e->d_name, start);
		}
		if (d)
			closedir(d);
		i = j;
	}
	return removed;
}

/* ---- rendering in batches ---------------------------------------- */

/*
 * A large fleet is rendered a few whole clusters at a time, each batch into
 * a scratch arena that is released once its objects and files are text:
 * the trees of 1,000 sites took 60 MB, their text takes 10.  The results
 * are merged in render_fleet()'s own order, so the output is the same
 * bytes as one render_fleet() over the fleet.  With --site, or a fleet of
 * at most RENDER_BATCH sites, there is one batch: the whole fleet.
 */
#define RENDER_BATCH 64
/* From this many spec files on, the pipeline keeps no trees (see
 * pipeline_load_lean) and each batch reads its sites again: 10,000 sites
 * took 150 MB of trees. */
#define RENDER_LEAN_FILES 2000

struct text_object {
	struct render_object key;	/* rank, namespace, name, kind; the rest NULL */
	const char *text;		/* as emit_stream() writes the object, */
	size_t off;			/* or NULL and at off in the spool */
	size_t len;
};

struct text_file {
	struct render_file key;		/* kind, path, site, has_secret; doc NULL */
	struct buf *data;		/* heap (FILE_CAP), released by cmd_render */
};

/*
 * The objects' text of a batched render waits in the spool, an unnamed
 * temporary file (O_TMPFILE in $TMPDIR or /tmp; the stream holds no
 * secret), so the peak memory does not grow with the stream: 133 MB of
 * text at 10,000 sites.  Without a temporary file the text stays in
 * memory.  `pending` gathers the writes.
 */
#define SPOOL_CHUNK ((size_t)1 << 20)
#define SPOOL_AFTER ((size_t)16 << 20)	/* stream bytes kept in memory first */

struct rendered {
	struct text_object *objects;
	size_t count;
	size_t alloc;
	struct text_file *files;
	size_t file_count;
	size_t file_alloc;
	bool may_spool;			/* a batched render */
	bool spool_tried;
	int spool;			/* fd, or -1: the text in memory */
	size_t spool_len;		/* bytes in the spool and in pending */
	struct buf pending;		/* not yet written to the spool */
	size_t stream_len;		/* the whole stream */
};

static void
spool_open(struct rendered *r)
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
		sprintf(path, "%s/.gpusite-spool-XXXXXX", dir);
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
spool_flush(struct rendered *r)
{
	int rc = 0;

	if (r->spool >= 0 && r->pending.len) {
		rc = write_all(r->spool, r->pending.data, r->pending.len);
		buf_reset(&r->pending);
	}
	return rc;
}

/* The stream in sort order, to fd or (fd < 0) to stdout. */
static int
stream_write(int fd, const struct rendered *r)
{
	char *chunk = NULL;
	size_t cap = 0;
	int rc = 0;

	for (size_t i = 0; i < r->count && rc == 0; i++) {
		const struct text_object *t = &r->objects[i];
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
			rc = fd >= 0 ? write_all(fd, p, t->len)
				     : (fwrite(p, 1, t->len, stdout) == t->len ? 0 : -1);
	}
	free(chunk);
	return rc;
}

static int
stream_write_fd(int fd, const struct rendered *r)
{
	return stream_write(fd, r);
}

static int
text_object_cmp(const void *pa, const void *pb)
{
	const struct text_object *a = pa, *b = pb;

	return render_object_cmp(&a->key, &b->key);
}

static int
text_file_cmp(const void *pa, const void *pb)
{
	const struct text_file *a = pa, *b = pb;

	return render_file_cmp(&a->key, &b->key);
}

static const char *
keep_str(struct arena *a, const char *s)
{
	return s ? arena_strdup(a, s) : NULL;
}

/* Turn one batch's trees into text in the run's arena `a`. */
static int
keep_batch(struct rendered *out, struct arena *a, const struct render_result *r,
	   enum emit_format fmt)
{
	struct buf one;
	int rc = 0;

	buf_init(&one, STREAM_CAP);
	for (size_t i = 0; i < r->count; i++) {
		const struct render_object *o = &r->objects[i];
		struct render_result single = { (struct render_object *)o, 1, 1, NULL, 0, 0 };
		struct text_object *t;

		buf_reset(&one);
		if (emit_stream(&one, &single, fmt) < 0) {
			fprintf(stderr, "gpusite render: error: the stream could not be"
				" formatted (over %zu MiB?)\n", STREAM_CAP >> 20);
			rc = -1;
			break;
		}
		if (out->count == out->alloc) {
			size_t n = out->alloc ? out->alloc * 2 : 256;

			out->objects = arena_realloc(a, out->objects,
						     out->alloc * sizeof(*out->objects),
						     n * sizeof(*out->objects));
			out->alloc = n;
		}
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
				fprintf(stderr, "gpusite render: error: cannot write the"
					" stream to a temporary file: %s\n", strerror(errno));
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
		struct text_file *t;
		struct buf *b = arena_alloc(a, sizeof(*b));

		buf_init(b, FILE_CAP);
		if (f->text ? buf_add(b, f->text, f->text_len) < 0
			    : emit_document(b, f->doc, EMIT_YAML) < 0) {
			fprintf(stderr, "gpusite render: error: cannot format '%s'\n", f->path);
			buf_release(b);
			rc = -1;
			break;
		}
		if (out->file_count == out->file_alloc) {
			size_t n = out->file_alloc ? out->file_alloc * 2 : 64;

			out->files = arena_realloc(a, out->files,
						   out->file_alloc * sizeof(*out->files),
						   n * sizeof(*out->files));
			out->file_alloc = n;
		}
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
/*
 * The whole sites of `stubs` (a lean pipeline's), in its order, read
 * again from their files into `t`.
 */
/* Files come sorted by path (source.h), and a stub's file is one. */
static int
file_path_cmp(const void *pa, const void *pb)
{
	const struct source_file *a = pa, *b = pb;

	return strcmp(a->path, b->path);
}

static int
file_ptr_cmp(const void *pa, const void *pb)
{
	uintptr_t x = (uintptr_t)*(const struct source_file *const *)pa;
	uintptr_t y = (uintptr_t)*(const struct source_file *const *)pb;

	return x < y ? -1 : x > y;
}

static void
whole_sites(struct spec_fleet *out, struct arena *t, const struct pipeline *p,
	    const struct spec_fleet *stubs)
{
	struct spec_fleet got = { NULL, 0, 0 };
	const struct source_file **want;
	size_t nw = 0;

	out->sites = arena_alloc(t, (stubs->count + 1) * sizeof(*out->sites));
	out->count = 0;
	out->files = stubs->files;
	want = arena_alloc(t, (stubs->count + 1) * sizeof(*want));
	for (size_t j = 0; j < stubs->count; j++) {
		struct source_file key = { stubs->sites[j]->file, NULL, 0 };
		const struct source_file *hit;

		hit = bsearch(&key, p->files->files, p->files->count,
			      sizeof(*p->files->files), file_path_cmp);
		if (hit)
			want[nw++] = hit;
	}
	/* each file once, in the order they were read */
	qsort(want, nw, sizeof(*want), file_ptr_cmp);
	for (size_t i = 0; i < nw; i++)
		if (i == 0 || want[i] != want[i - 1])
			pipeline_reload(p, &got, t, want[i]);
	for (size_t j = 0; j < stubs->count; j++) {
		const struct spec_site *stub = stubs->sites[j];

		for (size_t k = 0; k < got.count; k++)
			if (got.sites[k] && got.sites[k]->file == stub->file &&
			    !strcmp(got.sites[k]->name ? got.sites[k]->name : "",
				    stub->name ? stub->name : "")) {
				out->sites[out->count++] = got.sites[k];
				got.sites[k] = NULL;
				break;
			}
	}
}

static int
render_batch(struct rendered *out, struct arena *a, struct diags *d,
	     const struct pipeline *p, const struct spec_fleet *fleet,
	     const struct render_options *opt, enum emit_format fmt)
{
	struct arena scratch = ARENA_INIT;
	struct render_result r;
	struct spec_fleet whole;
	size_t before = d->count;
	int rc;

	if (p->lean) {
		whole_sites(&whole, &scratch, p, fleet);
		fleet = &whole;
	}
	rc = render_fleet(&r, &scratch, d, fleet, opt);
	if (rc == 0) {
		rc = keep_batch(out, a, &r, fmt);
	} else if (d->count == before + 1 &&
		   !strcmp(d->items[before].rule, RENDER_RULE_EMPTY)) {
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
render_nothing(struct arena *a, struct diags *d, const struct pipeline *p,
	       const struct spec_fleet *fleet, const struct render_options *opt)
{
	struct render_result none;
	struct spec_fleet whole;

	if (p->lean) {
		whole_sites(&whole, a, p, fleet);
		fleet = &whole;
	}
	return render_fleet(&none, a, d, fleet, opt);
}

static int
render_text(struct rendered *out, struct arena *a, struct diags *d,
	    const struct pipeline *p, const struct spec_fleet *fleet,
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
		fprintf(stderr, "gpusite render: error: cannot write the stream to a"
			" temporary file: %s\n", strerror(errno));
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

/* A relative path of render's own making; refuse anything that could
 * step out of the target directory. */
static bool
safe_relative(const char *p)
{
	if (!*p || *p == '/')
		return false;
	for (const char *c = p; *c;) {
		size_t n = strcspn(c, "/");

		if (n == 0 || (n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.'))
			return false;
		c += n;
		if (*c == '/')
			c++;
	}
	return true;
}

static int
plan_files(struct arena *a, struct out_set *s, const struct rendered *r,
	   enum render_file_kind kind, const char *dir)
{
	for (size_t i = 0; i < r->file_count; i++) {
		const struct text_file *f = &r->files[i];

		if (f->key.kind != kind)
			continue;
		if (!safe_relative(f->key.path)) {
			fprintf(stderr, "gpusite render: error: refusing to write '%s'"
				" outside '%s'\n", f->key.path, dir);
			return -1;
		}
		out_add(a, s, arena_printf(a, "%s/%s", dir, f->key.path), f->data,
			f->key.has_secret);
	}
	return 0;
}

static bool
has_rule(const struct diags *d, const char *rule)
{
	for (size_t i = 0; i < d->count; i++)
		if (d->items[i].level == DIAG_ERROR && !strcmp(d->items[i].rule, rule))
			return true;
	return false;
}

int
cmd_render(int argc, char **argv)
{
	struct arena a = ARENA_INIT;
	struct render_args ra;
	struct opts o;
	struct source_set files = { NULL, 0, 0, NULL };
	struct pipeline p;
	struct pipeline_source src;
	struct report_input in;
	struct rendered r = { NULL, 0, 0, NULL, 0, 0, false, false, -1, 0, BUF_INIT, 0 };
	struct render_options ropt;
	struct out_set outs;
	bool have_stream = false;
	unsigned flags;
	double t0 = pipeline_now_ms();
	struct timespec start;
	size_t swept = 0;
	int rc, code = GS_EXIT_OK;

	clock_gettime(CLOCK_REALTIME, &start);

	arena_init(&a);
	memset(&ra, 0, sizeof(ra));
	memset(&outs, 0, sizeof(outs));
	ra.arena = &a;
	ra.format = EMIT_YAML;
	render_cmd.payload = &ra;
	rc = opts_parse(&o, &render_cmd, argc, argv);
	if (rc != OPTS_OK) {
		code = opts_exit_code(rc);
		goto out;
	}
	flags = opts_report_flags(&o, stderr) | REPORT_QUIET;
	/* a large fleet's trees are read again batch by batch; --site and
	 * --kube-version read the whole model */
	src = opts_source(&o, (const char *const *)o.args, o.nargs);
	if (pipeline_open_lean(&p, &files, &a, &src, "gpusite render", flags,
			       ra.sites || ra.kube_minor ? SIZE_MAX : RENDER_LEAN_FILES) < 0) {
		code = GS_EXIT_FAILURE;
		goto out;
	}

	memset(&ropt, 0, sizeof(ropt));
	ropt.sites = ra.sites;
	ropt.site_count = ra.site_count;
	ropt.kube_minor = ra.kube_minor;
	ropt.files = ra.nodeconfigs || ra.values;
	ropt.no_nodeconfig_files = !ra.nodeconfigs;
	ropt.getenv = env_lookup;
	pipeline_check_kube_version(&p.diags, &p.fleet, &ropt, "--kube-version");
	if (o.strict)
		diags_promote_warnings(&p.diags);
	if (!diags_count(&p.diags, DIAG_ERROR) &&
	    render_text(&r, &a, &p.diags, &p, &p.fleet, &ropt, ra.format) == 0) {
		if (r.stream_len > STREAM_CAP) {
			fprintf(stderr, "gpusite render: error: the stream could not be"
				" formatted (over %zu MiB?)\n", STREAM_CAP >> 20);
			code = GS_EXIT_FAILURE;
			goto out;
		}
		have_stream = true;
	}
	if (!have_stream)
		r.count = 0;	/* a stream not wholly made is never written */
	diags_sort(&p.diags);
	if (p.diags.count) {
		in = (struct report_input){ &p.diags, &files, &p.fleet, p.docs, "gpusite render" };
		report_write_flags(stdout, stderr, &in, REPORT_TEXT, flags);
	}
	if (diags_count(&p.diags, DIAG_ERROR)) {
		code = has_rule(&p.diags, RENDER_RULE_SECRET_ENV) ? GS_EXIT_FAILURE
								  : GS_EXIT_FINDINGS;
		goto out;
	}

	if (ra.output && !strcmp(ra.output, "-"))
		ra.output = NULL;
	if (ra.output) {
		out_add(&a, &outs, ra.output, NULL, false);
		outs.files[outs.count - 1].stream = &r;
	}
	if ((ra.nodeconfigs &&
	     plan_files(&a, &outs, &r, RENDER_FILE_NODECONFIG, ra.nodeconfigs) < 0) ||
	    (ra.values && plan_files(&a, &outs, &r, RENDER_FILE_VALUES, ra.values) < 0) ||
	    out_commit(&a, &outs) < 0) {
		code = GS_EXIT_FAILURE;
		goto out;
	}
	swept = out_sweep(&a, &outs, &start);
	if (!ra.output && stream_write(-1, &r) < 0)
		code = GS_EXIT_FAILURE;	/* main reports the write error */
	if (o.verbose)
		fprintf(stderr, "gpusite render: %zu site%s, %zu object%s, %zu file%s"
			" written, %zu stale temporar%s removed; %.1f ms, %zu KiB of memory\n",
			p.fleet.count, p.fleet.count == 1 ? "" : "s", r.count,
			r.count == 1 ? "" : "s", outs.count, outs.count == 1 ? "" : "s",
			swept, swept == 1 ? "y" : "ies", pipeline_now_ms() - t0, a.total >> 10);
out:
	for (size_t i = 0; i < r.file_count; i++)
		buf_release(r.files[i].data);
	buf_release(&r.pending);
	if (r.spool >= 0)
		close(r.spool);
	arena_release(&a);
	return code;
}
