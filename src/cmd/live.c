/*
 * live.c - the road of the live commands: specs -> the cluster's sites ->
 * rendered objects, and a client for that cluster.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "cmd/cmd.h"
#include "cmd/live.h"
#include "report/report.h"
#include "spec/spec.h"

int
live_on_option(struct live_opts *lo, const struct opts_cmd *cmd, int id,
	       const char *value)
{
	switch (id) {
	case LIVE_OPT_KUBECONFIG:
		if (!*value)
			return opts_usage_error(cmd, "--kubeconfig needs a file");
		lo->kubeconfig = value;
		return 0;
	case LIVE_OPT_CONTEXT:
		if (!*value)
			return opts_usage_error(cmd, "--context needs a context name");
		lo->context = value;
		return 0;
	case LIVE_OPT_CLUSTER:
		if (!*value)
			return opts_usage_error(cmd, "--cluster needs a cluster name");
		lo->cluster = value;
		return 0;
	case LIVE_OPT_TIMEOUT: {
		char *end;
		double v = strtod(value, &end);
		struct spec_duration dur;

		if (end != value && *end == '\0' && v > 0) {
			lo->timeout = v;	/* plain seconds */
			return 0;
		}
		if (spec_parse_duration(value, false, &dur) < 0 || dur.seconds <= 0)
			return opts_usage_error(cmd, "--timeout '%s' is not a duration"
						" such as 30s, 2m or 90", value);
		lo->timeout = (double)dur.seconds;
		return 0;
	}
	}
	return 1;
}

const char *
live_label(struct arena *a, const char *side, const char *kind,
	   const char *ns, const char *name)
{
	if (ns && *ns)
		return arena_printf(a, "%s/%s/%s/%s", side, kind, ns, name);
	return arena_printf(a, "%s/%s/%s", side, kind, name);
}

static void
print_diags(FILE *f, const char *name, const struct diags *d)
{
	for (size_t i = 0; i < d->count; i++) {
		const struct diag *x = &d->items[i];

		if (x->at.file && x->at.line)
			fprintf(f, "%s:%u:%u: %s: %s [%s]\n", x->at.file, x->at.line,
				x->at.col, diag_level_name(x->level), x->msg, x->rule);
		else if (x->at.file)
			fprintf(f, "%s: %s: %s [%s]\n", x->at.file,
				diag_level_name(x->level), x->msg, x->rule);
		else
			fprintf(f, "%s: %s: %s\n", name, diag_level_name(x->level), x->msg);
	}
}

int
live_fail(struct live_run *r)
{
	print_diags(stderr, r->name, &r->errors);
	return GS_EXIT_FAILURE;
}

int
live_start(struct live_run *out, struct arena *a, const char *name,
	   const struct opts *o, const struct live_opts *lo)
{
	struct pipeline_source src;
	struct kube_options ko;
	struct render_options ropt;
	const char **names;
	int code = GS_EXIT_OK;

	memset(out, 0, sizeof(*out));
	out->arena = a;
	out->name = name;
	diags_init(&out->errors, a);
	src.repo = o->repo;
	src.ref = o->ref;
	src.staged = o->staged;
	src.paths = (const char *const *)o->args;
	src.npaths = o->nargs;
	if (pipeline_read(&out->files, a, &out->errors, &src) < 0)
		return live_fail(out);
	pipeline_load(&out->p, a, &out->files);
	if (diags_count(&out->p.diags, DIAG_ERROR)) {
		struct report_input in = { &out->p.diags, &out->files, &out->p.fleet,
					   out->p.docs, name };

		diags_sort(&out->p.diags);
		report_write_flags(stdout, stderr, &in, REPORT_TEXT, 0);
		fprintf(stderr, "%s: the specs are invalid: fix them first "
			"('gpusite validate')\n", name);
		return GS_EXIT_FINDINGS;
	}

	memset(&ko, 0, sizeof(ko));
	ko.kubeconfig = lo->kubeconfig;
	ko.context = lo->context;
	ko.timeout = lo->timeout;
	ko.verbose = o->verbose;
	ko.log = stderr;
	if (kube_open(&out->kube, a, &out->errors, &ko) < 0)
		return live_fail(out);
	if (lo->cluster) {
		out->cluster = lo->cluster;
		out->cluster_how = "--cluster";
	} else {
		out->cluster = kube_cluster_name(out->kube, &out->cluster_how);
		if (diags_count(&out->errors, DIAG_ERROR))
			return live_fail(out);
		if (!out->cluster) {
			diag_add(&out->errors, DIAG_ERROR, (struct pos){ 0 }, KUBE_RULE, "",
				 "cannot tell which EKS cluster context '%s' points at: "
				 "its names carry no EKS cluster ARN and no node has an "
				 "eks-hybrid:/// providerID; pass --cluster NAME",
				 kube_get_info(out->kube)->context
				 ? kube_get_info(out->kube)->context : "in-cluster");
			return live_fail(out);
		}
	}
	out->sites = arena_alloc(a, (out->p.fleet.count + 1) * sizeof(*out->sites));
	names = arena_alloc(a, (out->p.fleet.count + 1) * sizeof(*names));
	for (size_t i = 0; i < out->p.fleet.count; i++) {
		const struct spec_site *s = out->p.fleet.sites[i];

		if (s->cluster.name && !strcmp(s->cluster.name, out->cluster)) {
			names[out->nsites] = s->name;
			out->sites[out->nsites++] = s;
		}
	}
	if (!out->nsites) {
		diag_add(&out->errors, DIAG_ERROR, (struct pos){ 0 }, KUBE_RULE, "",
			 "no site spec names cluster %s (settled from %s): check "
			 "--context, or pass --cluster with one of the specs' "
			 "cluster.name values", out->cluster, out->cluster_how);
		return live_fail(out);
	}
	if (!o->quiet) {
		fprintf(stderr, "%s: cluster %s (from %s), %zu site%s:", name,
			out->cluster, out->cluster_how, out->nsites,
			out->nsites == 1 ? "" : "s");
		for (size_t i = 0; i < out->nsites; i++)
			fprintf(stderr, " %s", out->sites[i]->name);
		fprintf(stderr, "\n");
	}
	memset(&ropt, 0, sizeof(ropt));
	ropt.sites = names;
	ropt.site_count = out->nsites;
	if (render_fleet(&out->rendered, a, &out->p.diags, &out->p.fleet, &ropt) < 0) {
		struct report_input in = { &out->p.diags, &out->files, &out->p.fleet,
					   out->p.docs, name };

		diags_sort(&out->p.diags);
		report_write_flags(stdout, stderr, &in, REPORT_TEXT, REPORT_NO_SUMMARY);
		code = GS_EXIT_FAILURE;
	}
	return code;
}

void
live_finish(struct live_run *r)
{
	kube_close(r->kube);
	r->kube = NULL;
}
