/*
 * cmd_steps.c - the steps every command shares (docs/design/commands.md):
 * the exit code of a parse, open the fleet, report and exit, and a live
 * run's start and failure with their exit codes.
 */
#include <string.h>

#include "cli/opts.h"
#include "cmd/cmd.h"
#include "pipeline/live.h"

int
cmd_parse_exit(int result)
{
	return result == OPTS_HELP ? GS_EXIT_OK : GS_EXIT_USAGE;
}

int
cmd_open(struct cmd_fleet *f, const struct opts *o, const char *name, unsigned flags,
	 size_t lean_from)
{
	memset(f, 0, sizeof(*f));
	f->t0 = pipeline_now_ms();
	f->name = name;
	arena_init(&f->a);
	f->src = opts_source(o, (const char *const *)o->args, o->nargs);
	if (pipeline_open_lean(&f->p, &f->files, &f->a, &f->src, name, flags, lean_from) < 0)
		return GS_EXIT_FAILURE;
	return GS_EXIT_OK;
}

void
cmd_close(struct cmd_fleet *f)
{
	arena_release(&f->a);
}

struct cmd_findings
cmd_fleet_findings(struct cmd_fleet *f)
{
	struct cmd_findings out = {
		&f->p.diags, &f->files, &f->p.fleet, f->p.docs, f->name, stderr
	};

	return out;
}

/* --strict makes warnings errors; the findings in file order. */
static void
settle(const struct cmd_findings *f, const struct opts *o)
{
	if (o->strict)
		diags_promote_warnings(f->diags);
	diags_sort(f->diags);
}

int
cmd_report_exit(const struct cmd_findings *f, const struct opts *o, enum report_format format,
		unsigned flags)
{
	struct report_input in = { f->diags, f->files, f->fleet, f->docs, f->name };

	settle(f, o);
	if (format == REPORT_GITHUB || format == REPORT_SARIF) {
		struct pipeline_source src = opts_source(o, NULL, 0);

		pipeline_files_from_top(f->diags, f->diags->arena, &src);
	}
	if (report_write_flags(stdout, f->text, &in, format, flags) < 0) {
		fprintf(stderr, "%s: error: cannot write the report\n", f->name);
		return GS_EXIT_FAILURE;
	}
	return diags_count(f->diags, DIAG_ERROR) ? GS_EXIT_FINDINGS : GS_EXIT_OK;
}

int
cmd_fail_exit(const struct cmd_findings *f, const struct opts *o, unsigned flags)
{
	struct report_input in = { f->diags, f->files, f->fleet, f->docs, f->name };

	settle(f, o);
	report_write_flags(stdout, stderr, &in, REPORT_TEXT,
			   (flags & REPORT_COLOR) | REPORT_NO_SUMMARY);
	return GS_EXIT_FAILURE;
}

int
cmd_live_open(struct live_run *out, struct arena *a, const char *name, const struct opts *o,
	      const struct live_opts *lo)
{
	struct pipeline_source src = opts_source(o, (const char *const *)o->args, o->nargs);

	switch (live_run_start(out, a, name, &src, lo, o->verbose, o->quiet)) {
	case LIVE_OK: return GS_EXIT_OK;
	case LIVE_EINVALID: return GS_EXIT_FINDINGS;
	default: return GS_EXIT_FAILURE;
	}
}

int
cmd_live_fail(struct live_run *r)
{
	live_run_print_errors(r);
	return GS_EXIT_FAILURE;
}
