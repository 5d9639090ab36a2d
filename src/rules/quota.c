/*
 * quota.c - the vCPUs a site's fallback at its gpuLimit needs at the least,
 * and which of spec.cluster.quotas counts them.
 */
#include <string.h>

#include "rules/quota.h"

void
quota_need(struct quota_need *out, const struct spec_site *s)
{
	const struct spec_fallback *fb = &s->fallback;

	memset(out, 0, sizeof(*out));
	out->market = -1;
	out->group = -1;
	if (!fb->enabled || fb->capacity_type == CAP_RESERVED)
		return;
	out->market = fb->capacity_type == CAP_SPOT ? QUOTA_SPOT : QUOTA_ON_DEMAND;
	out->type = instance_types_fewest_vcpus(&out->vcpus, fb->instance_types,
						fb->instance_type_count, fb->gpu_limit,
						fb->min_gpu_memory_mib);
	out->group = instance_type_quota_group(out->type);
	if (out->group < 0)
		out->vcpus = 0;
}

const char *
quota_market_name(int market)
{
	return market == QUOTA_SPOT ? "spot" : "onDemand";
}

const char *
quota_group_name(int group)
{
	return group == QUOTA_P ? "P" : "G";
}
