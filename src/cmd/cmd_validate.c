/*
 * cmd_validate.c - `gpusite validate [PATH|FILE...]`: parse, schema-check
 * and rule-check every site spec, report every problem in one run.
 *
 * Exit 0 when valid (warnings alone are fine), 1 on errors (or warnings
 * with --strict), 2 on a usage error, 3 when the specs could not be read.
 */
#include <stdio.h>
#include <stdlib.h>

#include "base/arena.h"
#include "check/check.h"
#include "cmd/cmd.h"
#include "cli/help.h"
#include "cli/opts.h"
#include "cli/opts_live.h"
#include "pipeline/live_schemas.h"
#include "pipeline/pipeline.h"
#include "report/report.h"

/* --rendered: check rendered manifests instead of site specs (check/). */
enum { OPT_RENDERED = 1, OPT_UPSTREAM, OPT_LIVE };

static struct {
	bool rendered;
	const char *upstream;
	bool live;
	struct live_opts lo;
} rendered_args;

static const struct opts_cmd validate_cmd;

static int
validate_option(void *payload, int id, const char *value)
{
	int rc;

	(void)payload;
	if (id == OPT_RENDERED) {
		rendered_args.rendered = true;
	} else if (id == OPT_UPSTREAM) {
		rendered_args.upstream = value;
	} else if (id == OPT_LIVE) {
		rendered_args.live = true;
	} else {
		rc = live_on_option(&rendered_args.lo, &validate_cmd, id, value);
		return rc == 1 ? 0 : rc;
	}
	return 0;
}

static const struct opt_spec validate_opts[] = {
	{ OPT_RENDERED, "rendered", 0, NULL,
	  "check rendered manifests (FILE..., none or -: stdin) against upstream schemas and "
	  "rules" },
	{ OPT_UPSTREAM, "upstream", 0, "DIR",
	  "CRDs and OpenAPI v3 documents for --rendered, any file names (default: "
	  "$GPUSITE_UPSTREAM)" },
	{ OPT_LIVE, "live", 0, NULL,
	  "--rendered against the schemas the cluster serves: its CRDs and /openapi/v3 (GET and "
	  "LIST only)" },
	LIVE_OPT_KUBECONFIG_ROW("with --live: "),
	LIVE_OPT_CONTEXT_ROW("with --live: "),
	{ LIVE_OPT_TIMEOUT, "timeout", 0, "DURATION",
	  "with --live: give up after this long (default 30s)" },
	{ 0, NULL, 0, NULL, NULL },
};

static const struct opts_cmd validate_cmd = {
	.name = "validate",
	.usage = "[options] [PATH|FILE...]",
	.about = cli_help_validate,
	.common = OPTS_FINDINGS,
	.own = validate_opts,
	.on_option = validate_option,
	.min_args = 0,
	.max_args = OPTS_ANY,
};

static int
validate_rendered(const struct opts *o, unsigned flags)
{
	struct arena a = ARENA_INIT;
	struct diags d;
	struct source_set files = { NULL, 0, 0, NULL };
	struct cmd_findings f = { &d, &files, NULL, 0, "gpusite validate --rendered", stderr };
	const char *up =
		rendered_args.upstream ? rendered_args.upstream : getenv("GPUSITE_UPSTREAM");
	struct check_upstream *u = NULL;
	struct live_schemas *ls = NULL;
	int r, code;

	if ((!up || !*up) && !rendered_args.live)
		return cmd_parse_exit(opts_usage_error(
			&validate_cmd, "--rendered needs the upstream schemas: "
				       "--upstream DIR, GPUSITE_UPSTREAM or --live"));
	if (o->staged || o->repo || o->ref)
		return cmd_parse_exit(opts_usage_error(
			&validate_cmd,
			"--rendered reads files or standard input, not --staged, --repo or --ref"));
	arena_init(&a);
	diags_init(&d, &a);
	u = up && *up ? check_upstream_open(&a, &d, up) : check_upstream_new(&a, "the cluster");
	r = u ? 0 : -3;
	check_upstream_set_timeout(u, rendered_args.lo.timeout);
	if (u && rendered_args.live)
		r = live_schemas_open(&ls, u, &a, &d, &rendered_args.lo, o->verbose);
	if (r == 0)
		r = check_rendered_files(&a, &d, &files, u, (const char *const *)o->args, o->nargs);
	live_schemas_close(ls);
	code = r == -3 ? cmd_fail_exit(&f, o, flags) : cmd_report_exit(&f, o, o->format, flags);
	arena_release(&a);
	return code;
}

int
cmd_validate(int argc, char **argv)
{
	struct opts o;
	struct cmd_fleet f;
	struct cmd_findings rf;
	unsigned flags;
	int r, code;

	r = opts_parse(&o, &validate_cmd, argc, argv);
	if (r != OPTS_OK)
		return cmd_parse_exit(r);
	if (o.staged && (o.repo || o.ref))
		return cmd_parse_exit(opts_usage_error(
			&validate_cmd, "--staged checks the index of the current repository;"
				       " it cannot be combined with --repo or --ref"));

	flags = opts_report_flags(&o, stderr);
	if (o.quiet)
		flags |= REPORT_QUIET;
	if (rendered_args.rendered)
		return validate_rendered(&o, flags);
	if (rendered_args.live || rendered_args.upstream || rendered_args.lo.kubeconfig ||
	    rendered_args.lo.context || rendered_args.lo.timeout > 0)
		return cmd_parse_exit(opts_usage_error(
			&validate_cmd,
			"--upstream, --live, --kubeconfig, --context and --timeout go "
			"with --rendered"));

	code = cmd_open(&f, &o, "gpusite validate", flags, 0);
	if (code != GS_EXIT_OK)
		goto out;
	rf = cmd_fleet_findings(&f);
	code = cmd_report_exit(&rf, &o, o.format, flags);
	if (code != GS_EXIT_FAILURE && o.verbose)
		fprintf(stderr,
			"gpusite validate: read %zu file%s (%zu bytes) from '%s':"
			" %zu document%s, %zu valid site%s; %.1f ms, %zu KiB of memory\n",
			f.files.count, f.files.count == 1 ? "" : "s", source_set_bytes(&f.files),
			f.files.label ? f.files.label : ".", f.p.docs, f.p.docs == 1 ? "" : "s",
			f.p.fleet.count, f.p.fleet.count == 1 ? "" : "s", pipeline_now_ms() - f.t0,
			f.a.total >> 10);
out:
	cmd_close(&f);
	return code;
}
