/*
 * quota.h - what a site's fallback at its gpuLimit counts against the EC2
 * vCPU quotas of spec.cluster.quotas (quota.c): the rule GS196 and the
 * fleet page's what-if read it.
 */
#ifndef GS_QUOTA_H
#define GS_QUOTA_H

#include <stdint.h>

#include "rules/instance_types.h"
#include "spec/spec.h"

struct quota_need {
	int market;    /* enum spec_quota_market, or -1: no fallback, or reserved first */
	int group;     /* enum spec_quota_group, or -1: no listed type serves */
	int64_t vcpus; /* the least vCPUs of its nodes within the limit */
	const struct instance_type *type; /* the listed type that needs the fewest */
};

/* The need of s's fallback: the listed type that reaches gpuLimit with the
 * fewest vCPUs (a lower bound: Karpenter may pick a larger one), in the
 * market of the first capacityType. */
void quota_need(struct quota_need *out, const struct spec_site *s);

/* "onDemand" | "spot", "G" | "P" */
const char *quota_market_name(int market);
const char *quota_group_name(int group);

#endif
