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

#define SOURCE_MAX_FILE_BYTES (4u << 20)    /* one spec file */
#define SOURCE_MAX_FILES 20000              /* spec files in one run */
#define SOURCE_MAX_TOTAL_BYTES (512u << 20) /* all spec files of one run */
#define SOURCE_MAX_DEPTH 64                 /* directory nesting */

struct source_file {
	const char *path; /* as shown in diagnostics: relative, '/'-separated */
	const char *data; /* NUL-terminated copy in the arena */
	size_t len;
};

struct source_set {
	struct source_file *files; /* sorted by path (byte order) */
	size_t count;
	size_t alloc;
	const char *label; /* "sites", "origin@v1.2", ... for summaries */
};

enum source_err {
	SOURCE_OK = 0,
	SOURCE_EFAIL = -1,     /* could not read: exit 3 */
	SOURCE_ENOTFOUND = -3, /* path, repository or revision missing */
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
int source_from_paths(struct source_set *out, struct arena *a, struct diags *d, const char *root,
		      const char *const *paths, size_t npaths);

/*
 * Collect spec files from a Git revision without a checkout.  `repo` is a
 * local path (NULL: "."), opened in place and found upwards as git does,
 * or a URL (file://, git://, http(s)://, ssh://, scp-like host:path):
 * cloned or fetched into a bare cache under $XDG_CACHE_HOME/gpusite/repos/
 * (default ~/.cache/gpusite/repos/) named by the Git blob id of the URL
 * without credentials; a full or short SHA already in the cache needs no
 * network, a branch or tag is fetched (once per run).  `rev` is anything
 * git rev-parse takes (branch, tag, SHA, HEAD~1); NULL = HEAD (for a URL,
 * the remote's HEAD).  `paths` select files inside the tree as for
 * source_from_paths, relative to where a local `repo` points inside its
 * work tree (from the top for a URL or a bare repository); none: `sites/`
 * there if the tree has it, else everything there.  Files are named the
 * same way.  Credentials: a token in GPUSITE_GIT_TOKEN (else GIT_TOKEN)
 * sent as x-access-token basic auth over HTTPS only, the SSH agent for
 * ssh (host keys checked against known_hosts); never printed, never
 * stored.  Returns 0 (findings such as GS006 may have been appended),
 * SOURCE_ENOTFOUND (repository, revision or path missing) or SOURCE_EFAIL,
 * after a diagnostic.
 */
int source_from_git(struct source_set *out, struct arena *a, struct diags *d, const char *repo,
		    const char *rev, const char *const *paths, size_t npaths);

/*
 * Collect spec files exactly as staged in the index of the repository
 * that holds the current directory (what the next commit will contain),
 * found as git finds it: GIT_DIR, GIT_WORK_TREE and GIT_INDEX_FILE are
 * honoured, so a pre-commit hook of `git commit -a` reads the index being
 * committed.  `paths` are relative to the current directory; none:
 * `sites/` below it if staged files live there, else everything staged
 * below it.  Intent-to-add entries are skipped, unmerged files reported.
 */
int source_from_index(struct source_set *out, struct arena *a, struct diags *d,
		      const char *const *paths, size_t npaths);

/* Forget which cached clones this run has fetched: the next
 * source_from_git() of a branch or tag fetches again (serve's refresh). */
void source_cache_expire(void);

/* Copy of a URL with any user:password@ removed (arena). */
const char *source_url_scrub(struct arena *a, const char *url);

void source_set_add(struct arena *a, struct source_set *s, const char *path, const char *data,
		    size_t len);
void source_set_sort(struct source_set *s);
/* The bytes of all the files of the set. */
size_t source_set_bytes(const struct source_set *s);

const char *source_library_version(void); /* libgit2's */

/*
 * The line diff of two buffers, as libgit2 computes it (text always,
 * `context` lines around each change): on_hunk() gets each hunk header
 * ("@@ -1,3 +1,3 @@\n"), on_line() each line of it with its origin
 * (' ', '+' or '-'; no-newline markers are left out).  A callback stops
 * the diff by returning non-zero.  Returns 0, or -1 when libgit2 failed
 * or a callback stopped it.
 */
struct source_diff_sink {
	int (*on_hunk)(void *ctx, const char *header, size_t len);
	int (*on_line)(void *ctx, char origin, const char *text, size_t len);
	void *ctx;
};

int source_diff_buffers(const char *a_text, size_t a_len, const char *b_text, size_t b_len,
			unsigned context, const struct source_diff_sink *sink);

/*
 * The top of the Git work tree of `repo` (a local directory; NULL: the
 * current directory) and the prefix the file names read there are
 * relative to, seen from the top ("" or "sites/eu/").  -1 when there is
 * no such work tree (a URL's files are named from its top already).
 */
int source_top_of(struct arena *a, const char *repo, const char **top, const char **prefix);

/* `f` named from `top` (absolute names under it, relative ones after
 * `prefix`, "." and ".." resolved); `f` itself when it leaves the top. */
const char *source_name_from_top(struct arena *a, const char *top, const char *prefix,
				 const char *f);

#endif
