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

#include "k8s/k8s_arn.h"
#include "rules/rules_int.h"

static void
check_site(struct rule_ctx *c, const struct spec_site *s)
{
	const char *arn = s->argocd.destination_server;
	const char *region = s->cluster.region, *name = s->cluster.name;
	struct k8s_eks_arn e;
	bool other_region, other_name;

	/* a site without its cluster's name or region is the schema's finding */
	if (!s->argocd.destination_server_set || !arn || !region || !name ||
	    k8s_eks_arn_parse(c->arena, arn, &e) < 0)
		return;
	other_region = strcmp(e.region, region) != 0;
	other_name = strcmp(e.name, name) != 0;
	if (!other_region && !other_name)
		return;
	rule_report(c, s, rule_pos(s, s->argocd.src, "destinationServer"),
		    "spec.argocd.destinationServer",
		    "argocd.destinationServer names EKS cluster '%s' in %s, but site %s is of"
		    " cluster '%s' in %s (%s): its GPU stack would be deployed to another"
		    " cluster; write arn:%s:eks:%s:%s:cluster/%s",
		    rule_quote(e.name), rule_quote(e.region), s->name, name, region,
		    other_region && other_name ? "cluster.name and cluster.region"
		    : other_name               ? "cluster.name"
					       : "cluster.region",
		    e.partition, region, rule_quote(e.account), name);
}

const struct rule rule_gs188 = {
	.id = "GS188",
	.check_site = check_site,
};
