/*
 * cmd_render.c - `gpusite render [PATH] [--site NAME...] [--cluster NAME...] [-o FILE]
 * [--format yaml|json] [--nodeconfigs DIR] [--values DIR]`: print or write
 * the cluster stream; write NodeConfig and Helm values files.
 *
 * Exit 0 with output; 1 for invalid specs (nothing on stdout); 2 usage;
 * 3 when the job could not be done: specs unreadable, an SSM
 * activation-code variable unset, a file that could not be written, a
 * symlink below an output directory or a target that is not a regular
 * file.  Files are written all or nothing: every one goes to a temporary
 * file beside its target, is synced, and only then are all of them renamed
 * in place.  A run that was killed leaves its temporaries
 * (.NAME.gpusite-XXXXXX); the next successful run removes those of its own
 * files.  The writing is emit/emit_file.c's, the batched rendering
 * emit/emit_batch.c's.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/arena.h"
#include "base/buf.h"
#include "argocd/argocd_fleet.h"
#include "argocd/argocd_settings.h"
#include "cmd/cmd.h"
#include "cli/help.h"
#include "cli/opts.h"
#include "pipeline/pipeline.h"
#include "emit/emit.h"
#include "emit/emit_batch.h"
#include "emit/emit_file.h"
#include "render/render.h"
#include "report/report.h"

enum render_opt {
	R_SITE = 1,
	R_OUTPUT,
	R_FORMAT,
	R_NODECONFIGS,
	R_VALUES,
	R_KUBE_VERSION,
	R_OBJECTS,
	R_CLUSTER,
};

static const struct opt_spec render_opts[] = {
	{ R_SITE, "site", 0, "NAME",
	  "only this site (metadata.name); repeat or"
	  " separate with commas" },
	{ R_CLUSTER, "cluster", 0, "NAME",
	  "only the sites of this cluster (spec.cluster.name); repeat or"
	  " separate with commas" },
	{ R_OUTPUT, "output", 'o', "FILE",
	  "write the stream to FILE instead of stdout (-, /dev/stdout: stdout;"
	  " /dev/null: render and check, write nothing); a regular file, never a"
	  " link, FIFO or other device" },
	{ R_FORMAT, "format", 0, "FMT",
	  "yaml (default; '---' before every document)"
	  " or json (one object per line)" },
	{ R_NODECONFIGS, "nodeconfigs", 0, "DIR",
	  "write the nodeadm NodeConfigs:"
	  " DIR/<site>/<group>/<node>.yaml, DIR/<site>/<group>.yaml (SSM, mode 0600)" },
	{ R_VALUES, "values", 0, "DIR",
	  "write the GPU stack's Helm values:"
	  " DIR/<cluster>/values.yaml" },
	OPTS_KUBE_VERSION_ROW(R_KUBE_VERSION),
	{ R_OBJECTS, "objects", 0, "WHICH",
	  "cluster (what lives in the cluster, no"
	  " argoproj.io object), argocd (the GPU-stack Applications for a hub Argo CD,"
	  " destination.name <cluster> by default) or all (default)" },
	{ 0, NULL, 0, NULL, NULL },
};

struct render_args {
	struct arena *arena;
	const char **sites;
	size_t site_count;
	const char **clusters;
	size_t cluster_count;
	const char *output;
	bool discard; /* -o /dev/null */
	enum emit_format format;
	const char *nodeconfigs;
	const char *values;
	int kube_minor;
	enum argocd_objects objects;
};

static int on_option(void *payload, int id, const char *value);

static struct opts_cmd render_cmd = {
	.name = "render",
	.usage = "[options] [PATH]",
	.about = cli_help_render,
	.common = OPTS_SOURCE | OPTS_STRICT | OPTS_COLOR | OPTS_QUIET | OPTS_VERBOSE,
	.own = render_opts,
	.on_option = on_option,
	.min_args = 0,
	.max_args = 1,
};

static int
on_option(void *payload, int id, const char *value)
{
	struct render_args *ra = payload;

	switch (id) {
	case R_SITE:
		if (opts_names_add(ra->arena, &ra->sites, &ra->site_count, value) < 0)
			return opts_usage_error(&render_cmd, "--site needs a site name");
		return 0;
	case R_CLUSTER:
		if (opts_names_add(ra->arena, &ra->clusters, &ra->cluster_count, value) < 0)
			return opts_usage_error(&render_cmd, "--cluster needs a cluster name");
		return 0;
	case R_OUTPUT: ra->output = value; return 0;
	case R_FORMAT:
		if (!strcmp(value, "yaml"))
			ra->format = EMIT_YAML;
		else if (!strcmp(value, "json"))
			ra->format = EMIT_JSON;
		else
			return opts_usage_error(&render_cmd,
						"unknown --format '%s': use yaml"
						" or json",
						value);
		return 0;
	case R_NODECONFIGS: ra->nodeconfigs = value; return 0;
	case R_VALUES: ra->values = value; return 0;
	case R_OBJECTS:
		if (argocd_parse_objects(&ra->objects, value) < 0)
			return opts_usage_error(&render_cmd,
						"unknown --objects '%s': use"
						" cluster, argocd or all",
						value);
		return 0;
	case R_KUBE_VERSION:
		if (argocd_parse_kube_version(&ra->kube_minor, value) < 0)
			return opts_usage_error(&render_cmd,
						"--kube-version '%s' is not a"
						" Kubernetes 1.x version such as 1.35",
						value);
		return 0;
	}
	return 0;
}

/* render --objects: the split generate's `objects` setting makes. */
static bool
keep_objects(const struct render_object *o, const void *arg)
{
	return argocd_objects_keep(*(const enum argocd_objects *)arg, o);
}

static const char *
env_lookup(const char *name)
{
	return getenv(name);
}

/* From this many spec files on, the pipeline keeps no trees (see
 * pipeline_load_lean) and each batch reads its sites again: 10,000 sites
 * took 150 MB of trees. */
#define RENDER_LEAN_FILES 2000

static void
whole_sites(struct spec_fleet *out, struct arena *t, const void *p, const struct spec_fleet *stubs)
{
	pipeline_whole_sites(out, t, p, stubs);
}

/* What the options ask of render(). */
static void
render_options_from(struct render_options *ropt, struct render_args *ra)
{
	memset(ropt, 0, sizeof(*ropt));
	ropt->sites = ra->sites;
	ropt->site_count = ra->site_count;
	ropt->clusters = ra->clusters;
	ropt->cluster_count = ra->cluster_count;
	ropt->kube_minor = ra->kube_minor;
	ropt->files = ra->nodeconfigs || ra->values;
	ropt->no_nodeconfig_files = !ra->nodeconfigs;
	ropt->getenv = env_lookup;
	if (ra->objects != ARGOCD_OBJECTS_ALL) {
		ropt->keep = keep_objects;
		ropt->keep_arg = &ra->objects;
		ropt->argocd_hub = ra->objects == ARGOCD_OBJECTS_ARGOCD;
	}
}

/* The files of a render without errors, all or nothing: the node files
 * and -o FILE (last: the largest).  0, or -1 when one could not be
 * written. */
static int
write_files(struct arena *a, struct render_args *ra, struct emit_files *outs, struct emit_batch *r)
{
	if (ra->output && emit_path_is_stdout(ra->output))
		ra->output = NULL;
	else if (ra->output && emit_path_is_null(ra->output)) {
		ra->output = NULL;
		ra->discard = true;
	}
	return emit_batch_commit(a, outs, r, ra->nodeconfigs, ra->values, ra->output);
}

int
cmd_render(int argc, char **argv)
{
	struct render_args ra;
	struct opts o;
	struct cmd_fleet f;
	struct cmd_findings rf;
	struct emit_batch r;
	struct emit_sites lean = { whole_sites, &f.p };
	struct render_options ropt;
	struct emit_files outs;
	struct arena opts_arena = ARENA_INIT;
	bool have_stream = false;
	unsigned flags;
	struct timespec start;
	size_t swept = 0;
	int rc, code = GS_EXIT_OK;

	clock_gettime(CLOCK_REALTIME, &start);
	arena_init(&opts_arena);
	emit_batch_init(&r, "gpusite render");
	r.hub = argocd_object_is_hub; /* render's note counts the others' clusters */
	memset(&ra, 0, sizeof(ra));
	memset(&outs, 0, sizeof(outs));
	memset(&f, 0, sizeof(f));
	outs.name = "gpusite render";
	ra.arena = &opts_arena;
	ra.format = EMIT_YAML;
	render_cmd.payload = &ra;
	rc = opts_parse(&o, &render_cmd, argc, argv);
	if (rc != OPTS_OK) {
		code = cmd_parse_exit(rc);
		goto out;
	}
	flags = opts_report_flags(&o, stderr) | REPORT_QUIET;
	/* a large fleet's trees are read again batch by batch; --site,
	 * --cluster, --kube-version and --objects read the whole model */
	code = cmd_open(&f, &o, "gpusite render", flags,
			ra.sites || ra.clusters || ra.kube_minor || ra.objects ? SIZE_MAX
									       : RENDER_LEAN_FILES);
	if (code != GS_EXIT_OK)
		goto out;

	render_options_from(&ropt, &ra);
	pipeline_check_kube_version(&f.p.diags, &f.p.fleet, &ropt, "--kube-version");
	if (o.strict)
		diags_promote_warnings(&f.p.diags);
	if (!diags_count(&f.p.diags, DIAG_ERROR) &&
	    emit_batch_render(&r, &f.a, &f.p.diags, f.p.lean ? &lean : NULL, &f.p.fleet, &ropt,
			      ra.format) == 0) {
		if (r.stream_len > EMIT_STREAM_CAP) {
			fprintf(stderr,
				"gpusite render: error: the stream could not be"
				" formatted (over %zu MiB?)\n",
				EMIT_STREAM_CAP >> 20);
			code = GS_EXIT_FAILURE;
			goto out;
		}
		have_stream = true;
	}
	if (!have_stream)
		r.count = 0; /* a stream not wholly made is never written */
	rf = cmd_fleet_findings(&f);
	code = cmd_report_exit(&rf, &o, REPORT_TEXT, flags);
	if (code != GS_EXIT_OK) {
		if (pipeline_has_error(&f.p.diags, RENDER_RULE_SECRET_ENV))
			code = GS_EXIT_FAILURE;
		goto out;
	}

	if (write_files(&f.a, &ra, &outs, &r) < 0) {
		code = GS_EXIT_FAILURE;
		goto out;
	}
	swept = emit_files_sweep(&f.a, &outs, &start);
	if (!ra.output && !ra.discard && emit_batch_write(-1, &r) < 0)
		code = GS_EXIT_FAILURE; /* main reports the write error */
	/* after the stream is out: a failed write says so alone (main) */
	if (!o.quiet && code == GS_EXIT_OK && fflush(stdout) == 0 && !ferror(stdout))
		emit_batch_note_clusters(&f.a, &r);
	if (o.verbose)
		fprintf(stderr,
			"gpusite render: %zu site%s, %zu object%s, %zu file%s"
			" written, %zu stale temporar%s removed; %.1f ms, %zu KiB of memory\n",
			f.p.fleet.count, f.p.fleet.count == 1 ? "" : "s", r.count,
			r.count == 1 ? "" : "s", outs.count, outs.count == 1 ? "" : "s", swept,
			swept == 1 ? "y" : "ies", pipeline_now_ms() - f.t0, f.a.total >> 10);
out:
	emit_batch_release(&r);
	cmd_close(&f);
	arena_release(&opts_arena);
	return code;
}
