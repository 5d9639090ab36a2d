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
	 * the run commits to must be the remote's tip of now; a revision
	 * outside its branches and tags is fetched by itself */
	if (repo && source__is_url(repo))
		rc = source__open_cached_want(&r, a, d, repo, shown, rev);
	else
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

/* A path of a hostile tree, for one line of message: printable, capped. */
static const char *
shown_path(struct arena *a, const char *path)
{
	size_t n = strlen(path) > 120 ? 120 : strlen(path);
	char *s = arena_printf(a, "%.*s%s", (int)n, path, strlen(path) > n ? "..." : "");

	for (char *c = s; *c; c++)
		if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f)
			*c = '?';
	return s;
}

struct old_read {
	struct arena *a;
	struct diags *d;
	git_repository *repo;
	git_odb *odb;
	const struct source_branch_req *req;
	struct source_set *out;
	size_t total;
	const char *foreign; /* the first path the tool never writes, or NULL */
};

static int
old_blob(struct old_read *w, const char *path, const git_oid *id)
{
	git_blob *blob = NULL;
	git_object_t type;
	size_t size;

	if (git_odb_read_header(&size, &type, w->odb, id) < 0)
		return source__fail(w->d, SOURCE_EFAIL, "cannot read '%s' of branch '%s': %s",
				    shown_path(w->a, path), w->req->branch,
				    source__git_message(w->a));
	if (size > SOURCE_MAX_FILE_BYTES)
		return source__fail(w->d, SOURCE_EFAIL,
				    "branch '%s' holds '%s' of %zu bytes, over the %u MiB"
				    " limit of a file; nothing was written",
				    w->req->branch, shown_path(w->a, path), size,
				    SOURCE_MAX_FILE_BYTES >> 20);
	if (w->out->count >= SOURCE_MAX_FILES || w->total + size > SOURCE_MAX_TOTAL_BYTES)
		return source__fail(w->d, SOURCE_EFAIL,
				    "the files of branch '%s' are more than %d or add up to"
				    " more than %u MiB; nothing was written",
				    w->req->branch, SOURCE_MAX_FILES, SOURCE_MAX_TOTAL_BYTES >> 20);
	if (git_blob_lookup(&blob, w->repo, id) < 0)
		return source__fail(w->d, SOURCE_EFAIL, "cannot read '%s' of branch '%s': %s",
				    shown_path(w->a, path), w->req->branch,
				    source__git_message(w->a));
	w->total += size;
	source_set_add(w->a, w->out, path, git_blob_rawcontent(blob), size);
	git_blob_free(blob);
	return SOURCE_OK;
}

/*
 * The blobs of `tree` below `prefix`, depth levels down: no recursion
 * deeper than req->max_depth (a tree of 100,000 nested trees is a
 * foreign path at the first level too deep), each blob sized before it
 * is read.  A path the tool never writes stops the walk (w->foreign).
 */
static int
old_tree(struct old_read *w, const git_tree *tree, const char *prefix, size_t depth)
{
	size_t n = git_tree_entrycount(tree);
	int rc = SOURCE_OK;

	for (size_t i = 0; i < n && !rc && !w->foreign; i++) {
		const git_tree_entry *e = git_tree_entry_byindex(tree, i);
		git_filemode_t mode = git_tree_entry_filemode(e);
		const char *path = arena_printf(w->a, "%s%s%s", prefix, *prefix ? "/" : "",
						git_tree_entry_name(e));

		if (mode == GIT_FILEMODE_TREE) {
			git_tree *sub = NULL;

			if (depth + 1 >=
			    (w->req->max_depth ? w->req->max_depth : SOURCE_MAX_DEPTH)) {
				w->foreign = arena_printf(w->a, "%s/", path);
				break;
			}
			if (git_tree_lookup(&sub, w->repo, git_tree_entry_id(e)) < 0)
				return source__fail(w->d, SOURCE_EFAIL,
						    "cannot read '%s' of branch '%s': %s",
						    shown_path(w->a, path), w->req->branch,
						    source__git_message(w->a));
			rc = old_tree(w, sub, path, depth + 1);
			git_tree_free(sub);
		} else if (mode != GIT_FILEMODE_BLOB ||
			   (w->req->owns_path && !w->req->owns_path(path))) {
			w->foreign = path;
		} else {
			rc = old_blob(w, path, git_tree_entry_id(e));
		}
	}
	return rc;
}

static int
read_old(struct source_set *out, struct arena *a, struct diags *d, git_repository *r,
	 git_commit *tip, const struct source_branch_req *req)
{
	struct old_read w = { a, d, r, NULL, req, out, 0, NULL };
	git_tree *tree = NULL;
	int rc = SOURCE_OK;

	if (git_repository_odb(&w.odb, r) < 0 || git_commit_tree(&tree, tip) < 0)
		rc = source__fail(d, SOURCE_EFAIL, "cannot read the files of branch '%s': %s",
				  req->branch, source__git_message(a));
	else
		rc = old_tree(&w, tree, "", 0);
	if (!rc && w.foreign)
		rc = source__fail(d, SOURCE_EFAIL,
				  "branch '%s' exists and was not written by this tool (its tip"
				  " holds '%s', which it never writes): give a branch of its own",
				  req->branch, shown_path(a, w.foreign));
	git_tree_free(tree);
	git_odb_free(w.odb);
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

bool
source_branch_trailer_ok(const char *message, const char *key)
{
	git_message_trailer_array arr;
	bool ok = false;

	memset(&arr, 0, sizeof(arr));
	if (!message || git_libgit2_init() < 0)
		return false;
	if (git_message_trailers(&arr, message) < 0) {
		git_error_clear();
		git_libgit2_shutdown();
		return false;
	}
	for (size_t i = 0; i < arr.count && !ok; i++) {
		const char *v = arr.trailers[i].value;

		ok = !strcmp(arr.trailers[i].key, key) && strlen(v) == 40 &&
		     strspn(v, "0123456789abcdef") == 40;
	}
	git_message_trailer_array_free(&arr);
	git_libgit2_shutdown();
	return ok;
}

const char *
source_branch_name_refusal(const char *name)
{
	static const char *const shadow[] = { "refs/", "heads/", "tags/", "remotes/", "origin/" };
	int valid = 0;
	char ref[1024];

	if (!name || !*name)
		return "it is empty";
	if (name[0] == '-')
		return "it starts with '-'";
	if (!strcmp(name, "HEAD") || !strcmp(name, "@") || strstr(name, "@{"))
		return "git reads it as a revision, not a branch";
	for (size_t i = 0; i < sizeof(shadow) / sizeof(shadow[0]); i++)
		if (!strncmp(name, shadow[i], strlen(shadow[i])))
			return "it would shadow another ref (give the short name of a branch)";
	if ((size_t)snprintf(ref, sizeof(ref), "refs/heads/%s", name) < sizeof(ref) &&
	    git_libgit2_init() >= 0) {
		if (git_reference_name_is_valid(&valid, ref) < 0)
			valid = 0;
		git_error_clear();
		git_libgit2_shutdown();
	}
	return valid ? NULL : "git refuses it as a branch name (git check-ref-format --branch)";
}

/* The branch name as a message may show it: no absolute path, no
 * control character. */
static const char *
shown_branch(struct arena *a, const char *name)
{
	if (!name || name[0] == '/' || strlen(name) > 200)
		return "the name given";
	for (const unsigned char *c = (const unsigned char *)name; *c; c++)
		if (*c < 0x20 || *c == 0x7f)
			return "the name given";
	return arena_printf(a, "'%s'", name);
}

/* Whether HEAD of `r` (not resolved: an unborn branch counts) is `refname`. */
static bool
head_is(git_repository *r, const char *refname)
{
	git_reference *head = NULL;
	bool is = false;

	if (git_reference_lookup(&head, r, "HEAD") == 0 && git_reference_symbolic_target(head))
		is = !strcmp(git_reference_symbolic_target(head), refname);
	git_reference_free(head);
	git_error_clear();
	return is;
}

/*
 * Whether a work tree of the repository has `refname` checked out: HEAD
 * of the main work tree (a non-bare repository) and of every linked work
 * tree.  Moving that branch would leave its work tree and index
 * describing another commit.
 */
static bool
checked_out(git_repository *r, const char *refname)
{
	git_repository *main = NULL;
	git_strarray wts = { NULL, 0 };
	const char *common = git_repository_commondir(r);
	bool out = false;

	if (!git_repository_is_bare(r) && head_is(r, refname))
		return true;
	if (!common ||
	    git_repository_open_ext(&main, common, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0) {
		git_error_clear();
		return false;
	}
	if (!git_repository_is_bare(main) && head_is(main, refname))
		out = true;
	if (!out && git_worktree_list(&wts, main) == 0)
		for (size_t i = 0; i < wts.count && !out; i++) {
			git_reference *h = NULL;

			if (git_repository_head_for_worktree(&h, main, wts.strings[i]) == 0 &&
			    git_reference_name(h))
				out = !strcmp(git_reference_name(h), refname);
			git_reference_free(h);
		}
	git_error_clear();
	git_strarray_dispose(&wts);
	git_repository_free(main);
	return out;
}

/* Why `name` would shadow a tag or a remote-tracking branch of `r`
 * (git would call refs/heads/<name> ambiguous), or NULL. */
static const char *
shadowed(struct arena *a, git_repository *r, const char *name)
{
	static const char *const under[] = { "refs/tags/", "refs/remotes/" };
	static const char *const what[] = { "a tag", "a remote-tracking branch" };

	for (size_t i = 0; i < 2; i++) {
		git_reference *ref = NULL;
		int found = git_reference_lookup(&ref, r, arena_printf(a, "%s%s", under[i], name));

		git_reference_free(ref);
		git_error_clear();
		if (found == 0)
			return arena_printf(a, "it would shadow %s of that name", what[i]);
	}
	return NULL;
}

/* A tip this tool would have made: its trailer, then its tree (read). */
static int
check_owned(struct source_set *old, struct arena *a, struct diags *d, git_repository *r,
	    git_commit *tip, const struct source_branch_req *req)
{
	if (req->owner_trailer &&
	    !source_branch_trailer_ok(git_commit_message(tip), req->owner_trailer))
		return source__fail(d, SOURCE_EFAIL,
				    "branch '%s' exists and was not written by this tool (its tip"
				    " has no %s trailer naming a commit): give a branch of its own",
				    req->branch, req->owner_trailer);
	return read_old(old, a, d, r, tip, req);
}

/* The remote "origin" of a local repository, or a diagnostic. */
static int open_remote(git_remote **out, struct arena *a, struct diags *d, git_repository *r,
		       const char *repo, const char **url);

/*
 * Fetch refs/heads/<branch> of origin into refs/remotes/origin/<branch>
 * and set *remote_tip to it (NULL when origin has no such branch).
 */
static int
fetch_origin(git_commit **remote_tip, struct arena *a, struct diags *d, git_repository *r,
	     const struct source_branch_req *req)
{
	git_remote *remote = NULL;
	git_fetch_options fo;
	struct source_remote st;
	const char *url = NULL, *tracking = arena_printf(a, "refs/remotes/origin/%s", req->branch);
	char *spec = arena_printf(a, "+refs/heads/%s:%s", req->branch, tracking);
	git_strarray specs = { &spec, 1 };
	int rc;

	*remote_tip = NULL;
	rc = open_remote(&remote, a, d, r, NULL, &url);
	if (rc)
		return rc;
	git_fetch_options_init(&fo, GIT_FETCH_OPTIONS_VERSION);
	source__remote_callbacks(&fo.callbacks, &st, url);
	fo.update_fetchhead = 0;
	fo.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_NONE;
	fo.proxy_opts.type = GIT_PROXY_AUTO;
	if (git_remote_fetch(remote, &specs, &fo, "gpusite hydrate: fetch") < 0)
		rc = source__fail(d, SOURCE_EFAIL, "cannot fetch branch '%s' from %s: %s",
				  req->branch, source_url_scrub(a, url), source__git_message(a));
	git_remote_free(remote);
	if (!rc)
		rc = read_tip(remote_tip, a, d, r, tracking, req->branch);
	return rc;
}

int
source_branch_commit(struct source_branch_res *res, struct arena *a, struct diags *d,
		     const struct source_branch_req *req)
{
	git_repository *r = NULL;
	git_commit *tip = NULL, *remote_tip = NULL, *base;
	git_oid tree_id, id;
	const char *refname = arena_printf(a, "refs/heads/%s", req->branch);
	const char *why;
	int rc;

	memset(res, 0, sizeof(*res));
	if (source__git_load(d) < 0)
		return SOURCE_EFAIL;
	git_libgit2_init();
	why = source_branch_name_refusal(req->branch);
	if (why) {
		rc = source__fail(d, SOURCE_EFAIL, "%s is not a valid branch name: %s",
				  shown_branch(a, req->branch), why);
		goto out;
	}
	rc = open_repo(&r, a, d, req->repo, req->source);
	if (!rc && (why = shadowed(a, r, req->branch)) != NULL)
		rc = source__fail(d, SOURCE_EFAIL, "%s is not a valid branch name: %s",
				  shown_branch(a, req->branch), why);
	if (!rc && !req->dry_run && checked_out(r, refname))
		rc = source__fail(d, SOURCE_EFAIL,
				  "branch '%s' is checked out in a work tree of the repository:"
				  " it is never moved under it; give a branch of its own",
				  req->branch);
	if (!rc)
		rc = read_tip(&tip, a, d, r, refname, req->branch);
	if (!rc && req->fetch_origin && !source__is_url(req->repo ? req->repo : "."))
		rc = fetch_origin(&remote_tip, a, d, r, req);
	if (rc)
		goto out;
	/* the remote's tip, when there is one: a local branch left behind
	 * (a push that failed, a run elsewhere) never blocks the next */
	base = remote_tip ? remote_tip : tip;
	if (tip && tip != base) {
		struct source_set local = { NULL, 0, 0, NULL };

		rc = check_owned(&local, a, d, r, tip, req);
	}
	if (!rc && base) {
		git_oid_tostr(res->parent, SOURCE_OID_HEX, git_commit_id(base));
		rc = check_owned(&res->old, a, d, r, base, req);
	}
	if (!rc)
		rc = write_tree(&tree_id, a, d, r, req);
	if (rc)
		goto out;
	res->changed = !base || !git_oid_equal(&tree_id, git_commit_tree_id(base));
	if (req->dry_run)
		goto out;
	if (!res->changed) {
		/* the local branch catches up with the remote's */
		if (base != tip &&
		    (!tip || !git_oid_equal(git_commit_id(tip), git_commit_id(base))))
			rc = move_branch(a, d, r, refname, req, git_commit_id(base), tip);
		goto out;
	}
	rc = make_commit(&id, a, d, r, req, &tree_id, base);
	if (rc)
		goto out;
	if (req->before_update)
		req->before_update(req->ctx);
	rc = move_branch(a, d, r, refname, req, &id, tip);
	if (!rc)
		git_oid_tostr(res->commit, SOURCE_OID_HEX, &id);
out:
	git_commit_free(remote_tip);
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
	const char *why;

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
	*url = arena_strdup(a, git_remote_pushurl(*out) ? git_remote_pushurl(*out)
							: git_remote_url(*out));
	why = source__url_refusal(a, *url);
	if (why) {
		git_remote_free(*out);
		*out = NULL;
		return source__fail(d, SOURCE_EFAIL, "cannot reach the remote 'origin' (%s): %s",
				    source_url_scrub(a, *url), why);
	}
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
