/*
 * check_index.c - the upstream schemas recognised by their content: any
 * directory of CustomResourceDefinitions (a chart's crds/, one CRD a file
 * or many, the List that `kubectl get crd -o yaml` prints) and Kubernetes
 * OpenAPI v3 documents (the JSON of /openapi/v3/apis/<group>/<version>),
 * under any file names, and the same documents from a live cluster
 * (check_index_doc).  Each CRD is indexed by spec.group and
 * spec.names.kind, each OpenAPI component by its
 * x-kubernetes-group-version-kind.  When several files define one kind,
 * the last in file-name order wins, as `kubectl apply -f DIR` would leave
 * the cluster (each apply replaces the CRD before it); every file that
 * defines it is kept for the note that says which one was used.  The
 * order is the walk's (names sorted byte-wise in each directory), so a
 * run is the same on every machine.
 *
 * The walk is bounded: hidden entries and symbolic links are skipped, at
 * most CHECK_INDEX_MAX_FILES files CHECK_INDEX_MAX_DEPTH directories deep,
 * each under the size cap of check_read_docs.  A file that is not YAML or
 * JSON (a chart template, a README) is no schema and is passed over.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/arena.h"
#include "base/buf.h"
#include "check/check_int.h"
#include "json/json.h"

#define CHECK_INDEX_MAX_FILES 20000
#define CHECK_INDEX_MAX_DEPTH 16
#define CHECK_INDEX_MAX_BYTES (64u << 20)

/* Record `source` among the files defining one kind (once each: a file
 * may define it twice, a List and a CRD). */
static void
add_source(struct arena *a, struct check_index_sources *srcs, const char *source)
{
	if (srcs->n && !strcmp(srcs->names[srcs->n - 1], source))
		return;
	ARENA_GROW(a, srcs->names, srcs->n, srcs->alloc, 2);
	srcs->names[srcs->n++] = source;
}

static void
add_crd(struct check_index *ix, struct arena *a, const char *source, const struct node *doc)
{
	const struct node *spec = node_map_get(doc, "spec");
	const char *g = node_str(node_map_get(spec, "group"));
	const char *k = node_str(node_path(spec, "names.kind"));

	if (!g || !k)
		return;
	for (size_t i = 0; i < ix->ncrds; i++)
		if (!strcmp(ix->crds[i].group, g) && !strcmp(ix->crds[i].kind, k)) {
			add_source(a, &ix->crds[i].also, source);
			ix->crds[i].crd = doc; /* the last one wins */
			ix->crds[i].source = source;
			return;
		}
	ARENA_GROW(a, ix->crds, ix->ncrds, ix->crds_alloc, 16);
	ix->crds[ix->ncrds++] = (struct check_index_crd){ g, k, doc, source, { 0 } };
	add_source(a, &ix->crds[ix->ncrds - 1].also, source);
}

static void
add_openapi(struct check_index *ix, struct arena *a, const char *source, const struct node *doc)
{
	const struct node *components = node_map_get(doc, "components");
	const struct node *schemas = node_map_get(components, "schemas");

	for (size_t i = 0; schemas && schemas->kind == NODE_MAP && i < schemas->map.count; i++) {
		const struct node *gvks = node_map_get(schemas->map.pairs[i].value,
						       "x-kubernetes-group-version-kind");

		for (size_t k = 0; k < check_seq_count(gvks); k++) {
			const struct node *gvk = gvks->seq.items[k];
			struct check_index_api e = {
				node_str(node_map_get(gvk, "group")),
				node_str(node_map_get(gvk, "version")),
				node_str(node_map_get(gvk, "kind")),
				node_text(schemas->map.pairs[i].key),
				components,
				source,
				{ 0 },
			};
			struct check_index_api *seen = NULL;

			if (!e.group || !e.version || !e.kind)
				continue;
			for (size_t j = 0; j < ix->napis && !seen; j++)
				if (!strcmp(ix->apis[j].group, e.group) &&
				    !strcmp(ix->apis[j].version, e.version) &&
				    !strcmp(ix->apis[j].kind, e.kind))
					seen = &ix->apis[j];
			if (!seen) {
				ARENA_GROW(a, ix->apis, ix->napis, ix->apis_alloc, 64);
				seen = &ix->apis[ix->napis++];
				*seen = e;
			}
			add_source(a, &seen->also, source);
			seen->name = e.name; /* the last one wins */
			seen->components = components;
			seen->source = source;
		}
	}
}

void
check_index_doc(struct check_index *ix, struct arena *a, const char *source, const struct node *doc)
{
	const char *kind = node_str(node_map_get(doc, "kind"));
	const char *openapi = node_str(node_map_get(doc, "openapi"));

	if (!doc || doc->kind != NODE_MAP)
		return;
	if (kind && !strcmp(kind, "CustomResourceDefinition")) {
		add_crd(ix, a, source, doc);
		return;
	}
	if (kind && strlen(kind) >= 4 && !strcmp(kind + strlen(kind) - 4, "List")) {
		const struct node *items = node_map_get(doc, "items");

		for (size_t i = 0; i < check_seq_count(items); i++) {
			const struct node *it = items->seq.items[i];
			const char *k = node_str(node_map_get(it, "kind"));

			/* `kubectl get crd -o yaml` lists items with their kind */
			if (k && !strcmp(k, "CustomResourceDefinition"))
				add_crd(ix, a, source, it);
		}
		return;
	}
	if (openapi && openapi[0] == '3')
		add_openapi(ix, a, source, doc);
}

/* One file: parsed as JSON when it starts with '{', else as YAML; a file
 * that is neither is not a schema and adds nothing. */
static void
index_file(struct check_index *ix, struct arena *a, const char *path)
{
	struct diags quiet; /* a chart template or a README is no error */
	struct buf b;
	size_t i = 0;

	diags_init(&quiet, a);
	buf_init(&b, CHECK_INDEX_MAX_BYTES);
	if (buf_read_file(&b, path) < 0) {
		buf_release(&b);
		return;
	}
	while (i < b.len &&
	       (b.data[i] == ' ' || b.data[i] == '\n' || b.data[i] == '\t' || b.data[i] == '\r'))
		i++;
	if (i < b.len && b.data[i] == '{') {
		struct node *root = json_parse(a, &quiet, CHECK_UNCHECKED, path, b.data, b.len);

		buf_release(&b);
		check_index_doc(ix, a, path, root);
		return;
	}
	buf_release(&b);
	{
		struct yamlio_docs docs;

		check_read_docs(&docs, a, &quiet, path, NULL, NULL);
		for (size_t k = 0; k < docs.count; k++)
			check_index_doc(ix, a, path, docs.docs[k]);
	}
}

static int
cmp_name(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

static void
walk(struct check_index *ix, struct arena *a, const char *dir, unsigned depth)
{
	DIR *dh;
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, alloc = 0;

	if (depth > CHECK_INDEX_MAX_DEPTH || !(dh = opendir(dir)))
		return;
	while ((de = readdir(dh)) != NULL) {
		if (de->d_name[0] == '.')
			continue; /* hidden entries, "." and ".." */
		ARENA_GROW(a, names, n, alloc, 32);
		names[n++] = arena_strdup(a, de->d_name);
	}
	closedir(dh);
	if (n > 1)
		qsort(names, n, sizeof(*names), cmp_name);
	for (size_t i = 0; i < n && ix->nfiles < CHECK_INDEX_MAX_FILES; i++) {
		const char *path = arena_printf(a, "%s/%s", dir, names[i]);
		struct stat st;

		if (lstat(path, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			walk(ix, a, path, depth + 1);
		} else if (S_ISREG(st.st_mode)) {
			ix->nfiles++;
			index_file(ix, a, path);
		}
	}
}

void
check_index_dir(struct check_index *ix, struct arena *a, const char *dir)
{
	walk(ix, a, dir, 0);
}

const struct check_index_crd *
check_index_crd_find(const struct check_index *ix, const char *group, const char *kind)
{
	for (size_t i = 0; i < ix->ncrds; i++)
		if (!strcmp(ix->crds[i].group, group) && !strcmp(ix->crds[i].kind, kind))
			return &ix->crds[i];
	return NULL;
}

const struct check_index_api *
check_index_api_find(const struct check_index *ix, const char *group, const char *version,
		     const char *kind)
{
	for (size_t i = 0; i < ix->napis; i++)
		if (!strcmp(ix->apis[i].group, group) && !strcmp(ix->apis[i].version, version) &&
		    !strcmp(ix->apis[i].kind, kind))
			return &ix->apis[i];
	return NULL;
}
