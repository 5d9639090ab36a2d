/*
 * cmd_drill.c - `gpusite drill plan|run|report SITE`: the fallback
 * drill.  `plan` checks the live cluster for what the drill needs and
 * prints the steps and the expected timeline; `report` measures the five
 * recovery terms from the cluster or from a drill record and compares
 * them with the budget; `run` lives in cmd_drill_run.c.  plan and report
 * send GET and LIST only.
 *
 * Exit codes: plan 0 ready, 1 findings; report 0, 1 when the measured
 * total is over targetRTO; 2 usage; 3 the cluster or a file could not
 * be read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inventory/inventory.h"
#include "base/arena.h"
#include "base/buf.h"
#include "cmd/cmd.h"
#include "cli/opts_drill.h"
#include "cli/opts_live.h"
#include "k8s/k8s_time.h"
#include "pipeline/live.h"
#include "cli/help.h"
#include "cli/opts.h"
#include "drill/drill.h"
#include "kube/kube.h"
#include "report/report.h"
#include "report/report_findings.h"

static const struct opts_cmd drill_cmd = {
	.name = "drill",
	.usage = "plan|run|report SITE [options] [PATH]",
	.about = cli_help_drill,
	.common = 0,
	.own = NULL,
	.on_option = NULL,
	.payload = NULL,
	.min_args = 0,
	.max_args = 0,
};

struct drill_opts {
	struct live_opts lo;
	const struct opts_cmd *cmd;
	enum drill_scenario scenario;
	bool scenario_set;
	struct opts_drill_nodes nodes;
	const char *group;
	const char *since;
	int64_t since_at; /* --since, parsed */
	const char *record;
	const char *svg;
};

static int
on_option(void *payload, int id, const char *value)
{
	struct drill_opts *d = payload;
	int rc = live_on_option(&d->lo, d->cmd, id, value);

	if (rc != 1)
		return rc;
	switch (id) {
	case DRILL_OPT_SCENARIO:
		if (drill_scenario_parse(&d->scenario, value))
			return opts_usage_error(
				d->cmd, "--scenario %s: say node-failure or partition", value);
		d->scenario_set = true;
		return 0;
	case DRILL_OPT_NODES:
		if (opts_drill_nodes_add(&d->nodes, value) < 0)
			abort();
		return 0;
	case DRILL_OPT_GROUP: d->group = value; return 0;
	case DRILL_OPT_SINCE: d->since = value; return 0;
	case DRILL_OPT_RECORD: d->record = value; return 0;
	case DRILL_OPT_SVG: d->svg = value; return 0;
	default: return 0;
	}
}

/* Write the buffer to stdout; 0, or -1 after saying why. */
static int
put(const char *who, struct buf *b)
{
	if (fwrite(b->data, 1, b->len, stdout) != b->len) {
		fprintf(stderr, "%s: cannot write the output\n", who);
		return -1;
	}
	return 0;
}

/* The help: these two paragraphs around the list of the drill plan's
 * findings, which the table of findings gives (base/findings.c). */

static const struct report_findings_help plan_help = {
	cli_help_drill_plan_head,
	FINDING_DRILL_PLAN,
	"drill plan: ",
	cli_help_drill_plan_tail,
};
static char plan_about[8192];

static struct opts_cmd plan_cmd = {
	.name = "drill plan",
	.usage = "SITE [options] [PATH]",
	.about = cli_help_drill_plan_head,
	.common = OPTS_QUIET | OPTS_VERBOSE | OPTS_SOURCE,
	.own = opts_drill_plan,
	.on_option = on_option,
	.min_args = 1,
	.max_args = 2,
};

/*
 * The nodes the drill takes down: --nodes, else those the spec names for
 * --group or for the whole site.  GS_EXIT_OK, or GS_EXIT_USAGE after
 * saying why.
 */
static int
plan_nodes(struct drill_plan_input *in, struct arena *a, const struct drill_opts *d)
{
	const char **nodes;
	size_t n = 0;
	bool found;

	if (d->nodes.count) {
		in->nodes = d->nodes.names;
		in->node_count = d->nodes.count;
		return GS_EXIT_OK;
	}
	nodes = drill_site_nodes(a, in->site, d->group, &n, &found);
	if (!found || !n) {
		fprintf(stderr, "gpusite drill plan: %s%s%s names no nodes; pass --nodes\n",
			d->group ? "node group " : "site ", d->group ? d->group : in->site->name,
			found ? "" : " is not in the spec and");
		return GS_EXIT_USAGE;
	}
	in->nodes = nodes;
	in->node_count = n;
	return GS_EXIT_OK;
}

/* A misspelt node would make an empty drill look ready: each must be in
 * the cluster, and an on-prem hybrid node of the site.  GS_EXIT_OK, or
 * the exit code after saying why. */
static int
plan_nodes_exist(struct live_run *run, struct arena *a, struct drill_plan_input *in)
{
	const char *bad = NULL, *why = NULL;

	switch (drill_plan_nodes_check(in, a, &bad, &why)) {
	case 0: return GS_EXIT_OK;
	case DRILL_NODE_MISSING:
		fprintf(stderr,
			"gpusite drill plan: node %s is not in cluster %s; name"
			" nodes of site %s ('kubectl get nodes')\n",
			bad, run->cluster, in->site->name);
		return GS_EXIT_USAGE;
	case DRILL_NODE_REFUSED:
		fprintf(stderr,
			"gpusite drill plan: %s: a drill takes down only the on-prem hybrid"
			" nodes of site %s; name them with --nodes (kubectl get nodes -l"
			" " INV_SITE_LABEL "=%s,eks.amazonaws.com/compute-type=hybrid)\n",
			why, in->site->name, in->site->name);
		return GS_EXIT_USAGE;
	default: return cmd_live_fail(run);
	}
}

/* The findings, the steps and the timeline, then whether the site is
 * ready; returns the exit code. */
static int
plan_print(const struct live_run *run, const struct opts *o, struct diags *findings,
	   const struct drill_plan_input *in, const struct drill_plan *plan,
	   const struct drill_budget *b)
{
	const char *name = in->site->name;
	/* the findings as text on stdout, like drift's */
	struct spec_fleet fleet = { (struct spec_site **)run->sites, run->nsites,
				    run->files.count };
	struct cmd_findings rf = { findings,    &run->files,          &fleet,
				   run->nsites, "gpusite drill plan", stdout };
	struct buf out;
	int code = GS_EXIT_FAILURE;

	buf_init(&out, 0);
	if (findings->count &&
	    cmd_report_exit(&rf, o, REPORT_TEXT, REPORT_NO_SUMMARY) == GS_EXIT_FAILURE)
		goto out;
	if (drill_plan_text(&out, in, plan, b) < 0 || put("gpusite drill plan", &out) < 0)
		goto out;
	if (findings->count)
		printf("gpusite drill plan: site %s is not ready for the drill: %zu finding%s\n",
		       name, findings->count, findings->count == 1 ? "" : "s");
	else
		printf("gpusite drill plan: site %s is ready for the drill\n", name);
	code = diags_count(findings, DIAG_ERROR) ? GS_EXIT_FINDINGS : GS_EXIT_OK;
out:
	buf_release(&out);
	return code;
}

static int
drill_plan(int argc, char **argv)
{
	struct arena a = ARENA_INIT;
	struct drill_opts d;
	struct opts o;
	struct live_run run;
	struct diags findings;
	struct drill_plan_input in;
	struct drill_plan plan;
	struct drill_budget b;
	const char *site;
	int rc, code;

	memset(&d, 0, sizeof(d));
	memset(&run, 0, sizeof(run));
	d.cmd = &plan_cmd;
	plan_cmd.payload = &d;
	if (report_findings_help(plan_about, sizeof(plan_about), &plan_help) == 0)
		plan_cmd.about = plan_about;
	rc = opts_drill_parse(&o, &site, &plan_cmd, argc, argv);
	if (rc == OPTS_OK && d.group && d.nodes.count)
		rc = opts_usage_error(&plan_cmd, "--nodes and --group: give one");
	if (rc != OPTS_OK) {
		opts_drill_nodes_free(&d.nodes);
		return cmd_parse_exit(rc);
	}
	arena_init(&a);
	code = cmd_live_open(&run, &a, "gpusite drill plan", &o, &d.lo);
	if (code != GS_EXIT_OK)
		goto out;
	memset(&in, 0, sizeof(in));
	in.site = live_run_site(&run, site);
	if (!in.site) {
		fprintf(stderr,
			"gpusite drill plan: site %s is not a site of cluster %s; name one"
			" of its sites (see 'gpusite explain')\n",
			site, run.cluster);
		code = GS_EXIT_USAGE;
		goto out;
	}
	in.kube = run.kube;
	in.scenario = d.scenario;
	in.again = opts_drill_again(&a, &o, &d.lo);
	code = plan_nodes(&in, &a, &d);
	if (code == GS_EXIT_OK)
		code = plan_nodes_exist(&run, &a, &in);
	if (code != GS_EXIT_OK)
		goto out;
	drill_plan_rendered(&in, run.arena, &run.rendered);
	diags_init(&findings, &a);
	if (drill_plan_check(&a, &findings, &plan, &in) < 0) {
		code = cmd_live_fail(&run);
		goto out;
	}
	drill_budget_compute(&b, in.site, d.scenario);
	code = plan_print(&run, &o, &findings, &in, &plan, &b);
out:
	live_run_finish(&run);
	arena_release(&a);
	opts_drill_nodes_free(&d.nodes);
	return code;
}

static struct opts_cmd report_cmd = {
	.name = "drill report",
	.usage = "SITE [options] [PATH]",
	.about = cli_help_drill_report,
	.common = OPTS_FORMAT | OPTS_QUIET | OPTS_VERBOSE | OPTS_SOURCE,
	.own = opts_drill_report,
	.on_option = on_option,
	.min_args = 1,
	.max_args = 2,
	.formats = OPTS_FMT(REPORT_TEXT) | OPTS_FMT(REPORT_JSON) | OPTS_FMT(REPORT_MARKDOWN),
};

/* The site's spec when no cluster is read (--record). */
static int
load_site(const struct spec_site **out, struct cmd_fleet *f, const struct opts *o, const char *site)
{
	struct cmd_findings rf;
	int code = cmd_open(f, o, "gpusite drill report", REPORT_QUIET, SIZE_MAX);

	*out = NULL;
	if (code != GS_EXIT_OK)
		return code;
	if (diags_count(&f->p.diags, DIAG_ERROR)) {
		rf = cmd_fleet_findings(f);
		return cmd_report_exit(&rf, o, REPORT_TEXT, REPORT_QUIET);
	}
	*out = spec_fleet_find(&f->p.fleet, site);
	if (!*out) {
		fprintf(stderr,
			"gpusite drill report: no site %s in the specs read; name one of"
			" them (see 'gpusite explain')\n",
			site);
		return GS_EXIT_USAGE;
	}
	return GS_EXIT_OK;
}

/* The usage errors of report's options: OPTS_OK, or what
 * opts_usage_error() returned. */
static int
report_check_opts(struct drill_opts *d)
{
	if (d->since && k8s_time_parse(&d->since_at, d->since))
		return opts_usage_error(&report_cmd,
					"--since %s: give an RFC 3339 time (2026-03-01T08:00:00Z)",
					d->since);
	if (d->record && (d->since || d->scenario_set))
		return opts_usage_error(
			&report_cmd,
			"--record takes the scenario and the times from the record: drop %s",
			d->since ? "--since" : "--scenario");
	return OPTS_OK;
}

/*
 * Read the drill record at path into rec (its text stays in file) and
 * check it is a record of site s.  GS_EXIT_OK, or GS_EXIT_FAILURE after
 * saying why.
 */
static int
report_read_record(struct drill_record *rec, struct buf *file, struct arena *a,
		   const struct spec_site *s, const char *path)
{
	struct diags errs;
	int rc = buf_read_file(file, path);

	if (rc < 0) {
		fprintf(stderr, "gpusite drill report: cannot read %s: %s\n", path,
			rc == BUF_ETOOBIG ? "over the 16 MiB a drill record may have"
					  : "no such file, or not readable");
		return GS_EXIT_FAILURE;
	}
	diags_init(&errs, a);
	if (drill_record_read(a, &errs, rec, file->data, file->len, path) < 0) {
		for (size_t i = 0; i < errs.count; i++)
			fprintf(stderr, "gpusite drill report: %s [%s]\n", errs.items[i].msg,
				errs.items[i].rule);
		return GS_EXIT_FAILURE;
	}
	if (strcmp(rec->site, s->name)) {
		fprintf(stderr,
			"gpusite drill report: %s is a record of site %s, not %s;"
			" pass the record of this site [%s]\n",
			path, rec->site, s->name, DRILL_RECORD);
		return GS_EXIT_FAILURE;
	}
	return GS_EXIT_OK;
}

/*
 * Start the live run, find the site in it and read the drill's timeline
 * from the cluster into rec.  GS_EXIT_OK, or the exit code after saying
 * why.
 */
static int
report_read_cluster(struct drill_record *rec, const struct spec_site **s, struct live_run *run,
		    struct arena *a, const struct opts *o, const struct drill_opts *d,
		    const char *site)
{
	int code = cmd_live_open(run, a, "gpusite drill report", o, &d->lo);

	if (code != GS_EXIT_OK)
		return code;
	*s = live_run_site(run, site);
	if (!*s) {
		fprintf(stderr,
			"gpusite drill report: site %s is not a site of cluster %s;"
			" name one of its sites\n",
			site, run->cluster);
		return GS_EXIT_USAGE;
	}
	if (drill_timeline_from_cluster(a, rec, run->kube, *s, d->scenario, d->since_at) < 0)
		return cmd_live_fail(run);
	return GS_EXIT_OK;
}

/* GS_EXIT_FINDINGS after saying so when the site recovered over its
 * targetRTO, else GS_EXIT_OK. */
static int
report_verdict(struct arena *a, const struct spec_site *s, const struct drill_terms *terms)
{
	const char *over = drill_over_target(a, s, terms);

	if (!over)
		return GS_EXIT_OK;
	fprintf(stderr, "gpusite drill report: %s\n", over);
	return GS_EXIT_FINDINGS;
}

static int
drill_report(int argc, char **argv)
{
	struct arena a = ARENA_INIT;
	struct drill_opts d;
	struct opts o;
	struct live_run run;
	struct cmd_fleet f;
	struct drill_record rec;
	struct drill_budget b;
	struct drill_terms terms;
	struct drill_report_input ri;
	struct buf out, file;
	const struct spec_site *s = NULL;
	const char *site;
	bool live;
	int rc, code;

	memset(&d, 0, sizeof(d));
	memset(&run, 0, sizeof(run));
	memset(&f, 0, sizeof(f));
	d.cmd = &report_cmd;
	report_cmd.payload = &d;
	rc = opts_drill_parse(&o, &site, &report_cmd, argc, argv);
	if (rc == OPTS_OK)
		rc = report_check_opts(&d);
	if (rc != OPTS_OK) {
		opts_drill_nodes_free(&d.nodes);
		return cmd_parse_exit(rc);
	}
	arena_init(&a);
	buf_init(&out, 0);
	buf_init(&file, DRILL_RECORD_MAX);

	live = !d.record;
	if (live) {
		code = report_read_cluster(&rec, &s, &run, &a, &o, &d, site);
	} else {
		code = load_site(&s, &f, &o, site);
		if (code == GS_EXIT_OK)
			code = report_read_record(&rec, &file, &a, s, d.record);
	}
	if (code != GS_EXIT_OK)
		goto out;
	drill_budget_compute(&b, s, rec.scenario);
	drill_terms_compute(&a, &terms, &b, &rec);
	ri.site = s->name;
	ri.cluster = s->cluster.name;
	ri.terms = &terms;
	ri.source = live ? "from the cluster" : arena_printf(&a, "from record %s", d.record);
	ri.scope_checks = rec.scope_checks;
	ri.scope_check_count = rec.scope_check_count;
	if (drill_report_write(&out, &ri, o.format) < 0 || put("gpusite drill report", &out) < 0) {
		code = GS_EXIT_FAILURE;
		goto out;
	}
	if (d.svg && drill_report_svg_file(d.svg, &ri) < 0) {
		fprintf(stderr,
			"gpusite drill report: cannot write %s; check the directory exists"
			" and is writable\n",
			d.svg);
		code = GS_EXIT_FAILURE;
		goto out;
	}
	code = report_verdict(&a, s, &terms);
out:
	buf_release(&out);
	buf_release(&file);
	if (live)
		live_run_finish(&run);
	cmd_close(&f);
	arena_release(&a);
	opts_drill_nodes_free(&d.nodes);
	return code;
}

int
cmd_drill(int argc, char **argv)
{
	struct opts o;
	int r;

	if (argc > 1 && !strcmp(argv[1], "run"))
		return cmd_drill_run(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "plan"))
		return drill_plan(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "report"))
		return drill_report(argc - 1, argv + 1);
	opts_init(&o);
	r = opts_parse(&o, &drill_cmd, argc, argv);
	if (r != OPTS_OK)
		return cmd_parse_exit(r);
	return cmd_parse_exit(opts_usage_error(&drill_cmd, "say plan, run or report"));
}
