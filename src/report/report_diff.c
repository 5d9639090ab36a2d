/*
 * report_diff.c - the writers of `gpusite diff --base`: text (the diffs
 * and the summary line), json (every object with its status and diff),
 * markdown (a pull-request comment: a table and a ```diff block per
 * object, folded in <details> when long, kept under the size GitHub
 * accepts), github (the diffs in collapsible log groups, one notice
 * annotation per object on the spec file of its site, and the markdown
 * appended to $GITHUB_STEP_SUMMARY).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "json/json.h"
#include "node/node.h"
#include "report/report.h"
#include "report/report_diff.h"
#include "report/report_int.h"

#define MD_FOLD_LINES 40 /* longer diffs fold into <details> */

const char *const diff_change_names[] = { "unchanged", "changed", "added", "removed" };

/* ---- output ------------------------------------------------------------- */

static const char *
summary_line(struct arena *a, const struct diff_result *res)
{
	return arena_printf(a, "%zu objects changed, %zu added, %zu removed", res->n[DIFF_CHANGED],
			    res->n[DIFF_ADDED], res->n[DIFF_REMOVED]);
}

int
report_diff_text(FILE *out, struct arena *a, const struct diff_result *res, bool quiet)
{
	bool any = res->n[DIFF_CHANGED] || res->n[DIFF_ADDED] || res->n[DIFF_REMOVED];

	for (size_t i = 0; i < res->count; i++)
		fwrite(res->items[i].diff, 1, res->items[i].len, out);
	if (any || !quiet)
		fprintf(out, "%s\n", summary_line(a, res));
	return 0;
}

int
report_diff_json(FILE *out, struct arena *a, const struct diff_result *res)
{
	struct node *root = node_new_map(a, (struct pos)POS_NONE);
	struct node *list = node_new_seq(a, (struct pos)POS_NONE);
	struct node *sum = node_new_map(a, (struct pos)POS_NONE);
	struct buf b = BUF_INIT;
	int rc = 0;

	node_map_add_str(a, root, "base", res->base);
	node_map_add_str(a, root, "head", res->head);
	for (size_t i = 0; i < res->count; i++) {
		const struct diff_item *it = &res->items[i];
		struct node *o = node_new_map(a, (struct pos)POS_NONE);

		node_map_add_str(a, o, "apiVersion", it->obj->api_version);
		node_map_add_str(a, o, "kind", it->obj->kind);
		if (it->obj->namespace && *it->obj->namespace)
			node_map_add_str(a, o, "namespace", it->obj->namespace);
		node_map_add_str(a, o, "name", it->obj->name);
		if (it->obj->site)
			node_map_add_str(a, o, "site", it->obj->site);
		if (it->file)
			node_map_add_str(a, o, "file", it->file);
		node_map_add_str(a, o, "status", diff_change_names[it->change]);
		if (it->change != DIFF_SAME) {
			node_map_add_int(a, o, "additions", (int64_t)it->plus);
			node_map_add_int(a, o, "deletions", (int64_t)it->minus);
			node_map_add_str(a, o, "diff", it->diff);
		}
		node_seq_push(a, list, o);
	}
	node_map_add(a, root, "objects", list);
	node_map_add_int(a, sum, "changed", (int64_t)res->n[DIFF_CHANGED]);
	node_map_add_int(a, sum, "added", (int64_t)res->n[DIFF_ADDED]);
	node_map_add_int(a, sum, "removed", (int64_t)res->n[DIFF_REMOVED]);
	node_map_add_int(a, sum, "unchanged", (int64_t)res->n[DIFF_SAME]);
	node_map_add(a, root, "summary", sum);
	buf_init(&b, DIFF_REVISIONS_CAP);
	if (json_write(&b, root, JSON_PRETTY) < 0 || buf_addch(&b, '\n') < 0)
		rc = -1;
	else
		fwrite(b.data, 1, b.len, out);
	buf_release(&b);
	return rc;
}

static size_t
line_count(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* A ```diff block fenced longer than any backtick run at a line start. */
static int
md_block(struct buf *b, const struct diff_item *it)
{
	size_t longest = 2, run;
	const char *p = it->diff;
	int rc = 0;

	while (*p) {
		for (run = 0; p[run] == '`'; run++)
			;
		if (run > longest)
			longest = run;
		p = strchr(p, '\n');
		p = p ? p + 1 : "";
	}
	for (size_t i = 0; i <= longest; i++)
		rc |= buf_addch(b, '`');
	rc |= buf_adds(b, "diff\n");
	rc |= buf_add(b, it->diff, it->len);
	if (it->len && it->diff[it->len - 1] != '\n')
		rc |= buf_addch(b, '\n');
	for (size_t i = 0; i <= longest; i++)
		rc |= buf_addch(b, '`');
	rc |= buf_adds(b, "\n\n");
	return rc ? -1 : 0;
}

static const char *
change_text(struct arena *a, const struct diff_item *it)
{
	return arena_printf(a, "%s, +%zu \xe2\x88\x92%zu", diff_change_names[it->change], it->plus,
			    it->minus);
}

/*
 * The pull-request comment: heading, summary, a table of what changed,
 * then one diff block per object, folded when long.  Whatever would take
 * it past `budget` bytes is left out and counted instead.
 */
int
report_diff_markdown(struct buf *b, struct arena *a, const struct diff_result *res, size_t budget)
{
	size_t listed = 0, shown = 0,
	       total = res->n[DIFF_CHANGED] + res->n[DIFF_ADDED] + res->n[DIFF_REMOVED];
	int rc = 0;

	/* the title, the revisions and the objects may name a branch, a file
	 * or an object a user wrote: all through the one Markdown escaper */
	if (res->title) {
		rc |= buf_adds(b, "### ");
		rc |= report_md_text(b, res->title);
		rc |= buf_adds(b, "\n\n");
	} else {
		rc |= buf_adds(b, "### gpusite diff: ");
	}
	rc |= report_md_code(b, res->base, REPORT_MD_PAD);
	rc |= buf_adds(b, " \xe2\x86\x92 ");
	rc |= report_md_code(b, res->head, REPORT_MD_PAD);
	rc |= buf_printf(b, "\n\n**%s** (%zu unchanged)\n\n", summary_line(a, res),
			 res->n[DIFF_SAME]);
	if (!total) {
		rc |= buf_adds(b, "No difference in the rendered output.\n");
		return rc ? -1 : 0;
	}
	rc |= buf_adds(b, "| Object | Site | Change |\n|---|---|---|\n");
	for (size_t i = 0; i < res->count && !rc; i++) {
		const struct diff_item *it = &res->items[i];
		struct buf row = BUF_INIT;
		bool fits;

		if (it->change == DIFF_SAME)
			continue;
		buf_init(&row, DIFF_REVISIONS_CAP);
		rc |= buf_adds(&row, "| ");
		rc |= report_md_code(&row, it->key, REPORT_MD_CELL);
		rc |= buf_adds(&row, " | ");
		rc |= report_md_text(&row, it->obj->site ? it->obj->site : "");
		rc |= buf_printf(&row, " | %s |\n", change_text(a, it));
		fits = !rc && b->len + row.len + 512 <= budget;
		if (fits) {
			rc |= buf_add(b, row.data, row.len);
			listed++;
		}
		buf_release(&row);
		if (!fits)
			break;
	}
	if (listed < total)
		rc |= buf_printf(b, "\n%zu more not listed here.\n", total - listed);
	rc |= buf_addch(b, '\n');
	for (size_t i = 0; i < res->count && !rc; i++) {
		const struct diff_item *it = &res->items[i];
		struct buf blk = BUF_INIT;
		bool fold = line_count(it->diff) > MD_FOLD_LINES;

		if (it->change == DIFF_SAME)
			continue;
		buf_init(&blk, DIFF_REVISIONS_CAP);
		if (fold) {
			rc |= buf_adds(&blk, "<details>\n<summary><code>");
			rc |= report_html_text(&blk, it->key);
			rc |= buf_printf(&blk, "</code> (%s)</summary>\n\n", change_text(a, it));
		} else {
			rc |= buf_adds(&blk, "#### ");
			rc |= report_md_code(&blk, it->key, 0);
			rc |= buf_printf(&blk, " (%s)\n\n", change_text(a, it));
		}
		rc |= md_block(&blk, it);
		if (fold)
			rc |= buf_adds(&blk, "</details>\n\n");
		if (!rc && b->len + blk.len + 256 <= budget) {
			rc |= buf_add(b, blk.data, blk.len);
			shown++;
		}
		buf_release(&blk);
	}
	if (shown < total)
		rc |= buf_printf(b,
				 "%zu of %zu diffs not shown here (too long); `gpusite"
				 " diff` prints them all.\n",
				 total - shown, total);
	return rc ? -1 : 0;
}

static int
append_summary(const char *path, struct arena *a, const struct diff_result *res)
{
	struct buf b = BUF_INIT;
	FILE *f;
	int rc;

	buf_init(&b, DIFF_REVISIONS_CAP);
	rc = report_diff_markdown(&b, a, res, REPORT_DIFF_SUMMARY_BUDGET);
	if (rc) {
		buf_release(&b);
		fprintf(stderr, "gpusite diff: error: cannot build the job summary\n");
		return rc;
	}
	f = report_open_step_summary(path, "gpusite diff");
	if (!f) {
		buf_release(&b);
		return 0; /* one warning said why; the diff itself is out */
	}
	if (fwrite(b.data, 1, b.len, f) != b.len)
		rc = -1;
	if (f && fclose(f) != 0)
		rc = -1;
	if (rc)
		fprintf(stderr,
			"gpusite diff: error: cannot append the job summary to"
			" '%s'\n",
			path);
	buf_release(&b);
	return rc;
}

int
report_diff_github(FILE *out, struct arena *a, const struct diff_result *res)
{
	const char *summary = getenv("GITHUB_STEP_SUMMARY");

	for (size_t i = 0; i < res->count; i++) {
		const struct diff_item *it = &res->items[i];

		if (it->change == DIFF_SAME)
			continue;
		fputs("::group::", out);
		report_put_gh_data(out, arena_printf(a, "%s (%s)", it->key, change_text(a, it)));
		fputc('\n', out);
		fwrite(it->diff, 1, it->len, out);
		fputs("::endgroup::\n", out);
	}
	for (size_t i = 0; i < res->count; i++) {
		const struct diff_item *it = &res->items[i];

		if (it->change == DIFF_SAME)
			continue;
		fputs("::notice ", out);
		if (it->file) {
			fputs("file=", out);
			report_put_gh_prop(out, it->file);
			fputc(',', out);
		}
		fputs("title=", out);
		report_put_gh_prop(out, "gpusite diff");
		fputs("::", out);
		report_put_gh_data(out,
				   arena_printf(a, "%s %s in the rendered output (+%zu -%zu lines)",
						it->key, diff_change_names[it->change], it->plus,
						it->minus));
		fputc('\n', out);
	}
	fprintf(out, "%s\n", summary_line(a, res));
	if (summary && *summary)
		return append_summary(summary, a, res);
	return 0;
}
