/*
 * source.h - where spec bytes come from: a work tree, a Git revision, the
 * index.  The rest of the tool sees only a file set (path -> bytes), so
 * validate and render run the same on a directory, a commit or a test
 * fixture.  Only source/ includes <git2.h>.
 */
#ifndef GS_SOURCE_H
#define GS_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"

struct arena;

#define SOURCE_MAX_FILE_BYTES (4u << 20)	/* one spec file */
#define SOURCE_MAX_FILES 20000			/* spec files in one run */
#define SOURCE_MAX_TOTAL_BYTES (512u << 20)	/* all spec files of one run */
#define SOURCE_MAX_DEPTH 64			/* directory nesting */

struct source_file {
	const char *path;	/* as shown in diagnostics: relative, '/'-separated */
	const char *data;	/* NUL-terminated copy in the arena */
	size_t len;
};

struct source_set {
	struct source_file *files;	/* sorted by path (byte order) */
	size_t count;
	size_t alloc;
	const char *label;	/* "sites", "origin@v1.2", ... for summaries */
};

enum source_err {
	SOURCE_OK = 0,
	SOURCE_EFAIL = -1,	/* could not read: exit 3 */
	SOURCE_ENOTFOUND = -3,	/* path, repository or revision missing */
};

/*
 * Collect spec files from the work tree.  Each argument is a file (taken
 * whatever its extension) or a directory (every *.yaml / *.yml below it,
 * hidden entries skipped).  Symlinks are followed only when they stay
 * under `root` (GS006 otherwise, and for anything not a regular file).
 * Files over SOURCE_MAX_FILE_BYTES are refused by size before reading
 * (GS001).  Returns 0, or SOURCE_EFAIL / SOURCE_ENOTFOUND after a
 * diagnostic.
 */
int source_from_paths(struct source_set *out, struct arena *a,
		      struct diags *d, const char *root,
		      const char *const *paths, size_t npaths);

/*
 * Collect spec files from a Git revision without a checkout.  `repo` is a
 * local repository path (opened in place) or a URL (file://, git://,
 * http(s)://, ssh): cloned or fetched into a bare cache under
 * $XDG_CACHE_HOME/gpusite/repos/ keyed by the URL without credentials; a
 * full or short SHA already in the cache needs no network.  `rev` is
 * anything git rev-parse takes (branch, tag, SHA, HEAD~1); NULL = HEAD.
 * `paths` select files inside the tree as for source_from_paths (none:
 * `sites/` if the tree has it, else the whole tree).  Credentials: the
 * token in GPUSITE_GIT_TOKEN (HTTPS), the SSH agent (ssh); never printed.
 * Returns 0, SOURCE_ENOTFOUND (repository or revision missing) or
 * SOURCE_EFAIL, after a diagnostic.
 */
int source_from_git(struct source_set *out, struct arena *a, struct diags *d,
		    const char *repo, const char *rev,
		    const char *const *paths, size_t npaths);

/*
 * Collect spec files exactly as staged in the index of the repository
 * that holds the current directory (what the next commit will contain).
 * `paths` are relative to the current directory; none: `sites/` below it
 * if staged files live there, else everything staged below it.
 */
int source_from_index(struct source_set *out, struct arena *a,
		      struct diags *d, const char *const *paths, size_t npaths);

/* Copy of a URL with any user:password@ removed (arena). */
const char *source_url_scrub(struct arena *a, const char *url);

void source_set_add(struct arena *a, struct source_set *s, const char *path,
		    const char *data, size_t len);
void source_set_sort(struct source_set *s);

const char *source_library_version(void);	/* libgit2's */

#endif
