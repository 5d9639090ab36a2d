/*
 * live_schemas.c - `validate --rendered --live`: the schemas the cluster
 * itself serves.  Its CustomResourceDefinitions are listed once, at the
 * start; its OpenAPI v3 documents are read when a built-in kind of their
 * group/version is first looked up: /openapi/v3 names each group/version's
 * document (paths."apis/apps/v1".serverRelativeURL), and only the ones
 * the stream needs are fetched.  GET and LIST only.
 */
#include <string.h>

#include "base/arena.h"
#include "check/check.h"
#include "kube/kube.h"
#include "pipeline/live.h"
#include "pipeline/live_schemas.h"

struct live_schemas {
	struct kube_client *k;
	const struct node *paths; /* /openapi/v3's paths, NULL when not served */
	bool index_read;
};

/* The index of the OpenAPI v3 documents, read on first use. */
static int
openapi_index(struct live_schemas *ls, struct arena *a)
{
	struct node *root = NULL;
	int rc;

	if (ls->index_read)
		return 0;
	ls->index_read = true;
	rc = kube_get_path(&root, ls->k, a, "/openapi/v3", "the OpenAPI v3 index (/openapi/v3)");
	if (rc == KUBE_ENOTFOUND)
		return 0; /* a server before 1.27 without the feature: no built-in schemas */
	if (rc < 0)
		return -3;
	ls->paths = node_map_get(root, "paths");
	return 0;
}

static int
fetch(void *ctx, struct check_upstream *u, struct arena *a, struct diags *d, const char *group,
      const char *version)
{
	struct live_schemas *ls = ctx;
	const char *key = *group ? arena_printf(a, "apis/%s/%s", group, version)
				 : arena_printf(a, "api/%s", version);
	const char *url;
	struct node *doc = NULL;
	int rc;

	(void)d;
	if (openapi_index(ls, a) < 0)
		return -3;
	url = node_str(node_path(node_map_get(ls->paths, key), "serverRelativeURL"));
	if (!url)
		return 0; /* the cluster does not serve this group/version */
	rc = kube_get_path(
		&doc, ls->k, a, url,
		arena_printf(a, "the OpenAPI v3 document of %s", key + (*group ? 5 : 4)));
	if (rc == KUBE_ENOTFOUND)
		return 0;
	if (rc < 0)
		return -3;
	check_upstream_add_doc(u, a, arena_printf(a, "the cluster's /openapi/v3/%s", key), doc);
	return 0;
}

int
live_schemas_open(struct live_schemas **out, struct check_upstream *u, struct arena *a,
		  struct diags *d, const struct live_opts *lo, bool verbose)
{
	struct kube_options ko;
	struct kube_list_query q = {
		"apiextensions.k8s.io/v1", "CustomResourceDefinition", NULL, NULL, NULL, 0
	};
	struct live_schemas *ls = arena_alloc(a, sizeof(*ls));
	struct node *items = NULL;
	int rc;

	memset(ls, 0, sizeof(*ls));
	*out = ls;
	live_kube_options(&ko, lo, verbose);
	if (kube_open(&ls->k, a, d, &ko) < 0)
		return -3;
	rc = kube_list_all(&items, ls->k, a, &q);
	if (rc == KUBE_EFAIL)
		return -3;
	for (size_t i = 0; rc == 0 && items && items->kind == NODE_SEQ && i < items->seq.count;
	     i++) {
		const char *name = node_str(node_path(items->seq.items[i], "metadata.name"));

		check_upstream_add_doc(u, a,
				       arena_printf(a, "the cluster's CustomResourceDefinition %s",
						    name ? name : "(unnamed)"),
				       items->seq.items[i]);
	}
	check_upstream_set_fetch(u, fetch, ls);
	return 0;
}

void
live_schemas_close(struct live_schemas *ls)
{
	if (ls)
		kube_close(ls->k);
}
