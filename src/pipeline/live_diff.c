/*
 * live_diff.c - the comparison of `diff --live`: each rendered object
 * against the live one (diff_normalize(), diff_live_subset(),
 * diff_mask_secrets(), diff_objects()), then every kind a descriptor marks
 * `live` listed by the managed-by label for objects no longer rendered.
 */
#include <stdio.h>
#include <string.h>

#include "inventory/inventory.h"
#include "base/arena.h"
#include "base/buf.h"
#include "diff/diff.h"
#include "kube/kube.h"
#include "node/node.h"
#include "pipeline/live.h"
#include "pipeline/live_diff.h"
#include "render/render.h"
#include "spec/spec.h"

#define MANAGED_SELECTOR "app.kubernetes.io/managed-by=gpusite"

/* Live objects no longer rendered, as they are listed. */
struct stale {
	struct arena *a;
	struct live_run *run;
	const char *api_version;
	const char *kind;
	struct node **items;
	size_t count;
	size_t alloc;
	size_t kept; /* items of the kinds listed before */
};

static const char *
meta(const struct node *obj, const char *key)
{
	const char *s = node_str(node_map_get(node_map_get(obj, "metadata"), key));

	return s ? s : "";
}

static bool
is_rendered(const struct live_run *run, const char *kind, const char *ns, const char *name)
{
	for (size_t i = 0; i < run->rendered.count; i++) {
		const struct render_object *o = &run->rendered.objects[i];

		if (!strcmp(o->kind, kind) && !strcmp(o->namespace ? o->namespace : "", ns) &&
		    !strcmp(o->name, name))
			return true;
	}
	return false;
}

/* An object of another cluster's site (or of another cluster) is not ours
 * to call removed. */
static bool
of_this_cluster(const struct live_run *run, const struct node *obj)
{
	const struct node *labels = node_map_get(node_map_get(obj, "metadata"), "labels");
	const char *site = node_str(node_map_get(labels, INV_SITE_LABEL));
	const char *cluster = node_str(node_map_get(labels, INV_CLUSTER_LABEL));

	if (cluster && strcmp(cluster, run->cluster))
		return false;
	if (site) {
		const struct spec_site *s = spec_fleet_find(&run->p.fleet, site);

		if (s && s->cluster.name && strcmp(s->cluster.name, run->cluster))
			return false;
	}
	return true;
}

static int
stale_item(void *payload, const struct node *item)
{
	struct stale *st = payload;
	const char *ns = meta(item, "namespace"), *name = meta(item, "name");

	if (is_rendered(st->run, st->kind, ns, name) || !of_this_cluster(st->run, item))
		return 0;
	for (size_t i = 0; i < st->count; i++) {
		const char *k = node_str(node_map_get(st->items[i], "kind"));

		if (!strcmp(meta(st->items[i], "namespace"), ns) &&
		    !strcmp(meta(st->items[i], "name"), name) && k && !strcmp(k, st->kind))
			return 0; /* served in two versions: listed already */
	}
	ARENA_GROW(st->a, st->items, st->count, st->alloc, 8);
	st->items[st->count] = node_clone(st->a, item);
	/* items of built-in lists carry no apiVersion and kind */
	node_map_set(st->a, st->items[st->count], "apiVersion",
		     node_new_str(st->a, (struct pos)POS_NONE, st->api_version));
	node_map_set(st->a, st->items[st->count], "kind",
		     node_new_str(st->a, (struct pos)POS_NONE, st->kind));
	st->count++;
	return 0;
}

static void
stale_restart(void *payload)
{
	struct stale *st = payload;

	st->count = st->kept; /* drop this kind's items, keep earlier kinds' */
}

/* Each rendered object against its live counterpart. */
static int
compare_rendered(const struct render_object **failed, struct live_run *r, struct buf *one,
		 const struct live_diff_cb *cb)
{
	struct arena *a = r->arena;

	for (size_t i = 0; i < r->rendered.count; i++) {
		const struct render_object *ro = &r->rendered.objects[i];
		struct live_diff_object d = {
			.api_version = ro->api_version,
			.kind = ro->kind,
			.ns = ro->namespace ? ro->namespace : "",
			.name = ro->name,
		};
		struct node *live = NULL, *l = NULL, *rn;
		int rc;

		rc = kube_get(&live, r->kube, a, ro->api_version, ro->kind, d.ns, ro->name);
		if (rc == KUBE_EFAIL)
			return LIVE_DIFF_EKUBE;
		rn = diff_normalize(a, ro->obj);
		if (rc == 0)
			l = diff_live_subset(a, diff_normalize(a, live), rn);
		diff_mask_secrets(a, l, rn);
		buf_reset(one);
		rc = diff_objects(one, l, rn, live_label(a, "live", ro->kind, d.ns, ro->name),
				  live_label(a, "rendered", ro->kind, d.ns, ro->name));
		if (rc < 0) {
			*failed = ro;
			return LIVE_DIFF_ECOMPARE;
		}
		d.change = !l ? LIVE_ADDED : rc ? LIVE_CHANGED : LIVE_SAME;
		d.text = one->data;
		d.len = one->len;
		if (cb->object(cb->payload, &d) < 0)
			return LIVE_DIFF_EOUTPUT;
	}
	return 0;
}

/* Every kind gpusite renders (the descriptors' APIs) and marks `live`:
 * where to look for objects it no longer renders. */
static int
list_stale(struct stale *st)
{
	const struct render_api *const *apis;
	size_t napis = render_apis(&apis);
	struct kube_list_cb cb = { stale_item, stale_restart, st };

	for (size_t k = 0; k < napis; k++) {
		const char *av = *apis[k]->group ? arena_printf(st->a, "%s/%s", apis[k]->group,
								apis[k]->version)
						 : apis[k]->version;
		struct kube_list_query q = { av, apis[k]->kind, NULL, MANAGED_SELECTOR, NULL, 0 };
		int rc;

		if (!apis[k]->live)
			continue;

		st->api_version = av;
		st->kind = apis[k]->kind;
		st->kept = st->count;
		rc = kube_list(st->run->kube, &q, &cb);
		if (rc == KUBE_ENOTFOUND)
			continue; /* not served: nothing of it to remove */
		if (rc < 0)
			return LIVE_DIFF_EKUBE;
	}
	return 0;
}

/* The live objects no longer rendered, each shown whole as removed. */
static int
compare_stale(struct live_run *r, struct buf *one, const struct live_diff_cb *cb)
{
	struct arena *a = r->arena;
	struct stale st = { a, r, NULL, NULL, NULL, 0, 0, 0 };
	int rc = list_stale(&st);

	if (rc < 0)
		return rc;
	for (size_t i = 0; i < st.count; i++) {
		struct live_diff_object d = {
			.api_version = node_str(node_map_get(st.items[i], "apiVersion")),
			.kind = node_str(node_map_get(st.items[i], "kind")),
			.ns = meta(st.items[i], "namespace"),
			.name = meta(st.items[i], "name"),
			.change = LIVE_REMOVED,
		};
		struct node *l = diff_normalize(a, st.items[i]);

		diff_mask_secrets(a, l, NULL);
		buf_reset(one);
		if (diff_objects(one, l, NULL, live_label(a, "live", d.kind, d.ns, d.name),
				 live_label(a, "rendered", d.kind, d.ns, d.name)) < 0)
			return LIVE_DIFF_EOUTPUT;
		d.text = one->data;
		d.len = one->len;
		if (cb->object(cb->payload, &d) < 0)
			return LIVE_DIFF_EOUTPUT;
	}
	return 0;
}

int
live_diff_compare(const struct render_object **failed, struct live_run *r, size_t cap,
		  const struct live_diff_cb *cb)
{
	struct buf one = BUF_INIT;
	int rc;

	buf_init(&one, cap);
	rc = compare_rendered(failed, r, &one, cb);
	if (rc == 0)
		rc = compare_stale(r, &one, cb);
	buf_release(&one);
	return rc;
}
