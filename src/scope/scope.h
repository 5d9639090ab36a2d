/*
 * scope.h - where would each DaemonSet run?  Kubernetes' placement rules
 * (nodeSelector, required node affinity, taints vs tolerations, the
 * tolerations the DaemonSet controller adds itself) applied to a node
 * inventory, and the verdict on the GPU stack: every GPU-stack DaemonSet
 * must run on every hybrid GPU node and on no other (cloud) node.  The
 * one exception is gpusite's fallback device plugin (it selects
 * gpusite.io/node-image=al2023): it must run on every GPU node the
 * fallback NodePool labels so and on no other node.
 *
 * The GPU stack labels nodes while it runs, and its own DaemonSets select
 * on those labels; the placement therefore runs to a fixed point over a
 * small model of that chain (see scope_runtime_labels() in scope.c):
 *   - NFD worker on a GPU node      -> feature.node.kubernetes.io/pci-10de.present=true
 *   - GPU Operator (a ClusterPolicy) on a node with an NVIDIA PCI label
 *                                   -> nvidia.com/gpu.present=true and
 *                                      nvidia.com/gpu.deploy.<operand>=true
 *   - GPU capabilities (nvidia.com/mps.capable, nvidia.com/mig.capable)
 *                                   -> assumed true on every GPU node: the
 *                                      worst case for leaks to cloud nodes
 * Operand DaemonSets that the GPU Operator creates at run time are
 * synthesised from the ClusterPolicy (daemonsets.tolerations, one
 * nvidia.com/gpu.deploy.<operand> nodeSelector each, only the enabled ones).
 *
 * Everything is read from node trees (yamlio); nothing here parses YAML.
 */
#ifndef GS_SCOPE_H
#define GS_SCOPE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "inventory/inventory_labels.h"
#include "node/node.h"

struct arena;
struct buf;

/* The label gpusite's fallback NodePool puts on nodes of a known AMI
 * family, and the value whose nodes get gpusite's fallback plugin. */
#define SCOPE_NODE_IMAGE_LABEL INV_NODE_IMAGE_LABEL
#define SCOPE_NODE_IMAGE_PLUGIN "al2023"

/* Rule IDs of verify-scope findings (their severity and summary: rows of
 * the table of findings, base/findings.c). */
#define SCOPE_RULE_MISSES "GS160" /* GPU-stack DaemonSet misses a hybrid GPU node */
#define SCOPE_RULE_LEAKS "GS161"  /* GPU-stack DaemonSet runs on a non-hybrid node */
#define SCOPE_RULE_NOTHING                                                                         \
	"GS162" /* nothing to prove: no hybrid GPU node or no GPU-stack DaemonSet */
#define SCOPE_RULE_INPUT "GS163" /* an input document is not what it should be */

/* A label the GPU stack would put on a node while it runs. */
struct scope_label {
	const char *key;
	const char *value;
	const char *by; /* "NFD worker ns/name", "GPU Operator", ... */
};

struct scope_node {
	const char *name;
	struct pos at;
	bool hybrid;               /* eks.amazonaws.com/compute-type=hybrid */
	bool gpu;                  /* an NVIDIA GPU: see scope_node_classify() */
	const char *gpu_why;       /* the signal that made it a GPU node, or NULL */
	const struct node *labels; /* metadata.labels (map) or NULL */
	const struct node *taints; /* spec.taints (seq) or NULL */
	/* gpusite.io/node-image of a gpusite fallback node
	 * (node-type=cloud-gpu-fallback), else NULL */
	const char *fallback_image;
	/* a node of one of gpusite's pools (node-type of a pool): its
	 * gpusite.io/pool value (or node-type) and gpusite.io/site, else NULL */
	const char *pool;
	const char *pool_site;
	/* the site taint it carries (gpusite.io/site=<site>:NoSchedule, an
	 * item of spec.taints), or NULL: the pool is shared (exclusive: false) */
	const struct node *site_taint;
	struct scope_label *runtime; /* labels the stack adds (override) */
	size_t runtime_count;
	size_t runtime_alloc;
};

enum scope_role {
	SCOPE_ROLE_NONE,
	SCOPE_ROLE_NFD_WORKER, /* labels GPU nodes with NFD PCI labels */
};

struct scope_ds {
	const char *namespace; /* "" when the document has none */
	const char *name;
	struct pos at;
	const char *origin; /* NULL: a manifest; "ClusterPolicy/<name>": an operand */
	bool gpu_stack;
	const char *why; /* how it was judged part of the GPU stack */
	enum scope_role role;
	/* gpusite's fallback device plugin: a GPU-stack DaemonSet that selects
	 * gpusite.io/node-image=al2023.  It must run on every GPU node with
	 * that label and on no other node, hybrid ones included. */
	bool fallback;
	/* the label of gpusite's pool nodes it selects on (gpusite.io/pool,
	 * gpusite.io/node-image, a pool's node-type): meant for pool nodes,
	 * so a taint that keeps it off one it selects is a miss; else NULL */
	const char *pool_key;
	const struct node *pod_spec; /* spec.template.spec (or a made-up one) */
};

/* Where one DaemonSet runs on one node. */
struct scope_cell {
	bool runs;
	const char **reasons; /* runs: runtime labels it needed; else why not */
	size_t reason_count;
};

struct scope_result {
	struct scope_node *nodes;
	size_t node_count;
	size_t node_alloc;
	struct scope_ds *ds;
	size_t ds_count;
	size_t ds_alloc;
	struct scope_cell *cells; /* ds_count * node_count, row per DaemonSet */
	size_t other_docs;        /* manifest objects that are not DaemonSets */
	bool operator_model;      /* a ClusterPolicy was in the manifests */
	size_t misses;            /* GS160 findings */
	size_t leaks;             /* GS161 findings */
	size_t pool_nodes;        /* nodes of gpusite's pools */
	size_t shared_pool_nodes; /* of those, without the site taint */
};

void scope_init(struct scope_result *r);

/*
 * Add the Nodes of `docs` (a Node, or a List / NodeList with items; other
 * kinds get GS163).  Returns 0, or -1 after an error diagnostic.
 */
int scope_add_nodes(struct scope_result *r, struct arena *a, struct diags *d,
		    struct node *const *docs, size_t count);

/*
 * Add the DaemonSets of `docs` (lists are unwrapped) and the operands of
 * any nvidia.com ClusterPolicy; other kinds are counted and skipped.
 */
int scope_add_manifests(struct scope_result *r, struct arena *a, struct diags *d,
			struct node *const *docs, size_t count);

/*
 * Place every DaemonSet on every node, then judge the GPU stack: GS160 and
 * GS161 errors, GS162 warnings.  Returns 0, or -1 when an error was added.
 */
int scope_run(struct scope_result *r, struct arena *a, struct diags *d);

/* The cell of DaemonSet `i` on node `j`. */
const struct scope_cell *scope_cell_at(const struct scope_result *r, size_t i, size_t j);

/*
 * Placement of one pod spec on one node.  `daemonset` adds the tolerations
 * the DaemonSet controller puts on every daemon pod.  Fills `out`
 * (reasons in the arena).  Never fails: malformed fields count as "does
 * not match" with a reason saying so.
 */
void scope_place(struct scope_cell *out, struct arena *a, const struct scope_node *n,
		 const struct node *pod_spec, bool daemonset);

/* The pieces, for tests. */
const char *scope_node_label(const struct scope_node *n, const char *key);
bool scope_toleration_tolerates(const struct node *toleration, const struct node *taint);
/* A taint as key=value:effect (key:effect without a value). */
const char *scope_taint_text(struct arena *a, const struct node *taint);
/* One nodeSelectorTerm; `why` gets the first failing requirement. */
bool scope_term_matches(const struct scope_node *n, const struct node *term, struct arena *a,
			const char **why);
/* Decide hybrid / GPU from labels and status.capacity. */
void scope_node_classify(struct scope_node *n, const struct node *obj);
/* Whether a DaemonSet object belongs to the GPU stack; sets ds->why. */
bool scope_ds_is_gpu_stack(struct scope_ds *ds, struct arena *a, const struct node *obj);

/* Output: the placement table, or one JSON object (with the findings). */
int scope_write_text(struct buf *out, const struct scope_result *r);
int scope_write_json(struct buf *out, struct arena *a, const struct scope_result *r,
		     const struct diags *d);

#endif
