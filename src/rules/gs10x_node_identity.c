/*
 * gs10x_node_identity.c - rules beyond site-spec.md's catalogue about
 * what a hybrid node registers with:
 *   GS101 two taints of a node group (the GPU taint included) share a key
 *         and effect: the API server refuses such a Node, so it never joins;
 *   GS102 a node group label that gpusite itself writes (node-type,
 *         gpu.model, gpusite.io/...): the fallback NodePool, the placement
 *         policy and drift checks rely on those values.
 */
#include <string.h>

#include "base/arena.h"
#include "rules/rule.h"

static bool
same_taint(const struct spec_taint *a, const struct spec_taint *b)
{
	return !strcmp(a->key, b->key) && !strcmp(a->effect, b->effect);
}

static void
check_gs101(struct rule_ctx *c, const struct spec_site *s)
{
	size_t i, j, k;

	for (i = 0; i < s->group_count; i++) {
		const struct spec_node_group *g = &s->groups[i];

		for (j = 0; j < g->taint_count; j++) {
			const struct spec_taint *t = &g->taints[j];
			const char *path = arena_printf(c->arena, "%s.taints[%zu]",
							rule_group_path(c, s, g), j);

			if (same_taint(t, &s->gpu_taint)) {
				rule_report(c, s, rule_pos(s, t->src, "key"), path,
					    "taint %s:%s repeats the GPU taint "
					    "(gpuTaint): a Node has one taint per "
					    "key and effect, remove it from taints",
					    t->key, t->effect);
				continue;
			}
			for (k = 0; k < j; k++) {
				if (!same_taint(t, &g->taints[k]))
					continue;
				rule_report(c, s, rule_pos(s, t->src, "key"), path,
					    "taint %s:%s is listed twice: a Node "
					    "has one taint per key and effect, "
					    "remove one (first at %s)", t->key,
					    t->effect, rule_pos_text(c,
					    rule_pos(s, g->taints[k].src, "key")));
				break;
			}
		}
	}
}

static bool
tool_label(const char *key)
{
	const char *slash = strchr(key, '/');
	size_t n, dl = strlen("gpusite.io");

	if (!strcmp(key, "node-type") || !strcmp(key, "gpu.model"))
		return true;
	if (!slash)
		return false;
	n = (size_t)(slash - key);
	return (n == dl && !memcmp(key, "gpusite.io", dl)) ||
		(n > dl && key[n - dl - 1] == '.' &&
		 !memcmp(key + n - dl, "gpusite.io", dl));
}

static void
check_gs102(struct rule_ctx *c, const struct spec_site *s)
{
	size_t i, j;

	for (i = 0; i < s->group_count; i++) {
		const struct spec_node_group *g = &s->groups[i];
		const struct node *labels = g->src ? node_map_get(g->src, "labels") : NULL;

		for (j = 0; j < g->label_count; j++) {
			const char *key = g->labels[j].key;

			if (!tool_label(key))
				continue;
			rule_report(c, s, rule_key_pos(s, labels, key),
				    node_path_join(c->arena, arena_printf(c->arena,
						   "%s.labels", rule_group_path(c, s, g)),
						   key),
				    "node label '%s' is written by gpusite (the "
				    "fallback pool, the placement policy and drift "
				    "checks rely on it): remove it from labels", key);
		}
	}
}

const struct rule rule_gs101 = {
	.id = "GS101",
	.level = DIAG_ERROR,
	.summary = "two taints of a node group (the GPU taint included) share a "
		"key and effect",
	.check_site = check_gs101,
};

const struct rule rule_gs102 = {
	.id = "GS102",
	.level = DIAG_ERROR,
	.summary = "a node group label that gpusite writes itself (node-type, "
		"gpu.model, gpusite.io/*)",
	.check_site = check_gs102,
};
