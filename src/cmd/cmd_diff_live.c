/*
 * cmd_diff_live.c - `gpusite diff --live`: the rendered objects of the
 * cluster's sites against their live counterparts, normalised, one
 * unified diff per object.  GET and LIST only.
 */
#include <stdio.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "cmd/cmd.h"
#include "cmd/opts_live.h"
#include "pipeline/live.h"
#include "diff/diff.h"
#include "json/json.h"
#include "kube/kube.h"
#include "node/node.h"
#include "render/render.h"

#define DIFF_CAP ((size_t)1 << 30)

#define MANAGED_SELECTOR "app.kubernetes.io/managed-by=gpusite"

enum change { SAME, CHANGED, ADDED, REMOVED };

struct tally {
	size_t changed, added, removed, same;
};

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
	const char *site = node_str(node_map_get(labels, "gpusite.io/site"));
	const char *cluster = node_str(node_map_get(labels, "gpusite.io/cluster"));

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

static void
add_json(struct arena *a, struct node *list, const char *api_version, const char *kind,
	 const char *ns, const char *name, enum change c, const char *text)
{
	static const char *const names[] = { "unchanged", "changed", "added", "removed" };
	struct node *o = node_new_map(a, (struct pos)POS_NONE);

	node_map_add_str(a, o, "apiVersion", api_version);
	node_map_add_str(a, o, "kind", kind);
	if (ns && *ns)
		node_map_add_str(a, o, "namespace", ns);
	node_map_add_str(a, o, "name", name);
	node_map_add_str(a, o, "status", names[c]);
	if (c != SAME)
		node_map_add_str(a, o, "diff", text);
	node_seq_push(a, list, o);
}

static void
count(struct tally *t, enum change c)
{
	if (c == CHANGED)
		t->changed++;
	else if (c == ADDED)
		t->added++;
	else if (c == REMOVED)
		t->removed++;
	else
		t->same++;
}

int
diff_live_run(const struct opts *o, const struct live_opts *lo, bool json)
{
	struct arena a = ARENA_INIT;
	struct live_run run;
	struct buf out = BUF_INIT, one = BUF_INIT;
	struct tally t = { 0, 0, 0, 0 };
	struct node *list;
	int code, rc;

	arena_init(&a);
	buf_init(&out, DIFF_CAP);
	buf_init(&one, DIFF_CAP);
	code = live_start(&run, &a, "gpusite diff", o, lo);
	if (code != GS_EXIT_OK)
		goto out;
	list = node_new_seq(&a, (struct pos)POS_NONE);

	for (size_t i = 0; i < run.rendered.count; i++) {
		const struct render_object *ro = &run.rendered.objects[i];
		const char *ns = ro->namespace ? ro->namespace : "";
		struct node *live, *l = NULL, *r;
		enum change c;

		rc = kube_get(&live, run.kube, &a, ro->api_version, ro->kind, ns, ro->name);
		if (rc == KUBE_EFAIL) {
			code = live_fail(&run);
			goto out;
		}
		r = diff_normalize(&a, ro->obj);
		if (rc == 0)
			l = diff_live_subset(&a, diff_normalize(&a, live), r);
		diff_mask_secrets(&a, l, r);
		buf_reset(&one);
		rc = diff_objects(&one, l, r, live_label(&a, "live", ro->kind, ns, ro->name),
				  live_label(&a, "rendered", ro->kind, ns, ro->name));
		if (rc < 0) {
			fprintf(stderr, "gpusite diff: error: cannot compare %s/%s\n", ro->kind,
				ro->name);
			code = GS_EXIT_FAILURE;
			goto out;
		}
		c = !l ? ADDED : rc ? CHANGED : SAME;
		count(&t, c);
		if (json)
			add_json(&a, list, ro->api_version, ro->kind, ns, ro->name, c, one.data);
		else if (buf_add(&out, one.data, one.len) < 0)
			goto toobig;
	}

	{
		struct stale st = { &a, &run, NULL, NULL, NULL, 0, 0, 0 };
		struct kube_list_cb cb = { stale_item, stale_restart, &st };

		const struct render_api *const *apis;
		size_t napis = render_apis(&apis);

		/* every kind gpusite renders (the descriptors' APIs): where to
		 * look for objects it no longer renders */
		for (size_t k = 0; k < napis; k++) {
			const char *av = *apis[k]->group ? arena_printf(&a, "%s/%s", apis[k]->group,
									apis[k]->version)
							 : apis[k]->version;
			struct kube_list_query q = { av,   apis[k]->kind,
						     NULL, MANAGED_SELECTOR,
						     NULL, 0 };

			if (!apis[k]->live)
				continue;

			st.api_version = av;
			st.kind = apis[k]->kind;
			st.kept = st.count;
			rc = kube_list(run.kube, &q, &cb);
			if (rc == KUBE_ENOTFOUND)
				continue; /* not served: nothing of it to remove */
			if (rc < 0) {
				code = live_fail(&run);
				goto out;
			}
		}
		for (size_t i = 0; i < st.count; i++) {
			const char *ns = meta(st.items[i], "namespace");
			const char *name = meta(st.items[i], "name");
			const char *kind = node_str(node_map_get(st.items[i], "kind"));
			const char *av = node_str(node_map_get(st.items[i], "apiVersion"));
			struct node *l = diff_normalize(&a, st.items[i]);

			diff_mask_secrets(&a, l, NULL);
			buf_reset(&one);
			if (diff_objects(&one, l, NULL, live_label(&a, "live", kind, ns, name),
					 live_label(&a, "rendered", kind, ns, name)) < 0)
				goto toobig;
			count(&t, REMOVED);
			if (json)
				add_json(&a, list, av, kind, ns, name, REMOVED, one.data);
			else if (buf_add(&out, one.data, one.len) < 0)
				goto toobig;
		}
	}

	if (json) {
		struct node *root = node_new_map(&a, (struct pos)POS_NONE);
		struct node *sum = node_new_map(&a, (struct pos)POS_NONE);

		node_map_add_str(&a, root, "cluster", run.cluster);
		node_map_add(&a, root, "objects", list);
		node_map_add_int(&a, sum, "changed", (int64_t)t.changed);
		node_map_add_int(&a, sum, "added", (int64_t)t.added);
		node_map_add_int(&a, sum, "removed", (int64_t)t.removed);
		node_map_add_int(&a, sum, "unchanged", (int64_t)t.same);
		node_map_add(&a, root, "summary", sum);
		if (json_write(&out, root, JSON_PRETTY) < 0 || buf_addch(&out, '\n') < 0)
			goto toobig;
	} else if (!o->quiet || t.changed || t.added || t.removed) {
		if (buf_printf(&out, "%zu objects changed, %zu added, %zu removed\n", t.changed,
			       t.added, t.removed) < 0)
			goto toobig;
	}
	if (fwrite(out.data, 1, out.len, stdout) != out.len)
		code = GS_EXIT_FAILURE;
	else
		code = t.changed || t.added || t.removed ? GS_EXIT_FINDINGS : GS_EXIT_OK;
	if (o->verbose)
		fprintf(stderr, "gpusite diff: %u requests, %zu KiB of memory\n",
			kube_request_count(run.kube), a.total >> 10);
	goto out;
toobig:
	fprintf(stderr, "gpusite diff: error: the diff is larger than %zu MiB\n", DIFF_CAP >> 20);
	code = GS_EXIT_FAILURE;
out:
	live_finish(&run);
	buf_release(&one);
	buf_release(&out);
	arena_release(&a);
	return code;
}
