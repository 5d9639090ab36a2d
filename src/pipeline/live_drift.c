/*
 * live_drift.c - the cluster as `drift` sees it: nodes, the GPU stack's
 * pods, the GPU pods of the placement and burst namespaces, each site's fallback
 * NodePool, its node class and NodeClaims, listed page by page into the
 * records of live/drift.h.
 */
#include <stdio.h>
#include <string.h>

#include "inventory/inventory.h"
#include "base/arena.h"
#include "live/drift.h"
#include "kube/kube.h"
#include "node/node.h"
#include "pipeline/live.h"
#include "pipeline/live_drift.h"
#include "render/render.h"
#include "source/source.h"
#include "spec/spec.h"

/* Growing arrays of records in the run's arena. */
struct collect {
	struct arena *a;
	struct drift_node *nodes;
	size_t nnodes, anodes;
	struct drift_pod *pods;
	size_t npods, apods;
	size_t pods_mark; /* pods kept before the current list */
	bool gpu_only;    /* keep only pods that request GPUs */
	const char **names;
	size_t nnames, anames;
};

static int
on_node(void *payload, const struct node *item)
{
	struct collect *c = payload;

	ARENA_GROW(c->a, c->nodes, c->nnodes, c->anodes, 256);
	drift_node_from(&c->nodes[c->nnodes++], c->a, item);
	return 0;
}

static void
on_nodes_restart(void *payload)
{
	struct collect *c = payload;

	c->nnodes = 0;
}

static int
on_pod(void *payload, const struct node *item)
{
	struct collect *c = payload;
	struct drift_pod p;

	drift_pod_from(&p, c->a, item);
	if (c->gpu_only && !drift_pod_maybe_gpu(&p))
		return 0;
	ARENA_GROW(c->a, c->pods, c->npods, c->apods, 256);
	c->pods[c->npods++] = p;
	return 0;
}

static void
on_pods_restart(void *payload)
{
	struct collect *c = payload;

	c->npods = c->pods_mark;
}

static int
on_name(void *payload, const struct node *item)
{
	struct collect *c = payload;
	const char *name = node_str(node_path(item, "metadata.name"));

	if (!name)
		return 0;
	ARENA_GROW(c->a, c->names, c->nnames, c->anames, 16);
	c->names[c->nnames++] = arena_strdup(c->a, name);
	return 0;
}

static void
on_names_restart(void *payload)
{
	struct collect *c = payload;

	c->nnames = 0;
}

static int
list_pods(struct kube_client *k, struct collect *c, const char *ns, bool gpu_only)
{
	struct kube_list_query q = { "v1", "Pod", ns, NULL, NULL, 0 };
	struct kube_list_cb cb = { on_pod, on_pods_restart, c };

	c->gpu_only = gpu_only;
	c->pods_mark = c->npods;
	return kube_list(k, &q, &cb);
}

static const struct node *
rendered_pool(const struct live_run *run, const struct inv_pool *pool)
{
	for (size_t i = 0; i < run->rendered.count; i++) {
		const struct render_object *o = &run->rendered.objects[i];

		if (!strcmp(o->kind, "NodePool") && !strcmp(o->name, pool->name))
			return o->obj;
	}
	return NULL;
}

static int
read_fallback(struct drift_fallback *f, struct live_run *run, struct collect *c,
	      const struct spec_site *s, const struct inv_pool *pool)
{
	struct arena *a = run->arena;
	struct node *live = NULL, *cls = NULL;
	struct kube_list_query q = { "karpenter.sh/v1", "NodeClaim", NULL, NULL, NULL, 0 };
	struct kube_list_cb cb = { on_name, on_names_restart, c };
	bool automode = s->cluster.provisioner == PROV_AUTO_MODE;
	int rc;

	memset(f, 0, sizeof(*f));
	f->site = s;
	f->pool = pool;
	f->rendered = rendered_pool(run, pool);
	rc = kube_get(&live, run->kube, a, "karpenter.sh/v1", "NodePool", NULL, pool->name);
	if (rc == KUBE_EFAIL)
		return -1;
	f->live = live;
	f->class_kind = pool->class_kind;
	rc = kube_get(&cls, run->kube, a,
		      automode ? "eks.amazonaws.com/v1" : "karpenter.k8s.aws/v1", f->class_kind,
		      NULL, pool->class_name);
	if (rc == KUBE_EFAIL)
		return -1;
	f->class_missing = rc == KUBE_ENOTFOUND;
	f->live_class = cls;
	q.label_selector = pool->node_selector;
	c->nnames = 0;
	c->names = NULL;
	c->anames = 0;
	rc = kube_list(run->kube, &q, &cb);
	if (rc == KUBE_EFAIL)
		return -1;
	f->claims = c->names;
	f->nclaims = c->nnames;
	return 0;
}

/* Add ns to the list of namespaces to read unless it is there (sites
 * and scopes may share one) or is the stack's, listed whole before. */
static void
ns_add(struct arena *a, const char ***list, size_t *n, size_t *alloc, const char *ns,
       const char *stack_ns)
{
	if (!strcmp(ns, stack_ns))
		return;
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*list)[i], ns))
			return;
	ARENA_GROW(a, *list, *n, *alloc, 16);
	(*list)[(*n)++] = ns;
}

/* The GPU pods of the placement namespaces and of every pool's own scope
 * (the burst namespaces), each namespace once. */
static int
list_placement_pods(struct live_run *run, struct collect *c, const char *stack_ns)
{
	const char **list = NULL;
	size_t n = 0, alloc = 0;

	for (size_t i = 0; i < run->nsites; i++) {
		const struct spec_site *s = run->sites[i];
		const struct inventory *inv = inventory_site(c->a, s);

		for (size_t j = 0; j < s->placement.namespace_count; j++)
			ns_add(c->a, &list, &n, &alloc, s->placement.namespaces[j], stack_ns);
		for (size_t k = 0; k < inv->pool_count; k++)
			for (size_t j = 0;
			     inv->pools[k].scope && j < inv->pools[k].scope->namespace_count; j++)
				ns_add(c->a, &list, &n, &alloc, inv->pools[k].scope->namespaces[j],
				       stack_ns);
	}
	for (size_t i = 0; i < n; i++)
		if (list_pods(run->kube, c, list[i], true) < 0)
			return -1;
	return 0;
}

/* Is there, `depth` levels down at most, a scalar equal to `text` (as
 * a value) or a mapping key `text`?  CRD schemas nest about 30 deep. */
static bool
tree_has(const struct node *n, const char *text, bool as_key, int depth)
{
	if (!n || depth <= 0)
		return false;
	if (n->kind == NODE_SCALAR)
		return !as_key && node_str(n) && !strcmp(node_str(n), text);
	if (n->kind == NODE_SEQ) {
		for (size_t i = 0; i < n->seq.count; i++)
			if (tree_has(n->seq.items[i], text, as_key, depth - 1))
				return true;
		return false;
	}
	for (size_t i = 0; i < n->map.count; i++) {
		const char *key = node_str(n->map.pairs[i].key);

		if (as_key && key && !strcmp(key, text))
			return true;
		if (tree_has(n->map.pairs[i].value, text, as_key, depth - 1))
			return true;
	}
	return false;
}

/* A CRD by name: 1 there, 0 not there, -1 could not read. */
static int
read_crd(const struct node **out, struct live_run *r, const char *name)
{
	struct node *crd = NULL;
	int rc = kube_get(&crd, r->kube, r->arena, "apiextensions.k8s.io/v1",
			  "CustomResourceDefinition", NULL, name);

	*out = crd;
	if (rc == KUBE_ENOTFOUND)
		return 0;
	return rc < 0 ? -1 : 1;
}

static bool
kind_served(struct live_run *r, const char *api_version, const char *kind)
{
	const struct kube_resource *res;

	return kube_resource_find(&res, r->kube, api_version, kind) == 0;
}

/* What tells the controller releases, when a site declares one
 * (docs/design/versions.md); nothing is read otherwise. */
static int
read_served(struct drift_served *sv, struct live_run *r)
{
	const struct node *crd;
	bool declared = false;
	int rc;

	for (size_t i = 0; i < r->nsites; i++)
		declared |= r->sites[i]->cluster.versions_src != NULL;
	if (!declared)
		return 0;
	sv->read = true;
	if ((rc = read_crd(&crd, r, "nodepools.karpenter.sh")) < 0)
		return -1;
	sv->nodepool = rc;
	sv->nodepool_gte = rc && tree_has(node_map_get(crd, "spec"), "Gte", false, 64);
	if ((rc = read_crd(&crd, r, "ec2nodeclasses.karpenter.k8s.aws")) < 0)
		return -1;
	sv->nodeclass = rc;
	sv->nodeclass_reservations = rc && tree_has(node_map_get(crd, "spec"),
						    "capacityReservationSelectorTerms", true, 64);
	sv->mutating_policy = kind_served(r, "policies.kyverno.io/v1", "MutatingPolicy");
	sv->cluster_policy = kind_served(r, "kyverno.io/v1", "ClusterPolicy");
	return 0;
}

int
live_drift_read(struct drift_input *out, struct live_run *r)
{
	struct arena *a = r->arena;
	struct collect c;
	struct drift_fallback *fbs;
	const char *stack_ns;
	size_t nfb = 0, npools = 0;
	const struct inventory **invs;

	memset(&c, 0, sizeof(c));
	c.a = a;
	{
		struct kube_list_query q = { "v1", "Node", NULL, NULL, NULL, 0 };
		struct kube_list_cb cb = { on_node, on_nodes_restart, &c };

		if (kube_list(r->kube, &q, &cb) < 0)
			return -1;
	}
	stack_ns = r->sites[0]->gpu_stack.chart.namespace;
	if (list_pods(r->kube, &c, stack_ns, false) < 0)
		return -1;
	if (list_placement_pods(r, &c, stack_ns) < 0)
		return -1;
	/* every pool of every site (src/inventory/) */
	invs = arena_alloc(a, (r->nsites + 1) * sizeof(*invs));
	for (size_t i = 0; i < r->nsites; i++) {
		invs[i] = inventory_site(a, r->sites[i]);
		npools += invs[i]->pool_count;
	}
	fbs = arena_alloc(a, (npools + 1) * sizeof(*fbs));
	for (size_t i = 0; i < r->nsites; i++)
		for (size_t p = 0; p < invs[i]->pool_count; p++) {
			if (read_fallback(&fbs[nfb], r, &c, r->sites[i], &invs[i]->pools[p]) < 0)
				return -1;
			nfb++;
		}

	memset(out, 0, sizeof(*out));
	out->cluster = r->cluster;
	out->sites = (const struct spec_site *const *)r->sites;
	out->nsites = r->nsites;
	out->nodes = c.nodes;
	out->nnodes = c.nnodes;
	out->pods = c.pods;
	out->npods = c.npods;
	out->stack_listed = true;
	out->fallbacks = fbs;
	out->nfallbacks = nfb;
	live_drift_plans(out, a);
	return read_served(&out->served, r);
}

/* The pool whose scope's policy `plan` is, or NULL (the placement scope). */
static const struct inv_pool *
plan_pool(const struct inventory *inv, const struct render_placement_plan *plan)
{
	for (size_t i = 0; i < inv->pool_count; i++)
		if (inv->pools[i].scope && plan->pool_scope &&
		    !strcmp(inv->pools[i].scope->policy_name, plan->name))
			return &inv->pools[i];
	return NULL;
}

/* every requirement of a plan reaches drift */
_Static_assert(RENDER_AFFINITY_MAX <= DRIFT_PLAN_REQUIREMENTS_MAX,
	       "a drift_plan holds every requirement of a placement plan");

void
live_drift_plans(struct drift_input *in, struct arena *a)
{
	struct drift_plan *out = arena_alloc(a, (in->nsites * RENDER_PLANS_MAX + 1) * sizeof(*out));
	size_t n = 0;

	for (size_t si = 0; si < in->nsites; si++) {
		const struct spec_site *s = in->sites[si];
		struct render_placement_plan plans[RENDER_PLANS_MAX];
		size_t np = render_placement_plans(plans, a, s);

		for (size_t k = 0; k < np; k++) {
			const struct render_placement_plan *p = &plans[k];
			struct drift_plan *dp = &out[n++];

			memset(dp, 0, sizeof(*dp));
			dp->site = s;
			dp->policy = p->name;
			dp->namespaces = p->namespaces;
			dp->namespace_count = p->namespace_count;
			dp->pod_selector = p->pod_selector;
			dp->pool = plan_pool(inventory_site(a, s), p);
			for (size_t r = 0; r < p->affinity_count; r++)
				dp->reqs[dp->req_count++] = (struct drift_requirement){
					p->affinity[r].key,      p->affinity[r].op,
					p->affinity[r].values,   p->affinity[r].value_count,
					p->affinity[r].required, p->affinity[r].weight
				};
		}
	}
	in->plans = out;
	in->nplans = n;
}

void
live_drift_fleet(struct spec_fleet *fleet, struct source_set *files, const struct live_run *r)
{
	fleet->sites = (struct spec_site **)r->sites;
	fleet->count = r->nsites;
	memset(files, 0, sizeof(*files));
	for (size_t i = 0; i < r->files.count; i++) {
		const struct source_file *sf = &r->files.files[i];
		bool ours = false;

		for (size_t j = 0; j < r->nsites && !ours; j++)
			ours = r->sites[j]->file && !strcmp(r->sites[j]->file, sf->path);
		if (ours)
			source_set_add(r->arena, files, sf->path, sf->data, sf->len);
	}
	fleet->files = files->count;
}

void
live_drift_summary(FILE *out, const struct live_run *run, const struct drift_input *in,
		   const struct diags *findings)
{
	size_t e = diags_count(findings, DIAG_ERROR);
	size_t w = diags_count(findings, DIAG_WARNING);
	size_t n = diags_count(findings, DIAG_NOTE);

	fprintf(out,
		"gpusite drift: cluster %s: %zu error%s, %zu warning%s, %zu "
		"note%s (%zu site%s, %zu node%s, %zu pod%s checked)\n",
		run->cluster, e, e == 1 ? "" : "s", w, w == 1 ? "" : "s", n, n == 1 ? "" : "s",
		run->nsites, run->nsites == 1 ? "" : "s", in->nnodes, in->nnodes == 1 ? "" : "s",
		in->npods, in->npods == 1 ? "" : "s");
}
