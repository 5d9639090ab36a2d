/*
 * render_gpustack.c - the GPU stack of a cluster as one pinned Argo CD
 * Application (argoproj.io/v1alpha1) with helm.valuesObject, scoped to the
 * hybrid nodes (docs/design/artifacts.md, "GPU stack"; docs/design/upstream.md, "The NVIDIA charts"), and
 * the same values as a plain file for `render --values DIR`.
 */
#include <string.h>

#include "base/arena.h"
#include "render/render_util.h"

static const struct pos no_pos = POS_NONE;

/* {eks.amazonaws.com/compute-type: hybrid}: nodeadm sets it on every
 * hybrid node; Auto Mode and Bottlerocket GPU nodes bring their own
 * plugin and never carry it. */
static struct node *
hybrid_selector(struct arena *a)
{
	struct node *m = node_new_map(a, no_pos);

	node_map_add_str(a, m, RENDER_HYBRID_LABEL, RENDER_HYBRID_VALUE);
	return m;
}

/* Tolerations (operator Exists) for the GPU taint, then for every other
 * taint key/effect the sites' node groups register, in one fixed order. */
static void
add_taint_tolerations(struct arena *a, struct node *seq, const struct spec_site *const *sites,
		      size_t count)
{
	const struct spec_taint *gpu = &sites[0]->gpu_taint;
	struct render_kvs extra = { NULL, 0, 0 };

	node_seq_push(a, seq, render_toleration(a, gpu->key, "Exists", NULL, gpu->effect, -1));
	for (size_t s = 0; s < count; s++) {
		const struct spec_site *site = sites[s];

		for (size_t g = 0; g < site->group_count; g++) {
			const struct spec_node_group *grp = &site->groups[g];

			for (size_t t = 0; t < grp->taint_count; t++) {
				const struct spec_taint *tn = &grp->taints[t];

				if (!strcmp(tn->key, gpu->key) && !strcmp(tn->effect, gpu->effect))
					continue;
				/* key + '\n' + effect sorts by key, then effect */
				render_kvs_add(a, &extra,
					       arena_printf(a, "%s\n%s", tn->key, tn->effect),
					       tn->key);
			}
		}
	}
	render_kvs_sort(&extra);
	for (size_t i = 0; i < extra.count; i++) {
		const char *effect = strchr(extra.items[i].key, '\n') + 1;

		node_seq_push(
			a, seq,
			render_toleration(a, extra.items[i].value, "Exists", NULL, effect, -1));
	}
}

static struct node *
enabled(struct arena *a, bool on)
{
	struct node *m = node_new_map(a, no_pos);

	node_map_add_bool(a, m, "enabled", on);
	return m;
}

/* The NFD worker: only on hybrid nodes, tolerating the GPU taint with
 * Exists (the device-plugin chart's default is Equal "present", which
 * does not tolerate the seed's value "Exists"). */
static struct node *
nfd_worker(struct arena *a, const struct spec_site *const *sites, size_t count)
{
	struct node *nfd = node_new_map(a, no_pos), *w;

	w = node_map_add(a, nfd, "worker", node_new_map(a, no_pos));
	node_map_add(a, w, "nodeSelector", hybrid_selector(a));
	add_taint_tolerations(a, node_map_add(a, w, "tolerations", node_new_seq(a, no_pos)), sites,
			      count);
	return nfd;
}

void
render_values_merge(struct arena *a, struct node *base, const struct node *over)
{
	if (!base || !over || base->kind != NODE_MAP || over->kind != NODE_MAP)
		return;
	for (size_t i = 0; i < over->map.count; i++) {
		const char *key = node_str(over->map.pairs[i].key);
		const struct node *ov = over->map.pairs[i].value;
		struct node *bv;

		if (!key)
			key = node_text(over->map.pairs[i].key);
		if (!key)
			continue;
		bv = node_map_get(base, key);
		if (bv && bv->kind == NODE_MAP && ov && ov->kind == NODE_MAP)
			render_values_merge(a, bv, ov);
		else
			node_map_set(a, base, key, node_clone(a, ov));
	}
}

struct node *
render_gpustack_values(struct arena *a, const struct spec_site *const *sites, size_t count)
{
	const struct spec_gpu_stack *st = &sites[0]->gpu_stack;
	struct node *v = node_new_map(a, no_pos), *tol;

	if (st->type == STACK_GPU_OPERATOR) {
		struct node *ds;

		/* Host drivers are customer-managed on hybrid nodes. */
		node_map_add(a, v, "driver", enabled(a, false));
		node_map_add(a, v, "toolkit", enabled(a, st->toolkit));
		node_map_add(a, v, "dcgmExporter", enabled(a, st->dcgm_exporter));
		node_map_add(a, v, "gfd", enabled(a, st->gfd));
		ds = node_map_add(a, v, "daemonsets", node_new_map(a, no_pos));
		add_taint_tolerations(a,
				      node_map_add(a, ds, "tolerations", node_new_seq(a, no_pos)),
				      sites, count);
		/* Operands are created at runtime on the nodes NFD labels, so
		 * scoping the NFD worker scopes every operand. */
		node_map_add(a, v, "node-feature-discovery", nfd_worker(a, sites, count));
	} else {
		node_map_add(a, v, "nodeSelector", hybrid_selector(a));
		tol = node_map_add(a, v, "tolerations", node_new_seq(a, no_pos));
		/* Helm replaces lists: the chart's default is repeated. */
		node_seq_push(a, tol,
			      render_toleration(a, "CriticalAddonsOnly", "Exists", NULL, NULL, -1));
		add_taint_tolerations(a, tol, sites, count);
		node_map_add(a, v, "gfd", enabled(a, st->gfd));
		if (st->gfd)
			node_map_add(a, v, "nfd", nfd_worker(a, sites, count));
	}
	if (st->values && st->values->kind == NODE_MAP)
		render_values_merge(a, v, st->values);
	return v;
}

static const char *
stack_app_suffix(enum spec_stack_type t)
{
	return inventory_stack_release(t);
}

static const char *
default_repo(enum spec_stack_type t)
{
	return t == STACK_GPU_OPERATOR ? "https://helm.ngc.nvidia.com/nvidia"
				       : "https://nvidia.github.io/k8s-device-plugin";
}

/* A cluster name is the value of the gpusite.io/cluster label: at most 63
 * characters, ending in a letter or digit (the schema allows 100 and a
 * trailing '-' or '_'). */
static bool
label_value_ok(const char *v)
{
	size_t n = strlen(v);

	if (n > 63)
		return false;
	if (n && !((v[n - 1] >= 'a' && v[n - 1] <= 'z') || (v[n - 1] >= 'A' && v[n - 1] <= 'Z') ||
		   (v[n - 1] >= '0' && v[n - 1] <= '9')))
		return false;
	return true;
}

/* How Argo CD gets the one Application of several sites (render.h). */
#define SHARED_PURPOSE                                                                             \
	"; one object for all the cluster's sites: in Argo CD only the"                            \
	" application of the site first by name carries it (shared-objects),"                      \
	" with Prune=false and no finalizer, so a change of owner leaves the"                      \
	" stack running"

static int
gpustack_cluster(struct render_ctx *ctx, const struct spec_site *const *sites, size_t count)
{
	const struct spec_site *first = sites[0];
	const struct spec_gpu_stack *st = &first->gpu_stack;
	const struct spec_argocd *ad = &first->argocd;
	struct arena *a = ctx->arena;
	const char *cluster = first->cluster.name;
	const char *chart = st->chart.name ? st->chart.name : stack_app_suffix(st->type);
	const char *ns = st->chart.namespace ? st->chart.namespace : stack_app_suffix(st->type);
	struct render_object *o;
	struct node *values;

	if (!label_value_ok(cluster))
		return diag_report(ctx->diags, spec_field_pos(first->cluster.src, "name"),
				   RENDER_RULE_NAME, "spec.cluster.name",
				   "cluster name '%s' cannot be the value of the %s label of the"
				   " cluster's GPU stack Application (at most 63 characters,"
				   " ending in a letter or digit): shorten it",
				   cluster, INV_CLUSTER_LABEL);
	values = render_gpustack_values(a, sites, count);
	o = render_object_add(ctx, &render_kind_gpustack, NULL, NULL,
			      ad->namespace ? ad->namespace : "argocd",
			      inventory_app_name(a, cluster, INV_ROLE_GPU_STACK_APP, st->type),
			      NULL, cluster, NULL,
			      st->type == STACK_GPU_OPERATOR
				      ? "the NVIDIA GPU Operator of the cluster, pinned, driver"
					" off, NFD worker (and so every operand) only on hybrid"
					" nodes, tolerating the GPU taint" SHARED_PURPOSE
				      : "the NVIDIA device plugin of the cluster, pinned, only on"
					" hybrid nodes, tolerating the GPU taint (GFD and NFD"
					" scoped the same way)" SHARED_PURPOSE);
	render_helm_app_spec(a, o->obj, ad,
			     &(struct render_helm_app){
				     .repo_url = st->chart.repo_url ? st->chart.repo_url
								    : default_repo(st->type),
				     .chart = chart,
				     .version = st->chart.version,
				     .release = chart,
				     .values = values,
				     .namespace = ns,
				     .cluster = cluster,
				     .hub = ctx->opt->argocd_hub,
			     });

	if (ctx->opt->files)
		render_file_add(ctx, RENDER_FILE_VALUES, arena_printf(a, "%s/values.yaml", cluster),
				NULL, node_clone(a, values), false);
	return 0;
}

const struct render_kind render_kind_gpustack = {
	RENDER_KIND_APPLICATION,
	.render_site = NULL,
	.render_cluster = gpustack_cluster,
	.unchecked = NULL,
};
