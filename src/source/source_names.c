/*
 * source_names.c - file names as a reader of the repository knows them:
 * relative to the top of the Git work tree the specs come from, whatever
 * directory a command ran in or a server was started in, so findings,
 * answers and logs never carry a machine's absolute paths.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/arena.h"
#include "source/source.h"

/* The Git work tree holding the absolute directory `dir`: the nearest
 * directory at or above it with a .git entry (directory or file), or
 * $GIT_WORK_TREE when `dir` is inside it.  NULL when there is none. */
static char *
find_top(struct arena *a, const char *dir)
{
	const char *wt = getenv("GIT_WORK_TREE");
	char *cur = arena_strdup(a, dir);

	if (wt && *wt) {
		char *real = realpath(wt, NULL);
		size_t n = real ? strlen(real) : 0;
		char *top = NULL;

		if (real && !strncmp(dir, real, n) && (dir[n] == '/' || !dir[n]))
			top = arena_strdup(a, real);
		free(real);
		if (top)
			return top;
	}
	for (;;) {
		struct stat st;
		char *git = arena_printf(a, "%s%s.git", cur, strcmp(cur, "/") ? "/" : "");
		char *slash;

		if (lstat(git, &st) == 0)
			return cur;
		slash = strrchr(cur, '/');
		if (!slash || slash == cur)
			return NULL;
		*slash = '\0';
	}
}

/* prefix + path with "." and ".." resolved, or NULL when it leaves the
 * top. */
static const char *
join_from_top(struct arena *a, const char *prefix, const char *path)
{
	size_t cap = strlen(prefix) + strlen(path) + 2, n = 0;
	char *buf = arena_alloc(a, cap);

	for (int part = 0; part < 2; part++) {
		const char *s = part ? path : prefix;

		while (*s) {
			const char *e = strchr(s, '/');
			size_t len = e ? (size_t)(e - s) : strlen(s);

			if (len == 2 && s[0] == '.' && s[1] == '.') {
				if (n == 0)
					return NULL;
				while (n > 0 && buf[n - 1] != '/')
					n--;
				if (n > 0)
					n--;
			} else if (len && !(len == 1 && s[0] == '.')) {
				if (n)
					buf[n++] = '/';
				memcpy(buf + n, s, len);
				n += len;
			}
			s += len;
			if (*s == '/')
				s++;
		}
	}
	buf[n] = '\0';
	return n ? buf : NULL;
}

/* The top of the work tree the specs come from and where the file names
 * are relative to, seen from it ("" or "sites/eu/"); -1 when there is no
 * such work tree. */
int
source_top_of(struct arena *a, const char *repo, const char **top, const char **prefix)
{
	char here[PATH_MAX];
	const char *dir;
	struct stat st;
	size_t n;

	if (repo) {
		/* a URL's files are named from its top already */
		if (stat(repo, &st) != 0 || !S_ISDIR(st.st_mode))
			return -1;
		dir = realpath(repo, here);
	} else {
		dir = getcwd(here, sizeof(here));
	}
	if (!dir || !(*top = find_top(a, dir)))
		return -1;
	n = strlen(*top);
	if (!strcmp(*top, "/"))
		*prefix = arena_strdup(a, dir + 1);
	else
		*prefix = arena_strdup(a, dir[n] == '/' ? dir + n + 1 : "");
	return 0;
}

const char *
source_name_from_top(struct arena *a, const char *top, const char *prefix, const char *f)
{
	size_t n = strlen(top);
	const char *named = NULL;

	if (!f || !*f)
		return f;
	if (f[0] == '/') {
		if (!strncmp(f, top, n) && f[n] == '/')
			named = join_from_top(a, "", f + n + 1);
	} else {
		named = join_from_top(a, prefix, f);
	}
	return named ? named : f;
}
