/*
 * cmd_explain.c - `gpusite explain [SITE] [PATH]`: per site, the RTO budget
 * term by term against targetRTO, the Kubernetes version the output is
 * written for, on-prem GPUs against the fallback's GPU limit and the
 * instance types that serve it, and one line per rendered object saying
 * what it is for.  With engine none, the policy to paste.
 *
 * Findings go to stderr as validate prints them; the explanation is still
 * printed (it is how one understands a GS060), and the exit code is 1 when
 * there were errors.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "base/arena.h"
#include "argocd/argocd_settings.h"
#include "cmd/cmd.h"
#include "cli/help.h"
#include "cli/opts.h"
#include "explain/explain.h"
#include "fleetpage/fleetpage.h"
#include "pipeline/pipeline.h"
#include "render/render.h"
#include "report/report.h"

enum explain_opt { E_KUBE_VERSION = 1, E_FAIL };

struct explain_args {
	int kube_minor;
	int fail; /* --format json: the what-if's K */
};

static const struct opt_spec explain_opts[] = {
	OPTS_KUBE_VERSION_ROW(E_KUBE_VERSION),
	{ E_FAIL, "fail", 0, "K",
	  "--format json: the what-if of every set of up to K sites of a"
	  " cluster failing together (default 2, at most 4)" },
	{ 0, NULL, 0, NULL, NULL },
};

static int explain_option(void *payload, int id, const char *value);

static struct opts_cmd explain_cmd = {
	.name = "explain",
	.usage = "[options] [SITE|CLUSTER] [PATH]",
	.about = cli_help_explain,
	.common = OPTS_SOURCE | OPTS_COLOR | OPTS_QUIET | OPTS_VERBOSE | OPTS_FORMAT,
	.formats = OPTS_FMT(REPORT_TEXT) | OPTS_FMT(REPORT_JSON),
	.own = explain_opts,
	.on_option = explain_option,
	.min_args = 0,
	.max_args = 2,
};

static int
explain_option(void *payload, int id, const char *value)
{
	struct explain_args *ea = payload;

	if (id == E_KUBE_VERSION && argocd_parse_kube_version(&ea->kube_minor, value) < 0)
		return opts_usage_error(&explain_cmd,
					"--kube-version '%s' is not a"
					" Kubernetes 1.x version such as 1.35",
					value);
	if (id == E_FAIL && fleetpage_parse_fail(&ea->fail, value) < 0)
		return opts_usage_error(&explain_cmd, "--fail %s: say a number from 1 to %d", value,
					FLEETPAGE_FAIL_MAX);
	return 0;
}

static bool
is_path(const char *arg)
{
	struct stat st;

	return stat(arg, &st) == 0;
}

/* --format json: the fleet page's numbers of the sites asked for. */
static int
explain_json(struct cmd_fleet *f, const struct opts *o, const char *only, int fail, unsigned flags)
{
	struct fleetpage fp;
	struct fleetpage_options fo = { fail, NULL, 0, only };
	struct cmd_findings rf = cmd_fleet_findings(f);
	struct buf b = BUF_INIT;
	int code;

	fleetpage_build(&fp, &f->a, &f->p.diags, &f->p.fleet, &fo);
	if (only && !fp.site_count) {
		fprintf(stderr,
			"gpusite explain: no site or cluster is named '%s' (%zu sites read): check"
			" the name against metadata.name and spec.cluster.name\n",
			only, f->p.fleet.count);
		return GS_EXIT_FINDINGS;
	}
	code = cmd_report_exit(&rf, o, REPORT_TEXT, flags);
	if (fleetpage_json(&b, &f->a, &fp) < 0 || fwrite(b.data, 1, b.len, stdout) != b.len) {
		fprintf(stderr, "gpusite explain: cannot write the JSON document\n");
		code = GS_EXIT_FAILURE;
	}
	buf_release(&b);
	return code;
}

int
cmd_explain(int argc, char **argv)
{
	struct opts o;
	struct cmd_fleet f;
	struct cmd_findings rf;
	struct render_result r;
	struct render_options ropt;
	struct explain_input ein;
	const char *site = NULL;
	unsigned flags;
	struct explain_args ea = { 0, FLEETPAGE_FAIL_DEFAULT };
	int rc, code;
	bool rendered, any = false;

	explain_cmd.payload = &ea;
	rc = opts_parse(&o, &explain_cmd, argc, argv);
	if (rc != OPTS_OK)
		return cmd_parse_exit(rc);
	/* SITE PATH, PATH or SITE: o.args keeps the PATH alone */
	if (o.nargs == 2 || (o.nargs == 1 && !is_path(o.args[0]))) {
		site = o.args[0];
		o.args++;
		o.nargs--;
	}
	flags = opts_report_flags(&o, stderr) | REPORT_QUIET;
	code = cmd_open(&f, &o, "gpusite explain", flags, SIZE_MAX);
	if (code != GS_EXIT_OK)
		goto out;
	if (o.format == REPORT_JSON) {
		code = explain_json(&f, &o, site, ea.fail, flags);
		goto out;
	}
	memset(&ropt, 0, sizeof(ropt));
	/* a CLUSTER renders every site; its own are printed below */
	if (site &&
	    (spec_fleet_find(&f.p.fleet, site) || !spec_fleet_has_cluster(&f.p.fleet, site))) {
		ropt.sites = &site;
		ropt.site_count = 1;
	}
	ropt.kube_minor = ea.kube_minor;
	/* Every rendered object of the site, without reading any secret. */
	rendered = render_fleet(&r, &f.a, &f.p.diags, &f.p.fleet, &ropt) == 0;
	rf = cmd_fleet_findings(&f);
	code = cmd_report_exit(&rf, &o, REPORT_TEXT, flags);

	ein = (struct explain_input){ ea.kube_minor, &r, rendered, &ropt };
	/* a CLUSTER: its view first (src/explain/explain_cluster.c) */
	if (site && !spec_fleet_find(&f.p.fleet, site) &&
	    spec_fleet_has_cluster(&f.p.fleet, site)) {
		explain_cluster(stdout, &f.a, &f.p.fleet, site);
		any = true;
	}
	for (size_t i = 0; i < f.p.fleet.count; i++) {
		const struct spec_site *s = f.p.fleet.sites[i];

		if (site && strcmp(site, s->name) && strcmp(site, s->cluster.name))
			continue;
		if (any)
			printf("\n");
		any = true;
		explain_site(stdout, &f.a, &f.p.diags, s, &ein);
	}
out:
	cmd_close(&f);
	return code;
}
