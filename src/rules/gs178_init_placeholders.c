/*
 * gs178_init_placeholders.c - GS178: a value `gpusite init` writes as a
 * placeholder is still there.  The starter validates (so that its
 * structure can be checked while it is edited), but it names no real
 * cluster, activation or IAM resource: the cluster name
 * your-eks-cluster (not my-hybrid-cluster, the name the examples give a
 * real cluster), an all-zero ID (activationId, or the UUID of a
 * Roles Anywhere trust anchor or profile) and the all-zero account
 * 000000000000 in an ARN.  One warning per placeholder, at its value.
 */
#include <string.h>

#include "base/arena.h"
#include "rules/rules_int.h"

#define INIT_CLUSTER "your-eks-cluster"
#define INIT_ACCOUNT "000000000000"

/* An all-zero UUID: every hex digit 0 but the version (4) and variant
 * (8) digits, as 00000000-0000-4000-8000-000000000000. */
static bool
zero_uuid(const char *v, size_t n)
{
	if (n != 36)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (v[i] != '-')
				return false;
		} else if (v[i] != '0' && i != 14 && i != 19) {
			return false;
		}
	}
	return true;
}

/* Why `arn` is a placeholder ("account 000000000000"), or NULL. */
static const char *
arn_placeholder(const char *arn)
{
	const char *p = arn, *slash;
	int colons = 0;

	/* arn:partition:service:region:ACCOUNT:resource */
	while (*p && colons < 4)
		if (*p++ == ':')
			colons++;
	if (colons == 4 && !strncmp(p, INIT_ACCOUNT ":", strlen(INIT_ACCOUNT) + 1))
		return "the all-zero account " INIT_ACCOUNT;
	slash = strrchr(arn, '/');
	if (slash && zero_uuid(slash + 1, strlen(slash + 1)))
		return "an all-zero ID";
	return NULL;
}

static void
check_arn(struct rule_ctx *c, const struct spec_site *s, const struct spec_node_group *g,
	  const char *key, const char *arn)
{
	const char *why = arn ? arn_placeholder(arn) : NULL;

	if (!why)
		return;
	rule_report(c, s, rule_pos(s, g->iamra.src, key),
		    arena_printf(c->arena, "%s.credentials.iamRolesAnywhere.%s",
				 rule_group_path(c, s, g), key),
		    "iamRolesAnywhere.%s of node group %s has %s, the placeholder gpusite"
		    " init writes: write the ARN of your own %s",
		    key, g->name, why,
		    !strcmp(key, "roleArn")      ? "Hybrid Nodes IAM role"
		    : !strcmp(key, "profileArn") ? "IAM Roles Anywhere profile"
						 : "IAM Roles Anywhere trust anchor");
}

static void
check_group(struct rule_ctx *c, const struct spec_site *s, const struct spec_node_group *g)
{
	const char *id = g->ssm.activation_id;

	if (g->credentials == CRED_SSM && id && zero_uuid(id, strlen(id)))
		rule_report(c, s, rule_pos(s, g->ssm.src, "activationId"),
			    arena_printf(c->arena, "%s.credentials.ssm.activationId",
					 rule_group_path(c, s, g)),
			    "ssm.activationId of node group %s is the all-zero placeholder"
			    " gpusite init writes: write the ID that aws ssm"
			    " create-activation returned for the group",
			    g->name);
	if (g->credentials != CRED_IAMRA)
		return;
	check_arn(c, s, g, "trustAnchorArn", g->iamra.trust_anchor_arn);
	check_arn(c, s, g, "profileArn", g->iamra.profile_arn);
	check_arn(c, s, g, "roleArn", g->iamra.role_arn);
}

static void
check_site(struct rule_ctx *c, const struct spec_site *s)
{
	if (s->cluster.name && !strcmp(s->cluster.name, INIT_CLUSTER))
		rule_report(c, s, rule_pos(s, s->cluster.src, "name"), "spec.cluster.name",
			    "cluster.name is " INIT_CLUSTER ", the placeholder gpusite init"
			    " writes: write the name of the EKS cluster the nodes join");
	for (size_t i = 0; i < s->group_count; i++)
		check_group(c, s, &s->groups[i]);
}

const struct rule rule_gs178 = {
	.id = "GS178",
	.check_site = check_site,
};
