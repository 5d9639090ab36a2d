/*
 * source_branch.h - writing to a Git repository, without a work tree: a
 * whole tree of files committed to a branch, the branch moved only if it
 * still points where it pointed when the run read it (compare and swap),
 * and pushed.  What `gpusite hydrate` needs of Git; only source/ sees
 * libgit2 (source_branch.c).
 */
#ifndef GS_SOURCE_BRANCH_H
#define GS_SOURCE_BRANCH_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "source/source.h"

struct arena;

#define SOURCE_OID_HEX 41 /* 40 hex digits and the NUL */

/* The branch moved (or was created) under this run: exit 3, run again. */
#define SOURCE_ECONFLICT (-4)

/*
 * The full id of the commit `rev` names in `repo` (opened as
 * source_from_git() opens it: a local path, NULL = ".", or a URL read
 * from its cache clone, always fetched first, so that its branches are
 * the remote's).  0, or a negative source_err after a diagnostic.
 */
int source_resolve(char id[SOURCE_OID_HEX], struct arena *a, struct diags *d, const char *repo,
		   const char *rev);

/* One file of the tree to commit: '/'-separated path from the top, mode
 * 100644. */
struct source_tree_file {
	const char *path;
	const char *data;
	size_t len;
};

struct source_branch_req {
	const char *repo;                     /* as for source_resolve() */
	const char *source;                   /* full id of the source commit: author, committer and
			       their dates are taken from it */
	const char *branch;                   /* short name: refs/heads/<branch> */
	const struct source_tree_file *files; /* the whole tree */
	size_t count;
	const char *message; /* the commit message, trailers included */
	/*
	 * Who owns the branch.  A branch that exists is written only when its
	 * tip is a commit this tool would make: `owner_trailer` ("Gpusite-Source")
	 * in the message's trailer block with a full commit id (40 hex digits)
	 * as its value, and a tree that holds nothing but blobs (mode 100644)
	 * at paths `owns_path` accepts, no deeper than `max_depth` levels.
	 * NULL owner_trailer: any branch.  The tip's files are read under the
	 * limits of spec files (SOURCE_MAX_FILE_BYTES each, SOURCE_MAX_FILES,
	 * SOURCE_MAX_TOTAL_BYTES), each refused by size before it is read.
	 */
	const char *owner_trailer;
	bool (*owns_path)(const char *path);
	size_t max_depth;
	/* For a local repository (a URL's cache is fetched anyway): fetch
	 * the branch from its remote "origin" first and build on the remote's
	 * tip, what --push pushes to. */
	bool fetch_origin;
	bool dry_run; /* write no commit and move no branch */
	/* Called after the branch was read and the commit written, before
	 * the branch is moved (NULL: nothing). */
	void (*before_update)(void *ctx);
	void *ctx;
};

struct source_branch_res {
	char parent[SOURCE_OID_HEX]; /* where the branch pointed; "" when new */
	char commit[SOURCE_OID_HEX]; /* the new commit; "" when unchanged */
	bool changed;                /* the tree differs from the parent's */
	struct source_set old;       /* the parent's files (every blob) */
};

/*
 * Write the files as the tree of a commit whose parent is the branch's
 * tip (none when the branch does not exist), author and committer those
 * of req->source, and move the branch to it only if it still points at
 * that tip.  Nothing is committed when the tree equals the tip's
 * (res->changed false).  res->old holds the tip's files.  Returns 0,
 * SOURCE_ECONFLICT when the branch moved meanwhile (nothing lost: the
 * other run's commit stays), or another negative source_err, each after
 * a diagnostic.
 */
int source_branch_commit(struct source_branch_res *res, struct arena *a, struct diags *d,
			 const struct source_branch_req *req);

/*
 * Whether `name` may be the branch: a name `git check-ref-format --branch`
 * accepts for refs/heads/<name> that shadows no other ref when git reads
 * it as a revision (not HEAD, "@", a name starting with '-', refs/...,
 * heads/..., tags/..., remotes/..., origin/...).  NULL when it may, else
 * why not (static text).
 */
const char *source_branch_name_refusal(const char *name);

/*
 * Whether a commit message holds `key` in its trailer block (the last
 * paragraph, as git interpret-trailers reads it) with a full commit id
 * (40 lower-case hex digits) as its value.
 */
bool source_branch_trailer_ok(const char *message, const char *key);

/*
 * Push refs/heads/<branch> of `repo` to its remote: the URL for a URL
 * (from its cache clone, opened without fetching since `source`, the id
 * of the source commit, is there), the remote "origin" for a local
 * repository.
 * Never forced.  Credentials as for fetching (source.h).  Returns 0, or
 * SOURCE_EFAIL after a diagnostic holding the remote's reason (a
 * non-fast-forward update, a hook that refused).
 */
int source_push(struct arena *a, struct diags *d, const char *repo, const char *source,
		const char *branch);

#endif
