/*
 * gs01x_credentials.c - how hybrid nodes authenticate and what they are
 * called:
 *   GS011 exactly one of credentials.ssm / credentials.iamRolesAnywhere;
 *   GS012 IAM Roles Anywhere needs node names, SSM needs a count, and
 *         count must agree with nodes;
 *   GS013 node names are Node names (lower-case DNS-1123 subdomain) and
 *         fit nodeadm's 64-character nodeName.
 */
#include <string.h>

#include "base/arena.h"
#include "rules/rule.h"

#define NODE_NAME_MAX 64	/* nodeadm: hybrid.iamRolesAnywhere.nodeName */

static const struct node *
credentials(const struct spec_node_group *g)
{
	const struct node *n = g->src && g->src->kind == NODE_MAP ?
		node_map_get(g->src, "credentials") : NULL;

	return n && n->kind == NODE_MAP ? n : NULL;
}

static void
check_gs011(struct rule_ctx *c, const struct spec_site *s)
{
	size_t i;

	for (i = 0; i < s->group_count; i++) {
		const struct spec_node_group *g = &s->groups[i];
		const char *path = arena_printf(c->arena, "%s.credentials",
						rule_group_path(c, s, g));

		if (g->credentials == CRED_BOTH)
			rule_report(c, s, rule_key_pos(s, credentials(g), "iamRolesAnywhere"),
				    path, "node group '%s' sets both credentials.ssm and "
				    "credentials.iamRolesAnywhere: a node registers "
				    "with exactly one, keep one of them", g->name);
		else if (g->credentials == CRED_NONE)
			rule_report(c, s, rule_pos(s, g->src, "credentials"), path,
				    "node group '%s' has no credentials: set exactly "
				    "one of credentials.ssm or "
				    "credentials.iamRolesAnywhere", g->name);
	}
}

static void
check_gs012(struct rule_ctx *c, const struct spec_site *s)
{
	size_t i;

	for (i = 0; i < s->group_count; i++) {
		const struct spec_node_group *g = &s->groups[i];
		const char *gp = rule_group_path(c, s, g);

		if (g->credentials == CRED_IAMRA && !g->node_count)
			rule_report(c, s, rule_key_pos(s, credentials(g), "iamRolesAnywhere"),
				    arena_printf(c->arena, "%s.nodes", gp),
				    "node group '%s' uses iamRolesAnywhere but lists no "
				    "nodes: each node joins under its own name (the "
				    "certificate's CN), list them in nodes", g->name);
		if (g->credentials == CRED_SSM && !g->count_set)
			rule_report(c, s, rule_key_pos(s, credentials(g), "ssm"),
				    arena_printf(c->arena, "%s.count", gp),
				    "node group '%s' uses ssm but has no count: SSM "
				    "names nodes at activation, so say how many "
				    "servers join with count", g->name);
		if (g->count_set && g->node_count) {
			const struct node *cn = node_map_get(g->src, "count");

			if (node_is_int(cn) && cn->scalar.i != (int64_t)g->node_count)
				rule_report(c, s, cn->at,
					    arena_printf(c->arena, "%s.count", gp),
					    "node group '%s' has count %lld but lists %zu "
					    "nodes: make them agree, or drop count",
					    g->name, (long long)cn->scalar.i,
					    g->node_count);
		}
	}
}

static void
check_gs013(struct rule_ctx *c, const struct spec_site *s)
{
	size_t i, k;

	for (i = 0; i < s->group_count; i++) {
		const struct spec_node_group *g = &s->groups[i];

		for (k = 0; k < g->node_count; k++) {
			const char *name = g->nodes[k];
			const char *why = NULL;

			if (strlen(name) > NODE_NAME_MAX)
				why = "it is longer than 64 characters (nodeadm's "
					"nodeName limit)";
			else if (!k8s_is_dns1123_subdomain(name))
				why = "use lower-case letters, digits, '-' and '.', "
					"starting and ending with a letter or digit";
			if (!why)
				continue;
			rule_report(c, s, g->node_srcs[k]->at,
				    arena_printf(c->arena, "%s.nodes[%zu]",
						 rule_group_path(c, s, g), k),
				    "node name '%s' is not a valid Node name: %s",
				    rule_quote(name), why);
		}
	}
}

const struct rule rule_gs011 = {
	.id = "GS011",
	.level = DIAG_ERROR,
	.summary = "ssm and iamRolesAnywhere both set, or neither",
	.check_site = check_gs011,
};

const struct rule rule_gs012 = {
	.id = "GS012",
	.level = DIAG_ERROR,
	.summary = "iamRolesAnywhere without nodes, or ssm without count; "
		"count and nodes disagree",
	.check_site = check_gs012,
};

const struct rule rule_gs013 = {
	.id = "GS013",
	.level = DIAG_ERROR,
	.summary = "node name not a valid Node name for IAM Roles Anywhere "
		"(lower-case DNS-1123 subdomain, at most 64 characters)",
	.check_site = check_gs013,
};
