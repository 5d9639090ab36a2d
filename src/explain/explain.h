/*
 * explain.h - the text `gpusite explain` prints for a site (explain.c).
 */
#ifndef GS_EXPLAIN_H
#define GS_EXPLAIN_H

#include <stdbool.h>
#include <stdio.h>

#include "base/diag.h"
#include "render/render.h"
#include "spec/spec.h"

struct arena;
struct inv_pool;

struct explain_input {
	int kube_minor;                       /* --kube-version, 0 when not given */
	const struct render_result *rendered; /* every object of the run */
	bool rendered_ok;                     /* false: render failed, see the findings */
	const struct render_options *render_options;
};

/* Write the explanation of `s` to `out`; findings of the placement
 * snippet go to `d`. */
void explain_site(FILE *out, struct arena *a, struct diags *d, const struct spec_site *s,
		  const struct explain_input *in);

/* `explain CLUSTER` (explain_cluster.c): every site of the cluster, its
 * capacity and the cluster's totals, where each namespace's GPU Pods go,
 * and whether every GPU pool is reachable from exactly one site's scope. */
void explain_cluster(FILE *out, struct arena *a, const struct spec_fleet *f, const char *cluster);

/* The site taint a pool's nodes carry (an exclusive pool: fallback.exclusive,
 * burst.exclusive), or NULL: the pool is shared. */
const struct spec_taint *explain_pool_site_taint(const struct inv_pool *p);

#endif
