/*
 * cmd_report.c - `gpusite report [PATH] --format html|markdown -o FILE`:
 * the fleet page.  Per cluster its capacity and versions, per site the RTO
 * budget (and the last drill of each --drill-record), and every set of up
 * to --fail K sites of a cluster failing together with the shortfall and
 * the cost per hour of the fallback at its limit (src/fleetpage/).  The
 * file is written whole or not at all, never through a link (src/emit/).
 */
#include <stdio.h>
#include <string.h>

#include "base/arena.h"
#include "cmd/cmd.h"
#include "cli/help.h"
#include "cli/opts.h"
#include "emit/emit_file.h"
#include "fleetpage/fleetpage.h"
#include "pipeline/pipeline.h"
#include "report/report.h"
#include "source/source_branch.h"

enum report_opt { P_FORMAT = 1, P_OUTPUT, P_FAIL, P_DRILL_RECORD, P_DRIFT_JSON };
enum page_format { PAGE_NONE, PAGE_HTML, PAGE_MARKDOWN };

struct page_args {
	enum page_format format;
	const char *output;
	int fail;
	const char *records[FLEETPAGE_MAX_RECORDS];
	size_t record_count;
	const char *drift_json;
};

static const struct opt_spec page_opts[] = {
	{ P_FORMAT, "format", 0, "html|markdown", "the page as one HTML file, or Markdown tables" },
	{ P_OUTPUT, "output", 'o', "FILE", "write the page to FILE ('-': standard output)" },
	{ P_FAIL, "fail", 0, "K",
	  "what-if of every set of up to K sites of a cluster failing together"
	  " (default 2, at most 4)" },
	{ P_DRILL_RECORD, "drill-record", 0, "FILE",
	  "a record of `drill run --record` (repeat for more; the last drill of"
	  " each site is shown beside its budget)" },
	{ P_DRIFT_JSON, "drift-json", 0, "FILE",
	  "the live section: drift findings per site and whether its fallback is"
	  " active, from `gpusite drift --format json` output" },
	{ 0, NULL, 0, NULL, NULL },
};

static int page_option(void *payload, int id, const char *value);

static struct opts_cmd page_cmd = {
	.name = "report",
	.usage = "[options] --format html|markdown -o FILE [PATH]",
	.about = cli_help_report,
	.common = OPTS_SOURCE | OPTS_COLOR | OPTS_QUIET | OPTS_VERBOSE,
	.own = page_opts,
	.on_option = page_option,
	.min_args = 0,
	.max_args = 1,
};

static int
page_option(void *payload, int id, const char *value)
{
	struct page_args *pa = payload;

	switch (id) {
	case P_FORMAT:
		if (!strcmp(value, "html"))
			pa->format = PAGE_HTML;
		else if (!strcmp(value, "markdown"))
			pa->format = PAGE_MARKDOWN;
		else
			return opts_usage_error(&page_cmd, "--format %s: say html or markdown",
						value);
		return 0;
	case P_OUTPUT: pa->output = value; return 0;
	case P_FAIL:
		if (fleetpage_parse_fail(&pa->fail, value) < 0)
			return opts_usage_error(&page_cmd, "--fail %s: say a number from 1 to %d",
						value, FLEETPAGE_FAIL_MAX);
		return 0;
	case P_DRILL_RECORD:
		if (pa->record_count == FLEETPAGE_MAX_RECORDS)
			return opts_usage_error(&page_cmd,
						"more than %d --drill-record files: pass the"
						" last drill of each site only",
						FLEETPAGE_MAX_RECORDS);
		pa->records[pa->record_count++] = value;
		return 0;
	case P_DRIFT_JSON: pa->drift_json = value; return 0;
	}
	return 0;
}

int
cmd_report(int argc, char **argv)
{
	struct opts o;
	struct cmd_fleet f;
	struct cmd_findings rf;
	struct page_args pa = { PAGE_NONE, NULL, FLEETPAGE_FAIL_DEFAULT, { NULL }, 0, NULL };
	const char *why = NULL, *commit;
	char id[SOURCE_OID_HEX];
	struct diags rd;
	struct fleetpage fp;
	struct fleetpage_options fo;
	struct buf b = BUF_INIT;
	int rc, code;

	page_cmd.payload = &pa;
	rc = opts_parse(&o, &page_cmd, argc, argv);
	if (rc != OPTS_OK)
		return cmd_parse_exit(rc);
	if (pa.format == PAGE_NONE || !pa.output)
		return cmd_parse_exit(opts_usage_error(
			&page_cmd, "say --format html or --format markdown, and -o FILE"));
	code = cmd_open(&f, &o, "gpusite report", opts_report_flags(&o, stderr) | REPORT_QUIET,
			SIZE_MAX);
	if (code != GS_EXIT_OK)
		goto out;
	fo = (struct fleetpage_options){ pa.fail, pa.records, pa.record_count, NULL };
	rc = fleetpage_build(&fp, &f.a, &f.p.diags, &f.p.fleet, &fo);
	rf = cmd_fleet_findings(&f);
	code = cmd_report_exit(&rf, &o, REPORT_TEXT, opts_report_flags(&o, stderr) | REPORT_QUIET);
	if (rc < 0) {
		code = GS_EXIT_FAILURE; /* a drill record that cannot be read */
		goto out;
	}
	if (pa.drift_json && fleetpage_read_drift(&fp, &f.a, pa.drift_json, &why) < 0) {
		fprintf(stderr, "gpusite report: cannot read the drift findings %s: %s\n",
			pa.drift_json, why);
		code = GS_EXIT_FAILURE;
		goto out;
	}
	/* the specs' commit when they were read from Git (--repo, --ref); the
	 * files are read, so a failure here only leaves it out */
	diags_init(&rd, &f.a);
	commit = (o.repo || o.ref) && source_resolve(id, &f.a, &rd, o.repo, o.ref) == 0 ? id : NULL;
	if (fleetpage_stamp(&fp, &f.a, f.files.label, commit, &why) < 0) {
		fprintf(stderr, "gpusite report: %s\n", why);
		code = GS_EXIT_FAILURE;
		goto out;
	}
	rc = pa.format == PAGE_HTML ? fleetpage_html(&b, &f.a, &fp)
				    : fleetpage_markdown(&b, &f.a, &fp);
	if (rc < 0 || emit_whole_file(&f.a, "gpusite report", pa.output, &b) < 0)
		code = GS_EXIT_FAILURE;
out:
	buf_release(&b);
	cmd_close(&f);
	return code;
}
