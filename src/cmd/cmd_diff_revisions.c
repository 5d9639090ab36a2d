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

static int
usage(const char *msg)
{
	fprintf(stderr, "gpusite diff: %s\nsee 'gpusite diff --help'\n", msg);
	return GS_EXIT_USAGE;
}

/*
 * Render the specs at `base` and at `head` (NULL: the index with
 * --staged, the repository's HEAD with --repo, else the work tree) and
 * print the difference in `format` ("text", NULL = text, "json",
 * "markdown", "github").  o->repo, o->staged and o->args (PATH) apply to
 * both sides.  Returns the exit code: 0 no difference, 1 a difference or
 * a side whose specs are invalid, 3 when a side could not be read.
 */
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
	if (diff_format_parse(&fmt, format) < 0)
		return usage("unknown --format: use text, json, markdown or github");
	flags = opts_report_flags(o, stderr);

	arena_init(&a);
	memset(&bs, 0, sizeof(bs));
	memset(&hs, 0, sizeof(hs));
	memset(&res, 0, sizeof(res));
	bs.rev = base;
	bs.label = base;
	bs.where = arena_printf(&a, "at %s", base);
	diff_side_name_head(&hs, &a, head, o->staged, o->repo != NULL);
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
	code = diff_revisions_write(fmt, &a, &res, &src, o->quiet);
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
