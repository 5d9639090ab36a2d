/*
 * source_dir.c - spec files from the work tree.
 *
 * Directories are walked in byte order, hidden entries (and so .git)
 * skipped, *.yaml / *.yml taken.  A symlink is followed only when its
 * target stays under the root and is a regular file; symlinked
 * directories are not walked (as git stores a link, not a tree), so the
 * walk can neither loop nor leave the tree.  Nothing that is not a
 * regular file is ever opened for reading: a FIFO would block the run.
 *
 * Problems with one file (a symlink leading out, a FIFO, a file over the
 * size limit) are findings (GS006, GS001) and the walk goes on; not being
 * able to do the job at all (a missing path, permission denied, too many
 * files, nesting too deep) stops it with SOURCE_ENOTFOUND / SOURCE_EFAIL.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/file_kind.h"
#include "source/source.h"
#include "source/source_util.h"

struct dir_walk {
	struct arena *arena;
	struct diags *diags;
	struct source_set *out;
	const char *root; /* real path of the root, no trailing '/' */
	size_t total;     /* bytes read in this run */
	const char *arg;  /* the argument being walked, as given */
};

static int
cmp_name(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/*
 * A path as the user would write it: "./x.yaml" -> "x.yaml",
 * "sites//a/./b/" -> "sites/a/b"; ".." is kept (its meaning depends on
 * symlinks), an absolute path stays absolute, an empty one is ".".
 */
static char *
path_normalize(struct arena *a, const char *p)
{
	size_t n = strlen(p);
	char *out = arena_alloc(a, n + 2), *q = out;
	int abs = p[0] == '/';

	if (abs)
		*q++ = '/';
	while (*p) {
		const char *e;
		size_t len;

		while (*p == '/')
			p++;
		e = p;
		while (*e && *e != '/')
			e++;
		len = (size_t)(e - p);
		if (len && !(len == 1 && p[0] == '.')) {
			if (q > out && q[-1] != '/')
				*q++ = '/';
			memcpy(q, p, len);
			q += len;
		}
		p = e;
	}
	if (q == out)
		*q++ = '.';
	*q = '\0';
	return out;
}

static char *
path_join(struct arena *a, const char *dir, const char *name)
{
	if (!strcmp(dir, "."))
		return arena_strdup(a, name);
	if (!strcmp(dir, "/"))
		return arena_printf(a, "/%s", name);
	return arena_printf(a, "%s/%s", dir, name);
}

/* Whether real path `p` is `root` or lies below it. */
static int
path_under(const char *p, const char *root)
{
	size_t n = strlen(root);

	if (!strcmp(root, "/"))
		return 1;
	return !strncmp(p, root, n) && (p[n] == '\0' || p[n] == '/');
}

/*
 * Read the regular file at `fs_path` as spec `path`.  Opened without
 * following a final symlink and without blocking, then checked again on
 * the open descriptor, so a file swapped for a FIFO or a link after the
 * walk looked at it is refused, not read.
 */
static int
read_file(struct dir_walk *w, const char *path, const char *fs_path)
{
	struct buf b = BUF_INIT;
	struct stat st;
	int fd, r, ret = SOURCE_OK;

	fd = open(fs_path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ELOOP) {
			source__file_error(w->diags, SOURCE_RULE_PATH, path,
					   "not a regular file (a symlink that"
					   " changed while it was read)");
			return SOURCE_OK;
		}
		return source__fail(w->diags, SOURCE_EFAIL, "cannot read '%s': %s", path,
				    strerror(errno));
	}
	if (fstat(fd, &st) < 0) {
		ret = source__fail(w->diags, SOURCE_EFAIL, "cannot read '%s': %s", path,
				   strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		source__file_error(w->diags, SOURCE_RULE_PATH, path,
				   "not a regular file (%s); spec files"
				   " must be regular files",
				   file_kind_name(st.st_mode));
		goto out;
	}
	if ((uintmax_t)st.st_size > SOURCE_MAX_FILE_BYTES) {
		diag_report(w->diags, (struct pos){ path, 0, 0 }, SOURCE_RULE_READ, "",
			    "file is %jd bytes, over the %u MiB limit for a spec file;"
			    " split it into several files",
			    (intmax_t)st.st_size, SOURCE_MAX_FILE_BYTES >> 20);
		goto out;
	}
	if (w->out->count >= SOURCE_MAX_FILES) {
		ret = source__fail(w->diags, SOURCE_EFAIL,
				   "more than 20000 spec files under '%s';"
				   " point gpusite at a smaller tree",
				   w->arg);
		goto out;
	}
	buf_init(&b, SOURCE_MAX_FILE_BYTES);
	r = buf_read_fd(&b, fd);
	if (r == BUF_ETOOBIG) {
		diag_report(w->diags, (struct pos){ path, 0, 0 }, SOURCE_RULE_READ, "",
			    "file grew over the %u MiB limit for a spec file while it was read",
			    SOURCE_MAX_FILE_BYTES >> 20);
		goto out;
	}
	if (r < 0) {
		ret = source__fail(w->diags, SOURCE_EFAIL, "cannot read '%s': %s", path,
				   strerror(errno ? errno : EIO));
		goto out;
	}
	if (w->total + b.len > SOURCE_MAX_TOTAL_BYTES) {
		ret = source__fail(w->diags, SOURCE_EFAIL,
				   "the spec files under '%s' add up to more"
				   " than 512 MiB; point gpusite at a smaller tree",
				   w->arg);
		goto out;
	}
	w->total += b.len;
	source_set_add(w->arena, w->out, path, b.data, b.len);
out:
	buf_release(&b);
	close(fd);
	return ret;
}

static int walk_dir(struct dir_walk *w, const char *path, unsigned depth);

/*
 * A symlink at `path`: take its target when it stays under the root and
 * is a regular file (a directory only when named on the command line).
 */
static int
take_symlink(struct dir_walk *w, const char *path, int explicit_arg, unsigned depth)
{
	struct stat st;
	char *real = realpath(path, NULL);
	int ret = SOURCE_OK;

	if (!real) {
		if (errno == ELOOP)
			source__file_error(w->diags, SOURCE_RULE_PATH, path,
					   "symlink loop: the link never reaches"
					   " a file; spec files must be regular files");
		else if (errno == ENOENT || errno == ENOTDIR)
			source__file_error(w->diags, SOURCE_RULE_PATH, path,
					   "symlink leads to a file that does"
					   " not exist");
		else
			ret = source__fail(w->diags, SOURCE_EFAIL, "cannot read '%s': %s", path,
					   strerror(errno));
		return ret;
	}
	if (!path_under(real, w->root)) {
		source__file_error(w->diags, SOURCE_RULE_PATH, path,
				   "symlink leads outside the repository;"
				   " spec files must be regular files inside it");
		goto out;
	}
	if (stat(real, &st) < 0) {
		ret = source__fail(w->diags, SOURCE_EFAIL, "cannot read '%s': %s", path,
				   strerror(errno));
		goto out;
	}
	if (S_ISREG(st.st_mode))
		ret = read_file(w, path, real);
	else if (S_ISDIR(st.st_mode) && explicit_arg)
		ret = walk_dir(w, path, depth);
	else
		source__file_error(w->diags, SOURCE_RULE_PATH, path,
				   "symlink to %s, not a regular file;"
				   " spec files must be regular files",
				   file_kind_name(st.st_mode));
out:
	free(real);
	return ret;
}

/* One entry of a walk, or an argument (explicit_arg: taken whatever its
 * name, and may be a directory reached through a symlink). */
static int
take_entry(struct dir_walk *w, const char *path, const char *name, int explicit_arg, unsigned depth)
{
	struct stat st;
	int spec = explicit_arg || source__spec_name(name);

	if (lstat(path, &st) < 0) {
		if (errno == ENOENT && !explicit_arg)
			return SOURCE_OK; /* removed while we walked */
		return source__fail(w->diags, errno == ENOENT ? SOURCE_ENOTFOUND : SOURCE_EFAIL,
				    "cannot read '%s': %s", path, strerror(errno));
	}
	if (S_ISDIR(st.st_mode)) {
		if (source__spec_name(name) && !explicit_arg) {
			source__file_error(w->diags, SOURCE_RULE_PATH, path,
					   "not a regular file (a directory"
					   " named like a spec file); rename it");
			return SOURCE_OK;
		}
		return walk_dir(w, path, depth);
	}
	if (!spec)
		return SOURCE_OK;
	if (S_ISLNK(st.st_mode))
		return take_symlink(w, path, explicit_arg, depth);
	if (S_ISREG(st.st_mode))
		return read_file(w, path, path);
	source__file_error(w->diags, SOURCE_RULE_PATH, path,
			   "not a regular file (%s); spec files must be"
			   " regular files",
			   file_kind_name(st.st_mode));
	return SOURCE_OK;
}

static int
walk_dir(struct dir_walk *w, const char *path, unsigned depth)
{
	DIR *dir;
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, alloc = 0;
	int ret = SOURCE_OK;

	if (depth >= SOURCE_MAX_DEPTH)
		return source__fail(w->diags, SOURCE_EFAIL,
				    "directories under '%s' nest deeper than"
				    " 64 levels; point gpusite at a smaller tree",
				    w->arg);
	dir = opendir(path);
	if (!dir)
		return source__fail(w->diags, SOURCE_EFAIL, "cannot read '%s': %s", path,
				    strerror(errno));
	while ((errno = 0, de = readdir(dir)) != NULL) {
		if (de->d_name[0] == '.')
			continue; /* hidden entries, ".git", "." and ".." */
		ARENA_GROW(w->arena, names, n, alloc, 32);
		names[n++] = arena_strdup(w->arena, de->d_name);
	}
	if (errno) {
		ret = source__fail(w->diags, SOURCE_EFAIL, "cannot read '%s': %s", path,
				   strerror(errno));
		closedir(dir);
		return ret;
	}
	closedir(dir);
	if (n > 1)
		qsort(names, n, sizeof(*names), cmp_name);
	for (size_t i = 0; i < n && ret == SOURCE_OK; i++)
		ret = take_entry(w, path_join(w->arena, path, names[i]), names[i], 0, depth + 1);
	return ret;
}

/*
 * The root an argument's symlinks must stay under: the current directory
 * when the argument (its last component unresolved) lies below it, else
 * the argument itself (a directory) or the directory holding it.
 */
static char *
arg_root(struct arena *a, const char *arg, const char *cwd)
{
	const char *slash = strrchr(arg, '/');
	const char *base = slash ? slash + 1 : arg;
	char *dir = slash ? arena_strndup(a, arg, (size_t)(slash - arg)) : arena_strdup(a, ".");
	char *real_dir, *placed, *res;
	struct stat st;

	if (slash == arg)
		dir = arena_strdup(a, "/");
	real_dir = realpath(dir, NULL);
	if (!real_dir)
		return NULL;
	if (!strcmp(base, "..") || !strcmp(base, ".") || !*base) {
		char *real = realpath(arg, NULL);

		placed = arena_strdup(a, real ? real : real_dir);
		free(real);
	} else {
		placed = path_join(a, real_dir, base);
	}
	if (path_under(placed, cwd)) {
		res = arena_strdup(a, cwd);
	} else if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode)) {
		char *real = realpath(arg, NULL);

		res = arena_strdup(a, real ? real : real_dir);
		free(real);
	} else {
		res = arena_strdup(a, real_dir);
	}
	free(real_dir);
	return res;
}

int
source_from_paths(struct source_set *out, struct arena *a, struct diags *d, const char *root,
		  const char *const *paths, size_t npaths)
{
	static const char *const dot[] = { "." };
	static const char *const sites[] = { "sites" };
	struct dir_walk w = { a, d, out, NULL, 0, NULL };
	struct stat st;
	char *cwd = realpath(".", NULL);
	int ret = SOURCE_OK;

	if (!cwd) {
		w.arg = ".";
		return source__fail(w.diags, SOURCE_EFAIL, "cannot read '%s': %s", ".",
				    strerror(errno));
	}
	if (npaths == 0) {
		paths = stat("sites", &st) == 0 && S_ISDIR(st.st_mode) ? sites : dot;
		npaths = 1;
	}
	out->label =
		npaths == 1 ? path_normalize(a, paths[0]) : arena_printf(a, "%zu paths", npaths);
	for (size_t i = 0; i < npaths && ret == SOURCE_OK; i++) {
		char *path = path_normalize(a, paths[i]);
		const char *slash = strrchr(path, '/');

		w.arg = path;
		if (root) {
			char *real = realpath(root, NULL);

			if (!real) {
				ret = source__fail(w.diags, SOURCE_EFAIL, "cannot read '%s': %s",
						   root, strerror(errno));
				break;
			}
			w.root = arena_strdup(a, real);
			free(real);
		} else {
			w.root = arg_root(a, path, cwd);
			if (!w.root) {
				ret = source__fail(
					w.diags, errno == ENOENT ? SOURCE_ENOTFOUND : SOURCE_EFAIL,
					"cannot read '%s': %s", path, strerror(errno));
				break;
			}
		}
		ret = take_entry(&w, path, slash ? slash + 1 : path, 1, 0);
	}
	free(cwd);
	source__set_finish(out);
	return ret;
}
