/*
 * hydrate_markdown.c - `hydrate --dry-run --format markdown`: what the
 * commit would change, per cluster and object, for a pull-request
 * comment.  Each manifest that changes is read back into its objects on
 * both sides (the branch's and the new one), objects are matched by kind,
 * namespace and name, and the result goes through the writer of `diff
 * --base` (report_diff_markdown) with each object named by its cluster
 * directory: "inference-eu/cluster NodePool/gpu-fallback".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "diff/diff.h"
#include "hydrate/hydrate.h"
#include "inventory/inventory_labels.h"
#include "node/node.h"
#include "report/report_diff.h"
#include "yamlio/yamlio.h"

/* The result being built, and its room. */
struct md_result {
	struct diff_result r;
	size_t alloc;
};

struct md_object {
	const char *key; /* Kind/name or Kind/namespace/name */
	struct render_object obj;
};

/* The objects of one manifest, in stream order (none for NULL text). */
static size_t
read_objects(struct md_object **out, struct arena *a, const char *path, const char *text,
	     size_t len)
{
	struct yamlio_docs docs = { NULL, 0 };
	struct diags d;
	struct md_object *objs;

	diags_init(&d, a);
	if (text)
		yamlio_load(&docs, a, &d, path, text, len, NULL);
	objs = arena_alloc(a, (docs.count + 1) * sizeof(*objs));
	for (size_t i = 0; i < docs.count; i++) {
		struct node *n = docs.docs[i];
		const char *kind = node_str(node_map_get(n, "kind"));
		const char *ns = node_str(node_path(n, "metadata.namespace"));
		const char *name = node_str(node_path(n, "metadata.name"));

		memset(&objs[i], 0, sizeof(objs[i]));
		objs[i].obj.kind = kind ? kind : "";
		objs[i].obj.api_version = node_str(node_map_get(n, "apiVersion"));
		objs[i].obj.namespace = ns ? ns : "";
		objs[i].obj.name = name ? name : "";
		objs[i].obj.obj = n;
		/* the site column of the table: the object's own site label */
		objs[i].obj.site =
			node_str(node_map_get(node_path(n, "metadata.labels"), INV_SITE_LABEL));
		objs[i].key =
			ns && *ns ? arena_printf(a, "%s/%s/%s", objs[i].obj.kind, ns,
						 objs[i].obj.name)
				  : arena_printf(a, "%s/%s", objs[i].obj.kind, objs[i].obj.name);
	}
	*out = objs;
	return docs.count;
}

static const struct source_file *
old_file(const struct source_set *old, const char *path)
{
	for (size_t i = 0; i < old->count; i++)
		if (!strcmp(old->files[i].path, path))
			return &old->files[i];
	return NULL;
}

/* One item of the result: `left` or `right` may be NULL (added, removed). */
static int
add_item(struct md_result *m, struct arena *a, const char *dir, const struct md_object *left,
	 const struct md_object *right)
{
	const struct md_object *o = right ? right : left;
	struct diff_item *it;
	struct node *l = left ? node_clone(a, left->obj.obj) : NULL;
	struct node *r = right ? node_clone(a, right->obj.obj) : NULL;
	struct buf b = BUF_INIT;
	const char *key = arena_printf(a, "%s %s", dir, o->key);
	int differ;

	if (l)
		diff_revisions_redact(a, l);
	if (r)
		diff_revisions_redact(a, r);
	buf_init(&b, DIFF_REVISIONS_CAP);
	differ = diff_objects(&b, l, r, arena_printf(a, "a/%s", key), arena_printf(a, "b/%s", key));
	if (differ < 0) {
		buf_release(&b);
		return -1;
	}
	ARENA_GROW(a, m->r.items, m->r.count, m->alloc, 16);
	it = &m->r.items[m->r.count++];
	memset(it, 0, sizeof(*it));
	it->obj = &o->obj;
	it->key = key;
	it->change = !left ? DIFF_ADDED : !right ? DIFF_REMOVED : differ ? DIFF_CHANGED : DIFF_SAME;
	it->diff = arena_strndup(a, b.data, b.len);
	it->len = b.len;
	for (const char *p = it->diff; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		it->plus += p[0] == '+' && strncmp(p, "+++ ", 4);
		it->minus += p[0] == '-' && strncmp(p, "--- ", 4);
	}
	m->r.n[it->change]++;
	buf_release(&b);
	return 0;
}

/* The objects of one changed manifest, matched by key. */
static int
compare_manifest(struct md_result *res, struct arena *a, const struct source_set *old,
		 const struct source_tree_file *now, const char *path)
{
	const struct source_file *of = old_file(old, path);
	struct md_object *lo, *ro;
	size_t nl = read_objects(&lo, a, path, of ? of->data : NULL, of ? of->len : 0);
	size_t nr = read_objects(&ro, a, path, now ? now->data : NULL, now ? now->len : 0);
	const char *dir =
		arena_strndup(a, path + strlen("clusters/"),
			      strlen(path) - strlen("clusters/") - strlen("/" HYDRATE_MANIFEST));
	int rc = 0;

	for (size_t j = 0; j < nr && !rc; j++) {
		const struct md_object *match = NULL;

		for (size_t i = 0; i < nl && !match; i++)
			if (!strcmp(lo[i].key, ro[j].key))
				match = &lo[i];
		rc = add_item(res, a, dir, match, &ro[j]);
	}
	for (size_t i = 0; i < nl && !rc; i++) {
		bool kept = false;

		for (size_t j = 0; j < nr && !kept; j++)
			kept = !strcmp(lo[i].key, ro[j].key);
		if (!kept)
			rc = add_item(res, a, dir, &lo[i], NULL);
	}
	return rc;
}

static bool
is_manifest(const char *path)
{
	size_t n = strlen(path), m = strlen("/" HYDRATE_MANIFEST);

	return !strncmp(path, "clusters/", 9) && n > m &&
	       !strcmp(path + n - m, "/" HYDRATE_MANIFEST);
}

int
hydrate_markdown(struct arena *a, const struct hydrate_options *o,
		 const struct source_branch_res *res, const struct hydrate_change *ch, size_t n,
		 const struct source_tree_file *files, size_t nfiles, const char *source)
{
	struct md_result dr;
	struct buf b = BUF_INIT;
	int rc = 0;

	memset(&dr, 0, sizeof(dr));
	dr.r.base = res->parent[0] ? arena_printf(a, "%s@%.12s", o->branch, res->parent)
				   : arena_printf(a, "%s (new)", o->branch);
	dr.r.head = arena_printf(a, "%.12s", source);
	dr.r.title =
		arena_printf(a, "gpusite hydrate: what the commit on %s would change", o->branch);
	for (size_t i = 0; i < n && !rc; i++) {
		const struct source_tree_file *now = NULL;

		if (!is_manifest(ch[i].path))
			continue;
		for (size_t k = 0; k < nfiles && !now; k++)
			if (!strcmp(files[k].path, ch[i].path))
				now = &files[k];
		rc = compare_manifest(&dr, a, &res->old, now, ch[i].path);
	}
	buf_init(&b, DIFF_REVISIONS_CAP);
	if (!rc)
		rc = report_diff_markdown(&b, a, &dr.r, REPORT_DIFF_COMMENT_BUDGET);
	if (!rc)
		fwrite(b.data, 1, b.len, stdout);
	buf_release(&b);
	return rc ? -1 : 0;
}
