/*
 * gs182_image_volume.c - room for the inference images on the fallback
 * nodes (fallback.nodeClass):
 *   GS182 the volume that holds the images is below IMAGE_VOLUME_FLOOR_GIB:
 *         imageVolume.size, or, with neither imageVolume nor a RAID0 of
 *         local NVMe, the 20 GiB Karpenter gives by default.  Inference
 *         images are tens of GB; a full disk fails the pull at the hour
 *         of the failover.
 */
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "rules/instance_types.h"
#include "rules/rules_int.h"

#define IMAGE_VOLUME_FLOOR_GIB 100
#define KARPENTER_DEFAULT_VOLUME_GIB 20

/* "200Gi", "1Ti", "150G", "1T" (the schema's pattern) in whole GiB,
 * rounded down; -1 for anything else. */
static int64_t
size_gib(const char *s)
{
	char *end;
	long long n;

	if (!s)
		return -1;
	n = strtoll(s, &end, 10);
	if (n <= 0 || n > 1000000000LL)
		return -1;
	if (!strcmp(end, "Gi"))
		return n;
	if (!strcmp(end, "Ti"))
		return n * 1024;
	if (!strcmp(end, "G"))
		return n * 1000000000LL / (1LL << 30);
	if (!strcmp(end, "T"))
		return n * 1000000000000LL / (1LL << 30);
	return -1;
}

static void
check_gs182(struct rule_ctx *c, const struct spec_site *s)
{
	const struct spec_fallback *fb = &s->fallback;
	const struct spec_node_class *nc = &fb->node_class;
	int64_t gib;

	if (!fb->enabled || !nc->set || s->cluster.provisioner != PROV_KARPENTER)
		return;
	if (nc->image_volume.set) {
		gib = size_gib(nc->image_volume.size);
		if (gib < 0 || gib >= IMAGE_VOLUME_FLOOR_GIB)
			return;
		rule_report(c, s, rule_pos(s, nc->image_volume.src, "size"),
			    "spec.fallback.nodeClass.imageVolume.size",
			    "fallback.nodeClass.imageVolume.size is %s (%lld GiB), below %d GiB:"
			    " inference images are tens of GB and a full volume fails the"
			    " image pull during the failover; give it at least %dGi",
			    nc->image_volume.size, (long long)gib, IMAGE_VOLUME_FLOOR_GIB,
			    IMAGE_VOLUME_FLOOR_GIB);
		return;
	}
	if (instance_types_raid0(nc->instance_store_policy, fb->instance_types,
				 fb->instance_type_count) ||
	    nc->image_cache_snapshot)
		return;
	rule_report(c, s, rule_pos(s, nc->src, NULL), "spec.fallback.nodeClass",
		    "fallback.nodeClass has no imageVolume and no RAID0 of local NVMe"
		    " (instanceStorePolicy), so the fallback nodes get Karpenter's default %d GiB"
		    " volume for the images: set imageVolume: {size: 200Gi} (at least %dGi)",
		    KARPENTER_DEFAULT_VOLUME_GIB, IMAGE_VOLUME_FLOOR_GIB);
}

const struct rule rule_gs182 = {
	.id = "GS182",
	.check_site = check_gs182,
};
