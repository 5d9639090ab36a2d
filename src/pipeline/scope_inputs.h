/*
 * scope_inputs.h - what `gpusite verify-scope` places: Node objects and
 * manifests from files, directories of them or standard input, and with
 * --live what the cluster runs.  Documents go into the run's arena.
 */
#ifndef GS_PIPELINE_SCOPE_INPUTS_H
#define GS_PIPELINE_SCOPE_INPUTS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "kube/kube.h"
#include "source/source.h"
#include "yamlio/yamlio.h"

/*
 * Read every path (a file, "-" for standard input, or a directory that
 * stands for its *.yaml / *.yml / *.json files by name) and append its
 * documents to `all` and its bytes to `files`.  0, -1 when a file is no
 * valid YAML (d says where), -3 when one cannot be read at all.
 */
int scope_inputs_read(struct arena *a, struct diags *d, struct source_set *files,
		      const char *const *paths, size_t npaths, struct yamlio_docs *all);

/*
 * From the cluster `ko` names: its Nodes (want_nodes) and its DaemonSets
 * and GPU Operator ClusterPolicies (want_manifests), each list as one
 * document.  0, or -1 when the cluster could not be read (d says why).
 */
int scope_inputs_live(struct arena *a, struct diags *d, const struct kube_options *ko,
		      bool want_nodes, bool want_manifests, struct yamlio_docs *nodes,
		      struct yamlio_docs *manifests);

struct scope_result;

/* The files verify-scope was given: --nodes and --manifests. */
struct scope_inputs_paths {
	const char *const *nodes;
	size_t nnodes;
	const char *const *manifests;
	size_t nmanifests;
};

enum { SCOPE_INPUTS_EREAD = -3 }; /* an input unreadable or not YAML: the job cannot be done */

/*
 * verify-scope's placement: the nodes and manifests of `in`, with `ko`
 * (NULL: none) what the files leave out read from the cluster, every
 * DaemonSet placed on every node into `r` (scope/scope.h).  `files`
 * holds the files read, sorted.  0; -1 when the placement found
 * something (the findings in `d`); SCOPE_INPUTS_EREAD.
 */
int scope_inputs_place(struct scope_result *r, struct arena *a, struct diags *d,
		       struct source_set *files, const struct scope_inputs_paths *in,
		       const struct kube_options *ko);

#endif
