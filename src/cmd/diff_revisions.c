/*
 * diff_revisions.c - `gpusite diff --base REV [--head REV] [PATH]`: render
 * the specs of both revisions straight from the Git object database (the
 * head side may also be the work tree or the index) and show, object by
 * object, how the rendered output changes: a unified diff of each
 * object's YAML from libgit2's diff of two buffers (diff_unified),
 * objects added or removed whole, and a summary line.
 *
 * Formats: text (the diffs and the summary line), json (every object
 * with its status and diff), markdown (a pull-request comment: a table
 * and a ```diff block per object, folded in <details> when long, kept
 * under the size GitHub accepts), github (the diffs in collapsible log
 * groups, one notice annotation per object on the spec file of its site,
 * and the markdown appended to $GITHUB_STEP_SUMMARY).
 *
 * Secrets: SSM activation codes never reach the cluster stream (they are
 * only read for `render --nodeconfigs`, never here), and any
 * activationCode value or Secret data is masked on both sides anyway.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "cmd/cmd.h"
#include "cmd/diff_revisions.h"
#include "pipeline/pipeline.h"
#include "diff/diff.h"
#include "emit/emit.h"
#include "json/json.h"
#include "node/node.h"
#include "render/render.h"
#include "report/report.h"
#include "source/source.h"

#define DIFF_CAP ((size_t)1 << 30)
#define MD_COMMENT_BUDGET 60000         /* a PR comment holds 65,536 characters */
#define MD_SUMMARY_BUDGET (1000u << 10) /* a job summary step holds 1 MiB */
#define MD_FOLD_LINES 40                /* longer diffs fold into <details> */
#define REDACTED "<redacted>"
#define SECRET_KEY "activationCode"

enum diff_format { F_TEXT, F_JSON, F_MARKDOWN, F_GITHUB };
enum change { SAME, CHANGED, ADDED, REMOVED };

static const char *const change_names[] = { "unchanged", "changed", "added", "removed" };

/* One side of the comparison: read, checked, rendered. */
struct side {
	const char *rev;   /* as given, or NULL */
	const char *where; /* "at main", "in the work tree", "in the index" */
	const char *label; /* "main", "work tree", "index" */
	struct source_set files;
	struct pipeline p;
	struct render_result r;
	const struct render_object **objs; /* sorted by key */
	size_t count;
};

struct item {
	const struct render_object *obj; /* head's; base's when removed */
	const char *key;                 /* Kind/name or Kind/namespace/name */
	enum change change;
	const char *diff;
	size_t len;
	size_t plus, minus;
	const char *file; /* spec file of the object's site, or NULL */
};

struct result {
	struct item *items;
	size_t count;
	size_t n[4]; /* per enum change */
	const char *base;
	const char *head;
};

static int
usage(const char *msg)
{
	fprintf(stderr, "gpusite diff: %s\nsee 'gpusite diff --help'\n", msg);
	return GS_EXIT_USAGE;
}

static const char *
no_env(const char *name)
{
	(void)name;
	return NULL; /* diff never reads activation codes */
}

/* ---- secrets ---------------------------------------------------------- */

/* "activationCode: x" lines (YAML) and "activationCode":"x" (JSON) inside
 * a string, e.g. a NodeConfig embedded in a ConfigMap. */
static const char *
redact_text(struct arena *a, const char *s)
{
	struct buf b = BUF_INIT;
	const char *p = s, *hit;
	char *res;

	if (!strstr(s, SECRET_KEY))
		return s;
	buf_init(&b, 0);
	while ((hit = strstr(p, SECRET_KEY)) != NULL) {
		const char *v = hit + strlen(SECRET_KEY);
		size_t keep;

		if (*v == '"')
			v++;
		while (*v == ' ' || *v == '\t')
			v++;
		if (*v != ':') {
			keep = (size_t)(v - p);
			if (buf_add(&b, p, keep) < 0)
				break;
			p = v;
			continue;
		}
		v++;
		while (*v == ' ' || *v == '\t')
			v++;
		if (buf_add(&b, p, (size_t)(v - p)) < 0)
			break;
		if (*v == '"') {
			const char *end = v + 1;

			while (*end && *end != '"')
				end += end[0] == '\\' && end[1] ? 2 : 1;
			p = *end ? end + 1 : end;
			if (buf_adds(&b, "\"" REDACTED "\"") < 0)
				break;
		} else {
			p = v + strcspn(v, "\r\n,}");
			if (p != v && buf_adds(&b, REDACTED) < 0)
				break;
		}
	}
	if (buf_adds(&b, p) < 0) {
		buf_release(&b);
		return REDACTED; /* cannot copy it: show nothing of it */
	}
	res = arena_strndup(a, b.data, b.len);
	buf_release(&b);
	return res;
}

void
diff_revisions_redact(struct arena *a, struct node *n)
{
	if (!n)
		return;
	if (n->kind == NODE_MAP) {
		for (size_t i = 0; i < n->map.count; i++) {
			struct node_pair *pr = &n->map.pairs[i];
			const char *k = node_text(pr->key);

			if (k && !strcmp(k, SECRET_KEY) && pr->value &&
			    pr->value->kind == NODE_SCALAR && !node_is_null(pr->value))
				pr->value = node_new_str(a, pr->value->at, REDACTED);
			else
				diff_revisions_redact(a, pr->value);
		}
	} else if (n->kind == NODE_SEQ) {
		for (size_t i = 0; i < n->seq.count; i++)
			diff_revisions_redact(a, n->seq.items[i]);
	} else if (n->type == NODE_STR && n->scalar.text) {
		const char *t = redact_text(a, n->scalar.text);

		if (t != n->scalar.text) {
			n->scalar.text = t;
			n->scalar.len = strlen(t);
		}
	}
}

/* ---- reading and rendering a side -------------------------------------- */

static int
cmp_obj(const void *x, const void *y)
{
	const struct render_object *a = *(const struct render_object *const *)x;
	const struct render_object *b = *(const struct render_object *const *)y;
	int c;

	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	if ((c = strcmp(a->namespace ? a->namespace : "", b->namespace ? b->namespace : "")))
		return c;
	if ((c = strcmp(a->name, b->name)))
		return c;
	return strcmp(a->kind, b->kind);
}

static void
print_diags(const struct diags *d, const struct side *s, unsigned flags, unsigned extra)
{
	struct report_input in = { d, s ? &s->files : NULL, s ? &s->p.fleet : NULL,
				   s ? s->p.docs : 0, "gpusite diff" };

	report_write_flags(stdout, stderr, &in, REPORT_TEXT, flags | extra);
}

/* Returns 0, or the exit code after printing why: invalid specs are
 * findings (1) on the head side and "could not compare" (3) on the
 * base side. */
static int
load_side(struct side *s, struct arena *a, const struct opts *o, bool staged, bool is_base,
	  unsigned flags)
{
	struct pipeline_source src = { o->repo, s->rev, staged, (const char *const *)o->args,
				       o->nargs };
	struct render_options ropt;
	struct diags sd;

	diags_init(&sd, a);
	if (pipeline_collect(&s->files, a, &sd, &src) < 0) {
		diags_sort(&sd);
		print_diags(&sd, NULL, flags & REPORT_COLOR, REPORT_NO_SUMMARY);
		return GS_EXIT_FAILURE;
	}
	/* no spec file at all is a side without objects (a fleet's first
	 * commit, the last site deleted), not an error */
	pipeline_load(&s->p, a, &s->files);
	pipeline_merge_diags(&s->p.diags, &sd);
	diags_sort(&s->p.diags);
	memset(&ropt, 0, sizeof(ropt));
	ropt.getenv = no_env;
	if (!diags_count(&s->p.diags, DIAG_ERROR) && s->p.fleet.count)
		render_fleet(&s->r, a, &s->p.diags, &s->p.fleet, &ropt);
	if (diags_count(&s->p.diags, DIAG_ERROR)) {
		struct diags errs;

		/* only the errors: warnings do not stop a diff */
		diags_init(&errs, a);
		for (size_t i = 0; i < s->p.diags.count; i++) {
			const struct diag *d = &s->p.diags.items[i];

			if (d->level == DIAG_ERROR)
				diag_add(&errs, d->level, d->at, d->rule, d->path, "%s", d->msg);
		}
		if (is_base) {
			/* not the change's fault, and no difference either: the
			 * job could not be done (a PR check must not pass on it) */
			fprintf(stderr,
				"gpusite diff: error: the base's specs %s are not valid;"
				" nothing was compared.  The base's findings:\n",
				s->where);
			print_diags(&errs, s, flags, 0);
			fprintf(stderr,
				"gpusite diff: fix the base's specs, or compare with"
				" a --base whose specs are valid\n");
			return GS_EXIT_FAILURE;
		}
		fprintf(stderr,
			"gpusite diff: the specs %s are not valid; nothing was"
			" compared\n",
			s->where);
		print_diags(&errs, s, flags, 0);
		return GS_EXIT_FINDINGS;
	}
	s->count = s->r.count;
	s->objs = arena_alloc(a, (s->count + 1) * sizeof(*s->objs));
	for (size_t i = 0; i < s->count; i++)
		s->objs[i] = &s->r.objects[i];
	qsort(s->objs, s->count, sizeof(*s->objs), cmp_obj);
	return 0;
}

/* ---- comparing ---------------------------------------------------------- */

static const char *
obj_key(struct arena *a, const struct render_object *o)
{
	if (o->namespace && *o->namespace)
		return arena_printf(a, "%s/%s/%s", o->kind, o->namespace, o->name);
	return arena_printf(a, "%s/%s", o->kind, o->name);
}

static const char *
site_file(const struct side *s, const struct render_object *o)
{
	const struct spec_site *site = o->site ? spec_fleet_find(&s->p.fleet, o->site) : NULL;

	return site ? site->file : NULL;
}

static void
count_lines(struct item *it)
{
	const char *p = it->diff;
	int header = 2; /* "--- a/..." and "+++ b/..." */

	while (*p) {
		const char *nl = strchr(p, '\n');

		if (header > 0)
			header--;
		else if (*p == '+')
			it->plus++;
		else if (*p == '-')
			it->minus++;
		p = nl ? nl + 1 : p + strlen(p);
	}
}

static int
compare_one(struct item *it, struct arena *a, struct side *base, struct side *head,
	    const struct render_object *l, const struct render_object *r)
{
	struct buf lt = BUF_INIT, rt = BUF_INIT, one = BUF_INIT;
	const char *key = obj_key(a, r ? r : l);
	int rc = -1;

	buf_init(&lt, DIFF_CAP);
	buf_init(&rt, DIFF_CAP);
	buf_init(&one, DIFF_CAP);
	diff_mask_secrets(a, l ? l->obj : NULL, r ? r->obj : NULL);
	if (l) {
		diff_revisions_redact(a, l->obj);
		if (emit_document(&lt, l->obj, EMIT_YAML) < 0)
			goto out;
	}
	if (r) {
		diff_revisions_redact(a, r->obj);
		if (emit_document(&rt, r->obj, EMIT_YAML) < 0)
			goto out;
	}
	rc = diff_unified(&one, lt.data, lt.len, l ? arena_printf(a, "a/%s", key) : "/dev/null",
			  rt.data, rt.len, r ? arena_printf(a, "b/%s", key) : "/dev/null");
	if (rc < 0)
		goto out;
	it->obj = r ? r : l;
	it->key = key;
	it->change = !l ? ADDED : !r ? REMOVED : rc ? CHANGED : SAME;
	it->diff = arena_strndup(a, one.data, one.len);
	it->len = one.len;
	it->file = r ? site_file(head, r) : NULL;
	if (!it->file && l)
		it->file = site_file(base, l);
	count_lines(it);
	rc = 0;
out:
	buf_release(&lt);
	buf_release(&rt);
	buf_release(&one);
	return rc;
}

static int
compare(struct result *res, struct arena *a, struct side *base, struct side *head)
{
	size_t i = 0, j = 0;

	res->items = arena_alloc(a, (base->count + head->count + 1) * sizeof(*res->items));
	while (i < base->count || j < head->count) {
		const struct render_object *l = NULL, *r = NULL;
		struct item *it = &res->items[res->count];
		int c = i >= base->count   ? 1
			: j >= head->count ? -1
					   : cmp_obj(&base->objs[i], &head->objs[j]);

		if (c <= 0)
			l = base->objs[i++];
		if (c >= 0)
			r = head->objs[j++];
		if (compare_one(it, a, base, head, l, r) < 0)
			return -1;
		res->n[it->change]++;
		res->count++;
	}
	return 0;
}

/* ---- output ------------------------------------------------------------- */

static const char *
summary_line(struct arena *a, const struct result *res)
{
	return arena_printf(a, "%zu objects changed, %zu added, %zu removed", res->n[CHANGED],
			    res->n[ADDED], res->n[REMOVED]);
}

static int
write_text(FILE *out, struct arena *a, const struct result *res, bool quiet)
{
	bool any = res->n[CHANGED] || res->n[ADDED] || res->n[REMOVED];

	for (size_t i = 0; i < res->count; i++)
		fwrite(res->items[i].diff, 1, res->items[i].len, out);
	if (any || !quiet)
		fprintf(out, "%s\n", summary_line(a, res));
	return 0;
}

static int
write_json(FILE *out, struct arena *a, const struct result *res)
{
	struct node *root = node_new_map(a, (struct pos){ 0 });
	struct node *list = node_new_seq(a, (struct pos){ 0 });
	struct node *sum = node_new_map(a, (struct pos){ 0 });
	struct buf b = BUF_INIT;
	int rc = 0;

	node_map_add_str(a, root, "base", res->base);
	node_map_add_str(a, root, "head", res->head);
	for (size_t i = 0; i < res->count; i++) {
		const struct item *it = &res->items[i];
		struct node *o = node_new_map(a, (struct pos){ 0 });

		node_map_add_str(a, o, "apiVersion", it->obj->api_version);
		node_map_add_str(a, o, "kind", it->obj->kind);
		if (it->obj->namespace && *it->obj->namespace)
			node_map_add_str(a, o, "namespace", it->obj->namespace);
		node_map_add_str(a, o, "name", it->obj->name);
		if (it->obj->site)
			node_map_add_str(a, o, "site", it->obj->site);
		if (it->file)
			node_map_add_str(a, o, "file", it->file);
		node_map_add_str(a, o, "status", change_names[it->change]);
		if (it->change != SAME) {
			node_map_add_int(a, o, "additions", (int64_t)it->plus);
			node_map_add_int(a, o, "deletions", (int64_t)it->minus);
			node_map_add_str(a, o, "diff", it->diff);
		}
		node_seq_push(a, list, o);
	}
	node_map_add(a, root, "objects", list);
	node_map_add_int(a, sum, "changed", (int64_t)res->n[CHANGED]);
	node_map_add_int(a, sum, "added", (int64_t)res->n[ADDED]);
	node_map_add_int(a, sum, "removed", (int64_t)res->n[REMOVED]);
	node_map_add_int(a, sum, "unchanged", (int64_t)res->n[SAME]);
	node_map_add(a, root, "summary", sum);
	buf_init(&b, DIFF_CAP);
	if (json_write(&b, root, JSON_PRETTY) < 0 || buf_addch(&b, '\n') < 0)
		rc = -1;
	else
		fwrite(b.data, 1, b.len, out);
	buf_release(&b);
	return rc;
}

/* `s` as a Markdown code span: a fence longer than any backtick run in
 * it, control characters as spaces (a heading stays one line). */
static int
md_code(struct buf *b, const char *s)
{
	size_t run = 0, longest = 0;
	int rc = 0;

	for (const char *c = s; *c; c++) {
		run = *c == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	for (size_t i = 0; i <= longest; i++)
		rc |= buf_addch(b, '`');
	rc |= buf_addch(b, ' ');
	for (const char *c = s; *c; c++)
		rc |= buf_addch(b, (unsigned char)*c < 0x20 || *c == 0x7f ? ' ' : *c);
	rc |= buf_addch(b, ' ');
	for (size_t i = 0; i <= longest; i++)
		rc |= buf_addch(b, '`');
	return rc ? -1 : 0;
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
md_block(struct buf *b, const struct item *it)
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
change_text(struct arena *a, const struct item *it)
{
	return arena_printf(a, "%s, +%zu \xe2\x88\x92%zu", change_names[it->change], it->plus,
			    it->minus);
}

/*
 * The pull-request comment: heading, summary, a table of what changed,
 * then one diff block per object, folded when long.  Whatever would take
 * it past `budget` bytes is left out and counted instead.
 */
static int
md_build(struct buf *b, struct arena *a, const struct result *res, size_t budget)
{
	size_t listed = 0, shown = 0, total = res->n[CHANGED] + res->n[ADDED] + res->n[REMOVED];
	int rc = 0;

	rc |= buf_adds(b, "### gpusite diff: ");
	rc |= md_code(b, res->base);
	rc |= buf_adds(b, " \xe2\x86\x92 ");
	rc |= md_code(b, res->head);
	rc |= buf_printf(b, "\n\n**%s** (%zu unchanged)\n\n", summary_line(a, res), res->n[SAME]);
	if (!total) {
		rc |= buf_adds(b, "No difference in the rendered output.\n");
		return rc ? -1 : 0;
	}
	rc |= buf_adds(b, "| Object | Site | Change |\n|---|---|---|\n");
	for (size_t i = 0; i < res->count && !rc; i++) {
		const struct item *it = &res->items[i];
		const char *row;

		if (it->change == SAME)
			continue;
		row = arena_printf(a, "| `%s` | %s | %s |\n", it->key,
				   it->obj->site ? it->obj->site : "", change_text(a, it));
		if (b->len + strlen(row) + 512 > budget)
			break;
		rc |= buf_adds(b, row);
		listed++;
	}
	if (listed < total)
		rc |= buf_printf(b, "\n%zu more not listed here.\n", total - listed);
	rc |= buf_addch(b, '\n');
	for (size_t i = 0; i < res->count && !rc; i++) {
		const struct item *it = &res->items[i];
		struct buf blk = BUF_INIT;
		bool fold = line_count(it->diff) > MD_FOLD_LINES;

		if (it->change == SAME)
			continue;
		buf_init(&blk, DIFF_CAP);
		if (fold)
			rc |= buf_printf(&blk,
					 "<details>\n<summary><code>%s</code> (%s)</summary>\n\n",
					 it->key, change_text(a, it));
		else
			rc |= buf_printf(&blk, "#### `%s` (%s)\n\n", it->key, change_text(a, it));
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

/* GitHub workflow command escaping: data (% CR LF), properties (also : ,). */
static void
gh_put(FILE *out, const char *s, bool prop)
{
	for (; *s; s++) {
		switch (*s) {
		case '%': fputs("%25", out); break;
		case '\r': fputs("%0D", out); break;
		case '\n': fputs("%0A", out); break;
		case ':': fputs(prop ? "%3A" : ":", out); break;
		case ',': fputs(prop ? "%2C" : ",", out); break;
		default: fputc(*s, out);
		}
	}
}

static int
append_summary(const char *path, struct arena *a, const struct result *res)
{
	struct buf b = BUF_INIT;
	FILE *f;
	int rc;

	buf_init(&b, DIFF_CAP);
	rc = md_build(&b, a, res, MD_SUMMARY_BUDGET);
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

static int
write_github(FILE *out, struct arena *a, const struct result *res)
{
	const char *summary = getenv("GITHUB_STEP_SUMMARY");

	for (size_t i = 0; i < res->count; i++) {
		const struct item *it = &res->items[i];

		if (it->change == SAME)
			continue;
		fputs("::group::", out);
		gh_put(out, arena_printf(a, "%s (%s)", it->key, change_text(a, it)), false);
		fputc('\n', out);
		fwrite(it->diff, 1, it->len, out);
		fputs("::endgroup::\n", out);
	}
	for (size_t i = 0; i < res->count; i++) {
		const struct item *it = &res->items[i];

		if (it->change == SAME)
			continue;
		fputs("::notice ", out);
		if (it->file) {
			fputs("file=", out);
			gh_put(out, it->file, true);
			fputc(',', out);
		}
		fputs("title=", out);
		gh_put(out, "gpusite diff", true);
		fputs("::", out);
		gh_put(out,
		       arena_printf(a, "%s %s in the rendered output (+%zu -%zu lines)", it->key,
				    change_names[it->change], it->plus, it->minus),
		       false);
		fputc('\n', out);
	}
	fprintf(out, "%s\n", summary_line(a, res));
	if (summary && *summary)
		return append_summary(summary, a, res);
	return 0;
}

/* ---- the command ---------------------------------------------------------- */

static int
parse_format(enum diff_format *out, const char *s)
{
	static const char *const names[] = { "text", "json", "markdown", "github" };

	if (!s) {
		*out = F_TEXT;
		return 0;
	}
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(s, names[i])) {
			*out = (enum diff_format)i;
			return 0;
		}
	}
	return -1;
}

int
diff_revisions_run(const struct opts *o, const char *base, const char *head, const char *format)
{
	struct pipeline_source src = opts_source(o, NULL, 0);
	struct arena a = ARENA_INIT;
	struct side bs, hs;
	struct result res;
	enum diff_format fmt;
	unsigned flags;
	double t0 = pipeline_now_ms();
	int code;

	if (!base)
		return usage("--head needs --base: say what to compare it with");
	if (o->ref)
		return usage("diff compares --base REV with --head REV; it does not take --ref");
	if (o->staged && head)
		return usage("--staged compares the index with --base; it does not take --head");
	if (o->staged && o->repo)
		return usage("--staged reads the index of the current repository; it"
			     " does not take --repo");
	if (parse_format(&fmt, format) < 0)
		return usage("unknown --format: use text, json, markdown or github");
	flags = opts_report_flags(o, stderr);

	arena_init(&a);
	memset(&bs, 0, sizeof(bs));
	memset(&hs, 0, sizeof(hs));
	memset(&res, 0, sizeof(res));
	bs.rev = base;
	bs.label = base;
	bs.where = arena_printf(&a, "at %s", base);
	hs.rev = head;
	if (head) {
		hs.label = head;
		hs.where = arena_printf(&a, "at %s", head);
	} else if (o->staged) {
		hs.label = "index";
		hs.where = "in the index";
	} else if (o->repo) {
		hs.label = "HEAD";
		hs.where = "at HEAD";
	} else {
		hs.label = "work tree";
		hs.where = "in the work tree";
	}
	code = load_side(&bs, &a, o, false, true, flags);
	if (!code)
		code = load_side(&hs, &a, o, o->staged, false, flags);
	if (code)
		goto out;
	res.base = bs.label;
	res.head = hs.label;
	if (compare(&res, &a, &bs, &hs) < 0) {
		fprintf(stderr,
			"gpusite diff: error: the rendered objects could not be"
			" compared (over %zu MiB?)\n",
			DIFF_CAP >> 20);
		code = GS_EXIT_FAILURE;
		goto out;
	}
	switch (fmt) {
	case F_TEXT: code = write_text(stdout, &a, &res, o->quiet); break;
	case F_JSON: code = write_json(stdout, &a, &res); break;
	case F_MARKDOWN: {
		struct buf b = BUF_INIT;

		buf_init(&b, DIFF_CAP);
		code = md_build(&b, &a, &res, MD_COMMENT_BUDGET);
		if (!code)
			fwrite(b.data, 1, b.len, stdout);
		buf_release(&b);
		break;
	}
	case F_GITHUB:
		/* annotations name the spec file from the repository's top */
		for (size_t i = 0; i < res.count; i++)
			res.items[i].file = pipeline_file_from_top(&a, &src, res.items[i].file);
		code = write_github(stdout, &a, &res);
		break;
	}
	if (code < 0 || fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "gpusite diff: error: cannot write the diff\n");
		code = GS_EXIT_FAILURE;
		goto out;
	}
	code = res.n[CHANGED] || res.n[ADDED] || res.n[REMOVED] ? GS_EXIT_FINDINGS : GS_EXIT_OK;
	if (o->verbose)
		fprintf(stderr,
			"gpusite diff: %s: %zu file%s, %zu object%s; %s: %zu file%s,"
			" %zu object%s; %.1f ms, %zu KiB of memory\n",
			bs.label, bs.files.count, bs.files.count == 1 ? "" : "s", bs.count,
			bs.count == 1 ? "" : "s", hs.label, hs.files.count,
			hs.files.count == 1 ? "" : "s", hs.count, hs.count == 1 ? "" : "s",
			pipeline_now_ms() - t0, a.total >> 10);
out:
	arena_release(&a);
	return code;
}
