/*
 * argocd_fleet.c - the sites and objects of one plugin run: selection by
 * `sites` and `cluster`, the one-cluster rule for cluster objects, the
 * owner of a cluster's shared objects, and the `objects` split.
 */
#include <string.h>

#include "argocd/argocd_fleet.h"
#include "base/arena.h"
#include "render/render.h"
#include "spec/spec.h"

bool
argocd_object_is_hub(const struct render_object *o)
{
	static const char group[] = "argoproj.io/";

	return o->api_version && !strncmp(o->api_version, group, sizeof(group) - 1);
}

bool
argocd_objects_keep(enum argocd_objects objects, const struct render_object *o)
{
	switch (objects) {
	case ARGOCD_OBJECTS_CLUSTER: return !argocd_object_is_hub(o);
	case ARGOCD_OBJECTS_ARGOCD: return argocd_object_is_hub(o);
	case ARGOCD_OBJECTS_ALL: break;
	}
	return true;
}

/* Every requested name must be a site: never an empty success. */
static int
check_site_names(struct arena *a, struct diags *d, const struct argocd_env *e,
		 const struct argocd_settings *g, const struct spec_fleet *fleet)
{
	struct argocd_setting s;
	char *known = arena_strdup(a, "");
	int ret = 0;

	argocd_setting_lookup(&s, a, e, "sites", 0);
	for (size_t i = 0; i < fleet->count && i < 20; i++)
		known = arena_printf(a, "%s%s%s", known, i ? ", " : "", fleet->sites[i]->name);
	if (fleet->count > 20)
		known = arena_printf(a, "%s, ... (%zu in all)", known, fleet->count);
	for (size_t i = 0; i < g->site_count; i++) {
		if (spec_fleet_find(fleet, g->sites[i]))
			continue;
		ret = diag_report(
			d, argocd_setting_pos(&s), ARGOCD_RULE_OUTPUT, "",
			"no site is named '%s' under the application path (sites: %s): fix "
			"the 'sites' setting or the site's metadata.name",
			g->sites[i], fleet->count ? known : "none");
	}
	return ret;
}

static const char *
cluster_of(const struct spec_site *s)
{
	return s->cluster.name ? s->cluster.name : "";
}

static bool
is_selected(const struct argocd_settings *g, const char *name)
{
	if (!g->site_count)
		return true;
	for (size_t i = 0; i < g->site_count; i++) {
		if (!strcmp(g->sites[i], name))
			return true;
	}
	return false;
}

/*
 * The owner of a cluster's shared objects: the site with the smallest
 * metadata.name among all sites of the cluster under the application
 * path, selected or not, so every Application of a fleet agrees on it
 * whatever its `sites` setting.
 */
static const struct spec_site *
cluster_owner(const struct spec_fleet *fleet, const char *cluster)
{
	const struct spec_site *owner = NULL;

	for (size_t i = 0; i < fleet->count; i++) {
		const struct spec_site *s = fleet->sites[i];

		if (!strcmp(cluster_of(s), cluster) && (!owner || strcmp(s->name, owner->name) < 0))
			owner = s;
	}
	return owner;
}

/* Does this Application carry the shared objects of `cluster`? */
static bool
carries_cluster(const struct argocd_settings *g, const struct spec_fleet *fleet,
		const char *cluster)
{
	const struct spec_site *owner;
	bool any = false;

	if (g->shared == ARGOCD_SHARED_NONE)
		return false;
	for (size_t i = 0; i < fleet->count && !any; i++)
		any = !strcmp(cluster_of(fleet->sites[i]), cluster) &&
		      is_selected(g, fleet->sites[i]->name);
	if (!any || g->shared == ARGOCD_SHARED_ALL)
		return any;
	owner = cluster_owner(fleet, cluster);
	return owner && is_selected(g, owner->name);
}

/*
 * The sites to render: the selected ones, plus every other site of a
 * cluster whose shared objects this Application carries, so that those
 * objects (the GPU stack's tolerations cover every site's node-group
 * taints) are the same bytes whichever Application renders them.  NULL
 * for all sites.
 */
const char **
argocd_render_sites(size_t *count, struct arena *a, const struct argocd_settings *g,
		    const struct spec_fleet *fleet)
{
	const char **names;
	size_t n = 0;

	*count = 0;
	if (!g->site_count)
		return NULL;
	names = arena_alloc(a, (fleet->count + 1) * sizeof(*names));
	for (size_t i = 0; i < fleet->count; i++) {
		const struct spec_site *s = fleet->sites[i];

		if (is_selected(g, s->name) || carries_cluster(g, fleet, cluster_of(s)))
			names[n++] = s->name;
	}
	*count = n;
	return names;
}

/*
 * Keep what this Application carries: the objects of the selected sites,
 * and the shared objects of the clusters it carries.  The stream stays
 * in render order (a subsequence of a sorted stream is sorted).  Returns
 * how many shared objects were left to other Applications.
 */
size_t
argocd_keep_carried(struct render_result *r, const struct argocd_settings *g,
		    const struct spec_fleet *fleet)
{
	size_t kept = 0, dropped = 0;

	for (size_t i = 0; i < r->count; i++) {
		const struct render_object *o = &r->objects[i];
		bool keep = o->site ? is_selected(g, o->site)
				    : carries_cluster(g, fleet, o->cluster ? o->cluster : "");

		if (keep && !argocd_objects_keep(g->objects, o))
			continue;

		if (keep)
			r->objects[kept++] = *o;
		else
			dropped += !o->site;
	}
	r->count = kept;
	return dropped;
}

static bool
in_names(const char *const *names, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(names[i], s))
			return true;
	}
	return false;
}

/* "a, b and c" of at most 10 names, then "(N in all)". */
static char *
name_list(struct arena *a, const char *const *names, size_t n)
{
	char *s = arena_strdup(a, "");

	for (size_t i = 0; i < n && i < 10; i++)
		s = arena_printf(a, "%s%s%s", s, i ? (i + 1 == n ? " and " : ", ") : "", names[i]);
	if (n > 10)
		s = arena_printf(a, "%s, ... (%zu in all)", s, n);
	return s;
}

/* The clusters of the fleet (`selected`: of the selected sites only),
 * in first-seen order, without repeats. */
static size_t
fleet_clusters(const char ***out, struct arena *a, const struct argocd_settings *g,
	       const struct spec_fleet *fleet, bool selected)
{
	const char **names = arena_alloc(a, (fleet->count + 1) * sizeof(*names));
	size_t n = 0;

	for (size_t i = 0; i < fleet->count; i++) {
		const struct spec_site *s = fleet->sites[i];

		if (selected && !is_selected(g, s->name))
			continue;
		if (!in_names(names, n, cluster_of(s)))
			names[n++] = cluster_of(s);
	}
	*out = names;
	return n;
}

int
argocd_select(struct argocd_settings *g, struct arena *a, struct diags *d,
	      const struct argocd_env *e, const struct spec_fleet *fleet)
{
	struct argocd_setting cs;
	const char **all, **spanned;
	size_t nall, nspanned;
	int ret = check_site_names(a, d, e, g, fleet);

	argocd_setting_lookup(&cs, a, e, "cluster", 0);
	nall = fleet_clusters(&all, a, g, fleet, false);
	for (size_t i = 0; i < g->cluster_count; i++) {
		if (in_names(all, nall, g->clusters[i]))
			continue;
		ret = diag_report(
			d, argocd_setting_pos(&cs), ARGOCD_RULE_CLUSTER, "",
			"no site under the application path is in cluster '%s' (clusters: "
			"%s): fix the 'cluster' setting or the sites' spec.cluster.name",
			g->clusters[i], nall ? name_list(a, all, nall) : "none");
	}
	if (ret < 0)
		return ret;
	if (g->cluster_count && g->site_count) {
		for (size_t i = 0; i < g->site_count; i++) {
			const struct spec_site *s = spec_fleet_find(fleet, g->sites[i]);

			if (s && in_names(g->clusters, g->cluster_count, cluster_of(s)))
				continue;
			ret = diag_report(
				d, argocd_setting_pos(&cs), ARGOCD_RULE_CLUSTER, "",
				"site '%s' is in cluster '%s', which the 'cluster' setting "
				"(%s) does not name: drop it from 'sites' or name its "
				"cluster",
				g->sites[i], s ? cluster_of(s) : "?",
				name_list(a, g->clusters, g->cluster_count));
		}
		if (ret < 0)
			return ret;
	} else if (g->cluster_count) {
		const char **names = arena_alloc(a, (fleet->count + 1) * sizeof(*names));
		size_t n = 0;

		for (size_t i = 0; i < fleet->count; i++) {
			if (in_names(g->clusters, g->cluster_count, cluster_of(fleet->sites[i])))
				names[n++] = fleet->sites[i]->name;
		}
		g->sites = names;
		g->site_count = n;
	}
	if (g->objects == ARGOCD_OBJECTS_ARGOCD)
		return 0; /* the hub's Applications may span the fleet */
	nspanned = fleet_clusters(&spanned, a, g, fleet, true);
	if (nspanned > 1) {
		struct pos at = { g->cluster_count ? argocd_setting_pos(&cs).file : NULL, 0, 0 };

		return diag_report(
			d, at, ARGOCD_RULE_FLEET, "",
			"the selected sites are in %zu clusters (%s), but Argo CD applies "
			"one stream to one destination: set the 'cluster' setting to one of "
			"them (one Application per cluster), or objects: argocd for the hub's "
			"GPU-stack Applications",
			nspanned, name_list(a, spanned, nspanned));
	}
	return 0;
}
