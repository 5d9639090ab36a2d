/*
 * live.h - what the live commands (`diff --live`, `drift`) share: the
 * cluster options, reading and rendering the specs of the cluster the
 * context points at, and printing cluster errors.
 */
#ifndef GS_LIVE_H
#define GS_LIVE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "cmd/opts.h"
#include "cmd/pipeline.h"
#include "kube/kube.h"
#include "render/render.h"
#include "source/source.h"

struct arena;

/* Option ids of the cluster options (above any command's own ids). */
enum live_opt_id {
	LIVE_OPT_KUBECONFIG = 900,
	LIVE_OPT_CONTEXT,
	LIVE_OPT_CLUSTER,
	LIVE_OPT_TIMEOUT,
};

/* The cluster options as rows of a command's opt_spec table. */
#define LIVE_OPT_SPECS \
	{ LIVE_OPT_KUBECONFIG, "kubeconfig", 0, "FILE", \
	  "read this kubeconfig only (default: KUBECONFIG, ~/.kube/config," \
	  " else the in-cluster service account)" }, \
	{ LIVE_OPT_CONTEXT, "context", 0, "CTX", \
	  "the kubeconfig context to use (default: current-context)" }, \
	{ LIVE_OPT_CLUSTER, "cluster", 0, "NAME", \
	  "check the sites of this cluster.name (default: from the EKS ARN in" \
	  " the kubeconfig, else the hybrid nodes' providerIDs)" }, \
	{ LIVE_OPT_TIMEOUT, "timeout", 0, "DURATION", \
	  "give up after this long, for the whole command (default 30s)" }

struct live_opts {
	const char *kubeconfig;
	const char *context;
	const char *cluster;
	double timeout;		/* seconds; 0: the default */
};

/*
 * Handle one of the LIVE_OPT_* ids: 0, or -2 after a usage error; 1 when
 * `id` is not a cluster option.
 */
int live_on_option(struct live_opts *lo, const struct opts_cmd *cmd, int id,
		   const char *value);

/* A live run: specs read, client open, cluster settled, sites rendered. */
struct live_run {
	struct arena *arena;
	const char *name;		/* "gpusite drift" */
	struct diags errors;		/* cluster and read errors */
	struct source_set files;
	struct pipeline p;
	struct kube_client *kube;
	const char *cluster;
	const char *cluster_how;	/* how it was settled */
	const struct spec_site **sites;	/* sites of `cluster` */
	size_t nsites;
	struct render_result rendered;	/* objects of those sites */
};

/*
 * Read the specs (the common source options and PATH), open the cluster
 * client, settle which cluster it is, keep that cluster's sites and
 * render them.  Returns GS_EXIT_OK, or the exit code after everything
 * was printed on stderr (1: invalid specs, 3: cluster or read errors).
 */
int live_start(struct live_run *out, struct arena *a, const char *name,
	       const struct opts *o, const struct live_opts *lo);
void live_finish(struct live_run *r);

/* Print r->errors (and kube diagnostics) on stderr: exit 3. */
int live_fail(struct live_run *r);

/* The rendered spelling "live/NodePool/x", "live/ConfigMap/ns/x". */
const char *live_label(struct arena *a, const char *side, const char *kind,
		       const char *ns, const char *name);

/* `gpusite diff --live`: cmd_diff dispatches here. */
int diff_live_run(const struct opts *o, const struct live_opts *lo, bool json);

#endif
