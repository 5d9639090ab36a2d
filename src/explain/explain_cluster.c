/*
 * explain_cluster.c - `gpusite explain CLUSTER`: every site of one
 * cluster, its capacity (on-prem GPUs, fallback limit, burst limit) with
 * the cluster's totals, which namespaces go to which site and pool, and a
 * one-line check that every GPU pool of the cluster is reachable from
 * exactly one site's scope.
 */
#include <stdio.h>
#include <string.h>

#include "base/arena.h"
#include "explain/explain.h"
#include "inventory/inventory.h"

/* Whether a site's scope renders a policy that selects Pods. */
static bool
places(const struct spec_site *s)
{
	return s->placement.engine != ENGINE_NONE;
}

static bool
has_selector(const struct node *sel)
{
	return sel && sel->kind == NODE_MAP && sel->map.count;
}

static void
capacity_table(FILE *out, const struct spec_fleet *f, const char *cluster)
{
	int64_t on = 0, fb = 0, bu = 0;

	fprintf(out, "  capacity (nvidia.com/gpu):\n");
	fprintf(out, "    %-24s %8s %15s %12s\n", "site", "on-prem", "fallback limit",
		"burst limit");
	for (size_t i = 0; i < f->count; i++) {
		const struct spec_site *s = f->sites[i];
		int64_t o = spec_site_onprem_gpus(s);
		int64_t l = s->fallback.enabled ? s->fallback.gpu_limit : 0;
		int64_t b = s->burst.pool.enabled ? s->burst.pool.gpu_limit : 0;

		if (strcmp(s->cluster.name, cluster))
			continue;
		fprintf(out, "    %-24s %8lld %15lld %12lld\n", s->name, (long long)o, (long long)l,
			(long long)b);
		on += o;
		fb += l;
		bu += b;
	}
	fprintf(out, "    %-24s %8lld %15lld %12lld\n", "cluster total", (long long)on,
		(long long)fb, (long long)bu);
}

/* One line per namespace of one scope of a site. */
static void
scope_lines(FILE *out, const struct spec_site *s, const struct inventory *inv, bool burst)
{
	const char *const *ns = burst ? s->burst.namespaces : s->placement.namespaces;
	size_t n = burst ? s->burst.namespace_count : s->placement.namespace_count;
	const struct node *sel = burst ? s->burst.pod_selector : s->placement.pod_selector;
	const struct inv_pool *pool =
		inventory_pool(inv, burst ? INV_ROLE_BURST_POOL : INV_ROLE_FALLBACK_POOL);

	if (!places(s) || (burst && !s->burst.pool.enabled))
		return;
	if (!burst && !n)
		fprintf(out, "    %-24s %s placement%s: hybrid nodes, then %s%s\n",
			"(every namespace)", s->name, has_selector(sel) ? " (podSelector)" : "",
			pool ? "NodePool " : "no cloud pool", pool ? pool->name : "");
	for (size_t i = 0; i < n; i++)
		fprintf(out, "    %-24s %s %s%s: hybrid nodes, then %s%s%s\n", ns[i], s->name,
			burst ? "burst" : "placement", has_selector(sel) ? " (podSelector)" : "",
			pool ? "NodePool " : "no cloud pool", pool ? pool->name : "",
			burst ? " (never the fallback)" : "");
}

/* The sites whose scope can reach pool `p` of site `owner`: its own scope
 * of the pool's role, and that of every site not bound to its own nodes
 * (siteBinding preferred or none).  The placement scope never tolerates
 * the burst taint; the burst scope never takes the fallback. */
static size_t
reaching(const struct spec_fleet *f, const char *cluster, const struct spec_site *owner,
	 const struct inv_pool *p, const char **first_other)
{
	bool burst = p->role == INV_ROLE_BURST_POOL;
	size_t n = 0;

	*first_other = NULL;
	for (size_t i = 0; i < f->count; i++) {
		const struct spec_site *t = f->sites[i];

		if (strcmp(t->cluster.name, cluster) || !places(t) ||
		    (burst && !t->burst.pool.enabled))
			continue;
		if (t != owner && t->placement.site_binding == BIND_REQUIRED)
			continue;
		n++;
		if (t != owner && !*first_other)
			*first_other = t->name;
	}
	return n;
}

static void
reachability(FILE *out, struct arena *a, const struct spec_fleet *f, const char *cluster)
{
	size_t pools = 0, bad = 0;

	for (size_t i = 0; i < f->count; i++) {
		const struct spec_site *s = f->sites[i];
		const struct inventory *inv;

		if (strcmp(s->cluster.name, cluster))
			continue;
		inv = inventory_site(a, s);
		for (size_t k = 0; k < inv->pool_count; k++) {
			const struct inv_pool *p = &inv->pools[k];
			const char *other;
			size_t n = reaching(f, cluster, s, p, &other);

			pools++;
			if (n == 1 && !other)
				continue;
			bad++;
			if (!n)
				fprintf(out,
					"  pools: NodePool %s of site %s is reachable from no "
					"site's"
					" scope (placement.engine none): nothing places Pods on "
					"it\n",
					p->name, s->name);
			else
				fprintf(out,
					"  pools: NodePool %s of site %s is reachable from %zu "
					"sites'"
					" scopes (%s among them, whose siteBinding is not "
					"required):"
					" its limit and alerts no longer describe one site's "
					"work\n",
					p->name, s->name, n, other);
		}
	}
	if (!bad)
		fprintf(out,
			"  pools: every GPU pool of the cluster (%zu) is reachable from exactly one"
			" site's scope\n",
			pools);
}

void
explain_cluster(FILE *out, struct arena *a, const struct spec_fleet *f, const char *cluster)
{
	size_t sites = 0;

	for (size_t i = 0; i < f->count; i++)
		sites += !strcmp(f->sites[i]->cluster.name, cluster);
	fprintf(out, "cluster %s (%zu site%s)\n", cluster, sites, sites == 1 ? "" : "s");
	capacity_table(out, f, cluster);
	fprintf(out, "  namespaces (GPU Pods go to):\n");
	for (size_t i = 0; i < f->count; i++) {
		const struct spec_site *s = f->sites[i];
		const struct inventory *inv;

		if (strcmp(s->cluster.name, cluster))
			continue;
		inv = inventory_site(a, s);
		if (!places(s))
			fprintf(out, "    %-24s %s: placement.engine none, no Pod is placed\n", "-",
				s->name);
		scope_lines(out, s, inv, false);
		scope_lines(out, s, inv, true);
	}
	reachability(out, a, f, cluster);
}
