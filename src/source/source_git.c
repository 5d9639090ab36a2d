/*
 * source_git.c - spec files straight from a Git object database at a
 * revision, without a checkout (what the Git sources share, path
 * selection, reading blobs under the limits and following symlinks inside
 * the tree, is source_git_util.c's).  The same selection rules as the work-tree walker: a PATH
 * names a file (taken whatever its extension) or a directory (every
 * *.yaml / *.yml below it, hidden entries skipped); no PATH: sites/ when
 * the tree has it, else everything.
 *
 * A local repository is opened in place, found from the path upwards as
 * git does, and paths are relative to where the path points inside its
 * work tree (so `--ref HEAD` in a subdirectory reads that subdirectory).
 * A URL is read from its bare clone in the cache (source_cache.c).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "base/arena.h"
#include "base/diag.h"
#include "source/source.h"
#include "source/source_int.h"

/* ---- a revision's tree ---- */

struct tree_walk {
	struct source_pick *pick;
	const char *prefix; /* tree path of the walked subtree, "" = top */
	int error;
};

static int
walk_cb(const char *root, const git_tree_entry *entry, void *payload)
{
	struct tree_walk *w = payload;
	const char *name = git_tree_entry_name(entry);
	git_filemode_t mode = git_tree_entry_filemode(entry);
	size_t depth = 1;
	char *path;

	if (name[0] == '.')
		return 1; /* hidden: skip it, and a tree's contents */
	for (const char *c = root; *c; c++)
		depth += *c == '/';
	path = arena_printf(w->pick->arena, "%s%s%s%s", w->prefix, *w->prefix ? "/" : "", root,
			    name);
	if (mode == GIT_FILEMODE_TREE) {
		if (source__spec_name(name)) {
			source__take(w->pick, path, mode, git_tree_entry_id(entry));
			return 1;
		}
		if (depth >= SOURCE_MAX_DEPTH) {
			w->error = source__fail(w->pick->diags, SOURCE_EFAIL,
						"directories %s nest"
						" deeper than %d levels; point gpusite at a"
						" smaller tree",
						w->pick->where, SOURCE_MAX_DEPTH);
			return -1;
		}
		return 0;
	}
	if (!source__spec_name(name))
		return 0;
	w->error = source__take(w->pick, path, mode, git_tree_entry_id(entry));
	return w->error ? -1 : 0;
}

static int
walk_dir(struct source_pick *p, const char *path)
{
	struct tree_walk w = { p, path, 0 };
	git_tree_entry *e = NULL;
	git_tree *sub = NULL;
	int rc;

	if (!*path)
		return git_tree_walk(p->tree, GIT_TREEWALK_PRE, walk_cb, &w) < 0 && !w.error
			       ? source__fail(p->diags, SOURCE_EFAIL, "cannot read the tree %s: %s",
					      p->where, source__git_message(p->arena))
			       : w.error;
	if (git_tree_entry_bypath(&e, p->tree, path) < 0 ||
	    git_tree_lookup(&sub, p->repo, git_tree_entry_id(e)) < 0) {
		git_tree_entry_free(e);
		return source__fail(p->diags, SOURCE_EFAIL, "cannot read '%s' %s: %s", path,
				    p->where, source__git_message(p->arena));
	}
	rc = git_tree_walk(sub, GIT_TREEWALK_PRE, walk_cb, &w);
	if (rc < 0 && !w.error)
		w.error = source__fail(p->diags, SOURCE_EFAIL, "cannot read '%s' %s: %s", path,
				       p->where, source__git_message(p->arena));
	git_tree_free(sub);
	git_tree_entry_free(e);
	return w.error;
}

static int
pick_tree(struct source_pick *p, const char *workdir, const char *const *paths, size_t npaths)
{
	git_filemode_t mode;
	git_oid id;
	int rc = SOURCE_OK;

	if (!npaths) {
		const char *sites =
			*p->base ? arena_printf(p->arena, "%s/sites", p->base) : "sites";

		if (source__lookup(p, sites, &mode, &id) == 2)
			rc = walk_dir(p, sites);
		else if (source__lookup(p, p->base, &mode, &id) == 2)
			rc = walk_dir(p, p->base);
		else
			rc = source__fail(p->diags, SOURCE_ENOTFOUND,
					  "the directory '%s' does"
					  " not exist %s",
					  p->base, p->where);
	} else {
		const char **sel;

		rc = source__select(&sel, p, workdir, paths, npaths);
		for (size_t i = 0; i < npaths && rc == SOURCE_OK; i++) {
			int found = source__lookup(p, sel[i], &mode, &id);

			if (found == 2)
				rc = walk_dir(p, sel[i]);
			else if (found == 1)
				rc = source__take(p, sel[i], mode, &id);
			else
				rc = source__fail(p->diags, SOURCE_ENOTFOUND,
						  "path '%s' does not"
						  " exist %s",
						  paths[i], p->where);
		}
	}
	source__set_finish(p->out);
	return rc;
}

/*
 * Open a local repository as git would from `path` (searching upwards),
 * and set p->base to where `path` points inside its work tree.
 */
static int
open_local(git_repository **out, const char **workdir, struct source_pick *p, const char *path)
{
	const char *wd;
	char *top = NULL, *here = NULL, *gitdir = NULL;

	if (git_repository_open_ext(out, path, 0, NULL) < 0)
		return source__fail(p->diags, SOURCE_ENOTFOUND,
				    "cannot open repository '%s':"
				    " %s",
				    path, source__git_message(p->arena));
	wd = git_repository_workdir(*out);
	*workdir = wd;
	if (!wd)
		return SOURCE_OK; /* bare: paths are from the top */
	top = realpath(wd, NULL);
	here = realpath(path, NULL);
	gitdir = realpath(git_repository_path(*out), NULL);
	if (top && here && !(gitdir && !strncmp(here, gitdir, strlen(gitdir)))) {
		size_t n = strlen(top);

		if (!strncmp(here, top, n) && here[n] == '/')
			p->base = arena_strdup(p->arena, here + n + 1);
	}
	free(top);
	free(here);
	free(gitdir);
	return SOURCE_OK;
}

static int
resolve_commit(git_commit **out, struct source_pick *p, const char *rev, const char *shown)
{
	git_object *obj = NULL;
	int error = git_revparse_single(&obj, p->repo, rev);

	if (error == GIT_EAMBIGUOUS)
		return source__fail(p->diags, SOURCE_ENOTFOUND,
				    "revision '%s' is ambiguous in"
				    " %s: give more digits of the SHA",
				    rev, shown);
	if (error == GIT_ENOTFOUND || error == GIT_EINVALIDSPEC || error == GIT_EUNBORNBRANCH)
		return source__fail(p->diags, SOURCE_ENOTFOUND, "revision '%s' not found in %s",
				    rev, shown);
	if (error < 0)
		return source__fail(p->diags, SOURCE_EFAIL,
				    "cannot resolve revision '%s' in"
				    " %s: %s",
				    rev, shown, source__git_message(p->arena));
	error = git_object_peel((git_object **)out, obj, GIT_OBJECT_COMMIT);
	git_object_free(obj);
	if (error < 0)
		return source__fail(p->diags, SOURCE_ENOTFOUND,
				    "revision '%s' in %s is not a"
				    " commit",
				    rev, shown);
	return SOURCE_OK;
}

int
source_from_git(struct source_set *out, struct arena *a, struct diags *d, const char *repo,
		const char *rev, const char *const *paths, size_t npaths)
{
	struct source_pick p;
	git_repository *r = NULL;
	git_commit *commit = NULL;
	const char *where = repo ? repo : ".";
	const char *shown = source_url_scrub(a, where);
	const char *workdir = NULL;
	int rc;

	if (source__git_load(d) < 0)
		return SOURCE_EFAIL;
	if (!rev)
		rev = "HEAD";
	source__pick_init(&p, a, d, out, arena_printf(a, "at %s", rev));
	if (source__is_url(where))
		rc = source__open_cached(&r, a, d, where, shown, rev);
	else
		rc = open_local(&r, &workdir, &p, where);
	if (rc)
		goto out;
	p.repo = r;
	if (git_repository_odb(&p.odb, r) < 0) {
		rc = source__fail(p.diags, SOURCE_EFAIL,
				  "cannot open the object database of"
				  " %s: %s",
				  shown, source__git_message(a));
		goto out;
	}
	rc = resolve_commit(&commit, &p, rev, shown);
	if (rc)
		goto out;
	if (git_commit_tree(&p.tree, commit) < 0) {
		rc = source__fail(p.diags, SOURCE_EFAIL,
				  "cannot read the tree of '%s' in"
				  " %s: %s",
				  rev, shown, source__git_message(a));
		goto out;
	}
	/* the repository: messages about the files add " at REV" themselves */
	out->label = shown;
	rc = pick_tree(&p, workdir, paths, npaths);
out:
	git_tree_free(p.tree);
	git_odb_free(p.odb);
	git_commit_free(commit);
	git_repository_free(r);
	git_libgit2_shutdown();
	return rc;
}
