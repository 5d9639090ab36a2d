/*
 * gs10x_node_identity.c - rules beyond the first catalogue (docs/rules.md) about
 * what a hybrid node registers with:
 *   GS101 two taints of a node group (the GPU taint included) share a key
 *         and effect: the API server refuses such a Node, so it never joins;
 *   GS102 a node group label that gpusite itself writes (node-type,
 *         gpu.model, gpusite.io/...): the fallback NodePool, the placement
 *         policy and drift checks rely on those values;
 *   GS108 a node group label in the karpenter.sh, karpenter.k8s.aws or
 *         eks.amazonaws.com domains: Karpenter and EKS write those on the
 *         nodes they manage, and the placement, drift and double-plugin
 *         checks tell hybrid nodes from cloud nodes by them.
 */
#include <string.h>

#include "inventory/inventory.h"
#include "base/arena.h"
#include "rules/rules_int.h"

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
					    "remove one (first at %s)",
					    t->key, t->effect,
					    rule_pos_text(c, rule_pos(s, g->taints[k].src, "key")));
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

	if (!strcmp(key, INV_NODE_TYPE_LABEL) || !strcmp(key, INV_GPU_MODEL_LABEL))
		return true;
	if (!slash)
		return false;
	n = (size_t)(slash - key);
	return (n == dl && !memcmp(key, "gpusite.io", dl)) ||
	       (n > dl && key[n - dl - 1] == '.' && !memcmp(key + n - dl, "gpusite.io", dl));
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
				    node_path_join(c->arena,
						   arena_printf(c->arena, "%s.labels",
								rule_group_path(c, s, g)),
						   key),
				    "node label '%s' is written by gpusite (the "
				    "fallback pool, the placement policy and drift "
				    "checks rely on it): remove it from labels",
				    key);
		}
	}
}

static const char *const reserved_domains[] = {
	"karpenter.sh",
	"karpenter.k8s.aws",
	"eks.amazonaws.com",
};

/* The reserved domain `key`'s prefix is, or is a subdomain of; else NULL. */
static const char *
reserved_domain(const char *key)
{
	const char *slash = strchr(key, '/');
	size_t n = slash ? (size_t)(slash - key) : 0;

	for (size_t i = 0; slash && i < sizeof(reserved_domains) / sizeof(reserved_domains[0]);
	     i++) {
		const char *d = reserved_domains[i];
		size_t dl = strlen(d);

		if ((n == dl && !memcmp(key, d, dl)) ||
		    (n > dl && key[n - dl - 1] == '.' && !memcmp(key + n - dl, d, dl)))
			return d;
	}
	return NULL;
}

static void
check_gs108(struct rule_ctx *c, const struct spec_site *s)
{
	for (size_t i = 0; i < s->group_count; i++) {
		const struct spec_node_group *g = &s->groups[i];
		const struct node *labels = g->src ? node_map_get(g->src, "labels") : NULL;

		for (size_t j = 0; j < g->label_count; j++) {
			const char *key = g->labels[j].key, *d = reserved_domain(key);

			/* nodeadm's own label is GS021's finding */
			if (!d || !strcmp(key, "eks.amazonaws.com/compute-type"))
				continue;
			rule_report(c, s, rule_key_pos(s, labels, key),
				    node_path_join(c->arena,
						   arena_printf(c->arena, "%s.labels",
								rule_group_path(c, s, g)),
						   key),
				    "node label '%s' is in the %s domain, which "
				    "Karpenter and EKS write on the cloud nodes they "
				    "manage: on a hybrid node it makes the node look "
				    "like one of theirs to selectors, the placement "
				    "policy and drift checks; use a domain of your own "
				    "(example.com/...)",
				    key, d);
		}
	}
}

const struct rule rule_gs101 = {
	.id = "GS101",
	.check_site = check_gs101,
};

const struct rule rule_gs102 = {
	.id = "GS102",
	.check_site = check_gs102,
};

const struct rule rule_gs108 = {
	.id = "GS108",
	.check_site = check_gs108,
};
