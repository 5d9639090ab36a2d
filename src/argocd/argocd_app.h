/*
 * argocd_app.h - the application path of a plugin run: where the
 * repository copy starts, the sites it holds, and the stderr Argo CD's UI
 * shows.
 */
#ifndef GS_ARGOCD_APP_H
#define GS_ARGOCD_APP_H

#include <stddef.h>
#include <stdio.h>

#include "argocd/argocd_env.h"
#include "base/diag.h"

struct arena;
struct pipeline;
struct source_set;

/*
 * The repository root of a plugin run whose working directory is `cwd`
 * (absolute): the nearest ancestor that is a `_cmp_server/<uuid>` copy
 * root, else `cwd` minus `source_path` (ARGOCD_APP_SOURCE_PATH) when cwd
 * ends with it, else `cwd` itself.  Arena string.
 */
char *argocd_repo_root(struct arena *a, const char *cwd, const char *source_path);

/*
 * The sites of the application path, which is the working directory:
 * its `sites/` when that exists, else the directory itself (the rule
 * `validate` uses), read with the repository copy root as the boundary
 * symlinks may not leave (GS006).  The pipeline's diagnostics are copied
 * into `d`.  Returns 0, ARGOCD_LOAD_FINDINGS (the specs have errors; the
 * valid sites are in p->fleet) or ARGOCD_LOAD_FAILED (nothing was read).
 */
enum argocd_load_result {
	ARGOCD_LOAD_OK = 0,
	ARGOCD_LOAD_FINDINGS = -1,
	ARGOCD_LOAD_FAILED = -2,
};

int argocd_app_load(struct pipeline *p, struct source_set *files, struct arena *a, struct diags *d,
		    const struct argocd_env *e);

/*
 * Print diagnostics compiler-style, one line each, for the Argo CD UI:
 * "file:line:col: error: message [GS041]" ("file: ..." when line is 0),
 * control characters shown as '?'.  At most `max` lines, then one line
 * saying how many more there are.
 */
void argocd_diags_print(FILE *err, const struct diags *d, size_t max);

/*
 * The one-line summary that ends stderr, e.g. "2 errors in
 * sites/seoul.yaml (GS003, GS041)"; errors tied to no file are counted
 * but name none.  Arena string; "" without errors.
 */
char *argocd_diags_summary(struct arena *a, const struct diags *d);

#endif
