/*
 * gs01x_credentials.c - how hybrid nodes authenticate and what they are
 * called:
 *   GS011 exactly one of credentials.ssm / credentials.iamRolesAnywhere;
 *   GS012 IAM Roles Anywhere needs node names, SSM needs a count, and
 *         count must agree with nodes;
 *   GS013 node names are Node names (lower-case DNS-1123 subdomain) and
 *         fit nodeadm's 64-character nodeName;
 *   GS103 activationCodeEnv names a variable whose name says it holds an
 *         SSM activation code, and never one of the tool's own or a
 *         well-known credential variable (render reads it into a file);
 *   GS104 at most RULES_MAX_NODES_PER_GROUP nodes in a group and
 *         RULES_MAX_NODES_PER_SITE in a site (rules.h says why).
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "base/arena.h"
#include "rules/rules_int.h"

#define NODE_NAME_MAX 64 /* nodeadm: hybrid.iamRolesAnywhere.nodeName */

static const struct node *
credentials(const struct spec_node_group *g)
{
	const struct node *n =
		g->src && g->src->kind == NODE_MAP ? node_map_get(g->src, "credentials") : NULL;

	return n && n->kind == NODE_MAP ? n : NULL;
}

static void
check_gs011(struct rule_ctx *c, const struct spec_site *s)
{
	size_t i;

	for (i = 0; i < s->group_count; i++) {
		const struct spec_node_group *g = &s->groups[i];
		const char *path =
			arena_printf(c->arena, "%s.credentials", rule_group_path(c, s, g));

		if (g->credentials == CRED_BOTH)
			rule_report(c, s, rule_key_pos(s, credentials(g), "iamRolesAnywhere"), path,
				    "node group '%s' sets both credentials.ssm and "
				    "credentials.iamRolesAnywhere: a node registers "
				    "with exactly one, keep one of them",
				    g->name);
		else if (g->credentials == CRED_NONE)
			rule_report(c, s, rule_pos(s, g->src, "credentials"), path,
				    "node group '%s' has no credentials: set exactly "
				    "one of credentials.ssm or "
				    "credentials.iamRolesAnywhere",
				    g->name);
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
				    "certificate's CN), list them in nodes",
				    g->name);
		if (g->credentials == CRED_SSM && !g->count_set)
			rule_report(c, s, rule_key_pos(s, credentials(g), "ssm"),
				    arena_printf(c->arena, "%s.count", gp),
				    "node group '%s' uses ssm but has no count: SSM "
				    "names nodes at activation, so say how many "
				    "servers join with count",
				    g->name);
		if (g->count_set && g->node_count) {
			const struct node *cn = node_map_get(g->src, "count");

			if (node_is_int(cn) && cn->scalar.i != (int64_t)g->node_count)
				rule_report(c, s, cn->at, arena_printf(c->arena, "%s.count", gp),
					    "node group '%s' has count %lld but lists %zu "
					    "nodes: make them agree, or drop count",
					    g->name, (long long)cn->scalar.i, g->node_count);
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
				    "node name '%s' is not a valid Node name: %s", rule_quote(name),
				    why);
		}
	}
}

/* Case-insensitive strstr for ASCII names. */
static bool
has_word(const char *s, const char *word)
{
	size_t n = strlen(word);

	for (; *s; s++)
		if (!strncasecmp(s, word, n))
			return true;
	return false;
}

/*
 * Prefixes of variables that hold credentials or configuration of other
 * tools: the AWS SDKs and CLI, gpusite itself, Git and the Git hosts' CI,
 * Argo CD's plugin environment, kubectl.
 */
static const struct {
	const char *prefix;
	const char *why;
} denied[] = {
	{ "AWS_", "names starting with AWS_ are the AWS SDKs' and CLI's own "
		  "variables (credentials among them)" },
	{ "GPUSITE_", "names starting with GPUSITE_ are gpusite's own variables "
		      "(its Git token among them)" },
	{ "GIT_", "names starting with GIT_ are Git's own variables" },
	{ "GITHUB_", "names starting with GITHUB_ are GitHub's and its CI's "
		     "variables (tokens among them)" },
	{ "GITLAB_", "names starting with GITLAB_ are GitLab's and its CI's "
		     "variables (tokens among them)" },
	{ "ARGOCD_", "names starting with ARGOCD_ are Argo CD's plugin "
		     "environment" },
	{ "KUBE", "names starting with KUBE are kubectl's and the plugin's "
		  "variables (KUBECONFIG, KUBE_VERSION)" },
};

const char *
rules_activation_env_problem(const char *name)
{
	if (!name || !*name)
		return "the name is empty";
	for (size_t i = 0; i < sizeof(denied) / sizeof(denied[0]); i++)
		if (!strncasecmp(name, denied[i].prefix, strlen(denied[i].prefix)))
			return denied[i].why;
	if (!has_word(name, "SSM") || !has_word(name, "ACTIVATION"))
		return "the name does not say it holds one (it must contain both "
		       "SSM and ACTIVATION)";
	return NULL;
}

/* SSM_ACTIVATION_CODE_RACK_B for group rack-b */
static const char *
suggested_env(struct rule_ctx *c, const char *group)
{
	char *s = arena_printf(c->arena, "SSM_ACTIVATION_CODE_%s", group);

	for (char *p = s; *p; p++)
		*p = isalnum((unsigned char)*p) ? (char)toupper((unsigned char)*p) : '_';
	return s;
}

static void
check_gs103(struct rule_ctx *c, const struct spec_site *s)
{
	for (size_t i = 0; i < s->group_count; i++) {
		const struct spec_node_group *g = &s->groups[i];
		const char *env = g->ssm.activation_code_env, *why;

		if (g->credentials != CRED_SSM || !env)
			continue;
		/* a secret written as the name is GS010's finding */
		if (rules_secret_in_field(env, "activationCodeEnv") ||
		    !(why = rules_activation_env_problem(env)))
			continue;
		rule_report(c, s, spec_field_pos(g->ssm.src, "activationCodeEnv"),
			    arena_printf(c->arena, "%s.credentials.ssm.activationCodeEnv",
					 rule_group_path(c, s, g)),
			    "node group '%s': activationCodeEnv %s cannot name the "
			    "variable of an SSM activation code: %s; render "
			    "--nodeconfigs writes its value into a file, so use a "
			    "variable of its own such as %s",
			    g->name, env, why, suggested_env(c, g->name));
	}
}

/* Nodes of a group: its names, or its count when it has none. */
static size_t
group_nodes(const struct spec_node_group *g)
{
	if (g->node_count)
		return g->node_count;
	return g->count_set && g->count > 0 ? (size_t)g->count : 0;
}

static void
check_gs104(struct rule_ctx *c, const struct spec_site *s)
{
	size_t total = 0, over = 0;

	for (size_t i = 0; i < s->group_count; i++) {
		const struct spec_node_group *g = &s->groups[i];
		size_t n = group_nodes(g);
		const char *key = g->node_count ? "nodes" : "count";

		total += n;
		if (n <= RULES_MAX_NODES_PER_GROUP)
			continue;
		over++;
		rule_report(c, s, rule_key_pos(s, g->src, key),
			    arena_printf(c->arena, "%s.%s", rule_group_path(c, s, g), key),
			    "node group '%s' has %zu nodes, over the limit of %d per "
			    "group: split the servers into node groups of at most %d "
			    "(one per rack or GPU model)",
			    g->name, n, RULES_MAX_NODES_PER_GROUP, RULES_MAX_NODES_PER_GROUP);
	}
	/* a group over its limit says enough */
	if (!over && total > RULES_MAX_NODES_PER_SITE) {
		const struct node *spec =
			s->doc && s->doc->kind == NODE_MAP ? node_map_get(s->doc, "spec") : NULL;

		rule_report(c, s, rule_key_pos(s, spec, "nodeGroups"), "spec.nodeGroups",
			    "site '%s' has %zu nodes, over the limit of %d per site "
			    "(the node count Kubernetes is tested to for a whole "
			    "cluster): split the location into several sites",
			    s->name, total, RULES_MAX_NODES_PER_SITE);
	}
}

const struct rule rule_gs011 = {
	.id = "GS011",
	.check_site = check_gs011,
};

const struct rule rule_gs012 = {
	.id = "GS012",
	.check_site = check_gs012,
};

const struct rule rule_gs013 = {
	.id = "GS013",
	.check_site = check_gs013,
};

const struct rule rule_gs103 = {
	.id = "GS103",
	.check_site = check_gs103,
};

const struct rule rule_gs104 = {
	.id = "GS104",
	.check_site = check_gs104,
};
