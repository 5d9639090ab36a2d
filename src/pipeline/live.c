/*
 * live.c - the road of the live commands: specs -> the cluster's sites ->
 * rendered objects, and a client for that cluster.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "pipeline/live.h"
#include "report/report.h"
#include "spec/spec.h"

const char *
live_label(struct arena *a, const char *side, const char *kind, const char *ns, const char *name)
{
	if (ns && *ns)
		return arena_printf(a, "%s/%s/%s/%s", side, kind, ns, name);
	return arena_printf(a, "%s/%s/%s", side, kind, name);
}

/* Like the text report, each piece of outside text (a server's message,
 * a file name) through report_put_safe(). */
static void
print_diags(FILE *f, const char *name, const struct diags *d)
{
	for (size_t i = 0; i < d->count; i++) {
		const struct diag *x = &d->items[i];

		if (x->at.file) {
			report_put_safe(f, x->at.file);
			if (x->at.line)
				fprintf(f, ":%u:%u", x->at.line, x->at.col);
			fprintf(f, ": %s: ", diag_level_name(x->level));
			report_put_safe(f, x->msg);
			fputs(" [", f);
			report_put_safe(f, x->rule);
			fputs("]\n", f);
		} else {
			fprintf(f, "%s: %s: ", name, diag_level_name(x->level));
			report_put_safe(f, x->msg);
			fputc('\n', f);
		}
	}
}

void
live_run_print_errors(const struct live_run *r)
{
	print_diags(stderr, r->name, &r->errors);
}

static int
fail(const struct live_run *r)
{
	live_run_print_errors(r);
	return LIVE_EFAIL;
}

void
live_kube_options(struct kube_options *ko, const struct live_opts *lo, bool verbose)
{
	memset(ko, 0, sizeof(*ko));
	ko->kubeconfig = lo->kubeconfig;
	ko->context = lo->context;
	ko->timeout = lo->timeout;
	ko->verbose = verbose;
	ko->log = stderr;
}

int
live_run_start(struct live_run *out, struct arena *a, const char *name,
	       const struct pipeline_source *src, const struct live_opts *lo, int verbose,
	       bool quiet)
{
	struct kube_options ko;
	struct render_options ropt;
	const char **names;
	int code = LIVE_OK;

	memset(out, 0, sizeof(*out));
	out->arena = a;
	out->name = name;
	diags_init(&out->errors, a);
	if (pipeline_read(&out->files, a, &out->errors, src) < 0)
		return fail(out);
	pipeline_load(&out->p, a, &out->files);
	if (diags_count(&out->p.diags, DIAG_ERROR)) {
		struct report_input in = { &out->p.diags, &out->files, &out->p.fleet, out->p.docs,
					   name };

		diags_sort(&out->p.diags);
		report_write_flags(stdout, stderr, &in, REPORT_TEXT, 0);
		fprintf(stderr,
			"%s: the specs are invalid: fix them first "
			"('gpusite validate')\n",
			name);
		return LIVE_EINVALID;
	}

	live_kube_options(&ko, lo, verbose);
	if (kube_open(&out->kube, a, &out->errors, &ko) < 0)
		return fail(out);
	if (lo->cluster) {
		out->cluster = lo->cluster;
		out->cluster_how = "--cluster";
	} else {
		out->cluster = kube_cluster_name(out->kube, &out->cluster_how);
		if (diags_count(&out->errors, DIAG_ERROR))
			return fail(out);
		if (!out->cluster) {
			diag_report(&out->errors, (struct pos)POS_NONE, KUBE_RULE, "",
				    "cannot tell which EKS cluster context '%s' points at: "
				    "its names carry no EKS cluster ARN and no node has an "
				    "eks-hybrid:/// providerID; pass --cluster NAME",
				    kube_get_info(out->kube)->context
					    ? kube_get_info(out->kube)->context
					    : "in-cluster");
			return fail(out);
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
		diag_report(&out->errors, (struct pos)POS_NONE, KUBE_RULE, "",
			    "no site spec names cluster %s (settled from %s): check "
			    "--context, or pass --cluster with one of the specs' "
			    "cluster.name values",
			    out->cluster, out->cluster_how);
		return fail(out);
	}
	if (!quiet) {
		fprintf(stderr, "%s: cluster %s (from %s), %zu site%s:", name, out->cluster,
			out->cluster_how, out->nsites, out->nsites == 1 ? "" : "s");
		for (size_t i = 0; i < out->nsites; i++)
			fprintf(stderr, " %s", out->sites[i]->name);
		fprintf(stderr, "\n");
	}
	memset(&ropt, 0, sizeof(ropt));
	ropt.sites = names;
	ropt.site_count = out->nsites;
	if (render_fleet(&out->rendered, a, &out->p.diags, &out->p.fleet, &ropt) < 0) {
		struct report_input in = { &out->p.diags, &out->files, &out->p.fleet, out->p.docs,
					   name };

		diags_sort(&out->p.diags);
		report_write_flags(stdout, stderr, &in, REPORT_TEXT, REPORT_NO_SUMMARY);
		code = LIVE_EFAIL;
	}
	return code;
}

void
live_run_finish(struct live_run *r)
{
	kube_close(r->kube);
	r->kube = NULL;
}

const struct spec_site *
live_run_site(const struct live_run *r, const char *name)
{
	for (size_t i = 0; i < r->nsites; i++)
		if (!strcmp(r->sites[i]->name, name))
			return r->sites[i];
	return NULL;
}
