/*
 * cmd_explain.c - `gpusite explain [SITE] [PATH]`: per site, the RTO budget
 * term by term against targetRTO, the Kubernetes version the output is
 * written for, on-prem GPUs against the fallback's GPU limit and the
 * instance types that serve it, and one line per rendered object saying
 * what it is for.  With engine none, the policy to paste.  `explain
 * CLUSTER` (an argument that names no site but a cluster) prints the
 * cluster view instead (src/explain/explain_cluster.c).
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
#include "cmd/opts.h"
#include "explain/explain.h"
#include "pipeline/pipeline.h"
#include "render/render.h"
#include "report/report.h"

enum explain_opt { E_KUBE_VERSION = 1 };

static const struct opt_spec explain_opts[] = {
	{ E_KUBE_VERSION, "kube-version", 0, "X.Y",
	  "target Kubernetes version"
	  " (overrides cluster.kubernetesVersion)" },
	{ 0, NULL, 0, NULL, NULL },
};

static int explain_option(void *payload, int id, const char *value);

static struct opts_cmd explain_cmd = {
	.name = "explain",
	.usage = "[options] [SITE] [PATH]",
	.about = "Explain each site (or only SITE) of the specs under PATH (default:\n"
		 "sites/ below the current directory if it exists, else the directory):\n"
		 "the RTO budget term by term against recovery.targetRTO, the Kubernetes\n"
		 "version the output is written for, on-prem GPUs against the fallback's\n"
		 "GPU limit and the instance types that serve it, and what each rendered\n"
		 "object is for.  A single argument that is an existing file or\n"
		 "directory is PATH, else SITE.  SITE may name a cluster instead: then\n"
		 "every site of it, the capacity of each and of the cluster, which\n"
		 "namespaces go to which site and pool, and whether every GPU pool is\n"
		 "reachable from exactly one site's scope.\n",
	.common = OPTS_SOURCE | OPTS_COLOR | OPTS_QUIET | OPTS_VERBOSE,
	.own = explain_opts,
	.on_option = explain_option,
	.min_args = 0,
	.max_args = 2,
};

static int
explain_option(void *payload, int id, const char *value)
{
	int *kube_minor = payload;

	if (id == E_KUBE_VERSION && argocd_parse_kube_version(kube_minor, value) < 0)
		return opts_usage_error(&explain_cmd,
					"--kube-version '%s' is not a"
					" Kubernetes 1.x version such as 1.35",
					value);
	return 0;
}

static bool
is_path(const char *arg)
{
	struct stat st;

	return stat(arg, &st) == 0;
}

static bool
site_named(const struct spec_fleet *f, const char *name)
{
	for (size_t i = 0; i < f->count; i++)
		if (!strcmp(f->sites[i]->name, name))
			return true;
	return false;
}

int
cmd_explain(int argc, char **argv)
{
	struct arena a = ARENA_INIT;
	struct opts o;
	struct source_set files = { NULL, 0, 0, NULL };
	struct pipeline p;
	struct pipeline_source src;
	struct report_input in;
	struct render_result r;
	struct render_options ropt;
	struct explain_input ein;
	const char *site = NULL, *path = NULL;
	unsigned flags;
	int kube_minor = 0, rc, code = GS_EXIT_OK;
	bool rendered, cluster, any = false;

	explain_cmd.payload = &kube_minor;
	rc = opts_parse(&o, &explain_cmd, argc, argv);
	if (rc != OPTS_OK)
		return opts_exit_code(rc);
	if (o.nargs == 2) {
		site = o.args[0];
		path = o.args[1];
	} else if (o.nargs == 1) {
		if (is_path(o.args[0]))
			path = o.args[0];
		else
			site = o.args[0];
	}
	flags = opts_report_flags(&o, stderr) | REPORT_QUIET;

	arena_init(&a);
	src = opts_source(&o, path ? &path : NULL, path ? 1 : 0);
	if (pipeline_open(&p, &files, &a, &src, "gpusite explain", flags) < 0) {
		code = GS_EXIT_FAILURE;
		goto out;
	}

	/* a name that is no site's but a cluster's: the cluster view */
	cluster = site && !site_named(&p.fleet, site) && explain_is_cluster(&p.fleet, site);
	memset(&ropt, 0, sizeof(ropt));
	ropt.sites = site && !cluster ? &site : NULL;
	ropt.site_count = site && !cluster ? 1 : 0;
	ropt.kube_minor = kube_minor;
	/* Every rendered object of the site, without reading any secret. */
	rendered = render_fleet(&r, &a, &p.diags, &p.fleet, &ropt) == 0;

	diags_sort(&p.diags);
	if (p.diags.count) {
		in = (struct report_input){ &p.diags, &files, &p.fleet, p.docs, "gpusite explain" };
		report_write_flags(stdout, stderr, &in, REPORT_TEXT, flags);
	}
	if (diags_count(&p.diags, DIAG_ERROR))
		code = GS_EXIT_FINDINGS;

	ein = (struct explain_input){ kube_minor, &r, rendered, &ropt };
	if (cluster) {
		explain_cluster(stdout, &a, &p.fleet, site);
		goto out;
	}
	for (size_t i = 0; i < p.fleet.count; i++) {
		const struct spec_site *s = p.fleet.sites[i];

		if (site && strcmp(site, s->name))
			continue;
		if (any)
			printf("\n");
		any = true;
		explain_site(stdout, &a, &p.diags, s, &ein);
	}
out:
	arena_release(&a);
	return code;
}
