/*
 * inventory.h - what gpusite owns for one site, computed once from the
 * site's model: the hybrid node groups, the Karpenter pools (a list: each
 * pool is an entry, never a code path) and their node classes, with the
 * names, labels and selectors every module that renders or judges a
 * cluster reads from here instead of deriving them again
 * (docs/design/inventory.md).
 */
#ifndef GS_INVENTORY_H
#define GS_INVENTORY_H

#include <stdbool.h>
#include <stddef.h>

#include "inventory/inventory_labels.h"
#include "spec/spec.h"

struct arena;

/* What an owned object is for.  A new role is a row in inventory.c's
 * role table plus the entries that build it. */
enum inv_role {
	INV_ROLE_HYBRID_GROUP,        /* the on-prem nodes of one nodeGroup */
	INV_ROLE_FALLBACK_POOL,       /* the on-demand (or reserved) Karpenter pool */
	INV_ROLE_BURST_POOL,          /* the Spot pool of the burst scope */
	INV_ROLE_NODE_CLASS,          /* the node class a pool launches with */
	INV_ROLE_NODECONFIG_MAP,      /* the site's NodeConfigs, published as a ConfigMap */
	INV_ROLE_PLACEMENT_POLICY,    /* the admission policy that places its GPU pods */
	INV_ROLE_ALERT_RULE,          /* its PrometheusRule */
	INV_ROLE_GPU_STACK_APP,       /* its cluster's GPU-stack Application (shared) */
	INV_ROLE_FALLBACK_PLUGIN_APP, /* its cluster's fallback device plugin (shared) */
	INV_ROLE_COUNT
};

/* The Pods a pool launches for when it is not the site's placement
 * scope: its own namespaces and Pod selector, placed by a policy of its
 * own. */
struct inv_scope {
	const char *const *namespaces;
	size_t namespace_count;
	const struct node *pod_selector; /* label selector mapping or NULL */
	const struct node *src;          /* the spec block, for positions */
	const char *path;                /* its JSON path: "spec.burst" */
	const char *policy_name;         /* gpusite-<site>-<noun>-placement */
	/* the gpusite.io/pool values its Pods must never land on */
	const char *const *excludes;
	size_t exclude_count;
};

/* The most pools a site may have (one per pool role). */
#define INV_POOL_MAX 4

/* One pool of cloud GPU nodes gpusite asks Karpenter for.  Everything a
 * module decides differently for one pool than for another is a field
 * here, filled by the role's builder in inventory.c: the modules loop
 * over inv->pools and never ask which role a pool has. */
struct inv_pool {
	enum inv_role role;
	const char *name;       /* the NodePool's metadata.name */
	const char *class_name; /* its nodeClassRef.name */
	const char *class_kind; /* EC2NodeClass | NodeClass (Auto Mode) */
	bool renders_class;     /* gpusite renders the node class too */
	/* the labels the pool's template puts on every node it launches */
	const struct spec_kv *node_labels;
	size_t node_label_count;
	/* the taints the pool's nodes carry beside the GPU taint: the
	 * role's own (the burst taint), then the site taint when the pool is
	 * exclusive.  The Pods of the pool's scope tolerate each of them. */
	const struct spec_taint *taints;
	size_t taint_count;
	/* capacity for normal times (the burst pool): its nodes do not mean
	 * the site has failed over, so no activation alert */
	bool normal_time;
	/* "karpenter.sh/nodepool=<name>": the nodes of this pool */
	const char *node_selector;
	const struct spec_fallback *spec; /* the spec block it comes from */
	const char *spec_path;            /* its JSON path: "spec.fallback" */
	const char *spec_key;             /* its key under spec: "fallback" */
	/* the spec field a finding about the pool points at */
	const char *at_key;
	/* how messages name it: "fallback" | "burst" (also its
	 * gpusite.io/pool value) and "the cloud fallback" | "the burst pool" */
	const char *noun;
	const char *title;
	const char *node_type; /* its node-type label value */
	const char *purpose;   /* the NodePool's purpose line */
	bool owns_class;       /* its node class is judged with it (not shared) */
	bool plugin_covers;    /* the fallback device plugin runs on its nodes */
	/* the Pods it launches for: NULL for the site's placement scope */
	const struct inv_scope *scope;
	/* its alerts: <alert_prefix>NearLimit (and, with a scope of its own,
	 * <alert_prefix>PodsPending); what a full pool means for the Pods */
	const char *alert_prefix;
	const char *limit_note;
};

/* One hybrid node group: the nodes nodeadm joins with its labels. */
struct inv_group {
	const char *name;
	/* the labels nodeadm puts on each node (site, group, spec labels) */
	const struct spec_kv *node_labels;
	size_t node_label_count;
	const struct spec_node_group *spec;
};

/* One more object the site owns (or shares with its cluster's sites):
 * its role, name and namespace ("" when cluster-scoped or decided by its
 * kind's renderer). */
struct inv_object {
	enum inv_role role;
	const char *name;
	const char *namespace;
};

struct inventory {
	const struct spec_site *site;
	struct inv_object *objects; /* one per role above the pools, in role order */
	size_t object_count;
	struct inv_pool *pools; /* in a fixed order: the fallback pool first */
	size_t pool_count;
	/* the gpusite.io/pool values the placement scope's Pods never land
	 * on: every pool with a scope of its own */
	const char *const *placement_excludes;
	size_t placement_exclude_count;
	struct inv_group *groups; /* in spec order */
	size_t group_count;
	/* the resource names the site's device-plugin sharing configs
	 * advertise shared GPUs under, beyond k8s/k8s_gpu.h's list (a
	 * `rename`, or <name>.shared with renameByDefault), each once, in
	 * the order the configs give them; none without such a config */
	const char *const *gpu_shared_names;
	size_t gpu_shared_name_count;
};

/* The most shared names a site's sharing configs give (any more are
 * not read: a config renames each of its few resources once). */
#define INV_GPU_SHARED_MAX 16

/* What `site` owns; everything in `a`.  Never fails: the model is whole. */
const struct inventory *inventory_site(struct arena *a, const struct spec_site *site);
/* Build it anew (the loader does, once per site: spec_site.inventory). */
const struct inventory *inventory_build(struct arena *a, const struct spec_site *site);

/* The labels of a hybrid node of group `g` of `site`, sorted by key
 * (what inventory_site() puts in each struct inv_group); `*count` set. */
const struct spec_kv *inventory_group_labels(struct arena *a, const struct spec_site *site,
					     const struct spec_node_group *g, size_t *count);

/* The object of `role` (NODECONFIG_MAP ... FALLBACK_PLUGIN_APP), or NULL. */
const struct inv_object *inventory_object(const struct inventory *inv, enum inv_role role);

/* `name` (a cluster's) as Kubernetes names objects: lower case, '_' as
 * '-' (EKS allows both; DNS-1123 neither).  The one mapping of cluster
 * names to object and directory names (arena). */
const char *inventory_dns_name(struct arena *a, const char *name);

/* The name of a cluster's Application of `role` (GPU_STACK_APP, with its
 * stack type, or FALLBACK_PLUGIN_APP): <cluster>-<release>, lower-cased,
 * '_' as '-', since cluster names may hold what object names may not. */
const char *inventory_app_name(struct arena *a, const char *cluster, enum inv_role role,
			       enum spec_stack_type type);

/* The Helm release of the GPU stack of `type`. */
const char *inventory_stack_release(enum spec_stack_type type);

/* A taint the GPU Pods of a scope tolerate beside the GPU taint: one of
 * the taints of the pools the scope launches from. */
struct inv_toleration {
	const struct spec_taint *taint;
	const char *noun; /* "site" for the site taint, else its pool's noun */
	bool exact;       /* tolerated by its value (Equal): the site taint, so
			   * one site's Pods never tolerate another site's pool */
};

/* The most tolerations of one scope (each pool's own taint and the site's). */
#define INV_TOLERATIONS_MAX (INV_POOL_MAX * 2)

/* The taints the Pods of the scope of pool `own` tolerate (its taints),
 * or with `own` NULL those of the placement scope (the taints of the pools
 * without a scope of their own), each once, in pool order; returns how
 * many.  The placement policies add them, drift asks Pods for them. */
size_t inventory_scope_tolerations(const struct inventory *inv, const struct inv_pool *own,
				   struct inv_toleration out[INV_TOLERATIONS_MAX]);

/* The pool of `role`, or NULL when the site has none. */
const struct inv_pool *inventory_pool(const struct inventory *inv, enum inv_role role);

/* The site's failover capacity: the first pool whose nodes mean the
 * site has failed over (not normal_time), or NULL. */
const struct inv_pool *inventory_failover_pool(const struct inventory *inv);

/* The pools a scope's Pods never land on, for messages: "fallback", or
 * "a or b" (arena). */
const char *inventory_excludes_text(struct arena *a, const struct inv_scope *sc);

/* The pool kinds any site may have (one per pool role), in pool order:
 * how many, the noun of the k-th (NULL past the end), and the site's
 * pool of the k-th kind (NULL when the site has none); whether pools of
 * the k-th kind are normal-time capacity.  For what is laid
 * out per kind across sites: a column per kind of pool. */
size_t inventory_pool_kind_count(void);
const char *inventory_pool_kind_noun(size_t k);
bool inventory_pool_kind_normal_time(size_t k);
const struct inv_pool *inventory_pool_of_kind(const struct inventory *inv, size_t k);

/* Whether `node_type` (a node's node-type label) is one of a pool of
 * any site: its nodes boot the pools' image and run their plugin. */
bool inventory_is_pool_node_type(const char *node_type);

/* The pool whose NodePool is called `name`, or NULL. */
const struct inv_pool *inventory_pool_named(const struct inventory *inv, const char *name);

/* A role's name in messages and docs ("fallback pool", ...). */
const char *inventory_role_name(enum inv_role role);

#endif
