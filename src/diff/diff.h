/*
 * diff.h - comparing rendered objects: between Git revisions and against
 * the live cluster.  Text diffs come from libgit2's diff of two buffers
 * (source_diff_buffers(), source/ being the only module that sees
 * libgit2; diff_unified.c).
 */
#ifndef GS_DIFF_H
#define GS_DIFF_H

#include <stdbool.h>
#include <stddef.h>

#include "node/node.h"

struct arena;
struct buf;

/*
 * Append a unified diff (3 lines of context) of a_text -> b_text to out,
 * with "--- a_label" / "+++ b_label" headers.  Nothing is appended when
 * the texts are equal.  Returns 1 when they differ, 0 when equal, -1 on
 * error (out of the buffer's cap, libgit2 failure).
 */
int diff_unified(struct buf *out, const char *a_text, size_t a_len, const char *a_label,
		 const char *b_text, size_t b_len, const char *b_label);

/*
 * Mask secrets in a rendered object, in place: the value of every
 * activationCode key becomes SECRET_REDACTED, and so does an
 * activationCode written inside a string (a NodeConfig embedded in a
 * ConfigMap, as YAML "activationCode: x" or JSON "activationCode":"x"),
 * by secret_redact_text() of base/secret.h (diff_redact.c).
 */
void diff_revisions_redact(struct arena *a, struct node *n);

/* ------------------------------------------------------------------
 * Objects: normalise, compare, print.  Node trees in, text out.
 */
/*
 * A copy of a Kubernetes object without what the server and sync tools
 * own (docs/design/commands.md): status, metadata.managedFields, resourceVersion, uid,
 * generation, creationTimestamp, selfLink, deletionGracePeriodSeconds,
 * the last-applied-configuration annotation and Argo CD tracking
 * metadata (annotations or labels left empty are dropped).
 */
struct node *diff_normalize(struct arena *a, const struct node *obj);

/*
 * The live object cut down to the fields `rendered` sets, so fields the
 * server defaulted are no difference: mapping keys in rendered's order,
 * sequences item by item, scalars that mean the same (16 and "16",
 * 100m and 0.1, an absent key and an empty value) taken in rendered's
 * spelling.  Both inputs should be normalised first.
 */
struct node *diff_live_subset(struct arena *a, const struct node *live,
			      const struct node *rendered);

/*
 * Mask Secret-like values in place, kubectl-style: the data and
 * stringData values of a Secret become "***", or "*** (before)" and
 * "*** (after)" when they differ.  Either side may be NULL.
 */
void diff_mask_secrets(struct arena *a, struct node *left, struct node *right);

/*
 * Append the unified diff of two objects written as YAML, with
 * "--- left_label" / "+++ right_label" headers.  A NULL side is an
 * object that is not there: the other is shown whole.  Returns 1 when
 * they differ, 0 when equal, -1 on error.
 */
int diff_objects(struct buf *out, const struct node *left, const struct node *right,
		 const char *left_label, const char *right_label);

/*
 * Where two trees differ, as JSON paths from the root
 * ("spec.limits[\"nvidia.com/gpu\"]"), at most `max` of them, in
 * right's key order.  Returns the count found (may exceed max).
 */
size_t diff_paths(struct arena *a, const struct node *left, const struct node *right,
		  const char **out, size_t max);

/* Kubernetes quantities equal ("16" == 16, "100m" == "0.1", "1Gi" ==
 * "1024Mi")? */
bool diff_quantity_equal(const char *a, const char *b);

#endif
