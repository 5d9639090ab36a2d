/*
 * fleetpage_model.c - the fleet page's numbers, computed once: the
 * clusters and their sites, each site's budget and fallback at its limit
 * with its cost, the last drill of each site given, and every set of up
 * to K sites of a cluster failing together.
 *
 * The cost of a fallback at its limit is that of the cheapest listed
 * instance type that serves (whole NVIDIA GPUs, no more GPUs a node than
 * the limit, at least fallback.minGpuMemoryMiB a GPU): as many nodes of it
 * as fit within gpuLimit (explain's "up to N nodes within the limit"),
 * at the on-demand list price.  Spot and reserved capacity have no list
 * price here: a capacityType that lists on-demand after them is priced at
 * on-demand's, the most an hour costs, and one without on-demand is not
 * priced.  Prices outside the list's region are an estimate.
 */
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "fleetpage/fleetpage.h"
#include "inventory/inventory.h"
#include "rules/instance_types.h"
#include "rules/quota.h"

static void
site_type(struct fp_type *out, const struct spec_fallback *fb, const char *name)
{
	const struct instance_type *t = instance_type_find(name);

	memset(out, 0, sizeof(*out));
	out->name = name;
	out->quota_group = -1;
	if (!t || !instance_type_whole_nvidia(t))
		return;
	out->gpus = t->nvidia_gpus;
	out->vcpus = t->vcpus;
	out->quota_group = instance_type_quota_group(t);
	out->usd_per_hour = t->usd_per_hour;
	out->serves = instance_type_serves(t, fb->gpu_limit, fb->min_gpu_memory_mib);
	if (out->serves)
		out->nodes_at_limit = fb->gpu_limit / t->nvidia_gpus;
}

/* capacityType lists on-demand (alone, or after spot or reserved) */
static bool
lists_on_demand(const struct spec_fallback *fb)
{
	if (!fb->capacity_type_count)
		return fb->capacity_type == CAP_ON_DEMAND;
	for (size_t i = 0; i < fb->capacity_type_count; i++)
		if (!strcmp(fb->capacity_types[i], "on-demand"))
			return true;
	return false;
}

/* The fallback at its limit: what it may launch and what an hour costs. */
static void
site_fallback(struct arena *a, struct fp_site *fs)
{
	const struct spec_site *s = fs->spec;
	const struct spec_fallback *fb = &s->fallback;
	bool any = false;

	fs->fallback = fb->enabled;
	fs->cost_state = FP_COST_NO_FALLBACK;
	if (!fb->enabled)
		return;
	fs->gpu_limit = fb->gpu_limit;
	fs->type_count = fb->instance_type_count;
	fs->types = arena_alloc(a, (fs->type_count ? fs->type_count : 1) * sizeof(*fs->types));
	for (size_t i = 0; i < fs->type_count; i++) {
		site_type(&fs->types[i], fb, fb->instance_types[i]);
		any |= fs->types[i].serves;
	}
	fs->launchable = any || !fs->type_count ? fb->gpu_limit : 0;
	fs->cost_estimate = !s->cluster.region || strcmp(s->cluster.region, instance_price_region);
	if (!lists_on_demand(fb)) {
		fs->cost_state = FP_COST_CAPACITY;
		return;
	}
	/* spot or reserved first, then on-demand: its price is the most an
	 * hour costs (as the drill plan's handout says) */
	fs->cost_ceiling = fb->capacity_type != CAP_ON_DEMAND;
	if (!fs->type_count) {
		fs->cost_state = FP_COST_NO_TYPES;
		return;
	}
	fs->cost_state = FP_COST_NO_PRICED_TYPE;
	for (size_t i = 0; i < fs->type_count; i++) {
		const struct fp_type *t = &fs->types[i];
		double c = (double)t->nodes_at_limit * t->usd_per_hour;

		if (!t->serves || t->usd_per_hour <= 0)
			continue;
		if (fs->cost_state == FP_COST_KNOWN && c >= fs->cost_per_hour)
			continue;
		fs->cost_state = FP_COST_KNOWN;
		fs->cost_per_hour = c;
		fs->cost_type = t->name;
	}
}

/* The capacity types of a pool as written: "spot", "spot, on-demand". */
static const char *
capacity_text(struct arena *a, const struct spec_fallback *fb)
{
	const char *t = NULL;

	if (!fb->capacity_type_count)
		return spec_capacity_name(fb->capacity_type);
	for (size_t i = 0; i < fb->capacity_type_count; i++)
		t = t ? arena_printf(a, "%s, %s", t, fb->capacity_types[i]) : fb->capacity_types[i];
	return t;
}

/* The site's pools of normal-time capacity (the burst pool): shown
 * beside the fallback, never added to what the failed sites may launch. */
static void
site_pools(struct arena *a, struct fp_site *fs)
{
	const struct inventory *inv = inventory_site(a, fs->spec);

	fs->pools = arena_alloc(a, (inv->pool_count + 1) * sizeof(*fs->pools));
	for (size_t i = 0; i < inv->pool_count; i++) {
		const struct inv_pool *p = &inv->pools[i];

		if (p->normal_time)
			fs->pools[fs->pool_count++] =
				(struct fp_pool){ p->noun, p->name, p->spec->gpu_limit,
						  capacity_text(a, p->spec), p->spec };
	}
}

static void
site_build(struct arena *a, struct fp_site *fs, const struct spec_site *s)
{
	memset(fs, 0, sizeof(*fs));
	fs->spec = s;
	for (size_t i = 0; i < s->group_count; i++) {
		const struct spec_node_group *g = &s->groups[i];
		int nodes = g->count ? g->count : (int)g->node_count;

		fs->onprem_gpus += (int64_t)nodes * g->gpus_per_node;
	}
	struct quota_need need;

	drill_budget_compute(&fs->budget, s, DRILL_NODE_FAILURE);
	memcpy(fs->terms, fs->budget.seconds, sizeof(fs->terms));
	fs->terms[DRILL_TERM_NODE_MONITOR_GRACE] = fs->budget.grace;
	site_fallback(a, fs);
	site_pools(a, fs);
	quota_need(&need, s);
	fs->quota_market = need.market;
	fs->quota_group = need.group;
	fs->quota_vcpus = need.vcpus;
	fs->quota_over = need.market >= 0 && need.group >= 0 && s->cluster.quotas.set &&
			 s->cluster.quotas.vcpus[need.market][need.group] >= 0 &&
			 need.vcpus > s->cluster.quotas.vcpus[need.market][need.group];
}

static const char *
kube_text(struct arena *a, const struct spec_cluster *c)
{
	int minor = c->kube_minor > 0 ? c->kube_minor : 36;

	if (c->kube_version_assumed || !c->kubernetes_version)
		return arena_printf(a, "1.%d (assumed)", minor);
	return arena_printf(a, "1.%d", minor);
}

static bool
differs(const char *x, const char *y)
{
	return (x == NULL) != (y == NULL) || (x && strcmp(x, y));
}

static void
cluster_models(struct arena *a, struct fp_cluster *c, const struct spec_site *s)
{
	for (size_t i = 0; i < s->group_count; i++) {
		const struct spec_node_group *g = &s->groups[i];
		int64_t gpus =
			(int64_t)(g->count ? g->count : (int)g->node_count) * g->gpus_per_node;
		size_t j = 0, alloc = c->model_count;

		while (j < c->model_count && strcmp(c->models[j].model, g->gpu_model) < 0)
			j++;
		if (j < c->model_count && !strcmp(c->models[j].model, g->gpu_model)) {
			c->models[j].gpus += gpus;
			continue;
		}
		ARENA_GROW(a, c->models, c->model_count, alloc, 4);
		memmove(&c->models[j + 1], &c->models[j],
			(c->model_count - j) * sizeof(*c->models));
		c->models[j] = (struct fp_model_gpus){ g->gpu_model, gpus };
		c->model_count++;
	}
}

static size_t
cluster_find(struct arena *a, struct fleetpage *fp, size_t *alloc, const struct spec_site *s)
{
	struct fp_cluster *c;
	size_t i = 0;

	while (i < fp->cluster_count && strcmp(fp->clusters[i].name, s->cluster.name) < 0)
		i++;
	if (i < fp->cluster_count && !strcmp(fp->clusters[i].name, s->cluster.name))
		return i;
	ARENA_GROW(a, fp->clusters, fp->cluster_count, *alloc, 8);
	memmove(&fp->clusters[i + 1], &fp->clusters[i],
		(fp->cluster_count - i) * sizeof(*fp->clusters));
	fp->cluster_count++;
	c = &fp->clusters[i];
	memset(c, 0, sizeof(*c));
	c->name = s->cluster.name;
	c->region = s->cluster.region;
	c->provisioner = spec_provisioner_name(s->cluster.provisioner);
	c->kubernetes = kube_text(a, &s->cluster);
	c->stack = spec_stack_type_name(s->gpu_stack.type);
	c->chart = s->gpu_stack.chart.name;
	c->chart_version = s->gpu_stack.chart.version;
	c->engine = spec_engine_name(s->placement.engine);
	for (size_t k = 0; k < inventory_pool_kind_count() && c->pool_count < INV_POOL_MAX; k++)
		if (inventory_pool_kind_normal_time(k))
			c->pools[c->pool_count++].noun = inventory_pool_kind_noun(k);
	return i;
}

static void
cluster_add(struct arena *a, struct fp_cluster *c, size_t *alloc, const struct fp_site *fs,
	    size_t index)
{
	const struct spec_site *s = fs->spec;

	c->mixed |= differs(c->region, s->cluster.region) ||
		    differs(c->provisioner, spec_provisioner_name(s->cluster.provisioner)) ||
		    differs(c->stack, spec_stack_type_name(s->gpu_stack.type)) ||
		    differs(c->chart_version, s->gpu_stack.chart.version) ||
		    differs(c->engine, spec_engine_name(s->placement.engine));
	ARENA_GROW(a, c->sites, c->site_count, *alloc, 4);
	c->sites[c->site_count++] = index;
	c->onprem_gpus += fs->onprem_gpus;
	c->fallback_limit += fs->gpu_limit;
	for (size_t i = 0; i < fs->pool_count; i++)
		for (size_t k = 0; k < c->pool_count; k++) {
			struct fp_pool_sum *sum = &c->pools[k];
			const struct fp_pool *p = &fs->pools[i];

			if (strcmp(sum->noun, p->noun))
				continue;
			sum->capacity = !sum->sites || !strcmp(sum->capacity, p->capacity)
						? p->capacity
						: "varies by site";
			sum->sites++;
			sum->limit += p->limit;
		}
	if (!c->quotas && s->cluster.quotas.set)
		c->quotas = &s->cluster.quotas;
	cluster_models(a, c, s);
}

static bool
wanted(const struct spec_site *s, const char *only)
{
	return !only || !strcmp(s->name, only) || !strcmp(s->cluster.name, only);
}

/* The set's least vCPUs per market and group against the cluster's quota. */
static void
whatif_quota(struct fp_whatif *w, const struct fp_site *sites, const struct spec_quotas *q)
{
	for (size_t i = 0; i < w->count; i++) {
		const struct fp_site *s = &sites[w->sites[i]];

		if (s->quota_market >= 0 && s->quota_group >= 0)
			w->quota_vcpus[s->quota_market][s->quota_group] += s->quota_vcpus;
	}
	for (int m = 0; q && m < QUOTA_MARKETS; m++)
		for (int g = 0; g < QUOTA_GROUPS; g++)
			w->quota_over |=
				q->vcpus[m][g] >= 0 && w->quota_vcpus[m][g] > q->vcpus[m][g];
}

static void
whatif_add(struct arena *a, struct fleetpage *fp, size_t *alloc, size_t cluster, const size_t *idx,
	   size_t k)
{
	const struct fp_cluster *c = &fp->clusters[cluster];
	struct fp_whatif *w;

	if (fp->whatif_count >= FLEETPAGE_MAX_SETS) {
		fp->whatif_truncated = true;
		return;
	}
	ARENA_GROW(a, fp->whatifs, fp->whatif_count, *alloc, 64);
	w = &fp->whatifs[fp->whatif_count++];
	memset(w, 0, sizeof(*w));
	w->cluster = cluster;
	w->count = k;
	for (size_t i = 0; i < k; i++) {
		const struct fp_site *s = &fp->sites[c->sites[idx[i]]];

		w->sites[i] = c->sites[idx[i]];
		w->lost += s->onprem_gpus;
		w->launchable += s->launchable;
		if (s->cost_state == FP_COST_KNOWN) {
			w->cost_per_hour += s->cost_per_hour;
			w->cost_known = true;
		} else if (s->cost_state != FP_COST_NO_FALLBACK)
			w->cost_partial = true;
		w->cost_estimate |= s->cost_state == FP_COST_KNOWN && s->cost_estimate;
		w->cost_ceiling |= s->cost_state == FP_COST_KNOWN && s->cost_ceiling;
	}
	w->shortfall = w->lost > w->launchable ? w->lost - w->launchable : 0;
	whatif_quota(w, fp->sites, c->quotas);
}

/* Every set of 1..K sites of each cluster, smallest first, in site order. */
static void
whatif_build(struct arena *a, struct fleetpage *fp)
{
	size_t alloc = 0, idx[FLEETPAGE_FAIL_MAX];

	for (size_t c = 0; c < fp->cluster_count; c++) {
		size_t n = fp->clusters[c].site_count;

		for (size_t k = 1; k <= (size_t)fp->fail && k <= n; k++) {
			for (size_t i = 0; i < k; i++)
				idx[i] = i;
			for (;;) {
				size_t i = k;

				whatif_add(a, fp, &alloc, c, idx, k);
				if (fp->whatif_truncated)
					return;
				while (i > 0 && idx[i - 1] == n - k + i - 1)
					i--;
				if (!i)
					break;
				idx[i - 1]++;
				for (size_t j = i; j < k; j++)
					idx[j] = idx[j - 1] + 1;
			}
		}
	}
}

static struct fp_site *
site_named(struct fleetpage *fp, const char *name)
{
	for (size_t i = 0; i < fp->site_count; i++)
		if (!strcmp(fp->sites[i].spec->name, name))
			return &fp->sites[i];
	return NULL;
}

/* The last drill of each site among the records given. */
static int
drills_read(struct fleetpage *fp, struct arena *a, struct diags *d,
	    const struct fleetpage_options *o)
{
	int rc = 0;

	for (size_t i = 0; i < o->drill_record_count; i++) {
		struct drill_record *r = arena_alloc(a, sizeof(*r));
		struct drill_terms *t;
		struct drill_budget b;
		struct fp_site *s;

		if (drill_record_load(a, d, r, o->drill_records[i], NULL) < 0) {
			rc = -1;
			continue;
		}
		s = site_named(fp, r->site);
		if (!s) {
			rc = diag_report(
				d, (struct pos)POS_NONE, DRILL_RECORD, "",
				"%s is a record of site %s, which the specs read do not"
				" hold; pass the specs of that site or leave the record out",
				o->drill_records[i], r->site);
			continue;
		}
		if (s->drill && s->drill_started >= r->started_at)
			continue;
		t = arena_alloc(a, sizeof(*t));
		drill_budget_compute(&b, s->spec, r->scenario);
		drill_terms_compute(a, t, &b, r);
		if (!s->drill)
			fp->drills++;
		s->drill = t;
		s->drill_file = o->drill_records[i];
		s->drill_started = r->started_at;
	}
	return rc;
}

int
fleetpage_build(struct fleetpage *out, struct arena *a, struct diags *d,
		const struct spec_fleet *fleet, const struct fleetpage_options *o)
{
	size_t calloc_ = 0, salloc = 0;
	size_t *site_alloc;

	memset(out, 0, sizeof(*out));
	out->fail = o->fail;
	out->price_region = instance_price_region;
	out->price_date = instance_price_date;
	out->price_source = instance_price_source;
	for (size_t i = 0; i < fleet->count; i++) {
		if (!wanted(fleet->sites[i], o->only))
			continue;
		ARENA_GROW(a, out->sites, out->site_count, salloc, 16);
		site_build(a, &out->sites[out->site_count++], fleet->sites[i]);
	}
	for (size_t i = 0; i < out->site_count; i++)
		cluster_find(a, out, &calloc_, out->sites[i].spec);
	site_alloc = arena_alloc(a, (out->cluster_count ? out->cluster_count : 1) * sizeof(size_t));
	memset(site_alloc, 0, (out->cluster_count ? out->cluster_count : 1) * sizeof(size_t));
	for (size_t i = 0; i < out->site_count; i++) {
		size_t c = cluster_find(a, out, &calloc_, out->sites[i].spec);

		out->sites[i].cluster = c;
		cluster_add(a, &out->clusters[c], &site_alloc[c], &out->sites[i], i);
		out->pool_sites += out->sites[i].pool_count > 0;
	}
	whatif_build(a, out);
	return drills_read(out, a, d, o);
}

const char *
fleetpage_cost_reason(const struct fp_site *s)
{
	switch (s->cost_state) {
	case FP_COST_KNOWN: return "";
	case FP_COST_NO_FALLBACK: return "no fallback";
	case FP_COST_CAPACITY:
		return s->spec->fallback.capacity_type == CAP_SPOT
			       ? "price not known: Spot capacity has no list price (no on-demand"
				 " listed after it)"
			       : "price not known: reserved capacity is paid for already (no"
				 " on-demand listed after it)";
	case FP_COST_NO_TYPES:
		return "price not known: no fallback.instanceTypes, Karpenter may pick any GPU "
		       "type";
	case FP_COST_NO_PRICED_TYPE:
		return "price not known: no listed type both serves and has a list price";
	}
	return "";
}

int
fleetpage_parse_fail(int *out, const char *value)
{
	char *end;
	long k = strtol(value, &end, 10);

	if (*end || end == value || k < 1 || k > FLEETPAGE_FAIL_MAX)
		return -1;
	*out = (int)k;
	return 0;
}
