/*
 * fleetpage_json.c - `explain --format json`: the fleet page's numbers as
 * one JSON document, keys in a fixed order (docs/explain-json.md):
 *   {"apiVersion", "prices", "fail", "clusters": [...], "sites": [...],
 *    "whatIf": {"truncated", "sets": [...]}}
 * Durations are whole seconds, prices US dollars an hour with two
 * decimals; an unknown figure is null with the reason beside it.
 */
#include <stdio.h>
#include <string.h>

#include "base/arena.h"
#include "fleetpage/fleetpage.h"
#include "inventory/inventory.h"
#include "inventory/inventory_labels.h"
#include "json/json.h"
#include "rules/quota.h"

#define FLEETPAGE_JSON_API "gpusite.io/explain/v1"
#define P ((struct pos)POS_NONE)

static struct node *
price(struct arena *a, double usd, int decimals)
{
	char t[64];
	int n = snprintf(t, sizeof(t), "%.*f", decimals, usd);

	return node_new_scalar(a, P, NODE_FLOAT, t, (size_t)n);
}

static struct node *
str_or_null(struct arena *a, const char *s)
{
	return s ? node_new_str(a, P, s) : node_new_null(a, P);
}

/* {"onDemand": {"G", "P"}, "spot": {"G", "P"}}: vCPUs, null where none */
static struct node *
quota_json(struct arena *a, const int64_t (*v)[QUOTA_GROUPS], bool null_below_zero)
{
	struct node *m = node_new_map(a, P);

	for (int mk = 0; mk < QUOTA_MARKETS; mk++) {
		struct node *g = node_new_map(a, P);

		for (int gr = 0; gr < QUOTA_GROUPS; gr++)
			node_map_add(a, g, quota_group_name(gr),
				     null_below_zero && v[mk][gr] < 0
					     ? node_new_null(a, P)
					     : node_new_int(a, P, v[mk][gr]));
		node_map_add(a, m, quota_market_name(mk), g);
	}
	return m;
}

static struct node *
cluster_json(struct arena *a, const struct fleetpage *fp, const struct fp_cluster *c)
{
	struct node *m = node_new_map(a, P), *st = node_new_map(a, P);
	struct node *sites = node_new_seq(a, P), *models = node_new_map(a, P);

	node_map_add_str(a, m, "name", c->name);
	node_map_add(a, m, "region", str_or_null(a, c->region));
	for (size_t i = 0; i < c->site_count; i++)
		node_seq_push(a, sites, node_new_str(a, P, fp->sites[c->sites[i]].spec->name));
	node_map_add(a, m, "sites", sites);
	node_map_add_int(a, m, "onPremGpus", c->onprem_gpus);
	for (size_t i = 0; i < c->model_count; i++)
		node_map_add_int(a, models, c->models[i].model, c->models[i].gpus);
	node_map_add(a, m, "gpusByModel", models);
	node_map_add_int(a, m, "fallbackGpuLimit", c->fallback_limit);
	/* per kind of normal-time pool: "burstGpuLimit", "burstCapacityType" */
	for (size_t k = 0; k < c->pool_count; k++) {
		const struct fp_pool_sum *p = &c->pools[k];

		node_map_add(a, m, arena_printf(a, "%sGpuLimit", p->noun),
			     p->sites ? node_new_int(a, P, p->limit) : node_new_null(a, P));
		node_map_add(a, m, arena_printf(a, "%sCapacityType", p->noun),
			     str_or_null(a, p->capacity));
	}
	node_map_add_str(a, st, "type", c->stack);
	node_map_add(a, st, "chart", str_or_null(a, c->chart));
	node_map_add(a, st, "version", str_or_null(a, c->chart_version));
	node_map_add(a, m, "gpuStack", st);
	node_map_add_str(a, m, "placementEngine", c->engine);
	node_map_add_str(a, m, "provisioner", c->provisioner);
	node_map_add_str(a, m, "kubernetes", c->kubernetes);
	node_map_add_bool(a, m, "sitesDisagree", c->mixed);
	node_map_add(a, m, "quotas",
		     c->quotas
			     ? quota_json(a, (const int64_t(*)[QUOTA_GROUPS])c->quotas->vcpus, true)
			     : node_new_null(a, P));
	return m;
}

static struct node *
terms_json(struct arena *a, const int64_t *terms)
{
	struct node *m = node_new_map(a, P);

	for (int i = 0; i < DRILL_TERM_COUNT; i++)
		node_map_add_int(a, m, drill_term_name((enum drill_term)i), terms[i]);
	return m;
}

static struct node *
recovery_json(struct arena *a, const struct fp_site *s)
{
	const struct drill_budget *b = &s->budget;
	struct node *m = node_new_map(a, P);

	node_map_add_bool(a, m, "set", b->set);
	node_map_add(a, m, "targetRtoSeconds",
		     b->target ? node_new_int(a, P, b->target) : node_new_null(a, P));
	node_map_add(a, m, "terms", terms_json(a, s->terms));
	node_map_add_bool(a, m, "imagePullCached", b->image_pull_cached);
	node_map_add_int(a, m, "totalSeconds", b->real_failure_total);
	node_map_add(a, m, "withinTarget",
		     b->target ? node_new_bool(a, P, b->real_failure_total <= b->target)
			       : node_new_null(a, P));
	return m;
}

static struct node *
drill_json(struct arena *a, const struct fp_site *s)
{
	const struct drill_terms *t = s->drill;
	struct node *m = node_new_map(a, P), *terms = node_new_map(a, P);

	if (!t)
		return node_new_null(a, P);
	node_map_add_str(a, m, "scenario", drill_scenario_name(t->scenario));
	for (int i = 0; i < DRILL_TERM_COUNT; i++) {
		const struct drill_term_result *r = &t->terms[i];

		node_map_add(a, terms, drill_term_name(r->term),
			     r->applies && r->known ? node_new_int(a, P, r->measured)
						    : node_new_null(a, P));
	}
	node_map_add(a, m, "measuredSeconds", terms);
	node_map_add(a, m, "totalSeconds",
		     t->total_known ? node_new_int(a, P, t->total) : node_new_null(a, P));
	node_map_add_bool(a, m, "withinTarget", t->within_target);
	return m;
}

static struct node *
types_json(struct arena *a, const struct fp_site *s)
{
	struct node *seq = node_new_seq(a, P);

	for (size_t i = 0; i < s->type_count; i++) {
		const struct fp_type *t = &s->types[i];
		struct node *m = node_new_map(a, P);

		node_map_add_str(a, m, "name", t->name);
		node_map_add_bool(a, m, "serves", t->serves);
		node_map_add_int(a, m, "gpusPerNode", t->gpus);
		node_map_add_int(a, m, "vcpus", t->vcpus);
		node_map_add(a, m, "usdPerHour",
			     t->usd_per_hour > 0 ? price(a, t->usd_per_hour, 4)
						 : node_new_null(a, P));
		node_map_add_int(a, m, "nodesAtLimit", t->nodes_at_limit);
		node_seq_push(a, seq, m);
	}
	return seq;
}

/* A pool's capacityType as a list, in priority order. */
static struct node *
caps_json(struct arena *a, const struct spec_fallback *fb)
{
	struct node *caps = node_new_seq(a, P);

	if (fb->capacity_type_count)
		for (size_t i = 0; i < fb->capacity_type_count; i++)
			node_seq_push(a, caps, node_new_str(a, P, fb->capacity_types[i]));
	else
		node_seq_push(a, caps, node_new_str(a, P, spec_capacity_name(fb->capacity_type)));
	return caps;
}

/* Whether a pool is the site's alone: "exclusive", and the site taint
 * its nodes carry ("gpusite.io/site=<site>:NoSchedule"), null when shared. */
static void
pool_taint_json(struct arena *a, struct node *m, const struct spec_site *sp,
		const struct spec_fallback *pool)
{
	node_map_add_bool(a, m, "exclusive", pool->exclusive);
	node_map_add(a, m, "siteTaint",
		     pool->exclusive ? node_new_str(a, P,
						    arena_printf(a, "%s=%s:%s", INV_SITE_TAINT_KEY,
								 sp->name, INV_POOL_TAINT_EFFECT))
				     : node_new_null(a, P));
}

/* Who may run on the site's pools (docs/design/inventory.md, "The site
 * taint"): the pools whose nodes carry the site taint and those shared,
 * the toleration a DaemonSet needs to run on them, and that a Pod
 * tolerating every taint still lands there.  null: the site has no pool. */
static struct node *
site_taint_json(struct arena *a, const struct spec_site *sp)
{
	const struct inventory *inv = inventory_site(a, sp);
	struct node *m, *ex, *shared, *tol;

	if (!inv->pool_count)
		return node_new_null(a, P);
	m = node_new_map(a, P);
	node_map_add_str(a, m, "key", INV_SITE_TAINT_KEY);
	node_map_add_str(a, m, "value", sp->name);
	node_map_add_str(a, m, "effect", INV_POOL_TAINT_EFFECT);
	ex = node_map_add(a, m, "exclusivePools", node_new_seq(a, P));
	shared = node_map_add(a, m, "sharedPools", node_new_seq(a, P));
	for (size_t i = 0; i < inv->pool_count; i++) {
		const struct inv_pool *p = &inv->pools[i];

		node_seq_push(a, p->spec->exclusive ? ex : shared, node_new_str(a, P, p->name));
	}
	tol = node_map_add(a, m, "daemonSetToleration", node_new_map(a, P));
	node_map_add_str(a, tol, "key", INV_SITE_TAINT_KEY);
	node_map_add_str(a, tol, "operator", "Exists");
	node_map_add_str(a, tol, "effect", INV_POOL_TAINT_EFFECT);
	/* operator Exists without a key tolerates the site taint too */
	node_map_add_bool(a, m, "everyTaintToleratorLands", true);
	return m;
}

static struct node *
fallback_json(struct arena *a, const struct fp_site *s)
{
	const struct spec_fallback *fb = &s->spec->fallback;
	struct node *m = node_new_map(a, P);
	const struct inv_pool *pool;

	node_map_add_bool(a, m, "enabled", s->fallback);
	if (!s->fallback)
		return m;
	pool = inventory_failover_pool(inventory_site(a, s->spec));
	node_map_add(a, m, "nodePool", str_or_null(a, pool ? pool->name : NULL));
	node_map_add(a, m, "capacityTypes", caps_json(a, fb));
	node_map_add_int(a, m, "gpuLimit", s->gpu_limit);
	node_map_add_int(a, m, "launchableGpus", s->launchable);
	node_map_add(a, m, "instanceTypes", types_json(a, s));
	node_map_add(a, m, "instanceTypesInZones", node_new_str(a, P, "unknown"));
	if (s->quota_market >= 0 && s->quota_group >= 0) {
		struct node *q = node_new_map(a, P);

		node_map_add_str(a, q, "market", quota_market_name(s->quota_market));
		node_map_add_str(a, q, "group", quota_group_name(s->quota_group));
		node_map_add_int(a, q, "vcpus", s->quota_vcpus);
		node_map_add_bool(a, q, "exceeded", s->quota_over);
		node_map_add(a, m, "quotaNeed", q);
	} else {
		node_map_add(a, m, "quotaNeed", node_new_null(a, P));
	}
	if (s->cost_state == FP_COST_KNOWN) {
		node_map_add(a, m, "costPerHourAtLimit", price(a, s->cost_per_hour, 2));
		node_map_add_str(a, m, "costInstanceType", s->cost_type);
		node_map_add_bool(a, m, "costEstimate", s->cost_estimate);
		node_map_add_bool(a, m, "costIsCeiling", s->cost_ceiling);
	} else {
		node_map_add(a, m, "costPerHourAtLimit", node_new_null(a, P));
		node_map_add_str(a, m, "costUnknownBecause", fleetpage_cost_reason(s));
	}
	pool_taint_json(a, m, s->spec, fb);
	return m;
}

/* The site's normal-time pool of the cluster's k-th kind (the burst
 * pool): null without one; never failover capacity. */
static struct node *
pool_json(struct arena *a, const struct fp_site *s, const char *noun)
{
	struct node *m = node_new_map(a, P);

	for (size_t i = 0; i < s->pool_count; i++) {
		const struct fp_pool *p = &s->pools[i];

		if (strcmp(p->noun, noun))
			continue;
		node_map_add_str(a, m, "nodePool", p->name);
		node_map_add(a, m, "capacityTypes", caps_json(a, p->spec));
		node_map_add_int(a, m, "gpuLimit", p->limit);
		node_map_add_bool(a, m, "failoverCapacity", false);
		pool_taint_json(a, m, s->spec, p->spec);
		return m;
	}
	return node_new_null(a, P);
}

static struct node *
site_json(struct arena *a, const struct fleetpage *fp, const struct fp_site *s)
{
	struct node *m = node_new_map(a, P), *groups = node_new_seq(a, P);
	const struct spec_site *sp = s->spec;

	node_map_add_str(a, m, "name", sp->name);
	node_map_add_str(a, m, "cluster", fp->clusters[s->cluster].name);
	node_map_add(a, m, "region", str_or_null(a, sp->cluster.region));
	node_map_add_int(a, m, "onPremGpus", s->onprem_gpus);
	for (size_t i = 0; i < sp->group_count; i++) {
		const struct spec_node_group *g = &sp->groups[i];
		struct node *gm = node_new_map(a, P);
		int nodes = g->count ? g->count : (int)g->node_count;

		node_map_add_str(a, gm, "name", g->name);
		node_map_add_str(a, gm, "gpuModel", g->gpu_model);
		node_map_add_int(a, gm, "nodes", nodes);
		node_map_add_int(a, gm, "gpusPerNode", g->gpus_per_node);
		node_map_add_int(a, gm, "gpus", (int64_t)nodes * g->gpus_per_node);
		node_seq_push(a, groups, gm);
	}
	node_map_add(a, m, "groups", groups);
	node_map_add(a, m, "recovery", recovery_json(a, s));
	node_map_add(a, m, "fallback", fallback_json(a, s));
	for (size_t k = 0; k < fp->clusters[s->cluster].pool_count; k++) {
		const char *noun = fp->clusters[s->cluster].pools[k].noun;

		node_map_add(a, m, noun, pool_json(a, s, noun));
	}
	node_map_add(a, m, "drill", drill_json(a, s));
	node_map_add(a, m, "siteTaint", site_taint_json(a, sp));
	return m;
}

static struct node *
whatif_json(struct arena *a, const struct fleetpage *fp)
{
	struct node *m = node_new_map(a, P), *sets = node_new_seq(a, P);

	node_map_add_bool(a, m, "truncated", fp->whatif_truncated);
	for (size_t i = 0; i < fp->whatif_count; i++) {
		const struct fp_whatif *w = &fp->whatifs[i];
		struct node *wm = node_new_map(a, P), *names = node_new_seq(a, P);

		node_map_add_str(a, wm, "cluster", fp->clusters[w->cluster].name);
		for (size_t j = 0; j < w->count; j++)
			node_seq_push(a, names,
				      node_new_str(a, P, fp->sites[w->sites[j]].spec->name));
		node_map_add(a, wm, "sites", names);
		node_map_add_int(a, wm, "lostGpus", w->lost);
		node_map_add_int(a, wm, "launchableGpus", w->launchable);
		node_map_add_int(a, wm, "shortfallGpus", w->shortfall);
		node_map_add(a, wm, "costPerHour",
			     w->cost_known || !w->cost_partial ? price(a, w->cost_per_hour, 2)
							       : node_new_null(a, P));
		node_map_add_bool(a, wm, "costPartial", w->cost_partial);
		node_map_add_bool(a, wm, "costEstimate", w->cost_estimate);
		node_map_add_bool(a, wm, "costIsCeiling", w->cost_ceiling);
		node_map_add(a, wm, "quotaVcpus",
			     quota_json(a, (const int64_t(*)[QUOTA_GROUPS])w->quota_vcpus, false));
		node_map_add_bool(a, wm, "quotaExceeded", w->quota_over);
		node_seq_push(a, sets, wm);
	}
	node_map_add(a, m, "sets", sets);
	return m;
}

int
fleetpage_json(struct buf *out, struct arena *a, const struct fleetpage *fp)
{
	struct node *root = node_new_map(a, P), *prices = node_new_map(a, P);
	struct node *clusters = node_new_seq(a, P), *sites = node_new_seq(a, P);

	node_map_add_str(a, root, "apiVersion", FLEETPAGE_JSON_API);
	node_map_add_str(a, prices, "region", fp->price_region);
	node_map_add_str(a, prices, "date", fp->price_date);
	node_map_add_str(a, prices, "source", fp->price_source);
	node_map_add_str(a, prices, "kind", "on-demand Linux list prices");
	node_map_add(a, root, "prices", prices);
	node_map_add_int(a, root, "fail", fp->fail);
	for (size_t i = 0; i < fp->cluster_count; i++)
		node_seq_push(a, clusters, cluster_json(a, fp, &fp->clusters[i]));
	node_map_add(a, root, "clusters", clusters);
	for (size_t i = 0; i < fp->site_count; i++)
		node_seq_push(a, sites, site_json(a, fp, &fp->sites[i]));
	node_map_add(a, root, "sites", sites);
	node_map_add(a, root, "whatIf", whatif_json(a, fp));
	if (json_write(out, root, JSON_PRETTY) < 0 || buf_addch(out, '\n') < 0)
		return BUF_ETOOBIG;
	return 0;
}
