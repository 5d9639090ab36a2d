/*
 * spec.h - the typed GPUSite model, every default applied.
 *
 * spec_load() turns a document that passed the JSON Schema into this
 * model.  Every struct keeps `src`, the mapping it came from, so rules
 * can point at the exact line:column of a field (spec_field_pos()).
 * Everything lives in the run's arena.
 */
#ifndef GS_SPEC_H
#define GS_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "node/node.h"
#include "k8s/k8s_controllers.h"

struct arena;

#define SPEC_API_VERSION "gpusite.io/v1alpha1"
#define SPEC_KIND "GPUSite"

/* A Go duration ("90s", "1h30m", "720h") or "Never". */
struct spec_duration {
	int64_t seconds;  /* whole seconds; fractions rounded up */
	bool never;       /* "Never" (expireAfter, consolidateAfter only) */
	const char *text; /* as written, or the default's text */
	bool set;         /* written in the spec (not defaulted) */
};

struct spec_kv {
	const char *key;
	const char *value;
	const struct node *src; /* the value node (key node via pair) */
};

struct spec_taint {
	const char *key;
	const char *value;  /* "" when none */
	const char *effect; /* NoSchedule | PreferNoSchedule | NoExecute */
	const struct node *src;
};

enum spec_provisioner { PROV_KARPENTER, PROV_AUTO_MODE };
enum spec_stack_type { STACK_DEVICE_PLUGIN, STACK_GPU_OPERATOR };
enum spec_capacity { CAP_ON_DEMAND, CAP_SPOT, CAP_RESERVED };
enum spec_placement_mode { PLACE_PREFER_ONPREM, PLACE_REQUIRE_ONPREM };
enum spec_engine {
	ENGINE_KYVERNO,               /* policies.kyverno.io/v1 MutatingPolicy */
	ENGINE_KYVERNO_CLUSTERPOLICY, /* kyverno.io/v1 ClusterPolicy */
	ENGINE_MAP,                   /* MutatingAdmissionPolicy */
	ENGINE_NONE,
};
enum spec_fencing { FENCE_NONE, FENCE_LEASE, FENCE_STATEFULSET };
/* placement.siteBinding: how a site's GPU pods are kept on its own nodes */
enum spec_site_binding { BIND_REQUIRED, BIND_PREFERRED, BIND_NONE };
enum spec_credentials { CRED_NONE, CRED_SSM, CRED_IAMRA, CRED_BOTH };

struct spec_iamra {
	const char *trust_anchor_arn;
	const char *profile_arn;
	const char *role_arn;
	const char *certificate_path; /* default /etc/iam/pki/server.pem */
	const char *private_key_path; /* default /etc/iam/pki/server.key */
	const struct node *src;
};

struct spec_ssm {
	const char *activation_id;
	const char *activation_code_env; /* name of the env var, never the code */
	const struct node *src;
};

struct spec_node_group {
	const char *name;
	const char *gpu_model;         /* lower-case, e.g. "h200" */
	int gpus_per_node;             /* 1..16 */
	const char *arch;              /* "amd64" (default) | "arm64" */
	const char **nodes;            /* node names (may be empty with ssm) */
	const struct node **node_srcs; /* the scalar of each node name */
	size_t node_count;
	int count; /* nodes in the group; = node_count when nodes given */
	bool count_set;
	enum spec_credentials credentials;
	struct spec_iamra iamra; /* valid when credentials == CRED_IAMRA */
	struct spec_ssm ssm;     /* valid when credentials == CRED_SSM */
	struct spec_kv *labels;  /* sorted by key */
	size_t label_count;
	struct spec_taint *taints; /* extra taints, in spec order */
	size_t taint_count;
	const char **kubelet_flags;
	const struct node **kubelet_flag_srcs;
	size_t kubelet_flag_count;
	const struct node *kubelet_config; /* mapping or NULL */
	const struct node *src;
};

struct spec_chart {
	const char *repo_url; /* defaulted per stack type */
	const char *name;
	const char *version; /* exact */
	const char *namespace;
	const struct node *src;
};

struct spec_gpu_stack {
	enum spec_stack_type type;
	struct spec_chart chart;
	bool gfd;
	bool dcgm_exporter;
	bool dcgm_exporter_set; /* written explicitly (GS033) */
	bool toolkit;
	const struct node *values; /* extra Helm values (mapping) or NULL */
	const struct node *src;
};

/* fallback.nodeImage: unset, or the AMI family of the fallback nodes */
enum spec_node_image { IMAGE_UNSET = 0, IMAGE_AL2023, IMAGE_BOTTLEROCKET };

/* The device-plugin chart pinned for AL2023 fallback nodes next to a
 * gpu-operator hybrid stack (the chart saved and tested with helm). */
#define SPEC_FALLBACK_PLUGIN_VERSION "0.20.0"

/* fallback.nodeClass.imageVolume: the EBS volume that holds the images. */
struct spec_image_volume {
	bool set;
	const char *size; /* "200Gi" */
	const char *type; /* default gp3 */
	int64_t iops;     /* 0 when not given */
	int64_t throughput;
	bool encrypted;         /* default true */
	const char *kms_key_id; /* NULL when not given */
	const struct node *src;
};

/* fallback.nodeClass: the EC2NodeClass gpusite renders (karpenter only). */
struct spec_node_class {
	bool set;                        /* the block is present */
	const char *role;                /* NULL when not given */
	const char *instance_profile;    /* NULL when not given */
	const struct node *subnet_terms; /* sequence of selector terms */
	const struct node *security_group_terms;
	const char *ami_version;    /* NULL when not given (latest) */
	const struct spec_kv *tags; /* sorted by key */
	size_t tag_count;
	const char *http_tokens;             /* "required" (default) | "optional" */
	int64_t http_put_response_hop_limit; /* default 1 */
	const char *image_cache_snapshot;    /* NULL without imageCache */
	const char *image_cache_volume_size; /* NULL: the snapshot's size */
	struct spec_image_volume image_volume;
	const char *instance_store_policy; /* "RAID0" | "none" | NULL (default) */
	/* capacityReservationSelectorTerms as written (sequence) or NULL */
	const struct node *reservation_terms;
	const struct node *src;
};

struct spec_fallback {
	bool enabled;
	/* as written, NULL when not: the names in use are the inventory's */
	const char *node_pool_name;
	const char *node_class_name;
	const char **instance_types;
	const struct node **instance_type_srcs;
	size_t instance_type_count;
	enum spec_capacity capacity_type; /* the first of capacity_types */
	/* capacityType: one type, or several in priority order */
	const char **capacity_types;
	size_t capacity_type_count;
	bool reserved; /* capacity_types lists reserved */
	/* capacityReservationType: default | capacity-block, one or both */
	const char **reservation_types;
	size_t reservation_type_count;
	/* nodeClassSelectsReservations: the spec's word that a class gpusite
	 * does not render selects the reservations (GS181) */
	bool class_selects_reservations;
	/* disruptionBudgets as written (sequence) or NULL */
	const struct node *disruption_budgets;
	/* exclusive (default true): the pool's nodes carry the site taint */
	bool exclusive;
	int64_t gpu_limit;
	bool gpu_limit_set;
	int64_t min_gpu_memory_mib; /* 0 when not set */
	struct spec_duration expire_after;
	const char *consolidation_policy; /* WhenEmpty | WhenEmptyOrUnderutilized */
	struct spec_duration consolidate_after;
	const char **zones;
	size_t zone_count;
	/* karpenter only: the AMI family of the fallback nodes (GS111) */
	enum spec_node_image node_image;
	/* the fallback device plugin's chart version when the hybrid stack is
	 * gpu-operator ("" when not given: SPEC_FALLBACK_PLUGIN_VERSION) */
	const char *device_plugin_version;
	struct spec_node_class node_class;
	const struct node *src;
};

/* spec.burst: a Spot pool of its own for the workloads of its scope.  The
 * pool fields are those of a fallback block (the node class and image are
 * the fallback's); `pool.enabled` is false without the block. */
struct spec_burst {
	struct spec_fallback pool;
	const char **namespaces;
	size_t namespace_count;
	const struct node *pod_selector; /* label selector mapping or NULL */
	const struct node *src;
};

struct spec_placement {
	enum spec_placement_mode mode;
	int weight;
	enum spec_engine engine;
	const char **namespaces;
	size_t namespace_count;
	const struct node *pod_selector; /* label selector mapping or NULL */
	int64_t not_ready_toleration_seconds;
	int64_t unreachable_toleration_seconds;
	bool single_writer;
	enum spec_fencing fencing;
	enum spec_site_binding site_binding; /* default BIND_REQUIRED */
	const struct node *src;
};

struct spec_recovery {
	bool set; /* the block is present */
	struct spec_duration target_rto;
	struct spec_duration node_monitor_grace_period; /* default 50s */
	struct spec_duration node_provisioning;
	struct spec_duration image_pull;
	struct spec_duration image_pull_cached; /* with an image cache */
	struct spec_duration model_load;
	const struct node *src;
};

struct spec_alerts {
	bool enabled;
	struct spec_duration pending_margin; /* default 2m */
	const char *namespace;
	struct spec_kv *labels;
	size_t label_count;
	const struct node *src;
};

/* argocd.syncPolicy: the sync policy of every Application rendered. */
struct spec_sync_policy {
	bool automated; /* default true */
	bool prune;     /* default false */
	bool self_heal; /* default true */
	bool retry;     /* the retry block is present */
	int64_t retry_limit;
	bool retry_limit_set;
	const char *backoff_duration; /* NULL when not given */
	const char *backoff_max_duration;
	int64_t backoff_factor; /* 0 when not given */
	const struct node *src;
};

struct spec_argocd {
	struct spec_sync_policy sync;
	const char *namespace;
	const char *project;
	/* destinationServer; "https://kubernetes.default.svc" when not set
	 * (destination_server_set false) */
	const char *destination_server;
	bool destination_server_set;
	/* destinationName (an Argo CD cluster name), or NULL; never set
	 * together with destinationServer (the schema refuses both) */
	const char *destination_name;
	const struct node *src;
};

/* A controller release the spec declares (cluster.versions.<name>). */
struct spec_version {
	bool set;
	struct k8s_release release;
	const struct node *src; /* the value, for line:col */
};

/* cluster.quotas: EC2 vCPU quotas of the account and region; -1 where not
 * given.  G: the "G and VT" families, P: the P families. */
enum spec_quota_market { QUOTA_ON_DEMAND, QUOTA_SPOT, QUOTA_MARKETS };
enum spec_quota_group { QUOTA_G, QUOTA_P, QUOTA_GROUPS };
struct spec_quotas {
	bool set; /* the block is present */
	int64_t vcpus[QUOTA_MARKETS][QUOTA_GROUPS];
	const struct node *src[QUOTA_MARKETS][QUOTA_GROUPS]; /* each value, or NULL */
};

struct spec_cluster {
	const char *name;
	const char *region;
	enum spec_provisioner provisioner;
	const char *kubernetes_version; /* "1.35" or NULL when not set */
	int kube_minor;                 /* 35; 36 when not set (assumed) */
	bool kube_version_assumed;
	/* cluster.versions: the controllers as declared (set false: assumed) */
	struct spec_version karpenter_version;
	struct spec_version kyverno_version;
	const struct node *versions_src; /* the cluster.versions mapping or NULL */
	struct spec_quotas quotas;
	const struct node *src;
};

struct inventory;

struct spec_site {
	const char *name; /* metadata.name */
	const char *file; /* where it was read */
	struct spec_cluster cluster;
	struct spec_taint gpu_taint; /* defaults nvidia.com/gpu=Exists:NoSchedule */
	struct spec_node_group *groups;
	size_t group_count;
	struct spec_gpu_stack gpu_stack;
	struct spec_fallback fallback;
	struct spec_placement placement;
	struct spec_burst burst;
	struct spec_recovery recovery;
	struct spec_alerts alerts;
	struct spec_argocd argocd;
	/* what the site owns (src/inventory/), built once when the site is
	 * loaded; NULL for a site made by hand (inventory_site() builds it) */
	const struct inventory *inventory;
	const struct node *doc; /* the whole document */
};

/* All sites of one run, sorted by name (then file) for determinism. */
struct spec_fleet {
	struct spec_site **sites;
	size_t count;
	size_t files; /* spec files read */
};

/*
 * Build the model of one schema-valid GPUSite document.  Returns NULL
 * (with diagnostics) only when the document is not a GPUSite at all.
 */
struct spec_site *spec_load(struct arena *a, struct diags *d, const struct node *doc);

/*
 * The integer a number scalar is, by the one number policy of the tool:
 * an int, or a float with no fractional part that fits int64 (16.0, 16e0,
 * !!float 16 are 16, as JSON Schema's "integer" says).  Returns 0 with
 * *out set, and turns such a float node into the int it equals (text
 * "16") so that every later reader of the tree sees the same integer;
 * -1 for anything else (16.5, 1e26, a string).  The decimal text is
 * read exactly: "16.0000000000000001" is not 16 although its double is.
 * spec_load() reads every integer field through it.
 */
int spec_node_int(struct arena *a, const struct node *n, int64_t *out);

/*
 * The image-pull term of the recovery budget: recovery.imagePullCached
 * when the fallback nodes boot with an image cache
 * (fallback.nodeClass.imageCache) and the figure is given, else
 * recovery.imagePull.  *cached (may be NULL) says which.
 */
int64_t spec_image_pull_seconds(const struct spec_site *s, bool *cached);

/* Append a site; spec_fleet_sort() orders by name, then file. */
void spec_fleet_add(struct arena *a, struct spec_fleet *f, struct spec_site *s);
void spec_fleet_sort(struct spec_fleet *f);
struct spec_site *spec_fleet_find(const struct spec_fleet *f, const char *name);
/* Some site of the fleet is of cluster `name` (spec.cluster.name). */
bool spec_fleet_has_cluster(const struct spec_fleet *f, const char *name);

/* Position of map[key]'s value, else of the map itself, else a file pos. */
struct pos spec_field_pos(const struct node *map, const char *key);

/* Parse a Go duration; returns 0 and fills out, or -1. */
int spec_parse_duration(const char *text, bool allow_never, struct spec_duration *out);

/*
 * A duration as Karpenter's NodePool CRD takes it (expireAfter,
 * consolidateAfter: ^(([0-9]+(s|m|h))+|Never)$).  Text already of that
 * form is kept as written; any other Go duration that is exactly a whole
 * number of seconds becomes the largest single unit that holds it
 * exactly ("1.5h" -> "90m", "7200000ms" -> "2h", "0" -> "0s").  Returns 1
 * when text is to be kept as written (out untouched), 0 with the new text
 * in out[size] (SPEC_DURATION_BUFSZ suffices), or -1 with *why saying what
 * is wrong ("500ms" and "2m30.5s" are not whole seconds).
 */
int spec_duration_karpenter(const char *text, char *out, size_t size, const char **why);

/* Print whole seconds the way Go's Duration.String does ("16m50s",
 * "5m0s", "1h0m0s", "0s") into out[size]; 24 bytes always suffice. */
#define SPEC_DURATION_BUFSZ 24
void spec_duration_format(char *out, size_t size, int64_t seconds);

/* Groups' GPUs added up: perNode * count over every node group. */
int64_t spec_site_onprem_gpus(const struct spec_site *s);

const char *spec_engine_name(enum spec_engine e);
const char *spec_stack_type_name(enum spec_stack_type t); /* "device-plugin" */
const char *spec_provisioner_name(enum spec_provisioner p);
const char *spec_capacity_name(enum spec_capacity c);
const char *spec_placement_mode_name(enum spec_placement_mode m);
const char *spec_fencing_name(enum spec_fencing f);
const char *spec_site_binding_name(enum spec_site_binding b);

#endif
