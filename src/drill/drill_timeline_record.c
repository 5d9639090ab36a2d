/*
 * drill_timeline_record.c - the drill record as JSON (the format is in
 * drill.h): written by `drill run --record`, read by `drill report
 * --record`.
 */
#include <stdio.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "drill/drill.h"
#include "json/json.h"
#include "k8s/k8s_time.h"
#include "node/node.h"

#define RECORD_RULE DRILL_RECORD

static int
add_str(struct buf *out, const char *s)
{
	struct node n;

	if (!s)
		return buf_adds(out, "null");
	memset(&n, 0, sizeof(n));
	n.kind = NODE_SCALAR;
	n.type = NODE_STR;
	n.scalar.text = s;
	n.scalar.len = strlen(s);
	return json_write(out, &n, 0);
}

static int
add_time(struct buf *out, int64_t t)
{
	char tb[DRILL_TIME_BUFSZ];

	drill_time_format(tb, sizeof(tb), t);
	return buf_printf(out, "\"%s\"", tb);
}

int
drill_record_write(struct buf *out, const struct drill_record *r)
{
	int rc = 0;

	rc |= buf_printf(out, "{\"apiVersion\": \"%s\",\n \"site\": ", DRILL_RECORD_API_VERSION);
	rc |= add_str(out, r->site);
	rc |= buf_adds(out, ", \"cluster\": ");
	rc |= add_str(out, r->cluster);
	rc |= buf_printf(out, ",\n \"scenario\": \"%s\",\n \"nodes\": [",
			 drill_scenario_name(r->scenario));
	for (size_t i = 0; i < r->node_count; i++) {
		rc |= i ? buf_adds(out, ", ") : 0;
		rc |= add_str(out, r->nodes[i]);
	}
	rc |= buf_adds(out, "],\n \"nodeStates\": [");
	for (size_t i = 0; i < r->state_count; i++) {
		rc |= buf_adds(out, i ? ",\n  {\"name\": " : "\n  {\"name\": ");
		rc |= add_str(out, r->states[i].name);
		rc |= buf_printf(out, ", \"unschedulableBefore\": %s, \"cordonedByDrill\": %s}",
				 r->states[i].unschedulable_before ? "true" : "false",
				 r->states[i].cordoned ? "true" : "false");
	}
	rc |= buf_adds(out, "],\n \"startedAt\": ");
	rc |= add_time(out, r->started_at);
	rc |= buf_adds(out, ", \"endedAt\": ");
	rc |= r->ended ? add_time(out, r->ended_at) : buf_adds(out, "null");
	rc |= buf_printf(out, ",\n \"outcome\": \"%s\",\n \"transitions\": [",
			 drill_outcome_name(r->outcome));
	for (size_t i = 0; i < r->count; i++) {
		const struct drill_transition *t = &r->transitions[i];

		rc |= buf_adds(out, i ? ",\n  {\"time\": " : "\n  {\"time\": ");
		rc |= add_time(out, t->time);
		rc |= buf_printf(
			out, ", \"object\": \"%s\", \"namespace\": ", drill_object_name(t->object));
		rc |= add_str(out, t->namespace);
		rc |= buf_adds(out, ", \"name\": ");
		rc |= add_str(out, t->name);
		rc |= buf_printf(out, ", \"what\": \"%s\", \"node\": ", drill_what_name(t->what));
		rc |= add_str(out, t->node);
		rc |= buf_adds(out, ", \"detail\": ");
		rc |= add_str(out, t->detail);
		rc |= buf_adds(out, "}");
	}
	rc |= buf_adds(out, "]}\n");
	return rc ? BUF_ETOOBIG : 0;
}

static int
bad(struct diags *d, const char *file, const char *path, const char *what)
{
	struct pos at = { file, 0, 0 };

	return diag_report(d, at, RECORD_RULE, path,
			   "%s: %s is not a drill record's %s; write it as drill run --record does",
			   file, path, what);
}

/* A string, or NULL when null/absent and `nullable`; -1 on anything else. */
static int
opt_str(const char **out, const struct node *n, bool nullable)
{
	*out = NULL;
	if (!n || node_is_null(n))
		return nullable ? 0 : -1;
	if (!node_is_str(n))
		return -1;
	*out = node_str(n);
	return 0;
}

/* "nodeStates": absent or null in records of older versions. */
static int
read_states(struct arena *a, struct diags *d, struct drill_record *out, const struct node *n,
	    const char *file)
{
	if (!n || node_is_null(n))
		return 0;
	if (n->kind != NODE_SEQ)
		return bad(d, file, "nodeStates", "list of node states");
	for (size_t i = 0; i < n->seq.count; i++) {
		const struct node *x = n->seq.items[i];
		const struct node *before = node_map_get(x, "unschedulableBefore");
		const struct node *cordoned = node_map_get(x, "cordonedByDrill");
		const char *name = node_str(node_map_get(x, "name"));

		if (x->kind != NODE_MAP || !name || !node_is_bool(before) ||
		    !node_is_bool(cordoned) || (before->scalar.i && cordoned->scalar.i))
			return bad(d, file, arena_printf(a, "nodeStates[%zu]", i),
				   "node state ({\"name\", \"unschedulableBefore\": true or false,"
				   " \"cordonedByDrill\": true or false}; a node unschedulable"
				   " before was not cordoned by the drill)");
		drill_record_add_state(a, out, name, before->scalar.i, cordoned->scalar.i);
	}
	return 0;
}

int
drill_record_read(struct arena *a, struct diags *d, struct drill_record *out, const char *text,
		  size_t len, const char *file)
{
	struct node *root, *n, *seq;
	const char *s;

	memset(out, 0, sizeof(*out));
	root = json_parse(a, d, RECORD_RULE, file, text, len);
	if (!root)
		return -1;
	if (root->kind != NODE_MAP)
		return bad(d, file, "(the document)", "one JSON object");
	s = node_str(node_map_get(root, "apiVersion"));
	if (!s || strcmp(s, DRILL_RECORD_API_VERSION))
		return bad(d, file, "apiVersion", "apiVersion " DRILL_RECORD_API_VERSION);
	if (opt_str(&out->site, node_map_get(root, "site"), false))
		return bad(d, file, "site", "site name (a string)");
	if (opt_str(&out->cluster, node_map_get(root, "cluster"), true))
		return bad(d, file, "cluster", "cluster name (a string)");
	if (drill_scenario_parse(&out->scenario, node_str(node_map_get(root, "scenario"))))
		return bad(d, file, "scenario", "scenario (node-failure or partition)");
	n = node_map_get(root, "nodes");
	if (n && !node_is_null(n)) {
		if (n->kind != NODE_SEQ)
			return bad(d, file, "nodes", "list of node names");
		out->nodes = arena_alloc(a, (n->seq.count + 1) * sizeof(*out->nodes));
		for (size_t i = 0; i < n->seq.count; i++) {
			if (opt_str(&out->nodes[i], n->seq.items[i], false))
				return bad(d, file, arena_printf(a, "nodes[%zu]", i), "node name");
		}
		out->node_count = n->seq.count;
	}
	if (read_states(a, d, out, node_map_get(root, "nodeStates"), file) < 0)
		return -1;
	if (k8s_time_parse(&out->started_at, node_str(node_map_get(root, "startedAt"))))
		return bad(d, file, "startedAt", "start time (RFC 3339)");
	n = node_map_get(root, "endedAt");
	if (n && !node_is_null(n)) {
		if (k8s_time_parse(&out->ended_at, node_str(n)))
			return bad(d, file, "endedAt", "end time (RFC 3339 or null)");
		out->ended = true;
	}
	s = node_str(node_map_get(root, "outcome"));
	if (s && drill_outcome_parse(&out->outcome, s))
		return bad(d, file, "outcome", "outcome (available, timeout, interrupted, failed)");
	seq = node_map_get(root, "transitions");
	if (!seq || seq->kind != NODE_SEQ)
		return bad(d, file, "transitions", "list of transitions");
	if (seq->seq.count > DRILL_RECORD_MAX_TRANSITIONS)
		return bad(d, file, "transitions",
			   arena_printf(a,
					"list of transitions: it has %zu,"
					" more than the %d a record may have",
					seq->seq.count, DRILL_RECORD_MAX_TRANSITIONS));
	for (size_t i = 0; i < seq->seq.count; i++) {
		const struct node *t = seq->seq.items[i];
		const char *ns, *name, *node, *detail;
		enum drill_object obj;
		enum drill_what what;
		int64_t time;
		const char *p = arena_printf(a, "transitions[%zu]", i);

		if (t->kind != NODE_MAP)
			return bad(d, file, p, "transition (an object)");
		if (k8s_time_parse(&time, node_str(node_map_get(t, "time"))))
			return bad(d, file, arena_printf(a, "%s.time", p), "time (RFC 3339)");
		if (drill_object_parse(&obj, node_str(node_map_get(t, "object"))))
			return bad(d, file, arena_printf(a, "%s.object", p),
				   "object (Node, Pod, NodeClaim, Event or Drill)");
		if (drill_what_parse(&what, node_str(node_map_get(t, "what"))))
			return bad(d, file, arena_printf(a, "%s.what", p), "transition kind");
		if (opt_str(&ns, node_map_get(t, "namespace"), true) ||
		    opt_str(&name, node_map_get(t, "name"), false) ||
		    opt_str(&node, node_map_get(t, "node"), true) ||
		    opt_str(&detail, node_map_get(t, "detail"), true))
			return bad(d, file, p,
				   "transition (namespace, name, node and detail are"
				   " strings or null; name is required)");
		drill_record_add(a, out, time, obj, ns, name, what, node, detail);
	}
	drill_record_sort(out);
	return 0;
}

int
drill_record_load(struct arena *a, struct diags *d, struct drill_record *out, const char *path,
		  const char *site)
{
	struct buf file;
	int rc;

	memset(out, 0, sizeof(*out));
	buf_init(&file, DRILL_RECORD_MAX);
	rc = buf_read_file(&file, path);
	if (rc < 0) {
		buf_release(&file);
		return diag_report(d, (struct pos)POS_NONE, RECORD_RULE, "",
				   "cannot read the drill record %s: %s", path,
				   rc == BUF_ETOOBIG ? "over the 16 MiB a drill record may have"
						     : "no such file, or not readable");
	}
	rc = drill_record_read(a, d, out, file.data, file.len, path);
	buf_release(&file);
	if (rc < 0)
		return -1;
	if (site && strcmp(out->site, site))
		return diag_report(
			d, (struct pos)POS_NONE, RECORD_RULE, "",
			"%s is a record of site %s, not %s; pass the record of this site", path,
			out->site, site);
	return 0;
}
