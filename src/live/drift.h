/*
 * drift.h - live checks beyond the object diff (`gpusite drift`): the
 * cluster as it is against what the site specs say it must be.
 *
 * The command layer reads the cluster (kube/) into the compact records
 * below, page by page, so 5,000 nodes never sit in memory as JSON; the
 * checks here only look at records, which keeps them testable without a
 * server.  Every finding is a diagnostic with a GS2xx rule at the spec
 * line it concerns, naming the cluster objects involved.
 */
#ifndef GS_DRIFT_H
#define GS_DRIFT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "inventory/inventory.h"
#include "base/diag.h"
#include "node/node.h"
#include "spec/spec.h"

struct arena;

/* The IDs of the drift findings; what each means and its severity are
 * its row in the table of findings (base/findings.c, FINDING_DRIFT). */
#define DRIFT_NO_TAINT "GS201"
#define DRIFT_TAINT_WRONG "GS202"
#define DRIFT_LABELS "GS203"
#define DRIFT_NODE_ABSENT "GS204"
#define DRIFT_NODE_NOT_READY "GS205"
#define DRIFT_NODE_UNKNOWN "GS206"
#define DRIFT_STACK_OFF_HYBRID "GS207"
#define DRIFT_NO_DEVICE_PLUGIN "GS208"
#define DRIFT_NO_GPU_CAPACITY "GS209"
#define DRIFT_POOL_MISSING "GS210"
#define DRIFT_POOL_DIFFERS "GS211"
#define DRIFT_CLASS_MISSING "GS212"
#define DRIFT_FALLBACK_ACTIVE "GS213"
#define DRIFT_PODS_PENDING "GS214"
#define DRIFT_PODS_NO_TOLERATION "GS215"
#define DRIFT_FALLBACK_NO_GPU "GS216"
#define DRIFT_FALLBACK_PLUGINS "GS217"
#define DRIFT_CLASS_IMAGE "GS218"
#define DRIFT_VERSION_CONTRADICTED "GS219"
#define DRIFT_POOL_NODE_UNTAINTED "GS246"
#define DRIFT_PODS_UNBOUND "GS247"

/* A Node, cut down to what the checks read.  Strings in the arena. */
struct drift_node {
	const char *name;
	const struct node *labels;   /* mapping, or NULL */
	const struct node *taints;   /* sequence, or NULL */
	const char *provider_id;     /* or NULL */
	const char *gpu_capacity;    /* status.capacity["nvidia.com/gpu"], or NULL */
	const char *gpu_allocatable; /* status.allocatable["nvidia.com/gpu"], or NULL */
	bool ready;
	const char *ready_reason; /* Ready condition reason when not ready */
};

/* A Pod, cut down likewise. */
struct drift_pod {
	const char *ns;
	const char *name;
	const char *node;               /* spec.nodeName, or NULL (not scheduled) */
	const char *phase;              /* status.phase, or "" */
	const struct node *labels;      /* mapping, or NULL */
	const struct node *tolerations; /* sequence, or NULL */
	const char *owner_kind;         /* controller's kind, or NULL */
	int64_t gpus;                   /* nvidia.com/gpu requested (0: none) */
	/* the nvidia.com/ resources its containers and init containers ask
	 * for (at most DRIFT_POD_GPU_NAMES_MAX), and whether it has resource
	 * claims: what drift_pod_is_gpu() judges with a site's shared names */
	const char **gpu_names;
	size_t gpu_name_count;
	bool claims;
	const struct node *node_affinity; /* spec.affinity.nodeAffinity, or NULL */
	const struct node *node_selector; /* spec.nodeSelector, or NULL */
};

/* One site's fallback pool as found in the cluster. */
struct drift_fallback {
	const struct spec_site *site;
	const struct inv_pool *pool;   /* the pool (src/inventory/) */
	const struct node *rendered;   /* the NodePool as rendered */
	const struct node *live;       /* as served, or NULL when missing */
	bool class_missing;            /* its EC2NodeClass / NodeClass is not there */
	const struct node *live_class; /* that class as served, or NULL */
	const char *class_kind;        /* "EC2NodeClass" / "NodeClass" */
	const char **claims;           /* NodeClaim names of the pool */
	size_t nclaims;
};

/*
 * What the cluster serves that tells its controller releases, read only
 * when a site declares cluster.versions (docs/design/versions.md).
 */
struct drift_served {
	bool read;
	bool nodepool;               /* the karpenter.sh NodePool CRD is there */
	bool nodepool_gte;           /* its requirement operators include Gte (1.9+) */
	bool nodeclass;              /* the karpenter.k8s.aws EC2NodeClass CRD */
	bool nodeclass_reservations; /* with capacityReservationSelectorTerms (1.3+) */
	bool mutating_policy;        /* policies.kyverno.io/v1 MutatingPolicy (1.17+) */
	bool cluster_policy;         /* kyverno.io/v1 ClusterPolicy (before 1.20) */
};

/*
 * What the placement policy of one scope adds to a GPU Pod's node
 * affinity: step 3 of the scope's placement plan (render/render.h,
 * "Placement semantics as data"), copied from the rendered plan by the
 * caller (pipeline/live_drift.c, live_drift_plans()), since live/ sits
 * below render/ on the road.  GS247 asks each Pod of the scope for it.
 */
struct drift_requirement {
	const char *key;
	const char *op; /* "In" | "NotIn" */
	const char *const *values;
	size_t value_count;
	bool required; /* else a preferred term */
	int weight;    /* of the preferred term */
};
#define DRIFT_PLAN_REQUIREMENTS_MAX 4

struct drift_plan {
	const struct spec_site *site;
	const char *policy; /* the policy's name */
	const char *const *namespaces;
	size_t namespace_count;
	const struct node *pod_selector; /* or NULL: every Pod */
	const struct inv_pool *pool;     /* the pool of its own scope, or NULL: placement */
	struct drift_requirement reqs[DRIFT_PLAN_REQUIREMENTS_MAX];
	size_t req_count;
};

struct drift_input {
	const char *cluster;
	const struct spec_site *const *sites; /* the sites of `cluster` */
	size_t nsites;
	const struct drift_node *nodes; /* every node of the cluster */
	size_t nnodes;
	/* Pods of the GPU stack namespace and of the placement namespaces. */
	const struct drift_pod *pods;
	size_t npods;
	bool stack_listed; /* the stack namespace's pods are in `pods` */
	const struct drift_fallback *fallbacks;
	size_t nfallbacks;
	/* the placement plans of every site (GS247), from
	 * live_drift_plans(); without them no Pod's binding is judged */
	const struct drift_plan *plans;
	size_t nplans;
	struct drift_served served;
};

/* Records from API objects (copied into `a`, so the page can go). */
void drift_node_from(struct drift_node *out, struct arena *a, const struct node *obj);
void drift_pod_from(struct drift_pod *out, struct arena *a, const struct node *obj);

/* The most nvidia.com/ resource names a record keeps (a Pod asking for
 * more is a GPU Pod by its first ones already, or by none). */
#define DRIFT_POD_GPU_NAMES_MAX 8

/* Whether the record may be a GPU Pod of some site: it asks for an
 * nvidia.com/ resource or has resource claims (what a reader keeps). */
bool drift_pod_maybe_gpu(const struct drift_pod *p);

/* Whether `p` is a GPU Pod of `site` (src/k8s/k8s_gpu.h: the list, the
 * site's shared names, resource claims), as its placement policy judges. */
bool drift_pod_is_gpu(struct arena *a, const struct drift_pod *p, const struct spec_site *site);

/* Is this pod one of the device plugin's (either chart)? */
bool drift_is_device_plugin(const struct drift_pod *p);

/*
 * Run every check; findings are appended to d.  Returns the number of
 * findings that count as drift (errors and warnings; notes such as an
 * active fallback are state, not drift).
 */
size_t drift_check(struct arena *a, struct diags *d, const struct drift_input *in);

#endif
