/*
 * opts_live.h - the cluster options of the live commands (`diff --live`,
 * `drift`, `verify-scope`, `validate --rendered --live`, the drill).
 */
#ifndef GS_OPTS_LIVE_H
#define GS_OPTS_LIVE_H

#include <stdbool.h>

#include "cli/opts.h"
#include "pipeline/live.h"

/* Option ids of the cluster options (above any command's own ids). */
enum live_opt_id {
	LIVE_OPT_KUBECONFIG = 900,
	LIVE_OPT_CONTEXT,
	LIVE_OPT_CLUSTER,
	LIVE_OPT_TIMEOUT,
};

/* The rows of --kubeconfig and --context, their help after `pre` (""; a
 * command that reads the cluster only in one mode says which). */
#define LIVE_OPT_KUBECONFIG_ROW(pre)                                                               \
	{                                                                                          \
		LIVE_OPT_KUBECONFIG, "kubeconfig", 0, "FILE",                                      \
			pre "read this kubeconfig only (default: KUBECONFIG, ~/.kube/config,"      \
			    " else the in-cluster service account)"                                \
	}
#define LIVE_OPT_CONTEXT_ROW(pre)                                                                  \
	{                                                                                          \
		LIVE_OPT_CONTEXT, "context", 0, "CTX",                                             \
			pre "the kubeconfig context to use (default: current-context)"             \
	}

/* The cluster options as rows of a command's opt_spec table. */
#define LIVE_OPT_SPECS                                                                             \
	LIVE_OPT_KUBECONFIG_ROW(""), LIVE_OPT_CONTEXT_ROW(""),                                     \
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

#endif
