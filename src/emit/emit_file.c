/*
 * emit_file.c - files written all or nothing: every one goes to a
 * temporary file beside its target (.NAME.gpusite-XXXXXX, mode 0600 until
 * it is known not to hold a secret, locked while it is written), is
 * synced, and only then are all of them renamed in place and their
 * directories synced.  A run that was killed leaves its temporaries; the
 * next successful run removes those of its own files (emit_files_sweep).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/buf.h"
#include "emit/emit_file.h"

#define TMP_TAG ".gpusite-"
#define TMP_RANDOM 6 /* mkstemp's XXXXXX */

static struct emit_file *
add(struct arena *a, struct emit_files *s, const char *path)
{
	ARENA_GROW(a, s->files, s->count, s->alloc, 16);
	memset(&s->files[s->count], 0, sizeof(s->files[s->count]));
	s->files[s->count].path = arena_strdup(a, path);
	return &s->files[s->count++];
}

void
emit_files_add(struct arena *a, struct emit_files *s, const char *path, struct buf *data,
	       bool secret)
{
	struct emit_file *f = add(a, s, path);

	f->data = data;
	f->secret = secret;
}

void
emit_files_add_writer(struct arena *a, struct emit_files *s, const char *path, emit_write_fn *write,
		      const void *ctx)
{
	struct emit_file *f = add(a, s, path);

	f->write = write;
	f->ctx = ctx;
}

/* mkdir -p for the parent of `path`, remembering what it made. */
static int
make_parents(struct arena *a, struct emit_files *s, const char *path)
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
	ARENA_GROW(a, s->dirs, s->ndirs, s->dirs_alloc, 16);
	s->dirs[s->ndirs++] = dir;
	return 0;
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

static void
out_abort(struct emit_files *s)
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
int
emit_files_commit(struct arena *a, struct emit_files *s)
{
	mode_t mask = umask(0);
	size_t i;

	umask(mask);
	for (i = 0; i < s->count; i++) {
		struct emit_file *f = &s->files[i];
		const char *slash = strrchr(f->path, '/');
		struct stat st;
		int fd;

		/* A symlink, device or pipe (-o /dev/stdout) is written through
		 * in place: renaming over it would replace the link or the
		 * device node itself. */
		if (lstat(f->path, &st) == 0 && !S_ISREG(st.st_mode)) {
			if (S_ISDIR(st.st_mode) ||
			    (stat(f->path, &st) == 0 && S_ISDIR(st.st_mode))) {
				fprintf(stderr, "%s: error: '%s' is a directory\n", s->name,
					f->path);
				goto fail;
			}
			continue;
		}
		if (make_parents(a, s, f->path) < 0) {
			fprintf(stderr,
				"%s: error: cannot create the directory"
				" of '%s': %s\n",
				s->name, f->path, strerror(errno));
			goto fail;
		}
		f->tmp = slash ? arena_printf(a, "%.*s/.%s.gpusite-XXXXXX", (int)(slash - f->path),
					      f->path, slash + 1)
			       : arena_printf(a, ".%s.gpusite-XXXXXX", f->path);
		fd = mkstemp(f->tmp); /* mode 0600 */
		if (fd < 0) {
			fprintf(stderr, "%s: error: cannot write '%s': %s\n", s->name, f->path,
				strerror(errno));
			f->tmp = NULL;
			goto fail;
		}
		/* held while the file is written: emit_files_sweep of another run
		 * never takes a temporary that a live writer is filling */
		(void)flock(fd, LOCK_EX | LOCK_NB);
		f->via_tmp = true;
		if ((!f->secret && fchmod(fd, 0666 & ~mask) < 0) || out_write(fd, f) < 0 ||
		    fsync(fd) < 0) {
			fprintf(stderr, "%s: error: cannot write '%s': %s\n", s->name, f->path,
				strerror(errno));
			close(fd);
			goto fail;
		}
		if (close(fd) < 0) {
			fprintf(stderr, "%s: error: cannot write '%s': %s\n", s->name, f->path,
				strerror(errno));
			goto fail;
		}
	}
	for (i = 0; i < s->count; i++) {
		struct emit_file *f = &s->files[i];

		if (!f->tmp) {
			int fd = open(f->path, O_WRONLY | O_TRUNC);

			if (fd < 0 || out_write(fd, f) < 0) {
				fprintf(stderr, "%s: error: cannot write '%s': %s\n", s->name,
					f->path, strerror(errno));
				if (fd >= 0)
					close(fd);
				goto fail;
			}
			close(fd);
			continue;
		}
		if (rename(f->tmp, f->path) < 0) {
			fprintf(stderr, "%s: error: cannot replace '%s': %s\n", s->name, f->path,
				strerror(errno));
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

struct sweep_ent {
	const char *dir; /* "." for a bare file name */
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
size_t
emit_files_sweep(struct arena *a, const struct emit_files *s, const struct timespec *start)
{
	struct sweep_ent *v = arena_alloc(a, (s->count + 1) * sizeof(*v));
	size_t n = 0, removed = 0;

	for (size_t i = 0; i < s->count; i++) {
		const char *p = s->files[i].path, *slash = strrchr(p, '/');

		if (!s->files[i].via_tmp)
			continue;
		v[n].dir = !slash       ? "."
			   : slash == p ? "/"
					: arena_strndup(a, p, (size_t)(slash - p));
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
