/*
 * explain.c - what `gpusite explain` says of one site: the Kubernetes
 * version the output is written for, the RTO budget term by term against
 * targetRTO (the figures drill plan and drill report measure against),
 * on-prem GPUs against the fallback's GPU limit and the instance types
 * that serve it, the fallback's node class, what each rendered object is
 * for, and with engine none the policy to paste.
 */
#include <stdio.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "drill/drill.h"
#include "emit/emit.h"
#include "explain/explain.h"
#include "inventory/inventory.h"
#include "inventory/inventory_labels.h"
#include "render/render.h"
#include "render/render_fallback.h"
#include "rules/instance_types.h"
#include "rules/quota.h"

static const char *
dur(struct arena *a, int64_t seconds)
{
	char b[SPEC_DURATION_BUFSZ];

	spec_duration_format(b, sizeof(b), seconds);
	return arena_strdup(a, b);
}

static void
explain_kube(FILE *out, const struct spec_site *s, int override)
{
	if (override > 0)
		fprintf(out, "  kubernetes: 1.%d (--kube-version)\n", override);
	else if (s->cluster.kube_version_assumed || !s->cluster.kubernetes_version)
		fprintf(out,
			"  kubernetes: 1.%d (assumed 1.%d: neither"
			" cluster.kubernetesVersion nor --kube-version says)\n",
			s->cluster.kube_minor > 0 ? s->cluster.kube_minor : 36,
			s->cluster.kube_minor > 0 ? s->cluster.kube_minor : 36);
	else
		fprintf(out, "  kubernetes: 1.%d (cluster.kubernetesVersion)\n",
			s->cluster.kube_minor);
}

/* One controller the output depends on: the declared release, or the one
 * assumed (README "Versions", docs/design/versions.md). */
static void
explain_release(FILE *out, const struct spec_version *v, enum k8s_controller c, const char *gte)
{
	char rel[32];
	const char *field = c == K8S_KARPENTER ? "karpenter" : "kyverno";

	if (v->set)
		fprintf(out, "  %s: %s (cluster.versions.%s)%s\n", field,
			k8s_release_text(v->release, rel, sizeof(rel)), field, gte);
	else
		fprintf(out,
			"  %s: %s or later assumed (cluster.versions.%s not set: nothing is checked"
			" against the release the cluster runs; the README's Versions table)%s\n",
			field, k8s_release_text(k8s_controller_assumed(c), rel, sizeof(rel)), field,
			gte);
}

/* How minGpuMemoryMiB is rendered for the Karpenter release (or none). */
static const char *
gte_note(struct arena *a, const struct spec_site *s)
{
	char rel[32];
	const char *gte_only = arena_printf(
		a,
		"; minGpuMemoryMiB is rendered as the equivalent Gt (Gte only for a declared"
		" Karpenter %s or later)",
		k8s_release_text(k8s_construct_need(K8S_REQ_GTE)->since, rel, sizeof(rel)));

	const struct spec_version *kv = &s->cluster.karpenter_version;

	if (s->fallback.min_gpu_memory_mib <= 0)
		return "";
	if (kv->set && k8s_release_serves(kv->release, K8S_REQ_GTE))
		return "; minGpuMemoryMiB is rendered as Gte";
	return gte_only;
}

static void
explain_controllers(FILE *out, struct arena *a, const struct spec_site *s)
{
	if (s->fallback.enabled && s->cluster.provisioner == PROV_AUTO_MODE)
		fprintf(out, "  karpenter: run by EKS Auto Mode%s\n", gte_note(a, s));
	else if (s->fallback.enabled)
		explain_release(out, &s->cluster.karpenter_version, K8S_KARPENTER, gte_note(a, s));
	if (s->placement.engine == ENGINE_KYVERNO ||
	    s->placement.engine == ENGINE_KYVERNO_CLUSTERPOLICY)
		explain_release(out, &s->cluster.kyverno_version, K8S_KYVERNO, "");
}

/*
 * The recovery budget: how long GPU Pods of a dead on-prem node take to
 * serve again on the fallback.  The node is marked NotReady/Unknown after
 * the node monitor grace period; its Pods are evicted when their not-ready
 * or unreachable toleration runs out (the longer one bounds it); then a
 * cloud node is provisioned, the image pulled, the model loaded.
 */
static void
explain_budget(FILE *out, struct arena *a, const struct spec_site *s)
{
	const struct spec_recovery *r = &s->recovery;
	const struct spec_placement *p = &s->placement;
	const char *snapshot = s->fallback.node_class.image_cache_snapshot;
	struct drill_budget b;
	int64_t evict, total, pull;
	bool cached;

	/* the figures drill plan and drill report measure against */
	drill_budget_compute(&b, s, DRILL_NODE_FAILURE);
	evict = b.seconds[DRILL_TERM_EVICTION];
	if (!r->set) {
		fprintf(out,
			"  recovery budget: not given (no spec.recovery block);"
			" eviction toleration %s + node monitor grace %s before Pods"
			" leave a dead node\n",
			dur(a, evict), dur(a, b.grace));
		return;
	}
	pull = b.seconds[DRILL_TERM_IMAGE_PULL];
	cached = b.image_pull_cached;
	total = b.real_failure_total;
	fprintf(out, "  recovery budget (targetRTO %s):\n",
		r->target_rto.text ? r->target_rto.text : dur(a, r->target_rto.seconds));
	fprintf(out, "    %-22s %8s  (%s %llds, %s %llds; the longer one)\n", "eviction toleration",
		dur(a, evict), "not-ready", (long long)p->not_ready_toleration_seconds,
		"unreachable", (long long)p->unreachable_toleration_seconds);
	fprintf(out, "    %-22s %8s\n", "node monitor grace",
		dur(a, r->node_monitor_grace_period.seconds));
	fprintf(out, "    %-22s %8s\n", "node provisioning", dur(a, r->node_provisioning.seconds));
	if (cached)
		fprintf(out,
			"    %-22s %8s  (recovery.imagePullCached: the images are on"
			" the data volume restored from %s)\n",
			"image pull (cached)", dur(a, pull), snapshot);
	else if (snapshot)
		fprintf(out,
			"    %-22s %8s  (fallback.nodeClass.imageCache is set but"
			" recovery.imagePullCached is not: the cold figure)\n",
			"image pull", dur(a, pull));
	else
		fprintf(out, "    %-22s %8s\n", "image pull", dur(a, pull));
	fprintf(out, "    %-22s %8s\n", "model load", dur(a, r->model_load.seconds));
	if (!r->target_rto.seconds)
		fprintf(out, "    %-22s %8s  (no targetRTO to compare with)\n", "total",
			dur(a, total));
	else if (total <= r->target_rto.seconds)
		fprintf(out, "    %-22s %8s  OK: %s within the target\n", "total", dur(a, total),
			dur(a, r->target_rto.seconds - total));
	else
		fprintf(out, "    %-22s %8s  OVER the target by %s\n", "total", dur(a, total),
			dur(a, total - r->target_rto.seconds));
}

/* "on-demand", or "reserved, then on-demand" for a list in priority order */
static const char *
capacity_list(const struct spec_fallback *fb, char *buf, size_t size)
{
	size_t used = 0;

	if (fb->capacity_type_count < 2)
		return spec_capacity_name(fb->capacity_type);
	buf[0] = '\0';
	for (size_t i = 0; i < fb->capacity_type_count && used < size; i++) {
		int n = snprintf(buf + used, size - used, "%s%s", i ? ", then " : "",
				 fb->capacity_types[i]);

		if (n < 0)
			break;
		used += (size_t)n;
	}
	return buf;
}

/* One line per instance type of a pool: what it serves within the limit. */
static void
explain_types(FILE *out, const struct spec_fallback *fb)
{
	for (size_t i = 0; i < fb->instance_type_count; i++) {
		const struct instance_type *t = instance_type_find(fb->instance_types[i]);

		if (!t || !instance_type_whole_nvidia(t)) {
			fprintf(out, "      %-18s cannot serve: %s\n", fb->instance_types[i],
				t ? "no whole NVIDIA GPU" : "unknown instance type");
			continue;
		}
		fprintf(out, "      %-18s %d x %-8s %7lld MiB per GPU  ", t->name, t->nvidia_gpus,
			t->gpu_name, (long long)t->gpu_memory_mib);
		if (fb->min_gpu_memory_mib && t->gpu_memory_mib < fb->min_gpu_memory_mib)
			fprintf(out, "below minGpuMemoryMiB %lld\n",
				(long long)fb->min_gpu_memory_mib);
		else if (t->nvidia_gpus > fb->gpu_limit)
			fprintf(out, "never launches: more GPUs than the limit\n");
		else
			fprintf(out, "up to %lld node%s within the limit\n",
				(long long)(fb->gpu_limit / t->nvidia_gpus),
				fb->gpu_limit / t->nvidia_gpus == 1 ? "" : "s");
	}
}

/* Whether a pool may launch Spot capacity. */
static bool
uses_spot(const struct spec_fallback *f)
{
	for (size_t i = 0; i < f->capacity_type_count; i++)
		if (!strcmp(f->capacity_types[i], "spot"))
			return true;
	return f->capacity_type == CAP_SPOT;
}

/* The rest of the line of a pool with a scope of its own (the burst
 * pool): its scope, then its instance types and what Spot needs. */
static void
explain_scoped_pool(FILE *out, struct arena *a, const struct spec_site *s,
		    const struct inv_pool *pool)
{
	const struct spec_fallback *f = pool->spec;
	const struct inv_scope *sc = pool->scope;

	fprintf(out, ", for GPU Pods in");
	for (size_t i = 0; i < sc->namespace_count; i++)
		fprintf(out, "%s%s", i ? ", " : " ", sc->namespaces[i]);
	fprintf(out, "%s: on-prem first, then %s, never the %s",
		sc->pod_selector && sc->pod_selector->kind == NODE_MAP &&
				sc->pod_selector->map.count
			? arena_printf(a, " (%s.podSelector)", pool->spec_key)
			: "",
		pool->title, inventory_excludes_text(a, sc));
	for (size_t t = 0; t < pool->taint_count; t++)
		fprintf(out, "%s%s=%s:%s%s",
			!t                          ? " (its nodes are tainted "
			: t + 1 < pool->taint_count ? ", "
						    : " and ",
			pool->taints[t].key, pool->taints[t].value ? pool->taints[t].value : "",
			pool->taints[t].effect, t + 1 == pool->taint_count ? ")" : "");
	fprintf(out, "\n");
	explain_types(out, f);
	if (!uses_spot(f))
		return;
	if (s->cluster.provisioner == PROV_KARPENTER)
		fprintf(out,
			"    %s Spot interruptions: EC2 reclaims a Spot node with a two-minute"
			" notice; Karpenter drains it and launches a replacement only when it"
			" runs with its interruption queue (chart value"
			" settings.interruptionQueue: an SQS queue fed by EventBridge),"
			" else the %s Pods die with the node\n",
			pool->noun, pool->noun);
	else
		fprintf(out,
			"    %s Spot interruptions: EC2 reclaims a Spot node with a"
			" two-minute notice; its %s Pods then move or wait\n",
			pool->noun, pool->noun);
}

/* One pool: its capacity, then its instance types (the fallback), or
 * its scope (a pool with one of its own). */
static void
explain_pool(FILE *out, struct arena *a, const struct spec_site *s, const struct inv_pool *pool,
	     int64_t onprem)
{
	const struct spec_fallback *f = pool->spec;
	char caps[128];

	fprintf(out,
		"    %s: NodePool %s, %s, %s, gpuLimit %lld nvidia.com/gpu"
		" (%lld%% of on-prem)",
		pool->noun, pool->name, spec_provisioner_name(s->cluster.provisioner),
		capacity_list(f, caps, sizeof(caps)), (long long)f->gpu_limit,
		onprem ? (long long)(f->gpu_limit * 100 / onprem) : 0LL);
	if (pool->scope) {
		explain_scoped_pool(out, a, s, pool);
		return;
	}
	fprintf(out, "\n");
	explain_types(out, f);
}

static void
explain_capacity(FILE *out, struct arena *a, const struct spec_site *s, const struct inventory *inv)
{
	int64_t onprem = 0;

	for (size_t i = 0; i < s->group_count; i++) {
		const struct spec_node_group *g = &s->groups[i];
		int nodes = g->count ? g->count : (int)g->node_count;

		onprem += (int64_t)nodes * g->gpus_per_node;
	}
	fprintf(out, "  capacity:\n    on-prem GPUs: %lld (", (long long)onprem);
	for (size_t i = 0; i < s->group_count; i++) {
		const struct spec_node_group *g = &s->groups[i];

		fprintf(out, "%s%s: %d x %d %s", i ? "; " : "", g->name,
			g->count ? g->count : (int)g->node_count, g->gpus_per_node, g->gpu_model);
	}
	fprintf(out, ")\n");
	if (!inventory_failover_pool(inv))
		fprintf(out, "    fallback: none (fallback.enabled is false): GPU Pods"
			     " wait for the on-prem nodes\n");
	for (size_t i = 0; i < inv->pool_count; i++)
		explain_pool(out, a, s, &inv->pools[i], onprem);
}

/* Where the fallback nodes keep their images: the volume gpusite renders,
 * or what an existing EC2NodeClass must have. */
static void
explain_disks(FILE *out, const struct spec_fallback *fb, const char *image)
{
	const struct spec_node_class *nc = &fb->node_class;
	bool raid0 = instance_types_raid0(nc->instance_store_policy, fb->instance_types,
					  fb->instance_type_count);
	const char *device = fb->node_image == IMAGE_BOTTLEROCKET ? "data volume /dev/xvdb"
								  : "root volume /dev/xvda";

	if (nc->set && nc->image_volume.set)
		fprintf(out, "    fallback image volume: %s %s %s%s\n", device,
			nc->image_volume.size, nc->image_volume.type,
			raid0 ? ", and the local NVMe as RAID0 (instanceStorePolicy)" : "");
	else if (nc->set)
		fprintf(out, "    fallback image volume: %s\n",
			raid0 ? "the local NVMe of every instance type as RAID0"
				" (instanceStorePolicy)"
			      : "Karpenter's default 20 GiB: set fallback.nodeClass.imageVolume");
	else
		fprintf(out,
			"    fallback image volume: the existing EC2NodeClass must give the"
			" images room: a blockDeviceMappings entry for the %s of at least"
			" 100Gi%s (Karpenter's default is 20 GiB)\n",
			image ? device : "image volume",
			raid0 ? ", or instanceStorePolicy: RAID0 (every listed type has local NVMe)"
			      : "");
}

/*
 * The node class of a Karpenter fallback: rendered from fallback.nodeClass,
 * or one that must exist already, and which AMI family it must boot.
 */
static void
explain_node_class(FILE *out, const struct spec_site *s, const struct inventory *inv)
{
	const struct spec_fallback *fb = &s->fallback;
	const struct inv_pool *pool = inventory_failover_pool(inv);
	const char *name = pool ? pool->class_name : NULL;
	const char *image = fb->node_image == IMAGE_AL2023         ? "al2023"
			    : fb->node_image == IMAGE_BOTTLEROCKET ? "bottlerocket"
								   : NULL;

	if (!fb->enabled || s->cluster.provisioner != PROV_KARPENTER)
		return;
	if (fb->node_class.set && image) {
		fprintf(out,
			"    fallback node class: EC2NodeClass %s, rendered from"
			" fallback.nodeClass: alias %s@%s%s\n",
			name, image,
			fb->node_class.ami_version ? fb->node_class.ami_version : "latest",
			fb->node_class.image_cache_snapshot ? ", data volume from the image cache"
							    : "");
	} else if (image) {
		fprintf(out,
			"    fallback node class: EC2NodeClass %s must already exist (no"
			" fallback.nodeClass): its amiSelectorTerms must select the %s"
			" family (alias %s@<version>), which %s\n",
			name, image, image,
			fb->node_image == IMAGE_AL2023
				? "has no device plugin: gpusite's fallback plugin runs there"
				: "brings its own device plugin: gpusite renders none");
	} else {
		fprintf(out,
			"    fallback node class: EC2NodeClass %s must already exist (no"
			" fallback.nodeClass), and its AMI family is not known"
			" (fallback.nodeImage not set): on al2023 GPU pods stay Pending"
			" without a device plugin, bottlerocket brings its own\n",
			name);
	}
	explain_disks(out, fb, image);
}

static void
explain_objects(FILE *out, const struct spec_site *s, const struct render_result *r, bool rendered)
{
	fprintf(out, "  objects:\n");
	if (!rendered) {
		fprintf(out, "    (not rendered: see the findings above)\n");
		return;
	}
	for (size_t i = 0; i < r->count; i++) {
		const struct render_object *o = &r->objects[i];

		if (o->site ? strcmp(o->site, s->name)
			    : (!o->cluster || strcmp(o->cluster, s->cluster.name)))
			continue;
		fprintf(out, "    %s %s%s%s: %s\n", o->kind, o->namespace,
			o->namespace[0] ? "/" : "", o->name, o->purpose);
	}
	for (size_t i = 0; i < r->file_count; i++) {
		const struct render_file *f = &r->files[i];

		if (f->kind == RENDER_FILE_NODECONFIG && f->site && !strcmp(f->site, s->name))
			fprintf(out,
				"    file %s: nodeadm NodeConfig for"
				" --nodeconfigs (taint and labels at join time)\n",
				f->path);
	}
}

static void
explain_snippet(FILE *out, struct arena *a, struct diags *d, const struct spec_site *s,
		const struct render_options *opt)
{
	struct render_object o;
	struct buf b = BUF_INIT;

	fprintf(out, "  placement: engine none, so nothing is rendered; to place GPU"
		     " Pods, apply a policy like this one (Kyverno 1.17+):\n");
	if (render_placement_snippet(&o, a, d, s, opt) == 0 &&
	    emit_document(&b, o.obj, EMIT_YAML) == 0) {
		const char *p = b.data;

		while (*p) {
			const char *nl = strchr(p, '\n');
			size_t n = nl ? (size_t)(nl - p) : strlen(p);

			fprintf(out, "    %.*s\n", (int)n, p);
			p += n + (nl ? 1 : 0);
		}
	}
	buf_release(&b);
}

/* What placement.siteBinding lets the site's GPU Pods use. */
static void
explain_binding(FILE *out, const struct spec_site *s)
{
	const char *site = s->name;

	if (s->placement.engine == ENGINE_NONE)
		return;
	switch (s->placement.site_binding) {
	case BIND_REQUIRED:
		fprintf(out,
			"  site binding: required: GPU Pods of the placement scope run only on"
			" nodes labelled %s=%s (the site's hybrid nodes and the nodes of its"
			" own pools), and Karpenter launches for them only from this site's"
			" pools\n",
			INV_SITE_LABEL, site);
		break;
	case BIND_PREFERRED:
		fprintf(out,
			"  site binding: preferred: GPU Pods of the placement scope prefer nodes"
			" labelled %s=%s (weight %d) but may run on any GPU node of cluster %s,"
			" and Karpenter may launch for them from another site's shared pool"
			" (exclusive: false; they never tolerate another site's taint)\n",
			INV_SITE_LABEL, site, RENDER_SITE_PREFERENCE_WEIGHT, s->cluster.name);
		break;
	case BIND_NONE:
		fprintf(out,
			"  site binding: none: GPU Pods of the placement scope may run on any GPU"
			" node of cluster %s, another site's hybrid nodes included, and"
			" Karpenter may launch for them from any pool whose taint they tolerate"
			" (another site's pool only when shared, exclusive: false);"
			" the limits and alerts of this site then do not describe where they"
			" run\n",
			s->cluster.name);
		break;
	}
}

const struct spec_taint *
explain_pool_site_taint(const struct inv_pool *p)
{
	for (size_t t = 0; t < p->taint_count; t++)
		if (!strcmp(p->taints[t].key, INV_SITE_TAINT_KEY))
			return &p->taints[t];
	return NULL;
}

/* The exclusive pools' names, "NodePool a", "NodePool a and NodePool b". */
static void
exclusive_pools(FILE *out, const struct inventory *inv, size_t count)
{
	for (size_t i = 0, n = 0; i < inv->pool_count; i++) {
		if (!explain_pool_site_taint(&inv->pools[i]))
			continue;
		fprintf(out, "%sNodePool %s (%s.exclusive)",
			!n              ? ""
			: n + 1 < count ? ", "
					: " and ",
			inv->pools[i].name, inv->pools[i].spec_key);
		n++;
	}
}

/* A shared pool: who can land on it and launch it. */
static void
explain_shared_pool(FILE *out, const struct spec_site *s, const struct inv_pool *p)
{
	fprintf(out,
		"  site taint: none on NodePool %s (%s.exclusive: false): the pool is shared,"
		" any Pod that tolerates %s",
		p->name, p->spec_key, s->gpu_taint.key);
	for (size_t t = 0; t < p->taint_count; t++)
		fprintf(out, " and %s", p->taints[t].key);
	fprintf(out, " can land on its nodes and make Karpenter launch one\n");
}

/*
 * Who may run on the site's pools (docs/design/inventory.md, "The site
 * taint"): the nodes of an exclusive pool carry the site taint, which only
 * the site's scoped GPU Pods and gpusite's fallback device plugin
 * tolerate; the DaemonSets of the cluster that must run there need its
 * toleration, and a Pod that tolerates every taint still lands there.  A
 * pool of exclusive: false is shared.
 */
static void
explain_site_taint(FILE *out, const struct spec_site *s, const struct inventory *inv)
{
	const struct spec_taint *st = NULL;
	size_t exclusive = 0;
	bool plugin = false;

	for (size_t i = 0; i < inv->pool_count; i++) {
		const struct spec_taint *t = explain_pool_site_taint(&inv->pools[i]);

		if (!t)
			continue;
		st = t;
		exclusive++;
		plugin |= inv->pools[i].plugin_covers && render_fallback_needs_plugin(s);
	}
	if (st) {
		fprintf(out, "  site taint: the nodes of ");
		exclusive_pools(out, inv, exclusive);
		fprintf(out,
			" carry %s=%s:%s: only the site's scoped GPU Pods tolerate it (%s"
			" the toleration with value %s)%s, so a Pod of another site or any other"
			" Pod that tolerates %s neither lands on these nodes nor makes Karpenter"
			" launch one\n",
			st->key, st->value ? st->value : "", st->effect,
			s->placement.engine == ENGINE_NONE ? "the policy to paste below adds"
							   : "its placement policies add",
			s->name,
			plugin ? " and gpusite's fallback device plugin (the key, operator Exists)"
			       : "",
			s->gpu_taint.key);
		fprintf(out,
			"    DaemonSets that must run on these nodes (node exporters, log shippers,"
			" CNI and CSI node agents, security agents) need the toleration {key: %s,"
			" operator: Exists, effect: %s}; one that tolerates every taint (operator"
			" Exists without a key, as EKS's kube-proxy, aws-node and ebs-csi-node do)"
			" has it already%s\n",
			st->key, st->effect,
			s->cluster.provisioner == PROV_AUTO_MODE
				? "; EKS Auto Mode runs the node's own networking, storage and GPU"
				  " components outside DaemonSets"
				: "");
		fprintf(out, "    a Pod that tolerates every taint (operator Exists without a key)"
			     " still lands on these nodes and can make Karpenter launch one: keep"
			     " such tolerations to node agents\n");
	}
	for (size_t i = 0; i < inv->pool_count; i++)
		if (!explain_pool_site_taint(&inv->pools[i]))
			explain_shared_pool(out, s, &inv->pools[i]);
}

/* The reservation types the pool leaves out (render_nodepool.c), and what
 * Karpenter does with an instance type whose selected reservations are all
 * of those types (docs/design/artifacts.md, "Fallback NodePool"). */
static void
explain_reservation_types(FILE *out, const struct spec_site *s)
{
	const struct spec_fallback *fb = &s->fallback;
	const char *excluded[RENDER_RESERVATION_TYPES];
	size_t n = render_reservation_excluded(s, fb, excluded);

	if (n != 1)
		return;
	fprintf(out,
		"    fallback reservation types: the pool leaves out reservations of type %s"
		" (karpenter.k8s.aws/capacity-reservation-type NotIn [%s], which on-demand and"
		" Spot offerings meet); Karpenter drops an instance type whose selected"
		" reservations are all of type %s, its other capacity types with it, so let"
		" the node class select only reservations the pool takes\n",
		excluded[0], excluded[0], excluded[0]);
}

/* Reserved capacity: what Karpenter needs for it, and what selects the
 * reservations. */
static void
explain_reservations(FILE *out, const struct spec_site *s)
{
	const struct spec_fallback *fb = &s->fallback;
	bool blocks = false;
	char reserved[32], block[32];

	if (!fb->enabled || !fb->reserved)
		return;
	for (size_t i = 0; i < fb->reservation_type_count; i++)
		blocks |= !strcmp(fb->reservation_types[i], K8S_RESERVATION_CAPACITY_BLOCK);
	/* the releases of the one table (src/k8s/k8s_controllers.c) */
	k8s_release_text(k8s_construct_need(K8S_RESERVED_CAPACITY)->since, reserved,
			 sizeof(reserved));
	k8s_release_text(k8s_construct_need(K8S_CAPACITY_BLOCK)->since, block, sizeof(block));
	fprintf(out,
		"    fallback reservations: reserved capacity needs Karpenter %s or later with"
		" the ReservedCapacity feature gate (chart value "
		"settings.featureGates.reservedCapacity:"
		" true)%s%s%s; %s\n",
		reserved, blocks ? ", and Capacity Blocks need Karpenter " : "",
		blocks ? block : "", blocks ? " or later" : "",
		fb->node_class.set && fb->node_class.reservation_terms
			? "the EC2NodeClass selects them (capacityReservationSelectorTerms)"
			: "the existing node class must select them"
			  " (capacityReservationSelectorTerms)");
	explain_reservation_types(out, s);
}

/* What consolidation may interrupt, with the disruption budgets given. */
static void
explain_disruption(FILE *out, const struct spec_site *s)
{
	const struct spec_fallback *fb = &s->fallback;
	const struct node *budgets = fb->disruption_budgets;

	if (!fb->enabled || !budgets || !budgets->seq.count)
		return;
	fprintf(out,
		"    fallback disruption: consolidation (%s after %s) and drift replace nodes"
		" within %zu disruption budget%s; each replaced node moves its GPU pods and"
		" reloads their models (recovery.modelLoad per node)\n",
		fb->consolidation_policy ? fb->consolidation_policy : "WhenEmptyOrUnderutilized",
		fb->consolidate_after.text ? fb->consolidate_after.text : "5m", budgets->seq.count,
		budgets->seq.count == 1 ? "" : "s");
	for (size_t i = 0; i < budgets->seq.count; i++) {
		const struct node *b = budgets->seq.items[i];
		const char *sched = node_str(node_map_get(b, "schedule"));
		const char *dur_text = node_str(node_map_get(b, "duration"));

		const struct node *reasons = node_map_get(b, "reasons");

		fprintf(out, "      at most %s of the pool's nodes disrupted at once",
			node_str(node_map_get(b, "nodes")));
		for (size_t r = 0; reasons && r < reasons->seq.count; r++)
			fprintf(out, "%s%s", r ? ", " : " for ", node_str(reasons->seq.items[r]));
		if (sched)
			fprintf(out, ", from %s for %s", sched, dur_text ? dur_text : "?");
		fprintf(out, "\n");
	}
}

/* cluster.quotas: the least the fallback at its limit counts against them. */
static void
explain_quota(FILE *out, const struct spec_site *s)
{
	struct quota_need need;
	int64_t quota;

	if (!s->cluster.quotas.set)
		return;
	quota_need(&need, s);
	if (need.market < 0 || need.group < 0) {
		fprintf(out, "    fallback vCPU quota: not judged (%s)\n",
			!s->fallback.enabled ? "no fallback"
			: need.market < 0    ? "reserved capacity first"
					     : "no listed type serves");
		return;
	}
	quota = s->cluster.quotas.vcpus[need.market][need.group];
	fprintf(out, "    fallback vCPU quota: at least %lld %s %s vCPUs at gpuLimit (%lld x %s)",
		(long long)need.vcpus, quota_market_name(need.market), quota_group_name(need.group),
		(long long)(s->fallback.gpu_limit / need.type->nvidia_gpus), need.type->name);
	if (quota < 0)
		fprintf(out, ", no %s %s quota in cluster.quotas\n", quota_market_name(need.market),
			quota_group_name(need.group));
	else
		fprintf(out, " of the %lld cluster.quotas allows: %s\n", (long long)quota,
			need.vcpus > quota ? "OVER (GS196)" : "within");
}

void
explain_site(FILE *out, struct arena *a, struct diags *d, const struct spec_site *s,
	     const struct explain_input *in)
{
	const struct inventory *inv = inventory_site(a, s);

	fprintf(out, "site %s (cluster %s, %s; %s)\n", s->name, s->cluster.name, s->cluster.region,
		s->file ? s->file : "?");
	explain_kube(out, s, in->kube_minor);
	explain_controllers(out, a, s);
	explain_budget(out, a, s);
	explain_capacity(out, a, s, inv);
	explain_quota(out, s);
	explain_node_class(out, s, inv);
	explain_reservations(out, s);
	explain_disruption(out, s);
	explain_binding(out, s);
	explain_site_taint(out, s, inv);
	if (s->placement.engine == ENGINE_NONE)
		explain_snippet(out, a, d, s, in->render_options);
	explain_objects(out, s, in->rendered, in->rendered_ok);
}
