/*
 * check_misc.c - ConfigMap (keys, size, the NodeConfigs published in the
 * gpusite-nodeconfig ConfigMap) and Argo CD Application (pinned chart
 * source, destination) as the API server and Argo CD judge them.
 */
#include <string.h>

#include "inventory/inventory_labels.h"
#include "base/arena.h"
#include "check/check_int.h"
#include "yamlio/yamlio.h"

#define CONFIGMAP_MAX_BYTES (1u << 20) /* core/v1 validation: data + binaryData */

/* IsConfigMapKey: [-._a-zA-Z0-9]+, at most 253, not "." / ".." / "..x". */
static bool
configmap_key_ok(const char *k)
{
	size_t n = k ? strlen(k) : 0;

	if (!n || n > 253 || !strcmp(k, ".") || !strncmp(k, "..", 2))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((k[i] >= 'a' && k[i] <= 'z') || (k[i] >= 'A' && k[i] <= 'Z') ||
		      (k[i] >= '0' && k[i] <= '9') || k[i] == '-' || k[i] == '_' || k[i] == '.'))
			return false;
	return true;
}

void
check_configmap(struct check_ctx *c)
{
	static const char *const fields[] = { "data", "binaryData" };
	const struct node *data = node_map_get(c->obj, "data");
	const struct node *bin = node_map_get(c->obj, "binaryData");
	size_t total = 0;

	for (size_t f = 0; f < 2; f++) {
		const struct node *m = f ? bin : data;

		for (size_t i = 0; m && m->kind == NODE_MAP && i < m->map.count; i++) {
			const char *k = node_text(m->map.pairs[i].key);
			const char *v = check_text(m->map.pairs[i].value);
			const char *path = check_path(c, fields[f], k);

			if (!configmap_key_ok(k))
				check_report(c, CHECK_CM_DATA, m->map.pairs[i].key, path,
					     "ConfigMap key \"%s\" is not valid: keys are at most "
					     "253 characters of [-._a-zA-Z0-9] and not '.' or '..'",
					     k);
			if (!node_is_str(m->map.pairs[i].value) &&
			    !node_is_null(m->map.pairs[i].value))
				check_report(c, CHECK_CM_DATA, m->map.pairs[i].value, path,
					     "ConfigMap %s \"%s\" is not a string: the API server "
					     "rejects it; quote it",
					     fields[f], k);
			if (f && data && node_map_get(data, k))
				check_report(c, CHECK_CM_DATA, m->map.pairs[i].key, path,
					     "ConfigMap key \"%s\" is in both data and binaryData",
					     k);
			total += strlen(k) + (v ? strlen(v) : 0);
		}
	}
	if (total > CONFIGMAP_MAX_BYTES)
		check_report(c, CHECK_CM_DATA, data ? data : bin, "data",
			     "the ConfigMap holds %zu bytes, over the 1 MiB the API server "
			     "accepts: split it",
			     total);
}

static bool
is_nodeconfig_configmap(const struct node *cm)
{
	const char *name = node_str(node_path(cm, "metadata.name"));

	return name && !strncmp(name, INV_NODECONFIG_MAP_PREFIX, strlen(INV_NODECONFIG_MAP_PREFIX));
}

void
check_configmap_nodeconfigs(struct check_ctx *c, struct check_upstream *u)
{
	const struct node *data = node_map_get(c->obj, "data");

	if (!is_nodeconfig_configmap(c->obj))
		return;
	for (size_t i = 0; data && data->kind == NODE_MAP && i < data->map.count; i++) {
		const struct node *v = data->map.pairs[i].value;
		const char *k = node_text(data->map.pairs[i].key);
		const char *text = node_str(v), *path = check_path(c, "data", k);
		struct yamlio_docs docs;
		size_t before = c->d->count;
		struct check_ctx e = { c->a, c->d, NULL, "", true, 0 };
		int r = 0;

		if (!text)
			continue;
		if (yamlio_load(&docs, c->a, c->d, v->at.file, text, strlen(text), NULL) < 0 ||
		    docs.count != 1) {
			/* the parser's own diagnostics stay; say which key */
			check_report(c, CHECK_CM_DATA, v, path,
				     "ConfigMap key \"%s\" should hold one NodeConfig document and "
				     "does not parse as one",
				     k);
		} else {
			const char *kind = node_str(node_map_get(docs.docs[0], "kind"));

			e.obj = docs.docs[0];
			if (!kind || strcmp(kind, "NodeConfig")) {
				check_report(c, CHECK_CM_DATA, v, path,
					     "ConfigMap key \"%s\" holds a %s, not a NodeConfig", k,
					     kind ? kind : "document without kind");
			} else {
				check_nodeconfig(&e);
				if (u)
					r = check_upstream_validate(u, c->a, c->d, e.obj);
			}
		}
		/* positions inside the string mean nothing in the file: point
		 * at the value, and put the key in front of the path */
		for (size_t j = before; j < c->d->count; j++) {
			struct diag *g = &c->d->items[j];

			g->at = v->at;
			g->path = arena_printf(c->a, "%s%s%s", path, *g->path ? "." : "", g->path);
			if (g->level == DIAG_ERROR && c->rc == 0)
				c->rc = -1;
		}
		if (r == -3)
			c->rc = -3;
	}
}

/* Argo CD: a chart source needs one exact version, not a range. */
static const char *
revision_problem(const char *rev)
{
	size_t core;

	if (!rev || !*rev)
		return "is empty (Argo CD would follow the newest chart)";
	if (!strcmp(rev, "HEAD") || !strcmp(rev, "latest"))
		return "follows whatever is newest";
	if (strpbrk(rev, "*^~<>|=, "))
		return "is a range";
	/* 1.x, 1.2.X: a wildcard component before any -pre or +build */
	core = strcspn(rev, "-+");
	for (size_t i = 0; i < core; i++)
		if ((rev[i] == 'x' || rev[i] == 'X') && (i == 0 || rev[i - 1] == '.') &&
		    (i + 1 == core || rev[i + 1] == '.'))
			return "is a range";
	return NULL;
}

void
check_application(struct check_ctx *c)
{
	const struct node *spec = node_map_get(c->obj, "spec");
	const struct node *src = node_map_get(spec, "source");
	const struct node *srcs = node_map_get(spec, "sources");
	const struct node *dest = node_map_get(spec, "destination");
	const char *server = check_text(node_map_get(dest, "server"));
	const char *name = check_text(node_map_get(dest, "name"));

	if ((src && !node_is_null(src)) == (check_seq_count(srcs) > 0))
		check_report(c, CHECK_APP, spec, "spec.source",
			     "an Application needs exactly one of spec.source and spec.sources");
	if (src && node_map_get(src, "chart")) {
		const struct node *tr = node_map_get(src, "targetRevision");
		const char *rev = check_text(tr), *why = revision_problem(rev);

		if (why)
			check_report(
				c, CHECK_APP, tr ? tr : src, "spec.source.targetRevision",
				"chart %s targetRevision \"%s\" %s: pin one exact chart version",
				check_text(node_map_get(src, "chart")), rev ? rev : "", why);
		if (node_map_get(src, "path"))
			check_report(c, CHECK_APP, node_map_get(src, "path"), "spec.source.path",
				     "a Helm chart source takes chart, not path");
	}
	if ((server && *server) && (name && *name))
		check_report(c, CHECK_APP, dest, "spec.destination",
			     "the destination needs exactly one of server and name: Argo CD "
			     "refuses the Application (\"application destination can't have both "
			     "name and server defined\")");
	else if (!(server && *server) && !(name && *name))
		check_report(c, CHECK_APP, dest ? dest : spec, "spec.destination",
			     "the destination needs exactly one of server and name: it names no "
			     "cluster");
}
