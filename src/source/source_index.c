/*
 * source_index.c - spec files exactly as staged: the blobs the index
 * points at, so a half-staged file is judged as it will be committed.
 *
 * The repository and index are found as git finds them, environment
 * included: a pre-commit hook of `git commit -a` or `git commit FILE`
 * runs with GIT_INDEX_FILE pointing at the temporary index that is about
 * to be committed, and with GIT_DIR / GIT_WORK_TREE when git was told
 * where they are.  Files are named relative to the current directory.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <git2.h>

#include "base/arena.h"
#include "base/diag.h"
#include "source/source.h"
#include "source/source_int.h"

static int
open_repo(git_repository **out, struct source_pick *p)
{
	const char *gitdir = getenv("GIT_DIR");
	const char *worktree = getenv("GIT_WORK_TREE");
	int error;

	if (gitdir && *gitdir) {
		error = git_repository_open_ext(out, gitdir, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL);
		if (!error && worktree && *worktree)
			error = git_repository_set_workdir(*out, worktree, 0);
	} else {
		error = git_repository_open_ext(out, ".", 0, NULL);
	}
	if (error < 0)
		return source__fail(p->diags, SOURCE_ENOTFOUND,
				    "--staged reads the index of"
				    " the Git repository holding the current directory:"
				    " %s",
				    source__git_message(p->arena));
	return SOURCE_OK;
}

/* Where the current directory is in the work tree ("" at its top). */
static int
set_base(struct source_pick *p, const char *workdir)
{
	char cwd[PATH_MAX];
	char *top = realpath(workdir, NULL);
	size_t n;
	int rc = SOURCE_OK;

	if (!top || !getcwd(cwd, sizeof(cwd))) {
		free(top);
		return source__fail(p->diags, SOURCE_EFAIL,
				    "cannot find the current directory"
				    " in the work tree '%s'",
				    workdir);
	}
	n = strlen(top);
	if (!strcmp(top, "/"))
		p->base = arena_strdup(p->arena, cwd + 1);
	else if (!strncmp(cwd, top, n) && (cwd[n] == '/' || !cwd[n]))
		p->base = arena_strdup(p->arena, cwd[n] ? cwd + n + 1 : "");
	else
		rc = source__fail(p->diags, SOURCE_EFAIL,
				  "the current directory is outside the"
				  " work tree '%s'; run gpusite inside it",
				  top);
	free(top);
	return rc;
}

static bool
below(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !n || (!strncmp(path, dir, n) && path[n] == '/');
}

/* Directory depth of `path` below `dir`. */
static size_t
depth_below(const char *path, const char *dir)
{
	size_t depth = 0;

	for (const char *c = path + (*dir ? strlen(dir) + 1 : 0); *c; c++)
		depth += *c == '/';
	return depth;
}

/* The selection: each PATH (or sites/, else the base directory, when
 * there are none) and whether it names a file rather than a directory;
 * SOURCE_ENOTFOUND for a path the index does not hold. */
static int
index_select(const char ***selp, bool **is_filep, size_t *nselp, struct source_pick *p,
	     git_index *index, const char *const *paths, size_t npaths)
{
	const char **sel;
	bool *is_file;
	size_t nsel;
	int rc;

	if (npaths) {
		rc = source__select(&sel, p, git_repository_workdir(p->repo), paths, npaths);
		if (rc)
			return rc;
		nsel = npaths;
	} else {
		const char *sites =
			*p->base ? arena_printf(p->arena, "%s/sites", p->base) : "sites";
		size_t at;

		sel = arena_alloc(p->arena, sizeof(*sel));
		sel[0] =
			git_index_find_prefix(&at, index, arena_printf(p->arena, "%s/", sites)) == 0
				? sites
				: p->base;
		git_error_clear();
		nsel = 1;
	}
	is_file = arena_alloc(p->arena, nsel * sizeof(*is_file));
	for (size_t i = 0; i < nsel; i++) {
		size_t at;

		is_file[i] = *sel[i] && git_index_get_bypath(index, sel[i], 0) != NULL;
		if (!is_file[i] && *sel[i] &&
		    git_index_find_prefix(&at, index, arena_printf(p->arena, "%s/", sel[i])) < 0) {
			git_error_clear();
			return source__fail(p->diags, SOURCE_ENOTFOUND,
					    "path '%s' is not in the index",
					    npaths ? paths[i] : sel[i]);
		}
	}
	*selp = sel;
	*is_filep = is_file;
	*nselp = nsel;
	return SOURCE_OK;
}

/* Whether index entry `path` (file name `name`) is selected: *take set;
 * SOURCE_EFAIL when it lies too deep below a selected directory. */
static int
entry_selected(bool *take, struct source_pick *p, const char *path, const char *name,
	       const char **sel, const bool *is_file, size_t nsel)
{
	*take = false;
	for (size_t j = 0; j < nsel && !*take; j++) {
		if (is_file[j])
			*take = !strcmp(path, sel[j]);
		else
			*take = below(path, sel[j]) && source__spec_name(name) &&
				!source__hidden_below(path, sel[j]);
		if (*take && !is_file[j] && depth_below(path, sel[j]) >= SOURCE_MAX_DEPTH)
			return source__fail(p->diags, SOURCE_EFAIL,
					    "directories in the index"
					    " nest deeper than %d levels; point gpusite"
					    " at a smaller tree",
					    SOURCE_MAX_DEPTH);
	}
	return SOURCE_OK;
}

int
source_from_index(struct source_set *out, struct arena *a, struct diags *d,
		  const char *const *paths, size_t npaths)
{
	struct source_pick p;
	git_repository *repo = NULL;
	git_index *index = NULL;
	const char *index_file = getenv("GIT_INDEX_FILE");
	const char **sel = NULL;
	bool *is_file = NULL;
	const char *last_conflict = "";
	size_t nsel = 0, count;
	int rc;

	if (source__git_load(d) < 0)
		return SOURCE_EFAIL;
	source__pick_init(&p, a, d, out, "in the index");
	out->label = "index";
	rc = open_repo(&repo, &p);
	if (rc)
		goto out;
	p.repo = repo;
	if (!git_repository_workdir(repo)) {
		rc = source__fail(p.diags, SOURCE_EFAIL,
				  "--staged needs a work tree; '%s' is"
				  " a bare repository",
				  git_repository_path(repo));
		goto out;
	}
	rc = set_base(&p, git_repository_workdir(repo));
	if (rc)
		goto out;
	if ((index_file && *index_file ? git_index_open(&index, index_file)
				       : git_repository_index(&index, repo)) < 0 ||
	    git_repository_odb(&p.odb, repo) < 0) {
		rc = source__fail(p.diags, SOURCE_EFAIL, "cannot read the index: %s",
				  source__git_message(a));
		goto out;
	}
	p.index = index;

	/* what to take: the PATHs, else sites/ (or everything) below here */
	rc = index_select(&sel, &is_file, &nsel, &p, index, paths, npaths);
	if (rc)
		goto out;

	count = git_index_entrycount(index);
	for (size_t i = 0; i < count && rc == SOURCE_OK; i++) {
		const git_index_entry *e = git_index_get_byindex(index, i);
		const char *name = strrchr(e->path, '/');
		bool take = false;

		name = name ? name + 1 : e->path;
		rc = entry_selected(&take, &p, e->path, name, sel, is_file, nsel);
		if (rc)
			goto out;
		if (!take || (e->flags_extended & GIT_INDEX_ENTRY_INTENT_TO_ADD))
			continue; /* `git add -N` stages no content */
		if (git_index_entry_stage(e) != 0) {
			if (strcmp(last_conflict, e->path))
				source__file_error(p.diags, SOURCE_RULE_READ,
						   source__shown(a, p.base, e->path),
						   "unmerged file: resolve the conflict and"
						   " stage the result");
			last_conflict = e->path;
			continue;
		}
		rc = source__take(&p, e->path, e->mode, &e->id);
	}
	source__set_finish(out);
out:
	git_odb_free(p.odb);
	git_index_free(index);
	git_repository_free(repo);
	git_libgit2_shutdown();
	return rc;
}
