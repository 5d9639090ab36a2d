/*
 * argocd_api.h - KUBE_API_VERSIONS: what the destination cluster serves,
 * and which rendered objects it cannot take.
 */
#ifndef GS_ARGOCD_API_H
#define GS_ARGOCD_API_H

#include <stdbool.h>
#include <stddef.h>

#include "argocd/argocd_settings.h"
#include "base/diag.h"

struct arena;
struct render_result;
struct spec_fleet;

/*
 * KUBE_API_VERSIONS: a comma-joined list of "group/version" and
 * "group/version/Kind" entries ("v1", "v1/Pod", "apps/v1/Deployment").
 */
struct argocd_api_versions {
	const char **items; /* sorted, deduplicated */
	size_t count;
};

void argocd_api_versions_parse(struct argocd_api_versions *out, struct arena *a, const char *text);

/*
 * Does the cluster serve `api_version` (e.g. "karpenter.sh/v1") and, when
 * the list names kinds of that group/version at all, `kind` in it?
 * An empty list (unknown cluster) serves everything.
 */
bool argocd_api_versions_serves(const struct argocd_api_versions *v, const char *api_version,
				const char *kind);

/*
 * Check the stream `r` against KUBE_API_VERSIONS (nothing to check when
 * it is unset or empty: an unknown cluster).  An Application on a cluster
 * that does not serve argoproj.io/v1alpha1 Application is an error
 * (GS119: it would land where no Argo CD runs); any other API it lacks a
 * warning (GS123) that says what to install or change.  Returns 0, or -1
 * when it added an error.
 */
int argocd_check_apis(struct arena *a, struct diags *d, const struct argocd_env *e,
		      const struct argocd_settings *g, const struct spec_fleet *fleet,
		      const struct render_result *r);

#endif
