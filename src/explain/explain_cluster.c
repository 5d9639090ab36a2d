/*
 * explain_cluster.c - `gpusite explain CLUSTER`: every site of one
 * cluster, its capacity (on-prem GPUs, each kind of pool's limit) with
 * the cluster's totals, which namespaces go to which site and pool, and a
 * one-line check that every GPU pool of the cluster is reachable from
 * exactly one site's scope.
 */
#include <stdio.h>
#include <string.h>

#include "base/arena.h"
#include "explain/explain.h"
#include "inventory/inventory.h"
#include "inventory/inventory_labels.h"

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

/* One column per kind of pool ("fallback limit", "burst limit"), each as
 * wide as its title and a space. */
static void
capacity_table(FILE *out, struct arena *a, const struct spec_fleet *f, const char *cluster)
{
	size_t kinds = inventory_pool_kind_count();
	int64_t on = 0, *tot = arena_alloc(a, (kinds + 1) * sizeof(*tot));

	memset(tot, 0, (kinds + 1) * sizeof(*tot));
	fprintf(out, "  capacity (nvidia.com/gpu):\n");
	fprintf(out, "    %-24s %8s", "site", "on-prem");
	for (size_t k = 0; k < kinds; k++)
		fprintf(out, " %*s limit", (int)strlen(inventory_pool_kind_noun(k)) + 1,
			inventory_pool_kind_noun(k));
	fprintf(out, "\n");
	for (size_t i = 0; i < f->count; i++) {
		const struct spec_site *s = f->sites[i];
		const struct inventory *inv;
		int64_t o = spec_site_onprem_gpus(s);

		if (strcmp(s->cluster.name, cluster))
			continue;
		inv = inventory_site(a, s);
		fprintf(out, "    %-24s %8lld", s->name, (long long)o);
		for (size_t k = 0; k < kinds; k++) {
			const struct inv_pool *p = inventory_pool_of_kind(inv, k);
			int64_t l = p ? p->spec->gpu_limit : 0;

			fprintf(out, " %*lld", (int)strlen(inventory_pool_kind_noun(k)) + 7,
				(long long)l);
			tot[k] += l;
		}
		fprintf(out, "\n");
		on += o;
	}
	fprintf(out, "    %-24s %8lld", "cluster total", (long long)on);
	for (size_t k = 0; k < kinds; k++)
		fprintf(out, " %*lld", (int)strlen(inventory_pool_kind_noun(k)) + 7,
			(long long)tot[k]);
	fprintf(out, "\n");
}

/* One line per namespace of the placement scope of a site, then of the
 * scope of each of its pools with one of its own (the burst pool's). */
static void
scope_lines(FILE *out, struct arena *a, const struct spec_site *s, const struct inventory *inv)
{
	const struct inv_pool *fo = inventory_failover_pool(inv);
	const struct spec_placement *pl = &s->placement;

	if (!places(s))
		return;
	if (!pl->namespace_count)
		fprintf(out, "    %-24s %s placement%s: hybrid nodes, then %s%s\n",
			"(every namespace)", s->name,
			has_selector(pl->pod_selector) ? " (podSelector)" : "",
			fo ? "NodePool " : "no cloud pool", fo ? fo->name : "");
	for (size_t i = 0; i < pl->namespace_count; i++)
		fprintf(out, "    %-24s %s placement%s: hybrid nodes, then %s%s\n",
			pl->namespaces[i], s->name,
			has_selector(pl->pod_selector) ? " (podSelector)" : "",
			fo ? "NodePool " : "no cloud pool", fo ? fo->name : "");
	for (size_t k = 0; k < inv->pool_count; k++) {
		const struct inv_pool *p = &inv->pools[k];
		const struct inv_scope *sc = p->scope;

		for (size_t i = 0; sc && i < sc->namespace_count; i++)
			fprintf(out,
				"    %-24s %s %s%s: hybrid nodes, then NodePool %s (never the "
				"%s)\n",
				sc->namespaces[i], s->name, p->noun,
				has_selector(sc->pod_selector) ? " (podSelector)" : "", p->name,
				inventory_excludes_text(a, sc));
	}
}

/* Whether a site has a pool of that noun. */
static bool
has_pool(const struct inventory *inv, const char *noun)
{
	for (size_t i = 0; i < inv->pool_count; i++)
		if (!strcmp(inv->pools[i].noun, noun))
			return true;
	return false;
}

/* The sites whose scope can reach pool `p` of site `owner`: its own scope
 * for the pool, and, when the pool is shared, that of every site not
 * bound to its own nodes (siteBinding preferred or none) that has a scope
 * for such a pool: another site's Pods tolerate only their own site's
 * taint.  The placement scope never tolerates a pool's own taint (the
 * burst pool's); a pool's own scope never takes the pools it excludes. */
static size_t
reaching(struct arena *a, const struct spec_fleet *f, const char *cluster,
	 const struct spec_site *owner, const struct inv_pool *p, const char **first_other)
{
	size_t n = 0;

	*first_other = NULL;
	for (size_t i = 0; i < f->count; i++) {
		const struct spec_site *t = f->sites[i];

		if (strcmp(t->cluster.name, cluster) || !places(t) ||
		    (p->scope && !has_pool(inventory_site(a, t), p->noun)))
			continue;
		if (t != owner &&
		    (t->placement.site_binding == BIND_REQUIRED || explain_pool_site_taint(p)))
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
			size_t n = reaching(a, f, cluster, s, p, &other);

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

/* The cluster's pools against the site taint: how many carry their
 * site's, what a DaemonSet needs to run on them, and the shared ones. */
static void
site_taints(FILE *out, struct arena *a, const struct spec_fleet *f, const char *cluster)
{
	size_t pools = 0, exclusive = 0;
	const char *shared = "";

	for (size_t i = 0; i < f->count; i++) {
		const struct inventory *inv;

		if (strcmp(f->sites[i]->cluster.name, cluster))
			continue;
		inv = inventory_site(a, f->sites[i]);
		for (size_t k = 0; k < inv->pool_count; k++) {
			const struct inv_pool *p = &inv->pools[k];

			pools++;
			if (explain_pool_site_taint(p))
				exclusive++;
			else
				shared = arena_printf(a, "%s%s%s", shared, *shared ? ", " : "",
						      p->name);
		}
	}
	if (exclusive)
		fprintf(out,
			"  site taint: %zu of the %zu GPU pools carry their site's taint "
			"(%s=<site>:%s):"
			" a DaemonSet that must run on their nodes needs the toleration {key: %s,"
			" operator: Exists}, and a Pod that tolerates every taint still lands "
			"there\n",
			exclusive, pools, INV_SITE_TAINT_KEY, INV_POOL_TAINT_EFFECT,
			INV_SITE_TAINT_KEY);
	if (*shared)
		fprintf(out,
			"  site taint: none on %s (exclusive: false): shared, any Pod that "
			"tolerates"
			" their taints lands on them\n",
			shared);
}

void
explain_cluster(FILE *out, struct arena *a, const struct spec_fleet *f, const char *cluster)
{
	size_t sites = 0;

	for (size_t i = 0; i < f->count; i++)
		sites += !strcmp(f->sites[i]->cluster.name, cluster);
	fprintf(out, "cluster %s (%zu site%s)\n", cluster, sites, sites == 1 ? "" : "s");
	capacity_table(out, a, f, cluster);
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
		scope_lines(out, a, s, inv);
	}
	reachability(out, a, f, cluster);
	site_taints(out, a, f, cluster);
}
