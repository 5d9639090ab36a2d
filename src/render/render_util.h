/*
 * render_util.h - helpers shared by the render_<kind>.c files: the object
 * envelope (apiVersion, kind, metadata), label maps, tolerations, and
 * quoting for the expression languages the policies and alerts embed.
 * Everything is allocated in the run's arena.
 */
#ifndef GS_RENDER_UTIL_H
#define GS_RENDER_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "inventory/inventory.h"
#include "render/render.h"

/* The facts of an Argo CD Application for a struct render_kind: the GPU
 * stack and the fallback device plugin are both Applications. */
#define RENDER_KIND_APPLICATION                                                                    \
	.kind = "Application", .api_version = "argoproj.io/v1alpha1",                              \
	.rank = RENDER_RANK_APPLICATION, .group = "argoproj.io", .version = "v1alpha1",            \
	.plural = "applications", .namespaced = true, .crd = "argocd/application-crd.yaml",        \
	.live = true

/* A label (or any string) map under construction; render_kvs_node()
 * writes it sorted by key, a later value replacing an earlier one. */
struct render_kvs {
	struct spec_kv *items;
	size_t count;
	size_t alloc;
};

void render_kvs_add(struct arena *a, struct render_kvs *kv, const char *key, const char *value);
/* Sort by key (byte order) and drop earlier duplicates. */
void render_kvs_sort(struct render_kvs *kv);
struct node *render_kvs_node(struct arena *a, struct render_kvs *kv);

/*
 * Start an object: {apiVersion, kind, metadata: {name, namespace (when
 * not ""), labels}} with the labels every object carries
 * (app.kubernetes.io/managed-by, and gpusite.io/site = site or, for
 * per-cluster objects (site NULL), gpusite.io/cluster = cluster) plus
 * `extra` labels.  The object is appended to ctx->out; the caller adds
 * spec / data after it.  The key order of every object starts here.
 */
struct render_object *render_object_add(struct render_ctx *ctx, const struct render_kind *k,
					const char *api_version, const char *kind, const char *ns,
					const char *name, const char *site, const char *cluster,
					const struct render_kvs *extra, const char *purpose);

/* metadata.annotations[key] = value (after labels). */
void render_object_annotate(struct arena *a, struct render_object *o, const char *key,
			    const char *value);

/* Append a file for --nodeconfigs / --values. */
void render_file_add(struct render_ctx *ctx, enum render_file_kind kind, const char *path,
		     const char *site, struct node *doc, bool has_secret);
/* The same, with doc's YAML (as emit_document() writes it) already
 * made: the file is written from `text` and doc is not emitted again. */
void render_file_add_text(struct render_ctx *ctx, enum render_file_kind kind, const char *path,
			  const char *site, struct node *doc, const char *text, size_t text_len);

/* {key, operator, value, effect, tolerationSeconds}; NULL / "" value and
 * effect and seconds < 0 are left out. */
struct node *render_toleration(struct arena *a, const char *key, const char *op, const char *value,
			       const char *effect, int64_t seconds);

/* A taint {key, value, effect} (value left out when empty). */
struct node *render_toleration_taint(struct arena *a, const struct spec_taint *t);

/* A sequence of strings. */
struct node *render_str_seq(struct arena *a, const char *const *items, size_t n);

/* {key, operator, values: [values...]} (a node selector requirement). */
struct node *render_requirement(struct arena *a, const char *key, const char *op,
				const char *const *values, size_t n);

/* "key=value:effect" or "key:effect" (kubelet --register-with-taints). */
const char *render_taint_text(struct arena *a, const struct spec_taint *t);

/* A double-quoted string literal valid in CEL, JMESPath (as JSON) and
 * PromQL: `"`, `\` and control characters escaped. */
const char *render_quote(struct arena *a, const char *s);

/* A single-quoted JMESPath raw string literal ('...', `'` escaped). */
const char *render_jp_raw(struct arena *a, const char *s);

/* A PromQL regex alternation of literal strings ("a|b"), metacharacters
 * escaped for RE2. */
const char *render_promql_alt(struct arena *a, const char *const *items, size_t n);

/* The chart one Argo CD Application installs with Helm. */
struct render_helm_app {
	const char *repo_url, *chart, *version; /* version: the pin */
	const char *release;                    /* helm.releaseName */
	struct node *values;                    /* helm.valuesObject */
	const char *namespace;                  /* destination namespace */
	const char *cluster;                    /* spec.cluster.name */
	bool hub;                               /* render_options.argocd_hub */
};

/* Add the `spec` of such an Application to `obj`: project, the pinned
 * source, the destination and CreateNamespace.  The destination is the
 * spec's argocd.destinationName, else its destinationServer, else for a
 * hub Argo CD (`hub`) `name: <cluster>`, else the cluster Argo CD runs
 * in (https://kubernetes.default.svc). */
void render_helm_app_spec(struct arena *a, struct node *obj, const struct spec_argocd *ad,
			  const struct render_helm_app *app);

/* Text of an int64. */
const char *render_itoa(struct arena *a, int64_t v);

#endif
