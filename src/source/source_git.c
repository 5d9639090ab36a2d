/*
 * source_git.c - spec files straight from a Git object database at a
 * revision, without a checkout; and what the Git sources share: path
 * selection, reading blobs under the limits, following symlinks inside
 * the tree.  The same selection rules as the work-tree walker: a PATH
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

#define SYMLINK_HOPS 40 /* as Linux's MAXSYMLINKS */

void
source__pick_init(struct source_pick *p, struct arena *a, struct diags *d, struct source_set *out,
		  const char *where)
{
	git_libgit2_init();
	memset(p, 0, sizeof(*p));
	p->arena = a;
	p->diags = d;
	p->out = out;
	p->base = "";
	p->where = where;
}

/* Replace every occurrence of `secret` in `s` (in place, never longer). */
static void
cut_secret(char *s, const char *secret)
{
	static const char mark[] = "***";
	size_t n = secret ? strlen(secret) : 0;
	char *hit;

	if (n < sizeof(mark))
		return; /* too short to be a token; "***" would not fit */
	while ((hit = strstr(s, secret)) != NULL) {
		memcpy(hit, mark, sizeof(mark) - 1);
		memmove(hit + sizeof(mark) - 1, hit + n, strlen(hit + n) + 1);
	}
}

const char *
source__git_message(struct arena *a)
{
	const git_error *e = git_error_last();
	const char *msg = e && e->message && *e->message ? e->message : "unknown libgit2 error";
	char *copy = arena_strdup(a, msg);
	char *p = copy;
	size_t n = strlen(copy);

	while (n && (copy[n - 1] == '\n' || copy[n - 1] == '.'))
		copy[--n] = '\0';
	/* "scheme://user:secret@host" wherever it appears: keep the host */
	while ((p = strstr(p, "://")) != NULL) {
		char *host = p + 3, *end = host, *at = NULL;

		while (*end && !strchr("/ '\"?#\n", *end)) {
			if (*end == '@')
				at = end;
			end++;
		}
		if (at)
			memmove(host, at + 1, strlen(at + 1) + 1);
		p = host;
	}
	cut_secret(copy, getenv("GPUSITE_GIT_TOKEN"));
	cut_secret(copy, getenv("GIT_TOKEN"));
	return copy;
}

char *
source__tree_path(struct arena *a, const char *base, const char *rel)
{
	char *work = arena_printf(a, "%s/%s", base, rel);
	char **parts;
	size_t nparts = 0, max = 1, len = 0;
	char *save = NULL, *tok, *res, *q;

	for (const char *c = work; *c; c++)
		max += *c == '/';
	parts = arena_alloc(a, max * sizeof(*parts));
	for (tok = strtok_r(work, "/", &save); tok; tok = strtok_r(NULL, "/", &save)) {
		if (!strcmp(tok, "."))
			continue;
		if (!strcmp(tok, "..")) {
			if (!nparts)
				return NULL;
			nparts--;
			continue;
		}
		parts[nparts++] = tok;
	}
	for (size_t i = 0; i < nparts; i++)
		len += strlen(parts[i]) + 1;
	res = q = arena_alloc(a, len + 1);
	for (size_t i = 0; i < nparts; i++) {
		size_t l = strlen(parts[i]);

		if (i)
			*q++ = '/';
		memcpy(q, parts[i], l);
		q += l;
	}
	*q = '\0';
	return res;
}

const char *
source__shown(struct arena *a, const char *base, const char *path)
{
	size_t n = strlen(base), common = 0, up = 1, i;
	char *res;

	if (!n)
		return arena_strdup(a, path);
	if (!strncmp(path, base, n) && path[n] == '/')
		return arena_strdup(a, path + n + 1);
	/* outside the user's directory (a PATH with ".."): climb out of it */
	for (i = 0; base[i] && base[i] == path[i]; i++)
		if (base[i] == '/')
			common = i + 1;
	for (i = common; i < n; i++)
		up += base[i] == '/';
	res = arena_alloc(a, up * 3 + strlen(path + common) + 1);
	for (i = 0; i < up; i++)
		memcpy(res + i * 3, "../", 3);
	memcpy(res + up * 3, path + common, strlen(path + common) + 1);
	return res;
}

bool
source__hidden_below(const char *path, const char *under)
{
	size_t n = strlen(under);

	if (n && !strncmp(path, under, n) && (path[n] == '/' || !path[n]))
		path += n;
	if (*path == '/')
		path++;
	if (path[0] == '.')
		return true;
	return strstr(path, "/.") != NULL;
}

/* Read blob `id` as file `shown`, refusing it by size before inflating. */
static int
take_blob(struct source_pick *p, const char *shown, const git_oid *id)
{
	git_blob *blob = NULL;
	git_object_t type;
	size_t size;

	if (git_odb_read_header(&size, &type, p->odb, id) < 0)
		return source__fail(p->diags, SOURCE_EFAIL, "cannot read '%s' %s: %s", shown,
				    p->where, source__git_message(p->arena));
	if (size > SOURCE_MAX_FILE_BYTES) {
		source__file_error(p->diags, SOURCE_RULE_READ, shown,
				   "file is %zu bytes, over the"
				   " %u MiB limit for a spec file; split it into several files",
				   size, SOURCE_MAX_FILE_BYTES >> 20);
		return SOURCE_OK;
	}
	if (p->out->count >= SOURCE_MAX_FILES)
		return source__fail(p->diags, SOURCE_EFAIL,
				    "more than %d spec files %s;"
				    " point gpusite at a smaller tree",
				    SOURCE_MAX_FILES, p->where);
	if (p->total + size > SOURCE_MAX_TOTAL_BYTES)
		return source__fail(p->diags, SOURCE_EFAIL,
				    "the spec files %s add up to more"
				    " than %u MiB; point gpusite at a smaller tree",
				    p->where, SOURCE_MAX_TOTAL_BYTES >> 20);
	if (git_blob_lookup(&blob, p->repo, id) < 0)
		return source__fail(p->diags, SOURCE_EFAIL, "cannot read '%s' %s: %s", shown,
				    p->where, source__git_message(p->arena));
	p->total += size;
	source_set_add(p->arena, p->out, shown, git_blob_rawcontent(blob), size);
	git_blob_free(blob);
	return SOURCE_OK;
}

/*
 * What tree path `path` is in the tree or the index: 1 found (mode, id),
 * 2 a directory, 0 nothing there.
 */
static int
lookup(struct source_pick *p, const char *path, git_filemode_t *mode, git_oid *id)
{
	if (p->tree) {
		git_tree_entry *e = NULL;

		if (!*path)
			return 2;
		if (git_tree_entry_bypath(&e, p->tree, path) < 0) {
			git_error_clear();
			return 0;
		}
		*mode = git_tree_entry_filemode(e);
		git_oid_cpy(id, git_tree_entry_id(e));
		git_tree_entry_free(e);
		return *mode == GIT_FILEMODE_TREE ? 2 : 1;
	} else {
		const git_index_entry *e = *path ? git_index_get_bypath(p->index, path, 0) : NULL;
		char *dir;
		size_t at;

		if (e) {
			*mode = e->mode;
			git_oid_cpy(id, &e->id);
			return 1;
		}
		dir = *path ? arena_printf(p->arena, "%s/", path) : arena_strdup(p->arena, "");
		if (git_index_find_prefix(&at, p->index, dir) == 0)
			return 2;
		git_error_clear();
		return 0;
	}
}

/* A symlink: follow it, hop by hop, while it stays inside the tree. */
static int
take_symlink(struct source_pick *p, const char *shown, const char *path, const git_oid *link_id)
{
	git_oid id;
	git_filemode_t mode = GIT_FILEMODE_LINK;
	const char *cur = path;

	git_oid_cpy(&id, link_id);
	for (int hop = 0; hop < SYMLINK_HOPS; hop++) {
		git_blob *blob = NULL;
		const char *slash = strrchr(cur, '/');
		char *dir, *target, *next;
		size_t size;
		int found;

		if (git_blob_lookup(&blob, p->repo, &id) < 0)
			return source__fail(p->diags, SOURCE_EFAIL, "cannot read '%s' %s: %s",
					    shown, p->where, source__git_message(p->arena));
		size = (size_t)git_blob_rawsize(blob);
		if (size == 0 || size >= PATH_MAX) {
			git_blob_free(blob);
			source__file_error(p->diags, SOURCE_RULE_PATH, shown,
					   "symlink with an"
					   " unusable target; spec files must be regular files");
			return SOURCE_OK;
		}
		target = arena_strndup(p->arena, git_blob_rawcontent(blob), size);
		git_blob_free(blob);
		dir = slash ? arena_strndup(p->arena, cur, (size_t)(slash - cur))
			    : arena_strdup(p->arena, "");
		next = target[0] == '/' || strlen(target) != size
			       ? NULL
			       : source__tree_path(p->arena, dir, target);
		if (!next) {
			source__file_error(p->diags, SOURCE_RULE_PATH, shown,
					   "symlink leads outside"
					   " the repository; spec files must be regular files"
					   " inside it");
			return SOURCE_OK;
		}
		found = lookup(p, next, &mode, &id);
		if (found == 0) {
			source__file_error(p->diags, SOURCE_RULE_PATH, shown,
					   "symlink leads to a file"
					   " that does not exist");
			return SOURCE_OK;
		}
		if (found == 2) {
			source__file_error(p->diags, SOURCE_RULE_PATH, shown,
					   "symlink to a directory,"
					   " not a regular file; spec files must be regular files");
			return SOURCE_OK;
		}
		if (mode == GIT_FILEMODE_BLOB || mode == GIT_FILEMODE_BLOB_EXECUTABLE)
			return take_blob(p, shown, &id);
		if (mode != GIT_FILEMODE_LINK) {
			source__file_error(p->diags, SOURCE_RULE_PATH, shown,
					   "symlink to a submodule,"
					   " not a regular file; spec files must be regular files");
			return SOURCE_OK;
		}
		cur = next;
	}
	source__file_error(p->diags, SOURCE_RULE_PATH, shown,
			   "symlink loop: the link never"
			   " reaches a file; spec files must be regular files");
	return SOURCE_OK;
}

int
source__take(struct source_pick *p, const char *path, git_filemode_t mode, const git_oid *id)
{
	const char *shown = source__shown(p->arena, p->base, path);

	switch (mode) {
	case GIT_FILEMODE_BLOB:
	case GIT_FILEMODE_BLOB_EXECUTABLE: return take_blob(p, shown, id);
	case GIT_FILEMODE_LINK: return take_symlink(p, shown, path, id);
	case GIT_FILEMODE_TREE:
		source__file_error(p->diags, SOURCE_RULE_PATH, shown,
				   "not a regular file (a"
				   " directory named like a spec file); rename it");
		return SOURCE_OK;
	default:
		source__file_error(p->diags, SOURCE_RULE_PATH, shown,
				   "not a regular file (a"
				   " submodule); spec files must be regular files");
		return SOURCE_OK;
	}
}

int
source__select(const char ***out, struct source_pick *p, const char *workdir,
	       const char *const *paths, size_t npaths)
{
	const char **sel = arena_alloc(p->arena, (npaths + 1) * sizeof(*sel));
	char *top = workdir ? realpath(workdir, NULL) : NULL;
	int rc = SOURCE_OK;

	for (size_t i = 0; i < npaths && rc == SOURCE_OK; i++) {
		const char *arg = paths[i];
		char *tp = NULL;

		if (arg[0] == '/') {
			char *real = realpath(arg, NULL);
			const char *abs = real ? real : arg;
			size_t n = top ? strlen(top) : 0;

			if (top && !strncmp(abs, top, n) && (abs[n] == '/' || !abs[n]))
				tp = source__tree_path(p->arena, "", abs + n);
			free(real);
		} else {
			tp = source__tree_path(p->arena, p->base, arg);
		}
		if (!tp)
			rc = source__fail(p->diags, SOURCE_ENOTFOUND,
					  "path '%s' is outside the"
					  " repository",
					  arg);
		sel[i] = tp;
	}
	free(top);
	*out = sel;
	return rc;
}

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

		if (lookup(p, sites, &mode, &id) == 2)
			rc = walk_dir(p, sites);
		else if (lookup(p, p->base, &mode, &id) == 2)
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
			int found = lookup(p, sel[i], &mode, &id);

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
