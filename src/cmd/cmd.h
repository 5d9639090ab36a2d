/*
 * cmd.h - the subcommands.  One file cmd_<verb>.c each, one row each in
 * commands[] (cmd/commands.c).  Only this layer and main.c pick exit codes.
 */
#ifndef GS_CMD_H
#define GS_CMD_H

#include <stdio.h>

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
cmd_fn cmd_init;
cmd_fn cmd_parameters;
cmd_fn cmd_render;
cmd_fn cmd_report;
cmd_fn cmd_schema;
cmd_fn cmd_serve;
cmd_fn cmd_validate;
cmd_fn cmd_verify_scope;

struct opts;

/* `gpusite diff --base` (cmd_diff_revisions.c), called by cmd_diff: see
 * there for `base`, `head` and `format`; returns the exit code. */
int diff_revisions_run(const struct opts *o, const char *base, const char *head,
		       const char *format);

#endif
