/*
 * cmd_diff_revisions.c - `gpusite diff --base REV [--head REV] [PATH]`:
 * render the specs of both revisions straight from the Git object
 * database (the head side may also be the work tree or the index) and
 * show, object by object, how the rendered output changes
 * (pipeline/pipeline_diff.c), in the format asked for
 * (report/report_diff.c).  The command checks the options, picks the
 * sides and the exit code.
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
#include "cli/opts.h"
#include "pipeline/pipeline.h"
#include "pipeline/pipeline_diff.h"
#include "report/report.h"
#include "report/report_diff.h"

enum diff_format { F_TEXT, F_JSON, F_MARKDOWN, F_GITHUB };

static int
usage(const char *msg)
{
	fprintf(stderr, "gpusite diff: %s\nsee 'gpusite diff --help'\n", msg);
	return GS_EXIT_USAGE;
}

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

/*
 * Render the specs at `base` and at `head` (NULL: the index with
 * --staged, the repository's HEAD with --repo, else the work tree) and
 * print the difference in `format` ("text", NULL = text, "json",
 * "markdown", "github").  o->repo, o->staged and o->args (PATH) apply to
 * both sides.  Returns the exit code: 0 no difference, 1 a difference or
 * a side whose specs are invalid, 3 when a side could not be read.
 */
/* The --head side's name: a revision, the index, HEAD of --repo, or the
 * work tree. */
static void
name_head(struct diff_side *hs, struct arena *a, const struct opts *o, const char *head)
{
	hs->rev = head;
	if (head) {
		hs->label = head;
		hs->where = arena_printf(a, "at %s", head);
	} else if (o->staged) {
		hs->label = "index";
		hs->where = "in the index";
	} else if (o->repo) {
		hs->label = "HEAD";
		hs->where = "at HEAD";
	} else {
		hs->label = "work tree";
		hs->where = "in the work tree";
	}
}

/* Write the comparison to stdout in fmt; negative when it could not be
 * written. */
static int
write_diff(enum diff_format fmt, struct arena *a, struct diff_result *res,
	   const struct pipeline_source *src, bool quiet)
{
	int code = -1; /* -1 until a writer ran: the switch covers every format */

	switch (fmt) {
	case F_TEXT: code = report_diff_text(stdout, a, res, quiet); break;
	case F_JSON: code = report_diff_json(stdout, a, res); break;
	case F_MARKDOWN: {
		struct buf b = BUF_INIT;

		buf_init(&b, DIFF_REVISIONS_CAP);
		code = report_diff_markdown(&b, a, res, REPORT_DIFF_COMMENT_BUDGET);
		if (!code)
			fwrite(b.data, 1, b.len, stdout);
		buf_release(&b);
		break;
	}
	case F_GITHUB:
		/* annotations name the spec file from the repository's top */
		for (size_t i = 0; i < res->count; i++)
			res->items[i].file = pipeline_file_from_top(a, src, res->items[i].file);
		code = report_diff_github(stdout, a, res);
		break;
	}
	return code;
}

int
diff_revisions_run(const struct opts *o, const char *base, const char *head, const char *format)
{
	struct pipeline_source src = opts_source(o, NULL, 0);
	struct arena a = ARENA_INIT;
	struct diff_side bs, hs;
	struct diff_result res;
	enum diff_format fmt;
	unsigned flags;
	double t0 = pipeline_now_ms();
	struct pipeline_source side;
	int rc, code;

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
	name_head(&hs, &a, o, head);
	side = opts_source(o, (const char *const *)o->args, o->nargs);
	side.staged = false;
	rc = diff_side_load(&bs, &a, &side, true, flags);
	if (!rc) {
		side.staged = o->staged;
		rc = diff_side_load(&hs, &a, &side, false, flags);
	}
	if (rc) {
		code = rc == DIFF_SIDE_EINVALID ? GS_EXIT_FINDINGS : GS_EXIT_FAILURE;
		goto out;
	}
	res.base = bs.label;
	res.head = hs.label;
	if (diff_revisions_compare(&res, &a, &bs, &hs) < 0) {
		fprintf(stderr,
			"gpusite diff: error: the rendered objects could not be"
			" compared (over %zu MiB?)\n",
			DIFF_REVISIONS_CAP >> 20);
		code = GS_EXIT_FAILURE;
		goto out;
	}
	code = write_diff(fmt, &a, &res, &src, o->quiet);
	if (code < 0 || fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "gpusite diff: error: cannot write the diff\n");
		code = GS_EXIT_FAILURE;
		goto out;
	}
	code = res.n[DIFF_CHANGED] || res.n[DIFF_ADDED] || res.n[DIFF_REMOVED] ? GS_EXIT_FINDINGS
									       : GS_EXIT_OK;
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
