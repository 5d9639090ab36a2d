/*
 * emit_file.h - a set of output files committed all or nothing, and the
 * removal of the temporaries a killed run left behind.
 */
#ifndef GS_EMIT_FILE_H
#define GS_EMIT_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

struct arena;
struct buf;

/* Writes a file's bytes to `fd`: 0, or -1 with errno set. */
typedef int emit_write_fn(int fd, const void *ctx);

struct emit_file {
	char *path;       /* final path */
	char *tmp;        /* temporary file beside it, or NULL once renamed */
	struct buf *data; /* the bytes, or NULL for `write` */
	emit_write_fn *write;
	const void *ctx;
	bool secret;  /* stays mode 0600 */
	bool via_tmp; /* written through a temporary (a regular target) */
};

struct emit_files {
	const char *name; /* for messages: "gpusite render" */
	struct emit_file *files;
	size_t count;
	size_t alloc;
	char **dirs; /* directories this run created, in creation order */
	size_t ndirs;
	size_t dirs_alloc;
};

/* Plan `path` with the bytes of `data` (mode 0600 when `secret`). */
void emit_files_add(struct arena *a, struct emit_files *s, const char *path, struct buf *data,
		    bool secret);
/* Plan `path` with what write(fd, ctx) writes. */
void emit_files_add_writer(struct arena *a, struct emit_files *s, const char *path,
			   emit_write_fn *write, const void *ctx);

/*
 * Write every file to a temporary beside it (creating missing parent
 * directories), sync, then rename them all.  A symlink, device or pipe
 * target (-o /dev/stdout) is written through in place.  On failure
 * nothing new is left behind; returns -1 after a message on stderr.
 */
int emit_files_commit(struct arena *a, struct emit_files *s);

/*
 * After a successful commit: in each directory a file was written through
 * a temporary, remove the stale temporaries of those same files (regular,
 * owned by this user, last written before `start`, not locked by a live
 * writer).  Nothing else is looked at.  Returns how many were removed.
 */
size_t emit_files_sweep(struct arena *a, const struct emit_files *s, const struct timespec *start);

/* write(2) all of `p`, retrying on EINTR: 0, or -1 with errno set. */
int emit_write_all(int fd, const char *p, size_t n);

#endif
