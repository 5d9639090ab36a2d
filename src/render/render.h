/*
 * render.h - the model -> Kubernetes objects and node bootstrap files.
 *
 * One file per artifact kind under render/ (render_<kind>.c) with a
 * descriptor listed in render_kinds[] (render/render.c).  Objects are
 * node trees whose mapping keys are already in output order; the stream
 * is sorted by kind rank, namespace, name.
 */
#ifndef GS_RENDER_H
#define GS_RENDER_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "node/node.h"
#include "spec/spec.h"

struct arena;

struct render_object {
	int rank;		/* kind order in the stream (outputs.md) */
	const char *api_version;
	const char *kind;
	const char *namespace;	/* "" for cluster-scoped */
	const char *name;
	const char *site;	/* site it belongs to, or NULL when shared per cluster */
	const char *cluster;
	const char *purpose;	/* one line for `explain` */
	struct node *obj;
};

/* A file outside the cluster stream: NodeConfigs and Helm values. */
enum render_file_kind { RENDER_FILE_NODECONFIG, RENDER_FILE_VALUES };

struct render_file {
	enum render_file_kind kind;
	const char *path;	/* relative: "<site>/<group>/<node>.yaml", "<cluster>/values.yaml" */
	const char *site;
	struct node *doc;
	bool has_secret;	/* holds an SSM activation code */
};

struct render_options {
	const char *const *sites;	/* only these metadata.names; NULL = all */
	size_t site_count;
	int kube_minor;			/* > 0 overrides cluster.kubernetesVersion */
	bool files;			/* also build NodeConfig / values files */
	/* Environment lookup for SSM activation codes (getenv in the CLI,
	 * a table in tests). */
	const char *(*getenv)(const char *name);
};

struct render_result {
	struct render_object *objects;
	size_t count;
	size_t alloc;
	struct render_file *files;
	size_t file_count;
	size_t file_alloc;
};

/*
 * Render the fleet.  Returns 0; -1 after diagnostics (an unknown site
 * name, an unset activation-code variable, an empty result).
 */
int render_fleet(struct render_result *out, struct arena *a, struct diags *d,
		 const struct spec_fleet *fleet, const struct render_options *opt);

#endif
