/*
 * opts_live.h - the cluster options of the live commands (`diff --live`,
 * `drift`, `verify-scope`) and the exit codes of a live run.
 */
#ifndef GS_OPTS_LIVE_H
#define GS_OPTS_LIVE_H

#include <stdbool.h>

#include "cmd/opts.h"
#include "pipeline/live.h"

struct arena;

/* Option ids of the cluster options (above any command's own ids). */
enum live_opt_id {
	LIVE_OPT_KUBECONFIG = 900,
	LIVE_OPT_CONTEXT,
	LIVE_OPT_CLUSTER,
	LIVE_OPT_TIMEOUT,
};

/* The cluster options as rows of a command's opt_spec table. */
#define LIVE_OPT_SPECS                                                                             \
	{ LIVE_OPT_KUBECONFIG, "kubeconfig", 0, "FILE",                                            \
	  "read this kubeconfig only (default: KUBECONFIG, ~/.kube/config,"                        \
	  " else the in-cluster service account)" },                                               \
		{ LIVE_OPT_CONTEXT, "context", 0, "CTX",                                           \
		  "the kubeconfig context to use (default: current-context)" },                    \
		{ LIVE_OPT_CLUSTER, "cluster", 0, "NAME",                                          \
		  "check the sites of this cluster.name (default: from the EKS ARN in"             \
		  " the kubeconfig, else the hybrid nodes' providerIDs)" },                        \
	{                                                                                          \
		LIVE_OPT_TIMEOUT, "timeout", 0, "DURATION",                                        \
			"give up after this long, for the whole command (default 30s)"             \
	}

/*
 * Handle one of the LIVE_OPT_* ids: 0, or -2 after a usage error; 1 when
 * `id` is not a cluster option.
 */
int live_on_option(struct live_opts *lo, const struct opts_cmd *cmd, int id, const char *value);

/*
 * live_run_start() over the common source options and PATH arguments of
 * `o`.  Returns GS_EXIT_OK, or the exit code after everything was printed
 * on stderr (1: invalid specs, 3: cluster or read errors).
 */
int live_start(struct live_run *out, struct arena *a, const char *name, const struct opts *o,
	       const struct live_opts *lo);
void live_finish(struct live_run *r);

/* Print r->errors (and kube diagnostics) on stderr: exit 3. */
int live_fail(struct live_run *r);

/* `gpusite diff --live`: cmd_diff dispatches here. */
int diff_live_run(const struct opts *o, const struct live_opts *lo, bool json);

#endif
