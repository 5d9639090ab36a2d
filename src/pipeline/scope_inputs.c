/*
 * scope_inputs.c - verify-scope's inputs from files and from the cluster
 * (scope_inputs.h).
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/arena.h"
#include "check/check.h"
#include "node/node.h"
#include "pipeline/scope_inputs.h"
#include "scope/scope.h"

/* A live list as one document scope_add_*() takes: items of built-in
 * lists carry no apiVersion and kind, so they are set. */
static struct node *
live_list_doc(struct arena *a, struct node *items, const char *api_version, const char *kind)
{
	struct node *doc = node_new_map(a, (struct pos)POS_NONE);

	for (size_t i = 0; i < items->seq.count; i++) {
		node_map_set(a, items->seq.items[i], "apiVersion",
			     node_new_str(a, (struct pos)POS_NONE, api_version));
		node_map_set(a, items->seq.items[i], "kind",
			     node_new_str(a, (struct pos)POS_NONE, kind));
	}
	node_map_add_str(a, doc, "apiVersion", "v1");
	node_map_add_str(a, doc, "kind", "List");
	node_map_add(a, doc, "items", items);
	return doc;
}

static void
docs_push(struct arena *a, struct yamlio_docs *all, struct node *doc)
{
	all->docs = arena_realloc(a, all->docs, all->count * sizeof(*all->docs),
				  (all->count + 1) * sizeof(*all->docs));
	all->docs[all->count++] = doc;
}

int
scope_inputs_live(struct arena *a, struct diags *d, const struct kube_options *ko, bool want_nodes,
		  bool want_manifests, struct yamlio_docs *nodes, struct yamlio_docs *manifests)
{
	struct kube_client *k = NULL;
	struct node *items;
	int rc = -1;

	if (kube_open(&k, a, d, ko) < 0)
		goto out;
	if (want_nodes) {
		if (kube_list_nodes(&items, k, a) < 0)
			goto out;
		docs_push(a, nodes, live_list_doc(a, items, "v1", "Node"));
	}
	if (want_manifests) {
		struct kube_list_query q = {
			"nvidia.com/v1", "ClusterPolicy", NULL, NULL, NULL, 0
		};

		if (kube_list_daemonsets(&items, k, a, NULL) < 0)
			goto out;
		docs_push(a, manifests, live_list_doc(a, items, "apps/v1", "DaemonSet"));
		/* the GPU Operator's operands come from its ClusterPolicy */
		rc = kube_list_all(&items, k, a, &q);
		if (rc == KUBE_EFAIL)
			goto out;
		if (rc == 0)
			docs_push(a, manifests,
				  live_list_doc(a, items, "nvidia.com/v1", "ClusterPolicy"));
	}
	rc = 0;
out:
	kube_close(k);
	return rc;
}

static int
cmp_str(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static bool
is_yaml_name(const char *n)
{
	size_t len = strlen(n);

	return n[0] != '.' && ((len > 5 && !strcmp(n + len - 5, ".yaml")) ||
			       (len > 4 && !strcmp(n + len - 4, ".yml")) ||
			       (len > 5 && !strcmp(n + len - 5, ".json")));
}

/* A directory stands for its *.yaml / *.yml / *.json files, by name. */
static int
expand(struct arena *a, struct diags *d, const char *path, const char ***out, size_t *count)
{
	struct stat st;
	DIR *dir;
	struct dirent *e;
	size_t alloc = 0;

	*out = NULL;
	*count = 0;
	if (strcmp(path, "-") && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		dir = opendir(path);
		if (!dir) {
			diag_report(d, (struct pos){ path, 0, 0 }, "GS001", "",
				    "cannot read directory %s", path);
			return -3;
		}
		while ((e = readdir(dir)) != NULL) {
			if (!is_yaml_name(e->d_name))
				continue;
			if (*count == alloc) {
				size_t want = alloc ? alloc * 2 : 16;

				*out = arena_realloc(a, (void *)*out, alloc * sizeof(**out),
						     want * sizeof(**out));
				alloc = want;
			}
			(*out)[(*count)++] =
				arena_printf(a, "%s%s%s", path,
					     path[strlen(path) - 1] == '/' ? "" : "/", e->d_name);
		}
		closedir(dir);
		qsort((void *)*out, *count, sizeof(**out), cmp_str);
		if (!*count) {
			diag_report(d, (struct pos){ path, 0, 0 }, "GS001", "",
				    "directory %s holds no *.yaml file", path);
			return -3;
		}
		return 0;
	}
	*out = arena_alloc(a, sizeof(**out));
	(*out)[0] = path;
	*count = 1;
	return 0;
}

int
scope_inputs_read(struct arena *a, struct diags *d, struct source_set *files,
		  const char *const *paths, size_t npaths, struct yamlio_docs *all)
{
	int worst = 0;

	for (size_t i = 0; i < npaths; i++) {
		const char **list;
		size_t n;
		int rc = expand(a, d, paths[i], &list, &n);

		if (rc < 0)
			return rc;
		for (size_t k = 0; k < n; k++) {
			struct yamlio_docs docs;
			const char *data = NULL;
			size_t len = 0;

			rc = check_read_docs(&docs, a, d, list[k], &data, &len);
			if (rc == -3)
				return rc;
			if (rc < 0)
				worst = -1;
			if (data)
				source_set_add(a, files, strcmp(list[k], "-") ? list[k] : "<stdin>",
					       data, len);
			if (!docs.count)
				continue;
			all->docs = arena_realloc(a, all->docs, all->count * sizeof(*all->docs),
						  (all->count + docs.count) * sizeof(*all->docs));
			memcpy(all->docs + all->count, docs.docs, docs.count * sizeof(*docs.docs));
			all->count += docs.count;
		}
	}
	return worst;
}

int
scope_inputs_place(struct scope_result *r, struct arena *a, struct diags *d,
		   struct source_set *files, const struct scope_inputs_paths *in,
		   const struct kube_options *ko)
{
	struct yamlio_docs nodes = { 0 }, manifests = { 0 };
	int rc, found = 0;

	scope_init(r);
	rc = scope_inputs_read(a, d, files, in->nodes, in->nnodes, &nodes);
	if (rc == 0)
		rc = scope_inputs_read(a, d, files, in->manifests, in->nmanifests, &manifests);
	if (rc == 0 && ko)
		rc = scope_inputs_live(a, d, ko, !in->nnodes, !in->nmanifests, &nodes, &manifests) <
				     0
			     ? -3
			     : 0;
	source_set_sort(files);
	if (rc < 0)
		return SCOPE_INPUTS_EREAD;
	if (scope_add_nodes(r, a, d, nodes.docs, nodes.count) < 0)
		found = -1;
	if (scope_add_manifests(r, a, d, manifests.docs, manifests.count) < 0)
		found = -1;
	if (scope_run(r, a, d) < 0)
		found = -1;
	return found;
}
