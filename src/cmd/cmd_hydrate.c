/*
 * cmd_hydrate.c - `gpusite hydrate --branch NAME [--push] [--dry-run]
 * [--format text|markdown] [--repo URL|PATH] [--ref REV] [PATH]`: commit
 * the rendered manifests of every cluster to a branch, for an Argo CD
 * without plugins (src/hydrate/).
 *
 * Exit 0 committed, pushed, or nothing to commit; 1 the specs have
 * errors (nothing committed); 2 usage; 3 the job could not be done: Git
 * unreadable, the branch moved under the run, the push refused.
 */
#include <stdio.h>
#include <string.h>

#include "base/arena.h"
#include "cmd/cmd.h"
#include "cli/help.h"
#include "cli/opts.h"
#include "hydrate/hydrate.h"
#include "pipeline/pipeline.h"

enum hydrate_opt {
	H_BRANCH = 1,
	H_PUSH,
	H_DRY_RUN,
	H_FORMAT,
};

static const struct opt_spec hydrate_opts[] = {
	{ H_BRANCH, "branch", 0, "NAME",
	  "the branch to commit to (refs/heads/NAME; created when missing)" },
	{ H_PUSH, "push", 0, NULL,
	  "push the branch to the remote (the --repo URL, else 'origin'), never forced;"
	  " a token from GPUSITE_GIT_TOKEN or GIT_TOKEN over https only, the SSH agent" },
	{ H_DRY_RUN, "dry-run", 0, NULL, "say what the commit would change; write nothing" },
	{ H_FORMAT, "format", 0, "FMT",
	  "text (default) or, with --dry-run, markdown: the change per cluster and"
	  " object, for a pull-request comment" },
	{ 0, NULL, 0, NULL, NULL },
};

static int on_option(void *payload, int id, const char *value);

static struct opts_cmd hydrate_cmd = {
	.name = "hydrate",
	.usage = "--branch NAME [options] [PATH]",
	.about = cli_help_hydrate,
	.common = OPTS_SOURCE | OPTS_STRICT | OPTS_COLOR | OPTS_QUIET | OPTS_VERBOSE,
	.own = hydrate_opts,
	.on_option = on_option,
	.min_args = 0,
	.max_args = 1,
};

static int
on_option(void *payload, int id, const char *value)
{
	struct hydrate_options *ho = payload;

	switch (id) {
	case H_BRANCH: ho->branch = value; return 0;
	case H_PUSH: ho->push = true; return 0;
	case H_DRY_RUN: ho->dry_run = true; return 0;
	case H_FORMAT:
		if (!strcmp(value, "text"))
			ho->markdown = false;
		else if (!strcmp(value, "markdown"))
			ho->markdown = true;
		else
			return opts_usage_error(
				&hydrate_cmd, "unknown --format '%s': use text or markdown", value);
		return 0;
	}
	return 0;
}

/* What the options cannot mean together: -1 after saying so. */
static int
check_usage(const struct hydrate_options *ho, const struct opts *o)
{
	if (!ho->branch || !*ho->branch)
		return opts_usage_error(&hydrate_cmd, "--branch NAME is required");
	if (o->staged)
		return opts_usage_error(&hydrate_cmd,
					"hydrate reads a commit (--ref), never the index");
	if (ho->markdown && !ho->dry_run)
		return opts_usage_error(&hydrate_cmd, "--format markdown goes with --dry-run");
	if (ho->push && ho->dry_run)
		return opts_usage_error(&hydrate_cmd, "--push and --dry-run exclude each other");
	return 0;
}

int
cmd_hydrate(int argc, char **argv)
{
	struct arena a = ARENA_INIT;
	struct hydrate_options ho;
	struct opts o;
	int rc, code;

	memset(&ho, 0, sizeof(ho));
	hydrate_cmd.payload = &ho;
	rc = opts_parse(&o, &hydrate_cmd, argc, argv);
	if (rc != OPTS_OK)
		return cmd_parse_exit(rc);
	if (check_usage(&ho, &o) < 0)
		return GS_EXIT_USAGE;
	ho.repo = o.repo;
	ho.ref = o.ref;
	ho.paths = (const char *const *)o.args;
	ho.npaths = o.nargs;
	ho.strict = o.strict;
	ho.quiet = o.quiet;
	ho.report_flags = opts_report_flags(&o, stderr);
	arena_init(&a);
	rc = hydrate_run(&a, &ho);
	code = rc == HYDRATE_OK         ? GS_EXIT_OK
	       : rc == HYDRATE_EINVALID ? GS_EXIT_FINDINGS
					: GS_EXIT_FAILURE;
	arena_release(&a);
	return code;
}
