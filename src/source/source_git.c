/*
 * source_git.c - spec files straight from a Git object database: a
 * revision of a local or remote repository, or the index (what is
 * staged).  No checkout is ever written.
 *
 * Remote repositories are kept as bare clones in a cache keyed by the URL
 * with credentials removed, so no secret reaches a path.  Several runs may
 * share the cache: a clone is made in a private temporary directory and
 * renamed into place, and fetches are serialised by flock() on a lock file.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <git2.h>

#include "base/arena.h"
#include "base/diag.h"
#include "source/source.h"

#define GIT_RULE_READ "GS001"	/* a file could not be taken */
#define GIT_RULE_PATH "GS006"	/* a symlink or non-file in the tree */

struct git_walk {
	struct arena *arena;
	struct diags *diags;
	struct source_set *out;
	git_repository *repo;
	git_tree *root;
	const char *label;	/* shown in diagnostics of the whole repo */
	const char *const *prefixes;	/* selection inside the tree */
	size_t nprefixes;
	int error;
};

const char *
source_url_scrub(struct arena *a, const char *url)
{
	const char *scheme = strstr(url, "://");
	const char *host, *at, *slash;

	if (!scheme)
		return arena_strdup(a, url);
	host = scheme + 3;
	slash = strchr(host, '/');
	at = strchr(host, '@');
	if (!at || (slash && at > slash))
		return arena_strdup(a, url);
	return arena_printf(a, "%.*s%s", (int)(host - url), url, at + 1);
}

/* libgit2's last error, with any URL credentials cut out. */
static const char *
git_last_message(struct arena *a)
{
	const git_error *e = git_error_last();
	const char *msg = e && e->message ? e->message : "unknown libgit2 error";
	char *copy = arena_strdup(a, msg);
	char *p = copy;

	/* scrub "scheme://user:secret@" wherever it appears */
	while ((p = strstr(p, "://")) != NULL) {
		char *host = p + 3, *end = host, *at = NULL;

		while (*end && *end != '/' && *end != ' ' && *end != '\'') {
			if (*end == '@')
				at = end;
			end++;
		}
		if (at)
			memmove(host, at + 1, strlen(at + 1) + 1);
		p = host;
	}
	return copy;
}

static int
git_fail(struct git_walk *w, const char *what)
{
	diag_add(w->diags, DIAG_ERROR, (struct pos){ w->label, 0, 0 },
		 GIT_RULE_READ, "", "%s: %s", what, git_last_message(w->arena));
	return SOURCE_EFAIL;
}

static int
has_spec_suffix(const char *name)
{
	size_t n = strlen(name);

	return (n > 5 && !strcmp(name + n - 5, ".yaml")) ||
	       (n > 4 && !strcmp(name + n - 4, ".yml"));
}

/* True when `path` is one of the selected prefixes or lies below one. */
static int
path_selected(const char *path, const char *const *prefixes, size_t n)
{
	if (!n)
		return 1;
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(prefixes[i]);

		if (!len || !strcmp(prefixes[i], "."))
			return 1;
		if (!strncmp(path, prefixes[i], len) &&
		    (path[len] == '\0' || path[len] == '/'))
			return 1;
	}
	return 0;
}

static int
path_hidden(const char *path)
{
	return path[0] == '.' || strstr(path, "/.") != NULL;
}

/*
 * Resolve a symlink found at `path` whose target text is `target`:
 * returns the tree path it leads to, or NULL when it leaves the tree.
 */
static char *
symlink_resolve(struct arena *a, const char *path, const char *target,
		size_t target_len)
{
	char *parts[PATH_MAX / 2];
	size_t nparts = 0;
	char *work;
	char *save = NULL, *tok;
	const char *slash = strrchr(path, '/');

	if (target_len && target[0] == '/')
		return NULL;
	work = arena_printf(a, "%.*s/%.*s", slash ? (int)(slash - path) : 0,
			    path, (int)target_len, target);
	for (tok = strtok_r(work, "/", &save); tok;
	     tok = strtok_r(NULL, "/", &save)) {
		if (!strcmp(tok, "") || !strcmp(tok, "."))
			continue;
		if (!strcmp(tok, "..")) {
			if (!nparts)
				return NULL;
			nparts--;
			continue;
		}
		if (nparts == sizeof(parts) / sizeof(parts[0]))
			return NULL;
		parts[nparts++] = tok;
	}
	{
		size_t len = 0;
		char *res, *q;

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
}

/* Add the blob `id` as file `path`, refusing it by size first. */
static int
add_blob(struct git_walk *w, const char *path, const git_oid *id)
{
	git_blob *blob = NULL;
	git_object_size_t size;

	if (git_blob_lookup(&blob, w->repo, id) < 0)
		return git_fail(w, path);
	size = git_blob_rawsize(blob);
	if (size > SOURCE_MAX_FILE_BYTES) {
		diag_add(w->diags, DIAG_ERROR, (struct pos){ path, 0, 0 },
			 GIT_RULE_READ, "",
			 "file is %llu bytes; the limit is %u",
			 (unsigned long long)size, SOURCE_MAX_FILE_BYTES);
	} else if (w->out->count >= SOURCE_MAX_FILES) {
		diag_add(w->diags, DIAG_ERROR, (struct pos){ path, 0, 0 },
			 GIT_RULE_READ, "",
			 "more than %d spec files; the rest is not read",
			 SOURCE_MAX_FILES);
		w->error = SOURCE_EFAIL;
	} else {
		source_set_add(w->arena, w->out, path,
			       git_blob_rawcontent(blob), (size_t)size);
	}
	git_blob_free(blob);
	return 0;
}

/* A symlink in the tree: follow it only while it stays inside. */
static int
add_symlink(struct git_walk *w, const char *path, const git_oid *id)
{
	git_blob *blob = NULL;
	git_tree_entry *target = NULL;
	char *resolved;
	int rc = 0;

	if (git_blob_lookup(&blob, w->repo, id) < 0)
		return git_fail(w, path);
	resolved = symlink_resolve(w->arena, path, git_blob_rawcontent(blob),
				   (size_t)git_blob_rawsize(blob));
	git_blob_free(blob);
	if (!resolved) {
		diag_add(w->diags, DIAG_ERROR, (struct pos){ path, 0, 0 },
			 GIT_RULE_PATH, "",
			 "symlink leads outside the repository; spec files must be regular files inside it");
		return 0;
	}
	if (git_tree_entry_bypath(&target, w->root, resolved) < 0 ||
	    git_tree_entry_filemode(target) == GIT_FILEMODE_LINK ||
	    git_tree_entry_type(target) != GIT_OBJECT_BLOB) {
		diag_add(w->diags, DIAG_ERROR, (struct pos){ path, 0, 0 },
			 GIT_RULE_PATH, "",
			 "symlink to '%s', which is not a regular file in the repository",
			 resolved);
		git_error_clear();
	} else {
		rc = add_blob(w, path, git_tree_entry_id(target));
	}
	git_tree_entry_free(target);
	return rc;
}

static int
walk_cb(const char *root, const git_tree_entry *entry, void *payload)
{
	struct git_walk *w = payload;
	const char *name = git_tree_entry_name(entry);
	char *path = arena_printf(w->arena, "%s%s", root, name);
	git_filemode_t mode = git_tree_entry_filemode(entry);

	if (name[0] == '.')
		return 1;	/* hidden: skip the entry (and a tree's contents) */
	if (mode == GIT_FILEMODE_TREE)
		return 0;
	if (!has_spec_suffix(name) || !path_selected(path, w->prefixes, w->nprefixes))
		return 0;
	if (mode == GIT_FILEMODE_LINK)
		w->error = add_symlink(w, path, git_tree_entry_id(entry)) ? SOURCE_EFAIL : w->error;
	else if (mode == GIT_FILEMODE_BLOB || mode == GIT_FILEMODE_BLOB_EXECUTABLE)
		w->error = add_blob(w, path, git_tree_entry_id(entry)) ? SOURCE_EFAIL : w->error;
	else
		diag_add(w->diags, DIAG_ERROR, (struct pos){ path, 0, 0 },
			 GIT_RULE_PATH, "", "not a regular file (a submodule?)");
	return w->error ? -1 : 0;
}

/* Normalise user paths ("./sites/", "sites") to tree paths. */
static const char **
tree_prefixes(struct arena *a, const char *const *paths, size_t n)
{
	const char **out = arena_alloc(a, (n + 1) * sizeof(*out));

	for (size_t i = 0; i < n; i++) {
		const char *p = paths[i];
		char *c;
		size_t len;

		while (p[0] == '.' && p[1] == '/')
			p += 2;
		c = arena_strdup(a, p);
		len = strlen(c);
		while (len > 1 && c[len - 1] == '/')
			c[--len] = '\0';
		out[i] = c;
	}
	return out;
}

static int
walk_tree(struct git_walk *w, const char *const *paths, size_t npaths)
{
	static const char *const sites[] = { "sites" };
	git_tree_entry *probe = NULL;

	if (npaths) {
		w->prefixes = tree_prefixes(w->arena, paths, npaths);
		w->nprefixes = npaths;
		for (size_t i = 0; i < npaths; i++) {
			if (!strcmp(w->prefixes[i], ".") || !w->prefixes[i][0])
				continue;
			if (git_tree_entry_bypath(&probe, w->root, w->prefixes[i]) < 0) {
				git_error_clear();
				diag_add(w->diags, DIAG_ERROR,
					 (struct pos){ w->label, 0, 0 },
					 GIT_RULE_READ, "",
					 "path '%s' does not exist at this revision",
					 w->prefixes[i]);
				return SOURCE_ENOTFOUND;
			}
			git_tree_entry_free(probe);
		}
	} else if (git_tree_entry_bypath(&probe, w->root, "sites") == 0) {
		git_tree_entry_free(probe);
		w->prefixes = sites;
		w->nprefixes = 1;
	} else {
		git_error_clear();
	}
	if (git_tree_walk(w->root, GIT_TREEWALK_PRE, walk_cb, w) < 0 && !w->error)
		return git_fail(w, "cannot read the tree");
	if (w->error)
		return w->error;
	source_set_sort(w->out);
	return SOURCE_OK;
}

/* ---- the cache of remote repositories ---- */

static int
is_url(const char *repo)
{
	return strstr(repo, "://") != NULL ||
	       (strchr(repo, '@') && strchr(repo, ':') && !strchr(repo, '/')) ||
	       !strncmp(repo, "git@", 4);
}

static int
mkdir_p(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0700) < 0 && errno != EEXIST) {
			*p = '/';
			return -1;
		}
		*p = '/';
	}
	if (mkdir(path, 0700) < 0 && errno != EEXIST)
		return -1;
	return 0;
}

static const char *
cache_root(struct arena *a)
{
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");

	if (xdg && xdg[0] == '/')
		return arena_printf(a, "%s/gpusite/repos", xdg);
	if (home && home[0])
		return arena_printf(a, "%s/.cache/gpusite/repos", home);
	return NULL;
}

struct cred_state {
	int attempts;
};

/* Credentials from the usual places; a rejected one is not retried. */
static int
cred_cb(git_credential **out, const char *url, const char *username,
	unsigned int allowed, void *payload)
{
	struct cred_state *st = payload;
	const char *token = getenv("GPUSITE_GIT_TOKEN");

	(void)url;
	if (st->attempts++ > 0)
		return GIT_PASSTHROUGH;
	if ((allowed & GIT_CREDENTIAL_SSH_KEY) && username)
		return git_credential_ssh_key_from_agent(out, username);
	if ((allowed & GIT_CREDENTIAL_USERPASS_PLAINTEXT) && token && token[0])
		return git_credential_userpass_plaintext_new(out, "x-access-token", token);
	return GIT_PASSTHROUGH;
}

static int
lock_cache(const char *dir, struct arena *a)
{
	const char *path = arena_printf(a, "%s.lock", dir);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);

	if (fd < 0)
		return -1;
	if (flock(fd, LOCK_EX) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static int
fetch_all(git_repository *repo, const char *url)
{
	git_remote *remote = NULL;
	git_fetch_options fo;
	struct cred_state cred = { 0 };
	static char heads[] = "+refs/heads/*:refs/heads/*";
	static char tags[] = "+refs/tags/*:refs/tags/*";
	static char head[] = "+HEAD:refs/gpusite/HEAD";	/* the default branch */
	char *refspecs[] = { heads, tags, head };
	git_strarray specs = { refspecs, 3 };
	int error;

	git_fetch_options_init(&fo, GIT_FETCH_OPTIONS_VERSION);
	fo.callbacks.credentials = cred_cb;
	fo.callbacks.payload = &cred;
	fo.prune = GIT_FETCH_PRUNE;
	fo.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_ALL;
	error = git_remote_create_anonymous(&remote, repo, url);
	if (!error)
		error = git_remote_fetch(remote, &specs, &fo, "gpusite: fetch");
	git_remote_free(remote);
	return error;
}

/* True when rev names a commit by its hex id (full or short). */
static int
looks_like_sha(const char *rev)
{
	size_t n = strlen(rev);

	if (n < 4 || n > GIT_OID_HEXSZ)
		return 0;
	return strspn(rev, "0123456789abcdefABCDEF") == n;
}

static int
resolve_commit(git_commit **out, git_repository *repo, const char *rev)
{
	git_object *obj = NULL;
	int error = git_revparse_single(&obj, repo, rev);

	if (error < 0)
		return error;
	error = git_object_peel((git_object **)out, obj, GIT_OBJECT_COMMIT);
	git_object_free(obj);
	return error;
}

/*
 * Open (or make) the cached bare clone of `url`.  A SHA already present
 * is served from the cache; anything else is fetched first.
 */
static int
open_cached(git_repository **out, struct git_walk *w, const char *url,
	    const char *shown, const char *rev)
{
	const char *root = cache_root(w->arena);
	git_oid key;
	char hex[GIT_OID_HEXSZ + 1];
	char *dir;
	int lock = -1, error;
	git_commit *probe = NULL;

	if (!root) {
		diag_add(w->diags, DIAG_ERROR, (struct pos){ shown, 0, 0 },
			 GIT_RULE_READ, "",
			 "no cache directory: set XDG_CACHE_HOME or HOME");
		return SOURCE_EFAIL;
	}
	/* key: the URL as shown (credentials removed), never the secret */
	git_odb_hash(&key, shown, strlen(shown), GIT_OBJECT_BLOB);
	git_oid_tostr(hex, sizeof(hex), &key);
	dir = arena_printf(w->arena, "%s/%s.git", root, hex);
	if (mkdir_p(arena_strdup(w->arena, root)) < 0) {
		diag_add(w->diags, DIAG_ERROR, (struct pos){ shown, 0, 0 },
			 GIT_RULE_READ, "", "cannot create cache '%s': %s",
			 root, strerror(errno));
		return SOURCE_EFAIL;
	}
	lock = lock_cache(dir, w->arena);
	if (lock < 0) {
		diag_add(w->diags, DIAG_ERROR, (struct pos){ shown, 0, 0 },
			 GIT_RULE_READ, "", "cannot lock cache '%s': %s", dir,
			 strerror(errno));
		return SOURCE_EFAIL;
	}
	error = git_repository_open_bare(out, dir);
	if (error < 0) {
		git_error_clear();
		error = git_repository_init(out, dir, 1);
		if (error < 0) {
			close(lock);
			return git_fail(w, "cannot create the cache repository");
		}
	} else if (rev && looks_like_sha(rev) &&
		   resolve_commit(&probe, *out, rev) == 0) {
		git_commit_free(probe);
		close(lock);
		return SOURCE_OK;	/* already here: no network */
	}
	git_error_clear();
	error = fetch_all(*out, url);
	close(lock);
	if (error < 0) {
		diag_add(w->diags, DIAG_ERROR, (struct pos){ shown, 0, 0 },
			 GIT_RULE_READ, "", "cannot fetch '%s': %s", shown,
			 git_last_message(w->arena));
		git_repository_free(*out);
		*out = NULL;
		return SOURCE_EFAIL;
	}
	return SOURCE_OK;
}

int
source_from_git(struct source_set *out, struct arena *a, struct diags *d,
		const char *repo, const char *rev, const char *const *paths,
		size_t npaths)
{
	struct git_walk w = { 0 };
	git_repository *r = NULL;
	git_commit *commit = NULL;
	const char *shown = source_url_scrub(a, repo);
	int rc;

	git_libgit2_init();
	w.arena = a;
	w.diags = d;
	w.out = out;
	w.label = shown;
	if (is_url(repo)) {
		rc = open_cached(&r, &w, repo, shown, rev);
	} else if (git_repository_open_ext(&r, repo, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0) {
		diag_add(d, DIAG_ERROR, (struct pos){ shown, 0, 0 }, GIT_RULE_READ,
			 "", "cannot open repository '%s': %s", shown,
			 git_last_message(a));
		rc = SOURCE_ENOTFOUND;
	} else {
		rc = SOURCE_OK;
	}
	if (rc)
		goto out;
	w.repo = r;
	if (!rev)
		rev = is_url(repo) ? "refs/gpusite/HEAD" : "HEAD";
	if (resolve_commit(&commit, r, rev) < 0) {
		diag_add(d, DIAG_ERROR, (struct pos){ shown, 0, 0 }, GIT_RULE_READ,
			 "", "revision '%s' not found in %s", rev, shown);
		git_error_clear();
		rc = SOURCE_ENOTFOUND;
		goto out;
	}
	if (git_commit_tree(&w.root, commit) < 0) {
		rc = git_fail(&w, "cannot read the commit's tree");
		goto out;
	}
	out->label = arena_printf(a, "%s@%s", shown, rev);
	rc = walk_tree(&w, paths, npaths);
out:
	git_tree_free(w.root);
	git_commit_free(commit);
	git_repository_free(r);
	git_libgit2_shutdown();
	return rc;
}

/* ---- the index ---- */

/* The current directory relative to the work tree ("" at its top). */
static const char *
cwd_in_workdir(struct arena *a, git_repository *repo)
{
	char cwd[PATH_MAX], top[PATH_MAX];
	const char *wd = git_repository_workdir(repo);
	size_t len;

	if (!wd || !getcwd(cwd, sizeof(cwd)) || !realpath(wd, top))
		return NULL;
	len = strlen(top);
	if (strncmp(cwd, top, len) || (cwd[len] && cwd[len] != '/'))
		return NULL;
	return arena_strdup(a, cwd[len] ? cwd + len + 1 : "");
}

int
source_from_index(struct source_set *out, struct arena *a, struct diags *d,
		  const char *const *paths, size_t npaths)
{
	struct git_walk w = { 0 };
	git_repository *repo = NULL;
	git_index *index = NULL;
	const char *prefix, **sel;
	size_t nsel, count;
	int rc = SOURCE_OK;

	git_libgit2_init();
	w.arena = a;
	w.diags = d;
	w.out = out;
	w.label = "index";
	if (git_repository_open_ext(&repo, ".", 0, NULL) < 0) {
		diag_add(d, DIAG_ERROR, (struct pos){ ".", 0, 0 }, GIT_RULE_READ,
			 "", "--staged needs a Git repository: %s",
			 git_last_message(a));
		rc = SOURCE_ENOTFOUND;
		goto out;
	}
	w.repo = repo;
	prefix = cwd_in_workdir(a, repo);
	if (!prefix || git_repository_index(&index, repo) < 0) {
		rc = git_fail(&w, "cannot read the index");
		goto out;
	}
	/* the selection, as paths relative to the work tree's top */
	sel = arena_alloc(a, (npaths + 1) * sizeof(*sel));
	nsel = 0;
	for (size_t i = 0; i < npaths; i++) {
		const char *p = tree_prefixes(a, &paths[i], 1)[0];

		sel[nsel++] = prefix[0] ? (strcmp(p, ".") ? arena_printf(a, "%s/%s", prefix, p)
						     : prefix)
					: p;
	}
	if (!nsel) {
		const char *sites = prefix[0] ? arena_printf(a, "%s/sites", prefix) : "sites";
		int any = 0;

		count = git_index_entrycount(index);
		for (size_t i = 0; i < count && !any; i++)
			any = path_selected(git_index_get_byindex(index, i)->path, &sites, 1);
		sel[nsel++] = any ? sites : prefix;
	}
	out->label = "index";
	count = git_index_entrycount(index);
	for (size_t i = 0; i < count; i++) {
		const git_index_entry *e = git_index_get_byindex(index, i);
		const char *base = strrchr(e->path, '/');
		const char *shown;

		base = base ? base + 1 : e->path;
		if (git_index_entry_stage(e) != 0 || !has_spec_suffix(base) ||
		    !path_selected(e->path, sel, nsel) || path_hidden(e->path))
			continue;
		/* name files as the user sees them from the current directory */
		shown = prefix[0] ? arena_strdup(a, e->path + strlen(prefix) + 1)
				  : arena_strdup(a, e->path);
		if (e->mode == GIT_FILEMODE_LINK) {
			diag_add(d, DIAG_ERROR, (struct pos){ shown, 0, 0 },
				 GIT_RULE_PATH, "",
				 "staged symlink: spec files must be regular files");
			continue;
		}
		if (add_blob(&w, shown, &e->id) < 0 || w.error) {
			rc = SOURCE_EFAIL;
			goto out;
		}
	}
	source_set_sort(out);
out:
	git_index_free(index);
	git_repository_free(repo);
	git_libgit2_shutdown();
	return rc;
}
