/*
 * cmd_drift.c - `gpusite drift [PATH]`: the live checks beyond the object
 * diff (live/drift.h has the GS2xx table).  The cluster is read page by
 * page into compact records (pipeline/live_drift.h): nodes, the GPU
 * stack's pods, the GPU pods of the placement namespaces, each site's
 * fallback NodePool, its node class and NodeClaims.  GET and LIST only.
 *
 * Exit 0 no drift (notes such as an active fallback are state, not
 * drift), 1 drift, 2 usage, 3 the cluster could not be read.
 */
#include <stdio.h>
#include <string.h>

#include "base/arena.h"
#include "cmd/cmd.h"
#include "cli/opts_live.h"
#include "pipeline/live.h"
#include "pipeline/live_drift.h"
#include "cli/help.h"
#include "cli/opts.h"
#include "live/drift.h"
#include "kube/kube.h"
#include "report/report.h"
#include "report/report_findings.h"

static const struct opt_spec drift_opts[] = {
	LIVE_OPT_SPECS,
	{ 0, NULL, 0, NULL, NULL },
};

static int on_option(void *payload, int id, const char *value);

/* The help: these two paragraphs around the list of the drift findings,
 * which the table of findings gives (base/findings.c). */

static const struct report_findings_help drift_help = {
	cli_help_drift_head,
	FINDING_DRIFT,
	NULL,
	cli_help_drift_tail,
};
static char drift_about[8192];

static struct opts_cmd drift_cmd = {
	.name = "drift",
	.usage = "[options] [PATH]",
	.about = cli_help_drift_head,
	.common = OPTS_FORMAT | OPTS_STRICT | OPTS_COLOR | OPTS_QUIET | OPTS_VERBOSE | OPTS_SOURCE,
	.own = drift_opts,
	.on_option = on_option,
	.min_args = 0,
	.max_args = 1,
};

static int
on_option(void *payload, int id, const char *value)
{
	int rc = live_on_option(payload, &drift_cmd, id, value);

	return rc == 1 ? 0 : rc;
}

int
cmd_drift(int argc, char **argv)
{
	struct arena a = ARENA_INIT;
	struct live_opts lo;
	struct opts o;
	struct live_run run;
	struct drift_input in;
	struct diags findings;
	struct cmd_findings rf;
	struct spec_fleet fleet;
	struct source_set files;
	unsigned flags = REPORT_NO_SUMMARY;
	size_t drift;
	int rc, code;

	memset(&lo, 0, sizeof(lo));
	memset(&run, 0, sizeof(run));
	drift_cmd.payload = &lo;
	if (report_findings_help(drift_about, sizeof(drift_about), &drift_help) == 0)
		drift_cmd.about = drift_about;
	rc = opts_parse(&o, &drift_cmd, argc, argv);
	if (rc != OPTS_OK)
		return cmd_parse_exit(rc);
	arena_init(&a);
	code = cmd_live_open(&run, &a, "gpusite drift", &o, &lo);
	if (code != GS_EXIT_OK)
		goto out;
	if (live_drift_read(&in, &run) < 0) {
		code = cmd_live_fail(&run);
		goto out;
	}

	diags_init(&findings, &a);
	drift = drift_check(&a, &findings, &in);
	if (opts_use_color(&o, stdout))
		flags |= REPORT_COLOR;
	/* only this cluster's sites are reported on (junit test cases) */
	live_drift_fleet(&fleet, &files, &run);
	rf =
		(struct cmd_findings){ &findings,  &files,          &fleet,
				       run.nsites, "gpusite drift", stdout };
	if (cmd_report_exit(&rf, &o, o.format, flags) == GS_EXIT_FAILURE) {
		code = GS_EXIT_FAILURE;
		goto out;
	}
	if (o.format == REPORT_TEXT && (!o.quiet || findings.count))
		live_drift_summary(stdout, &run, &in, &findings);
	if (o.verbose)
		fprintf(stderr, "gpusite drift: %u requests, %zu KiB of memory\n",
			kube_request_count(run.kube), a.total >> 10);
	/* errors are drift, warnings with --strict (promoted above); notes
	 * (an active fallback) are state */
	code = drift && diags_count(&findings, DIAG_ERROR) ? GS_EXIT_FINDINGS : GS_EXIT_OK;
out:
	live_run_finish(&run);
	arena_release(&a);
	return code;
}
