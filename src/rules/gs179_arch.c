/*
 * gs179_arch.c - the architecture of the fallback (and burst) nodes:
 *   GS179 a pool's instanceTypes of more than one architecture: the
 *         NodePool could launch either, and the images run on one;
 *   GS180 a pool's architecture (the fallback's, the burst pool's) is
 *         not that of a node group (nodeGroups[].arch, default amd64):
 *         the workloads move between them, so their images must be
 *         multi-arch.
 * The architecture of each type comes from Karpenter's instance-type
 * table (instance_types.c); the NodePool carries kubernetes.io/arch.
 */
#include <string.h>

#include "base/arena.h"
#include "rules/instance_types.h"
#include "rules/rules_int.h"

static struct pos
type_pos(const struct spec_site *s, const struct spec_fallback *f, size_t i)
{
	const struct node *n = f->instance_type_srcs ? f->instance_type_srcs[i] : NULL;

	return n ? n->at : rule_pos(s, f->src, "instanceTypes");
}

/* GS179 for one pool block; a burst pool on the fallback's types is the
 * fallback's finding. */
static void
gs179_pool(struct rule_ctx *c, const struct spec_site *s, const struct rule_pool *p)
{
	const struct spec_fallback *f = p->f;
	const struct instance_type *first = NULL;

	if (!f->enabled || (f != &s->fallback && f->instance_types == s->fallback.instance_types))
		return;
	for (size_t i = 0; i < f->instance_type_count; i++) {
		const struct instance_type *t = instance_type_find(f->instance_types[i]);

		if (!t)
			continue;
		if (!first) {
			first = t;
			continue;
		}
		if (!strcmp(t->arch, first->arch))
			continue;
		rule_report(c, s, type_pos(s, f, i),
			    arena_printf(c->arena, "%s.instanceTypes[%zu]", p->path, i),
			    "%s instance type %s is %s but %s is %s: the NodePool"
			    " would launch either, and an image runs on the architecture it"
			    " was built for; list instance types of one architecture",
			    p->block, t->name, t->arch, first->name, first->arch);
	}
}

static void
check_gs179(struct rule_ctx *c, const struct spec_site *s)
{
	rule_each_pool(c, s, gs179_pool);
}

const struct rule rule_gs179 = {
	.id = "GS179",
	.check_site = check_gs179,
};

/* GS180 for one pool block, the first node group of another architecture;
 * a pool of its own scope's work (the burst pool) on the fallback's types
 * is the fallback's finding. */
static void
gs180_pool(struct rule_ctx *c, const struct spec_site *s, const struct rule_pool *p)
{
	const struct spec_fallback *f = p->f;
	bool own = p->pool && p->pool->scope;
	const char *arch;

	if (!f->enabled || (own && f->instance_types == s->fallback.instance_types))
		return;
	arch = instance_types_arch(f->instance_types, f->instance_type_count);
	if (!arch)
		return; /* none known, or mixed (GS179) */
	for (size_t g = 0; g < s->group_count; g++) {
		const struct spec_node_group *grp = &s->groups[g];
		struct pos at = rule_pos(s, grp->src, "arch");
		const char *path = arena_printf(c->arena, "spec.nodeGroups[%zu].arch", g);

		if (!strcmp(grp->arch, arch))
			continue;
		if (own)
			rule_report(c, s, at, path,
				    "node group %s is %s but the %s instance types are %s: the"
				    " %s work runs on the node group first and on the %s pool"
				    " when it is full, so its images must be multi-arch (both %s"
				    " and %s); else list %s instance types in %s.instanceTypes",
				    grp->name, grp->arch, p->block, arch, p->block, p->block,
				    grp->arch, arch, grp->arch, p->block);
		else
			rule_report(c, s, at, path,
				    "node group %s is %s but the fallback instance types are %s:"
				    " the workloads move from one to the other in a failover, so"
				    " their images must be multi-arch (both %s and %s); else list"
				    " %s fallback instance types",
				    grp->name, grp->arch, arch, grp->arch, arch, grp->arch);
		return;
	}
}

static void
check_gs180(struct rule_ctx *c, const struct spec_site *s)
{
	rule_each_pool(c, s, gs180_pool);
}

const struct rule rule_gs180 = {
	.id = "GS180",
	.check_site = check_gs180,
};
