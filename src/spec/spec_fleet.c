/*
 * spec_fleet.c - the set of sites of one run, positions of fields, and
 * the names of the model's enums as the spec writes them.
 */
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "spec/spec.h"

/*
 * The array spec_fleet_add() grew last, with room to spare: the next add
 * to the same fleet appends in place, so loading n sites costs O(n), not
 * the O(n^2) time and arena memory of a copy per site (400 MB at 10,000
 * sites).  struct spec_fleet has no capacity field, so the spare room is
 * used only when the fleet is exactly the one left by the last call (same
 * arena, array and count); any other fleet - built by hand, or a copy -
 * gets a fresh array, as before.
 */
static struct {
	const struct arena *arena;
	struct spec_site **sites;
	size_t count;
	size_t cap;
} fleet_last;

void
spec_fleet_add(struct arena *a, struct spec_fleet *f, struct spec_site *s)
{
	struct spec_site **grown;
	size_t cap;

	if (!f || !s)
		return;
	if (f->sites && f->sites == fleet_last.sites && a == fleet_last.arena &&
	    f->count == fleet_last.count && f->count < fleet_last.cap) {
		f->sites[f->count++] = s;
		fleet_last.count = f->count;
		return;
	}
	cap = f->count < 8 ? 16 : 2 * f->count;
	grown = arena_alloc(a, cap * sizeof(*grown));
	if (f->count)
		memcpy(grown, f->sites, f->count * sizeof(*grown));
	grown[f->count++] = s;
	f->sites = grown;
	fleet_last.arena = a;
	fleet_last.sites = grown;
	fleet_last.count = f->count;
	fleet_last.cap = cap;
}

static int
str_cmp_null(const char *a, const char *b)
{
	if (!a || !b)
		return (a != NULL) - (b != NULL);
	return strcmp(a, b);
}

static int
site_cmp(const void *pa, const void *pb)
{
	const struct spec_site *a = *(const struct spec_site *const *)pa;
	const struct spec_site *b = *(const struct spec_site *const *)pb;
	unsigned la = a->doc ? a->doc->at.line : 0, lb = b->doc ? b->doc->at.line : 0;
	unsigned ca = a->doc ? a->doc->at.col : 0, cb = b->doc ? b->doc->at.col : 0;
	int c;

	if ((c = str_cmp_null(a->name, b->name)))
		return c;
	if ((c = str_cmp_null(a->file, b->file)))
		return c;
	if (la != lb)
		return la < lb ? -1 : 1;
	if (ca != cb)
		return ca < cb ? -1 : 1;
	return 0;
}

void
spec_fleet_sort(struct spec_fleet *f)
{
	if (f && f->count > 1)
		qsort(f->sites, f->count, sizeof(*f->sites), site_cmp);
}

struct spec_site *
spec_fleet_find(const struct spec_fleet *f, const char *name)
{
	size_t i;

	if (!f || !name)
		return NULL;
	for (i = 0; i < f->count; i++)
		if (f->sites[i]->name && !strcmp(f->sites[i]->name, name))
			return f->sites[i];
	return NULL;
}

struct pos
spec_field_pos(const struct node *map, const char *key)
{
	struct pos none = POS_NONE;
	const struct node *v;

	if (!map)
		return none;
	if (map->kind == NODE_MAP && key) {
		v = node_map_get(map, key);
		if (v)
			return v->at;
	}
	return map->at;
}

int64_t
spec_site_onprem_gpus(const struct spec_site *s)
{
	int64_t total = 0;
	size_t i;

	for (i = 0; s && i < s->group_count; i++)
		total += (int64_t)s->groups[i].gpus_per_node * s->groups[i].count;
	return total;
}

const char *
spec_engine_name(enum spec_engine e)
{
	switch (e) {
	case ENGINE_KYVERNO: return "kyverno";
	case ENGINE_KYVERNO_CLUSTERPOLICY: return "kyverno-clusterpolicy";
	case ENGINE_MAP: return "mutating-admission-policy";
	case ENGINE_NONE: return "none";
	}
	return "?";
}

const char *
spec_stack_type_name(enum spec_stack_type t)
{
	switch (t) {
	case STACK_DEVICE_PLUGIN: return "device-plugin";
	case STACK_GPU_OPERATOR: return "gpu-operator";
	}
	return "?";
}

const char *
spec_provisioner_name(enum spec_provisioner p)
{
	switch (p) {
	case PROV_KARPENTER: return "karpenter";
	case PROV_AUTO_MODE: return "auto-mode";
	}
	return "?";
}

const char *
spec_capacity_name(enum spec_capacity c)
{
	switch (c) {
	case CAP_ON_DEMAND: return "on-demand";
	case CAP_SPOT: return "spot";
	case CAP_RESERVED: return "reserved";
	}
	return "?";
}

const char *
spec_placement_mode_name(enum spec_placement_mode m)
{
	switch (m) {
	case PLACE_PREFER_ONPREM: return "prefer-onprem";
	case PLACE_REQUIRE_ONPREM: return "require-onprem";
	}
	return "?";
}

const char *
spec_fencing_name(enum spec_fencing f)
{
	switch (f) {
	case FENCE_NONE: return "none";
	case FENCE_LEASE: return "lease";
	case FENCE_STATEFULSET: return "statefulset";
	}
	return "?";
}

const char *
spec_site_binding_name(enum spec_site_binding b)
{
	switch (b) {
	case BIND_REQUIRED: return "required";
	case BIND_PREFERRED: return "preferred";
	case BIND_NONE: return "none";
	}
	return "?";
}

bool
spec_fleet_has_cluster(const struct spec_fleet *f, const char *name)
{
	for (size_t i = 0; i < f->count; i++)
		if (!strcmp(f->sites[i]->cluster.name, name))
			return true;
	return false;
}
