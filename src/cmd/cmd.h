/*
 * cmd.h - the subcommands.  One file cmd_<verb>.c each, one row each in
 * commands[] (cmd/commands.c).  Only this layer and main.c pick exit codes.
 */
#ifndef GS_CMD_H
#define GS_CMD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/arena.h"
#include "pipeline/pipeline.h"
#include "report/report.h"

/* Exit codes, the same for every command (docs/design/commands.md). */
enum gs_exit {
	GS_EXIT_OK = 0,       /* valid, no difference, no drift */
	GS_EXIT_FINDINGS = 1, /* invalid spec, a difference, drift */
	GS_EXIT_USAGE = 2,    /* unknown flag, missing argument */
	GS_EXIT_FAILURE = 3,  /* could not do the job */
};

/* argv[0] is the subcommand name; returns an enum gs_exit value. */
typedef int cmd_fn(int argc, char **argv);

struct command {
	const char *name;
	cmd_fn *fn;
	const char *summary; /* one line for `gpusite --help` */
};

extern const struct command commands[];
extern const size_t commands_count;

cmd_fn cmd_diff;
cmd_fn cmd_drill;
cmd_fn cmd_drill_run; /* `drill run`, called by cmd_drill */
cmd_fn cmd_drift;
cmd_fn cmd_explain;
cmd_fn cmd_generate;
cmd_fn cmd_hydrate;
cmd_fn cmd_init;
cmd_fn cmd_parameters;
cmd_fn cmd_render;
cmd_fn cmd_report;
cmd_fn cmd_schema;
cmd_fn cmd_serve;
cmd_fn cmd_validate;
cmd_fn cmd_verify_scope;

struct opts;
struct live_opts;
struct live_run;

/* The exit code of a result of opts_parse() other than OPTS_OK: 0 after
 * --help, 2 after a usage error. */
int cmd_parse_exit(int result);

/* `gpusite diff --base` (cmd_diff_revisions.c), called by cmd_diff: see
 * there for `base`, `head` and `format`; returns the exit code. */
int diff_revisions_run(const struct opts *o, const char *base, const char *head,
		       const char *format);

/* `gpusite diff --live` (cmd_diff_live.c), called by cmd_diff. */
int diff_live_run(const struct opts *o, const struct live_opts *lo, bool json);

/*
 * The steps every reading command takes (cmd_steps.c, see
 * docs/design/commands.md): open the fleet, then report and exit.
 */

/* A reading command's run: its arena, its spec files, the road run over
 * them, and where they were read from. */
struct cmd_fleet {
	struct arena a;
	struct source_set files;
	struct pipeline p;
	struct pipeline_source src;
	const char *name; /* "gpusite validate" */
	double t0;        /* when the command started, for -v */
};

/*
 * Open the fleet: the spec files the common source options (--repo, --ref,
 * --staged) and the PATH arguments o->args name, the road run over them
 * (pipeline_open_lean(): lean from `lean_from` files on; SIZE_MAX never).
 * GS_EXIT_OK, errors in the specs or not (f->p.diags), or GS_EXIT_FAILURE
 * when the files could not be read (the reason printed on stderr, in
 * colour as `flags` says).  cmd_close() in either case.
 */
int cmd_open(struct cmd_fleet *f, const struct opts *o, const char *name, unsigned flags,
	     size_t lean_from);
void cmd_close(struct cmd_fleet *f);

/* The findings a command reports. */
struct cmd_findings {
	struct diags *diags;
	const struct source_set *files;
	const struct spec_fleet *fleet; /* or NULL */
	size_t docs;
	const char *name; /* "gpusite validate" */
	FILE *text;       /* where text findings go: stderr, or stdout (drift) */
};

/* The findings of an opened fleet, text on stderr. */
struct cmd_findings cmd_fleet_findings(struct cmd_fleet *f);

/*
 * Report and exit: with --strict warnings become errors; the findings are
 * sorted, named from the top of the work tree for github and sarif
 * (pipeline_files_from_top), and written in `format` (text on f->text,
 * the others on stdout) with the report `flags`.  Returns GS_EXIT_FINDINGS
 * when an error remains, else GS_EXIT_OK; GS_EXIT_FAILURE when the report
 * could not be written (said on stderr).
 */
int cmd_report_exit(const struct cmd_findings *f, const struct opts *o, enum report_format format,
		    unsigned flags);

/* The job could not be done: the findings, sorted, as text on stderr
 * without a summary line (coloured as `flags` says); GS_EXIT_FAILURE. */
int cmd_fail_exit(const struct cmd_findings *f, const struct opts *o, unsigned flags);

/*
 * A live run (pipeline/live.h) from the common source options, the PATH
 * arguments and the cluster options.  GS_EXIT_OK, or the exit code after
 * everything was printed on stderr (1: invalid specs, 3: cluster or read
 * errors).  live_run_finish() in either case.
 */
int cmd_live_open(struct live_run *out, struct arena *a, const char *name, const struct opts *o,
		  const struct live_opts *lo);

/* Print r->errors (and kube diagnostics) on stderr: GS_EXIT_FAILURE. */
int cmd_live_fail(struct live_run *r);

#endif
