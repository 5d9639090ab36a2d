/*
 * report_json.c - the json format: one line,
 * {"diagnostics":[{"file","line","column","severity","rule","path","message"}],
 *  "summary":{"files","sites","errors","warnings"}}
 * built as a node tree and written by json_write.
 */
#include "base/arena.h"
#include "base/buf.h"
#include "json/json.h"
#include "report/report_int.h"

/* Reports are small; the cap only stops a runaway. */
#define REPORT_MAX_BYTES (256u << 20)

int
report_put_json(FILE *out, const struct node *root)
{
	struct buf b = BUF_INIT;
	int ret = -1;

	buf_init(&b, REPORT_MAX_BYTES);
	if (json_write(&b, root, 0) < 0 || buf_addch(&b, '\n') < 0)
		goto out;
	if (fwrite(b.data, 1, b.len, out) != b.len)
		goto out;
	ret = ferror(out) ? -1 : 0;
out:
	buf_release(&b);
	return ret;
}

int
report_write_json(FILE *out, const struct report_input *in)
{
	struct arena a = ARENA_INIT;
	struct pos none = POS_NONE;
	struct node *root, *list, *sum;
	size_t n = in->diags ? in->diags->count : 0;
	int ret;

	arena_init(&a);
	root = node_new_map(&a, none);
	list = node_map_add(&a, root, "diagnostics", node_new_seq(&a, none));
	for (size_t i = 0; i < n; i++) {
		const struct diag *d = &in->diags->items[i];
		struct node *o = node_new_map(&a, none);

		node_map_add_str(&a, o, "file", d->at.file ? d->at.file : "");
		node_map_add_int(&a, o, "line", d->at.line);
		node_map_add_int(&a, o, "column", d->at.col);
		node_map_add_str(&a, o, "severity", diag_level_name(d->level));
		node_map_add_str(&a, o, "rule", d->rule ? d->rule : "");
		node_map_add_str(&a, o, "path", d->path ? d->path : "");
		node_map_add_str(&a, o, "message", d->msg ? d->msg : "");
		node_seq_push(&a, list, o);
	}
	sum = node_map_add(&a, root, "summary", node_new_map(&a, none));
	node_map_add_int(&a, sum, "files", (int64_t)(in->files ? in->files->count : 0));
	node_map_add_int(&a, sum, "sites", (int64_t)in->sites);
	node_map_add_int(&a, sum, "errors", (int64_t)report_count_errors(in));
	node_map_add_int(&a, sum, "warnings", (int64_t)report_count_warnings(in));
	ret = report_put_json(out, root);
	arena_release(&a);
	return ret;
}
