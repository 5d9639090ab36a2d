/*
 * scope.c - the node inventory, the DaemonSets of the manifests (and the
 * operands a GPU Operator ClusterPolicy will create), the placement to a
 * fixed point over the labels the GPU stack adds while it runs, and the
 * verdict on the GPU stack's scope.
 */
#include <string.h>

#include "base/arena.h"
#include "inventory/inventory.h"
#include "k8s/k8s_int.h"
#include "scope/scope.h"

#define LABEL_COMPUTE_TYPE "eks.amazonaws.com/compute-type"
#define LABEL_PCI_NVIDIA "feature.node.kubernetes.io/pci-10de.present"
#define LABEL_GPU_PRESENT "nvidia.com/gpu.present"
#define LABEL_DEPLOY_PREFIX "nvidia.com/gpu.deploy."

/* The three NFD labels the GPU Operator reads (docs/design/upstream.md,
 * "The NVIDIA charts"). */
static const char *const pci_labels[] = {
	LABEL_PCI_NVIDIA,
	"feature.node.kubernetes.io/pci-0300_10de.present",
	"feature.node.kubernetes.io/pci-0302_10de.present",
};

/* Capability labels GFD sets on capable GPUs; assumed on every GPU node. */
static const char *const capability_labels[] = {
	"nvidia.com/mps.capable",
	"nvidia.com/mig.capable",
};

/* Labels that say a node has an NVIDIA GPU, besides the PCI labels. */
static const struct {
	const char *key;
	const char *value;
} gpu_node_labels[] = {
	{ LABEL_GPU_PRESENT, "true" },
	/* gpusite's NodeConfig label, and (below) every pool's node type */
	{ INV_NODE_TYPE_LABEL, INV_NODE_TYPE_HYBRID },
	{ "karpenter.k8s.aws/instance-gpu-manufacturer", "nvidia" },
	{ "eks.amazonaws.com/instance-gpu-manufacturer", "nvidia" },
};

/*
 * GPU Operator operands (assets/state-*): the ClusterPolicy field that
 * enables each, the DaemonSet the operator creates and its deploy label.
 * mig-manager is deployed only on MIG-capable GPUs.
 */
static const struct operand {
	const char *field;
	const char *ds_name;
	const char *deploy;
	bool needs_mig;
} operands[] = {
	{ "driver", "nvidia-driver-daemonset", "driver", false },
	{ "toolkit", "nvidia-container-toolkit-daemonset", "container-toolkit", false },
	{ "devicePlugin", "nvidia-device-plugin-daemonset", "device-plugin", false },
	{ "gfd", "gpu-feature-discovery", "gpu-feature-discovery", false },
	{ "dcgm", "nvidia-dcgm", "dcgm", false },
	{ "dcgmExporter", "nvidia-dcgm-exporter", "dcgm-exporter", false },
	{ "nodeStatusExporter", "nvidia-node-status-exporter", "node-status-exporter", false },
	{ "validator", "nvidia-operator-validator", "operator-validator", false },
	{ "migManager", "nvidia-mig-manager", "mig-manager", true },
};
#define NOPERANDS (sizeof(operands) / sizeof(operands[0]))

/* How a DaemonSet is recognised as part of the GPU stack. */
static const char *const stack_names[] = {
	"nvidia-device-plugin",
	"gpu-feature-discovery",
	"node-feature-discovery",
	"nfd-worker",
	"dcgm-exporter",
	"nvidia-dcgm",
	"nvidia-container-toolkit",
	"nvidia-driver",
	"nvidia-operator-validator",
	"nvidia-mig-manager",
	"nvidia-node-status-exporter",
	"mps-control-daemon",
	"gpu-operator",
};
static const char *const stack_app_names[] = {
	"nvidia-device-plugin", "gpu-feature-discovery", "node-feature-discovery",
	"gpu-operator",         "nvidia-dcgm-exporter",  "dcgm-exporter",
};
static const char *const stack_charts[] = {
	"nvidia-device-plugin-",
	"gpu-operator-",
	"node-feature-discovery-",
	"nfd-",
};
static const char *const stack_images[] = {
	"nvcr.io/nvidia/",
	"registry.k8s.io/nfd/",
	"gcr.io/k8s-staging-nfd/",
};
static const char *const stack_selector_keys[] = {
	"feature.node.kubernetes.io/pci-10de",
	"feature.node.kubernetes.io/pci-0300_10de",
	"feature.node.kubernetes.io/pci-0302_10de",
	LABEL_GPU_PRESENT,
	LABEL_DEPLOY_PREFIX,
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

void
scope_init(struct scope_result *r)
{
	memset(r, 0, sizeof(*r));
}

static const char *
label_of(const struct node *obj, const char *key)
{
	const struct node *labels = node_path(obj, "metadata.labels");
	const struct node_pair *p = labels ? node_map_pair(labels, key) : NULL;

	return p && !node_is_null(p->value) ? node_text(p->value) : NULL;
}

static bool
starts_with(const char *s, const char *prefix)
{
	return s && !strncmp(s, prefix, strlen(prefix));
}

/* Lists (kind List, NodeList, DaemonSetList, ...) hold their objects in items. */
static void
for_each_object(struct node *const *docs, size_t count,
		void (*fn)(void *ctx, const struct node *obj), void *ctx)
{
	for (size_t i = 0; i < count; i++) {
		const struct node *doc = docs[i];
		const char *kind = node_str(node_map_get(doc, "kind"));
		const struct node *items = node_map_get(doc, "items");
		size_t klen = kind ? strlen(kind) : 0;

		if (klen >= 4 && !strcmp(kind + klen - 4, "List") && items &&
		    items->kind == NODE_SEQ) {
			for (size_t j = 0; j < items->seq.count; j++)
				fn(ctx, items->seq.items[j]);
		} else if (doc && !node_is_null(doc)) {
			fn(ctx, doc);
		}
	}
}

struct load_ctx {
	struct scope_result *r;
	struct arena *a;
	struct diags *d;
	int rc;
	const char *operator_ns;
};

/* A node of one of gpusite's pools: its pool, its site, and the site
 * taint it carries (the key is the site label's, INV_SITE_TAINT_KEY), or
 * none when its pool is shared (exclusive: false). */
static void
classify_pool(struct scope_node *n, const char *node_type)
{
	const char *pool = scope_node_label(n, INV_POOL_LABEL);

	n->pool = n->pool_site = NULL;
	n->site_taint = NULL;
	if (n->hybrid || !inventory_is_pool_node_type(node_type))
		return;
	n->pool = pool && *pool ? pool : node_type;
	n->pool_site = scope_node_label(n, INV_SITE_LABEL);
	for (size_t i = 0; n->taints && n->taints->kind == NODE_SEQ && i < n->taints->seq.count;
	     i++) {
		const struct node *t = n->taints->seq.items[i];
		const char *key = node_str(node_map_get(t, "key"));

		if (key && !strcmp(key, INV_SITE_TAINT_KEY))
			n->site_taint = t;
	}
}

void
scope_node_classify(struct scope_node *n, const struct node *obj)
{
	const char *ct = scope_node_label(n, LABEL_COMPUTE_TYPE);
	const struct node *cap = node_path(obj, "status.capacity");
	const struct node *gpus = cap ? node_map_get(cap, "nvidia.com/gpu") : NULL;
	long long count = 0;

	const char *nt = scope_node_label(n, INV_NODE_TYPE_LABEL);

	n->hybrid = ct && !strcmp(ct, "hybrid");
	/* a node of any of gpusite's pools: the same image, the same plugin */
	n->fallback_image = !n->hybrid && inventory_is_pool_node_type(nt)
				    ? scope_node_label(n, SCOPE_NODE_IMAGE_LABEL)
				    : NULL;
	classify_pool(n, nt);
	n->gpu = false;
	n->gpu_why = NULL;
	for (size_t i = 0; i < COUNT(pci_labels) && !n->gpu; i++) {
		const char *v = scope_node_label(n, pci_labels[i]);

		if (v && !strcmp(v, "true")) {
			n->gpu = true;
			n->gpu_why = pci_labels[i];
		}
	}
	if (!n->gpu && gpus && k8s_parse_int64(node_text(gpus), &count) && count > 0) {
		n->gpu = true;
		n->gpu_why = "capacity nvidia.com/gpu";
	}
	for (size_t i = 0; i < COUNT(gpu_node_labels) && !n->gpu; i++) {
		const char *v = scope_node_label(n, gpu_node_labels[i].key);

		if (v && (!strcmp(v, gpu_node_labels[i].value) ||
			  (!strcmp(gpu_node_labels[i].key, INV_NODE_TYPE_LABEL) &&
			   inventory_is_pool_node_type(v)))) {
			n->gpu = true;
			n->gpu_why = gpu_node_labels[i].key;
		}
	}
}

static void
grow(struct arena *a, void **items, size_t *alloc, size_t count, size_t size)
{
	if (count < *alloc)
		return;
	size_t want = *alloc ? *alloc * 2 : 8;

	*items = arena_realloc(a, *items, *alloc * size, want * size);
	*alloc = want;
}

static void
add_node(void *vctx, const struct node *obj)
{
	struct load_ctx *c = vctx;
	const char *kind = node_str(node_map_get(obj, "kind"));
	const char *name = node_str(node_path(obj, "metadata.name"));
	struct scope_node *n;

	if (!kind || strcmp(kind, "Node") || !name) {
		c->rc = diag_report(
			c->d, obj ? obj->at : (struct pos)POS_NONE, SCOPE_RULE_INPUT, "",
			"the node inventory holds %s%s%s: give Node objects (kubectl get "
			"nodes -o yaml)",
			kind ? "a " : "a document without kind", kind ? kind : "",
			kind && !name ? " without metadata.name" : "");
		return;
	}
	grow(c->a, (void **)&c->r->nodes, &c->r->node_alloc, c->r->node_count,
	     sizeof(*c->r->nodes));
	n = &c->r->nodes[c->r->node_count++];
	memset(n, 0, sizeof(*n));
	n->name = name;
	n->at = obj->at;
	n->labels = node_path(obj, "metadata.labels");
	n->taints = node_path(obj, "spec.taints");
	scope_node_classify(n, obj);
}

int
scope_add_nodes(struct scope_result *r, struct arena *a, struct diags *d, struct node *const *docs,
		size_t count)
{
	struct load_ctx c = { r, a, d, 0, NULL };

	for_each_object(docs, count, add_node, &c);
	return c.rc;
}

static bool
any_container(const struct node *pod_spec,
	      bool (*pred)(const struct node *container, const void *arg), const void *arg,
	      const struct node **which)
{
	static const char *const lists[] = { "initContainers", "containers" };

	for (size_t l = 0; l < COUNT(lists); l++) {
		const struct node *cs = node_map_get(pod_spec, lists[l]);

		for (size_t i = 0; cs && cs->kind == NODE_SEQ && i < cs->seq.count; i++) {
			if (pred(cs->seq.items[i], arg)) {
				if (which)
					*which = cs->seq.items[i];
				return true;
			}
		}
	}
	return false;
}

static bool
image_has_prefix(const struct node *container, const void *arg)
{
	return starts_with(node_str(node_map_get(container, "image")), arg);
}

static bool
runs_command(const struct node *container, const void *arg)
{
	const struct node *cmd = node_map_get(container, "command");
	const char *first =
		cmd && cmd->kind == NODE_SEQ && cmd->seq.count ? node_str(cmd->seq.items[0]) : NULL;

	return first && strstr(first, arg);
}

static bool
selects_on(const struct node *pod_spec, const char *prefix, const char **key)
{
	const struct node *sel = node_map_get(pod_spec, "nodeSelector");
	const struct node *terms = node_path(
		pod_spec, "affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
			  "nodeSelectorTerms");

	for (size_t i = 0; sel && sel->kind == NODE_MAP && i < sel->map.count; i++) {
		if (starts_with(node_text(sel->map.pairs[i].key), prefix)) {
			*key = node_text(sel->map.pairs[i].key);
			return true;
		}
	}
	for (size_t i = 0; terms && terms->kind == NODE_SEQ && i < terms->seq.count; i++) {
		const struct node *ex = node_map_get(terms->seq.items[i], "matchExpressions");

		for (size_t j = 0; ex && ex->kind == NODE_SEQ && j < ex->seq.count; j++) {
			const char *k = node_str(node_map_get(ex->seq.items[j], "key"));

			if (starts_with(k, prefix)) {
				*key = k;
				return true;
			}
		}
	}
	return false;
}

/* Whether a requirement on `key` (with `values`, or a nodeSelector
 * pair's value `one`) asks for nodes of gpusite's pools: any value of
 * gpusite.io/pool or gpusite.io/node-image, or a pool's node-type. */
static bool
pool_requirement(const char *key, const struct node *values, const char *one)
{
	if (!key)
		return false;
	if (!strcmp(key, INV_POOL_LABEL) || !strcmp(key, INV_NODE_IMAGE_LABEL))
		return true;
	if (strcmp(key, INV_NODE_TYPE_LABEL))
		return false;
	if (!values)
		return inventory_is_pool_node_type(one);
	for (size_t i = 0; values->kind == NODE_SEQ && i < values->seq.count; i++)
		if (inventory_is_pool_node_type(node_str(values->seq.items[i])))
			return true;
	return false;
}

/* The label of gpusite's pool nodes the pod spec selects them by (its
 * nodeSelector, or an In or Exists requirement of its node affinity), or
 * NULL: it is not meant for pool nodes. */
static const char *
selects_pool(const struct node *pod_spec)
{
	const struct node *sel = node_map_get(pod_spec, "nodeSelector");
	const struct node *terms = node_path(
		pod_spec, "affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
			  "nodeSelectorTerms");

	for (size_t i = 0; sel && sel->kind == NODE_MAP && i < sel->map.count; i++) {
		const char *k = node_text(sel->map.pairs[i].key);

		if (pool_requirement(k, NULL, node_str(sel->map.pairs[i].value)))
			return k;
	}
	for (size_t i = 0; terms && terms->kind == NODE_SEQ && i < terms->seq.count; i++) {
		const struct node *ex = node_map_get(terms->seq.items[i], "matchExpressions");

		for (size_t j = 0; ex && ex->kind == NODE_SEQ && j < ex->seq.count; j++) {
			const struct node *e = ex->seq.items[j];
			const char *k = node_str(node_map_get(e, "key"));
			const char *op = node_str(node_map_get(e, "operator"));

			if (op && (!strcmp(op, "In") || !strcmp(op, "Exists")) &&
			    pool_requirement(k, node_map_get(e, "values"), NULL))
				return k;
		}
	}
	return NULL;
}

/* Whether the pod spec requires gpusite.io/node-image=al2023: in its
 * nodeSelector, or in every term of its required node affinity. */
static bool
selects_fallback(const struct node *pod_spec)
{
	const struct node *sel = node_map_get(pod_spec, "nodeSelector");
	const struct node *v =
		sel && sel->kind == NODE_MAP ? node_map_get(sel, SCOPE_NODE_IMAGE_LABEL) : NULL;
	const struct node *terms = node_path(
		pod_spec, "affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
			  "nodeSelectorTerms");
	bool all = terms && terms->kind == NODE_SEQ && terms->seq.count;

	if (v && node_text(v) && !strcmp(node_text(v), SCOPE_NODE_IMAGE_PLUGIN))
		return true;
	for (size_t i = 0; all && i < terms->seq.count; i++) {
		const struct node *ex = node_map_get(terms->seq.items[i], "matchExpressions");
		bool here = false;

		for (size_t j = 0; ex && ex->kind == NODE_SEQ && j < ex->seq.count; j++) {
			const struct node *e = ex->seq.items[j];
			const char *k = node_str(node_map_get(e, "key"));
			const char *op = node_str(node_map_get(e, "operator"));
			const struct node *vals = node_map_get(e, "values");

			here = here ||
			       (k && op && !strcmp(k, SCOPE_NODE_IMAGE_LABEL) &&
				!strcmp(op, "In") && vals && vals->kind == NODE_SEQ &&
				vals->seq.count == 1 && node_text(vals->seq.items[0]) &&
				!strcmp(node_text(vals->seq.items[0]), SCOPE_NODE_IMAGE_PLUGIN));
		}
		all = here;
	}
	return all;
}

bool
scope_ds_is_gpu_stack(struct scope_ds *ds, struct arena *a, const struct node *obj)
{
	const char *app = label_of(obj, "app.kubernetes.io/name");
	const char *chart = label_of(obj, "helm.sh/chart");
	const struct node *c = NULL;
	const char *key = NULL;

	ds->why = NULL;
	for (size_t i = 0; i < COUNT(stack_names); i++) {
		if (strstr(ds->name, stack_names[i])) {
			ds->why = arena_printf(a, "name contains %s", stack_names[i]);
			ds->gpu_stack = true;
			return true;
		}
	}
	for (size_t i = 0; app && i < COUNT(stack_app_names); i++) {
		if (!strcmp(app, stack_app_names[i])) {
			ds->why = arena_printf(a, "label app.kubernetes.io/name=%s", app);
			ds->gpu_stack = true;
			return true;
		}
	}
	for (size_t i = 0; chart && i < COUNT(stack_charts); i++) {
		if (starts_with(chart, stack_charts[i])) {
			ds->why = arena_printf(a, "label helm.sh/chart=%s", chart);
			ds->gpu_stack = true;
			return true;
		}
	}
	for (size_t i = 0; i < COUNT(stack_images); i++) {
		if (any_container(ds->pod_spec, image_has_prefix, stack_images[i], &c)) {
			ds->why = arena_printf(a, "image %s", node_str(node_map_get(c, "image")));
			ds->gpu_stack = true;
			return true;
		}
	}
	for (size_t i = 0; i < COUNT(stack_selector_keys); i++) {
		if (selects_on(ds->pod_spec, stack_selector_keys[i], &key)) {
			ds->why = arena_printf(a, "selects on %s", key);
			ds->gpu_stack = true;
			return true;
		}
	}
	ds->gpu_stack = false;
	return false;
}

static enum scope_role
ds_role(const struct scope_ds *ds, const struct node *obj)
{
	const char *app = label_of(obj, "app.kubernetes.io/name");
	const char *role = label_of(obj, "role");

	if (any_container(ds->pod_spec, runs_command, "nfd-worker", NULL) ||
	    strstr(ds->name, "nfd-worker") || strstr(ds->name, "node-feature-discovery-worker") ||
	    (app && !strcmp(app, "node-feature-discovery") && role && !strcmp(role, "worker")))
		return SCOPE_ROLE_NFD_WORKER;
	return SCOPE_ROLE_NONE;
}

static struct scope_ds *
new_ds(struct load_ctx *c)
{
	struct scope_ds *ds;

	grow(c->a, (void **)&c->r->ds, &c->r->ds_alloc, c->r->ds_count, sizeof(*c->r->ds));
	ds = &c->r->ds[c->r->ds_count++];
	memset(ds, 0, sizeof(*ds));
	return ds;
}

static bool
enabled(const struct node *spec, const char *field)
{
	const struct node *e = node_path(node_map_get(spec, field), "enabled");

	/* the operator treats an absent `enabled` as true */
	if (!e || node_is_null(e))
		return true;
	if (node_is_bool(e))
		return e->scalar.i != 0;
	return node_text(e) && !strcmp(node_text(e), "true");
}

/* The operand DaemonSets an nvidia.com ClusterPolicy makes the operator create. */
static void
add_operands(struct load_ctx *c, const struct node *obj)
{
	const struct node *spec = node_map_get(obj, "spec");
	const struct node *ds_spec = node_map_get(spec, "daemonsets");
	const struct node *tols = node_map_get(ds_spec, "tolerations");
	const char *cp = node_str(node_path(obj, "metadata.name"));
	const char *origin = arena_printf(c->a, "ClusterPolicy/%s", cp ? cp : "?");

	c->r->operator_model = true;
	for (size_t i = 0; i < NOPERANDS; i++) {
		const struct operand *op = &operands[i];
		struct node *pod, *sel;
		struct scope_ds *ds;

		if (!enabled(spec, op->field))
			continue;
		pod = node_new_map(c->a, ds_spec ? ds_spec->at : obj->at);
		sel = node_map_add(c->a, pod, "nodeSelector", node_new_map(c->a, obj->at));
		node_map_add_str(c->a, sel,
				 arena_printf(c->a, "%s%s", LABEL_DEPLOY_PREFIX, op->deploy),
				 "true");
		if (tols && tols->kind == NODE_SEQ)
			node_map_add(c->a, pod, "tolerations", node_clone(c->a, tols));
		ds = new_ds(c);
		ds->namespace = c->operator_ns ? c->operator_ns : "";
		ds->name = op->ds_name;
		ds->at = ds_spec ? ds_spec->at : obj->at;
		ds->origin = origin;
		ds->pod_spec = pod;
		ds->gpu_stack = true;
		ds->why = "GPU Operator operand";
	}
}

static void
add_manifest(void *vctx, const struct node *obj)
{
	struct load_ctx *c = vctx;
	const char *kind = node_str(node_map_get(obj, "kind"));
	const char *api = node_str(node_map_get(obj, "apiVersion"));
	const char *name = node_str(node_path(obj, "metadata.name"));
	const char *ns = node_str(node_path(obj, "metadata.namespace"));
	const struct node *pod_spec = node_path(obj, "spec.template.spec");
	struct scope_ds *ds;

	if (kind && api && !strcmp(kind, "ClusterPolicy") && starts_with(api, "nvidia.com/")) {
		add_operands(c, obj);
		return;
	}
	if (!kind || strcmp(kind, "DaemonSet")) {
		c->r->other_docs++;
		return;
	}
	if (!name || !pod_spec || pod_spec->kind != NODE_MAP) {
		c->rc = diag_report(c->d, obj->at, SCOPE_RULE_INPUT, "spec.template.spec",
				    "DaemonSet %s has no %s: its placement cannot be judged",
				    name ? name : "(no metadata.name)",
				    name ? "spec.template.spec" : "name");
		return;
	}
	ds = new_ds(c);
	ds->namespace = ns ? ns : "";
	ds->name = name;
	ds->at = obj->at;
	ds->pod_spec = pod_spec;
	scope_ds_is_gpu_stack(ds, c->a, obj);
	ds->role = ds_role(ds, obj);
	ds->fallback = ds->gpu_stack && selects_fallback(pod_spec);
	ds->pool_key = selects_pool(pod_spec);
}

/* The operands go where the operator Deployment is. */
static void
find_operator_ns(void *vctx, const struct node *obj)
{
	struct load_ctx *c = vctx;
	const char *kind = node_str(node_map_get(obj, "kind"));
	const char *name = node_str(node_path(obj, "metadata.name"));

	if (!c->operator_ns && kind && !strcmp(kind, "Deployment") && name &&
	    !strcmp(name, "gpu-operator"))
		c->operator_ns = node_str(node_path(obj, "metadata.namespace"));
}

int
scope_add_manifests(struct scope_result *r, struct arena *a, struct diags *d,
		    struct node *const *docs, size_t count)
{
	struct load_ctx c = { r, a, d, 0, NULL };

	for_each_object(docs, count, find_operator_ns, &c);
	for_each_object(docs, count, add_manifest, &c);
	return c.rc;
}

const struct scope_cell *
scope_cell_at(const struct scope_result *r, size_t i, size_t j)
{
	return &r->cells[i * r->node_count + j];
}

static const char *
base_label(const struct scope_node *n, const char *key)
{
	const struct node_pair *p = n->labels ? node_map_pair(n->labels, key) : NULL;

	return p ? (node_is_null(p->value) ? "" : node_text(p->value)) : NULL;
}

static void
push_label(struct arena *a, struct scope_label **list, size_t *count, size_t *alloc,
	   const char *key, const char *value, const char *by)
{
	for (size_t i = 0; i < *count; i++)
		if (!strcmp((*list)[i].key, key))
			return;
	grow(a, (void **)list, alloc, *count, sizeof(**list));
	(*list)[*count].key = key;
	(*list)[*count].value = value;
	(*list)[*count].by = by;
	(*count)++;
}

/*
 * The labels the GPU stack would put on node j, given where its
 * DaemonSets run now.  Returns true when they differ from the last round.
 */
static bool
runtime_labels(struct scope_result *r, struct arena *a, size_t j)
{
	struct scope_node *n = &r->nodes[j];
	struct scope_label *list = NULL;
	size_t count = 0, alloc = 0;
	bool changed;

	if (n->gpu) {
		for (size_t k = 0; k < COUNT(capability_labels); k++)
			if (!base_label(n, capability_labels[k]))
				push_label(a, &list, &count, &alloc, capability_labels[k], "true",
					   "assumed GPU capability");
		for (size_t i = 0; i < r->ds_count; i++) {
			if (r->ds[i].role != SCOPE_ROLE_NFD_WORKER ||
			    !scope_cell_at(r, i, j)->runs || base_label(n, LABEL_PCI_NVIDIA))
				continue;
			push_label(a, &list, &count, &alloc, LABEL_PCI_NVIDIA, "true",
				   arena_printf(a, "NFD worker %s%s%s", r->ds[i].namespace,
						*r->ds[i].namespace ? "/" : "", r->ds[i].name));
			break;
		}
	}
	if (r->operator_model) {
		bool pci = false;

		for (size_t k = 0; k < COUNT(pci_labels); k++) {
			const char *v = base_label(n, pci_labels[k]);

			for (size_t m = 0; !v && m < count; m++)
				if (!strcmp(list[m].key, pci_labels[k]))
					v = list[m].value;
			pci = pci || (v && !strcmp(v, "true"));
		}
		if (pci) {
			const char *off = base_label(n, "nvidia.com/gpu.deploy.operands");
			const char *mig = base_label(n, "nvidia.com/mig.capable");

			if (!mig && n->gpu)
				mig = "true"; /* the assumed capability above */
			push_label(a, &list, &count, &alloc, LABEL_GPU_PRESENT, "true",
				   "GPU Operator");
			for (size_t k = 0; k < NOPERANDS && !(off && !strcmp(off, "false")); k++) {
				const char *key = arena_printf(a, "%s%s", LABEL_DEPLOY_PREFIX,
							       operands[k].deploy);
				const char *have = base_label(n, key);

				if ((have && *have) ||
				    (operands[k].needs_mig && !(mig && !strcmp(mig, "true"))))
					continue; /* a value already there is kept */
				push_label(a, &list, &count, &alloc, key, "true", "GPU Operator");
			}
		} else if (base_label(n, LABEL_GPU_PRESENT)) {
			/* the operator resets gpu.present without an NFD PCI label */
			push_label(a, &list, &count, &alloc, LABEL_GPU_PRESENT, "false",
				   "GPU Operator");
		}
	}
	changed = count != n->runtime_count;
	for (size_t k = 0; !changed && k < count; k++)
		changed = strcmp(list[k].key, n->runtime[k].key) ||
			  strcmp(list[k].value, n->runtime[k].value);
	n->runtime = list;
	n->runtime_count = count;
	n->runtime_alloc = alloc;
	return changed;
}

static const char *
ds_label(struct arena *a, const struct scope_ds *ds)
{
	return arena_printf(a, "%s%s%s", ds->namespace, *ds->namespace ? "/" : "", ds->name);
}

static const char *
node_class(const struct scope_node *n)
{
	if (n->hybrid)
		return n->gpu ? "hybrid GPU" : "hybrid";
	return n->gpu ? "cloud GPU" : "cloud";
}

static const char *
joined(struct arena *a, const struct scope_cell *c)
{
	const char *s = "";

	for (size_t k = 0; k < c->reason_count; k++)
		s = arena_printf(a, "%s%s%s", s, k ? "; " : "", c->reasons[k]);
	return s;
}

/* Whether a cell that does not run counts the site taint among its
 * reasons ("taint gpusite.io/site=<site>:NoSchedule"), and whether taints
 * are all that keep it off. */
static bool
kept_off_by_site_taint(const struct scope_cell *c)
{
	static const char prefix[] = "taint " INV_SITE_TAINT_KEY;

	for (size_t k = 0; !c->runs && k < c->reason_count; k++)
		if (starts_with(c->reasons[k], prefix) &&
		    strchr("=:", c->reasons[k][sizeof(prefix) - 1]))
			return true;
	return false;
}

static bool
kept_off_by_taints_only(const struct scope_cell *c)
{
	for (size_t k = 0; k < c->reason_count; k++)
		if (!starts_with(c->reasons[k], "taint "))
			return false;
	return !c->runs && c->reason_count;
}

/* What a DaemonSet kept off a pool node by the site taint must add. */
#define SITE_TAINT_FIX                                                                             \
	"tolerate the site taint of gpusite's exclusive pools: key " INV_SITE_TAINT_KEY            \
	", operator Exists, effect NoSchedule"

/* gpusite's fallback device plugin on one node: on every AL2023 fallback
 * GPU node, nowhere else. */
static void
judge_fallback(struct scope_result *r, struct arena *a, struct diags *d, const struct scope_ds *ds,
	       const struct scope_node *n, const struct scope_cell *c)
{
	bool target =
		n->gpu && n->fallback_image && !strcmp(n->fallback_image, SCOPE_NODE_IMAGE_PLUGIN);

	if (target && !c->runs) {
		r->misses++;
		diag_report(d, ds->at, SCOPE_RULE_MISSES, "spec.template.spec",
			    "fallback device plugin DaemonSet %s does not run on AL2023 %s GPU "
			    "node %s: %s; GPU pods there stay Pending: %s",
			    ds_label(a, ds), n->pool ? n->pool : "fallback", n->name, joined(a, c),
			    kept_off_by_site_taint(c)
				    ? SITE_TAINT_FIX
				    : arena_printf(a, "tolerate the GPU taint and select %s=%s",
						   SCOPE_NODE_IMAGE_LABEL,
						   SCOPE_NODE_IMAGE_PLUGIN));
	} else if (!target && c->runs) {
		r->leaks++;
		diag_report(
			d, ds->at, SCOPE_RULE_LEAKS, "spec.template.spec",
			"fallback device plugin DaemonSet %s would run on %s node %s, which is "
			"not an AL2023 fallback GPU node (it has its own plugin or no GPU); scope "
			"it with nodeSelector %s: %s",
			ds_label(a, ds), node_class(n), n->name, SCOPE_NODE_IMAGE_LABEL,
			SCOPE_NODE_IMAGE_PLUGIN);
	}
}

/* A DaemonSet that selects gpusite's pool nodes (ds->pool_key) but that a
 * taint keeps off one it selects: the site taint of an exclusive pool, or
 * the pool's own. */
static void
judge_pool_meant(struct scope_result *r, struct arena *a, struct diags *d,
		 const struct scope_ds *ds, size_t i)
{
	for (size_t j = 0; ds->pool_key && j < r->node_count; j++) {
		const struct scope_node *n = &r->nodes[j];
		const struct scope_cell *c = scope_cell_at(r, i, j);

		if (!n->pool || !kept_off_by_taints_only(c))
			continue;
		r->misses++;
		diag_report(d, ds->at, SCOPE_RULE_MISSES, "spec.template.spec",
			    "DaemonSet %s selects gpusite's pool nodes (%s) but does not run on %s "
			    "node %s: %s; %s",
			    ds_label(a, ds), ds->pool_key, n->pool, n->name, joined(a, c),
			    kept_off_by_site_taint(c)
				    ? SITE_TAINT_FIX
				    : "add a toleration for that taint with operator Exists");
	}
}

static void
judge(struct scope_result *r, struct arena *a, struct diags *d)
{
	for (size_t i = 0; i < r->ds_count; i++) {
		const struct scope_ds *ds = &r->ds[i];
		const char *path = ds->origin ? "spec.daemonsets" : "spec.template.spec";

		if (!ds->gpu_stack) {
			judge_pool_meant(r, a, d, ds, i);
			continue;
		}
		for (size_t j = 0; j < r->node_count; j++) {
			const struct scope_node *n = &r->nodes[j];
			const struct scope_cell *c = scope_cell_at(r, i, j);

			if (ds->fallback) {
				judge_fallback(r, a, d, ds, n, c);
				continue;
			}
			if (n->hybrid && n->gpu && !c->runs) {
				bool taint = false;

				for (size_t k = 0; k < c->reason_count; k++)
					taint = taint || starts_with(c->reasons[k], "taint ");
				r->misses++;
				diag_report(d, ds->at, SCOPE_RULE_MISSES, path,
					    "GPU-stack DaemonSet %s%s%s does not run on hybrid GPU "
					    "node %s: %s; %s",
					    ds_label(a, ds), ds->origin ? " of " : "",
					    ds->origin ? ds->origin : "", n->name, joined(a, c),
					    taint ? "add a toleration for that taint with operator "
						    "Exists"
						  : "the node lacks the label it selects on");
			} else if (!n->hybrid && c->runs) {
				r->leaks++;
				diag_report(d, ds->at, SCOPE_RULE_LEAKS, path,
					    "GPU-stack DaemonSet %s%s%s would run on non-hybrid %s "
					    "node %s; scope it with nodeSelector %s: hybrid",
					    ds_label(a, ds), ds->origin ? " of " : "",
					    ds->origin ? ds->origin : "", node_class(n), n->name,
					    LABEL_COMPUTE_TYPE);
			}
		}
	}
}

int
scope_run(struct scope_result *r, struct arena *a, struct diags *d)
{
	size_t cells = r->ds_count * r->node_count;
	size_t hybrid_gpu = 0, stack = 0;
	bool changed = true;
	struct pos at = POS_NONE;

	r->cells = arena_alloc(a, (cells ? cells : 1) * sizeof(*r->cells));
	/* labels feed placement and placement feeds labels: a few rounds settle it */
	for (int round = 0; round < 8 && changed; round++) {
		for (size_t i = 0; i < r->ds_count; i++)
			for (size_t j = 0; j < r->node_count; j++)
				scope_place(&r->cells[i * r->node_count + j], a, &r->nodes[j],
					    r->ds[i].pod_spec, true);
		changed = false;
		for (size_t j = 0; j < r->node_count; j++)
			changed = runtime_labels(r, a, j) || changed;
	}
	r->misses = r->leaks = 0;
	judge(r, a, d);
	r->pool_nodes = r->shared_pool_nodes = 0;
	for (size_t j = 0; j < r->node_count; j++) {
		hybrid_gpu += r->nodes[j].hybrid && r->nodes[j].gpu;
		r->pool_nodes += r->nodes[j].pool != NULL;
		r->shared_pool_nodes += r->nodes[j].pool && !r->nodes[j].site_taint;
	}
	for (size_t i = 0; i < r->ds_count; i++)
		stack += r->ds[i].gpu_stack;
	if (r->node_count)
		at.file = r->nodes[0].at.file;
	if (!hybrid_gpu)
		diag_report(
			d, at, SCOPE_RULE_NOTHING, "",
			"the node inventory has no hybrid GPU node (%s=hybrid and an NVIDIA GPU): "
			"nothing shows that the GPU stack reaches the on-prem GPUs; add one",
			LABEL_COMPUTE_TYPE);
	if (r->ds_count)
		at = r->ds[0].at;
	if (!stack)
		diag_report(
			d, at, SCOPE_RULE_NOTHING, "",
			"the manifests hold no GPU-stack DaemonSet (%zu DaemonSets, %zu other "
			"objects): nothing to judge; pass the output of helm template for the GPU "
			"stack chart",
			r->ds_count, r->other_docs);
	return r->misses || r->leaks ? -1 : 0;
}
