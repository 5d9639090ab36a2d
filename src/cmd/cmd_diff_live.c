/*
 * cmd_diff_live.c - `gpusite diff --live`: the rendered objects of the
 * cluster's sites against their live counterparts, normalised, one
 * unified diff per object (pipeline/live_diff.h compares; this writes
 * the text or the JSON and picks the exit code).  GET and LIST only.
 */
#include <stdio.h>

#include "base/arena.h"
#include "base/buf.h"
#include "cmd/cmd.h"
#include "cli/opts_live.h"
#include "pipeline/live.h"
#include "pipeline/live_diff.h"
#include "json/json.h"
#include "kube/kube.h"
#include "node/node.h"

#define DIFF_CAP ((size_t)1 << 30)

struct tally {
	size_t changed, added, removed, same;
};

/* Where the compared objects go: the JSON list, or the text diffs. */
struct sink {
	struct arena *a;
	bool json;
	struct node *list;
	struct buf *out;
	struct tally t;
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
count(struct tally *t, enum live_change c)
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

	count(&s->t, d->change);
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
	const struct tally *t = &s->t;

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
diff_live_run(const struct opts *o, const struct live_opts *lo, bool json)
{
	struct arena a = ARENA_INIT;
	struct live_run run;
	struct buf out = BUF_INIT;
	struct sink s = { &a, json, NULL, &out, { 0, 0, 0, 0 } };
	struct live_diff_cb cb = { on_object, &s };
	const struct render_object *failed = NULL;
	const struct tally *t = &s.t;
	int code;

	arena_init(&a);
	buf_init(&out, DIFF_CAP);
	code = cmd_live_open(&run, &a, "gpusite diff", o, lo);
	if (code != GS_EXIT_OK)
		goto out;
	s.list = node_new_seq(&a, (struct pos)POS_NONE);

	switch (live_diff_compare(&failed, &run, DIFF_CAP, &cb)) {
	case 0: break;
	case LIVE_DIFF_EKUBE: code = cmd_live_fail(&run); goto out;
	case LIVE_DIFF_ECOMPARE:
		fprintf(stderr, "gpusite diff: error: cannot compare %s/%s\n", failed->kind,
			failed->name);
		code = GS_EXIT_FAILURE;
		goto out;
	default: goto toobig;
	}
	if (write_summary(&out, &s, &run, o->quiet) < 0)
		goto toobig;
	if (fwrite(out.data, 1, out.len, stdout) != out.len)
		code = GS_EXIT_FAILURE;
	else
		code = t->changed || t->added || t->removed ? GS_EXIT_FINDINGS : GS_EXIT_OK;
	if (o->verbose)
		fprintf(stderr, "gpusite diff: %u requests, %zu KiB of memory\n",
			kube_request_count(run.kube), a.total >> 10);
	goto out;
toobig:
	fprintf(stderr, "gpusite diff: error: the diff is larger than %zu MiB\n", DIFF_CAP >> 20);
	code = GS_EXIT_FAILURE;
out:
	live_run_finish(&run);
	buf_release(&out);
	arena_release(&a);
	return code;
}
