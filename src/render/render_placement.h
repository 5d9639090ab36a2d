/*
 * render_placement.h - pieces the three placement engines share, all
 * written from one struct render_placement_plan (render.h), so the
 * engines cannot drift apart.  Allocations are in the run's arena.
 */
#ifndef GS_RENDER_PLACEMENT_H
#define GS_RENDER_PLACEMENT_H

#include "render/render.h"

/*
 * The test "resource name X is a GPU" (k8s/k8s_gpu.h's list, then the
 * plan's shared names) in an engine's syntax, the tests joined by " || ":
 * an exact name as exact_pre, the name quoted by `quote`, exact_post; a
 * prefix as prefix_pre, the quoted prefix, prefix_post.
 */
struct render_gpu_syntax {
	const char *(*quote)(struct arena *a, const char *s);
	const char *exact_pre, *exact_post;
	const char *prefix_pre, *prefix_post;
};
const char *render_placement_gpu_test(struct arena *a, const struct render_placement_plan *plan,
				      const struct render_gpu_syntax *syn);

/* The expression of one requirement of step 3 (key, operator, values). */
struct node *render_placement_requirement(struct arena *a, const struct render_affinity *r);

/* The nodeAffinity value that requirement r adds to a Pod without one
 * (its preferred term or its one required term). */
struct node *render_placement_node_affinity(struct arena *a, const struct render_affinity *r);

/* {matchExpressions: [{key: kubernetes.io/metadata.name, operator: In,
 * values: namespaces}]}, or NULL when no namespace is listed. */
struct node *render_placement_namespace_selector(struct arena *a,
						 const struct render_placement_plan *plan);

/* [{apiGroups: [""], apiVersions: [v1], operations: [CREATE],
 * resources: [pods]}] */
struct node *render_placement_pod_rules(struct arena *a);

/*
 * CEL for MutatingPolicy and MutatingAdmissionPolicy: appends to `spec`
 * matchConditions, variables (only when step 1 has work) and mutations
 * (JSONPatch only: tolerations and node affinity are atomic lists, which
 * apply configurations may not touch).
 */
void render_placement_cel(struct arena *a, struct node *spec,
			  const struct render_placement_plan *plan);

/* When the site's placement.engine is `engine`: `one` for each of the
 * site's plans (render_placement_plans()).  Returns 0. */
int render_placement_each(struct render_ctx *ctx, const struct spec_site *site,
			  enum spec_engine engine,
			  void (*one)(struct render_ctx *ctx, const struct spec_site *site,
				      const struct render_placement_plan *plan));

/* The one-line purpose of a placement policy for `explain`. */
const char *render_placement_purpose(struct arena *a, const struct render_placement_plan *plan);

#endif
