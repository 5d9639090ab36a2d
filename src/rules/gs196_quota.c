/*
 * gs196_quota.c - spec.cluster.quotas:
 *   GS196 the fallback of the site alone, at its gpuLimit, needs more vCPUs
 *         of an instance family group than the cluster's EC2 quota allows:
 *         even the listed type that needs the fewest (quota_need) goes over,
 *         so EC2 refuses launches before the limit is reached, in the one
 *         hour it is needed.  (GS197 is kept for a quota rule across sites.)
 */
#include "base/arena.h"
#include "rules/quota.h"
#include "rules/rules_int.h"

static void
check_gs196(struct rule_ctx *c, const struct spec_site *s)
{
	const struct spec_quotas *q = &s->cluster.quotas;
	struct quota_need need;
	int64_t quota;

	if (!q->set)
		return;
	quota_need(&need, s);
	if (need.market < 0 || need.group < 0)
		return;
	quota = q->vcpus[need.market][need.group];
	if (quota < 0 || need.vcpus <= quota)
		return;
	rule_report(c, s, rule_pos(s, s->fallback.src, "gpuLimit"), "spec.fallback.gpuLimit",
		    "fallback.gpuLimit %lld needs at least %lld vCPUs of the %s instance families"
		    " (%lld x %s), above the %s quota of %lld in cluster.quotas: EC2 refuses"
		    " launches before the limit; raise the quota (Service Quotas) or lower"
		    " fallback.gpuLimit",
		    (long long)s->fallback.gpu_limit, (long long)need.vcpus,
		    need.group == QUOTA_P ? "P" : "G and VT",
		    (long long)(s->fallback.gpu_limit / need.type->nvidia_gpus), need.type->name,
		    quota_market_name(need.market), (long long)quota);
}

const struct rule rule_gs196 = {
	.id = "GS196",
	.check_site = check_gs196,
};
