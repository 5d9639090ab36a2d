/*
 * gs189_launchable.c - GS189: a cloud pool lists a capacity type that no
 * offering of its instance types can satisfy.
 *
 * Karpenter launches a node of capacity type T for a pool only through an
 * offering of T of an instance type the pool's requirements admit
 * (docs/design/upstream.md, "Karpenter").  For each pool of the site's
 * inventory and each capacity type it lists, the types the rendered
 * NodePool admits are
 * those of instanceTypes (every known type when none is listed) with an
 * NVIDIA GPU, of the pool's architecture, with minGpuMemoryMiB, and
 * offered by EKS Auto Mode there; then:
 *   - on-demand and spot: every admitted type is taken as offered (the
 *     instance-type table says nothing of Spot or zonal availability);
 *   - reserved: offered only while Karpenter's ReservedCapacity feature
 *     gate is on, which a declared release from 1.3 to before 1.6 leaves
 *     off by default: no reservation is resolved, no type has a reserved
 *     offering.
 * Left to the other rules: a pool that admits no type at all (GS040,
 * GS042, GS044, GS179 name each type's reason), a release before 1.3
 * (GS186), reservations nothing selects (GS181), reservation types with
 * Auto Mode (GS183).
 */
#include <string.h>

#include "base/arena.h"
#include "inventory/inventory.h"
#include "k8s/k8s_controllers.h"
#include "rules/instance_types.h"
#include "rules/rules_int.h"

/* The first Karpenter release whose ReservedCapacity gate is on by
 * default (docs/design/upstream.md, "Karpenter"). */
static const struct k8s_release reserved_gate_default = { 1, 6, 0 };

/* Whether the rendered NodePool of pool block `f` admits type `t`: its
 * GPU manufacturer, architecture and GPU memory requirements, and Auto
 * Mode's offer. */
static bool
admits(const struct spec_site *s, const struct spec_fallback *f, const char *arch,
       const struct instance_type *t)
{
	if (!t || strcmp(t->gpu_manufacturer, "nvidia"))
		return false;
	if (arch && strcmp(t->arch, arch))
		return false;
	if (f->min_gpu_memory_mib > 0 && t->gpu_memory_mib < f->min_gpu_memory_mib)
		return false;
	return s->cluster.provisioner != PROV_AUTO_MODE || t->auto_mode;
}

/* The first type the pool admits, or NULL. */
static const struct instance_type *
first_admitted(const struct spec_site *s, const struct spec_fallback *f)
{
	const char *arch = instance_types_arch(f->instance_types, f->instance_type_count);
	size_t n = f->instance_type_count ? f->instance_type_count : instance_types_count;

	for (size_t i = 0; i < n; i++) {
		const struct instance_type *t = f->instance_type_count
							? instance_type_find(f->instance_types[i])
							: &instance_types[i];

		if (admits(s, f, arch, t))
			return t;
	}
	return NULL;
}

/* Why no admitted type has an offering of capacity type `ct` (*why) and
 * what to do (*fix); false when some has one. */
static bool
no_offering(struct rule_ctx *c, const struct spec_site *s, const struct inv_pool *pool,
	    const char *ct, const char **why, const char **fix)
{
	const struct spec_version *kv = &s->cluster.karpenter_version;
	char have[32], since[32];

	if (strcmp(ct, spec_capacity_name(CAP_RESERVED)) ||
	    s->cluster.provisioner != PROV_KARPENTER || !kv->set ||
	    !k8s_release_serves(kv->release, K8S_RESERVED_CAPACITY) ||
	    k8s_release_cmp(kv->release, reserved_gate_default) >= 0)
		return false;
	k8s_release_text(kv->release, have, sizeof(have));
	k8s_release_text(reserved_gate_default, since, sizeof(since));
	*why = arena_printf(c->arena,
			    "Karpenter %s (cluster.versions.karpenter) leaves its ReservedCapacity"
			    " feature gate off by default (on from %s), and with it off the node"
			    " class resolves no capacity reservation, so no instance type has a"
			    " reserved offering",
			    have, since);
	*fix = arena_printf(c->arena,
			    "upgrade Karpenter to %s or later and set cluster.versions.karpenter,"
			    " or remove reserved from %s.capacityType",
			    since, pool->spec_key);
	return true;
}

/* The capacityType entry that names `ct` (the scalar when it is one). */
static struct pos
entry_pos(const struct spec_site *s, const struct spec_fallback *f, const char *ct, size_t *index,
	  bool *in_seq)
{
	const struct node *v = f->src ? node_map_get(f->src, "capacityType") : NULL;

	*in_seq = false;
	if (v && v->kind == NODE_SEQ)
		for (size_t i = 0; i < v->seq.count; i++) {
			const char *text = node_text(v->seq.items[i]);

			if (text && !strcmp(text, ct)) {
				*index = i;
				*in_seq = true;
				return v->seq.items[i]->at;
			}
		}
	return rule_pos(s, f->src, "capacityType");
}

static void
gs189_pool(struct rule_ctx *c, const struct spec_site *s, const struct inv_pool *pool)
{
	const struct spec_fallback *f = pool->spec;
	const char *one = spec_capacity_name(f->capacity_type);
	const char *const *cts = f->capacity_type_count ? f->capacity_types : &one;
	size_t n = f->capacity_type_count ? f->capacity_type_count : 1;
	const struct instance_type *eg = first_admitted(s, f);

	if (!eg)
		return; /* no type at all: GS040, GS042, GS044, GS179 */
	for (size_t i = 0; i < n; i++) {
		const char *why, *fix;
		size_t at = 0;
		bool in_seq;
		struct pos pos;

		if (!no_offering(c, s, pool, cts[i], &why, &fix))
			continue;
		pos = entry_pos(s, f, cts[i], &at, &in_seq);
		rule_report(
			c, s, pos,
			in_seq ? arena_printf(c->arena, "%s.capacityType[%zu]", pool->spec_path, at)
			       : arena_printf(c->arena, "%s.capacityType", pool->spec_path),
			"%s.capacityType lists %s but no offering of %s%s can be %s: %s; the"
			" pool launches nothing as %s: %s",
			pool->spec_key, cts[i], eg->name,
			f->instance_type_count == 1 ? "" : " or any other type it admits", cts[i],
			why, cts[i], fix);
	}
}

static void
check_gs189(struct rule_ctx *c, const struct spec_site *s)
{
	const struct inventory *inv = inventory_site(c->arena, s);

	for (size_t i = 0; i < inv->pool_count; i++)
		gs189_pool(c, s, &inv->pools[i]);
}

const struct rule rule_gs189 = {
	.id = "GS189",
	.check_site = check_gs189,
};
