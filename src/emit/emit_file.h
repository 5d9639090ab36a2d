/*
 * emit_file.h - a set of output files committed all or nothing, never
 * through a link, and the removal of the temporaries a killed run left
 * behind.
 *
 * Each file lies below a root directory the user named (--nodeconfigs
 * DIR, --values DIR, the directory of -o FILE).  The root is followed as
 * given, symlinks and all, as git and kubectl follow a path given to
 * them.  Below it nothing is: a symlink, or anything but a directory on
 * the way and a regular file at the end, is refused before the first
 * byte is written, and every write goes through directories opened with
 * O_NOFOLLOW, so a link swapped in meanwhile fails the run instead of
 * redirecting a file.
 */
#ifndef GS_EMIT_FILE_H
#define GS_EMIT_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

struct arena;
struct buf;

/* Writes a file's bytes to `fd`: 0, or -1 with errno set. */
typedef int emit_write_fn(int fd, const void *ctx);

struct emit_file {
	const char *path; /* for messages: root/rel, or -o FILE as given */
	const char *root; /* the directory the user named, followed as given */
	const char *rel;  /* below root, never through a link: "site/group.yaml" */
	char *tmp;        /* the temporary's name in rel's directory, or NULL */
	struct buf *data; /* the bytes, or NULL for `write` */
	emit_write_fn *write;
	const void *ctx;
	bool secret;   /* created mode 0600 */
	bool via_tmp;  /* written through a temporary */
	dev_t dir_dev; /* the directory the temporary was made in */
	ino_t dir_ino;
};

/* A directory a commit created: below `root` at `rel`, or (rel NULL) the
 * path `root` itself, made on the way to a root that was missing. */
struct emit_dir {
	const char *root;
	const char *rel;
};

struct emit_files {
	const char *name; /* for messages: "gpusite render" */
	struct emit_file *files;
	size_t count;
	size_t alloc;
	struct emit_dir *dirs; /* directories this run created, in creation order */
	size_t ndirs;
	size_t dirs_alloc;
};

/* Is `rel` a plain relative path: not empty, not absolute, no empty, "."
 * or ".." component?  Only such paths are ever planned below a root. */
bool emit_path_is_plain(const char *rel);

/* Does -o `path` name standard output ("-", "/dev/stdout", "/dev/fd/1")?
 * It is then written to stdout, not opened as a file. */
bool emit_path_is_stdout(const char *path);
/* Is `path` the null device (-o /dev/null: render and check, write
 * nothing)?  The one device render takes besides standard output. */
bool emit_path_is_null(const char *path);

/* Plan `rel` (a plain relative path) below `root` with the bytes of
 * `data`; a `secret` file is created mode 0600. */
void emit_files_add(struct arena *a, struct emit_files *s, const char *root, const char *rel,
		    struct buf *data, bool secret);
/* Plan the file `path` (-o FILE: below the directory part of `path`)
 * with what write(fd, ctx) writes. */
void emit_files_add_writer(struct arena *a, struct emit_files *s, const char *path,
			   emit_write_fn *write, const void *ctx);

/* Plan the file `path` (-o FILE) with the bytes of `data`. */
void emit_files_add_path(struct arena *a, struct emit_files *s, const char *path,
			 const struct buf *data);

/*
 * One page written whole or not at all: `b` to the file at `path`
 * (emit_files_commit) or to stdout when path is "-" or /dev/stdout.
 * 0, or -1 after a message on stderr naming `name` ("gpusite report").
 */
int emit_whole_file(struct arena *a, const char *name, const char *path, const struct buf *b);

/*
 * Check every planned path first: below its root, a symlink anywhere, a
 * non-directory on the way or a target that exists and is not a regular
 * file (a FIFO, socket, device or directory) is refused with one line on
 * stderr naming it, and nothing is written.  Then write every file to a
 * new temporary beside its target (creating missing directories), sync,
 * and rename them all.  On failure nothing new is left behind; returns -1
 * after one message on stderr.
 */
int emit_files_commit(struct arena *a, struct emit_files *s);

/*
 * After a successful commit: in each directory a file was written through
 * a temporary, remove the stale temporaries of those same files (regular,
 * owned by this user, last written before `start`, not locked by a live
 * writer).  Nothing else is looked at.  Returns how many were removed.
 */
size_t emit_files_sweep(struct arena *a, struct emit_files *s, const struct timespec *start);

/* write(2) all of `p`, retrying on EINTR: 0, or -1 with errno set. */
int emit_write_all(int fd, const char *p, size_t n);

/* mkdir -p `dir` (mode 0777 before the umask): 0, or -1 with errno. */
int emit_mkdirs(struct arena *a, const char *dir);

/*
 * The path `rel`, relative to the current directory, as seen from the
 * existing directory `dir`, whatever `dir` is: nested, absolute or with
 * "..": "../../schemas/x.json".  NULL with errno when either cannot be
 * resolved.
 */
const char *emit_path_from(struct arena *a, const char *dir, const char *rel);

#endif
