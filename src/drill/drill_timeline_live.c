/*
 * drill_timeline_live.c - the timeline of a drill (or of a real
 * incident) rebuilt from what the cluster still shows: node Ready
 * conditions and the unschedulable taint's timeAdded, pod timestamps and
 * conditions, container start times, NodeClaim conditions and the
 * Pulling/Pulled/Started events.  A deleted pod is soon gone from the
 * API; its kubelet's Killing event (kept an hour by default) still tells
 * when it was stopped.  GET and LIST only.
 */
#include <stdio.h>
#include <string.h>

#include "base/arena.h"
#include "drill/drill.h"
#include "inventory/inventory.h"
#include "k8s/k8s_selector.h"
#include "k8s/k8s_time.h"
#include "kube/kube.h"
#include "node/node.h"
#include "spec/spec.h"

struct collect {
	struct arena *a;
	struct drill_record *r;
	const struct spec_site *s;
	int64_t since;
	const char **fallback_nodes; /* the nodes of the fallback pool */
	size_t nfallback;
	const struct inv_scope *scope;   /* the pool scope read_scopes() lists */
	struct drill_scope_check *check; /* and its check in the record */
};

static bool
time_of(int64_t *out, const struct node *n)
{
	const char *t = node_str(n);

	return t && !k8s_time_parse(out, t);
}

static void
add(struct collect *c, int64_t t, enum drill_object o, const char *ns, const char *name,
    enum drill_what w, const char *node, const char *detail)
{
	if (t < c->since)
		return;
	drill_record_add(c->a, c->r, t, o, ns, name, w, node, detail);
}

static void
add_node_name(struct collect *c, const char *name)
{
	struct drill_record *r = c->r;

	for (size_t i = 0; i < r->node_count; i++)
		if (!strcmp(r->nodes[i], name))
			return;
	r->nodes = arena_realloc(c->a, r->nodes, r->node_count * sizeof(*r->nodes),
				 (r->node_count + 1) * sizeof(*r->nodes));
	r->nodes[r->node_count++] = arena_strdup(c->a, name);
}

static int
on_node(void *payload, const struct node *obj)
{
	struct collect *c = payload;
	const char *name = node_str(node_path(obj, "metadata.name"));
	const struct node *conds = node_path(obj, "status.conditions");
	const struct node *taints = node_path(obj, "spec.taints");
	const char *pool =
		node_str(node_map_get(node_path(obj, "metadata.labels"), "karpenter.sh/nodepool"));
	bool ours = name && drill_node_drillable(c->s, obj, name);
	const char *want = drill_pool_name(c->a, c->s);
	bool fallback = pool && want && !strcmp(pool, want);
	bool drilled = false;
	int64_t t;

	if (!name || (!ours && !fallback))
		return 0;
	if (fallback) {
		c->fallback_nodes =
			arena_realloc(c->a, c->fallback_nodes, c->nfallback * sizeof(char *),
				      (c->nfallback + 1) * sizeof(char *));
		c->fallback_nodes[c->nfallback++] = arena_strdup(c->a, name);
	}
	for (size_t i = 0; taints && taints->kind == NODE_SEQ && i < taints->seq.count; i++) {
		const struct node *x = taints->seq.items[i];
		const char *key = node_str(node_map_get(x, "key"));

		if (ours && key && !strcmp(key, "node.kubernetes.io/unschedulable") &&
		    time_of(&t, node_map_get(x, "timeAdded"))) {
			add(c, t, DRILL_OBJ_NODE, NULL, name, DRILL_CORDONED, name, NULL);
			drilled = t >= c->since;
		}
	}
	for (size_t i = 0; conds && conds->kind == NODE_SEQ && i < conds->seq.count; i++) {
		const struct node *x = conds->seq.items[i];
		const char *type = node_str(node_map_get(x, "type"));
		const char *st = node_str(node_map_get(x, "status"));
		int64_t hb;

		if (!type || strcmp(type, "Ready") || !st ||
		    !time_of(&t, node_map_get(x, "lastTransitionTime")))
			continue;
		if (strcmp(st, "True") && ours) {
			char tb[DRILL_TIME_BUFSZ];
			const char *detail = NULL;

			if (time_of(&hb, node_map_get(x, "lastHeartbeatTime"))) {
				drill_time_format(tb, sizeof(tb), hb);
				detail = arena_printf(c->a, "lastHeartbeat %s", tb);
			}
			add(c, t, DRILL_OBJ_NODE, NULL, name, DRILL_NOT_READY, name, detail);
			drilled = drilled || t >= c->since;
		} else if (!strcmp(st, "True") && fallback) {
			add(c, t, DRILL_OBJ_NODE, NULL, name, DRILL_READY, name, NULL);
		}
	}
	if (drilled)
		add_node_name(c, name);
	return 0;
}

static void on_restart(void *payload);

/* A Pod of a pool's own scope (the burst scope): bound to a node of the
 * failover pool? */
static int
on_scope_pod(void *payload, const struct node *obj)
{
	struct collect *c = payload;
	const char *ns = node_str(node_path(obj, "metadata.namespace"));
	const char *name = node_str(node_path(obj, "metadata.name"));
	const char *node = node_str(node_path(obj, "spec.nodeName"));

	if (!name || !node ||
	    !k8s_label_selector_matches(c->scope->pod_selector, node_path(obj, "metadata.labels")))
		return 0;
	c->check->pods++;
	for (size_t i = 0; i < c->nfallback; i++) {
		if (strcmp(c->fallback_nodes[i], node))
			continue;
		if (!c->check->on_failover++)
			c->check->offender =
				arena_printf(c->a, "%s/%s on %s", ns ? ns : "", name, node);
		break;
	}
	return 0;
}

/* The Pods of each pool's own scope against the failover pool's nodes:
 * one check in the record per such pool. */
static int
read_scopes(struct collect *c, struct kube_client *k)
{
	const struct inventory *inv = inventory_site(c->a, c->s);
	const struct inv_pool *failover = inventory_failover_pool(inv);
	size_t n = 0;

	for (size_t p = 0; p < inv->pool_count; p++)
		n += inv->pools[p].scope != NULL;
	if (!n || !failover)
		return 0;
	c->r->scope_checks = arena_alloc(c->a, n * sizeof(*c->r->scope_checks));
	for (size_t p = 0; p < inv->pool_count; p++) {
		if (!(c->scope = inv->pools[p].scope))
			continue;
		c->check = &c->r->scope_checks[c->r->scope_check_count++];
		c->check->noun = inv->pools[p].noun;
		c->check->failover_noun = failover->noun;
		for (size_t i = 0; i < c->scope->namespace_count; i++) {
			struct kube_list_query pq = { "v1", "Pod", c->scope->namespaces[i],
						      NULL, NULL,  0 };
			struct kube_list_cb pcb = { on_scope_pod, on_restart, c };

			if (kube_list(k, &pq, &pcb) == KUBE_EFAIL)
				return -1;
		}
	}
	return 0;
}

static int
on_pod(void *payload, const struct node *obj)
{
	struct collect *c = payload;
	const char *ns = node_str(node_path(obj, "metadata.namespace"));
	const char *name = node_str(node_path(obj, "metadata.name"));
	const char *node = node_str(node_path(obj, "spec.nodeName"));
	const struct node *conds = node_path(obj, "status.conditions");
	const struct node *cs = node_path(obj, "status.containerStatuses");
	int64_t t, started = 0;
	bool have_started = false;

	if (!name)
		return 0;
	if (time_of(&t, node_path(obj, "metadata.creationTimestamp")))
		add(c, t, DRILL_OBJ_POD, ns, name, DRILL_PENDING, NULL, NULL);
	if (time_of(&t, node_path(obj, "metadata.deletionTimestamp")))
		add(c, t, DRILL_OBJ_POD, ns, name, DRILL_DELETED, node, NULL);
	for (size_t i = 0; conds && conds->kind == NODE_SEQ && i < conds->seq.count; i++) {
		const struct node *x = conds->seq.items[i];
		const char *type = node_str(node_map_get(x, "type"));
		const char *st = node_str(node_map_get(x, "status"));

		if (!type || !st || strcmp(st, "True") ||
		    !time_of(&t, node_map_get(x, "lastTransitionTime")))
			continue;
		if (!strcmp(type, "PodScheduled"))
			add(c, t, DRILL_OBJ_POD, ns, name, DRILL_SCHEDULED, node, NULL);
		else if (!strcmp(type, "ContainersReady"))
			add(c, t, DRILL_OBJ_POD, ns, name, DRILL_CONTAINERS_READY, node, NULL);
		else if (!strcmp(type, "Ready"))
			add(c, t, DRILL_OBJ_POD, ns, name, DRILL_READY, node, NULL);
	}
	/* the containers started when the last of them did */
	for (size_t i = 0; cs && cs->kind == NODE_SEQ && i < cs->seq.count; i++)
		if (time_of(&t, node_path(cs->seq.items[i], "state.running.startedAt")) &&
		    (!have_started || t > started)) {
			started = t;
			have_started = true;
		}
	if (have_started)
		add(c, started, DRILL_OBJ_POD, ns, name, DRILL_STARTED, node, NULL);
	return 0;
}

static int
on_event(void *payload, const struct node *obj)
{
	struct collect *c = payload;
	const char *reason = node_str(node_map_get(obj, "reason"));
	const char *kind = node_str(node_path(obj, "involvedObject.kind"));
	const char *name = node_str(node_path(obj, "involvedObject.name"));
	const char *ns = node_str(node_path(obj, "involvedObject.namespace"));
	const char *node = node_str(node_path(obj, "source.host"));
	enum drill_what w;
	int64_t t;

	if (!reason || !kind || strcmp(kind, "Pod") || !name)
		return 0;
	if (!strcmp(reason, "Pulling"))
		w = DRILL_PULLING;
	else if (!strcmp(reason, "Pulled"))
		w = DRILL_PULLED;
	else if (!strcmp(reason, "Started"))
		w = DRILL_STARTED;
	else if (!strcmp(reason, "Killing"))
		w = DRILL_DELETED; /* the kubelet stops a deleted pod's containers */
	else
		return 0;
	if (!time_of(&t, node_map_get(obj, "eventTime")) &&
	    !time_of(&t, node_map_get(obj, "firstTimestamp")))
		return 0;
	add(c, t, DRILL_OBJ_EVENT, ns, name, w, node, NULL);
	return 0;
}

static int
on_claim(void *payload, const struct node *obj)
{
	struct collect *c = payload;
	const char *name = node_str(node_path(obj, "metadata.name"));
	const char *node = node_str(node_path(obj, "status.nodeName"));
	const struct node *conds = node_path(obj, "status.conditions");
	int64_t t;

	for (size_t i = 0; name && conds && conds->kind == NODE_SEQ && i < conds->seq.count; i++) {
		const struct node *x = conds->seq.items[i];
		const char *type = node_str(node_map_get(x, "type"));
		const char *st = node_str(node_map_get(x, "status"));
		enum drill_what w;

		if (!type || !st || strcmp(st, "True") ||
		    !time_of(&t, node_map_get(x, "lastTransitionTime")))
			continue;
		if (!strcmp(type, "Launched"))
			w = DRILL_LAUNCHED;
		else if (!strcmp(type, "Registered"))
			w = DRILL_REGISTERED;
		else if (!strcmp(type, "Initialized"))
			w = DRILL_INITIALIZED;
		else
			continue;
		add(c, t, DRILL_OBJ_NODECLAIM, NULL, name, w, node, NULL);
	}
	return 0;
}

static void
on_restart(void *payload)
{
	(void)payload; /* lists are read again whole; duplicates are harmless */
}

int
drill_timeline_from_cluster(struct arena *a, struct drill_record *out, struct kube_client *k,
			    const struct spec_site *s, enum drill_scenario sc, int64_t since)
{
	struct collect c = { a, out, s, since, NULL, 0, NULL, NULL };
	struct kube_list_cb cb = { on_node, on_restart, &c };
	struct kube_list_query q = { "v1", "Node", NULL, NULL, NULL, 0 };
	int rc;

	memset(out, 0, sizeof(*out));
	out->site = s->name;
	out->cluster = s->cluster.name;
	out->scenario = sc;
	out->started_at = 0;
	if (kube_list(k, &q, &cb) == KUBE_EFAIL)
		return -1;
	for (size_t i = 0; i < s->placement.namespace_count; i++) {
		struct kube_list_query pq = {
			"v1", "Pod", s->placement.namespaces[i], NULL, NULL, 0
		};
		struct kube_list_query eq = { "v1", "Event", s->placement.namespaces[i],
					      NULL, NULL,    0 };
		struct kube_list_cb pcb = { on_pod, on_restart, &c };
		struct kube_list_cb ecb = { on_event, on_restart, &c };

		if (kube_list(k, &pq, &pcb) == KUBE_EFAIL)
			return -1;
		rc = kube_list(k, &eq, &ecb);
		if (rc == KUBE_EFAIL)
			return -1;
	}
	if (s->fallback.enabled && s->cluster.provisioner == PROV_KARPENTER) {
		struct kube_list_query cq = { "karpenter.sh/v1",
					      "NodeClaim",
					      NULL,
					      arena_printf(a, "karpenter.sh/nodepool=%s",
							   drill_pool_name(a, s)),
					      NULL,
					      0 };
		struct kube_list_cb ccb = { on_claim, on_restart, &c };

		if (kube_list(k, &cq, &ccb) == KUBE_EFAIL)
			return -1;
	}
	if (read_scopes(&c, k) < 0)
		return -1;
	drill_record_sort(out);
	if (out->count)
		out->started_at = out->transitions[0].time;
	return 0;
}
