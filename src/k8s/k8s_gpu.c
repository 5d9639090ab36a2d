/*
 * k8s_gpu.c - the GPU resource names and the GPU Pod predicate
 * (k8s_gpu.h).
 */
#include <string.h>

#include "k8s/k8s_gpu.h"

const struct k8s_gpu_resource k8s_gpu_resources[] = {
	{ K8S_GPU_RESOURCE, false },
	/* MIG devices with migStrategy mixed: nvidia.com/mig-1g.10gb, ... */
	{ "nvidia.com/mig-", true },
};
const size_t k8s_gpu_resource_count = sizeof(k8s_gpu_resources) / sizeof(k8s_gpu_resources[0]);

bool
k8s_gpu_resource_is_gpu(const char *r, const char *const *shared, size_t shared_count)
{
	if (!r)
		return false;
	for (size_t i = 0; i < k8s_gpu_resource_count; i++) {
		const struct k8s_gpu_resource *g = &k8s_gpu_resources[i];

		if (g->prefix ? !strncmp(r, g->name, strlen(g->name)) : !strcmp(r, g->name))
			return true;
	}
	for (size_t i = 0; i < shared_count; i++)
		if (shared[i] && !strcmp(r, shared[i]))
			return true;
	return false;
}

/* Whether a key of the mapping `list` (limits or requests) is a GPU. */
static bool
names_gpu(const struct node *list, const char *const *shared, size_t shared_count)
{
	if (!list || list->kind != NODE_MAP)
		return false;
	for (size_t i = 0; i < list->map.count; i++)
		if (k8s_gpu_resource_is_gpu(node_str(list->map.pairs[i].key), shared, shared_count))
			return true;
	return false;
}

/* Whether a container of the sequence `cs` asks for a GPU. */
static bool
containers_ask(const struct node *cs, const char *const *shared, size_t shared_count)
{
	for (size_t i = 0; cs && cs->kind == NODE_SEQ && i < cs->seq.count; i++) {
		const struct node *r = node_map_get(cs->seq.items[i], "resources");

		if (names_gpu(node_map_get(r, "limits"), shared, shared_count) ||
		    names_gpu(node_map_get(r, "requests"), shared, shared_count))
			return true;
	}
	return false;
}

bool
k8s_gpu_pod(const struct node *pod, const char *const *shared, size_t shared_count)
{
	const struct node *spec = node_map_get(pod, "spec");
	const struct node *claims = node_map_get(spec, "resourceClaims");

	/* spec.ephemeralContainers have no resources: nothing to look at */
	return containers_ask(node_map_get(spec, "containers"), shared, shared_count) ||
	       containers_ask(node_map_get(spec, "initContainers"), shared, shared_count) ||
	       (claims && claims->kind == NODE_SEQ && claims->seq.count > 0);
}
