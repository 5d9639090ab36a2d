/*
 * gs04x_fallback.c - the cloud NodePools of one site (the fallback, and
 * the burst pool by the same rules: rule_pools()), checked against the
 * instance-type table (instance_types.c):
 *   GS040 every type exists and has whole NVIDIA GPUs;
 *   GS041 gpuLimit fits at least one node of the smallest type;
 *   GS042 every type meets minGpuMemoryMiB;
 *   GS043 without a minimum, the pool's GPUs are not smaller than on-prem;
 *   GS044 Auto Mode offers the types and caps node lifetime at 21 days;
 *   GS045 the fallback's gpuLimit covers at least half of the on-prem GPUs;
 *   GS105 every zone is an AWS zone name of the site's region.
 */
#include <ctype.h>
#include <string.h>

#include "base/arena.h"
#include "rules/instance_types.h"
#include "rules/rules_int.h"

#define AUTO_MODE_MAX_LIFETIME (504 * 3600) /* 21 days */

/* Whether the pool lists no types of its own but the fallback's (the
 * burst pool's default): what holds for the types alone is reported at
 * the fallback only. */
static bool
types_inherited(const struct spec_site *s, const struct rule_pool *p)
{
	return p->f != &s->fallback && p->f->instance_types == s->fallback.instance_types;
}

static const char *
item_path(struct rule_ctx *c, const struct rule_pool *p, size_t i)
{
	return arena_printf(c->arena, "%s.instanceTypes[%zu]", p->path, i);
}

static struct pos
item_pos(const struct spec_site *s, const struct rule_pool *p, size_t i)
{
	const struct node *n = p->f->instance_type_srcs ? p->f->instance_type_srcs[i] : NULL;

	return n ? n->at : rule_pos(s, p->f->src, "instanceTypes");
}

/* The largest GPU memory of the site's on-prem models (MiB; 0 when none
 * is known) and the first model with it. */
static int64_t
onprem_gpu_memory(const struct spec_site *s, const char **model)
{
	int64_t need = 0;

	for (size_t i = 0; i < s->group_count; i++) {
		int64_t m = gpu_model_memory_mib(s->groups[i].gpu_model);

		if (m > need) {
			need = m;
			if (model)
				*model = s->groups[i].gpu_model;
		}
	}
	return need;
}

struct fit {
	const struct spec_site *s;
	const struct spec_fallback *f;
};

/*
 * Whether type `t` may stand in the pool's instanceTypes without a
 * finding of GS040-GS044: whole NVIDIA GPUs, the GPU memory
 * minGpuMemoryMiB asks (else that of the on-prem GPUs), a gpuLimit that
 * fits one node of it, offered by Auto Mode there.  What a hint names.
 */
static bool
type_fits_site(const struct instance_type *t, const void *payload)
{
	const struct fit *fit = payload;
	const struct spec_fallback *f = fit->f;
	int64_t need =
		f->min_gpu_memory_mib > 0 ? f->min_gpu_memory_mib : onprem_gpu_memory(fit->s, NULL);

	if (!instance_type_whole_nvidia(t) || t->gpu_memory_mib < need)
		return false;
	if (f->gpu_limit_set && f->gpu_limit < t->nvidia_gpus)
		return false;
	return fit->s->cluster.provisioner != PROV_AUTO_MODE || t->auto_mode;
}

/* A type to name as an example for the pool: g6e.12xlarge when it fits,
 * else the one of the lowest known price (then name) that fits; NULL
 * when none does. */
static const struct instance_type *
example_type(const struct fit *fit)
{
	const struct instance_type *best = instance_type_find("g6e.12xlarge");

	if (best && type_fits_site(best, fit))
		return best;
	best = NULL;
	for (size_t i = 0; i < instance_types_count; i++) {
		const struct instance_type *t = &instance_types[i];

		if (!type_fits_site(t, fit) || t->usd_per_hour <= 0)
			continue;
		if (!best || t->usd_per_hour < best->usd_per_hour ||
		    (t->usd_per_hour == best->usd_per_hour && strcmp(t->name, best->name) < 0))
			best = t;
	}
	return best;
}

static void
report_unknown_type(struct rule_ctx *c, const struct spec_site *s, const struct rule_pool *p,
		    size_t i)
{
	const struct fit fit = { s, p->f };
	const char *name = p->f->instance_types[i];
	const char *hint = instance_type_suggest_if(name, type_fits_site, &fit);
	const struct instance_type *eg = hint ? NULL : example_type(&fit);

	if (hint)
		rule_report(c, s, item_pos(s, p, i), item_path(c, p, i),
			    "%s.instanceTypes names '%s', which "
			    "is not a known GPU instance type: did you "
			    "mean %s?",
			    p->block, rule_quote(name), hint);
	else if (eg)
		rule_report(c, s, item_pos(s, p, i), item_path(c, p, i),
			    "%s.instanceTypes names '%s', which is not a known GPU"
			    " instance type: use an NVIDIA GPU type with the GPU memory"
			    " and GPU count the site takes, such as %s (%d x %s, %lld MiB"
			    " each)",
			    p->block, rule_quote(name), eg->name, eg->nvidia_gpus, eg->gpu_name,
			    (long long)eg->gpu_memory_mib);
	else
		rule_report(c, s, item_pos(s, p, i), item_path(c, p, i),
			    "%s.instanceTypes names '%s', which is not a known GPU"
			    " instance type, and no known NVIDIA type meets the site's"
			    " minGpuMemoryMiB, gpuLimit and provisioner together: relax"
			    " one of them and use an NVIDIA GPU type",
			    p->block, rule_quote(name));
}

static void
gs040_pool(struct rule_ctx *c, const struct spec_site *s, const struct rule_pool *p)
{
	for (size_t i = 0; !types_inherited(s, p) && i < p->f->instance_type_count; i++) {
		const char *name = p->f->instance_types[i];
		const struct instance_type *t = instance_type_find(name);

		if (!t) {
			report_unknown_type(c, s, p, i);
		} else if (strcmp(t->gpu_manufacturer, "nvidia")) {
			rule_report(c, s, item_pos(s, p, i), item_path(c, p, i),
				    "%s.instanceTypes names %s, whose GPUs "
				    "(%s) are not NVIDIA: the %s serves the "
				    "NVIDIA GPU workloads of the site, pick an NVIDIA "
				    "type",
				    p->block, name, t->gpu_name,
				    p->pool && p->pool->scope
					    ? arena_printf(c->arena, "%s pool", p->block)
					    : p->block);
		} else if (!instance_type_whole_nvidia(t)) {
			rule_report(c, s, item_pos(s, p, i), item_path(c, p, i),
				    "%s.instanceTypes names %s, which has a "
				    "fractional GPU and no nvidia.com/gpu resource: "
				    "pick a type with whole GPUs",
				    p->block, name);
		}
	}
}

static void
check_gs040(struct rule_ctx *c, const struct spec_site *s)
{
	rule_each_pool(c, s, gs040_pool);
}

static void
gs041_pool(struct rule_ctx *c, const struct spec_site *s, const struct rule_pool *p)
{
	const struct instance_type *small = NULL;

	if (!p->f->enabled || !p->f->gpu_limit_set)
		return;
	for (size_t i = 0; i < p->f->instance_type_count; i++) {
		const struct instance_type *t = instance_type_find(p->f->instance_types[i]);

		if (instance_type_whole_nvidia(t) &&
		    (!small || t->nvidia_gpus < small->nvidia_gpus))
			small = t;
	}
	if (!small || p->f->gpu_limit >= small->nvidia_gpus)
		return;
	rule_report(c, s, rule_pos(s, p->f->src, "gpuLimit"),
		    arena_printf(c->arena, "%s.gpuLimit", p->path),
		    "%s.gpuLimit %lld is below the %d GPUs of %s, the "
		    "smallest listed instance type: the pool can never launch a "
		    "node",
		    p->block, (long long)p->f->gpu_limit, small->nvidia_gpus, small->name);
}

static void
check_gs041(struct rule_ctx *c, const struct spec_site *s)
{
	rule_each_pool(c, s, gs041_pool);
}

static void
gs042_pool(struct rule_ctx *c, const struct spec_site *s, const struct rule_pool *p)
{
	if (!p->f->enabled || p->f->min_gpu_memory_mib <= 0)
		return;
	for (size_t i = 0; i < p->f->instance_type_count; i++) {
		const struct instance_type *t = instance_type_find(p->f->instance_types[i]);

		if (!instance_type_whole_nvidia(t) || t->gpu_memory_mib >= p->f->min_gpu_memory_mib)
			continue;
		rule_report(c, s, item_pos(s, p, i), item_path(c, p, i),
			    "%s has %lld MiB per GPU (%s), below "
			    "%s.minGpuMemoryMiB %lld: Karpenter will never "
			    "launch it, remove it or lower the minimum",
			    t->name, (long long)t->gpu_memory_mib, t->gpu_name, p->block,
			    (long long)p->f->min_gpu_memory_mib);
	}
}

static void
check_gs042(struct rule_ctx *c, const struct spec_site *s)
{
	rule_each_pool(c, s, gs042_pool);
}

static void
gs043_pool(struct rule_ctx *c, const struct spec_site *s, const struct rule_pool *p)
{
	const char *model = NULL;
	int64_t need;

	if (!p->f->enabled || p->f->min_gpu_memory_mib > 0)
		return;
	need = onprem_gpu_memory(s, &model);
	if (!need)
		return; /* unknown on-prem models: nothing to compare */
	if (types_inherited(s, p) && s->fallback.enabled && s->fallback.min_gpu_memory_mib <= 0)
		return; /* the fallback's finding says it */
	for (size_t i = 0; i < p->f->instance_type_count; i++) {
		const struct instance_type *t = instance_type_find(p->f->instance_types[i]);

		if (!instance_type_whole_nvidia(t) || t->gpu_memory_mib >= need)
			continue;
		rule_report(c, s, item_pos(s, p, i), item_path(c, p, i),
			    "%s has %lld MiB per GPU (%s), less than the %lld MiB "
			    "of the on-prem %s: the served model may not fit; set "
			    "%s.minGpuMemoryMiB to what the model needs",
			    t->name, (long long)t->gpu_memory_mib, t->gpu_name, (long long)need,
			    model, p->block);
	}
}

static void
check_gs043(struct rule_ctx *c, const struct spec_site *s)
{
	rule_each_pool(c, s, gs043_pool);
}

static void
gs044_pool(struct rule_ctx *c, const struct spec_site *s, const struct rule_pool *p)
{
	const struct spec_duration *e = &p->f->expire_after;

	if (!p->f->enabled || s->cluster.provisioner != PROV_AUTO_MODE)
		return;
	for (size_t i = 0; !types_inherited(s, p) && i < p->f->instance_type_count; i++) {
		const struct instance_type *t = instance_type_find(p->f->instance_types[i]);

		if (!t || t->auto_mode)
			continue;
		rule_report(c, s, item_pos(s, p, i), item_path(c, p, i),
			    "EKS Auto Mode does not offer %s (family %s): pick "
			    "a type of a family Auto Mode supports, such as g6, "
			    "g6e, g7e, p5 or p5en",
			    t->name, t->family);
	}
	if (e->never || e->seconds > AUTO_MODE_MAX_LIFETIME)
		rule_report(c, s, rule_pos(s, p->f->src, "expireAfter"),
			    arena_printf(c->arena, "%s.expireAfter", p->path),
			    "%s.expireAfter %s is over the 21 days (504h) "
			    "that EKS Auto Mode lets a node live: use 504h or "
			    "less (the default is 336h)",
			    p->block, e->text);
}

static void
check_gs044(struct rule_ctx *c, const struct spec_site *s)
{
	rule_each_pool(c, s, gs044_pool);
}

/* The fallback only: the burst pool is for normal-time bursts, not for
 * carrying the site's work when it is down. */
static void
check_gs045(struct rule_ctx *c, const struct spec_site *s)
{
	int64_t onprem = spec_site_onprem_gpus(s);

	if (!s->fallback.enabled || !s->fallback.gpu_limit_set || onprem <= 0 ||
	    s->fallback.gpu_limit * 2 >= onprem)
		return;
	rule_report(c, s, rule_pos(s, s->fallback.src, "gpuLimit"), "spec.fallback.gpuLimit",
		    "fallback.gpuLimit %lld covers less than half of the %lld "
		    "on-prem GPUs: when the site is down the fallback carries "
		    "only part of its work; raise gpuLimit if that is not meant",
		    (long long)s->fallback.gpu_limit, (long long)onprem);
}

/* Length of the region prefix of `z` ("us-gov-west-1" of
 * "us-gov-west-1a"): two letters, one or more "-word", then "-digits";
 * 0 when there is none. */
static size_t
region_prefix(const char *z)
{
	const char *p = z;
	size_t words = 0;

	if (!islower((unsigned char)p[0]) || !islower((unsigned char)p[1]) || p[2] != '-')
		return 0;
	p += 2;
	while (*p == '-' && islower((unsigned char)p[1])) {
		p++;
		while (islower((unsigned char)*p))
			p++;
		words++;
	}
	if (!words || *p != '-' || !isdigit((unsigned char)p[1]))
		return 0;
	p++;
	while (isdigit((unsigned char)*p))
		p++;
	return (size_t)(p - z);
}

/* "usw2-az1": a zone ID, which topology.kubernetes.io/zone never holds. */
static bool
zone_id(const char *z)
{
	const char *p = z;

	while (islower((unsigned char)*p))
		p++;
	if (p - z < 3 || !isdigit((unsigned char)*p))
		return false;
	while (isdigit((unsigned char)*p))
		p++;
	if (strncmp(p, "-az", 3) || !isdigit((unsigned char)p[3]))
		return false;
	for (p += 3; isdigit((unsigned char)*p); p++)
		;
	return *p == '\0';
}

/* After the region: one letter (us-west-2a), or a Local Zone or
 * Wavelength suffix (us-west-2-lax-1a, us-east-1-wl1-bos-wlz-1). */
static bool
zone_suffix(const char *p)
{
	size_t n = strlen(p);

	if (n == 1)
		return islower((unsigned char)p[0]);
	if (n < 3 || p[0] != '-' || !isalnum((unsigned char)p[n - 1]))
		return false;
	for (size_t i = 1; i < n; i++)
		if (!islower((unsigned char)p[i]) && !isdigit((unsigned char)p[i]) &&
		    (p[i] != '-' || p[i - 1] == '-'))
			return false;
	return true;
}

static void
gs105_pool(struct rule_ctx *c, const struct spec_site *s, const struct rule_pool *p)
{
	const struct node *zones = p->f->src ? node_map_get(p->f->src, "zones") : NULL;
	const char *region = s->cluster.region ? s->cluster.region : "";

	for (size_t i = 0; i < p->f->zone_count; i++) {
		const char *z = p->f->zones[i];
		const struct node *zn = zones && zones->kind == NODE_SEQ && i < zones->seq.count
						? zones->seq.items[i]
						: NULL;
		struct pos at = zn ? zn->at : rule_pos(s, p->f->src, "zones");
		const char *path = arena_printf(c->arena, "%s.zones[%zu]", p->path, i);
		size_t rn = region_prefix(z), want = strlen(region);

		if (zone_id(z))
			rule_report(c, s, at, path,
				    "%s.zones names '%s', a zone ID: "
				    "topology.kubernetes.io/zone holds zone names, so "
				    "write the name of that zone in %s (such as %sa)",
				    p->block, rule_quote(z), region, region);
		else if (rn && (rn != want || strncmp(z, region, rn)))
			rule_report(c, s, at, path,
				    "%s.zones names '%s', a zone of region "
				    "%.*s, but the cluster is in %s: Karpenter can "
				    "never launch there; use a zone of %s (such as %sa)",
				    p->block, rule_quote(z), (int)rn, z, region, region, region);
		else if (!rn || !zone_suffix(z + rn))
			rule_report(c, s, at, path,
				    "%s.zones names '%s', which is not an AWS "
				    "zone name: write the region and the zone letter "
				    "(%sa), or a Local Zone name (%s-lax-1a)",
				    p->block, rule_quote(z), region, region);
	}
}

static void
check_gs105(struct rule_ctx *c, const struct spec_site *s)
{
	rule_each_pool(c, s, gs105_pool);
}

const struct rule rule_gs040 = {
	.id = "GS040",
	.check_site = check_gs040,
};

const struct rule rule_gs041 = {
	.id = "GS041",
	.check_site = check_gs041,
};

const struct rule rule_gs042 = {
	.id = "GS042",
	.check_site = check_gs042,
};

const struct rule rule_gs043 = {
	.id = "GS043",
	.check_site = check_gs043,
};

const struct rule rule_gs044 = {
	.id = "GS044",
	.check_site = check_gs044,
};

const struct rule rule_gs045 = {
	.id = "GS045",
	.check_site = check_gs045,
};

const struct rule rule_gs105 = {
	.id = "GS105",
	.check_site = check_gs105,
};
