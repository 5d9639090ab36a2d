/*
 * k8s_gpu.h - what makes a Pod a GPU Pod: the resource names under which
 * NVIDIA GPUs are requested, one list, and the one predicate over a Pod's
 * node tree that every placement engine is written from
 * (docs/design/upstream.md, "GPU resource names").
 *
 * A Pod asks for a GPU when any of its containers or init containers
 * (native sidecars are init containers with restartPolicy Always, and the
 * scheduler counts init containers' requests too) names one of these
 * resources under resources.limits or resources.requests:
 *   - nvidia.com/gpu, what the device plugin advertises by default;
 *   - nvidia.com/mig-<profile> (a prefix), the MIG devices of the mixed
 *     strategy, renamed shares of them included (<profile>.shared);
 *   - the site's shared names: the names its device-plugin sharing config
 *     renames GPUs to (`rename`, or <name>.shared with renameByDefault),
 *     passed in by the caller (the inventory computes them once);
 * or when it has resource claims (spec.resourceClaims, non-empty: DRA).
 * Ephemeral containers have no resources: they cannot request a GPU.
 */
#ifndef GS_K8S_GPU_H
#define GS_K8S_GPU_H

#include <stdbool.h>
#include <stddef.h>

#include "node/node.h"

/* The whole-GPU resource; also what a NodePool limits. */
#define K8S_GPU_RESOURCE "nvidia.com/gpu"
/* The prefix the device plugin adds to a name given without one. */
#define K8S_GPU_RESOURCE_PREFIX "nvidia.com/"
/* What renameByDefault appends to a shared resource's name. */
#define K8S_GPU_SHARED_SUFFIX ".shared"

/* One entry of the list: an exact name or a prefix. */
struct k8s_gpu_resource {
	const char *name;
	bool prefix; /* any resource name starting with `name` */
};

/* The list, and how many entries it has. */
extern const struct k8s_gpu_resource k8s_gpu_resources[];
extern const size_t k8s_gpu_resource_count;

/* Whether resource name `r` is a GPU: an entry of the list, or one of
 * the `shared_count` exact names of `shared`. */
bool k8s_gpu_resource_is_gpu(const char *r, const char *const *shared, size_t shared_count);

/* Whether `pod` (a Pod's node tree; a Pod template's works too, its
 * `spec` at the top level of `pod`) is a GPU Pod by the rules above. */
bool k8s_gpu_pod(const struct node *pod, const char *const *shared, size_t shared_count);

#endif
