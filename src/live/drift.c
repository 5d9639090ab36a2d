/*
 * drift.c - the live checks of `gpusite drift` over compact records of
 * nodes, pods and fallback pools (drift.h).  The findings' severities and
 * summaries are their rows in the table of findings (base/findings.c).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "inventory/inventory.h"
#include "inventory/inventory_labels.h"
#include "base/arena.h"
#include "base/buf.h"
#include "diff/diff.h"
#include "live/drift.h"
#include "live/drift_int.h"
#include "k8s/k8s_gpu.h"
#include "k8s/k8s_quantity.h"
#include "k8s/k8s_selector.h"
#include "k8s/k8s_toleration.h"
#include "node/node.h"

#define MAX_PATHS 5 /* differing fields named in GS211 */

/* ------------------------------------------------------------ records */

static const char *
dup_or_null(struct arena *a, const char *s)
{
	return s ? arena_strdup(a, s) : NULL;
}

void
drift_node_from(struct drift_node *out, struct arena *a, const struct node *obj)
{
	const struct node *md = node_map_get(obj, "metadata");
	const struct node *spec = node_map_get(obj, "spec");
	const struct node *st = node_map_get(obj, "status");
	const struct node *conds = node_map_get(st, "conditions");
	const struct node *labels = node_map_get(md, "labels");
	const struct node *taints = node_map_get(spec, "taints");

	memset(out, 0, sizeof(*out));
	out->name = dup_or_null(a, node_str(node_map_get(md, "name")));
	if (!out->name)
		out->name = "";
	out->labels = labels && labels->kind == NODE_MAP ? node_clone(a, labels) : NULL;
	out->taints = taints && taints->kind == NODE_SEQ ? node_clone(a, taints) : NULL;
	out->provider_id = dup_or_null(a, node_str(node_map_get(spec, "providerID")));
	out->gpu_capacity = dup_or_null(
		a, node_text(node_map_get(node_map_get(st, "capacity"), "nvidia.com/gpu")));
	out->gpu_allocatable = dup_or_null(
		a, node_text(node_map_get(node_map_get(st, "allocatable"), "nvidia.com/gpu")));
	out->ready = false;
	out->ready_reason = "no Ready condition";
	for (size_t i = 0; conds && conds->kind == NODE_SEQ && i < conds->seq.count; i++) {
		const struct node *c = conds->seq.items[i];
		const char *type = node_str(node_map_get(c, "type"));

		if (type && !strcmp(type, "Ready")) {
			const char *s = node_str(node_map_get(c, "status"));
			const char *r = node_str(node_map_get(c, "reason"));

			out->ready = s && !strcmp(s, "True");
			out->ready_reason = r ? arena_strdup(a, r)
					      : arena_printf(a, "Ready is %s", s ? s : "unset");
		}
	}
}

static int64_t
gpu_amount(const struct node *resources)
{
	int64_t best = 0;
	static const char *const which[] = { "requests", "limits" };

	for (size_t i = 0; i < 2; i++) {
		const char *t = node_text(
			node_map_get(node_map_get(resources, which[i]), "nvidia.com/gpu"));
		int64_t v = t ? strtoll(t, NULL, 10) : 0;

		if (v > best)
			best = v;
	}
	return best;
}

/* The nvidia.com/ names of `resources`' limits and requests, each once,
 * into out->gpu_names. */
static void
gpu_names_of(struct drift_pod *out, struct arena *a, const struct node *resources)
{
	static const char *const which[] = { "requests", "limits" };

	for (size_t i = 0; i < 2; i++) {
		const struct node *m = node_map_get(resources, which[i]);

		for (size_t k = 0; m && m->kind == NODE_MAP && k < m->map.count; k++) {
			const char *name = node_str(m->map.pairs[k].key);
			bool seen = false;

			if (!name ||
			    strncmp(name, K8S_GPU_RESOURCE_PREFIX, strlen(K8S_GPU_RESOURCE_PREFIX)))
				continue;
			for (size_t j = 0; j < out->gpu_name_count; j++)
				seen |= !strcmp(out->gpu_names[j], name);
			if (seen || out->gpu_name_count == DRIFT_POD_GPU_NAMES_MAX)
				continue;
			if (!out->gpu_names)
				out->gpu_names = arena_alloc(a, DRIFT_POD_GPU_NAMES_MAX *
									sizeof(*out->gpu_names));
			out->gpu_names[out->gpu_name_count++] = arena_strdup(a, name);
		}
	}
}

bool
drift_pod_maybe_gpu(const struct drift_pod *p)
{
	return p->gpus > 0 || p->gpu_name_count || p->claims;
}

bool
drift_pod_is_gpu(struct arena *a, const struct drift_pod *p, const struct spec_site *site)
{
	const struct inventory *inv = inventory_site(a, site);

	if (p->claims)
		return true;
	for (size_t i = 0; i < p->gpu_name_count; i++)
		if (k8s_gpu_resource_is_gpu(p->gpu_names[i], inv->gpu_shared_names,
					    inv->gpu_shared_name_count))
			return true;
	return false;
}

void
drift_pod_from(struct drift_pod *out, struct arena *a, const struct node *obj)
{
	const struct node *md = node_map_get(obj, "metadata");
	const struct node *spec = node_map_get(obj, "spec");
	const struct node *labels = node_map_get(md, "labels");
	const struct node *tols = node_map_get(spec, "tolerations");
	const struct node *owners = node_map_get(md, "ownerReferences");
	const struct node *ctrs = node_map_get(spec, "containers");
	const struct node *inits = node_map_get(spec, "initContainers");
	const struct node *claims = node_map_get(spec, "resourceClaims");
	const char *phase = node_str(node_path(obj, "status.phase"));
	const struct node *na = node_map_get(node_map_get(spec, "affinity"), "nodeAffinity");
	const struct node *sel = node_map_get(spec, "nodeSelector");

	memset(out, 0, sizeof(*out));
	out->ns = dup_or_null(a, node_str(node_map_get(md, "namespace")));
	out->name = dup_or_null(a, node_str(node_map_get(md, "name")));
	if (!out->ns)
		out->ns = "";
	if (!out->name)
		out->name = "";
	out->node = dup_or_null(a, node_str(node_map_get(spec, "nodeName")));
	out->phase = phase ? arena_strdup(a, phase) : "";
	out->labels = labels && labels->kind == NODE_MAP ? node_clone(a, labels) : NULL;
	out->tolerations = tols && tols->kind == NODE_SEQ ? node_clone(a, tols) : NULL;
	out->node_affinity = na && na->kind == NODE_MAP ? node_clone(a, na) : NULL;
	out->node_selector = sel && sel->kind == NODE_MAP ? node_clone(a, sel) : NULL;
	for (size_t i = 0; owners && owners->kind == NODE_SEQ && i < owners->seq.count; i++) {
		const struct node *o = owners->seq.items[i];
		const struct node *ctl = node_map_get(o, "controller");

		if (!ctl || (node_is_bool(ctl) && ctl->scalar.i))
			out->owner_kind = dup_or_null(a, node_str(node_map_get(o, "kind")));
	}
	for (size_t i = 0; ctrs && ctrs->kind == NODE_SEQ && i < ctrs->seq.count; i++) {
		out->gpus += gpu_amount(node_map_get(ctrs->seq.items[i], "resources"));
		gpu_names_of(out, a, node_map_get(ctrs->seq.items[i], "resources"));
	}
	/* init containers (native sidecars among them) ask for GPUs the
	 * scheduler counts too; resource claims make a GPU Pod (k8s_gpu.h) */
	for (size_t i = 0; inits && inits->kind == NODE_SEQ && i < inits->seq.count; i++)
		gpu_names_of(out, a, node_map_get(inits->seq.items[i], "resources"));
	out->claims = claims && claims->kind == NODE_SEQ && claims->seq.count;
}

static const char *
label(const struct node *labels, const char *key)
{
	return node_str(node_map_get(labels, key));
}

bool
drift_is_device_plugin(const struct drift_pod *p)
{
	const char *name = label(p->labels, "app.kubernetes.io/name");
	const char *app = label(p->labels, "app");
	const char *comp = label(p->labels, "app.kubernetes.io/component");

	if (name && !strcmp(name, "nvidia-device-plugin"))
		return !comp || !strcmp(comp, "nvidia-device-plugin");
	return app && !strcmp(app, "nvidia-device-plugin-daemonset");
}

/* ------------------------------------------------------------ helpers */

static int
cmp_node_name(const void *a, const void *b)
{
	const struct drift_node *const *x = a, *const *y = b;

	return strcmp((*x)->name, (*y)->name);
}

struct index {
	const struct drift_node **sorted;
	size_t n;
	bool *matched; /* per input node: belongs to a spec group */
	const struct drift_node *base;
};

static const struct drift_node *
index_find(const struct index *ix, const char *name)
{
	size_t lo = 0, hi = ix->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(ix->sorted[mid]->name, name);

		if (c == 0)
			return ix->sorted[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static bool
is_hybrid(const struct drift_node *n)
{
	const char *t = label(n->labels, "eks.amazonaws.com/compute-type");

	return t && !strcmp(t, "hybrid");
}

/* What a non-hybrid node is, for messages. */
static const char *
node_nature(struct arena *a, const struct drift_node *n)
{
	const char *t = label(n->labels, "eks.amazonaws.com/compute-type");
	const char *v;

	if (t && !strcmp(t, "auto"))
		return "an EKS Auto Mode node";
	if ((v = label(n->labels, "karpenter.sh/nodepool")))
		return arena_printf(a, "a node of Karpenter NodePool %s", v);
	if ((v = label(n->labels, "eks.amazonaws.com/nodegroup")))
		return arena_printf(a, "a node of managed node group %s", v);
	if (n->provider_id && !strncmp(n->provider_id, "aws:///", 7))
		return "an EC2 node";
	return "not a hybrid node";
}

/* Append to an uncapped buffer (it cannot fail but by running out of
 * memory, which is fatal anyway). */
static void addf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
addf(struct buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (buf_vprintf(b, fmt, ap) < 0)
		buf_reset(b);
	va_end(ap);
}

/* ------------------------------------------------------------ node checks */

static void
check_taint(struct arena *a, struct diags *d, size_t *count, const struct spec_site *s,
	    const struct drift_node *n, struct pos at)
{
	const struct spec_taint *t = &s->gpu_taint;
	const char *want = drift_taint_text(a, t->key, t->value, t->effect);

	for (size_t i = 0; n->taints && i < n->taints->seq.count; i++) {
		const struct node *tn = n->taints->seq.items[i];
		const char *k = node_str(node_map_get(tn, "key"));
		const char *v = node_str(node_map_get(tn, "value"));
		const char *e = node_str(node_map_get(tn, "effect"));

		if (!k || strcmp(k, t->key))
			continue;
		if (!v)
			v = "";
		if (!e)
			e = "";
		if (!strcmp(v, t->value ? t->value : "") && !strcmp(e, t->effect))
			return;
		drift_finding(d, count, DRIFT_TAINT_WRONG, at, "spec.gpuTaint", s->name,
			      "node %s of site %s has the taint %s, not %s: pods that "
			      "tolerate only the site's taint may not land on it, or other "
			      "pods may; fix it with 'kubectl taint nodes %s %s-' and "
			      "'kubectl taint nodes %s %s', and correct the node's NodeConfig",
			      n->name, s->name, drift_taint_text(a, k, v, e), want, n->name,
			      drift_taint_text(a, k, v, e), n->name, want);
		return;
	}
	drift_finding(d, count, DRIFT_NO_TAINT, at, "spec.gpuTaint", s->name,
		      "node %s of site %s has no GPU taint %s: it joined without "
		      "--register-with-taints or the taint was removed, so non-GPU pods "
		      "can land on it; re-join it with the rendered NodeConfig or run "
		      "'kubectl taint nodes %s %s'",
		      n->name, s->name, want, n->name, want);
}

static void
check_labels(struct arena *a, struct diags *d, size_t *count, const struct spec_site *s,
	     const struct spec_node_group *g, const struct drift_node *n, struct pos at)
{
	struct buf b;
	size_t bad = 0, nwant;
	/* what the rendered --node-labels puts on the node (inventory) */
	const struct spec_kv *want = inventory_group_labels(a, s, g, &nwant);

	buf_init(&b, 0);
	for (size_t i = 0; i < nwant; i++) {
		const char *k = want[i].key;
		const char *v = want[i].value;
		const char *have = label(n->labels, k);

		if (have && !strcmp(have, v))
			continue;
		if (have)
			addf(&b, "%s%s=%s (has %s)", bad ? ", " : "", k, v, have);
		else
			addf(&b, "%s%s=%s", bad ? ", " : "", k, v);
		bad++;
	}
	if (bad)
		drift_finding(d, count, DRIFT_LABELS, at, "", s->name,
			      "node %s of site %s, group %s, lacks the label%s %s: the "
			      "kubelet was started without the rendered --node-labels; "
			      "re-join it with the rendered NodeConfig",
			      n->name, s->name, g->name, bad == 1 ? "" : "s", b.data);
	buf_release(&b);
}

static bool
has_running_plugin(const struct drift_input *in, const char *node)
{
	for (size_t i = 0; i < in->npods; i++) {
		const struct drift_pod *p = &in->pods[i];

		if (p->node && !strcmp(p->node, node) && !strcmp(p->phase, "Running") &&
		    drift_is_device_plugin(p))
			return true;
	}
	return false;
}

static void
check_node(struct arena *a, struct diags *d, size_t *count, const struct drift_input *in,
	   const struct spec_site *s, const struct spec_node_group *g, const struct drift_node *n,
	   struct pos at, const bool *plugin_nodes_unused)
{
	(void)plugin_nodes_unused;
	if (!is_hybrid(n)) {
		drift_finding(d, count, DRIFT_LABELS, at, "", s->name,
			      "node %s of site %s, group %s, is %s, not a hybrid node "
			      "(eks.amazonaws.com/compute-type=hybrid): a cloud node has "
			      "the name of an on-prem server",
			      n->name, s->name, g->name, node_nature(a, n));
		return;
	}
	if (!n->ready)
		drift_finding(d, count, DRIFT_NODE_NOT_READY, at, "", s->name,
			      "node %s of site %s is not Ready (%s): its GPUs serve nothing "
			      "and pods there are evicted after the toleration seconds",
			      n->name, s->name, n->ready_reason);
	check_taint(a, d, count, s, n, at);
	check_labels(a, d, count, s, g, n, at);
	if (!n->gpu_capacity || !strcmp(n->gpu_capacity, "0"))
		drift_finding(d, count, DRIFT_NO_GPU_CAPACITY, at, "", s->name,
			      "node %s of site %s advertises no nvidia.com/gpu capacity "
			      "(expected %d): the device plugin is not running there or "
			      "cannot see the GPUs",
			      n->name, s->name, g->gpus_per_node);
	if (in->stack_listed && !has_running_plugin(in, n->name))
		drift_finding(d, count, DRIFT_NO_DEVICE_PLUGIN, at, "", s->name,
			      "node %s of site %s has no running device plugin pod in "
			      "namespace %s: check the DaemonSet's nodeSelector and "
			      "tolerations against the node ('gpusite verify-scope --live')",
			      n->name, s->name, s->gpu_stack.chart.namespace);
}

static void
check_groups(struct arena *a, struct diags *d, size_t *count, const struct drift_input *in,
	     struct index *ix, const struct spec_site *s)
{
	for (size_t gi = 0; gi < s->group_count; gi++) {
		const struct spec_node_group *g = &s->groups[gi];

		if (g->node_count) {
			for (size_t i = 0; i < g->node_count; i++) {
				const struct drift_node *n = index_find(ix, g->nodes[i]);
				struct pos at = g->node_srcs && g->node_srcs[i]
							? g->node_srcs[i]->at
							: spec_field_pos(g->src, "nodes");

				if (!n) {
					drift_finding(
						d, count, DRIFT_NODE_ABSENT, at, "", s->name,
						"node %s of site %s, group %s, is "
						"not registered in cluster %s: nodeadm init has "
						"not run on it, or failed",
						g->nodes[i], s->name, g->name, in->cluster);
					continue;
				}
				ix->matched[n - ix->base] = true;
				check_node(a, d, count, in, s, g, n, at, NULL);
			}
			continue;
		}
		/* SSM: names come at activation; the labels tell the group */
		{
			size_t found = 0;
			struct pos at = spec_field_pos(g->src, "count");

			for (size_t i = 0; i < in->nnodes; i++) {
				const struct drift_node *n = &in->nodes[i];
				const char *ls = label(n->labels, INV_SITE_LABEL);
				const char *lg = label(n->labels, INV_GROUP_LABEL);

				if (!ls || !lg || strcmp(ls, s->name) || strcmp(lg, g->name) ||
				    ix->matched[i])
					continue;
				ix->matched[i] = true;
				found++;
				check_node(a, d, count, in, s, g, n, at, NULL);
			}
			if ((int64_t)found < g->count)
				drift_finding(d, count, DRIFT_NODE_ABSENT, at, "", s->name,
					      "node group %s of site %s counts %d nodes but %zu "
					      "%s registered in cluster %s with its labels: "
					      "activate the missing servers with nodeadm",
					      g->name, s->name, g->count, found,
					      found == 1 ? "is" : "are", in->cluster);
		}
	}
}

static void
check_unknown_nodes(struct arena *a, struct diags *d, size_t *count, const struct drift_input *in,
		    const struct index *ix)
{
	const char **names = arena_alloc(a, (in->nnodes + 1) * sizeof(*names));
	size_t n = 0;

	for (size_t i = 0; i < in->nnodes; i++)
		if (is_hybrid(&in->nodes[i]) && !ix->matched[i])
			names[n++] = in->nodes[i].name;
	if (!n || !in->nsites)
		return;
	drift_finding(d, count, DRIFT_NODE_UNKNOWN,
		      spec_field_pos(in->sites[0]->cluster.src, "name"), "", in->sites[0]->name,
		      "%zu hybrid node%s of cluster %s %s in no site spec: %s; add %s to a "
		      "node group or remove %s from the cluster",
		      n, n == 1 ? "" : "s", in->cluster, n == 1 ? "is" : "are",
		      drift_name_list(a, names, n), n == 1 ? "it" : "them", n == 1 ? "it" : "them");
}

/* ------------------------------------------------------------ GPU stack */

/* gpusite's fallback device plugin (release nvidia-device-plugin-fallback,
 * render_fallback_plugin.c) on an AL2023 fallback node, the one place it
 * belongs: not a stray of the hybrid stack. */
static bool
is_fallback_plugin_at_home(const struct drift_pod *p, const struct drift_node *n)
{
	const char *inst = label(p->labels, "app.kubernetes.io/instance");
	const char *img = label(n->labels, INV_NODE_IMAGE_LABEL);

	return inst && !strcmp(inst, INV_RELEASE_FALLBACK_PLUGIN) && img &&
	       !strcmp(img, "al2023") && drift_is_device_plugin(p);
}

static void
check_stack(struct arena *a, struct diags *d, size_t *count, const struct drift_input *in,
	    const struct index *ix)
{
	const struct spec_site *s;

	if (!in->stack_listed || !in->nsites)
		return;
	s = in->sites[0]; /* the stack is per cluster: sites agree (GS047) */
	for (size_t i = 0; i < in->npods; i++) {
		const struct drift_pod *p = &in->pods[i];
		const struct drift_node *n;

		if (strcmp(p->ns, s->gpu_stack.chart.namespace) || !p->node || !p->owner_kind ||
		    strcmp(p->owner_kind, "DaemonSet"))
			continue;
		n = index_find(ix, p->node);
		if (!n || is_hybrid(n) || is_fallback_plugin_at_home(p, n))
			continue;
		drift_finding(d, count, DRIFT_STACK_OFF_HYBRID,
			      spec_field_pos(s->gpu_stack.src, "type"), "spec.gpuStack", s->name,
			      "GPU stack pod %s/%s runs on node %s, %s: a second device "
			      "plugin there fights the one the node brings (double "
			      "device plugin); scope the DaemonSet to "
			      "eks.amazonaws.com/compute-type=hybrid (gpusite renders that "
			      "nodeSelector: sync the Application)",
			      p->ns, p->name, p->node, node_nature(a, n));
	}
}

/* ------------------------------------------------------------ fallback */

/* Scalar text of a node, or a short summary for a collection. */
static const char *
short_value(struct arena *a, const struct node *n)
{
	if (!n)
		return "absent";
	if (n->kind == NODE_SCALAR)
		return n->type == NODE_STR ? arena_printf(a, "'%s'", n->scalar.text)
					   : n->scalar.text;
	return n->kind == NODE_MAP ? "a mapping" : "a list";
}

/* Follow a path that paths_walk() made, from `root`. */
static const struct node *
walk_path(const struct node *root, const char *path)
{
	const struct node *n = root;
	const char *p = path;

	while (n && *p) {
		if (*p == '.')
			p++;
		if (*p == '[' && p[1] == '"') {
			char key[512];
			size_t k = 0;

			p += 2;
			while (*p && *p != '"' && k < sizeof(key) - 1) {
				if (*p == '\\' && p[1])
					p++;
				key[k++] = *p++;
			}
			key[k] = '\0';
			p += *p == '"' ? 2 : 0;
			n = node_map_get(n, key);
		} else if (*p == '[') {
			size_t idx = strtoul(p + 1, (char **)&p, 10);

			p += *p == ']';
			n = n->kind == NODE_SEQ && idx < n->seq.count ? n->seq.items[idx] : NULL;
		} else {
			char key[512];
			size_t k = 0;

			while (*p && *p != '.' && *p != '[' && k < sizeof(key) - 1)
				key[k++] = *p++;
			key[k] = '\0';
			n = node_map_get(n, key);
		}
	}
	return n;
}

/* "al2023" / "bottlerocket" for an image family; NULL when unset */
static const char *
image_family(enum spec_node_image img)
{
	switch (img) {
	case IMAGE_AL2023: return "al2023";
	case IMAGE_BOTTLEROCKET: return "bottlerocket";
	case IMAGE_UNSET: break;
	}
	return NULL;
}

/* The family an AMI name tells ("amazon-eks-node-al2023-...",
 * "bottlerocket-aws-k8s-..."), or NULL for another (custom) image. */
static const char *
ami_name_family(const char *name)
{
	if (!name)
		return NULL;
	if (strstr(name, "bottlerocket"))
		return "bottlerocket";
	if (strstr(name, "al2023"))
		return "al2023";
	return NULL;
}

/* The live EC2NodeClass against fallback.nodeImage: the family of every
 * amiSelectorTerms alias ("al2023@latest"), and of every resolved AMI in
 * status.amis whose name tells one. */
static void
check_class_image(struct diags *d, size_t *count, const struct drift_fallback *f)
{
	const struct spec_site *s = f->site;
	const char *want = image_family(s->fallback.node_image);
	const struct node *terms = node_path(f->live_class, "spec.amiSelectorTerms");
	const struct node *amis = node_path(f->live_class, "status.amis");
	struct pos at = spec_field_pos(s->fallback.src, "nodeImage");
	const char *cls = f->pool->class_name;

	if (!want || !f->live_class || s->cluster.provisioner == PROV_AUTO_MODE)
		return;
	for (size_t i = 0; terms && terms->kind == NODE_SEQ && i < terms->seq.count; i++) {
		const char *alias = node_str(node_map_get(terms->seq.items[i], "alias"));
		const char *at_sign = alias ? strchr(alias, '@') : NULL;
		size_t n = at_sign ? (size_t)(at_sign - alias) : (alias ? strlen(alias) : 0);

		if (!alias || (n == strlen(want) && !strncmp(alias, want, n)))
			continue;
		drift_finding(d, count, DRIFT_CLASS_IMAGE, at, "spec.fallback.nodeImage", s->name,
			      "EC2NodeClass %s of fallback NodePool %s (site %s) selects AMI "
			      "alias %s, but fallback.nodeImage is %s: the fallback nodes boot "
			      "another image than the device plugin setup expects; set "
			      "amiSelectorTerms to alias %s@<version> or change nodeImage",
			      cls, f->pool->name, s->name, alias, want, want);
		return;
	}
	for (size_t i = 0; amis && amis->kind == NODE_SEQ && i < amis->seq.count; i++) {
		const struct node *ami = amis->seq.items[i];
		const char *name = node_str(node_map_get(ami, "name"));
		const char *id = node_str(node_map_get(ami, "id"));
		const char *fam = ami_name_family(name);

		if (!fam || !strcmp(fam, want))
			continue;
		drift_finding(d, count, DRIFT_CLASS_IMAGE, at, "spec.fallback.nodeImage", s->name,
			      "EC2NodeClass %s of fallback NodePool %s (site %s) resolved AMI "
			      "%s (%s), a %s image, but fallback.nodeImage is %s: the "
			      "fallback nodes boot another image than the device plugin setup "
			      "expects; fix amiSelectorTerms or nodeImage",
			      cls, f->pool->name, s->name, name, id ? id : "no id", fam, want);
		return;
	}
}

/* Each Ready node of a pool (the fallback, the burst pool): allocatable GPUs, and at
 * most one device plugin pod on it. */
static void
check_fallback_nodes(struct arena *a, struct diags *d, size_t *count, const struct drift_input *in,
		     const struct drift_fallback *f)
{
	const struct spec_site *s = f->site;
	const char *pool = f->pool->name, *what = f->pool->noun, *path = f->pool->spec_path;
	struct pos at = spec_field_pos(f->pool->spec->src, "nodePoolName");

	for (size_t i = 0; i < in->nnodes; i++) {
		const struct drift_node *n = &in->nodes[i];
		const char *p = label(n->labels, "karpenter.sh/nodepool");
		const char **plugins;
		size_t nplug = 0;
		double alloc = 0;

		if (!p || strcmp(p, pool))
			continue;
		if (n->ready && (!n->gpu_allocatable ||
				 k8s_quantity_parse(n->gpu_allocatable, strlen(n->gpu_allocatable),
						    &alloc) < 0 ||
				 alloc < 1))
			drift_finding(
				d, count, DRIFT_FALLBACK_NO_GPU, at, path, s->name,
				"%s node %s of NodePool %s (site %s) is Ready but "
				"advertises no allocatable nvidia.com/gpu (%s): GPU pods "
				"stay Pending on it; %s",
				what, n->name, pool, s->name,
				n->gpu_allocatable ? n->gpu_allocatable : "absent",
				s->fallback.node_image == IMAGE_AL2023
					? "the AL2023 image brings no device plugin: sync "
					  "gpusite's fallback plugin Application and check its pods"
					: "check the node's device plugin and driver ('kubectl "
					  "describe node')");
		if (!in->stack_listed)
			continue;
		plugins = arena_alloc(a, (in->npods + 1) * sizeof(*plugins));
		for (size_t j = 0; j < in->npods; j++) {
			const struct drift_pod *pod = &in->pods[j];

			if (pod->node && !strcmp(pod->node, n->name) &&
			    drift_is_device_plugin(pod) && strcmp(pod->phase, "Succeeded") &&
			    strcmp(pod->phase, "Failed"))
				plugins[nplug++] = arena_printf(a, "%s/%s", pod->ns, pod->name);
		}
		if (nplug >= 2)
			drift_finding(d, count, DRIFT_FALLBACK_PLUGINS, at, path, s->name,
				      "%s node %s of NodePool %s (site %s) runs %zu device "
				      "plugin pods: %s; two plugins advertise the same GPUs twice; "
				      "keep one (fallback.nodeImage decides which: al2023 runs "
				      "gpusite's fallback plugin, bottlerocket none)",
				      what, n->name, pool, s->name, nplug,
				      drift_name_list(a, plugins, nplug));
	}
}

static void
check_fallback(struct arena *a, struct diags *d, size_t *count, const struct drift_input *in,
	       const struct drift_fallback *f)
{
	const struct spec_site *s = f->site;
	const struct spec_fallback *fb = f->pool->spec;
	const char *pool = f->pool->name, *what = f->pool->noun, *path = f->pool->spec_path;
	/* a pool of its own scope's work (the burst pool) is not failover
	 * capacity: missing or full, that work waits */
	const struct inv_scope *own = f->pool->scope;
	struct pos pool_at = spec_field_pos(fb->src, f->pool->at_key);
	const char **pool_nodes;
	size_t npool = 0;
	int64_t gpus = 0;

	if (!f->live) {
		drift_finding(d, count, DRIFT_POOL_MISSING, pool_at, path, s->name,
			      "%s NodePool %s of site %s is missing from cluster %s: "
			      "%s; sync the "
			      "Argo CD Application that carries it (see 'gpusite diff "
			      "--live')",
			      what, pool, s->name, in->cluster,
			      own ? arena_printf(a, "%s work waits for the on-prem nodes", what)
				  : "no cloud GPU node can launch when the site fails");
	} else if (f->rendered) {
		struct node *r = diff_normalize(a, f->rendered);
		struct node *l = diff_live_subset(a, diff_normalize(a, f->live), r);
		const char *paths[MAX_PATHS];
		size_t n = diff_paths(a, l, r, paths, MAX_PATHS);

		if (n) {
			struct buf b;

			buf_init(&b, 0);
			for (size_t i = 0; i < n && i < MAX_PATHS; i++)
				addf(&b, "%s%s (cluster %s, rendered %s)", i ? ", " : "", paths[i],
				     short_value(a, walk_path(l, paths[i])),
				     short_value(a, walk_path(r, paths[i])));
			if (n > MAX_PATHS)
				addf(&b, " and %zu more", n - MAX_PATHS);
			drift_finding(d, count, DRIFT_POOL_DIFFERS, pool_at, path, s->name,
				      "%s NodePool %s of site %s differs from "
				      "the rendered one at %s: it was changed by hand; sync the "
				      "Application or see 'gpusite diff --live'",
				      what, pool, s->name, b.data);
			buf_release(&b);
		}
	}
	/* a shared node class (the burst pool's is the fallback's) is judged
	 * once, with the pool that owns it */
	if (f->class_missing && f->pool->owns_class)
		drift_finding(d, count, DRIFT_CLASS_MISSING,
			      spec_field_pos(s->fallback.src, "nodeClassName"), "spec.fallback",
			      s->name,
			      "%s %s, which fallback NodePool %s of site %s refers "
			      "to, does not exist in cluster %s: the pool cannot launch a "
			      "node; create it (it must exist before the pool is used)",
			      f->class_kind, f->pool->class_name, pool, s->name, in->cluster);
	if (f->pool->owns_class)
		check_class_image(d, count, f);
	check_fallback_nodes(a, d, count, in, f);
	/* state: is the fallback in use right now? */
	pool_nodes = arena_alloc(a, (in->nnodes + 1) * sizeof(*pool_nodes));
	for (size_t i = 0; i < in->nnodes; i++) {
		const char *p = label(in->nodes[i].labels, "karpenter.sh/nodepool");

		if (p && !strcmp(p, pool)) {
			pool_nodes[npool++] = in->nodes[i].name;
			if (in->nodes[i].gpu_capacity)
				gpus += strtoll(in->nodes[i].gpu_capacity, NULL, 10);
		}
	}
	if (f->nclaims || npool) {
		drift_finding(d, count, DRIFT_FALLBACK_ACTIVE, pool_at, path, s->name,
			      "%s NodePool %s of site %s is active: %zu "
			      "NodeClaim%s%s%s%s, %zu node%s%s%s%s, %lld of %lld GPUs in use "
			      "(%lld%%)%s",
			      what, pool, s->name, f->nclaims, f->nclaims == 1 ? "" : "s",
			      f->nclaims ? " (" : "",
			      f->nclaims ? drift_name_list(a, f->claims, f->nclaims) : "",
			      f->nclaims ? ")" : "", npool, npool == 1 ? "" : "s",
			      npool ? " (" : "", npool ? drift_name_list(a, pool_nodes, npool) : "",
			      npool ? ")" : "", (long long)gpus, (long long)fb->gpu_limit,
			      fb->gpu_limit ? (long long)(gpus * 100 / fb->gpu_limit) : 0LL,
			      fb->gpu_limit && gpus * 100 >= fb->gpu_limit * 80
				      ? (own ? arena_printf(a,
							    ": near %s.gpuLimit, %s Pods beyond it"
							    " stay Pending",
							    f->pool->spec_key, what)
					     : ": near gpuLimit, raise it or bring the site back")
				      : "");
	}
}

/* ------------------------------------------------------------ placement */

/* One scope of a site: the placement namespaces, or those of a pool with
 * a scope of its own (`pool`: the burst pool's). */
struct scope {
	const char *const *namespaces;
	size_t namespace_count;
	const struct node *pod_selector;
	struct pos at;
	const char *path;
	const struct inv_pool *pool;
};

/* GS214 for the scope's Pending GPU pods in namespace ns. */
static void
scope_pending(struct arena *a, struct diags *d, size_t *count, const struct spec_site *s,
	      const struct scope *sc, const char *ns, const char **pending, size_t np)
{
	const struct inv_pool *p = sc->pool;

	if (p)
		drift_finding(d, count, DRIFT_PODS_PENDING, sc->at, sc->path, s->name,
			      "%zu %s GPU pod%s Pending in namespace %s of site %s: %s; the "
			      "on-prem GPUs are full and %s has no %s capacity "
			      "for %s or is at %s.gpuLimit (%s work never uses the "
			      "fallback, so this is not a failover; see 'kubectl describe pod' "
			      "and the NodeClaims of %s)",
			      np, p->noun, np == 1 ? " is" : "s are", ns, s->name,
			      drift_name_list(a, pending, np), p->title,
			      spec_capacity_name(p->spec->capacity_type), np == 1 ? "it" : "them",
			      p->spec_key, p->noun, p->title);
	else
		drift_finding(d, count, DRIFT_PODS_PENDING, sc->at, sc->path, s->name,
			      "%zu GPU pod%s Pending in namespace %s of site %s: "
			      "%s; the on-prem GPUs are full or unreachable and the "
			      "fallback has not placed %s (see 'kubectl describe pod')",
			      np, np == 1 ? " is" : "s are", ns, s->name,
			      drift_name_list(a, pending, np), np == 1 ? "it" : "them");
}

static void
check_scope(struct arena *a, struct diags *d, size_t *count, const struct drift_input *in,
	    const struct spec_site *s, const struct scope *sc)
{
	const struct k8s_taint taint = { s->gpu_taint.key, s->gpu_taint.value,
					 s->gpu_taint.effect };
	/* the taints of the pools the scope launches from, which its policy
	 * tolerates beside the GPU taint */
	struct inv_toleration tols[INV_TOLERATIONS_MAX];
	size_t tol_count = inventory_scope_tolerations(inventory_site(a, s), sc->pool, tols);
	struct k8s_taint own[INV_TOLERATIONS_MAX];
	const char *taints =
		drift_taint_text(a, s->gpu_taint.key, s->gpu_taint.value, s->gpu_taint.effect);
	const char *noun = sc->pool ? arena_printf(a, "%s ", sc->pool->noun) : "";

	for (size_t t = 0; t < tol_count; t++) {
		const struct spec_taint *pt = tols[t].taint;

		own[t] = (struct k8s_taint){ pt->key, pt->value, pt->effect };
		taints = arena_printf(a, "%s and %s", taints,
				      drift_taint_text(a, pt->key, pt->value, pt->effect));
	}
	for (size_t ni = 0; ni < sc->namespace_count; ni++) {
		const char *ns = sc->namespaces[ni];
		const char **pending = arena_alloc(a, (in->npods + 1) * sizeof(char *));
		const char **untol = arena_alloc(a, (in->npods + 1) * sizeof(char *));
		size_t np = 0, nu = 0;

		for (size_t i = 0; i < in->npods; i++) {
			const struct drift_pod *p = &in->pods[i];

			if (strcmp(p->ns, ns) || !drift_pod_is_gpu(a, p, s) ||
			    !k8s_label_selector_matches(sc->pod_selector, p->labels))
				continue;
			if (!strcmp(p->phase, "Pending"))
				pending[np++] = p->name;
			bool tolerated = k8s_tolerations_tolerate(p->tolerations, &taint);

			for (size_t t = 0; t < tol_count; t++)
				tolerated &= k8s_tolerations_tolerate(p->tolerations, &own[t]);
			if (s->placement.engine != ENGINE_NONE && !tolerated &&
			    strcmp(p->phase, "Succeeded") && strcmp(p->phase, "Failed"))
				untol[nu++] = p->name;
		}
		if (np)
			scope_pending(a, d, count, s, sc, ns, pending, np);
		if (nu)
			drift_finding(d, count, DRIFT_PODS_NO_TOLERATION, sc->at, sc->path, s->name,
				      "%zu %sGPU pod%s in namespace %s of site %s lack%s a "
				      "toleration for %s: %s; the %s %splacement policy did not "
				      "mutate %s (is the admission controller running and the "
				      "policy ready?)",
				      nu, noun, nu == 1 ? "" : "s", ns, s->name, nu == 1 ? "s" : "",
				      taints, drift_name_list(a, untol, nu),
				      spec_engine_name(s->placement.engine), noun,
				      nu == 1 ? "it" : "them");
	}
}

/* GS214/GS215 for the placement scope and the scope of every pool with
 * one of its own (the burst pool's Pods also tolerate its taint). */
static void
check_placement(struct arena *a, struct diags *d, size_t *count, const struct drift_input *in,
		const struct spec_site *s)
{
	const struct inventory *inv = inventory_site(a, s);
	const struct scope place = { (const char *const *)s->placement.namespaces,
				     s->placement.namespace_count,
				     s->placement.pod_selector,
				     spec_field_pos(s->placement.src, "namespaces"),
				     "spec.placement.namespaces",
				     NULL };

	check_scope(a, d, count, in, s, &place);
	for (size_t i = 0; i < inv->pool_count; i++) {
		const struct inv_scope *own = inv->pools[i].scope;

		if (own)
			check_scope(a, d, count, in, s,
				    &(struct scope){ own->namespaces, own->namespace_count,
						     own->pod_selector,
						     spec_field_pos(own->src, "namespaces"),
						     arena_printf(a, "%s.namespaces", own->path),
						     &inv->pools[i] });
	}
}

/* ------------------------------------------------------------ driver */

size_t
drift_check(struct arena *a, struct diags *d, const struct drift_input *in)
{
	struct index ix;
	size_t count = 0;

	ix.n = in->nnodes;
	ix.base = in->nodes;
	ix.sorted = arena_alloc(a, (in->nnodes + 1) * sizeof(*ix.sorted));
	ix.matched = arena_alloc(a, (in->nnodes + 1) * sizeof(*ix.matched));
	for (size_t i = 0; i < in->nnodes; i++)
		ix.sorted[i] = &in->nodes[i];
	qsort(ix.sorted, ix.n, sizeof(*ix.sorted), cmp_node_name);
	for (size_t i = 0; i < in->nsites; i++)
		check_groups(a, d, &count, in, &ix, in->sites[i]);
	check_unknown_nodes(a, d, &count, in, &ix);
	check_stack(a, d, &count, in, &ix);
	for (size_t i = 0; i < in->nfallbacks; i++)
		check_fallback(a, d, &count, in, &in->fallbacks[i]);
	drift_check_pool_taints(a, d, &count, in);
	for (size_t i = 0; i < in->nsites; i++)
		check_placement(a, d, &count, in, in->sites[i]);
	drift_check_bindings(a, d, &count, in);
	drift_check_versions(a, d, &count, in);
	return count;
}
