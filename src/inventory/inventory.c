/*
 * inventory.c - what a site owns, from its model, once
 * (docs/design/inventory.md).  Every name, label and selector gpusite
 * puts on a pool, a node class or a hybrid node is derived here.
 */
#include <string.h>

#include "base/arena.h"
#include "inventory/inventory.h"
#include "k8s/k8s_gpu.h"
#include "k8s/k8s_names.h"
#include "yamlio/yamlio.h"

/* One row per role: its name in messages. */
static const char *const role_names[INV_ROLE_COUNT] = {
	[INV_ROLE_HYBRID_GROUP] = "hybrid node group",
	[INV_ROLE_FALLBACK_POOL] = "fallback pool",
	[INV_ROLE_BURST_POOL] = "burst pool",
	[INV_ROLE_NODE_CLASS] = "node class",
	[INV_ROLE_NODECONFIG_MAP] = "NodeConfig ConfigMap",
	[INV_ROLE_PLACEMENT_POLICY] = "placement policy",
	[INV_ROLE_ALERT_RULE] = "alert rule",
	[INV_ROLE_GPU_STACK_APP] = "GPU-stack Application",
	[INV_ROLE_FALLBACK_PLUGIN_APP] = "fallback device plugin Application",
};

const char *
inventory_role_name(enum inv_role role)
{
	return (unsigned)role < INV_ROLE_COUNT ? role_names[role] : "object";
}

/* A label list under construction, kept sorted by key; a later value for
 * a key replaces the earlier one (the tool's labels are added last). */
struct kvs {
	struct spec_kv *items;
	size_t count;
	size_t alloc;
};

static void
kvs_set(struct arena *a, struct kvs *kv, const char *key, const char *value)
{
	size_t i = 0;

	while (i < kv->count && strcmp(kv->items[i].key, key) < 0)
		i++;
	if (i < kv->count && !strcmp(kv->items[i].key, key)) {
		kv->items[i].value = value;
		return;
	}
	ARENA_GROW(a, kv->items, kv->count, kv->alloc, 8);
	memmove(kv->items + i + 1, kv->items + i, (kv->count - i) * sizeof(*kv->items));
	kv->items[i].key = key;
	kv->items[i].value = value;
	kv->items[i].src = NULL;
	kv->count++;
}

static const char *
node_image_name(enum spec_node_image img)
{
	return img == IMAGE_AL2023 ? "al2023" : img == IMAGE_BOTTLEROCKET ? "bottlerocket" : NULL;
}

/* A pool's node labels, `tl` plus its node type and gpusite.io/pool
 * value (its noun), and what follows from its name and spec path. */
static void
pool_labels(struct arena *a, struct inv_pool *p, struct kvs *tl, const char *node_type,
	    const char *noun)
{
	kvs_set(a, tl, INV_NODE_TYPE_LABEL, node_type);
	kvs_set(a, tl, INV_POOL_LABEL, noun);
	p->node_labels = tl->items;
	p->node_label_count = tl->count;
	p->node_selector = arena_printf(a, "karpenter.sh/nodepool=%s", p->name);
	p->node_type = node_type;
	p->noun = noun;
	p->spec_key = p->spec_path + strlen("spec.");
}

/* The fallback pool: on-demand (or reserved) capacity at zero nodes until
 * the site's own nodes cannot take its GPU pods. */
static bool
has_fallback(const struct spec_site *site)
{
	return site->fallback.enabled;
}

/* The taints of pool `p` beside the GPU taint: the role's `own` (or
 * NULL), then the site taint when the pool is exclusive (docs/design/inventory.md). */
static void
pool_taints(struct arena *a, struct inv_pool *p, const struct spec_site *site,
	    const struct spec_taint *own)
{
	struct spec_taint *t = arena_alloc(a, 2 * sizeof(*t));
	size_t n = 0;

	if (own)
		t[n++] = *own;
	if (p->spec->exclusive)
		t[n++] = (struct spec_taint){ INV_SITE_TAINT_KEY, site->name, INV_POOL_TAINT_EFFECT,
					      NULL };
	p->taints = n ? t : NULL;
	p->taint_count = n;
}

static void
fallback_pool(struct arena *a, struct inv_pool *p, const struct spec_site *site)
{
	const struct spec_fallback *fb = &site->fallback;
	bool auto_mode = site->cluster.provisioner == PROV_AUTO_MODE;
	struct kvs tl = { NULL, 0, 0 };

	p->role = INV_ROLE_FALLBACK_POOL;
	p->spec = fb;
	p->spec_path = "spec.fallback";
	p->name = fb->node_pool_name ? fb->node_pool_name
				     : arena_printf(a, "%s" INV_POOL_NAME_SUFFIX, site->name);
	p->class_name = fb->node_class_name ? fb->node_class_name
			: auto_mode         ? INV_NODE_CLASS_AUTO_MODE
					    : INV_NODE_CLASS_DEFAULT;
	p->class_kind = auto_mode ? "NodeClass" : "EC2NodeClass";
	p->renders_class = !auto_mode && fb->node_class.set && node_image_name(fb->node_image);
	kvs_set(a, &tl, INV_SITE_LABEL, site->name);
	/* what the fallback device plugin selects; left out without
	 * nodeImage, and with Auto Mode (GS111 refuses it) */
	if (!auto_mode && node_image_name(fb->node_image))
		kvs_set(a, &tl, INV_NODE_IMAGE_LABEL, node_image_name(fb->node_image));
	pool_labels(a, p, &tl, INV_NODE_TYPE_FALLBACK, INV_POOL_FALLBACK);
	p->at_key = "nodePoolName";
	p->title = "the cloud fallback";
	p->purpose = "the cloud GPU fallback: launches tainted GPU nodes when the on-prem nodes"
		     " cannot take the GPU pods, up to the GPU limit";
	p->owns_class = true;
	p->plugin_covers = true;
	p->scope = NULL; /* the placement scope's Pods */
	pool_taints(a, p, site, NULL);
	p->alert_prefix = "GPUSiteFallback";
	p->limit_note = "pods beyond it stay pending.";
}

/* The gpusite-<site>-<noun>-placement policy of a pool's own scope. */
static const char *
scope_policy_name(struct arena *a, const struct spec_site *site, const char *noun)
{
	return arena_printf(a, INV_OBJECT_PREFIX "%s-%s" INV_PLACEMENT_SUFFIX, site->name, noun);
}

/* The burst pool: Spot capacity for the burst scope, tainted so nothing
 * else lands there, on the fallback's node class. */
static bool
has_burst(const struct spec_site *site)
{
	return site->burst.pool.enabled;
}

static void
burst_pool(struct arena *a, struct inv_pool *p, const struct spec_site *site)
{
	static const struct spec_taint taint = { INV_BURST_TAINT_KEY, INV_BURST_TAINT_VALUE,
						 INV_BURST_TAINT_EFFECT, NULL };
	static const char *const off[] = { INV_POOL_FALLBACK };
	const struct spec_fallback *b = &site->burst.pool;
	struct inv_scope *sc = arena_alloc(a, sizeof(*sc));
	struct inv_pool fb;
	struct kvs tl = { NULL, 0, 0 };

	/* the node class and image are the fallback's */
	memset(&fb, 0, sizeof(fb));
	fallback_pool(a, &fb, site);
	*p = fb;
	p->role = INV_ROLE_BURST_POOL;
	p->spec = b;
	p->spec_path = "spec.burst";
	p->name = arena_printf(a, "%s" INV_BURST_POOL_SUFFIX, site->name);
	p->renders_class = false; /* the fallback's entry renders it */
	pool_taints(a, p, site, &taint);
	p->normal_time = true;
	for (size_t i = 0; i < fb.node_label_count; i++)
		kvs_set(a, &tl, fb.node_labels[i].key, fb.node_labels[i].value);
	pool_labels(a, p, &tl, INV_NODE_TYPE_BURST, INV_POOL_BURST);
	p->at_key = "gpuLimit";
	p->title = "the burst pool";
	p->purpose = "the burst pool: launches GPU nodes tainted for the burst scope only when the"
		     " on-prem nodes are busy, up to its GPU limit; never used by the fallback"
		     " scope";
	p->owns_class = false; /* the fallback's: judged with it */
	p->plugin_covers = true;
	/* its own scope: on-prem first, then this pool, never the fallback */
	*sc = (struct inv_scope){ (const char *const *)site->burst.namespaces,
				  site->burst.namespace_count,
				  site->burst.pod_selector,
				  site->burst.src,
				  p->spec_path,
				  scope_policy_name(a, site, p->noun),
				  off,
				  1 };
	p->scope = sc;
	p->alert_prefix = "GPUSiteBurst";
	p->limit_note = "burst pods beyond it stay pending (they never use the fallback). Raise"
			" burst.gpuLimit if the bursts are meant to grow.";
}

/* The labels nodeadm puts on a hybrid node of group `g`: the group's own,
 * then the tool's, which win over a group label of the same key. */
const struct spec_kv *
inventory_group_labels(struct arena *a, const struct spec_site *site,
		       const struct spec_node_group *g, size_t *count)
{
	struct kvs kv = { NULL, 0, 0 };

	for (size_t i = 0; i < g->label_count; i++)
		kvs_set(a, &kv, g->labels[i].key, g->labels[i].value);
	kvs_set(a, &kv, INV_NODE_TYPE_LABEL, INV_NODE_TYPE_HYBRID);
	kvs_set(a, &kv, INV_GPU_MODEL_LABEL, g->gpu_model);
	kvs_set(a, &kv, INV_SITE_LABEL, site->name);
	kvs_set(a, &kv, INV_GROUP_LABEL, g->name);
	*count = kv.count;
	return kv.items;
}

static void
hybrid_group(struct arena *a, struct inv_group *out, const struct spec_site *site,
	     const struct spec_node_group *g)
{
	out->name = g->name;
	out->spec = g;
	out->node_labels = inventory_group_labels(a, site, g, &out->node_label_count);
}

const char *
inventory_stack_release(enum spec_stack_type type)
{
	return type == STACK_GPU_OPERATOR ? INV_RELEASE_GPU_OPERATOR : INV_RELEASE_DEVICE_PLUGIN;
}

const char *
inventory_dns_name(struct arena *a, const char *name)
{
	char *n = arena_strdup(a, name);

	for (char *p = n; *p; p++) {
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
		else if (*p == '_')
			*p = '-';
	}
	return n;
}

const char *
inventory_app_name(struct arena *a, const char *cluster, enum inv_role role,
		   enum spec_stack_type type)
{
	return inventory_dns_name(a, arena_printf(a, "%s-%s", cluster,
						  role == INV_ROLE_FALLBACK_PLUGIN_APP
							  ? INV_RELEASE_FALLBACK_PLUGIN
							  : inventory_stack_release(type)));
}

/* The objects beyond pools and groups, one per role, in role order. */
static void
site_objects(struct arena *a, struct inventory *inv, const struct spec_site *site)
{
	const char *argocd_ns = site->argocd.namespace ? site->argocd.namespace : "";
	struct inv_object *o = arena_alloc(a, 5 * sizeof(*o));
	size_t n = 0;

	o[n++] = (struct inv_object){ INV_ROLE_NODECONFIG_MAP,
				      arena_printf(a, INV_NODECONFIG_MAP_PREFIX "%s", site->name),
				      INV_NODECONFIG_NAMESPACE };
	o[n++] = (struct inv_object){
		INV_ROLE_PLACEMENT_POLICY,
		arena_printf(a, INV_OBJECT_PREFIX "%s" INV_PLACEMENT_SUFFIX, site->name), ""
	};
	o[n++] = (struct inv_object){ INV_ROLE_ALERT_RULE,
				      arena_printf(a, INV_OBJECT_PREFIX "%s", site->name),
				      site->alerts.namespace ? site->alerts.namespace : "" };
	o[n++] = (struct inv_object){ INV_ROLE_GPU_STACK_APP,
				      inventory_app_name(a, site->cluster.name,
							 INV_ROLE_GPU_STACK_APP,
							 site->gpu_stack.type),
				      argocd_ns };
	o[n++] = (struct inv_object){ INV_ROLE_FALLBACK_PLUGIN_APP,
				      inventory_app_name(a, site->cluster.name,
							 INV_ROLE_FALLBACK_PLUGIN_APP,
							 site->gpu_stack.type),
				      argocd_ns };
	inv->objects = o;
	inv->object_count = n;
}

const struct inv_object *
inventory_object(const struct inventory *inv, enum inv_role role)
{
	for (size_t i = 0; i < inv->object_count; i++)
		if (inv->objects[i].role == role)
			return &inv->objects[i];
	return NULL;
}

/* The pools a site may have, one row each, in the order they render: a
 * new pool role is its enum value, a row here and the function that
 * builds its entry (docs/design/inventory.md, "Adding a pool role"). */
static const struct {
	bool (*present)(const struct spec_site *site);
	void (*build)(struct arena *a, struct inv_pool *p, const struct spec_site *site);
	/* what its builder sets, for readers without a site at hand */
	const char *node_type; /* the node-type value of its nodes */
	const char *noun;      /* its noun (and gpusite.io/pool value) */
	bool normal_time;      /* its normal_time */
} pool_kinds[] = {
	{ has_fallback, fallback_pool, INV_NODE_TYPE_FALLBACK, INV_POOL_FALLBACK, false },
	{ has_burst, burst_pool, INV_NODE_TYPE_BURST, INV_POOL_BURST, true },
};
_Static_assert(sizeof(pool_kinds) / sizeof(pool_kinds[0]) <= INV_POOL_MAX,
	       "a site has at most INV_POOL_MAX pools");

const char *
inventory_excludes_text(struct arena *a, const struct inv_scope *sc)
{
	const char *s = sc->exclude_count ? sc->excludes[0] : "";

	for (size_t i = 1; i < sc->exclude_count; i++)
		s = arena_printf(a, "%s or %s", s, sc->excludes[i]);
	return s;
}

size_t
inventory_pool_kind_count(void)
{
	return sizeof(pool_kinds) / sizeof(pool_kinds[0]);
}

const char *
inventory_pool_kind_noun(size_t k)
{
	return k < inventory_pool_kind_count() ? pool_kinds[k].noun : NULL;
}

bool
inventory_pool_kind_normal_time(size_t k)
{
	return k < inventory_pool_kind_count() && pool_kinds[k].normal_time;
}

const struct inv_pool *
inventory_pool_of_kind(const struct inventory *inv, size_t k)
{
	for (size_t i = 0; k < inventory_pool_kind_count() && i < inv->pool_count; i++)
		if (!strcmp(inv->pools[i].noun, pool_kinds[k].noun))
			return &inv->pools[i];
	return NULL;
}

bool
inventory_is_pool_node_type(const char *node_type)
{
	for (size_t k = 0; node_type && k < sizeof(pool_kinds) / sizeof(pool_kinds[0]); k++)
		if (!strcmp(node_type, pool_kinds[k].node_type))
			return true;
	return false;
}

/* What the placement scope's Pods never land on: the pools with a scope
 * of their own. */
static void
placement_excludes(struct arena *a, struct inventory *inv)
{
	const char **off = arena_alloc(a, (inv->pool_count + 1) * sizeof(*off));
	size_t n = 0;

	for (size_t i = 0; i < inv->pool_count; i++)
		if (inv->pools[i].scope)
			off[n++] = inv->pools[i].noun;
	inv->placement_excludes = off;
	inv->placement_exclude_count = n;
}

/*
 * The shared GPU resource names of the site's device-plugin sharing
 * configs (docs/design/upstream.md, "GPU resource names").  The configs
 * are YAML text in the chart values the site gives: config.map.<name> of
 * the device-plugin chart, devicePlugin.config.data.<name> of the GPU
 * Operator's.  Each may share resources by time-slicing or MPS,
 * `sharing: {timeSlicing|mps: {renameByDefault, resources: [{name,
 * rename}]}}`; the device plugin prefixes a name without one with
 * nvidia.com/, and renameByDefault renames a resource without `rename`
 * to <name>.shared.  The text is the user's: parsed with small limits,
 * and a config that does not parse gives no name (the device plugin
 * refuses it too).
 */
static const struct yamlio_limits sharing_limits = {
	.max_bytes = 64u << 10,
	.max_depth = 16,
	.max_nodes = 4096,
	.max_scalar = 4096,
	.max_docs = 1,
	.max_key = 256,
};

/* A resource name as the device plugin makes it: nvidia.com/ added when
 * missing, `suffix` appended; NULL unless the rest is a DNS-1123
 * subdomain (the plugin refuses such a config). */
static const char *
resource_name(struct arena *a, const char *n, const char *suffix)
{
	size_t pl = strlen(K8S_GPU_RESOURCE_PREFIX);
	bool bare = strncmp(n, K8S_GPU_RESOURCE_PREFIX, pl) != 0;
	const char *full =
		arena_printf(a, "%s%s%s", bare ? K8S_GPU_RESOURCE_PREFIX : "", n, suffix);

	return k8s_is_dns1123_subdomain(full + pl) ? full : NULL;
}

static void
shared_add(struct arena *a, struct inventory *inv, size_t *alloc, const char *name)
{
	const char **names = (const char **)inv->gpu_shared_names;

	if (!name ||
	    k8s_gpu_resource_is_gpu(name, inv->gpu_shared_names, inv->gpu_shared_name_count) ||
	    inv->gpu_shared_name_count == INV_GPU_SHARED_MAX)
		return;
	ARENA_GROW(a, names, inv->gpu_shared_name_count, *alloc, 4);
	names[inv->gpu_shared_name_count++] = name;
	inv->gpu_shared_names = names;
}

/* The names one strategy (timeSlicing or mps) of a config renames to. */
static void
sharing_names(struct arena *a, struct inventory *inv, size_t *alloc, const struct node *strategy)
{
	const struct node *by_default = node_map_get(strategy, "renameByDefault");
	const struct node *res = node_map_get(strategy, "resources");
	bool rename_all = by_default && by_default->type == NODE_BOOL && by_default->scalar.i;

	for (size_t i = 0; res && res->kind == NODE_SEQ && i < res->seq.count; i++) {
		const char *name = node_str(node_map_get(res->seq.items[i], "name"));
		const char *rename = node_str(node_map_get(res->seq.items[i], "rename"));

		if (rename && *rename)
			shared_add(a, inv, alloc, resource_name(a, rename, ""));
		else if (rename_all && name && *name)
			shared_add(a, inv, alloc, resource_name(a, name, K8S_GPU_SHARED_SUFFIX));
	}
}

static void
gpu_shared_names(struct arena *a, struct inventory *inv, const struct spec_site *site)
{
	const struct node *configs =
		node_path(site->gpu_stack.values, site->gpu_stack.type == STACK_GPU_OPERATOR
							  ? "devicePlugin.config.data"
							  : "config.map");
	size_t alloc = 0;

	for (size_t i = 0; configs && configs->kind == NODE_MAP && i < configs->map.count; i++) {
		const struct node *text = configs->map.pairs[i].value;
		struct yamlio_docs docs = { NULL, 0 };
		struct diags ignored;

		if (!text || text->kind != NODE_SCALAR || text->type != NODE_STR)
			continue;
		diags_init(&ignored, a);
		if (yamlio_load(&docs, a, &ignored, "sharing config", text->scalar.text,
				text->scalar.len, &sharing_limits) ||
		    !docs.count)
			continue;
		sharing_names(a, inv, &alloc, node_path(docs.docs[0], "sharing.timeSlicing"));
		sharing_names(a, inv, &alloc, node_path(docs.docs[0], "sharing.mps"));
	}
}

const struct inventory *
inventory_site(struct arena *a, const struct spec_site *site)
{
	return site->inventory ? site->inventory : inventory_build(a, site);
}

const struct inventory *
inventory_build(struct arena *a, const struct spec_site *site)
{
	struct inventory *inv = arena_alloc(a, sizeof(*inv));

	memset(inv, 0, sizeof(*inv));
	inv->site = site;
	site_objects(a, inv, site);
	if (site->group_count) {
		inv->groups = arena_alloc(a, site->group_count * sizeof(*inv->groups));
		for (size_t i = 0; i < site->group_count; i++)
			hybrid_group(a, &inv->groups[i], site, &site->groups[i]);
		inv->group_count = site->group_count;
	}
	inv->pools =
		arena_alloc(a, sizeof(pool_kinds) / sizeof(pool_kinds[0]) * sizeof(*inv->pools));
	for (size_t k = 0; k < sizeof(pool_kinds) / sizeof(pool_kinds[0]); k++)
		if (pool_kinds[k].present(site))
			pool_kinds[k].build(a, &inv->pools[inv->pool_count++], site);
	placement_excludes(a, inv);
	gpu_shared_names(a, inv, site);
	return inv;
}

const struct inv_pool *
inventory_failover_pool(const struct inventory *inv)
{
	for (size_t i = 0; i < inv->pool_count; i++)
		if (!inv->pools[i].normal_time)
			return &inv->pools[i];
	return NULL;
}

size_t
inventory_scope_tolerations(const struct inventory *inv, const struct inv_pool *own,
			    struct inv_toleration out[INV_TOLERATIONS_MAX])
{
	size_t n = 0;

	/* `own` is read as given: it may be an entry of another inventory of
	 * the same site (one built anew) */
	for (size_t k = 0; k < (own ? 1 : inv->pool_count); k++) {
		const struct inv_pool *p = own ? own : &inv->pools[k];

		if (!own && p->scope)
			continue;
		for (size_t t = 0; t < p->taint_count && n < INV_TOLERATIONS_MAX; t++) {
			const struct spec_taint *pt = &p->taints[t];
			bool seen = false;

			for (size_t i = 0; i < n; i++)
				seen |= !strcmp(out[i].taint->key, pt->key) &&
					!strcmp(out[i].taint->value, pt->value) &&
					!strcmp(out[i].taint->effect, pt->effect);
			if (seen)
				continue;
			out[n].taint = pt;
			out[n].exact = !strcmp(pt->key, INV_SITE_TAINT_KEY);
			out[n].noun = out[n].exact ? "site" : p->noun;
			n++;
		}
	}
	return n;
}

const struct inv_pool *
inventory_pool(const struct inventory *inv, enum inv_role role)
{
	for (size_t i = 0; i < inv->pool_count; i++)
		if (inv->pools[i].role == role)
			return &inv->pools[i];
	return NULL;
}

const struct inv_pool *
inventory_pool_named(const struct inventory *inv, const char *name)
{
	for (size_t i = 0; name && i < inv->pool_count; i++)
		if (!strcmp(inv->pools[i].name, name))
			return &inv->pools[i];
	return NULL;
}
