/*
 * source_git_util.c - what the Git sources (source_git.c, source_index.c,
 * source_cache.c) share: the pick of files, path selection, libgit2's
 * last error without a secret in it, reading blobs under the limits and
 * following symlinks inside the tree.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/secret.h"
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

	return source__scrub(a,
			     e && e->message && *e->message ? e->message : "unknown libgit2 error");
}

const char *
source__scrub(struct arena *a, const char *msg)
{
	char *copy = arena_alloc(a, strlen(msg) + sizeof(SECRET_REDACTED) * (strlen(msg) / 4 + 1));
	const char *p = msg;
	char *q = copy;
	size_t n;

	/* every URL: "scheme://user:secret@host/path?query#fragment" keeps
	 * scheme, host and path; a query or fragment may carry a token */
	while (*p) {
		const char *sep = strstr(p, "://"), *host, *end, *at = NULL, *cut;

		if (!sep) {
			size_t rest = strlen(p);

			memcpy(q, p, rest);
			q += rest;
			break;
		}
		host = sep + 3;
		memcpy(q, p, (size_t)(host - p));
		q += host - p;
		end = host + strcspn(host, " '\"\n\t<>");
		for (const char *c = host; c < end && !strchr("/?#", *c); c++)
			if (*c == '@')
				at = c;
		if (at)
			host = at + 1;
		cut = host + strcspn(host, "?#");
		if (cut > end)
			cut = end;
		memcpy(q, host, (size_t)(cut - host));
		q += cut - host;
		if (cut < end) {
			memcpy(q, "?" SECRET_REDACTED, sizeof(SECRET_REDACTED));
			q += sizeof(SECRET_REDACTED);
		}
		p = end;
	}
	*q = '\0';
	n = strlen(copy);
	while (n && (copy[n - 1] == '\n' || copy[n - 1] == '.'))
		copy[--n] = '\0';
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

int
source__lookup(struct source_pick *p, const char *path, git_filemode_t *mode, git_oid *id)
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
		found = source__lookup(p, next, &mode, &id);
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
