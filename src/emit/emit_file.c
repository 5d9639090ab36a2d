/*
 * emit_file.c - files written all or nothing, never through a link: every
 * planned path is checked first (below its root: directories on the way,
 * a regular file or nothing at the end, no symlink anywhere); then every
 * file goes to a new temporary beside its target (.NAME.gpusite-XXXXXX,
 * created O_EXCL|O_NOFOLLOW, mode 0600 for a secret from the first byte,
 * locked while it is written) in a directory reached with openat() and
 * O_NOFOLLOW one component at a time, is synced, and only then are all of
 * them renamed in place (renameat) and their directories synced.  A run
 * that was killed leaves its temporaries; the next successful run removes
 * those of its own files (emit_files_sweep).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/file_kind.h"
#include "emit/emit_file.h"

#define TMP_TAG ".gpusite-"
#define TMP_RANDOM 6 /* letters or digits, as mkstemp's XXXXXX */
#define TMP_TRIES 100

static struct emit_file *
add(struct arena *a, struct emit_files *s, const char *root, const char *rel)
{
	struct emit_file *f;
	size_t n = strlen(root);

	ARENA_GROW(a, s->files, s->count, s->alloc, 16);
	f = &s->files[s->count++];
	memset(f, 0, sizeof(*f));
	f->root = arena_strdup(a, root);
	f->rel = arena_strdup(a, rel);
	f->path = arena_printf(a, "%s%s%s", root, n && root[n - 1] == '/' ? "" : "/", rel);
	return f;
}

bool
emit_path_is_plain(const char *rel)
{
	if (!*rel || *rel == '/')
		return false;
	for (const char *c = rel; *c;) {
		size_t n = strcspn(c, "/");

		if (n == 0 || (n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.'))
			return false;
		c += n;
		if (*c == '/' && !*++c)
			return false; /* a trailing slash: no file name */
	}
	return true;
}

bool
emit_path_is_stdout(const char *path)
{
	return !strcmp(path, "-") || !strcmp(path, "/dev/stdout") || !strcmp(path, "/dev/fd/1");
}

bool
emit_path_is_null(const char *path)
{
	return !strcmp(path, "/dev/null");
}

void
emit_files_add(struct arena *a, struct emit_files *s, const char *root, const char *rel,
	       struct buf *data, bool secret)
{
	struct emit_file *f = add(a, s, root, rel);

	f->data = data;
	f->secret = secret;
}

static int
buf_write_fd(int fd, const void *ctx)
{
	const struct buf *b = ctx;

	return emit_write_all(fd, b->data, b->len);
}

void
emit_files_add_path(struct arena *a, struct emit_files *s, const char *path, const struct buf *data)
{
	emit_files_add_writer(a, s, path, buf_write_fd, data);
}

void
emit_files_add_writer(struct arena *a, struct emit_files *s, const char *path, emit_write_fn *write,
		      const void *ctx)
{
	const char *slash = strrchr(path, '/');
	struct emit_file *f;

	if (!slash)
		f = add(a, s, ".", path);
	else
		f = add(a, s, slash == path ? "/" : arena_strndup(a, path, (size_t)(slash - path)),
			slash + 1);
	f->path = arena_strdup(a, path); /* as the user wrote it */
	f->write = write;
	f->ctx = ctx;
}

int
emit_write_all(int fd, const char *p, size_t n)
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
out_write(int fd, const struct emit_file *f)
{
	if (f->write)
		return f->write(fd, f->ctx);
	return emit_write_all(fd, f->data->data, f->data->len);
}

/* ---- walking below a root, one openat() at a time ----------------- */

enum walk_mode {
	WALK_CHECK,  /* look only; a missing directory ends the walk (1) */
	WALK_CREATE, /* create what is missing, remembering it */
	WALK_OPEN,   /* everything must be there */
};

/* The directory last walked to, kept open for the files after it. */
struct walker {
	struct arena *a;
	struct emit_files *s;
	enum walk_mode mode;
	bool quiet; /* cleaning up after a failure: no more messages */
	const char *root;
	const char *dir; /* rel's directory part, dirlen bytes */
	size_t dirlen;
	int fd;
	bool dirty; /* renamed into: fsync before leaving */
};

static void
walk_init(struct walker *w, struct arena *a, struct emit_files *s, enum walk_mode mode)
{
	memset(w, 0, sizeof(*w));
	w->a = a;
	w->s = s;
	w->mode = mode;
	w->fd = -1;
}

static void
walk_leave(struct walker *w)
{
	if (w->fd < 0)
		return;
	if (w->dirty)
		fsync(w->fd); /* the renames themselves are durable */
	close(w->fd);
	w->fd = -1;
	w->dirty = false;
}

static void say(const struct walker *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* One line on stderr, unless cleaning up. */
static void
say(const struct walker *w, const char *fmt, ...)
{
	va_list ap;

	if (w->quiet)
		return;
	fprintf(stderr, "%s: error: ", w->s->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* root/rel[0..n), for messages. */
static const char *
shown(struct arena *a, const char *root, const char *rel, size_t n)
{
	size_t rn = strlen(root);

	if (!n)
		return root;
	return arena_printf(a, "%s%s%.*s", root, rn && root[rn - 1] == '/' ? "" : "/", (int)n, rel);
}

/* Why `name` in `dfd` (root/rel[0..n)) cannot be a directory on the
 * way: one message.  Returns -1. */
static int
refuse_dir(struct walker *w, int dfd, const char *name, const char *root, const char *rel, size_t n,
	   int err)
{
	const char *path = shown(w->a, root, rel, n);
	struct stat st;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
		say(w,
		    "'%s' is a symlink, and render writes through no link below the"
		    " directory it is given: remove the link or give the real directory",
		    path);
	else if (err == ENOTDIR && fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0)
		say(w, "'%s' is %s, not a directory: move it away or write elsewhere", path,
		    file_kind_name(st.st_mode));
	else
		say(w, "cannot write into '%s': %s", path, strerror(err));
	return -1;
}

/* mkdir -p for the root `dir` (the user's path, followed as given),
 * remembering what it made. */
static int
make_root(struct walker *w, const char *dir)
{
	char *parent = arena_strdup(w->a, dir), *slash;
	size_t n = strlen(parent);
	struct stat st;

	if (stat(dir, &st) == 0)
		return S_ISDIR(st.st_mode) ? 0 : (errno = ENOTDIR, -1);
	while (n > 1 && parent[n - 1] == '/')
		parent[--n] = '\0';
	slash = strrchr(parent, '/');
	if (slash && slash != parent) {
		*slash = '\0';
		if (make_root(w, parent) < 0)
			return -1;
	}
	if (mkdir(dir, 0777) < 0)
		return errno == EEXIST ? 0 : -1;
	ARENA_GROW(w->a, w->s->dirs, w->s->ndirs, w->s->dirs_alloc, 16);
	w->s->dirs[w->s->ndirs++] = (struct emit_dir){ arena_strdup(w->a, dir), NULL };
	return 0;
}

/* Open the root as given (following it); 1 when missing in WALK_CHECK. */
static int
open_root(struct walker *w, const char *root)
{
	int fd;

	if (w->mode == WALK_CREATE && make_root(w, root) < 0) {
		say(w, "cannot create the directory '%s': %s", root, strerror(errno));
		return -1;
	}
	fd = open(root, O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT && w->mode == WALK_CHECK)
		return -2;
	if (fd < 0)
		say(w, "cannot write into '%s': %s", root, strerror(errno));
	return fd;
}

/*
 * Make w->fd the directory rel[0..dirlen) below `root`, each component
 * opened with O_NOFOLLOW (and, in WALK_CREATE, made when missing).
 * Returns 0; 1 when a directory is missing (WALK_CHECK); -1 after a
 * message.
 */
static int
walk_dir(struct walker *w, const char *root, const char *rel, size_t dirlen)
{
	char name[NAME_MAX + 1];
	size_t at = 0;
	int fd;

	if (w->fd >= 0 && !strcmp(w->root, root) && w->dirlen == dirlen &&
	    !memcmp(w->dir, rel, dirlen))
		return 0;
	walk_leave(w);
	fd = open_root(w, root);
	if (fd < 0)
		return fd == -2 ? 1 : -1;
	while (at < dirlen) {
		size_t n = strcspn(rel + at, "/");
		int next;

		if (n > NAME_MAX) {
			say(w, "cannot write into '%s': %s", shown(w->a, root, rel, at + n),
			    strerror(ENAMETOOLONG));
			close(fd);
			return -1;
		}
		memcpy(name, rel + at, n);
		name[n] = '\0';
		if (w->mode == WALK_CREATE) {
			if (mkdirat(fd, name, 0777) == 0) {
				ARENA_GROW(w->a, w->s->dirs, w->s->ndirs, w->s->dirs_alloc, 16);
				w->s->dirs[w->s->ndirs++] =
					(struct emit_dir){ root, arena_strndup(w->a, rel, at + n) };
			} else if (errno != EEXIST) {
				say(w, "cannot create the directory '%s': %s",
				    shown(w->a, root, rel, at + n), strerror(errno));
				close(fd);
				return -1;
			}
		}
		next = openat(fd, name,
			      O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		if (next < 0) {
			int err = errno,
			    rc = err == ENOENT && w->mode == WALK_CHECK
					 ? 1
					 : refuse_dir(w, fd, name, root, rel, at + n, err);

			close(fd);
			return rc;
		}
		close(fd);
		fd = next;
		at += n + 1;
	}
	w->fd = fd;
	w->root = root;
	w->dir = rel;
	w->dirlen = dirlen;
	return 0;
}

/* The length of rel's directory part (0: the root itself). */
static size_t
dir_len(const char *rel)
{
	const char *slash = strrchr(rel, '/');

	return slash ? (size_t)(slash - rel) : 0;
}

static const char *
base_of(const char *rel)
{
	const char *slash = strrchr(rel, '/');

	return slash ? slash + 1 : rel;
}

/* ---- the three passes ---------------------------------------------- */

/* Before anything is written: may `f` be written?  0, or -1 after one
 * line naming the path. */
static int
check_one(struct walker *w, const struct emit_file *f)
{
	const char *base = base_of(f->rel);
	struct stat st;
	int rc;

	if (!*base || !strcmp(base, ".") || !strcmp(base, "..")) {
		say(w, "'%s' names a directory, not a file: give a file name", f->path);
		return -1;
	}
	rc = walk_dir(w, f->root, f->rel, dir_len(f->rel));
	if (rc != 0)
		return rc < 0 ? -1 : 0; /* a missing directory: made later */
	if (fstatat(w->fd, base, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno == ENOENT)
			return 0;
		say(w, "cannot write '%s': %s", f->path, strerror(errno));
		return -1;
	}
	if (S_ISREG(st.st_mode))
		return 0;
	if (S_ISLNK(st.st_mode))
		say(w,
		    "'%s' is a symlink, and render writes through no link (it could lead"
		    " anywhere): remove the link or write to its target",
		    f->path);
	else
		say(w,
		    "'%s' is %s, not a regular file, and render writes only regular files:"
		    " move it away or write elsewhere",
		    f->path, file_kind_name(st.st_mode));
	return -1;
}

/* A new temporary ".BASE.gpusite-XXXXXX" in dfd, created (never
 * opened through a link) with its final mode: 0600 for a secret. */
static int
tmp_open(char **name, struct arena *a, int dfd, const char *base, bool secret)
{
	static const char set[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	static unsigned long serial;

	for (int t = 0; t < TMP_TRIES; t++) {
		unsigned char r[TMP_RANDOM];
		char tail[TMP_RANDOM + 1];
		int fd;

		if (getrandom(r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r)) {
			unsigned long x = (unsigned long)getpid() * 2654435761u +
					  ++serial * 40503u + (unsigned long)t;

			for (size_t i = 0; i < sizeof(r); i++, x >>= 5)
				r[i] = (unsigned char)x;
		}
		for (size_t i = 0; i < TMP_RANDOM; i++)
			tail[i] = set[r[i] % (sizeof(set) - 1)];
		tail[TMP_RANDOM] = '\0';
		*name = arena_printf(a, ".%s" TMP_TAG "%s", base, tail);
		fd = openat(dfd, *name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    secret ? 0600 : 0666);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	return -1;
}

/* Write `f` to a new temporary in its directory, synced. */
static int
write_one(struct walker *w, struct emit_file *f)
{
	struct stat st;
	char *tmp;
	int fd;

	if (walk_dir(w, f->root, f->rel, dir_len(f->rel)) < 0)
		return -1;
	if (fstat(w->fd, &st) < 0 ||
	    (fd = tmp_open(&tmp, w->a, w->fd, base_of(f->rel), f->secret)) < 0) {
		say(w, "cannot write '%s': %s", f->path, strerror(errno));
		return -1;
	}
	f->tmp = tmp;
	f->dir_dev = st.st_dev;
	f->dir_ino = st.st_ino;
	f->via_tmp = true;
	/* held while the file is written: emit_files_sweep of another run
	 * never takes a temporary that a live writer is filling */
	(void)flock(fd, LOCK_EX | LOCK_NB);
	if (out_write(fd, f) < 0 || fsync(fd) < 0) {
		say(w, "cannot write '%s': %s", f->path, strerror(errno));
		close(fd);
		return -1;
	}
	if (close(fd) < 0) {
		say(w, "cannot write '%s': %s", f->path, strerror(errno));
		return -1;
	}
	return 0;
}

/* Back in the directory `f`'s temporary went into: 0, or -1 (a message
 * unless quiet) when it is not the same directory any more. */
static int
walk_back(struct walker *w, const struct emit_file *f)
{
	struct stat st;

	if (walk_dir(w, f->root, f->rel, dir_len(f->rel)) < 0)
		return -1;
	if (fstat(w->fd, &st) == 0 && st.st_dev == f->dir_dev && st.st_ino == f->dir_ino)
		return 0;
	say(w, "the directory of '%s' was replaced while render wrote it: nothing renamed",
	    f->path);
	return -1;
}

static int
rename_one(struct walker *w, struct emit_file *f)
{
	if (walk_back(w, f) < 0)
		return -1;
	if (renameat(w->fd, f->tmp, w->fd, base_of(f->rel)) < 0) {
		say(w, "cannot replace '%s': %s", f->path, strerror(errno));
		return -1;
	}
	f->tmp = NULL;
	w->dirty = true;
	return 0;
}

/* Remove the temporaries and the directories this run made, newest first. */
static void
out_abort(struct arena *a, struct emit_files *s)
{
	struct walker w;

	walk_init(&w, a, s, WALK_OPEN);
	w.quiet = true;
	for (size_t i = 0; i < s->count; i++) {
		struct emit_file *f = &s->files[i];

		if (f->tmp && walk_back(&w, f) == 0)
			unlinkat(w.fd, f->tmp, 0);
		f->tmp = NULL;
	}
	for (size_t i = s->ndirs; i-- > 0;) {
		const struct emit_dir *d = &s->dirs[i];

		if (!d->rel)
			rmdir(d->root);
		else if (walk_dir(&w, d->root, d->rel, dir_len(d->rel)) == 0)
			unlinkat(w.fd, base_of(d->rel), AT_REMOVEDIR);
	}
	walk_leave(&w);
}

int
emit_files_commit(struct arena *a, struct emit_files *s)
{
	struct walker w;
	size_t i;
	int rc = 0;

	walk_init(&w, a, s, WALK_CHECK);
	for (i = 0; i < s->count && rc == 0; i++)
		rc = check_one(&w, &s->files[i]);
	walk_leave(&w);
	if (rc < 0)
		return -1;
	walk_init(&w, a, s, WALK_CREATE);
	for (i = 0; i < s->count && rc == 0; i++)
		rc = write_one(&w, &s->files[i]);
	walk_leave(&w);
	walk_init(&w, a, s, WALK_OPEN);
	for (i = 0; i < s->count && rc == 0; i++)
		rc = rename_one(&w, &s->files[i]);
	walk_leave(&w);
	if (rc < 0)
		out_abort(a, s);
	return rc < 0 ? -1 : 0;
}

/* ---- stale temporaries of killed runs ---------------------------- */

/*
 * The length of NAME when `ent` is ".NAME.gpusite-XXXXXX" (six letters or
 * digits, as mkstemp makes them), else 0.
 */
static size_t
tmp_base_len(const char *ent)
{
	size_t n = strlen(ent), tail = strlen(TMP_TAG) + TMP_RANDOM;

	if (ent[0] != '.' || n <= tail + 1 || memcmp(ent + n - tail, TMP_TAG, strlen(TMP_TAG)))
		return 0;
	for (size_t i = n - TMP_RANDOM; i < n; i++)
		if (!isalnum((unsigned char)ent[i]))
			return 0;
	return n - tail - 1;
}

/* One file written through a temporary: where, and its name there. */
struct sweep_ent {
	const struct emit_file *f;
	const char *dir; /* its directory, for grouping: root/rel's directory */
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

/* Remove the stale temporaries of v[0..n) (one directory) from it. */
static size_t
sweep_dir(struct arena *a, struct walker *w, const struct sweep_ent *v, size_t n,
	  const struct timespec *start)
{
	struct dirent *e;
	size_t removed = 0;
	DIR *d;
	int dfd;

	/* the directory the files went into, reached as they were */
	if (walk_back(w, v[0].f) < 0)
		return 0;
	dfd = openat(w->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	d = dfd >= 0 ? fdopendir(dfd) : NULL;
	if (!d) {
		if (dfd >= 0)
			close(dfd);
		return 0;
	}
	while ((e = readdir(d))) {
		size_t bl = tmp_base_len(e->d_name);
		struct sweep_ent key = { NULL, v[0].dir, NULL };

		if (!bl)
			continue;
		key.base = arena_strndup(a, e->d_name + 1, bl);
		if (bsearch(&key, v, n, sizeof(*v), sweep_ent_cmp))
			removed += (size_t)sweep_one(dirfd(d), e->d_name, start);
	}
	closedir(d);
	return removed;
}

/*
 * After a successful commit: in each directory this run wrote a file
 * through a temporary, remove the stale temporaries of those same files
 * (".NAME.gpusite-XXXXXX" for a NAME this run wrote there), which a run
 * killed before its renames left behind.  Nothing else in the directory
 * is looked at.  Returns how many were removed.
 */
size_t
emit_files_sweep(struct arena *a, struct emit_files *s, const struct timespec *start)
{
	struct sweep_ent *v = arena_alloc(a, (s->count + 1) * sizeof(*v));
	struct walker w;
	size_t n = 0, removed = 0;

	for (size_t i = 0; i < s->count; i++) {
		const struct emit_file *f = &s->files[i];

		if (!f->via_tmp)
			continue;
		v[n].f = f;
		v[n].dir = shown(a, f->root, f->rel, dir_len(f->rel));
		v[n].base = base_of(f->rel);
		n++;
	}
	qsort(v, n, sizeof(*v), sweep_ent_cmp);
	walk_init(&w, a, s, WALK_OPEN);
	w.quiet = true;
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j < n && !strcmp(v[j].dir, v[i].dir))
			j++;
		removed += sweep_dir(a, &w, v + i, j - i, start);
		i = j;
	}
	walk_leave(&w);
	return removed;
}

int
emit_whole_file(struct arena *a, const char *name, const char *path, const struct buf *b)
{
	struct emit_files outs;

	if (emit_path_is_stdout(path)) {
		if (fwrite(b->data, 1, b->len, stdout) == b->len && fflush(stdout) == 0)
			return 0;
		fprintf(stderr, "%s: cannot write the page to standard output\n", name);
		return -1;
	}
	memset(&outs, 0, sizeof(outs));
	outs.name = name;
	emit_files_add_path(a, &outs, path, b);
	return emit_files_commit(a, &outs);
}
