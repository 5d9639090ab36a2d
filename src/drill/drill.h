/*
 * drill.h - the fallback drill: scenarios, the five recovery terms, the
 * budget from the spec's recovery block, the drill record and the
 * timeline it is measured from.
 *
 * The module sits above kube, diff, scope, render and report, below cmd.
 * Everything lives in the caller's arena.  Times are whole seconds since
 * the epoch (UTC); the record writes them as RFC 3339 ("...T08:14:00Z").
 */
#ifndef GS_DRILL_H
#define GS_DRILL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/diag.h"
#include "report/report.h"

struct arena;
struct node;
struct spec_site;

#define DRILL_RECORD_API_VERSION "gpusite.io/drill-record/v1"

/* Largest drill record read (--record FILE). */
#define DRILL_RECORD_MAX (16u * 1024 * 1024)
/* Most transitions a record may hold (a drill of a site has hundreds). */
#define DRILL_RECORD_MAX_TRANSITIONS 10000

enum drill_scenario {
	DRILL_NODE_FAILURE, /* "node-failure": cordon + drain the nodes */
	DRILL_PARTITION,    /* "partition": the site-to-VPC path blocked by hand */
};

const char *drill_scenario_name(enum drill_scenario s);
/* 0 with *out set, -1 for an unknown name. */
int drill_scenario_parse(enum drill_scenario *out, const char *name);

/* The five terms of the recovery time, in this fixed order. */
enum drill_term {
	DRILL_TERM_NODE_MONITOR_GRACE, /* last heartbeat -> NotReady (absent in a drain) */
	DRILL_TERM_EVICTION,           /* NotReady or drain start -> pod deleted */
	DRILL_TERM_NODE_PROVISIONING,  /* replacement Pending -> fallback node Ready */
	DRILL_TERM_IMAGE_PULL,         /* scheduled -> containers started */
	DRILL_TERM_MODEL_LOAD,         /* started -> Ready */
	DRILL_TERM_COUNT
};

/* "nodeMonitorGrace", "eviction", "nodeProvisioning", "imagePull", "modelLoad" */
const char *drill_term_name(enum drill_term t);

/*
 * The budget of each term, from spec.recovery and spec.placement, the
 * same figures `gpusite explain` prints: nodeMonitorGrace is
 * recovery.nodeMonitorGracePeriod; eviction the longer of the not-ready
 * and unreachable tolerations (a partition: the unreachable one);
 * imagePull spec_image_pull_seconds().  In a drain (node-failure drill)
 * nodeMonitorGrace does not happen and its budget is 0 (applies false).
 */
struct drill_budget {
	bool set; /* spec.recovery is present */
	int64_t seconds[DRILL_TERM_COUNT];
	bool applies[DRILL_TERM_COUNT]; /* false: the term is absent in this scenario */
	int64_t total;                  /* sum of the terms that apply */
	int64_t target;                 /* recovery.targetRTO; 0 when none */
	bool image_pull_cached;         /* recovery.imagePullCached was used */
	int64_t real_failure_total;     /* every term, as explain adds them */
	int64_t grace;                  /* nodeMonitorGracePeriod, even in a drain */
};

void drill_budget_compute(struct drill_budget *out, const struct spec_site *s,
			  enum drill_scenario sc);

/* --- the drill record (drill run --record writes it, drill report --record reads it) --- */

enum drill_object {
	DRILL_OBJ_NODE,
	DRILL_OBJ_POD,
	DRILL_OBJ_NODECLAIM,
	DRILL_OBJ_EVENT,
	DRILL_OBJ_DRILL, /* the drill's own steps: local clock */
	DRILL_OBJ_COUNT
};

/* "Node", "Pod", "NodeClaim", "Event", "Drill" */
const char *drill_object_name(enum drill_object o);
int drill_object_parse(enum drill_object *out, const char *name);

enum drill_what {
	DRILL_CORDONED,
	DRILL_UNCORDONED,
	DRILL_EVICTED,
	DRILL_DELETED,
	DRILL_NOT_READY,
	DRILL_READY,
	DRILL_PENDING,
	DRILL_SCHEDULED,
	DRILL_PULLING,
	DRILL_PULLED,
	DRILL_STARTED,
	DRILL_CONTAINERS_READY,
	DRILL_LAUNCHED,
	DRILL_REGISTERED,
	DRILL_INITIALIZED,
	DRILL_DRAIN_START,
	DRILL_AVAILABLE,
	DRILL_RETURN_COMPLETE,
	DRILL_WHAT_COUNT
};

/* The record's spelling: "cordoned", ..., "NotReady", ..., "drain-start" */
const char *drill_what_name(enum drill_what w);
int drill_what_parse(enum drill_what *out, const char *name);

/*
 * One observed transition.  time is the cluster's timestamp (object
 * creationTimestamp / deletionTimestamp, condition lastTransitionTime,
 * taint timeAdded, event firstTimestamp or eventTime), except for Drill
 * entries (the local clock).  A Node NotReady may carry the node's last
 * heartbeat in its detail as "lastHeartbeat <RFC 3339>"; without it a
 * partition's nodeMonitorGrace is measured from the record's startedAt.
 */
struct drill_transition {
	int64_t time;
	enum drill_object object;
	const char *namespace; /* NULL for cluster-scoped objects and Drill */
	const char *name;
	enum drill_what what;
	const char *node;   /* NULL when not tied to a node */
	const char *detail; /* NULL or short text */
};

enum drill_outcome {
	DRILL_OUTCOME_AVAILABLE,
	DRILL_OUTCOME_TIMEOUT,
	DRILL_OUTCOME_INTERRUPTED,
	DRILL_OUTCOME_FAILED,
};

const char *drill_outcome_name(enum drill_outcome o);
int drill_outcome_parse(enum drill_outcome *out, const char *name);

/*
 * What the drill did to one node it took down: whether the node was
 * unschedulable before (cordoned by someone else: the drill sends no
 * cordon, and --restore leaves it cordoned) and whether the drill
 * cordoned it (its PATCH answered 200, or got no answer at all; only
 * these does --restore uncordon).
 */
struct drill_node_state {
	const char *name;
	bool unschedulable_before; /* spec.unschedulable when the drill began */
	bool cordoned;             /* the drill cordoned it */
};

/* The GPU Pods of a pool's own scope bound to a node, and those bound to
 * a node of the site's failover pool (the first named). */
struct drill_scope_check {
	const char *noun;          /* the scoped pool's: "burst" */
	const char *failover_noun; /* the failover pool's: "fallback" */
	size_t pods;
	size_t on_failover;
	const char *offender; /* "<ns>/<pod> on <node>" */
};

struct drill_record {
	const char *site;    /* metadata.name */
	const char *cluster; /* spec.cluster.name */
	enum drill_scenario scenario;
	const char **nodes; /* the nodes the drill took down, as it reached them */
	size_t node_count;
	struct drill_node_state *states; /* "nodeStates": one per node, drill run only */
	size_t state_count;
	size_t state_cap;
	int64_t started_at;
	int64_t ended_at;
	bool ended; /* false: "endedAt": null */
	enum drill_outcome outcome;
	struct drill_transition *transitions; /* sorted by time (stable) */
	size_t count;
	size_t cap;
	/* One per pool with a scope of its own (the burst pool), read from
	 * the cluster: whether that scope's work stayed off the failover
	 * pool's nodes.  None from a record. */
	struct drill_scope_check *scope_checks;
	size_t scope_check_count;
};

/* Append one node state (the name is copied into the arena). */
void drill_record_add_state(struct arena *a, struct drill_record *r, const char *name,
			    bool unschedulable_before, bool cordoned);
/* The state of node `name`, or NULL. */
const struct drill_node_state *drill_record_state(const struct drill_record *r, const char *name);

/* Append one transition (the strings are copied into the arena). */
void drill_record_add(struct arena *a, struct drill_record *r, int64_t time,
		      enum drill_object object, const char *namespace, const char *name,
		      enum drill_what what, const char *node, const char *detail);
/* Stable sort of the transitions by time. */
void drill_record_sort(struct drill_record *r);

/*
 * The record as JSON, one object, keys in the fixed order:
 *   {"apiVersion", "site", "cluster", "scenario", "nodes", "nodeStates":
 *    [{"name", "unschedulableBefore", "cordonedByDrill"}, ...],
 *    "startedAt", "endedAt", "outcome", "transitions": [{"time", "object",
 *    "namespace", "name", "what", "node", "detail"}, ...]}
 * Appends to out with a final newline.  Returns 0 or BUF_ETOOBIG.
 */
int drill_record_write(struct buf *out, const struct drill_record *r);

/*
 * Read a record from text[len] (file names where for the diagnostics).
 * "nodeStates" may be absent (records of older versions).  Returns 0, or
 * -1 with a diagnostic saying what is wrong and where.
 */
int drill_record_read(struct arena *a, struct diags *d, struct drill_record *out, const char *text,
		      size_t len, const char *file);

/*
 * Read the record file at path (at most DRILL_RECORD_MAX bytes) and
 * check it is a record of site `site` (NULL: any site).  Returns 0, or -1 after a GS236
 * diagnostic saying what is wrong.
 */
int drill_record_load(struct arena *a, struct diags *d, struct drill_record *out, const char *path,
		      const char *site);

/* --- which nodes a drill may take down, and the commands it prints --- */

/*
 * NULL when obj, the Node called name, is a node a drill of site s may
 * take down: a hybrid node (eks.amazonaws.com/compute-type: hybrid)
 * without a karpenter.sh/nodepool label, with the site's gpusite.io/site
 * label or named in one of its nodeGroups.  Else why not, a phrase for a
 * message ("node 'x' is a node of Karpenter NodePool 'p' ..."): a cloud
 * fallback node carries the site label too (the NodePool template sets
 * it), and is never drilled.
 */
const char *drill_node_refusal(struct arena *a, const struct spec_site *s, const struct node *obj,
			       const char *name);
/* drill_node_refusal() is NULL, without a message to make */
bool drill_node_drillable(const struct spec_site *s, const struct node *obj, const char *name);
/* The node is of nodeGroup `group`: its gpusite.io/node-group label, or
 * named in the group. */
bool drill_node_in_group(const struct spec_site *s, const struct node *obj, const char *name,
			 const char *group);
/* spec.unschedulable of a Node is true */
bool drill_node_unschedulable(const struct node *obj);

/*
 * `word` as one POSIX shell word: as it is when it holds only
 * [A-Za-z0-9_./:=@%+,-], else in single quotes.  `placeholder` instead
 * when it holds a control character (that never reaches a terminal).
 */
const char *drill_shell_word(struct arena *a, const char *word, const char *placeholder);

/*
 * The command that restores what a drill of `site` cordoned:
 *   gpusite drill run SITE<again> --restore --nodes A,B --record FILE --execute
 * `again` is what names the specs and the cluster (" sites --context
 * x", already shell words; "" when none), `record` the record file.
 * NULL when nodes is empty.
 */
const char *drill_restore_command(struct arena *a, const char *site, const char *again,
				  const char *const *nodes, size_t count, const char *record);

/* RFC 3339 UTC text with seconds ("2026-03-01T08:14:00Z") into out[size];
 * DRILL_TIME_BUFSZ suffices. */
#define DRILL_TIME_BUFSZ 24
void drill_time_format(char *out, size_t size, int64_t t);

struct kube_client;

/*
 * The timeline from the cluster: the site's hybrid nodes (those a drill
 * may take down: drill_node_drillable()) cordoned or NotReady (the
 * record's nodes), the fallback pool's
 * nodes turning Ready, the pods and Pulling/Pulled/Started events of the
 * placement namespaces, the pool's NodeClaims.  Transitions before
 * `since` are left out.  Returns 0, or -1 after the client appended why.
 */
int drill_timeline_from_cluster(struct arena *a, struct drill_record *out, struct kube_client *k,
				const struct spec_site *s, enum drill_scenario sc, int64_t since);

/* --- the plan (drill plan) --- */

/* The NodePool and node class names of the site's fallback pool
 * (src/inventory/), NULL when it has none. */
const char *drill_pool_name(struct arena *a, const struct spec_site *s);
const char *drill_class_name(struct arena *a, const struct spec_site *s);

/* The nodes the spec names for `group` (every group: NULL), in spec
 * order; *group_found is false when no group has that name. */
const char **drill_site_nodes(struct arena *a, const struct spec_site *s, const char *group,
			      size_t *count, bool *group_found);

/* --timeout when not given: 30 minutes, or for --restore the pool's
 * consolidateAfter plus 5 minutes. */
double drill_default_timeout(const struct spec_site *s, bool restore);

struct render_result;

struct drill_plan_input {
	const struct spec_site *site;
	struct kube_client *kube;
	enum drill_scenario scenario;
	const char *const *nodes; /* the nodes the drill takes down */
	size_t node_count;
	const char *const *cordoned; /* those unschedulable now (cordoned before the drill) */
	size_t cordoned_count;
	const struct node *rendered_pool; /* the fallback NodePool as rendered, or NULL */
	const struct node *rendered_rule; /* the site's PrometheusRule as rendered, or NULL */
	const char *rule_namespace;       /* the rendered PrometheusRule, or NULL */
	const char *rule_name;
	const char *again; /* the specs and the cluster, as shell words after SITE */
};

struct drill_plan {
	size_t moving_pods; /* GPU pods on the drilled nodes */
	int64_t moving_gpus;
	int64_t largest_pod_gpus;   /* the most GPUs one of them asks */
	size_t pending_pods;        /* GPU pods Pending now */
	size_t fallback_nodes;      /* nodes of the fallback pool now */
	const char **blocking_pdbs; /* "ns/name" */
	size_t blocking_count;
	size_t findings; /* diagnostics appended */
};

/*
 * Check the cluster for what the drill needs (GS230-GS238, one
 * diagnostic each, at the spec field concerned).  Returns 0, or -1 when
 * the cluster could not be read (the client appended why).
 */
int drill_plan_check(struct arena *a, struct diags *d, struct drill_plan *out,
		     const struct drill_plan_input *in);
/* The steps, the expected timeline, the availability and return conditions. */
int drill_plan_text(struct buf *out, const struct drill_plan_input *in,
		    const struct drill_plan *plan, const struct drill_budget *b);

/* --- the measured terms --- */

struct drill_term_result {
	enum drill_term term;
	int64_t budget;     /* seconds */
	bool applies;       /* false: absent in this scenario (measured 0) */
	bool known;         /* false: the data cannot show it */
	int64_t measured;   /* seconds, when known */
	int64_t from, to;   /* the transitions it was measured between */
	const char *reason; /* when !known: why (lower-case, no final period) */
};

struct drill_terms {
	enum drill_scenario scenario;
	struct drill_term_result terms[DRILL_TERM_COUNT];
	bool total_known;   /* every term that applies is known */
	int64_t total;      /* sum of the known terms */
	int64_t target;     /* 0: no targetRTO */
	bool within_target; /* total_known && target && total <= target */
};

/*
 * Measure the terms of one drill from its transitions against the
 * budget.  Never guesses: a term whose start or end is not in the data
 * is unknown with the reason.
 */
void drill_terms_compute(struct arena *a, struct drill_terms *out, const struct drill_budget *b,
			 const struct drill_record *r);

/* --- the report writers (drill report) --- */

/* Append s escaped for XML and HTML text and attributes (& < > " ' as
 * entities, control bytes as spaces): 0 or BUF_ETOOBIG. */
int drill_xml_escape(struct buf *out, const char *s);

/* Finding IDs of the drill (their rows: base/findings.c). */
#define DRILL_POOL "GS230"          /* fallback NodePool missing or not as rendered */
#define DRILL_CLASS "GS231"         /* its node class missing */
#define DRILL_DEVICE_PLUGIN "GS232" /* fallback nodes would get no device plugin */
#define DRILL_GPU_LIMIT "GS233"     /* gpuLimit below the GPUs of the pods that move */
#define DRILL_PDB "GS234"           /* a PodDisruptionBudget blocks the evictions */
#define DRILL_PROM_RULE "GS235"     /* the PrometheusRule is not installed */
#define DRILL_RECORD "GS236"        /* a drill record that cannot be read */
#define DRILL_NOT_IDLE "GS237"      /* pods Pending now, or the fallback already active */
#define DRILL_SINGLE_WRITER "GS238" /* partition: single-writer workload without fencing */
#define DRILL_OVER_TARGET "GS239"   /* the measured total is over targetRTO */

struct drill_report_input {
	const char *site;
	const char *cluster; /* or NULL */
	const struct drill_terms *terms;
	const char *source; /* "record FILE" or "cluster" */
	/* whether each scoped pool's work stayed off the failover pool; none
	 * when the site has no such pool or they were not read (a record) */
	const struct drill_scope_check *scope_checks;
	size_t scope_check_count;
};

/*
 * Text, Markdown and JSON:
 *   {"site", "scenario", "terms": [{"name", "budgetSeconds",
 *    "measuredSeconds"}], "totalSeconds", "targetSeconds", "withinTarget"}
 *   plus, per scope check, "<noun>Pods" and "<noun>On<Failover noun>"
 *   (counts: "burstPods", "burstOnFallback")
 * terms in the fixed order; an unknown measured is null with a "reason"
 * key; totalSeconds is null when a term that applies is unknown,
 * targetSeconds null without targetRTO, withinTarget null when either is.
 * Each returns 0 or BUF_ETOOBIG.
 */
int drill_report_text(struct buf *out, const struct drill_report_input *in);
int drill_report_markdown(struct buf *out, const struct drill_report_input *in);
int drill_report_json(struct buf *out, const struct drill_report_input *in);

/*
 * The SVG timeline chart: per term a budget bar and a measured bar, both
 * DRILL_SVG_SCALE-proportional (the root's data-px-per-second), with
 * id="budget-<term>" / id="measured-<term>" and data-seconds.
 */
int drill_report_svg(struct buf *out, const struct drill_report_input *in);

/* The site's fallback NodePool and PrometheusRule among the objects
 * rendered (in->rendered_pool, in->rendered_rule). */
void drill_plan_rendered(struct drill_plan_input *in, struct arena *a,
			 const struct render_result *r);

/* "site S recovered in X, over its targetRTO Y; ... [GS...]" when the
 * measured total is over the target, else NULL. */
const char *drill_over_target(struct arena *a, const struct spec_site *s,
			      const struct drill_terms *terms);

/* What drill_plan_nodes_check() found wrong. */
enum drill_node_check {
	DRILL_NODE_MISSING = -1, /* *bad is not in the cluster */
	DRILL_NODE_REFUSED = -2, /* *bad is no on-prem hybrid node of the site: *why */
	DRILL_NODE_EKUBE = -3,   /* the cluster could not be read (the client says why) */
};

/*
 * A misspelt node would make an empty drill look ready: each of
 * in->nodes must be in the cluster (in->kube) and an on-prem hybrid node
 * of in->site, never a cloud fallback node, which has the site label too.
 * The ones unschedulable now go to in->cordoned.  0, or a
 * drill_node_check.
 */
int drill_plan_nodes_check(struct drill_plan_input *in, struct arena *a, const char **bad,
			   const char **why);

/* The report in `format`: text, json or markdown.  0, or -1. */
int drill_report_write(struct buf *out, const struct drill_report_input *ri,
		       enum report_format format);

/* The SVG chart (drill_report_svg) written to the file at path: 0, or -1. */
int drill_report_svg_file(const char *path, const struct drill_report_input *ri);

#endif
