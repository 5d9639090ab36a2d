/*
 * source_int.h - what the Git sources share (source_git.c: a revision,
 * source_index.c: the index, source_cache.c: the cache of remote
 * repositories).  Not for other modules: only source/ sees libgit2.
 */
#ifndef GS_SOURCE_INT_H
#define GS_SOURCE_INT_H

#include <stdbool.h>
#include <stddef.h>

#include <git2.h>

#include "base/diag.h"
#include "source/source.h"
#include "source/source_util.h"

struct arena;

/*
 * Picking spec files out of an object database: from a tree (a commit)
 * or from the index.  Paths inside are '/'-separated from the top of the
 * repository; `base` is where the user stands (the current directory's
 * place in the work tree, "" at the top), and files are named relative
 * to it, as the work-tree walker names them.
 */
struct source_pick {
	struct arena *arena;
	struct diags *diags;
	struct source_set *out;
	git_repository *repo;
	git_odb *odb;
	git_tree *tree;   /* a revision's tree, or NULL */
	git_index *index; /* or the index */
	const char *base;
	const char *where; /* "at main", "in the index": for messages */
	size_t total;      /* bytes taken */
};

/*
 * Load libgit2 (source_git2.c) before a command reads Git: 0, or
 * SOURCE_EFAIL after a diagnostic naming the library and how to install
 * it.  Every other libgit2 function also loads it on first use.
 */
int source__git_load(struct diags *d);

/* The soname source_git2.c loads, for messages. */
#define SOURCE_GIT2_SONAME "libgit2.so." LIBGIT2_SOVERSION

/* Start a pick that fills `out`: libgit2 initialised (the caller shuts
 * it down), paths from the top of the repository until p->base is set. */
void source__pick_init(struct source_pick *p, struct arena *a, struct diags *d,
		       struct source_set *out, const char *where);

/* libgit2's last error message, with URL credentials and any token from
 * the environment cut out (arena). */
const char *source__git_message(struct arena *a);

/* `msg` the same way: credentials of URLs and the tokens cut out, a
 * final newline or period dropped (arena). */
const char *source__scrub(struct arena *a, const char *msg);

/*
 * `rel` (a user's path, relative to `base`; "." and ".." allowed) as a
 * path from the top of the repository ("" for the top itself), or NULL
 * when it climbs out of the repository.
 */
char *source__tree_path(struct arena *a, const char *base, const char *rel);

/* Tree path `path` as the user sees it from `base`. */
const char *source__shown(struct arena *a, const char *base, const char *path);

/* Whether a component of `path` below `under` starts with '.'. */
bool source__hidden_below(const char *path, const char *under);

/*
 * Take the entry at tree path `path` (mode and id from the tree or the
 * index): a blob is read (size checked from the object header first), a
 * symlink followed while it stays inside the repository (GS006 when it
 * leaves), anything else refused (GS006).  Returns 0, or a negative
 * source_err after source__fatal (too many files, too many bytes, a
 * broken object database).
 */
int source__take(struct source_pick *p, const char *path, git_filemode_t mode, const git_oid *id);

/*
 * What tree path `path` is in the tree or the index: 1 found (mode, id),
 * 2 a directory, 0 nothing there.
 */
int source__lookup(struct source_pick *p, const char *path, git_filemode_t *mode, git_oid *id);

/*
 * Resolve the user's PATH arguments into tree paths (relative to
 * p->base; an absolute path must lie inside `workdir`, when there is
 * one).  Returns 0 or SOURCE_ENOTFOUND after a diagnostic.
 */
int source__select(const char ***out, struct source_pick *p, const char *workdir,
		   const char *const *paths, size_t npaths);

/*
 * The repository to read a remote URL from: its bare clone in the cache,
 * fetched first unless `rev` names a commit the cache already holds
 * (a full or short SHA, alone or with ~N / ^N).  Returns 0, or a
 * negative source_err after a diagnostic.
 */
int source__open_cached(git_repository **out, struct arena *a, struct diags *d, const char *url,
			const char *shown, const char *rev);

/*
 * The same, always fetched, for a run that commits to one of its branches;
 * `want` (a revision) is fetched by itself too when the branches and tags
 * do not hold it: a full commit id or a ref outside refs/heads and
 * refs/tags (a pull request from a fork: refs/pull/N/head).
 */
int source__open_cached_want(git_repository **out, struct arena *a, struct diags *d,
			     const char *url, const char *shown, const char *want);

/*
 * The callbacks of every connection to a remote, fetch or push: the
 * credentials (a token from GPUSITE_GIT_TOKEN or GIT_TOKEN over HTTPS
 * only, the SSH agent for ssh; each offered once), the TLS certificate
 * and SSH host key checks, trust anchors from the environment.  `st`
 * holds the state and must outlive the connection.
 */
struct source_remote {
	int port;       /* ssh port from the URL, 22 by default */
	unsigned tried; /* git_credential_t bits already offered */
};

void source__remote_callbacks(git_remote_callbacks *cb, struct source_remote *st, const char *url);

/*
 * Why a remote URL is refused before any connection (a transport helper,
 * an unknown scheme, a control character, credentials in an http:// URL:
 * in its authority or in its query), or NULL.
 */
const char *source__url_refusal(struct arena *a, const char *url);

/* Whether `repo` names a remote (scheme://..., or scp-like host:path). */
bool source__is_url(const char *repo);

/*
 * SSH host key check: whether `key` (the raw host key the server showed,
 * `len` bytes) is listed for `host` (and `port`, 22 = default) in the
 * known_hosts file `file` (NULL: ~/.ssh/known_hosts), asked through
 * `ssh-keygen -F`, which understands hashed entries.  Returns 1 known,
 * 0 not listed or different, -1 when it cannot be checked.
 */
int source__known_host(const char *file, const char *host, int port, const unsigned char *key,
		       size_t len);

/* Standard base64 of `len` bytes (arena). */
char *source__base64(struct arena *a, const unsigned char *data, size_t len);

#endif
