/*
 * render.c - the driver: select sites, run every artifact kind of
 * render_kinds[] over them, sort the stream.
 */
#include <stdlib.h>
#include <string.h>

#include "base/strlist.h"
#include "base/arena.h"
#include "render/render.h"
#include "render/render_util.h"

/* The one table of artifact kinds, in stream order. */
const struct render_kind *const render_kinds[] = {
	&render_kind_nodeconfig,
	&render_kind_nodepool,
	&render_kind_ec2nodeclass,
	&render_kind_gpustack,
	&render_kind_fallback_plugin,
	&render_kind_placement_kyverno,
	&render_kind_placement_clusterpolicy,
	&render_kind_placement_map,
	&render_kind_alerts,
};
const size_t render_kinds_count = sizeof(render_kinds) / sizeof(render_kinds[0]);

/* Room for every API of render_kinds[]; test_render checks it suffices. */
#define MAX_APIS 32

static bool
api_listed(const struct render_api *apis, size_t n, const struct render_api *x)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(apis[i].group, x->group) && !strcmp(apis[i].version, x->version) &&
		    !strcmp(apis[i].kind, x->kind))
			return true;
	return false;
}

size_t
render_apis(const struct render_api *const **out)
{
	static struct render_api apis[MAX_APIS];
	static const struct render_api *ptrs[MAX_APIS];
	static size_t n;

	if (!n) {
		for (size_t k = 0; k < render_kinds_count; k++) {
			const struct render_kind *rk = render_kinds[k];
			struct render_api x = { rk->group,     rk->version,    rk->kind,
						rk->plural,    rk->namespaced, rk->crd,
						rk->unchecked, rk->live };

			if (n < MAX_APIS && !api_listed(apis, n, &x))
				apis[n++] = x;
			for (size_t j = 0; j < rk->more_count; j++)
				if (n < MAX_APIS && !api_listed(apis, n, &rk->more[j]))
					apis[n++] = rk->more[j];
		}
		for (size_t i = 0; i < n; i++)
			ptrs[i] = &apis[i];
	}
	*out = ptrs;
	return n;
}

const struct render_api *
render_api_find(const char *group, const char *kind)
{
	const struct render_api *const *apis;
	size_t n = render_apis(&apis);

	for (size_t i = 0; i < n; i++)
		if (!strcmp(apis[i]->group, group) && !strcmp(apis[i]->kind, kind))
			return apis[i];
	return NULL;
}

int
render_kube_minor(const struct spec_site *site, const struct render_options *opt)
{
	if (opt && opt->kube_minor > 0)
		return opt->kube_minor;
	if (site->cluster.kube_minor > 0)
		return site->cluster.kube_minor;
	return 36;
}

const char *
render_map_api_version(int kube_minor)
{
	return kube_minor >= 36 ? "admissionregistration.k8s.io/v1"
				: "admissionregistration.k8s.io/v1beta1";
}

static int
object_cmp(const void *pa, const void *pb)
{
	const struct render_object *a = pa, *b = pb;
	int c;

	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	if ((c = strcmp(a->namespace, b->namespace)))
		return c;
	if ((c = strcmp(a->name, b->name)))
		return c;
	return strcmp(a->kind, b->kind);
}

static int
file_cmp(const void *pa, const void *pb)
{
	const struct render_file *a = pa, *b = pb;

	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	return strcmp(a->path, b->path);
}

int
render_object_cmp(const void *a, const void *b)
{
	return object_cmp(a, b);
}

int
render_file_cmp(const void *a, const void *b)
{
	return file_cmp(a, b);
}

static const char *
cluster_of(const struct spec_site *s)
{
	return s->cluster.name ? s->cluster.name : "";
}

static bool
site_selected(const struct render_options *opt, const struct spec_site *s)
{
	return (!opt->sites || str_listed(s->name, opt->sites, opt->site_count)) &&
	       (!opt->clusters || str_listed(cluster_of(s), opt->clusters, opt->cluster_count));
}

/* The fleet's cluster names, comma-separated, for a message. */
static const char *
cluster_names(struct arena *a, const struct spec_fleet *fleet)
{
	const char *out = "";

	for (size_t i = 0; i < fleet->count; i++) {
		const char *c = cluster_of(fleet->sites[i]);
		size_t j = 0;

		while (j < i && strcmp(cluster_of(fleet->sites[j]), c))
			j++;
		if (j == i)
			out = arena_printf(a, "%s%s%s", out, *out ? ", " : "", c);
	}
	return *out ? out : "none";
}

static bool
cluster_known(const struct spec_fleet *fleet, const char *cluster)
{
	for (size_t i = 0; i < fleet->count; i++)
		if (!strcmp(cluster_of(fleet->sites[i]), cluster))
			return true;
	return false;
}

/* A selected site by cluster, then by its place in the selection. */
struct cluster_ent {
	const char *cluster;
	size_t pos;
};

static int
cluster_ent_cmp(const void *pa, const void *pb)
{
	const struct cluster_ent *a = pa, *b = pb;
	int c = strcmp(a->cluster, b->cluster);

	if (c)
		return c;
	return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/* qsort has no payload: the entries the group starts index, for the
 * comparison below only. */
static const struct cluster_ent *group_sort_ents;

/* Groups (start index into the sorted entries) by their first site. */
static int
group_start_cmp(const void *pa, const void *pb)
{
	size_t a = group_sort_ents[*(const size_t *)pa].pos;
	size_t b = group_sort_ents[*(const size_t *)pb].pos;

	return a < b ? -1 : a > b;
}

/*
 * Run kind->render_cluster once per cluster, in the order of each
 * cluster's first selected site, with that cluster's sites in selection
 * order.  Sorting once keeps this O(n log n) in time and O(n) in memory
 * (a scan per site and an array of every site per cluster made 10,000
 * sites take seconds and 800 MB).
 */
static int
render_clusters(struct render_ctx *ctx, const struct render_kind *kind,
		const struct spec_site **sel, size_t nsel)
{
	struct arena *a = ctx->arena;
	struct cluster_ent *ents = arena_alloc(a, (nsel + 1) * sizeof(*ents));
	size_t *starts = arena_alloc(a, (nsel + 1) * sizeof(*starts));
	size_t ngroups = 0;
	int rc = 0;

	for (size_t i = 0; i < nsel; i++) {
		ents[i].cluster = cluster_of(sel[i]);
		ents[i].pos = i;
	}
	qsort(ents, nsel, sizeof(*ents), cluster_ent_cmp);
	for (size_t i = 0; i < nsel; i++)
		if (i == 0 || strcmp(ents[i].cluster, ents[i - 1].cluster))
			starts[ngroups++] = i;
	group_sort_ents = ents;
	qsort(starts, ngroups, sizeof(*starts), group_start_cmp);
	for (size_t g = 0; g < ngroups; g++) {
		size_t first = starts[g], end = first, n;
		const struct spec_site **group;

		while (end < nsel && !strcmp(ents[end].cluster, ents[first].cluster))
			end++;
		n = end - first;
		group = arena_alloc(a, n * sizeof(*group));
		for (size_t j = 0; j < n; j++)
			group[j] = sel[ents[first + j].pos];
		if (kind->render_cluster(ctx, (const struct spec_site *const *)group, n) < 0)
			rc = -1;
	}
	return rc;
}

int
render_fleet(struct render_result *out, struct arena *a, struct diags *d,
	     const struct spec_fleet *fleet, const struct render_options *opt)
{
	static const struct render_options defaults; /* all zero: every site, no files */
	const struct pos nowhere = POS_NONE;
	const struct spec_site **sel;
	const struct inventory **invs;
	struct render_ctx ctx;
	size_t nsel = 0, i, k;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (!opt)
		opt = &defaults;
	ctx.arena = a;
	ctx.diags = d;
	ctx.opt = opt;
	ctx.out = out;
	ctx.inv = NULL;

	/* Every name asked for must name a site: a typo is never an empty
	 * success that Argo CD would take as "prune everything". */
	for (i = 0; opt->sites && i < opt->site_count; i++) {
		if (!spec_fleet_find(fleet, opt->sites[i]))
			rc = diag_report(d, nowhere, RENDER_RULE_UNKNOWN_SITE, "",
					 "no site is named '%s' (%zu site%s read): check the"
					 " name against metadata.name",
					 opt->sites[i], fleet->count, fleet->count == 1 ? "" : "s");
	}
	for (i = 0; opt->clusters && i < opt->cluster_count; i++) {
		if (!cluster_known(fleet, opt->clusters[i]))
			rc = diag_report(d, nowhere, RENDER_RULE_UNKNOWN_SITE, "",
					 "no site is in cluster '%s' (clusters: %s): check the"
					 " name against spec.cluster.name",
					 opt->clusters[i], cluster_names(a, fleet));
	}
	if (rc)
		return -1;

	sel = arena_alloc(a, (fleet->count + 1) * sizeof(*sel));
	for (i = 0; i < fleet->count; i++)
		if (site_selected(opt, fleet->sites[i]))
			sel[nsel++] = fleet->sites[i];
	invs = arena_alloc(a, (nsel + 1) * sizeof(*invs));
	for (i = 0; i < nsel; i++)
		invs[i] = inventory_site(a, sel[i]);

	for (k = 0; k < render_kinds_count; k++) {
		const struct render_kind *kind = render_kinds[k];

		for (i = 0; kind->render_site && i < nsel; i++) {
			ctx.inv = invs[i];
			if (kind->render_site(&ctx, sel[i]) < 0)
				rc = -1;
		}
		ctx.inv = NULL;
		/* Sites come sorted by name; each cluster is rendered once,
		 * from all its selected sites, at its first site. */
		if (kind->render_cluster && render_clusters(&ctx, kind, sel, nsel) < 0)
			rc = -1;
	}
	if (rc)
		return -1;
	if (opt->keep) {
		size_t kept = 0;

		for (i = 0; i < out->count; i++)
			if (opt->keep(&out->objects[i], opt->keep_arg))
				out->objects[kept++] = out->objects[i];
		out->count = kept;
	}
	/* Shared objects may change owner in Argo CD: see render.h. */
	for (i = 0; i < out->count; i++)
		if (!out->objects[i].site)
			render_object_annotate(a, &out->objects[i], RENDER_SHARED_ANNOTATION,
					       RENDER_SHARED_SYNC_OPTIONS);
	if (out->count == 0)
		return diag_report(d, nowhere, RENDER_RULE_EMPTY, "",
				   nsel == 0 ? "nothing to render: no site spec was found;"
					       " point the command at the directory that holds"
					       " the GPUSite files"
					     : "nothing to render: the selected sites produce no"
					       " object; an empty stream would make Argo CD prune"
					       " everything");
	qsort(out->objects, out->count, sizeof(*out->objects), object_cmp);
	if (out->file_count > 1)
		qsort(out->files, out->file_count, sizeof(*out->files), file_cmp);
	return 0;
}
