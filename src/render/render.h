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
#include "inventory/inventory.h"
#include "k8s/k8s_gpu.h"
#include "node/node.h"
#include "spec/spec.h"

struct arena;

struct render_object {
	int rank; /* kind order in the stream (docs/design/artifacts.md, "Stream order") */
	const char *api_version;
	const char *kind;
	const char *namespace; /* "" for cluster-scoped */
	const char *name;
	const char *site; /* site it belongs to, or NULL when shared per cluster */
	const char *cluster;
	const char *purpose; /* one line for `explain` */
	struct node *obj;
};

/* A file outside the cluster stream: NodeConfigs and Helm values. */
enum render_file_kind { RENDER_FILE_NODECONFIG, RENDER_FILE_VALUES };

struct render_file {
	enum render_file_kind kind;
	const char *path; /* relative: "<site>/<group>/<node>.yaml", "<cluster>/values.yaml" */
	const char *site;
	struct node *doc;
	bool has_secret; /* holds an SSM activation code */
	/* doc as emit_document() writes it, when render already has the
	 * bytes (the NodeConfig in the ConfigMap's data); else NULL */
	const char *text;
	size_t text_len;
};

struct render_options {
	const char *const *sites; /* only these metadata.names; NULL = all */
	size_t site_count;
	/* only the sites of these clusters (spec.cluster.name); NULL = all */
	const char *const *clusters;
	size_t cluster_count;
	int kube_minor; /* > 0 overrides cluster.kubernetesVersion */
	bool files;     /* also build NodeConfig / values files */
	/* Environment lookup for SSM activation codes (getenv in the CLI,
	 * a table in tests). */
	const char *(*getenv)(const char *name);
	/* With `files`: leave the NodeConfig files out (and so need no SSM
	 * activation code), for `render --values DIR` alone. */
	bool no_nodeconfig_files;
	/* The Argo CD Applications are for a hub Argo CD (`objects: argocd`):
	 * without argocd.destinationName/Server they point at the cluster by
	 * `destination.name: <spec.cluster.name>`, not at the in-cluster server. */
	bool argocd_hub;
	/* Keep only the objects `keep` says yes to (NULL: all), before the
	 * empty-stream check: `render --objects` (argocd_objects_keep). */
	bool (*keep)(const struct render_object *o, const void *arg);
	const void *keep_arg;
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

/*
 * The orders render_fleet() sorts by, as qsort comparators: objects
 * (struct render_object) by kind rank, namespace, name, kind; files
 * (struct render_file) by kind, path.  For callers that merge the results
 * of several render_fleet() calls.
 */
int render_object_cmp(const void *a, const void *b);
int render_file_cmp(const void *a, const void *b);

/*
 * Kind ranks: the order of the cluster stream (docs/design/artifacts.md,
 * "Stream order").  Objects of equal rank are ordered by namespace, then
 * name.
 */
enum render_rank {
	RENDER_RANK_CONFIGMAP = 0,
	/* each kind its own rank: the node class the NodePools refer to
	 * comes first, so an apply in stream order never meets a dangling
	 * nodeClassRef */
	RENDER_RANK_EC2NODECLASS,
	RENDER_RANK_NODEPOOL,
	RENDER_RANK_APPLICATION,
	RENDER_RANK_MUTATINGPOLICY,
	RENDER_RANK_CLUSTERPOLICY,
	RENDER_RANK_MAP,
	RENDER_RANK_MAP_BINDING,
	RENDER_RANK_PROMETHEUSRULE,
};

/*
 * Objects shared by the sites of a cluster (site == NULL: the GPU stack
 * Application) carry this annotation.  In Argo CD one site's Application
 * owns them (`gpusite generate`, setting shared-objects), and the owner
 * changes when that site goes or a site with a smaller name joins: with
 * Prune=false the old owner leaves the object in place (OutOfSync, prune
 * skipped) while the new owner adopts it.  They never carry Argo CD's
 * resources-finalizer: deleting the Application (by hand, or by an
 * owner's cascade) then leaves the GPU stack running.
 */
#define RENDER_SHARED_ANNOTATION "argocd.argoproj.io/sync-options"
#define RENDER_SHARED_SYNC_OPTIONS "Prune=false"

/* Rule IDs of the diagnostics render_fleet() appends itself. */
#define RENDER_RULE_UNKNOWN_SITE "GS190" /* --site or --cluster names nothing */
#define RENDER_RULE_EMPTY "GS191"        /* nothing to render */
#define RENDER_RULE_SECRET_ENV "GS192"   /* activation-code variable unset / bad */
#define RENDER_RULE_NAME "GS193"         /* a name that cannot become a label value */

/* What one artifact kind's render functions get. */
struct render_ctx {
	struct arena *arena;
	struct diags *diags;
	const struct render_options *opt;
	struct render_result *out;
	/* in render_site: what the site owns (src/inventory/), computed
	 * once per site and run */
	const struct inventory *inv;
};

/*
 * One artifact kind (render/render_<kind>.c), listed once in
 * render_kinds[] (render/render.c).  render_site runs for every selected
 * site, render_cluster once per cluster with that cluster's selected
 * sites (sorted by name); either may be NULL.  They append objects and
 * files to ctx->out and return 0, or -1 after a diagnostic.
 */
struct render_api {
	const char *group;   /* API group, "" for the core group */
	const char *version; /* "v1" */
	const char *kind;
	const char *plural; /* the resource: "nodepools" */
	bool namespaced;
	/* The CRD under the upstream directory (docs/design/upstream.md) that
	 * `validate --rendered` checks it against; NULL for a built-in kind
	 * (the Kubernetes OpenAPI files cover it) */
	const char *crd;
	const char *unchecked; /* why check/ has no checker for it, or NULL */
	bool live;             /* diff --live lists it for objects no longer rendered */
};

/*
 * The kind's facts live here and nowhere else: the stream order (rank),
 * the API the objects belong to (group, version, plural, namespaced, the
 * upstream CRD), whether `diff --live` looks for objects of it that are
 * no longer rendered (live), and, for check/, the checker: check/ looks
 * it up by group and kind (check_kind_checked()), and a unit test walks
 * render_kinds[] to prove every kind has one or says why not (unchecked).
 * An artifact file whose objects have more than one apiVersion or kind
 * (the MutatingAdmissionPolicy and its binding, v1 and v1beta1) lists the
 * others in `more`.
 */
struct render_kind {
	const char *kind;
	const char *api_version; /* the usual one; an object may differ */
	int rank;
	int (*render_site)(struct render_ctx *ctx, const struct spec_site *site);
	int (*render_cluster)(struct render_ctx *ctx, const struct spec_site *const *sites,
			      size_t count);
	const char *group;   /* api_version up to the '/', "" for core */
	const char *version; /* api_version after the '/' */
	const char *plural;
	bool namespaced;
	const char *crd;       /* as in struct render_api */
	bool live;             /* diff --live lists it for stale objects */
	const char *unchecked; /* why check/ has no checker, or NULL */
	const struct render_api *more;
	size_t more_count;
};

extern const struct render_kind *const render_kinds[];
extern const size_t render_kinds_count;

extern const struct render_kind render_kind_nodeconfig;
extern const struct render_kind render_kind_nodepool;
extern const struct render_kind render_kind_ec2nodeclass;
extern const struct render_kind render_kind_gpustack;
extern const struct render_kind render_kind_fallback_plugin;
/* The name of cluster `cluster`'s fallback device plugin Application
 * ("<cluster>-nvidia-device-plugin-fallback", lower case, '_' as '-'),
 * in `a`. */
const char *render_fallback_plugin_app_name(struct arena *a, const char *cluster);
extern const struct render_kind render_kind_placement_kyverno;
extern const struct render_kind render_kind_placement_clusterpolicy;
extern const struct render_kind render_kind_placement_map;
extern const struct render_kind render_kind_alerts;

/*
 * Every API (group, version, kind) rendered objects may have, once each,
 * from render_kinds[]: the primary one of each descriptor and its `more`.
 * `*out` points at a static table.  Returns the count.
 */
size_t render_apis(const struct render_api *const **out);

/* The API entry of group + kind (any version), or NULL. */
const struct render_api *render_api_find(const char *group, const char *kind);

/* The Kubernetes minor version a site renders for: opt->kube_minor when
 * > 0, else the site's (36 when the spec does not say). */
int render_kube_minor(const struct spec_site *site, const struct render_options *opt);

/* "admissionregistration.k8s.io/v1" from 1.36 on, else ".../v1beta1". */
const char *render_map_api_version(int kube_minor);

/*
 * The Helm values of a cluster's GPU stack (docs/design/artifacts.md, "GPU stack") for the
 * `count` sites of one cluster (they agree on the stack: GS047): the
 * tool's values for the stack type, with tolerations for the GPU taint
 * and for every extra node-group taint of those sites (so the scoped
 * DaemonSets land on every on-prem GPU node), then sites[0]'s
 * gpuStack.values deep-merged last (maps merge key by key; anything else
 * replaces).  The tree lives in `a`.  This is both the Application's
 * helm.valuesObject and the file `render --values DIR` writes.
 */
struct node *render_gpustack_values(struct arena *a, const struct spec_site *const *sites,
				    size_t count);

/*
 * Helm-style deep merge of `over` into `base` (both mappings): maps are
 * merged recursively, every other value replaces.  `base` is changed in
 * place; values from `over` are cloned into `a`.  Keys new to `base` are
 * appended in `over`'s order.
 */
void render_values_merge(struct arena *a, struct node *base, const struct node *over);

/*
 * The NodeConfig of one IAM Roles Anywhere node (`node` = its name) or one
 * SSM group (`node` = NULL).  `activation_code` is written into
 * hybrid.ssm.activationCode when not NULL (the file under --nodeconfigs);
 * NULL leaves the key out (the copy in the ConfigMap).
 */
struct node *render_nodeconfig_doc(struct arena *a, const struct spec_site *site,
				   const struct spec_node_group *group, const char *node,
				   const char *activation_code);

/*
 * Placement semantics as data.
 *
 * Every placement engine (Kyverno MutatingPolicy, legacy ClusterPolicy,
 * MutatingAdmissionPolicy) is written from this one plan, and
 * render_placement_patches() computes, in C, the RFC 6902 JSON patch the
 * rendered policy produces for a given Pod.  Tests apply those patches to
 * sample Pods; the policies' CEL / JMESPath expressions implement exactly
 * the same steps:
 *
 *  match   the Pod is created in one of `namespaces` (none listed: any),
 *          its labels match `pod_selector` (NULL: any), and it is a GPU
 *          Pod (k8s/k8s_gpu.h: a container or init container, sidecars
 *          included, names a GPU resource of k8s_gpu_resources[] or of
 *          `gpu_shared` under resources.limits or resources.requests, or
 *          spec.resourceClaims is not empty).  Otherwise: no patch at all.
 *  step 1  for each key K in {not-ready, unreachable} whose seconds differ
 *          from 300 (`replace_not_ready` / `replace_unreachable`): every
 *          toleration with key K, operator Exists, effect NoExecute and
 *          tolerationSeconds 300 (DefaultTolerationSeconds' entry) gets
 *          {op: replace, path: /spec/tolerations/<i>/tolerationSeconds,
 *          value: seconds}.  Entries with other seconds are the user's and
 *          are kept.  Nothing is added or removed.
 *  step 2  unless a toleration already tolerates the GPU taint (its key is
 *          the taint key, or empty with operator Exists; operator Exists or
 *          value equal to the taint's; effect empty or equal):
 *          {op: add, path: /spec/tolerations/-, value: the toleration}
 *          when spec.tolerations exists, else
 *          {op: add, path: /spec/tolerations, value: [the toleration]}.
 *  step 2b the same for each of `pool_taints`, in order (the taints of
 *          the pools the scope launches from), after step 2's.
 *  step 3  node affinity, appended to what the Pod has, one requirement
 *          after the other (`affinity`, in order: the hybrid one,
 *          eks.amazonaws.com/compute-type In [hybrid], preferred with
 *          prefer-onprem or required with require-onprem; the site's,
 *          gpusite.io/site In [<site>], required or preferred by
 *          siteBinding; further ones a scope may add).  For each, on the
 *          Pod as the requirements before it left it: {op: add, path:
 *          /spec/affinity, value: {}} when spec.affinity is absent; then,
 *          without spec.affinity.nodeAffinity, {op: add, path:
 *          .../nodeAffinity, value: <the preferred term (weight) or the
 *          required term>}.  With one: a preferred requirement adds its
 *          term at .../preferredDuring.../- (or the list), unless a
 *          preferred term with exactly that requirement is there (any
 *          weight); a required one adds .../requiredDuring... with the one
 *          term when there is no term, else ANDs the requirement into
 *          every nodeSelectorTerm that lacks it
 *          (.../nodeSelectorTerms/<i>/matchExpressions/-, or the list).
 *          Nothing the Pod has is replaced.
 *
 * Steps run in this order, each on the result of the one before; steps 1
 * and 2 may be computed on the original Pod, step 3's requirements each on
 * the Pod the ones before it left (the engines write one mutation or rule
 * per requirement).
 * The ClusterPolicy adds its patches with Kyverno's EnsurePathExistsOnAdd,
 * so its ops differ (missing parents appear with the add) but the Pod that
 * comes out is the same.
 */
#define RENDER_GPU_RESOURCE K8S_GPU_RESOURCE
#define RENDER_HYBRID_LABEL "eks.amazonaws.com/compute-type"
#define RENDER_HYBRID_VALUE "hybrid"
#define RENDER_NOT_READY_KEY "node.kubernetes.io/not-ready"
#define RENDER_UNREACHABLE_KEY "node.kubernetes.io/unreachable"
#define RENDER_DEFAULT_TOLERATION_SECONDS 300

/* One requirement of step 3. */
struct render_affinity {
	const char *what; /* "hybrid", "site", ...: names the ClusterPolicy rules */
	const char *key;
	const char *op; /* "In" | "NotIn" */
	const char *const *values;
	size_t value_count;
	bool required; /* else a preferred term of `weight` */
	int weight;
};
#define RENDER_AFFINITY_MAX 4

struct render_placement_plan {
	const char *name; /* policy (and binding) name */
	/* the site's shared GPU resource names (inventory), beside
	 * k8s_gpu_resources[]: what makes a Pod a GPU Pod */
	const char *const *gpu_shared;
	size_t gpu_shared_count;
	const char *const *namespaces;
	size_t namespace_count;
	const struct node *pod_selector; /* label selector or NULL */
	const char *taint_key;           /* the GPU taint the toleration covers */
	const char *taint_value;
	const char *taint_effect;
	bool replace_not_ready;
	int64_t not_ready_seconds;
	bool replace_unreachable;
	int64_t unreachable_seconds;
	enum spec_placement_mode mode;
	int weight; /* prefer-onprem only */
	enum spec_site_binding site_binding;
	const char *site;
	/* how purpose lines name the scope: "placement", or the pool's noun */
	const char *scope_noun;
	bool pool_scope; /* the plan of a pool's own scope */
	/* step 2b: the taints of the pools the scope launches from (the
	 * burst taint, the site taint of an exclusive pool), each tolerated
	 * after the GPU taint; `noun` names it ("burst", "site") */
	struct inv_toleration pool_taints[INV_TOLERATIONS_MAX];
	size_t pool_taint_count;
	/* step 3, in order */
	struct render_affinity affinity[RENDER_AFFINITY_MAX];
	size_t affinity_count;
};

/* One RFC 6902 operation. */
struct render_patch_op {
	const char *op;   /* "add" | "replace" */
	const char *path; /* JSON pointer */
	struct node *value;
};

struct render_patch {
	struct render_patch_op *ops;
	size_t count;
	size_t alloc;
};

/* Fill the plan of the placement scope of `site` (pointers into the
 * model and its inventory, built in `a` when the site has none); with
 * pools of scopes of their own, a required `gpusite.io/pool NotIn
 * [<their values>]` too (never on their nodes, whatever the Pod
 * tolerates). */
void render_placement_plan(struct render_placement_plan *out, struct arena *a,
			   const struct spec_site *site);

/*
 * Fill the plan of the scope of `pool` (pool->scope: its namespaces and
 * podSelector; the burst pool's is the burst scope): the placement plan's
 * steps with the hybrid nodes always preferred (on-prem first, then the
 * pool), then step 2b, the pool taint's toleration, and a required
 * `gpusite.io/pool NotIn [<scope's excludes>]` (never the on-demand
 * fallback).  `pool->scope` must be set.
 */
void render_placement_pool_plan(struct render_placement_plan *out, struct arena *a,
				const struct spec_site *site, const struct inv_pool *pool);

/* The most plans of a site: its placement scope's and one per pool of a
 * scope of its own. */
#define RENDER_PLANS_MAX (1 + INV_POOL_MAX)

/* The placement plans of `site`, named (the placement scope's first, then
 * one per pool with a scope of its own, in inventory order); returns how
 * many were written to `out`. */
size_t render_placement_plans(struct render_placement_plan out[RENDER_PLANS_MAX], struct arena *a,
			      const struct spec_site *site);

/* The weight of the site's preferred term with siteBinding preferred:
 * the most a term may weigh, so the site's own nodes win over any other
 * preference the policy adds. */
#define RENDER_SITE_PREFERENCE_WEIGHT 100

/* Append a requirement to step 3 (at most RENDER_AFFINITY_MAX; `values`
 * must outlive the plan). */
void render_placement_affinity_add(struct render_placement_plan *plan, const char *what,
				   const char *key, const char *op, const char *const *values,
				   size_t value_count, bool required, int weight);

/* The "match" step above for a Pod (a node tree) created in `ns`. */
bool render_placement_applies(const struct render_placement_plan *plan, const struct node *pod,
			      const char *ns);

/*
 * The JSON patch the policy produces for `pod` created in `ns`, steps 1-3
 * in order (empty when the Pod does not match or needs nothing).  Values
 * and paths are allocated in `a`.  Returns 0.
 */
int render_placement_patches(struct render_patch *out, struct arena *a,
			     const struct render_placement_plan *plan, const struct node *pod,
			     const char *ns);

/* Whether the label selector (matchLabels / matchExpressions with In,
 * NotIn, Exists, DoesNotExist) matches `labels` (a mapping or NULL).
 * A NULL or empty selector matches everything. */
bool render_selector_matches(const struct node *selector, const struct node *labels);

/*
 * `gpusite explain`'s "policy snippet to paste" for engine none: the
 * Kyverno MutatingPolicy the site would get with engine kyverno, as a
 * render_object (not part of any stream).
 */
int render_placement_snippet(struct render_object *out, struct arena *a, struct diags *d,
			     const struct spec_site *site, const struct render_options *opt);

#endif
