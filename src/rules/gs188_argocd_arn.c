/*
 * gs188_argocd_arn.c - GS188: argocd.destinationServer given as an EKS
 * cluster ARN (arn:<partition>:eks:<region>:<account>:cluster/<name>, the
 * destination the EKS Capability for Argo CD takes) must name the site's
 * own cluster: its region is cluster.region and its name cluster.name.
 * An ARN of another cluster or region would deploy the GPU stack there.
 * The schema already refuses a malformed ARN (GS003); that sites of one
 * cluster give one destination is GS047's (argocd blocks must agree).
 */
#include <string.h>

#include "base/arena.h"
#include "rules/rules_int.h"

struct eks_arn {
	const char *region, *account, *name;
};

/* The `n`th ':'-separated field of s (0-based) as an arena string, or
 * NULL when s has fewer; `last` takes the rest of s. */
static const char *
field(struct arena *a, const char *s, int n, bool last)
{
	const char *end;

	for (; n > 0; n--) {
		s = strchr(s, ':');
		if (!s)
			return NULL;
		s++;
	}
	end = last ? s + strlen(s) : strchr(s, ':');
	return end ? arena_strndup(a, s, (size_t)(end - s)) : NULL;
}

/* Parse an EKS cluster ARN; false for anything else (a URL). */
static bool
parse_eks_arn(struct arena *a, const char *s, struct eks_arn *out)
{
	const char *service = field(a, s, 2, false), *res = field(a, s, 5, true);

	if (strncmp(s, "arn:aws", 7) || !service || strcmp(service, "eks") || !res ||
	    strncmp(res, "cluster/", 8))
		return false;
	out->region = field(a, s, 3, false);
	out->account = field(a, s, 4, false);
	out->name = res + 8;
	return out->region && out->account && *out->name;
}

static void
check_site(struct rule_ctx *c, const struct spec_site *s)
{
	const char *arn = s->argocd.destination_server;
	const char *region = s->cluster.region, *name = s->cluster.name;
	struct eks_arn e;
	bool other_region, other_name;

	/* a site without its cluster's name or region is the schema's finding */
	if (!s->argocd.destination_server_set || !arn || !region || !name ||
	    !parse_eks_arn(c->arena, arn, &e))
		return;
	other_region = strcmp(e.region, region) != 0;
	other_name = strcmp(e.name, name) != 0;
	if (!other_region && !other_name)
		return;
	rule_report(c, s, rule_pos(s, s->argocd.src, "destinationServer"),
		    "spec.argocd.destinationServer",
		    "argocd.destinationServer names EKS cluster '%s' in %s, but site %s is of"
		    " cluster '%s' in %s (%s): its GPU stack would be deployed to another"
		    " cluster; write arn:%.*s:eks:%s:%s:cluster/%s",
		    rule_quote(e.name), rule_quote(e.region), s->name, name, region,
		    other_region && other_name ? "cluster.name and cluster.region"
		    : other_name               ? "cluster.name"
					       : "cluster.region",
		    (int)(strchr(arn + 4, ':') - (arn + 4)), arn + 4, region, rule_quote(e.account),
		    name);
}

const struct rule rule_gs188 = {
	.id = "GS188",
	.check_site = check_site,
};
