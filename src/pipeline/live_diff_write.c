/*
 * live_diff_write.c - `diff --live`'s output: each compared object's
 * unified diff and the summary line, or one JSON document.
 */
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "json/json.h"
#include "node/node.h"
#include "pipeline/live_diff.h"

/* Where the compared objects go: the JSON list, or the text diffs. */
struct sink {
	struct arena *a;
	bool json;
	struct node *list;
	struct buf *out;
	struct live_diff_tally *t;
};

static void
add_json(struct arena *a, struct node *list, const struct live_diff_object *d)
{
	static const char *const names[] = { "unchanged", "changed", "added", "removed" };
	struct node *o = node_new_map(a, (struct pos)POS_NONE);

	node_map_add_str(a, o, "apiVersion", d->api_version);
	node_map_add_str(a, o, "kind", d->kind);
	if (d->ns && *d->ns)
		node_map_add_str(a, o, "namespace", d->ns);
	node_map_add_str(a, o, "name", d->name);
	node_map_add_str(a, o, "status", names[d->change]);
	if (d->change != LIVE_SAME)
		node_map_add_str(a, o, "diff", d->text);
	node_seq_push(a, list, o);
}

static void
count(struct live_diff_tally *t, enum live_change c)
{
	if (c == LIVE_CHANGED)
		t->changed++;
	else if (c == LIVE_ADDED)
		t->added++;
	else if (c == LIVE_REMOVED)
		t->removed++;
	else
		t->same++;
}

static int
on_object(void *payload, const struct live_diff_object *d)
{
	struct sink *s = payload;

	count(s->t, d->change);
	if (s->json)
		add_json(s->a, s->list, d);
	else if (buf_add(s->out, d->text, d->len) < 0)
		return -1;
	return 0;
}

/* The closing part of the output: the JSON document, or the text's
 * summary line (unless --quiet and nothing differs). */
static int
write_summary(struct buf *out, const struct sink *s, const struct live_run *run, bool quiet)
{
	const struct live_diff_tally *t = s->t;

	if (s->json) {
		struct node *root = node_new_map(s->a, (struct pos)POS_NONE);
		struct node *sum = node_new_map(s->a, (struct pos)POS_NONE);

		node_map_add_str(s->a, root, "cluster", run->cluster);
		node_map_add(s->a, root, "objects", s->list);
		node_map_add_int(s->a, sum, "changed", (int64_t)t->changed);
		node_map_add_int(s->a, sum, "added", (int64_t)t->added);
		node_map_add_int(s->a, sum, "removed", (int64_t)t->removed);
		node_map_add_int(s->a, sum, "unchanged", (int64_t)t->same);
		node_map_add(s->a, root, "summary", sum);
		if (json_write(out, root, JSON_PRETTY) < 0 || buf_addch(out, '\n') < 0)
			return -1;
	} else if (!quiet || t->changed || t->added || t->removed) {
		if (buf_printf(out, "%zu objects changed, %zu added, %zu removed\n", t->changed,
			       t->added, t->removed) < 0)
			return -1;
	}
	return 0;
}

int
live_diff_write(struct buf *out, struct live_diff_tally *t, const struct render_object **failed,
		struct live_run *r, size_t cap, bool json, bool quiet)
{
	struct sink s = { r->arena, json, NULL, out, t };
	struct live_diff_cb cb = { on_object, &s };
	int rc;

	memset(t, 0, sizeof(*t));
	s.list = node_new_seq(r->arena, (struct pos)POS_NONE);
	rc = live_diff_compare(failed, r, cap, &cb);
	if (rc == 0 && write_summary(out, &s, r, quiet) < 0)
		rc = LIVE_DIFF_EOUTPUT;
	return rc;
}
