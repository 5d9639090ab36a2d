/*
 * cmd_generate.c - `gpusite generate`: the Argo CD config-management
 * plugin entry point (plugin/plugin.yaml).
 *
 * Argo CD runs it in a fresh copy of the repository with the application
 * path as working directory and the inputs in the environment only
 * (argocd/argocd_env.h).  It prints the same YAML stream `gpusite render`
 * prints for the same sites, except for the objects the sites of a
 * cluster share: with one Application per site they would have several
 * owners in Argo CD, so only one site per cluster carries them (the
 * `shared-objects` setting).  Whatever goes wrong, stdout stays empty:
 * an empty success would make Argo CD prune every object of the app.
 * The output is built in memory and written only once all went well;
 * stderr is one line per problem and a summary last, which is what the
 * Argo CD UI shows.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "argocd/argocd_api.h"
#include "argocd/argocd_app.h"
#include "argocd/argocd_env.h"
#include "argocd/argocd_fleet.h"
#include "argocd/argocd_settings.h"
#include "cmd/cmd.h"
#include "cmd/opts.h"
#include "pipeline/pipeline.h"
#include "emit/emit.h"
#include "render/render.h"
#include "source/source.h"
#include "spec/spec.h"

extern char **environ;

/* Argo CD gives the whole request 60 s by default (docs/design/upstream.md, "Argo CD"). */
#define DEADLINE_SECONDS 45
/* One gRPC message carries every manifest; its default cap is 100 MiB. */
#define OUTPUT_CAP (64u << 20)
/* The UI shows the whole of stderr: keep it readable. */
#define MAX_LINES 50

static const struct opts_cmd generate_cmd = {
	.name = "generate",
	.usage = "",
	.about = "Argo CD config-management plugin entry point (plugin/plugin.yaml).\n"
		 "Renders the sites under the working directory (its sites/ when present)\n"
		 "and prints the YAML stream on stdout, the bytes `gpusite render` prints,\n"
		 "except that the objects a cluster's sites share go to one Application.\n"
		 "Takes no arguments: every input comes from the environment Argo CD sets.\n"
		 "\n"
		 "Settings, each looked up as a plugin parameter (ARGOCD_APP_PARAMETERS or\n"
		 "PARAM_*), then ARGOCD_ENV_<NAME> (plugin env), then <NAME>:\n"
		 "  sites         array of site names (metadata.name); default all sites\n"
		 "  cluster       array of spec.cluster.name; only the sites of these clusters\n"
		 "  objects       cluster = only what lives in the destination cluster (no\n"
		 "                argoproj.io object); argocd = only the GPU-stack\n"
		 "                Applications, one per cluster, for a hub Argo CD (their\n"
		 "                destination.name defaults to spec.cluster.name); all\n"
		 "                (default) = both, for an Argo CD inside the one cluster\n"
		 "  strict        \"true\": warnings fail the render; default false\n"
		 "  kube-version  target Kubernetes version, e.g. 1.35; default KUBE_VERSION,\n"
		 "                else each site's cluster.kubernetesVersion\n"
		 "  shared-objects  which Application carries the objects the sites of a\n"
		 "                cluster share (the GPU stack Application): owner (default)\n"
		 "                = only the cluster's site with the smallest metadata.name\n"
		 "                among all its sites under the application path; all =\n"
		 "                every site's; none = no Application (managed elsewhere)\n"
		 "Refused, with nothing on stdout: a parameter or ARGOCD_ENV_ name that is\n"
		 "no setting (ARGOCD_ENV_sites included: write ARGOCD_ENV_SITES); cluster\n"
		 "objects of more than one cluster (objects cluster or all without a\n"
		 "'cluster' or 'sites' that names one); an Application when\n"
		 "KUBE_API_VERSIONS lacks argoproj.io/v1alpha1/Application.  Any other API\n"
		 "KUBE_API_VERSIONS lacks is a warning (an error with strict).\n"
		 "\n"
		 "On any error stdout stays empty, stderr holds one line per problem and a\n"
		 "summary last, and the exit code is not 0 (1 findings, 2 settings, 3 could\n"
		 "not read the application path).\n",
	.common = 0,
	.min_args = 0,
	.max_args = 0,
};

static void
on_deadline(int sig)
{
	static const char msg[] =
		"gpusite: error: gave up after 45 s, before Argo CD's 60 s deadline:"
		" make the application path hold fewer sites [" ARGOCD_RULE_DEADLINE "]\n"
		"gpusite: generate failed: out of time (" ARGOCD_RULE_DEADLINE ")\n";
	ssize_t r;

	(void)sig;
	/* Only async-signal-safe calls here; stdout was never written. */
	r = write(STDERR_FILENO, msg, sizeof(msg) - 1);
	(void)r;
	_exit(GS_EXIT_FAILURE);
}

static void
deadline_arm(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_deadline;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	alarm(DEADLINE_SECONDS);
}

static double
now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Between stages: the alarm is the hard stop, this the polite one. */
static int
deadline_check(struct diags *d, double start, const char *stage)
{
	struct pos at = POS_NONE;

	if (now_seconds() - start < DEADLINE_SECONDS)
		return 0;
	return diag_report(d, at, ARGOCD_RULE_DEADLINE, "",
			   "gave up after %s, past %d s of Argo CD's 60 s deadline", stage,
			   DEADLINE_SECONDS);
}

/* Activation codes are never needed: generate writes no NodeConfig file. */
/* How GS062 and GS177 name the version generate renders for. */
static const char kube_what[] = "kube-version (KUBE_VERSION, the destination's version)";

static const char *
no_env(const char *name)
{
	(void)name;
	return NULL;
}

static int
run(struct buf *out, struct arena *a, struct diags *d)
{
	struct argocd_env env;
	struct argocd_settings g;
	struct pipeline p;
	struct source_set files;
	struct render_result r;
	struct render_options opt;
	double start = now_seconds();
	size_t shared_left;
	int ret;

	if (argocd_env_load(&env, a, d, (const char *const *)environ) < 0)
		return GS_EXIT_USAGE;
	/* Both before any site is read: a misspelt setting must never widen
	 * what is rendered. */
	ret = argocd_env_check_names(d, &env, argocd_setting_names);
	if (argocd_settings_read(&g, a, d, &env, 0) < 0 || ret < 0)
		return GS_EXIT_USAGE;

	ret = argocd_app_load(&p, &files, a, d, &env);
	if (ret == ARGOCD_LOAD_FAILED)
		return GS_EXIT_FAILURE;
	if (ret == ARGOCD_LOAD_FINDINGS)
		return GS_EXIT_FINDINGS;
	if (deadline_check(d, start, "reading the specs") < 0)
		return GS_EXIT_FAILURE;
	if (argocd_select(&g, a, d, &env, &p.fleet) < 0)
		return GS_EXIT_FINDINGS;

	memset(&r, 0, sizeof(r));
	memset(&opt, 0, sizeof(opt));
	opt.sites = argocd_render_sites(&opt.site_count, a, &g, &p.fleet);
	opt.argocd_hub = g.objects == ARGOCD_OBJECTS_ARGOCD;
	/* A hub's KUBE_VERSION is the hub's: the Applications it gets do
	 * not depend on any cluster's version. */
	opt.kube_minor = g.objects == ARGOCD_OBJECTS_ARGOCD ? 0 : g.kube_minor;
	opt.files = false;
	opt.getenv = no_env;
	/* kube-version (KUBE_VERSION: the destination's) overrides each
	 * site's kubernetesVersion, which is all the rules saw */
	if (g.objects != ARGOCD_OBJECTS_ARGOCD) {
		pipeline_check_kube_agrees(d, &p.fleet, &opt, kube_what);
		if (pipeline_check_kube_version(d, &p.fleet, &opt, kube_what) < 0)
			return GS_EXIT_FINDINGS;
	}
	if (render_fleet(&r, a, d, &p.fleet, &opt) < 0)
		return GS_EXIT_FINDINGS;
	shared_left = argocd_keep_carried(&r, &g, &p.fleet);
	if (!r.count) {
		struct pos at = POS_NONE;

		diag_report(
			d, at, ARGOCD_RULE_OUTPUT, "",
			"the sites rendered no object%s: refusing an empty success, which would "
			"prune the application",
			g.objects == ARGOCD_OBJECTS_ARGOCD && shared_left
				? " for the hub (shared-objects leaves the cluster's Argo CD "
				  "Applications to another application)"
			: g.objects == ARGOCD_OBJECTS_ARGOCD
				? " for the hub (objects: argocd keeps only Argo CD Applications)"
			: shared_left ? " of their own (shared-objects leaves the cluster's shared "
					"objects to another application)"
				      : "");
		return GS_EXIT_FINDINGS;
	}
	if (argocd_check_apis(a, d, &env, &g, &p.fleet, &r) < 0)
		return GS_EXIT_FINDINGS;
	if (g.strict)
		diags_promote_warnings(d);
	if (diags_count(d, DIAG_ERROR))
		return GS_EXIT_FINDINGS;

	ret = emit_stream(out, &r, EMIT_YAML);
	if (ret < 0 || !out->len) {
		struct pos at = POS_NONE;

		diag_report(d, at, ARGOCD_RULE_OUTPUT, "",
			    ret == BUF_ETOOBIG
				    ? "the rendered stream is larger than %u MiB: split the sites "
				      "over several applications with the 'sites' setting"
				    : "the rendered stream could not be written (%u MiB cap)",
			    OUTPUT_CAP >> 20);
		return GS_EXIT_FAILURE;
	}
	if (deadline_check(d, start, "rendering") < 0)
		return GS_EXIT_FAILURE;
	return GS_EXIT_OK;
}

int
cmd_generate(int argc, char **argv)
{
	struct arena a;
	struct diags d;
	struct buf out;
	struct opts o;
	int code, rc;

	rc = opts_parse(&o, &generate_cmd, argc, argv);
	if (rc != OPTS_OK)
		return opts_exit_code(rc);
	deadline_arm();
	arena_init(&a);
	diags_init(&d, &a);
	buf_init(&out, OUTPUT_CAP);

	code = run(&out, &a, &d);
	alarm(0);
	if (code == GS_EXIT_OK && diags_count(&d, DIAG_ERROR))
		code = GS_EXIT_FINDINGS;
	diags_sort(&d);
	argocd_diags_print(stderr, &d, MAX_LINES);
	if (code != GS_EXIT_OK) {
		const char *sum = argocd_diags_summary(&a, &d);

		fprintf(stderr, "gpusite: generate failed%s%s\n", *sum ? ": " : "", sum);
	} else if (fwrite(out.data, 1, out.len, stdout) != out.len) {
		code = GS_EXIT_FAILURE; /* main.c reports the write error */
	}
	buf_release(&out);
	arena_release(&a);
	return code;
}
