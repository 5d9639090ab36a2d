/*
 * drill_run.h - `gpusite drill run`: the dry run (the exact API calls),
 * or with execute the drill itself: SelfSubjectAccessReview before the
 * first write, cordon, policy/v1 evictions that honour
 * PodDisruptionBudgets, a bounded poll until every GPU pod that moved is
 * Ready again, the drill record; and the restore (uncordon, wait for the
 * return condition).
 */
#ifndef GS_DRILL_RUN_H
#define GS_DRILL_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/diag.h"
#include "drill/drill.h"

struct arena;
struct kube_client;
struct spec_site;

/* Diagnostic IDs of drill run (their rows: base/findings.c). */
#define DRILL_RUN_NODES "GS220"       /* no such node of the site, none chosen */
#define DRILL_RUN_RIGHTS "GS221"      /* a right the drill needs is missing */
#define DRILL_RUN_PDB "GS222"         /* an eviction stays blocked by a PDB */
#define DRILL_RUN_WRITE "GS223"       /* the API server refused a write */
#define DRILL_RUN_TIMEOUT "GS224"     /* the condition did not hold in time */
#define DRILL_RUN_TARGET "GS225"      /* recovered, but over targetRTO */
#define DRILL_RUN_INTERRUPTED "GS226" /* stopped by a signal */
#define DRILL_RUN_RECORD "GS227"      /* the record could not be written */

#define DRILL_RUN_EVICT_TRIES 6 /* one eviction: first try + 5 retries */

struct drill_run_opts {
	const struct spec_site *site;
	struct kube_client *kube;
	bool execute; /* false: print the calls only */
	bool restore; /* uncordon and wait for the return */
	/* --restore: the drill's record; its nodeStates say which nodes the
	 * drill cordoned, the only ones the restore uncordons */
	const struct drill_record *drilled;
	const char *const *nodes; /* --nodes, or NULL */
	size_t node_count;
	const char *group; /* --group, or NULL */
	double timeout;    /* seconds to wait for the condition */
	double interval;   /* poll period, first retry wait */
	/* --record FILE: with execute, written before the first write and
	 * again after each cordon, so it always names what is cordoned */
	const char *record;
	/* what names the specs and the cluster after SITE, as shell words
	 * (" sites --context x"; "" when nothing): the restore command the
	 * run prints repeats it */
	const char *again;
	FILE *out;                   /* the dry run's calls, the progress */
	FILE *err;                   /* notes: a node left as it is, and why */
	volatile sig_atomic_t *stop; /* set by SIGINT / SIGTERM */
};

/* What came of it (the record says the same in its outcome). */
struct drill_run_result {
	enum drill_outcome outcome;
	bool wrote;         /* any write was sent */
	bool target_missed; /* available, over recovery.targetRTO */
	bool denied;        /* stopped before any write: RBAC */
	bool recorded;      /* the record was written once: write it again at the end */
	size_t nodes;       /* the nodes the run cordons, or uncordons */
};

/*
 * Run the drill (or print it).  The record is filled as it goes (nodes,
 * times, transitions, outcome) also when the run fails half-way, so the
 * caller can always write it.  Returns 0 when the run went to its end
 * (result->outcome says how: available or timeout), -1 after a
 * diagnostic when it had to stop (failed, interrupted, denied).
 */
int drill_run(struct arena *a, struct diags *d, struct drill_record *rec,
	      struct drill_run_result *result, const struct drill_run_opts *o);

/*
 * The command that uncordons what the drill of rec cordoned (its
 * nodeStates), with the options of o: see drill_restore_command().
 * NULL when the drill cordoned nothing.
 */
const char *drill_run_restore_hint(struct arena *a, const struct drill_run_opts *o,
				   const struct drill_record *rec);

/* Write the record to path atomically (a temporary beside it, then
 * rename).  0, or -1 after a GS227 diagnostic. */
int drill_run_write_record(struct diags *d, const struct drill_record *rec, const char *path);

/*
 * --restore: the drill's record at `record`, of this site and of its
 * cluster.  0, or -1 after a diagnostic (GS236) in `errors`.
 */
int drill_run_read_drilled(struct drill_record *out, struct arena *a, struct diags *errors,
			   const char *record, const struct spec_site *site);

/*
 * A drill that went to its end: recovered within targetRTO (said on
 * dro->err unless `quiet`), too late (a diagnostic in `errors`,
 * res->target_missed set) or not at all.  0 when it recovered in time,
 * else -1.
 */
int drill_run_verdict(struct drill_run_result *res, struct arena *a, struct diags *errors,
		      const struct drill_run_opts *dro, const struct drill_record *rec, bool quiet);

#endif
