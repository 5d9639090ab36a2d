/*
 * source_branch.c - a tree of files committed to a branch without a work
 * tree, the branch moved by compare and swap, and pushed
 * (source_branch.h).
 *
 * The tree is built in an index that lives in memory only (blobs written
 * to the object database, then git_index_write_tree_to), so the user's
 * index and work tree are never touched.  The commit's author and
 * committer, names, e-mails, dates and time zones, are the source
 * commit's: git_commit_create is given those signatures, so neither
 * GIT_AUTHOR_* / GIT_COMMITTER_*, TZ nor any git configuration reaches
 * the commit, and the same source on the same parent gives the same id.
 * The branch is moved with git_reference_create_matching, which checks
 * under the ref's lock that it still points at the parent read: of two
 * concurrent runs one wins and the other fails, nothing is lost.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "base/arena.h"
#include "base/diag.h"
#include "source/source.h"
#include "source/source_branch.h"
#include "source/source_int.h"

#define REMOTE_TEXT_MAX 2048 /* what the remote says, kept for the message */

static int
open_repo(git_repository **out, struct arena *a, struct diags *d, const char *repo, const char *rev)
{
	const char *where = repo ? repo : ".";
	const char *shown = source_url_scrub(a, where);

	*out = NULL;
	if (source__is_url(where))
		return source__open_cached(out, a, d, where, shown, rev);
	if (git_repository_open_ext(out, where, 0, NULL) < 0)
		return source__fail(d, SOURCE_ENOTFOUND, "cannot open repository '%s': %s", shown,
				    source__git_message(a));
	return SOURCE_OK;
}

int
source_resolve(char id[SOURCE_OID_HEX], struct arena *a, struct diags *d, const char *repo,
	       const char *rev)
{
	git_repository *r = NULL;
	git_object *obj = NULL, *commit = NULL;
	const char *shown = source_url_scrub(a, repo ? repo : ".");
	int rc;

	if (source__git_load(d) < 0)
		return SOURCE_EFAIL;
	git_libgit2_init();
	if (!rev)
		rev = "HEAD";
	/* a URL is fetched even for a commit id its cache holds: the branch
	 * the run commits to must be the remote's tip of now */
	rc = open_repo(&r, a, d, repo, "HEAD");
	if (rc)
		goto out;
	if (git_revparse_single(&obj, r, rev) < 0 ||
	    git_object_peel(&commit, obj, GIT_OBJECT_COMMIT) < 0) {
		rc = source__fail(d, SOURCE_ENOTFOUND, "revision '%s' not found in %s: %s", rev,
				  shown, source__git_message(a));
		goto out;
	}
	git_oid_tostr(id, SOURCE_OID_HEX, git_object_id(commit));
out:
	git_object_free(commit);
	git_object_free(obj);
	git_repository_free(r);
	git_libgit2_shutdown();
	return rc;
}

/* ---- the branch's files ---- */

struct old_walk {
	struct arena *a;
	struct source_set *out;
	git_repository *repo;
	int error;
};

static int
old_cb(const char *root, const git_tree_entry *e, void *payload)
{
	struct old_walk *w = payload;
	git_blob *blob = NULL;
	size_t len;

	if (git_tree_entry_filemode(e) == GIT_FILEMODE_TREE)
		return 0;
	if (w->out->count >= SOURCE_MAX_FILES ||
	    git_blob_lookup(&blob, w->repo, git_tree_entry_id(e)) < 0) {
		w->error = -1;
		return -1;
	}
	len = (size_t)git_blob_rawsize(blob);
	source_set_add(w->a, w->out, arena_printf(w->a, "%s%s", root, git_tree_entry_name(e)),
		       arena_strndup(w->a, git_blob_rawcontent(blob), len), len);
	git_blob_free(blob);
	return 0;
}

static int
read_old(struct source_set *out, struct arena *a, struct diags *d, git_repository *r,
	 git_commit *tip, const char *branch)
{
	struct old_walk w = { a, out, r, 0 };
	git_tree *tree = NULL;
	int rc = SOURCE_OK;

	if (git_commit_tree(&tree, tip) < 0 ||
	    git_tree_walk(tree, GIT_TREEWALK_PRE, old_cb, &w) < 0 || w.error)
		rc = source__fail(d, SOURCE_EFAIL, "cannot read the files of branch '%s': %s",
				  branch, source__git_message(a));
	git_tree_free(tree);
	source_set_sort(out);
	return rc;
}

/* The tree of `files`, written to the object database. */
static int
write_tree(git_oid *out, struct arena *a, struct diags *d, git_repository *r,
	   const struct source_branch_req *req)
{
	git_index *idx = NULL;
	int rc = SOURCE_OK;

	if (git_index_new(&idx) < 0)
		return source__fail(d, SOURCE_EFAIL, "cannot build a tree: %s",
				    source__git_message(a));
	for (size_t i = 0; i < req->count && !rc; i++) {
		const struct source_tree_file *f = &req->files[i];
		git_index_entry e;

		memset(&e, 0, sizeof(e));
		e.mode = GIT_FILEMODE_BLOB;
		e.path = f->path;
		e.file_size = (uint32_t)f->len;
		if (git_blob_create_from_buffer(&e.id, r, f->data, f->len) < 0 ||
		    git_index_add(idx, &e) < 0)
			rc = source__fail(d, SOURCE_EFAIL, "cannot write '%s': %s", f->path,
					  source__git_message(a));
	}
	if (!rc && git_index_write_tree_to(out, idx, r) < 0)
		rc = source__fail(d, SOURCE_EFAIL, "cannot write the tree: %s",
				  source__git_message(a));
	git_index_free(idx);
	return rc;
}

/* The branch's tip: 0 with *tip set, 0 with *tip NULL when the branch
 * does not exist, or an error. */
static int
read_tip(git_commit **tip, struct arena *a, struct diags *d, git_repository *r, const char *refname,
	 const char *branch)
{
	git_reference *ref = NULL;
	int error = git_reference_lookup(&ref, r, refname);

	*tip = NULL;
	if (error == GIT_ENOTFOUND) {
		git_error_clear();
		return SOURCE_OK;
	}
	if (error < 0 || !git_reference_target(ref) ||
	    git_commit_lookup(tip, r, git_reference_target(ref)) < 0) {
		git_reference_free(ref);
		return source__fail(d, SOURCE_EFAIL, "cannot read branch '%s': %s", branch,
				    source__git_message(a));
	}
	git_reference_free(ref);
	return SOURCE_OK;
}

/* Move refs/heads/<branch> from `tip` (NULL: create it) to `id`. */
static int
move_branch(struct arena *a, struct diags *d, git_repository *r, const char *refname,
	    const struct source_branch_req *req, const git_oid *id, git_commit *tip)
{
	git_reference *ref = NULL;
	const char *log = arena_printf(a, "gpusite hydrate: from %.12s", req->source);
	int error = tip ? git_reference_create_matching(&ref, r, refname, id, 1, git_commit_id(tip),
							log)
			: git_reference_create(&ref, r, refname, id, 0, log);

	git_reference_free(ref);
	if (!error)
		return SOURCE_OK;
	if (error == GIT_EMODIFIED || error == GIT_EEXISTS || error == GIT_ELOCKED)
		return source__fail(d, SOURCE_ECONFLICT,
				    "branch '%s' was %s by another run while this one"
				    " built its commit; nothing was lost: run again",
				    req->branch,
				    error == GIT_ELOCKED   ? "being updated"
				    : error == GIT_EEXISTS ? "created"
							   : "moved");
	return source__fail(d, SOURCE_EFAIL, "cannot update branch '%s': %s", req->branch,
			    source__git_message(a));
}

static int
make_commit(git_oid *out, struct arena *a, struct diags *d, git_repository *r,
	    const struct source_branch_req *req, const git_oid *tree_id, git_commit *tip)
{
	git_commit *src = NULL;
	git_tree *tree = NULL;
	git_oid src_id;
	const git_commit *parents[1] = { tip };
	int rc = SOURCE_OK;

	if (git_oid_fromstr(&src_id, req->source) < 0 || git_commit_lookup(&src, r, &src_id) < 0 ||
	    git_tree_lookup(&tree, r, tree_id) < 0 ||
	    git_commit_create(out, r, NULL, git_commit_author(src), git_commit_committer(src), NULL,
			      req->message, tree, tip ? 1 : 0, parents) < 0)
		rc = source__fail(d, SOURCE_EFAIL, "cannot write the commit: %s",
				  source__git_message(a));
	git_tree_free(tree);
	git_commit_free(src);
	return rc;
}

/* Whether the message of `tip` holds a line starting with `mark`. */
static bool
owned(git_commit *tip, const char *mark)
{
	const char *msg = git_commit_message(tip);
	size_t n = mark ? strlen(mark) : 0;

	if (!mark)
		return true;
	for (const char *p = msg; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, mark, n))
			return true;
	return false;
}

int
source_branch_commit(struct source_branch_res *res, struct arena *a, struct diags *d,
		     const struct source_branch_req *req)
{
	git_repository *r = NULL;
	git_commit *tip = NULL;
	git_oid tree_id, id;
	const char *refname = arena_printf(a, "refs/heads/%s", req->branch);
	int rc;

	memset(res, 0, sizeof(*res));
	if (source__git_load(d) < 0)
		return SOURCE_EFAIL;
	git_libgit2_init();
	if (git_reference_name_is_valid(&rc, refname) < 0 || !rc) {
		rc = source__fail(d, SOURCE_EFAIL, "'%s' is not a valid branch name", req->branch);
		goto out;
	}
	rc = open_repo(&r, a, d, req->repo, req->source);
	if (!rc)
		rc = read_tip(&tip, a, d, r, refname, req->branch);
	if (!rc && tip && !owned(tip, req->owner_mark))
		rc = source__fail(d, SOURCE_EFAIL,
				  "branch '%s' exists and was not written by this tool (its tip"
				  " has no '%s' line): give a branch of its own",
				  req->branch, req->owner_mark);
	if (!rc && tip) {
		git_oid_tostr(res->parent, SOURCE_OID_HEX, git_commit_id(tip));
		rc = read_old(&res->old, a, d, r, tip, req->branch);
	}
	if (!rc)
		rc = write_tree(&tree_id, a, d, r, req);
	if (rc)
		goto out;
	res->changed = !tip || !git_oid_equal(&tree_id, git_commit_tree_id(tip));
	if (!res->changed || req->dry_run)
		goto out;
	rc = make_commit(&id, a, d, r, req, &tree_id, tip);
	if (rc)
		goto out;
	if (req->before_update)
		req->before_update(req->ctx);
	rc = move_branch(a, d, r, refname, req, &id, tip);
	if (!rc)
		git_oid_tostr(res->commit, SOURCE_OID_HEX, &id);
out:
	git_commit_free(tip);
	git_repository_free(r);
	git_libgit2_shutdown();
	return rc;
}

/* ---- push ---- */

struct push_state {
	struct source_remote remote; /* first: the credential callbacks' payload */
	char refused[256];           /* the remote's status for the ref */
	char said[REMOTE_TEXT_MAX];  /* what the remote printed ("remote: ...") */
	size_t said_len;
};

static int
push_status_cb(const char *refname, const char *status, void *payload)
{
	struct push_state *st = payload;

	(void)refname;
	if (status)
		snprintf(st->refused, sizeof(st->refused), "%s", status);
	return 0;
}

static int
sideband_cb(const char *text, int len, void *payload)
{
	struct push_state *st = payload;

	for (int i = 0; i < len && st->said_len + 1 < sizeof(st->said); i++) {
		unsigned char c = (unsigned char)text[i];

		/* one line of text: control characters become spaces */
		st->said[st->said_len++] = c < 0x20 || c == 0x7f ? ' ' : (char)c;
	}
	st->said[st->said_len] = '\0';
	return 0;
}

/* "; the remote says: ..." from what it printed, or "". */
static const char *
remote_said(struct arena *a, struct push_state *st)
{
	char *s = st->said;
	size_t n = strlen(s);

	while (*s == ' ')
		s++;
	while (n && st->said[n - 1] == ' ')
		st->said[--n] = '\0';
	return *s ? arena_printf(a, "; the remote says: %s", source__scrub(a, s)) : "";
}

static int
open_remote(git_remote **out, struct arena *a, struct diags *d, git_repository *r, const char *repo,
	    const char **url)
{
	if (repo && source__is_url(repo)) {
		*url = repo;
		if (git_remote_create_anonymous(out, r, repo) < 0)
			return source__fail(d, SOURCE_EFAIL, "cannot push to %s: %s",
					    source_url_scrub(a, repo), source__git_message(a));
		return SOURCE_OK;
	}
	if (git_remote_lookup(out, r, "origin") < 0 || !git_remote_url(*out))
		return source__fail(d, SOURCE_EFAIL,
				    "cannot push: the repository has no remote 'origin'"
				    " (give the URL with --repo)");
	*url = git_remote_pushurl(*out) ? git_remote_pushurl(*out) : git_remote_url(*out);
	return SOURCE_OK;
}

int
source_push(struct arena *a, struct diags *d, const char *repo, const char *source,
	    const char *branch)
{
	git_repository *r = NULL;
	git_remote *remote = NULL;
	git_push_options po;
	struct push_state st;
	const char *url = NULL;
	char *spec = arena_printf(a, "refs/heads/%s:refs/heads/%s", branch, branch);
	git_strarray specs = { &spec, 1 };
	int rc, error;

	if (source__git_load(d) < 0)
		return SOURCE_EFAIL;
	git_libgit2_init();
	memset(&st, 0, sizeof(st));
	rc = open_repo(&r, a, d, repo, source);
	if (!rc)
		rc = open_remote(&remote, a, d, r, repo, &url);
	if (rc)
		goto out;
	git_push_options_init(&po, GIT_PUSH_OPTIONS_VERSION);
	source__remote_callbacks(&po.callbacks, &st.remote, url);
	po.callbacks.push_update_reference = push_status_cb;
	po.callbacks.sideband_progress = sideband_cb;
	po.callbacks.payload = &st;
	po.proxy_opts.type = GIT_PROXY_AUTO;
	error = git_remote_push(remote, &specs, &po);
	if (error == GIT_ENONFASTFORWARD)
		rc = source__fail(d, SOURCE_EFAIL,
				  "cannot push branch '%s' to %s: the remote's branch moved since"
				  " this run read it (not a fast-forward: %s); run again",
				  branch, source_url_scrub(a, url), source__git_message(a));
	else if (error < 0)
		rc = source__fail(d, SOURCE_EFAIL, "cannot push branch '%s' to %s: %s%s", branch,
				  source_url_scrub(a, url), source__git_message(a),
				  remote_said(a, &st));
	else if (st.refused[0])
		rc = source__fail(d, SOURCE_EFAIL, "the remote %s refused branch '%s': %s%s",
				  source_url_scrub(a, url), branch, source__scrub(a, st.refused),
				  remote_said(a, &st));
out:
	git_remote_free(remote);
	git_repository_free(r);
	git_libgit2_shutdown();
	return rc;
}
