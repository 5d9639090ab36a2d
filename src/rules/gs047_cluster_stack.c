/*
 * gs047_cluster_stack.c - the cluster-wide parts of a site:
 *   GS047 sites of one cluster render one GPU stack Application: the
 *         gpuStack and argocd blocks must agree;
 *   GS100 sites of one cluster must agree on the cluster's region,
 *         Kubernetes version and controller releases (cluster.versions: one
 *         cluster has one of each, and the versions pick what is rendered);
 *   GS107 sites of one cluster use one provisioner: Karpenter NodePools
 *         and EKS Auto Mode's built-in Karpenter must not both manage the
 *         cluster's fallback capacity.
 * Each site is compared with the first site of its cluster (position
 * order) and every differing field is reported at the later site, naming
 * where the first says otherwise.
 */
#include <string.h>

#include "base/arena.h"
#include "rules/rules_int.h"

struct pair {
	struct rule_ctx *c;
	const struct spec_site *first; /* the cluster's first site */
	const struct spec_site *s;     /* the site compared with it */
	const char *why;
	size_t found;
};

/* 'value', marked when the site did not write it */
static const char *
shown(struct rule_ctx *c, const char *v, bool written)
{
	if (!v || !*v)
		return "unset";
	return arena_printf(c->arena, "'%s'%s", rule_quote(v), written ? "" : " (the default)");
}

static bool
written(const struct node *map, const char *key)
{
	return map && map->kind == NODE_MAP && node_map_get(map, key);
}

static void
cmp_str(struct pair *p, const char *field, const char *a, const char *b, const struct node *amap,
	const struct node *bmap, const char *key)
{
	if (!strcmp(a ? a : "", b ? b : ""))
		return;
	p->found++;
	rule_report(p->c, p->s, rule_pos(p->s, bmap, key),
		    arena_printf(p->c->arena, "spec.%s", field),
		    "%s %s differs from %s in site '%s' of the same cluster "
		    "'%s': %s (first at %s)",
		    field, shown(p->c, b, written(bmap, key)), shown(p->c, a, written(amap, key)),
		    p->first->name, p->s->cluster.name, p->why,
		    rule_pos_text(p->c, rule_pos(p->first, amap, key)));
}

static void
cmp_bool(struct pair *p, const char *field, bool a, bool b, const struct node *amap,
	 const struct node *bmap, const char *key)
{
	cmp_str(p, field, a ? "true" : "false", b ? "true" : "false", amap, bmap, key);
}

static bool
values_equal(const struct node *a, const struct node *b)
{
	bool ea = !a || (a->kind == NODE_MAP && !a->map.count);
	bool eb = !b || (b->kind == NODE_MAP && !b->map.count);

	if (ea || eb)
		return ea && eb;
	return node_equal(a, b);
}

static const struct node *
node_map_get_or_null(const struct node *map, const char *key)
{
	return map && map->kind == NODE_MAP ? node_map_get(map, key) : NULL;
}

static void
compare_stack(struct pair *p)
{
	const struct spec_gpu_stack *a = &p->first->gpu_stack, *b = &p->s->gpu_stack;

	p->why = "the GPU stack is cluster-wide and rendered once, so every "
		 "site of a cluster must agree";
	if (a->type != b->type) {
		/* the chart defaults follow the type: one finding is enough */
		cmp_str(p, "gpuStack.type", spec_stack_type_name(a->type),
			spec_stack_type_name(b->type), a->src, b->src, "type");
		return;
	}
	cmp_str(p, "gpuStack.chart.repoURL", a->chart.repo_url, b->chart.repo_url, a->chart.src,
		b->chart.src, "repoURL");
	cmp_str(p, "gpuStack.chart.name", a->chart.name, b->chart.name, a->chart.src, b->chart.src,
		"name");
	cmp_str(p, "gpuStack.chart.version", a->chart.version, b->chart.version, a->chart.src,
		b->chart.src, "version");
	cmp_str(p, "gpuStack.chart.namespace", a->chart.namespace, b->chart.namespace, a->chart.src,
		b->chart.src, "namespace");
	cmp_bool(p, "gpuStack.gfd", a->gfd, b->gfd, a->src, b->src, "gfd");
	cmp_bool(p, "gpuStack.dcgmExporter", a->dcgm_exporter, b->dcgm_exporter, a->src, b->src,
		 "dcgmExporter");
	cmp_bool(p, "gpuStack.toolkit", a->toolkit, b->toolkit, a->src, b->src, "toolkit");
	if (!values_equal(a->values, b->values)) {
		p->found++;
		rule_report(p->c, p->s, rule_pos(p->s, b->src, "values"), "spec.gpuStack.values",
			    "gpuStack.values differ from those of site '%s' in the "
			    "same cluster '%s': %s (first at %s)",
			    p->first->name, p->s->cluster.name, p->why,
			    rule_pos_text(p->c, rule_pos(p->first, a->src, "values")));
	}
}

static void
compare_argocd(struct pair *p)
{
	const struct spec_argocd *a = &p->first->argocd, *b = &p->s->argocd;

	p->why = "the cluster's GPU stack Application is rendered once, so "
		 "every site of a cluster must agree";
	cmp_str(p, "argocd.namespace", a->namespace, b->namespace, a->src, b->src, "namespace");
	cmp_str(p, "argocd.project", a->project, b->project, a->src, b->src, "project");
	cmp_str(p, "argocd.destinationServer", a->destination_server, b->destination_server, a->src,
		b->src, "destinationServer");
	cmp_str(p, "argocd.destinationName", a->destination_name, b->destination_name, a->src,
		b->src, "destinationName");
	cmp_bool(p, "argocd.syncPolicy.automated", a->sync.automated, b->sync.automated,
		 a->sync.src, b->sync.src, "automated");
	cmp_bool(p, "argocd.syncPolicy.prune", a->sync.prune, b->sync.prune, a->sync.src,
		 b->sync.src, "prune");
	cmp_bool(p, "argocd.syncPolicy.selfHeal", a->sync.self_heal, b->sync.self_heal, a->sync.src,
		 b->sync.src, "selfHeal");
	if (!values_equal(node_map_get_or_null(a->sync.src, "retry"),
			  node_map_get_or_null(b->sync.src, "retry"))) {
		p->found++;
		rule_report(p->c, p->s, rule_pos(p->s, b->sync.src, "retry"),
			    "spec.argocd.syncPolicy.retry",
			    "argocd.syncPolicy.retry differs from that of site '%s' in the "
			    "same cluster '%s': %s (first at %s)",
			    p->first->name, p->s->cluster.name, p->why,
			    rule_pos_text(p->c, rule_pos(p->first, a->sync.src, "retry")));
	}
}

static void
compare_cluster(struct pair *p)
{
	const struct spec_cluster *a = &p->first->cluster, *b = &p->s->cluster;

	p->why = "one cluster has one region and one Kubernetes version";
	cmp_str(p, "cluster.region", a->region, b->region, a->src, b->src, "region");
	cmp_str(p, "cluster.kubernetesVersion", a->kubernetes_version, b->kubernetes_version,
		a->src, b->src, "kubernetesVersion");
	p->why = "one cluster runs one release of each controller, and the release picks what "
		 "is rendered (Gte or Gt) and what is checked";
	cmp_str(p, "cluster.versions.karpenter", node_str(a->karpenter_version.src),
		node_str(b->karpenter_version.src), a->versions_src, b->versions_src, "karpenter");
	cmp_str(p, "cluster.versions.kyverno", node_str(a->kyverno_version.src),
		node_str(b->kyverno_version.src), a->versions_src, b->versions_src, "kyverno");
}

static void
compare_provisioner(struct pair *p)
{
	const struct spec_cluster *a = &p->first->cluster, *b = &p->s->cluster;

	p->why = "one cluster runs either its own Karpenter or EKS Auto Mode, "
		 "never both: give every site of the cluster the same provisioner";
	cmp_str(p, "cluster.provisioner", spec_provisioner_name(a->provisioner),
		spec_provisioner_name(b->provisioner), a->src, b->src, "provisioner");
}

static void
compare_repeat(struct rule_ctx *c, const struct rule_occurrence *first,
	       const struct rule_occurrence *again, void *payload)
{
	void (*compare)(struct pair *) = *(void (**)(struct pair *))payload;
	struct pair p = { c, first->site, again->site, "", 0 };

	compare(&p);
}

static void
by_cluster(struct rule_ctx *c, const struct spec_fleet *f, void (*compare)(struct pair *))
{
	struct rule_occurrence *v;

	if (f->count < 2)
		return;
	v = arena_alloc(c->arena, f->count * sizeof(*v));
	for (size_t i = 0; i < f->count; i++) {
		const struct spec_site *s = f->sites[i];

		rule_occurrence_set(&v[i], s, s->cluster.name ? s->cluster.name : "",
				    s->doc ? s->doc->at : rule_pos(s, NULL, NULL), "");
	}
	rule_each_repeat(c, v, f->count, compare_repeat, &compare);
}

static void
check_gs047(struct rule_ctx *c, const struct spec_fleet *f)
{
	by_cluster(c, f, compare_stack);
	by_cluster(c, f, compare_argocd);
}

static void
check_gs100(struct rule_ctx *c, const struct spec_fleet *f)
{
	by_cluster(c, f, compare_cluster);
}

static void
check_gs107(struct rule_ctx *c, const struct spec_fleet *f)
{
	by_cluster(c, f, compare_provisioner);
}

/* The three compare the sites of one cluster: they meet by its name. */
static void
cluster_key(struct rule_keys *k, const struct spec_site *s)
{
	rule_key(k, s->cluster.name);
}

const struct rule rule_gs047 = {
	.id = "GS047",
	.check_fleet = check_gs047,
	.fleet_keys = cluster_key,
};

const struct rule rule_gs100 = {
	.id = "GS100",
	.check_fleet = check_gs100,
	.fleet_keys = cluster_key,
};

const struct rule rule_gs107 = {
	.id = "GS107",
	.check_fleet = check_gs107,
	.fleet_keys = cluster_key,
};
