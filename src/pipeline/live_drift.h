/*
 * live_drift.h - what `gpusite drift` reads of the cluster: page by page
 * into the compact records of live/drift.h, which drift_check() then
 * judges.  GET and LIST only.
 */
#ifndef GS_PIPELINE_LIVE_DRIFT_H
#define GS_PIPELINE_LIVE_DRIFT_H

#include <stdio.h>

#include "live/drift.h"
#include "pipeline/live.h"
#include "source/source.h"
#include "spec/spec.h"

/*
 * Read the cluster of `r` into `out`: every Node; the pods of the GPU
 * stack's namespace (the first site's) and the GPU pods of each placement
 * namespace, each namespace once; and for each site with a fallback, its
 * NodePool, its EC2NodeClass / NodeClass and the pool's NodeClaims.
 * Records and trees go into r->arena.  Returns 0, or -1 when the cluster
 * could not be read (r->errors says why).
 */
int live_drift_read(struct drift_input *out, struct live_run *r);

/*
 * The placement plans of in->sites (render_placement_plans(): the
 * placement scope's and one per pool with a scope of its own), copied
 * into in->plans for GS247: what each policy adds to a Pod's node
 * affinity, from the plan the policies are written from, so drift asks
 * for exactly that.  live_drift_read() calls it; tests building a
 * drift_input by hand call it too.
 */
void live_drift_plans(struct drift_input *in, struct arena *a);

/*
 * The fleet of `r`'s sites only, and the spec files they come from (in
 * r->arena): what drift reports on, so other clusters' sites are no test
 * cases.
 */
void live_drift_fleet(struct spec_fleet *fleet, struct source_set *files, const struct live_run *r);

/* The text format's closing line: the counts of `findings`, and what was
 * checked (sites, nodes, pods). */
void live_drift_summary(FILE *out, const struct live_run *run, const struct drift_input *in,
			const struct diags *findings);

#endif
