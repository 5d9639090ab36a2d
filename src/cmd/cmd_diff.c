/*
 * cmd_diff.c - `gpusite diff`: how the rendered output differs.
 *
 *   diff --live [PATH]          rendered objects vs the live cluster
 *                               (read-only: GET and LIST; cmd_diff_live.c)
 *   diff --base REV [--head REV] rendered at two Git revisions
 *
 * This file only parses the options and dispatches; each mode lives in
 * its own file.  Exit 0 no difference, 1 differences, 2 usage, 3 could
 * not do the job.
 */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cli/opts_live.h"
#include "cli/help.h"
#include "cli/opts.h"

enum diff_opt {
	D_LIVE = 1,
	D_BASE,
	D_HEAD,
	D_FORMAT,
};

static const struct opt_spec diff_opts[] = {
	{ D_LIVE, "live", 0, NULL, "compare with the live cluster (read-only)" },
	{ D_BASE, "base", 0, "REV", "compare the rendering at REV with --head" },
	{ D_HEAD, "head", 0, "REV",
	  "the revision to compare with --base"
	  " (default: the work tree)" },
	{ D_FORMAT, "format", 0, "FMT",
	  "text (default: unified diff per object),"
	  " json, or with --base markdown (a PR comment) or github" },
	LIVE_OPT_SPECS,
	{ 0, NULL, 0, NULL, NULL },
};

struct diff_args {
	bool live;
	const char *base;
	const char *head;
	bool json;
	const char *format; /* as given; --base takes more than --live */
	struct live_opts lo;
};

static int on_option(void *payload, int id, const char *value);

static struct opts_cmd diff_cmd = {
	.name = "diff",
	.usage = "--live [options] [PATH] | --base REV [--head REV] [options] [PATH]",
	.about = cli_help_diff,
	.common = OPTS_SOURCE | OPTS_QUIET | OPTS_VERBOSE | OPTS_COLOR,
	.own = diff_opts,
	.on_option = on_option,
	.min_args = 0,
	.max_args = 1,
};

static int
on_option(void *payload, int id, const char *value)
{
	struct diff_args *da = payload;
	int rc;

	switch (id) {
	case D_LIVE: da->live = true; return 0;
	case D_BASE: da->base = value; return 0;
	case D_HEAD: da->head = value; return 0;
	case D_FORMAT:
		if (strcmp(value, "text") && strcmp(value, "json") && strcmp(value, "markdown") &&
		    strcmp(value, "github"))
			return opts_usage_error(&diff_cmd,
						"unknown --format '%s': use"
						" text, json, markdown or github",
						value);
		da->json = !strcmp(value, "json");
		da->format = value;
		return 0;
	}
	rc = live_on_option(&da->lo, &diff_cmd, id, value);
	return rc == 1 ? 0 : rc;
}

int
cmd_diff(int argc, char **argv)
{
	struct diff_args da;
	struct opts o;
	int rc;

	memset(&da, 0, sizeof(da));
	diff_cmd.payload = &da;
	rc = opts_parse(&o, &diff_cmd, argc, argv);
	if (rc != OPTS_OK)
		return cmd_parse_exit(rc);
	if (da.live && (da.base || da.head))
		return cmd_parse_exit(opts_usage_error(
			&diff_cmd, "--live compares with"
				   " the cluster; it does not take --base or --head"));
	if (!da.live && (da.lo.kubeconfig || da.lo.context || da.lo.cluster || da.lo.timeout > 0))
		return cmd_parse_exit(opts_usage_error(
			&diff_cmd, "--kubeconfig,"
				   " --context, --cluster and --timeout go with --live"));
	if (da.live && da.format &&
	    (!strcmp(da.format, "markdown") || !strcmp(da.format, "github")))
		return cmd_parse_exit(opts_usage_error(&diff_cmd,
						       "--format %s goes"
						       " with --base; --live prints text or json",
						       da.format));
	if (da.live)
		return diff_live_run(&o, &da.lo, da.json);
	if (da.base || da.head)
		return diff_revisions_run(&o, da.base, da.head, da.format);
	return cmd_parse_exit(opts_usage_error(&diff_cmd, "say what to compare:"
							  " --live, or --base REV [--head REV]"));
}
