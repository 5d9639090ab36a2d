/*
 * fleetpage.h - the fleet page's numbers, computed once from the loaded
 * fleet (fleetpage_model.c) and written as HTML or Markdown
 * (fleetpage_html.c, fleetpage_md.c) or as `explain --format json`
 * (fleetpage_json.c): per cluster its sites, on-prem GPUs by model, the
 * fallback and normal-time pool limits (the burst pool shown, never counted as
 * failover capacity), GPU stack, placement engine, provisioner and
 * Kubernetes version; per site the RTO budget term by term (and the terms
 * a drill measured); per cluster every set of up to K sites failing
 * together with the GPUs lost, what their pools may launch, the shortfall
 * and the cost per hour of the fallback at its limit.
 *
 * Everything lives in the caller's arena.  Costs come from the on-demand
 * list prices built into the binary (rules/instance_types.h).
 */
#ifndef GS_FLEETPAGE_H
#define GS_FLEETPAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/diag.h"
#include "drill/drill.h"
#include "inventory/inventory.h"
#include "spec/spec.h"

struct arena;

#define FLEETPAGE_FAIL_DEFAULT 2
#define FLEETPAGE_FAIL_MAX 4 /* --fail K above this is a usage error */
/* Most failure sets the page lists in all; past it the what-if says it
 * stopped (a fleet of 100 clusters of 10 sites at K 2 has 5,500; one cluster
 * of 50 sites at K 4 would have 251,175). */
#define FLEETPAGE_MAX_SETS 20000
#define FLEETPAGE_MAX_RECORDS 64 /* --drill-record FILE... */

/* --fail K: 0 with *out set, -1 unless K is a whole number from 1 to
 * FLEETPAGE_FAIL_MAX (the number of sets grows as sites^K). */
int fleetpage_parse_fail(int *out, const char *value);

/* Why a cost is not known (FP_COST_KNOWN: it is). */
enum fp_cost {
	FP_COST_KNOWN,
	FP_COST_NO_FALLBACK,    /* fallback.enabled false: nothing launches */
	FP_COST_CAPACITY,       /* spot or reserved first: no list price */
	FP_COST_NO_TYPES,       /* fallback.instanceTypes empty: any type */
	FP_COST_NO_PRICED_TYPE, /* no listed type serves with a known price */
};

#define FLEETPAGE_LIVE_MAX 20 /* drift findings the page lists per site */

/* What `drift --format json` said of a site (--drift-json FILE). */
struct fp_live {
	size_t errors, warnings, notes;
	bool fallback_active;      /* GS213 */
	const char *fallback_note; /* its message */
	const char **findings;     /* "severity GSnnn: message", the first FLEETPAGE_LIVE_MAX */
	size_t count;
};

/* One fallback instance type as the page shows it. */
struct fp_type {
	const char *name;
	bool serves;            /* a known type with whole NVIDIA GPUs */
	int gpus;               /* nvidia.com/gpu per node */
	int vcpus;              /* per node */
	int quota_group;        /* enum spec_quota_group, or -1 */
	double usd_per_hour;    /* 0: not known */
	int64_t nodes_at_limit; /* nodes to reach gpuLimit */
};

/* A pool of normal-time capacity of a site (the burst pool). */
struct fp_pool {
	const char *noun;     /* its kind's noun: "burst" */
	const char *name;     /* its NodePool */
	int64_t limit;        /* its gpuLimit */
	const char *capacity; /* its capacityType(s): "spot", "spot, on-demand" */
	const struct spec_fallback *spec;
};

/* The normal-time pools of one kind across a cluster's sites. */
struct fp_pool_sum {
	const char *noun;
	size_t sites;  /* sites with one */
	int64_t limit; /* the sum of their gpuLimit */
	/* their capacity type, "varies by site" when they differ, NULL without one */
	const char *capacity;
};

struct fp_site {
	const struct spec_site *spec;
	size_t cluster; /* index in fleetpage.clusters */
	int64_t onprem_gpus;
	struct drill_budget budget; /* the drill's budget of a node failure */
	/* the terms of a real failure, as explain adds them (they sum to
	 * budget.real_failure_total): the node monitor grace applies */
	int64_t terms[DRILL_TERM_COUNT];
	bool fallback;      /* fallback.enabled */
	int64_t gpu_limit;  /* 0 without a fallback */
	int64_t launchable; /* GPUs its pools may launch: the limit when a
				     * listed type (or any, when none listed) serves */
	struct fp_type *types;
	size_t type_count;
	enum fp_cost cost_state;
	double cost_per_hour;  /* at the limit, the cheapest type that fits */
	const char *cost_type; /* that type */
	/* the least vCPUs the fallback at its limit counts against a quota:
	 * quota_vcpus of group quota_group (-1: none) in market quota_market
	 * (-1: no fallback, or reserved capacity, not judged) */
	int64_t quota_vcpus;
	int quota_group;
	int quota_market;
	bool quota_over;    /* above the cluster's quota on its own (GS196) */
	bool cost_estimate; /* priced outside the price list's region */
	bool cost_ceiling;  /* spot or reserved first: on-demand's price is the most */
	/* its pools of normal-time capacity (the burst pool: Spot for the
	 * burst scope), never counted as failover capacity */
	struct fp_pool *pools;
	size_t pool_count;
	const struct drill_terms *drill; /* the last drill given, or NULL */
	const char *drill_file;
	int64_t drill_started; /* its startedAt */
	struct fp_live live;
};

struct fp_model_gpus {
	const char *model;
	int64_t gpus;
};

struct fp_cluster {
	const char *name;
	const char *region;
	const char *provisioner;
	const char *kubernetes; /* "1.35", or "1.36 (assumed)" */
	const char *stack;      /* gpu-operator | device-plugin */
	const char *chart;
	const char *chart_version;
	const char *engine;
	bool mixed;    /* the sites disagree on one of the above (GS047 finds it) */
	size_t *sites; /* indices in fleetpage.sites, by name */
	size_t site_count;
	struct fp_model_gpus *models; /* sorted by model */
	size_t model_count;
	int64_t onprem_gpus;
	int64_t fallback_limit; /* the sum of the sites' gpuLimit */
	/* one per kind of normal-time pool (the burst pool's), in kind order */
	struct fp_pool_sum pools[INV_POOL_MAX];
	size_t pool_count;
	/* the first of its sites' cluster.quotas, or NULL */
	const struct spec_quotas *quotas;
};

/* One set of sites of a cluster failing together. */
struct fp_whatif {
	size_t cluster;
	size_t sites[FLEETPAGE_FAIL_MAX]; /* indices in fleetpage.sites */
	size_t count;
	int64_t lost;         /* their on-prem GPUs */
	int64_t launchable;   /* what their pools may launch */
	int64_t shortfall;    /* lost - launchable, at least 0 */
	double cost_per_hour; /* of the sets' priced fallbacks */
	bool cost_known;      /* a site of the set has a known price */
	bool cost_partial;    /* a site of the set has no known price */
	bool cost_estimate;
	bool cost_ceiling; /* a site's cost is on-demand's, the most it may be */
	/* the least vCPUs the set's fallbacks at their limits need, per market
	 * and group, and whether one is over the cluster's quota */
	int64_t quota_vcpus[QUOTA_MARKETS][QUOTA_GROUPS];
	bool quota_over;
};

struct fleetpage {
	struct fp_site *sites; /* in fleet order (by name) */
	size_t site_count;
	struct fp_cluster *clusters; /* by name */
	size_t cluster_count;
	struct fp_whatif *whatifs; /* per cluster, by size, then site order */
	size_t whatif_count;
	bool whatif_truncated; /* FLEETPAGE_MAX_SETS was reached */
	size_t pool_sites;     /* sites with a normal-time pool, in all */
	int fail;              /* K */
	size_t drills;         /* sites with a drill */
	bool live;             /* --drift-json was read */
	const char *live_file;
	struct fp_live live_fleet; /* findings of no site's file */
	const char *price_region, *price_date, *price_source;
	/* what made the page (fleetpage_stamp), NULL until stamped: the
	 * gpusite version, the specs' label, their commit (NULL unless read
	 * from Git) and the time, "2026-07-06T12:00:00Z" */
	const char *made_version, *made_from, *made_commit, *made_at;
};

struct fleetpage_options {
	int fail;                         /* K, 1..FLEETPAGE_FAIL_MAX */
	const char *const *drill_records; /* --drill-record FILE... */
	size_t drill_record_count;
	const char *only; /* a site or cluster name, or NULL */
};

/*
 * Compute the page of `fleet`.  A drill record that cannot be read, or of
 * a site the fleet lacks, is a GS236 diagnostic in `d` and -1.
 */
int fleetpage_build(struct fleetpage *out, struct arena *a, struct diags *d,
		    const struct spec_fleet *fleet, const struct fleetpage_options *o);

/* Read `gpusite drift --format json` output at path into the sites' live
 * state: 0, or -1 with *why saying what is wrong (lower-case). */
int fleetpage_read_drift(struct fleetpage *fp, struct arena *a, const char *path, const char **why);

/* --fail K: 0 with *out set, -1 unless K is a whole number from 1 to
 * FLEETPAGE_FAIL_MAX (the number of sets grows as sites^K). */
int fleetpage_parse_fail(int *out, const char *value);

/*
 * Stamp the page with what made it: this gpusite's version, `from` (the
 * specs' label: a path, repository@revision, "index"), `commit` (their
 * commit id when they were read from Git, else NULL) and the time,
 * SOURCE_DATE_EPOCH when set (so the page is reproducible), else now.
 * 0, or -1 with *why set when SOURCE_DATE_EPOCH is malformed.
 */
int fleetpage_stamp(struct fleetpage *fp, struct arena *a, const char *from, const char *commit,
		    const char **why);

/* Why a cost is not known, lower-case ("price not known: capacityType spot") */
const char *fleetpage_cost_reason(const struct fp_site *s);

/* The writers: 0, or BUF_ETOOBIG. */
int fleetpage_html(struct buf *out, struct arena *a, const struct fleetpage *fp);
int fleetpage_markdown(struct buf *out, struct arena *a, const struct fleetpage *fp);
/* explain --format json: the same numbers as one JSON document. */
int fleetpage_json(struct buf *out, struct arena *a, const struct fleetpage *fp);

#endif
