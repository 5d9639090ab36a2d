/*
 * render_fallback_plugin.c - the NVIDIA device plugin of the cloud
 * fallback nodes that need one (docs/design/artifacts.md, "Fallback nodes").
 *
 * The EKS-optimized AL2023 NVIDIA AMI brings the driver and the container
 * toolkit but no device plugin; Bottlerocket's NVIDIA variant and EKS
 * Auto Mode bring their own.  So for every cluster with a Karpenter site
 * whose fallback.nodeImage is al2023, one more pinned Argo CD Application
 * (<cluster>-nvidia-device-plugin-fallback) installs the device-plugin
 * chart scoped to exactly those nodes: the NodePool template labels them
 * gpusite.io/node-image=al2023 (render_nodepool.c), hybrid nodes are
 * excluded by name, and the GPU taint is tolerated.  Every GPU node then
 * runs exactly one device plugin:
 *   hybrid node               -> the hybrid stack (render_gpustack.c)
 *   AL2023 fallback node      -> this one
 *   Bottlerocket / Auto Mode  -> none of gpusite's
 * With a gpu-operator hybrid stack the AL2023 fallback nodes get the same
 * device plugin: the operator's operands follow its NFD worker, which is
 * scoped to hybrid nodes, so the fallback nodes have no operand of it.
 */
#include <string.h>

#include "base/strlist.h"
#include "base/arena.h"
#include "render/render_fallback.h"
#include "render/render_util.h"

#define FALLBACK_PLUGIN_CHART "nvidia-device-plugin"
#define FALLBACK_PLUGIN_REPO "https://nvidia.github.io/k8s-device-plugin"
#define FALLBACK_PLUGIN_RELEASE INV_RELEASE_FALLBACK_PLUGIN

static const struct pos no_pos = POS_NONE;

bool
render_fallback_needs_plugin(const struct spec_site *s)
{
	return s->fallback.enabled && s->cluster.provisioner == PROV_KARPENTER &&
	       s->fallback.node_image == IMAGE_AL2023;
}

/* The pools this plugin covers on the sites whose fallback nodes run it:
 * every pool of such a site whose nodes boot the same image (the
 * inventory's plugin_covers), their node types and own taints, each once,
 * in the order the sites and their pools come. */
struct covered {
	const char **types;
	size_t type_count;
	const struct spec_taint **taints;
	size_t taint_count;
};

static void
covered_pools(struct arena *a, struct covered *c, const struct spec_site *const *sites,
	      size_t count)
{
	memset(c, 0, sizeof(*c));
	c->types = arena_alloc(a, (count * INV_POOL_MAX + 1) * sizeof(*c->types));
	c->taints = arena_alloc(a, (count * INV_POOL_MAX * 2 + 1) * sizeof(*c->taints));
	for (size_t i = 0; i < count; i++) {
		const struct inventory *inv = inventory_site(a, sites[i]);

		for (size_t k = 0; render_fallback_needs_plugin(sites[i]) && k < inv->pool_count;
		     k++) {
			const struct inv_pool *p = &inv->pools[k];

			if (!p->plugin_covers)
				continue;
			if (!str_listed(p->node_type, c->types, c->type_count))
				c->types[c->type_count++] = p->node_type;
			for (size_t pt = 0; pt < p->taint_count; pt++) {
				const struct spec_taint *own = &p->taints[pt];
				bool seen = false;

				for (size_t t = 0; t < c->taint_count; t++)
					seen |= !strcmp(c->taints[t]->key, own->key) &&
						!strcmp(c->taints[t]->effect, own->effect);
				if (!seen)
					c->taints[c->taint_count++] = own;
			}
		}
	}
}

/* The nodes this plugin may run on, as nodeSelector and as the affinity
 * that replaces the chart's default (NFD's PCI label, which no NFD worker
 * of gpusite puts on a fallback node).  Covering more than one pool (a
 * burst pool beside the fallback), the node type is the affinity's (any
 * of the pools'), which a nodeSelector cannot say. */
static struct node *
selector(struct arena *a, const struct covered *c)
{
	struct node *m = node_new_map(a, no_pos);

	node_map_add_str(a, m, INV_NODE_IMAGE_LABEL, "al2023");
	if (c->type_count == 1)
		node_map_add_str(a, m, INV_NODE_TYPE_LABEL, c->types[0]);
	return m;
}

static struct node *
affinity(struct arena *a, const struct covered *c)
{
	static const char *const al2023[] = { "al2023" };
	static const char *const hybrid[] = { RENDER_HYBRID_VALUE };
	struct node *aff = node_new_map(a, no_pos), *na, *req, *terms, *term, *exprs;

	na = node_map_add(a, aff, "nodeAffinity", node_new_map(a, no_pos));
	req = node_map_add(a, na, "requiredDuringSchedulingIgnoredDuringExecution",
			   node_new_map(a, no_pos));
	terms = node_map_add(a, req, "nodeSelectorTerms", node_new_seq(a, no_pos));
	term = node_new_map(a, no_pos);
	node_seq_push(a, terms, term);
	exprs = node_map_add(a, term, "matchExpressions", node_new_seq(a, no_pos));
	node_seq_push(a, exprs, render_requirement(a, INV_NODE_IMAGE_LABEL, "In", al2023, 1));
	node_seq_push(a, exprs,
		      render_requirement(a, INV_NODE_TYPE_LABEL, "In", c->types, c->type_count));
	node_seq_push(a, exprs, render_requirement(a, RENDER_HYBRID_LABEL, "NotIn", hybrid, 1));
	return aff;
}

struct node *
render_fallback_plugin_values(struct arena *a, const struct spec_site *const *sites, size_t count)
{
	struct node *v = node_new_map(a, no_pos), *tol, *gfd;
	struct render_kvs taints = { NULL, 0, 0 };
	struct covered c;

	covered_pools(a, &c, sites, count);
	node_map_add(a, v, "nodeSelector", selector(a, &c));
	node_map_add(a, v, "affinity", affinity(a, &c));
	tol = node_map_add(a, v, "tolerations", node_new_seq(a, no_pos));
	/* Helm replaces lists: the chart's default is repeated. */
	node_seq_push(a, tol, render_toleration(a, "CriticalAddonsOnly", "Exists", NULL, NULL, -1));
	/* the GPU taint of every site whose fallback nodes run this plugin */
	for (size_t i = 0; i < count; i++) {
		const struct spec_taint *t = &sites[i]->gpu_taint;

		if (render_fallback_needs_plugin(sites[i]))
			render_kvs_add(a, &taints, arena_printf(a, "%s\n%s", t->key, t->effect),
				       t->key);
	}
	render_kvs_sort(&taints);
	for (size_t i = 0; i < taints.count; i++)
		node_seq_push(a, tol,
			      render_toleration(a, taints.items[i].value, "Exists", NULL,
						strchr(taints.items[i].key, '\n') + 1, -1));
	/* the covered pools' own taints (the burst nodes') */
	for (size_t i = 0; i < c.taint_count; i++)
		node_seq_push(a, tol,
			      render_toleration(a, c.taints[i]->key, "Exists", NULL,
						c.taints[i]->effect, -1));
	/* No second NFD in the cluster: GFD (which brings NFD) stays off. */
	gfd = node_map_add(a, v, "gfd", node_new_map(a, no_pos));
	node_map_add_bool(a, gfd, "enabled", false);
	return v;
}

const char *
render_node_image_name(enum spec_node_image img)
{
	return img == IMAGE_AL2023 ? "al2023" : img == IMAGE_BOTTLEROCKET ? "bottlerocket" : NULL;
}

const char *
render_fallback_plugin_app_name(struct arena *a, const char *cluster)
{
	return inventory_app_name(a, cluster, INV_ROLE_FALLBACK_PLUGIN_APP, STACK_DEVICE_PLUGIN);
}

static int
fallback_plugin_cluster(struct render_ctx *ctx, const struct spec_site *const *sites, size_t count)
{
	const struct spec_site *first = NULL;
	const struct spec_gpu_stack *st = &sites[0]->gpu_stack;
	const struct spec_argocd *ad = &sites[0]->argocd;
	struct arena *a = ctx->arena;
	const char *repo = FALLBACK_PLUGIN_REPO, *chart = FALLBACK_PLUGIN_CHART;
	const char *ns = FALLBACK_PLUGIN_CHART, *version;
	struct render_object *o;
	struct node *values;

	for (size_t i = 0; i < count && !first; i++)
		if (render_fallback_needs_plugin(sites[i]))
			first = sites[i];
	if (!first)
		return 0;
	/* The hybrid stack's own chart when it is the device plugin (same
	 * repository, chart and pin); else the fallback's pin. */
	if (st->type == STACK_DEVICE_PLUGIN) {
		if (st->chart.repo_url)
			repo = st->chart.repo_url;
		if (st->chart.name)
			chart = st->chart.name;
		if (st->chart.namespace)
			ns = st->chart.namespace;
		version = st->chart.version;
	} else {
		version = first->fallback.device_plugin_version &&
					  *first->fallback.device_plugin_version
				  ? first->fallback.device_plugin_version
				  : SPEC_FALLBACK_PLUGIN_VERSION;
	}
	values = render_fallback_plugin_values(a, sites, count);
	o = render_object_add(ctx, &render_kind_fallback_plugin, NULL, NULL,
			      ad->namespace ? ad->namespace : "argocd",
			      render_fallback_plugin_app_name(a, first->cluster.name), NULL,
			      first->cluster.name, NULL,
			      "the NVIDIA device plugin of the AL2023 fallback nodes"
			      " (whose AMI has driver and toolkit but no plugin),"
			      " pinned, only on nodes labelled " INV_NODE_IMAGE_LABEL
			      "=al2023 by the fallback"
			      " NodePool, tolerating the GPU taint; Bottlerocket and"
			      " Auto Mode nodes bring their own");
	/* its own release: objects named apart from the hybrid plugin's */
	render_helm_app_spec(a, o->obj, ad,
			     &(struct render_helm_app){
				     .repo_url = repo,
				     .chart = chart,
				     .version = version,
				     .release = FALLBACK_PLUGIN_RELEASE,
				     .values = values,
				     .namespace = ns,
				     .cluster = first->cluster.name,
				     .hub = ctx->opt->argocd_hub,
			     });

	if (ctx->opt->files)
		render_file_add(ctx, RENDER_FILE_VALUES,
				arena_printf(a, "%s/values-fallback.yaml", first->cluster.name),
				NULL, node_clone(a, values), false);
	return 0;
}

const struct render_kind render_kind_fallback_plugin = {
	RENDER_KIND_APPLICATION,
	.render_site = NULL,
	.render_cluster = fallback_plugin_cluster,
	.unchecked = NULL,
};
