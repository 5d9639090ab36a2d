/*
 * argocd_app.c - the application path of a plugin run: the repository
 * copy's root, the sites under the working directory, and diagnostics in
 * the one-line form Argo CD's UI shows.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/strlist.h"
#include "argocd/argocd_app.h"
#include "base/arena.h"
#include "pipeline/pipeline.h"
#include "source/source.h"

static bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int
cmp_str(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static bool
is_uuid(const char *s, size_t n)
{
	if (n != 36)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (c != '-')
				return false;
		} else if (!is_digit(c) && !(c >= 'a' && c <= 'f') && !(c >= 'A' && c <= 'F')) {
			return false;
		}
	}
	return true;
}

char *
argocd_repo_root(struct arena *a, const char *cwd, const char *source_path)
{
	static const char work[] = "_cmp_server";
	size_t end = strlen(cwd), sp_len;
	const char *sp = source_path ? source_path : "";

	while (end > 1 && cwd[end - 1] == '/')
		end--;
	/* Nearest ancestor A (cwd included) with A = .../_cmp_server/<uuid>. */
	for (size_t e = end; e > 0;) {
		size_t slash = e, pslash;

		while (slash > 0 && cwd[slash - 1] != '/')
			slash--;
		if (slash == 0)
			break;
		/* cwd[slash..e) is the last component; its parent ends at slash-1. */
		pslash = slash - 1;
		while (pslash > 0 && cwd[pslash - 1] != '/')
			pslash--;
		if (slash - 1 - pslash == sizeof(work) - 1 &&
		    !memcmp(cwd + pslash, work, sizeof(work) - 1) &&
		    is_uuid(cwd + slash, e - slash))
			return arena_strndup(a, cwd, e);
		e = slash - 1;
	}
	/* Else cwd minus ARGOCD_APP_SOURCE_PATH (docs/design/upstream.md, "Argo CD"). */
	while (sp[0] == '.' && sp[1] == '/')
		sp += 2;
	while (*sp == '/')
		sp++;
	sp_len = strlen(sp);
	while (sp_len && sp[sp_len - 1] == '/')
		sp_len--;
	if (sp_len == 1 && sp[0] == '.')
		sp_len = 0;
	if (sp_len && sp_len < end && cwd[end - sp_len - 1] == '/' &&
	    !memcmp(cwd + end - sp_len, sp, sp_len)) {
		size_t root = end - sp_len - 1;

		return root ? arena_strndup(a, cwd, root) : arena_strdup(a, "/");
	}
	return arena_strndup(a, cwd, end);
}

/* Copy one list's diagnostics to the end of another. */
static void
diags_append(struct diags *to, const struct diags *from)
{
	for (size_t i = 0; i < from->count; i++) {
		const struct diag *g = &from->items[i];

		diag_copy(to, g);
	}
}

int
argocd_app_load(struct pipeline *p, struct source_set *files, struct arena *a, struct diags *d,
		const struct argocd_env *e)
{
	struct pos here = POS_NONE;
	const char *path;
	char cwd[4096];
	struct stat st;
	int ret;

	memset(p, 0, sizeof(*p));
	memset(files, 0, sizeof(*files));
	if (!getcwd(cwd, sizeof(cwd))) {
		diag_report(d, here, ARGOCD_RULE_OUTPUT, "",
			    "cannot read the working directory (the application path): %s",
			    strerror(errno));
		return ARGOCD_LOAD_FAILED;
	}
	/* lstat: a `sites` symlink still goes to the walker, which refuses
	 * it when it leaves the repository (GS006). */
	path = lstat("sites", &st) == 0 ? "sites" : ".";
	ret = source_from_paths(
		files, a, d, argocd_repo_root(a, cwd, argocd_env_get(e, "ARGOCD_APP_SOURCE_PATH")),
		&path, 1);
	if (ret < 0)
		return ARGOCD_LOAD_FAILED;
	ret = pipeline_load(p, a, files);
	/* a site file that holds no document stops the plugin: its sites
	 * may have been emptied by mistake, and the application would prune
	 * their objects */
	for (size_t i = 0; i < p->diags.count; i++)
		if (!strcmp(p->diags.items[i].rule, PIPELINE_RULE_EMPTY_FILE)) {
			p->diags.items[i].level = DIAG_ERROR;
			ret = -1;
		}
	diags_append(d, &p->diags);
	return ret < 0 ? ARGOCD_LOAD_FINDINGS : ARGOCD_LOAD_OK;
}

static void
put_clean(FILE *f, const char *s)
{
	for (; s && *s; s++)
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, f);
}

void
argocd_diags_print(FILE *err, const struct diags *d, size_t max)
{
	size_t shown = 0;

	for (size_t i = 0; i < d->count; i++) {
		const struct diag *g = &d->items[i];

		if (g->level == DIAG_NOTE)
			continue;
		if (shown++ == max) {
			fprintf(err, "gpusite: ... and %zu more\n",
				diags_count(d, DIAG_ERROR) + diags_count(d, DIAG_WARNING) - max);
			return;
		}
		put_clean(err, g->at.file ? g->at.file : "gpusite");
		if (g->at.line)
			fprintf(err, ":%u:%u", g->at.line, g->at.col);
		fprintf(err, ": %s: ", diag_level_name(g->level));
		put_clean(err, g->msg);
		fprintf(err, " [%s]\n", g->rule);
	}
}

char *
argocd_diags_summary(struct arena *a, const struct diags *d)
{
	size_t errors = diags_count(d, DIAG_ERROR), nfiles = 0, nrules = 0;
	const char **files, **rules;
	char *where, *ids;

	if (!errors)
		return arena_strdup(a, "");
	files = arena_alloc(a, errors * sizeof(*files));
	rules = arena_alloc(a, errors * sizeof(*rules));
	for (size_t i = 0; i < d->count; i++) {
		const struct diag *g = &d->items[i];
		const char *file = g->at.file;

		if (g->level != DIAG_ERROR)
			continue;
		if (file && !str_listed(file, files, nfiles))
			files[nfiles++] = file;
		if (!str_listed(g->rule, rules, nrules))
			rules[nrules++] = g->rule;
	}
	qsort(files, nfiles, sizeof(*files), cmp_str);
	qsort(rules, nrules, sizeof(*rules), cmp_str);
	if (nfiles > 3) {
		where = arena_printf(a, " in %zu files", nfiles);
	} else {
		where = arena_strdup(a, nfiles ? " in " : "");
		for (size_t i = 0; i < nfiles; i++)
			where = arena_printf(a, "%s%s%s", where,
					     i ? (i + 1 == nfiles ? " and " : ", ") : "", files[i]);
	}
	ids = arena_strdup(a, "");
	for (size_t i = 0; i < nrules; i++)
		ids = arena_printf(a, "%s%s%s", ids, i ? ", " : "", rules[i]);
	where = arena_printf(a, "%zu error%s%s (%s)", errors, errors == 1 ? "" : "s", where, ids);
	/* File names come from the repository: keep the line one line. */
	for (char *c = where; *c; c++) {
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	}
	return where;
}
