/*
 * argocd_fleet.h - which sites and which objects one plugin run prints.
 *
 * Argo CD applies a stream to one destination.  So the objects that live
 * in a cluster (`objects: cluster` or `all`) may come from one cluster's
 * sites only, while the Argo CD Applications (`objects: argocd`) go to
 * the hub and may span the fleet.  What lives where is decided by one
 * function here (argocd_object_is_hub).
 *
 * The objects the sites of a cluster share (render_object.site == NULL:
 * the GPU stack Application and the fallback device plugin Application)
 * go to one Application when several Applications render sites of the
 * same cluster (the `shared-objects` setting).  With one hub Application
 * rendering `objects: argocd` for the fleet, every stack has one owner
 * anyway; the setting still decides for per-site Applications of an
 * Argo CD inside the cluster (`objects: all` with `sites`).
 */
#ifndef GS_ARGOCD_FLEET_H
#define GS_ARGOCD_FLEET_H

#include <stdbool.h>
#include <stddef.h>

#include "argocd/argocd_settings.h"
#include "base/diag.h"

struct arena;
struct render_object;
struct render_result;
struct spec_fleet;

/* Is `o` applied by the hub Argo CD (its apiVersion group is
 * argoproj.io), not in the destination cluster? */
bool argocd_object_is_hub(const struct render_object *o);

/* Does `objects` keep `o`? */
bool argocd_objects_keep(enum argocd_objects objects, const struct render_object *o);

/*
 * Check `sites` and `cluster` against the fleet and narrow g->sites to
 * the selection (the named sites, else every site of the named clusters;
 * NULL for all).  Errors: a `sites` name matching no site (GS124), a
 * `cluster` name no site has, a named site outside the named clusters
 * (GS128), and cluster objects of more than one cluster in one stream
 * (GS118, for objects cluster and all).  Returns 0, or -1 after them.
 */
int argocd_select(struct argocd_settings *g, struct arena *a, struct diags *d,
		  const struct argocd_env *e, const struct spec_fleet *fleet);

/*
 * The sites to render: the selected ones, plus every other site of a
 * cluster whose shared objects this Application carries, so those objects
 * are the same bytes whichever Application renders them.  NULL for all.
 */
const char **argocd_render_sites(size_t *count, struct arena *a, const struct argocd_settings *g,
				 const struct spec_fleet *fleet);

/*
 * Keep what this Application carries: the selected sites' objects, the
 * shared objects of the clusters it carries, and of those only what
 * `objects` keeps.  The stream stays in render order.  Returns how many
 * shared objects were left to other Applications.
 */
size_t argocd_keep_carried(struct render_result *r, const struct argocd_settings *g,
			   const struct spec_fleet *fleet);

#endif
