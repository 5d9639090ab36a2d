/*
 * live.h - what the live commands (`diff --live`, `drift`) share: reading
 * and rendering the specs of the cluster the context points at, a client
 * for that cluster, and printing cluster errors.  The cluster options
 * themselves are parsed in cmd/opts_live.h.
 */
#ifndef GS_PIPELINE_LIVE_H
#define GS_PIPELINE_LIVE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "kube/kube.h"
#include "pipeline/pipeline.h"
#include "render/render.h"
#include "source/source.h"

struct arena;

/* What the cluster options said. */
struct live_opts {
	const char *kubeconfig;
	const char *context;
	const char *cluster;
	double timeout; /* seconds; 0: the default */
};

/* The client options of --kubeconfig, --context and --timeout (the
 * request log, with verbose, on stderr). */
void live_kube_options(struct kube_options *ko, const struct live_opts *lo, bool verbose);

/* A live run: specs read, client open, cluster settled, sites rendered. */
struct live_run {
	struct arena *arena;
	const char *name;    /* "gpusite drift" */
	struct diags errors; /* cluster and read errors */
	struct source_set files;
	struct pipeline p;
	struct kube_client *kube;
	const char *cluster;
	const char *cluster_how;        /* how it was settled */
	const struct spec_site **sites; /* sites of `cluster` */
	size_t nsites;
	struct render_result rendered; /* objects of those sites */
};

enum live_result {
	LIVE_OK = 0,
	LIVE_EINVALID = -1, /* the specs are invalid (printed on stderr) */
	LIVE_EFAIL = -2,    /* cluster, read or render errors (printed) */
};

/*
 * Read the specs `src` names, open the cluster client, settle which
 * cluster it is, keep that cluster's sites and render them.  `verbose`
 * is the client's -v level; unless `quiet` the settled cluster and its
 * sites are said on stderr.  Returns LIVE_OK, or LIVE_EINVALID /
 * LIVE_EFAIL after everything was printed on stderr.
 */
int live_run_start(struct live_run *out, struct arena *a, const char *name,
		   const struct pipeline_source *src, const struct live_opts *lo, int verbose,
		   bool quiet);
void live_run_finish(struct live_run *r);

/* The site called `name` among the cluster's sites (names are unique in
 * specs that loaded), or NULL. */
const struct spec_site *live_run_site(const struct live_run *r, const char *name);

/* Print r->errors (and kube diagnostics) on stderr. */
void live_run_print_errors(const struct live_run *r);

/* The rendered spelling "live/NodePool/x", "live/ConfigMap/ns/x". */
const char *live_label(struct arena *a, const char *side, const char *kind, const char *ns,
		       const char *name);

#endif
