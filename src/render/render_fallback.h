/*
 * render_fallback.h - what the fallback NodePool (render_nodepool.c), the
 * fallback device plugin (render_fallback_plugin.c) and the EC2NodeClass
 * share: the labels the NodePool template puts on the fallback nodes, and
 * which sites need gpusite's device plugin on them.
 */
#ifndef GS_RENDER_FALLBACK_H
#define GS_RENDER_FALLBACK_H

#include <stdbool.h>
#include <stddef.h>

#include "k8s/k8s_controllers.h"
#include "render/render.h"

/* A Karpenter site with an enabled fallback on nodeImage al2023. */
bool render_fallback_needs_plugin(const struct spec_site *s);

/*
 * The Helm values of a cluster's fallback device plugin for the `count`
 * sites of that cluster: nodeSelector and required affinity on the
 * al2023 fallback label (not hybrid), tolerations for CriticalAddonsOnly
 * and the GPU taint of every site that needs the plugin, GFD off.
 */
struct node *render_fallback_plugin_values(struct arena *a, const struct spec_site *const *sites,
					   size_t count);

/* "al2023" / "bottlerocket", or NULL when unset. */
const char *render_node_image_name(enum spec_node_image img);

/* The fallback's EC2NodeClass sets instanceStorePolicy RAID0:
 * nodeClass.instanceStorePolicy, else every listed type has local NVMe. */
bool render_instance_store_raid0(const struct spec_fallback *fb);

/* The two reservation types, default and capacity-block. */
#define RENDER_RESERVATION_TYPES K8S_RESERVATION_TYPE_COUNT

/*
 * The reservation types the site's pool fb leaves out, into out; the
 * NodePool requires karpenter.k8s.aws/capacity-reservation-type NotIn
 * them, and 0 means no such requirement: fb without reserved capacity or
 * capacityReservationType, both types listed, EKS Auto Mode, or a declared
 * Karpenter before 1.6.
 */
size_t render_reservation_excluded(const struct spec_site *site, const struct spec_fallback *fb,
				   const char *out[RENDER_RESERVATION_TYPES]);

#endif
