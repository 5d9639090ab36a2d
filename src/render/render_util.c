/*
 * render_util.c - the object envelope, label maps and quoting shared by
 * every artifact kind.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "render/render_util.h"

static const struct pos no_pos = POS_NONE;

void
render_kvs_add(struct arena *a, struct render_kvs *kv, const char *key, const char *value)
{
	ARENA_GROW(a, kv->items, kv->count, kv->alloc, 8);
	kv->items[kv->count].key = key;
	kv->items[kv->count].value = value;
	kv->items[kv->count].src = NULL;
	kv->count++;
}

/* Insertion sort: stable, so among equal keys the last added stays last. */
void
render_kvs_sort(struct render_kvs *kv)
{
	size_t i, j, out;

	for (i = 1; i < kv->count; i++) {
		struct spec_kv cur = kv->items[i];

		for (j = i; j > 0 && strcmp(kv->items[j - 1].key, cur.key) > 0; j--)
			kv->items[j] = kv->items[j - 1];
		kv->items[j] = cur;
	}
	/* A later value for the same key replaces the earlier one. */
	for (i = 0, out = 0; i < kv->count; i++) {
		if (i + 1 < kv->count && !strcmp(kv->items[i].key, kv->items[i + 1].key))
			continue;
		kv->items[out++] = kv->items[i];
	}
	kv->count = out;
}

struct node *
render_kvs_node(struct arena *a, struct render_kvs *kv)
{
	struct node *m = node_new_map(a, no_pos);

	render_kvs_sort(kv);
	for (size_t i = 0; i < kv->count; i++)
		node_map_add_str(a, m, kv->items[i].key, kv->items[i].value);
	return m;
}

struct render_object *
render_object_add(struct render_ctx *ctx, const struct render_kind *k, const char *api_version,
		  const char *kind, const char *ns, const char *name, const char *site,
		  const char *cluster, const struct render_kvs *extra, const char *purpose)
{
	struct arena *a = ctx->arena;
	struct render_result *r = ctx->out;
	struct render_object *o;
	struct render_kvs labels = { NULL, 0, 0 };
	struct node *obj, *meta;

	ARENA_GROW(a, r->objects, r->count, r->alloc, 16);
	o = &r->objects[r->count++];
	memset(o, 0, sizeof(*o));
	o->rank = k->rank;
	o->api_version = api_version ? api_version : k->api_version;
	o->kind = kind ? kind : k->kind;
	o->namespace = ns ? ns : "";
	o->name = name;
	o->site = site;
	o->cluster = cluster;
	o->purpose = purpose;

	if (extra)
		for (size_t i = 0; i < extra->count; i++)
			render_kvs_add(a, &labels, extra->items[i].key, extra->items[i].value);
	/* The tool's own labels win over any extra label of the same key. */
	render_kvs_add(a, &labels, INV_MANAGED_BY_KEY, INV_MANAGED_BY);
	if (site)
		render_kvs_add(a, &labels, INV_SITE_LABEL, site);
	else if (cluster)
		render_kvs_add(a, &labels, INV_CLUSTER_LABEL, cluster);

	obj = node_new_map(a, no_pos);
	node_map_add_str(a, obj, "apiVersion", o->api_version);
	node_map_add_str(a, obj, "kind", o->kind);
	meta = node_map_add(a, obj, "metadata", node_new_map(a, no_pos));
	node_map_add_str(a, meta, "name", name);
	if (o->namespace[0])
		node_map_add_str(a, meta, "namespace", o->namespace);
	node_map_add(a, meta, "labels", render_kvs_node(a, &labels));
	o->obj = obj;
	return o;
}

void
render_object_annotate(struct arena *a, struct render_object *o, const char *key, const char *value)
{
	struct node *meta = node_map_get(o->obj, "metadata");
	struct node *ann = node_map_get(meta, "annotations");

	if (!ann)
		ann = node_map_add(a, meta, "annotations", node_new_map(a, no_pos));
	node_map_set(a, ann, key, node_new_str(a, no_pos, value));
}

void
render_file_add(struct render_ctx *ctx, enum render_file_kind kind, const char *path,
		const char *site, struct node *doc, bool has_secret)
{
	struct render_result *r = ctx->out;
	struct render_file *f;

	ARENA_GROW(ctx->arena, r->files, r->file_count, r->file_alloc, 8);
	f = &r->files[r->file_count++];
	f->kind = kind;
	f->path = path;
	f->site = site;
	f->doc = doc;
	f->has_secret = has_secret;
	f->text = NULL;
	f->text_len = 0;
}

void
render_file_add_text(struct render_ctx *ctx, enum render_file_kind kind, const char *path,
		     const char *site, struct node *doc, const char *text, size_t text_len)
{
	struct render_file *f;

	render_file_add(ctx, kind, path, site, doc, false);
	f = &ctx->out->files[ctx->out->file_count - 1];
	f->text = text;
	f->text_len = text_len;
}

struct node *
render_toleration(struct arena *a, const char *key, const char *op, const char *value,
		  const char *effect, int64_t seconds)
{
	struct node *t = node_new_map(a, no_pos);

	if (key)
		node_map_add_str(a, t, "key", key);
	node_map_add_str(a, t, "operator", op);
	if (value && value[0])
		node_map_add_str(a, t, "value", value);
	if (effect && effect[0])
		node_map_add_str(a, t, "effect", effect);
	if (seconds >= 0)
		node_map_add_int(a, t, "tolerationSeconds", seconds);
	return t;
}

struct node *
render_toleration_taint(struct arena *a, const struct spec_taint *t)
{
	struct node *n = node_new_map(a, no_pos);

	node_map_add_str(a, n, "key", t->key);
	if (t->value && t->value[0])
		node_map_add_str(a, n, "value", t->value);
	node_map_add_str(a, n, "effect", t->effect);
	return n;
}

struct node *
render_str_seq(struct arena *a, const char *const *items, size_t n)
{
	struct node *s = node_new_seq(a, no_pos);

	for (size_t i = 0; i < n; i++)
		node_seq_push(a, s, node_new_str(a, no_pos, items[i]));
	return s;
}

struct node *
render_requirement(struct arena *a, const char *key, const char *op, const char *const *values,
		   size_t n)
{
	struct node *r = node_new_map(a, no_pos);

	node_map_add_str(a, r, "key", key);
	node_map_add_str(a, r, "operator", op);
	if (values)
		node_map_add(a, r, "values", render_str_seq(a, values, n));
	return r;
}

const char *
render_taint_text(struct arena *a, const struct spec_taint *t)
{
	if (t->value && t->value[0])
		return arena_printf(a, "%s=%s:%s", t->key, t->value, t->effect);
	return arena_printf(a, "%s:%s", t->key, t->effect);
}

/* Escape into a fresh arena string: `open`, s with escapes, `close`. */
static const char *
quote_with(struct arena *a, const char *s, char q, const char *open, const char *close)
{
	size_t n = strlen(s), len = 0;
	char *out = arena_alloc(a, n * 6 + strlen(open) + strlen(close) + 1);

	memcpy(out, open, strlen(open));
	len = strlen(open);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == (unsigned char)q || *p == '\\') {
			out[len++] = '\\';
			out[len++] = (char)*p;
		} else if (*p == '\n') {
			out[len++] = '\\';
			out[len++] = 'n';
		} else if (*p == '\t') {
			out[len++] = '\\';
			out[len++] = 't';
		} else if (*p < 0x20 || *p == 0x7f) {
			len += (size_t)snprintf(out + len, 7, "\\u%04x", *p);
		} else {
			out[len++] = (char)*p;
		}
	}
	memcpy(out + len, close, strlen(close));
	len += strlen(close);
	out[len] = '\0';
	return out;
}

const char *
render_quote(struct arena *a, const char *s)
{
	return quote_with(a, s, '"', "\"", "\"");
}

const char *
render_jp_raw(struct arena *a, const char *s)
{
	return quote_with(a, s, '\'', "'", "'");
}

const char *
render_promql_alt(struct arena *a, const char *const *items, size_t n)
{
	static const char meta[] = "\\.+*?()|[]{}^$";
	size_t cap = 1, len = 0;
	char *out;

	for (size_t i = 0; i < n; i++)
		cap += strlen(items[i]) * 2 + 1;
	out = arena_alloc(a, cap);
	for (size_t i = 0; i < n; i++) {
		if (i)
			out[len++] = '|';
		for (const char *p = items[i]; *p; p++) {
			if (strchr(meta, *p))
				out[len++] = '\\';
			out[len++] = *p;
		}
	}
	out[len] = '\0';
	return out;
}

const char *
render_itoa(struct arena *a, int64_t v)
{
	return arena_printf(a, "%" PRId64, v);
}

/* syncPolicy.retry: {limit, backoff: {duration, factor, maxDuration}},
 * each as written. */
static void
add_retry(struct arena *a, struct node *sync, const struct spec_sync_policy *sp)
{
	struct node *r = node_map_add(a, sync, "retry", node_new_map(a, no_pos)), *b;

	if (sp->retry_limit_set)
		node_map_add(a, r, "limit", node_new_int(a, no_pos, sp->retry_limit));
	if (!sp->backoff_duration && !sp->backoff_max_duration && !sp->backoff_factor)
		return;
	b = node_map_add(a, r, "backoff", node_new_map(a, no_pos));
	if (sp->backoff_duration)
		node_map_add_str(a, b, "duration", sp->backoff_duration);
	if (sp->backoff_factor)
		node_map_add(a, b, "factor", node_new_int(a, no_pos, sp->backoff_factor));
	if (sp->backoff_max_duration)
		node_map_add_str(a, b, "maxDuration", sp->backoff_max_duration);
}

void
render_helm_app_spec(struct arena *a, struct node *obj, const struct spec_argocd *ad,
		     const struct render_helm_app *app)
{
	struct node *spec, *src, *helm, *dst, *sync, *opts;

	spec = node_map_add(a, obj, "spec", node_new_map(a, no_pos));
	node_map_add_str(a, spec, "project", ad->project ? ad->project : "default");
	src = node_map_add(a, spec, "source", node_new_map(a, no_pos));
	node_map_add_str(a, src, "repoURL", app->repo_url);
	node_map_add_str(a, src, "chart", app->chart);
	node_map_add_str(a, src, "targetRevision", app->version);
	helm = node_map_add(a, src, "helm", node_new_map(a, no_pos));
	node_map_add_str(a, helm, "releaseName", app->release);
	node_map_add(a, helm, "valuesObject", app->values);
	dst = node_map_add(a, spec, "destination", node_new_map(a, no_pos));
	if (ad->destination_name)
		node_map_add_str(a, dst, "name", ad->destination_name);
	else if (ad->destination_server_set && ad->destination_server)
		node_map_add_str(a, dst, "server", ad->destination_server);
	else if (app->hub && app->cluster && *app->cluster)
		node_map_add_str(a, dst, "name", app->cluster);
	else
		node_map_add_str(a, dst, "server",
				 ad->destination_server ? ad->destination_server
							: "https://kubernetes.default.svc");
	node_map_add_str(a, dst, "namespace", app->namespace);
	sync = node_map_add(a, spec, "syncPolicy", node_new_map(a, no_pos));
	if (ad->sync.automated) {
		struct node *au = node_map_add(a, sync, "automated", node_new_map(a, no_pos));

		node_map_add_bool(a, au, "prune", ad->sync.prune);
		node_map_add_bool(a, au, "selfHeal", ad->sync.self_heal);
	}
	opts = node_map_add(a, sync, "syncOptions", node_new_seq(a, no_pos));
	node_seq_push(a, opts, node_new_str(a, no_pos, "CreateNamespace=true"));
	if (ad->sync.retry)
		add_retry(a, sync, &ad->sync);
}
