/*
 * cmd_drift.c - `gpusite drift [PATH]`: the live checks beyond the object
 * diff (diff/drift.h has the GS2xx table).  The cluster is read page by
 * page into compact records: nodes, the GPU stack's pods, the GPU pods of
 * the placement namespaces, each site's fallback NodePool, its node class
 * and NodeClaims.  GET and LIST only.
 *
 * Exit 0 no drift (notes such as an active fallback are state, not
 * drift), 1 drift, 2 usage, 3 the cluster could not be read.
 */
#include <stdio.h>
#include <string.h>

#include "base/arena.h"
#include "cmd/cmd.h"
#include "cmd/opts_live.h"
#include "pipeline/live.h"
#include "cmd/opts.h"
#include "diff/drift.h"
#include "kube/kube.h"
#include "report/report.h"

static const struct opt_spec drift_opts[] = {
	LIVE_OPT_SPECS,
	{ 0, NULL, 0, NULL, NULL },
};

static int on_option(void *payload, int id, const char *value);

static struct opts_cmd drift_cmd = {
	.name = "drift",
	.usage = "[options] [PATH]",
	.about = "Check the live cluster against the site specs of the cluster the\n"
		 "context points at, beyond the object diff (GS2xx findings):\n"
		 "  GS201-GS203  hybrid nodes without the GPU taint, with another taint\n"
		 "               value or effect, or without the site's labels\n"
		 "  GS204-GS206  nodes the spec names that are absent or NotReady;\n"
		 "               hybrid nodes in no spec\n"
		 "  GS207-GS209  GPU stack pods on non-hybrid nodes (double device\n"
		 "               plugin); hybrid GPU nodes without the device plugin or\n"
		 "               without nvidia.com/gpu capacity\n"
		 "  GS210-GS213  the fallback NodePool missing or changed by hand, its\n"
		 "               EC2NodeClass / NodeClass missing; the fallback active\n"
		 "               (a note: state, not drift)\n"
		 "  GS214-GS215  GPU pods Pending in the placement namespaces, or\n"
		 "               without the GPU toleration\n"
		 "  GS216-GS218  fallback nodes: Ready without allocatable\n"
		 "               nvidia.com/gpu, or with two device plugin pods; the\n"
		 "               EC2NodeClass of another AMI family than nodeImage\n"
		 "Only GET and LIST are sent.  Exit 1 on drift (errors; warnings such as\n"
		 "GS206 with --strict), 0 when only notes remain.\n",
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

/* Growing arrays of records in the run's arena. */
struct collect {
	struct arena *a;
	struct drift_node *nodes;
	size_t nnodes, anodes;
	struct drift_pod *pods;
	size_t npods, apods;
	size_t pods_mark; /* pods kept before the current list */
	bool gpu_only;    /* keep only pods that request GPUs */
	const char **names;
	size_t nnames, anames;
};

static int
on_node(void *payload, const struct node *item)
{
	struct collect *c = payload;

	ARENA_GROW(c->a, c->nodes, c->nnodes, c->anodes, 256);
	drift_node_from(&c->nodes[c->nnodes++], c->a, item);
	return 0;
}

static void
on_nodes_restart(void *payload)
{
	struct collect *c = payload;

	c->nnodes = 0;
}

static int
on_pod(void *payload, const struct node *item)
{
	struct collect *c = payload;
	struct drift_pod p;

	drift_pod_from(&p, c->a, item);
	if (c->gpu_only && p.gpus <= 0)
		return 0;
	ARENA_GROW(c->a, c->pods, c->npods, c->apods, 256);
	c->pods[c->npods++] = p;
	return 0;
}

static void
on_pods_restart(void *payload)
{
	struct collect *c = payload;

	c->npods = c->pods_mark;
}

static int
on_name(void *payload, const struct node *item)
{
	struct collect *c = payload;
	const char *name = node_str(node_path(item, "metadata.name"));

	if (!name)
		return 0;
	ARENA_GROW(c->a, c->names, c->nnames, c->anames, 16);
	c->names[c->nnames++] = arena_strdup(c->a, name);
	return 0;
}

static void
on_names_restart(void *payload)
{
	struct collect *c = payload;

	c->nnames = 0;
}

static int
list_pods(struct kube_client *k, struct collect *c, const char *ns, bool gpu_only)
{
	struct kube_list_query q = { "v1", "Pod", ns, NULL, NULL, 0 };
	struct kube_list_cb cb = { on_pod, on_pods_restart, c };

	c->gpu_only = gpu_only;
	c->pods_mark = c->npods;
	return kube_list(k, &q, &cb);
}

static const struct node *
rendered_pool(const struct live_run *run, const struct spec_site *s)
{
	for (size_t i = 0; i < run->rendered.count; i++) {
		const struct render_object *o = &run->rendered.objects[i];

		if (!strcmp(o->kind, "NodePool") && !strcmp(o->name, s->fallback.node_pool_name))
			return o->obj;
	}
	return NULL;
}

static int
read_fallback(struct drift_fallback *f, struct live_run *run, struct collect *c,
	      const struct spec_site *s)
{
	struct arena *a = run->arena;
	struct node *live = NULL, *cls = NULL;
	struct kube_list_query q = { "karpenter.sh/v1", "NodeClaim", NULL, NULL, NULL, 0 };
	struct kube_list_cb cb = { on_name, on_names_restart, c };
	bool automode = s->cluster.provisioner == PROV_AUTO_MODE;
	int rc;

	memset(f, 0, sizeof(*f));
	f->site = s;
	f->rendered = rendered_pool(run, s);
	rc = kube_get(&live, run->kube, a, "karpenter.sh/v1", "NodePool", NULL,
		      s->fallback.node_pool_name);
	if (rc == KUBE_EFAIL)
		return -1;
	f->live = live;
	f->class_kind = automode ? "NodeClass" : "EC2NodeClass";
	rc = kube_get(&cls, run->kube, a,
		      automode ? "eks.amazonaws.com/v1" : "karpenter.k8s.aws/v1", f->class_kind,
		      NULL, s->fallback.node_class_name);
	if (rc == KUBE_EFAIL)
		return -1;
	f->class_missing = rc == KUBE_ENOTFOUND;
	f->live_class = cls;
	q.label_selector = arena_printf(a, "karpenter.sh/nodepool=%s", s->fallback.node_pool_name);
	c->nnames = 0;
	c->names = NULL;
	c->anames = 0;
	rc = kube_list(run->kube, &q, &cb);
	if (rc == KUBE_EFAIL)
		return -1;
	f->claims = c->names;
	f->nclaims = c->nnames;
	return 0;
}

int
cmd_drift(int argc, char **argv)
{
	struct arena a = ARENA_INIT;
	struct live_opts lo;
	struct opts o;
	struct live_run run;
	struct collect c;
	struct drift_input in;
	struct drift_fallback *fbs;
	struct diags findings;
	struct report_input ri;
	struct spec_fleet fleet;
	struct source_set files;
	const char *stack_ns;
	unsigned flags = REPORT_NO_SUMMARY;
	size_t nfb = 0, drift;
	int rc, code;

	memset(&lo, 0, sizeof(lo));
	memset(&run, 0, sizeof(run));
	drift_cmd.payload = &lo;
	rc = opts_parse(&o, &drift_cmd, argc, argv);
	if (rc != OPTS_OK)
		return opts_exit_code(rc);
	arena_init(&a);
	code = live_start(&run, &a, "gpusite drift", &o, &lo);
	if (code != GS_EXIT_OK)
		goto out;

	memset(&c, 0, sizeof(c));
	c.a = &a;
	{
		struct kube_list_query q = { "v1", "Node", NULL, NULL, NULL, 0 };
		struct kube_list_cb cb = { on_node, on_nodes_restart, &c };

		if (kube_list(run.kube, &q, &cb) < 0)
			goto fail;
	}
	stack_ns = run.sites[0]->gpu_stack.chart.namespace;
	if (list_pods(run.kube, &c, stack_ns, false) < 0)
		goto fail;
	for (size_t i = 0; i < run.nsites; i++) {
		const struct spec_site *s = run.sites[i];

		for (size_t j = 0; j < s->placement.namespace_count; j++) {
			const char *ns = s->placement.namespaces[j];
			bool seen = !strcmp(ns, stack_ns);

			/* each namespace once, even when sites share it */
			for (size_t si = 0; si <= i && !seen; si++)
				for (size_t sj = 0; sj < run.sites[si]->placement.namespace_count &&
						    (si < i || sj < j);
				     sj++)
					seen = seen ||
					       !strcmp(run.sites[si]->placement.namespaces[sj], ns);
			if (!seen && list_pods(run.kube, &c, ns, true) < 0)
				goto fail;
		}
	}
	fbs = arena_alloc(&a, (run.nsites + 1) * sizeof(*fbs));
	for (size_t i = 0; i < run.nsites; i++) {
		if (!run.sites[i]->fallback.enabled)
			continue;
		if (read_fallback(&fbs[nfb], &run, &c, run.sites[i]) < 0)
			goto fail;
		nfb++;
	}

	memset(&in, 0, sizeof(in));
	in.cluster = run.cluster;
	in.sites = (const struct spec_site *const *)run.sites;
	in.nsites = run.nsites;
	in.nodes = c.nodes;
	in.nnodes = c.nnodes;
	in.pods = c.pods;
	in.npods = c.npods;
	in.stack_listed = true;
	in.fallbacks = fbs;
	in.nfallbacks = nfb;
	diags_init(&findings, &a);
	drift = drift_check(&a, &findings, &in);
	if (o.strict)
		diags_promote_warnings(&findings);
	diags_sort(&findings);
	if (o.format == REPORT_GITHUB || o.format == REPORT_SARIF)
		pipeline_paths_from_top(&findings, &a, &o);

	if (opts_use_color(&o, stdout))
		flags |= REPORT_COLOR;
	/* only this cluster's sites are reported on (junit test cases) */
	fleet.sites = (struct spec_site **)run.sites;
	fleet.count = run.nsites;
	memset(&files, 0, sizeof(files));
	for (size_t i = 0; i < run.files.count; i++) {
		const struct source_file *sf = &run.files.files[i];
		bool ours = false;

		for (size_t j = 0; j < run.nsites && !ours; j++)
			ours = run.sites[j]->file && !strcmp(run.sites[j]->file, sf->path);
		if (ours)
			source_set_add(&a, &files, sf->path, sf->data, sf->len);
	}
	fleet.files = files.count;
	ri = (struct report_input){ &findings, &files, &fleet, run.nsites, "gpusite drift" };
	if (report_write_flags(stdout, stdout, &ri, o.format, flags) < 0) {
		code = GS_EXIT_FAILURE;
		goto out;
	}
	if (o.format == REPORT_TEXT && (!o.quiet || findings.count)) {
		size_t e = diags_count(&findings, DIAG_ERROR);
		size_t w = diags_count(&findings, DIAG_WARNING);
		size_t n = diags_count(&findings, DIAG_NOTE);

		printf("gpusite drift: cluster %s: %zu error%s, %zu warning%s, %zu "
		       "note%s (%zu site%s, %zu node%s, %zu pod%s checked)\n",
		       run.cluster, e, e == 1 ? "" : "s", w, w == 1 ? "" : "s", n,
		       n == 1 ? "" : "s", run.nsites, run.nsites == 1 ? "" : "s", c.nnodes,
		       c.nnodes == 1 ? "" : "s", c.npods, c.npods == 1 ? "" : "s");
	}
	if (o.verbose)
		fprintf(stderr, "gpusite drift: %u requests, %zu KiB of memory\n",
			kube_request_count(run.kube), a.total >> 10);
	/* errors are drift, warnings with --strict (promoted above); notes
	 * (an active fallback) are state */
	code = drift && diags_count(&findings, DIAG_ERROR) ? GS_EXIT_FINDINGS : GS_EXIT_OK;
	goto out;
fail:
	code = live_fail(&run);
out:
	live_finish(&run);
	arena_release(&a);
	return code;
}
