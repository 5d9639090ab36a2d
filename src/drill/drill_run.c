/*
 * drill_run.c - `gpusite drill run`: cordon the site's nodes, evict their
 * pods through the Eviction API as `kubectl drain` does, poll until every
 * GPU pod that moved is Ready again, and keep the timeline in the drill
 * record; `--restore` uncordons and waits for the return condition.
 *
 * Before the first write a SelfSubjectAccessReview asks for every right
 * the run needs, so a drill never stops half-way for lack of RBAC.  A
 * signal stops the run between two calls: the nodes stay as they are and
 * the record says "interrupted".
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/buf.h"
#include "drill/drill_run.h"
#include "k8s/k8s_time.h"
#include "kube/kube.h"
#include "node/node.h"
#include "spec/spec.h"

#define SITE_LABEL "gpusite.io/site"
#define GROUP_LABEL "gpusite.io/node-group"
#define POOL_LABEL "karpenter.sh/nodepool"
#define MIRROR_ANNOTATION "kubernetes.io/config.mirror"
#define RESTORE_MARGIN 300 /* seconds past consolidateAfter */

struct mover {
	const char *ns, *name, *node;
	const char *owner_uid; /* controller, or NULL */
	bool gpu;
};

/* Pods of one controller that must be Ready again. */
struct owner {
	const char *ns, *uid, *name;
	size_t ready_before;
};

struct run {
	struct arena *a;
	struct diags *d;
	const struct drill_run_opts *o;
	struct drill_record *rec;
	struct drill_run_result *res;
	struct mover *movers;
	size_t nmovers;
	struct owner *owners;
	size_t nowners;
};

static int64_t
now_s(void)
{
	return (int64_t)time(NULL);
}

/* Sleep `secs` in short slices; -1 as soon as a signal asked to stop. */
static int
nap(const struct run *r, double secs)
{
	while (secs > 0) {
		double s = secs < 0.05 ? secs : 0.05;
		struct timespec ts = { 0, (long)(s * 1e9) };

		if (*r->o->stop)
			return -1;
		nanosleep(&ts, NULL);
		secs -= s;
	}
	return *r->o->stop ? -1 : 0;
}

static const char *
label(const struct node *obj, const char *key)
{
	return node_str(node_map_get(node_path(obj, "metadata.labels"), key));
}

static bool
in_group_list(const struct spec_node_group *g, const char *name)
{
	for (size_t i = 0; i < g->node_count; i++)
		if (!strcmp(g->nodes[i], name))
			return true;
	return false;
}

/* A node of the site: its gpusite.io/site label, or named in a group. */
static bool
site_node(const struct spec_site *s, const struct node *obj, const char *name)
{
	const char *l = label(obj, SITE_LABEL);

	if (l && !strcmp(l, s->name))
		return true;
	for (size_t g = 0; g < s->group_count; g++)
		if (in_group_list(&s->groups[g], name))
			return true;
	return false;
}

static bool
group_node(const struct spec_site *s, const struct node *obj, const char *name, const char *group)
{
	const char *l = label(obj, GROUP_LABEL);

	if (l && !strcmp(l, group))
		return true;
	for (size_t g = 0; g < s->group_count; g++)
		if (!strcmp(s->groups[g].name, group) && in_group_list(&s->groups[g], name))
			return true;
	return false;
}

static bool
drilled(const struct drill_record *rec, const char *node)
{
	for (size_t i = 0; node && i < rec->node_count; i++)
		if (!strcmp(rec->nodes[i], node))
			return true;
	return false;
}

static void
add_node(struct run *r, const char *name)
{
	struct drill_record *rec = r->rec;

	rec->nodes = arena_realloc(r->a, rec->nodes, rec->node_count * sizeof(*rec->nodes),
				   (rec->node_count + 1) * sizeof(*rec->nodes));
	rec->nodes[rec->node_count++] = arena_strdup(r->a, name);
}

/* --nodes, --group, else every node of the site. */
static int
choose_nodes(struct run *r)
{
	const struct drill_run_opts *o = r->o;
	const struct spec_site *s = o->site;
	struct node *nodes;

	if (kube_list_nodes(&nodes, o->kube, r->a) < 0)
		return -1;
	if (o->node_count) {
		for (size_t i = 0; i < o->node_count; i++) {
			bool found = false;

			for (size_t j = 0; j < nodes->seq.count && !found; j++) {
				const char *n =
					node_str(node_path(nodes->seq.items[j], "metadata.name"));

				if (n && !strcmp(n, o->nodes[i])) {
					found = true;
					if (!site_node(s, nodes->seq.items[j], n))
						return diag_add(
							r->d, DIAG_ERROR, (struct pos)POS_NONE,
							DRILL_RUN_NODES, "",
							"node '%s' is not a node of site '%s' "
							"(no %s=%s label, not in a nodeGroup): "
							"name the site's nodes with --nodes",
							n, s->name, SITE_LABEL, s->name);
				}
			}
			if (!found)
				return diag_add(r->d, DIAG_ERROR, (struct pos)POS_NONE,
						DRILL_RUN_NODES, "",
						"node '%s' is not in the cluster: check the "
						"name (kubectl get nodes -l %s=%s)",
						o->nodes[i], SITE_LABEL, s->name);
			add_node(r, o->nodes[i]);
		}
		return 0;
	}
	for (size_t j = 0; j < nodes->seq.count; j++) {
		const struct node *n = nodes->seq.items[j];
		const char *name = node_str(node_path(n, "metadata.name"));

		if (!name || !site_node(s, n, name))
			continue;
		if (o->group && !group_node(s, n, name, o->group))
			continue;
		add_node(r, name);
	}
	if (!r->rec->node_count)
		return diag_add(r->d, DIAG_ERROR, (struct pos)POS_NONE, DRILL_RUN_NODES, "",
				o->group ? "no node of group '%s' of site '%s' is in the "
					   "cluster: check --group and the nodes' %s label"
					 : "no node of site '%s%s' is in the cluster: check the "
					   "nodes' %s label or name them with --nodes",
				o->group ? o->group : "", s->name,
				o->group ? GROUP_LABEL : SITE_LABEL);
	return 0;
}

static bool
requests_gpu(const struct node *pod)
{
	const struct node *cs = node_path(pod, "spec.containers");

	for (size_t i = 0; cs && cs->kind == NODE_SEQ && i < cs->seq.count; i++)
		if (node_map_get(node_path(cs->seq.items[i], "resources.requests"),
				 "nvidia.com/gpu"))
			return true;
	return false;
}

static const struct node *
controller_of(const struct node *pod)
{
	const struct node *refs = node_path(pod, "metadata.ownerReferences");

	for (size_t i = 0; refs && refs->kind == NODE_SEQ && i < refs->seq.count; i++) {
		const struct node *c = node_map_get(refs->seq.items[i], "controller");

		if (node_is_bool(c) && c->scalar.i)
			return refs->seq.items[i];
	}
	return NULL;
}

static bool
pod_ready(const struct node *pod)
{
	const struct node *cs = node_path(pod, "status.conditions");

	for (size_t i = 0; cs && cs->kind == NODE_SEQ && i < cs->seq.count; i++) {
		const char *t = node_str(node_map_get(cs->seq.items[i], "type"));
		const char *st = node_str(node_map_get(cs->seq.items[i], "status"));

		if (t && !strcmp(t, "Ready"))
			return st && !strcmp(st, "True");
	}
	return false;
}

static bool
in_placement(const struct spec_site *s, const char *ns)
{
	if (!s->placement.namespace_count)
		return true;
	for (size_t i = 0; i < s->placement.namespace_count; i++)
		if (!strcmp(s->placement.namespaces[i], ns))
			return true;
	return false;
}

static void
add_owner(struct run *r, const char *ns, const char *uid, const char *name)
{
	for (size_t i = 0; i < r->nowners; i++)
		if (!strcmp(r->owners[i].uid, uid) && !strcmp(r->owners[i].ns, ns))
			return;
	r->owners = arena_realloc(r->a, r->owners, r->nowners * sizeof(*r->owners),
				  (r->nowners + 1) * sizeof(*r->owners));
	r->owners[r->nowners++] = (struct owner){ ns, uid, name, 0 };
}

/* The pods of the chosen nodes that an eviction moves (not DaemonSet,
 * not mirror pods, not finished ones), as kubectl drain picks them. */
static int
collect_pods(struct run *r)
{
	struct kube_client *k = r->o->kube;

	for (size_t i = 0; i < r->rec->node_count; i++) {
		struct kube_list_query q = {
			"v1",
			"Pod",
			NULL,
			NULL,
			arena_printf(r->a, "spec.nodeName=%s", r->rec->nodes[i]),
			0
		};
		struct node *pods;

		if (kube_list_all(&pods, k, r->a, &q) < 0)
			return -1;
		for (size_t j = 0; j < pods->seq.count; j++) {
			const struct node *p = pods->seq.items[j];
			const struct node *ctl = controller_of(p);
			const char *ckind = ctl ? node_str(node_map_get(ctl, "kind")) : NULL;
			const char *phase = node_str(node_path(p, "status.phase"));
			const char *ns = node_str(node_path(p, "metadata.namespace"));
			const char *name = node_str(node_path(p, "metadata.name"));
			struct mover *m;

			if (!ns || !name)
				continue;
			if (node_map_get(node_path(p, "metadata.annotations"), MIRROR_ANNOTATION))
				continue; /* the kubelet's; the API cannot evict it */
			if (ckind && !strcmp(ckind, "DaemonSet"))
				continue; /* would come straight back */
			if (phase && (!strcmp(phase, "Succeeded") || !strcmp(phase, "Failed")))
				continue;
			r->movers = arena_realloc(r->a, r->movers, r->nmovers * sizeof(*m),
						  (r->nmovers + 1) * sizeof(*m));
			m = &r->movers[r->nmovers++];
			m->ns = ns;
			m->name = name;
			m->node = r->rec->nodes[i];
			m->owner_uid = ctl ? node_str(node_map_get(ctl, "uid")) : NULL;
			m->gpu = requests_gpu(p) && in_placement(r->o->site, ns);
			if (m->gpu && m->owner_uid)
				add_owner(r, ns, m->owner_uid, node_str(node_map_get(ctl, "name")));
		}
	}
	return 0;
}

/* Ready pods of each owner now, outside the drilled nodes when `away`. */
static int
count_ready(struct run *r, size_t *counts, bool away, const char **where)
{
	struct kube_client *k = r->o->kube;

	*where = NULL;
	for (size_t i = 0; i < r->nowners; i++)
		counts[i] = 0;
	for (size_t i = 0; i < r->nowners; i++) {
		struct kube_list_query q = { "v1", "Pod", r->owners[i].ns, NULL, NULL, 0 };
		struct node *pods;
		bool seen = false;

		for (size_t j = 0; j < i; j++)
			seen |= !strcmp(r->owners[j].ns, r->owners[i].ns);
		if (seen)
			continue; /* that namespace was counted */
		if (kube_list_all(&pods, k, r->a, &q) < 0)
			return -1;
		for (size_t j = 0; j < pods->seq.count; j++) {
			const struct node *p = pods->seq.items[j];
			const struct node *ctl = controller_of(p);
			const char *uid = ctl ? node_str(node_map_get(ctl, "uid")) : NULL;
			const char *node = node_str(node_path(p, "spec.nodeName"));
			const char *made = node_str(node_path(p, "metadata.creationTimestamp"));
			int64_t t = 0;
			bool fresh = made && !k8s_time_parse(&t, made) && t >= r->rec->started_at;

			if (!uid || !pod_ready(p) || node_path(p, "metadata.deletionTimestamp"))
				continue;
			if (away && drilled(r->rec, node))
				continue;
			for (size_t o = 0; o < r->nowners; o++)
				if (!strcmp(r->owners[o].uid, uid) &&
				    !strcmp(r->owners[o].ns, r->owners[i].ns)) {
					counts[o]++;
					if (away && node && fresh &&
					    (!*where || !strstr(*where, node)))
						*where = *where ? arena_printf(r->a, "%s, %s",
									       *where, node)
								: arena_strdup(r->a, node);
				}
		}
	}
	return 0;
}

/* Add what the cluster shows since the drill began, once each. */
static int
observe(struct run *r)
{
	struct drill_record seen;
	struct drill_record *rec = r->rec;

	if (drill_timeline_from_cluster(r->a, &seen, r->o->kube, r->o->site, rec->scenario,
					rec->started_at) < 0)
		return -1;
	for (size_t i = 0; i < seen.count; i++) {
		const struct drill_transition *t = &seen.transitions[i];
		bool dup = false;

		for (size_t j = 0; j < rec->count && !dup; j++) {
			const struct drill_transition *u = &rec->transitions[j];

			dup = u->object == t->object && u->what == t->what &&
			      !strcmp(u->name, t->name) && !!u->namespace == !!t->namespace &&
			      (!u->namespace || !strcmp(u->namespace, t->namespace));
		}
		if (!dup)
			drill_record_add(r->a, rec, t->time, t->object, t->namespace, t->name,
					 t->what, t->node, t->detail);
	}
	return 0;
}

static void
print_call(FILE *out, const struct kube_call *c)
{
	fprintf(out, "%s %s %s %s\n", c->method, c->path, c->content_type, c->body);
}

/* The rights the run needs: reads, then the writes. */
struct right {
	const char *verb, *group, *resource, *sub;
};

/* --restore needs the first five */
static const struct right rights_run[] = {
	{ "list", "", "nodes", NULL },  { "list", "", "pods", NULL },
	{ "list", "", "events", NULL }, { "list", "karpenter.sh", "nodeclaims", NULL },
	{ "patch", "", "nodes", NULL }, { "create", "", "pods", "eviction" },
};

static const char *
right_text(struct arena *a, const struct right *rt)
{
	return arena_printf(a, "%s %s%s%s%s%s", rt->verb, rt->resource, rt->sub ? "/" : "",
			    rt->sub ? rt->sub : "", *rt->group ? "." : "", rt->group);
}

static int
check_rights(struct run *r)
{
	const char *missing = NULL;
	size_t nmissing = 0;
	size_t n = r->o->restore ? 5 : sizeof(rights_run) / sizeof(rights_run[0]);

	for (size_t i = 0; i < n; i++) {
		const struct right *rt = &rights_run[i];
		struct kube_call c;
		struct kube_answer ans;
		const struct node *allowed;

		if (kube_call_access_review(&c, r->a, rt->verb, rt->group, rt->resource, rt->sub,
					    NULL) < 0)
			return -1;
		if (!r->o->execute) {
			print_call(r->o->out, &c);
			continue;
		}
		if (kube_send(&ans, r->o->kube, r->a, &c,
			      "ask the API server for the drill's rights") < 0)
			return -1;
		allowed = node_path(ans.body, "status.allowed");
		if (ans.status != 201 && ans.status != 200)
			return diag_add(r->d, DIAG_ERROR, (struct pos)POS_NONE, DRILL_RUN_RIGHTS,
					"",
					"cannot ask whether the drill may %s: "
					"SelfSubjectAccessReview answered %ld%s%s; nothing "
					"was changed",
					right_text(r->a, rt), ans.status, ans.message ? ": " : "",
					ans.message ? ans.message : "");
		if (!node_is_bool(allowed) || !allowed->scalar.i) {
			nmissing++;
			missing = missing ? arena_printf(r->a, "%s, '%s'", missing,
							 right_text(r->a, rt))
					  : arena_printf(r->a, "'%s'", right_text(r->a, rt));
		}
	}
	if (missing) {
		r->res->denied = true;
		return diag_add(r->d, DIAG_ERROR, (struct pos)POS_NONE, DRILL_RUN_RIGHTS, "",
				"the drill needs %s at the cluster scope and the user "
				"of this context lacks %s; nothing was changed: bind "
				"the role of examples/rbac/gpusite-drill.yaml",
				missing, nmissing > 1 ? "them" : "it");
	}
	return 0;
}

static int
cordon(struct run *r, bool on)
{
	for (size_t i = 0; i < r->rec->node_count; i++) {
		const char *node = r->rec->nodes[i];
		struct kube_call c;
		struct kube_answer ans;

		if (kube_call_cordon(&c, r->a, node, on) < 0)
			return -1;
		if (!r->o->execute) {
			print_call(r->o->out, &c);
			continue;
		}
		if (*r->o->stop)
			return -1;
		if (kube_send(&ans, r->o->kube, r->a, &c,
			      arena_printf(r->a, "%s node '%s'", on ? "cordon" : "uncordon",
					   node)) < 0)
			return -1;
		r->res->wrote = true;
		if (ans.status != 200)
			return diag_add(r->d, DIAG_ERROR, (struct pos)POS_NONE, DRILL_RUN_WRITE, "",
					"cannot %s node '%s': the API server answered "
					"%ld%s%s",
					on ? "cordon" : "uncordon", node, ans.status,
					ans.message ? ": " : "", ans.message ? ans.message : "");
		fprintf(r->o->out, "node/%s %s\n", node, on ? "cordoned" : "uncordoned");
		if (!on)
			drill_record_add(r->a, r->rec, now_s(), DRILL_OBJ_NODE, NULL, node,
					 DRILL_UNCORDONED, node, "local clock");
	}
	return 0;
}

static int
evict_one(struct run *r, const struct mover *m)
{
	struct kube_call c;
	struct kube_answer ans;
	double wait = r->o->interval;

	if (kube_call_evict(&c, r->a, m->ns, m->name) < 0)
		return -1;
	if (!r->o->execute) {
		print_call(r->o->out, &c);
		return 0;
	}
	for (int tries = 1;; tries++) {
		if (*r->o->stop)
			return -1;
		if (kube_send(&ans, r->o->kube, r->a, &c,
			      arena_printf(r->a, "evict pod '%s' in namespace '%s'", m->name,
					   m->ns)) < 0)
			return -1;
		r->res->wrote = true;
		if (ans.status == 201 || ans.status == 200) {
			fprintf(r->o->out, "pod/%s evicted (namespace %s)\n", m->name, m->ns);
			drill_record_add(r->a, r->rec, now_s(), DRILL_OBJ_POD, m->ns, m->name,
					 DRILL_EVICTED, m->node, "policy/v1 Eviction accepted");
			return 0;
		}
		if (ans.status == 404)
			return 0; /* gone already */
		if (ans.status != 429)
			return diag_add(r->d, DIAG_ERROR, (struct pos)POS_NONE, DRILL_RUN_WRITE, "",
					"cannot evict pod '%s' in namespace '%s': the API "
					"server answered %ld%s%s",
					m->name, m->ns, ans.status, ans.message ? ": " : "",
					ans.message ? ans.message : "");
		if (tries >= DRILL_RUN_EVICT_TRIES)
			return diag_add(r->d, DIAG_ERROR, (struct pos)POS_NONE, DRILL_RUN_PDB, "",
					"pod '%s' in namespace '%s' cannot be evicted: %s "
					"(still refused after %d tries); the nodes stay "
					"cordoned: scale the workload up or relax that "
					"PodDisruptionBudget, then run the drill again",
					m->name, m->ns,
					ans.cause     ? ans.cause
					: ans.message ? ans.message
						      : "429 Too Many Requests",
					tries);
		if (nap(r, ans.retry_after > 0 && ans.retry_after < wait ? ans.retry_after : wait) <
		    0)
			return -1;
		wait *= 2;
	}
}

/* Every GPU pod that moved Ready again, away from the drilled nodes. */
static int
wait_available(struct run *r, int64_t deadline)
{
	size_t *counts = arena_alloc(r->a, (r->nowners + 1) * sizeof(*counts));
	const char *where;

	for (;;) {
		bool all = true;

		if (observe(r) < 0 || count_ready(r, counts, true, &where) < 0)
			return -1;
		for (size_t i = 0; i < r->nowners; i++)
			all &= counts[i] >= r->owners[i].ready_before;
		if (all) {
			drill_record_add(r->a, r->rec, now_s(), DRILL_OBJ_DRILL, NULL,
					 r->o->site->name, DRILL_AVAILABLE, NULL,
					 !r->nowners ? "no GPU pod had to move"
					 : where     ? arena_printf(r->a,
								    "every GPU pod Ready again; "
									"replacements on %s",
								    where)
						     : "every GPU pod Ready "
						       "again");
			r->res->outcome = DRILL_OUTCOME_AVAILABLE;
			return 0;
		}
		if (now_s() >= deadline) {
			r->res->outcome = DRILL_OUTCOME_TIMEOUT;
			for (size_t i = 0; i < r->nowners; i++)
				if (counts[i] < r->owners[i].ready_before)
					diag_add(r->d, DIAG_ERROR, (struct pos)POS_NONE,
						 DRILL_RUN_TIMEOUT, "",
						 "%s '%s' in namespace '%s' has %zu of its %zu "
						 "GPU pods Ready after %gs: its replacements are "
						 "Pending or starting; check that the fallback "
						 "nodes get GPUs (gpusite drift: device plugin) "
						 "and the events of its pods",
						 "controller",
						 r->owners[i].name ? r->owners[i].name : "?",
						 r->owners[i].ns, counts[i],
						 r->owners[i].ready_before, r->o->timeout);
			return 0;
		}
		if (nap(r, r->o->interval) < 0)
			return -1;
	}
}

/* The return condition: the nodes schedulable, no pod of the placement
 * scope on a fallback node, the fallback pool at zero nodes. */
static int
wait_returned(struct run *r, int64_t deadline)
{
	const struct spec_site *s = r->o->site;

	for (;;) {
		struct node *nodes, *pods;
		size_t pool_nodes = 0, away = 0, cordoned = 0;
		struct kube_list_query pq = { "v1", "Pod", NULL, NULL, NULL, 0 };

		if (kube_list_nodes(&nodes, r->o->kube, r->a) < 0)
			return -1;
		for (size_t i = 0; i < nodes->seq.count; i++) {
			const struct node *n = nodes->seq.items[i];
			const char *pool = label(n, POOL_LABEL);
			const struct node *u = node_path(n, "spec.unschedulable");

			if (pool && s->fallback.node_pool_name &&
			    !strcmp(pool, s->fallback.node_pool_name))
				pool_nodes++;
			if (drilled(r->rec, node_str(node_path(n, "metadata.name"))) &&
			    node_is_bool(u) && u->scalar.i)
				cordoned++;
		}
		for (size_t ns = 0;
		     ns < (s->placement.namespace_count ? s->placement.namespace_count : 1); ns++) {
			pq.namespace =
				s->placement.namespace_count ? s->placement.namespaces[ns] : NULL;
			if (kube_list_all(&pods, r->o->kube, r->a, &pq) < 0)
				return -1;
			for (size_t i = 0; i < pods->seq.count; i++) {
				const char *node =
					node_str(node_path(pods->seq.items[i], "spec.nodeName"));

				for (size_t j = 0; node && j < nodes->seq.count; j++) {
					const struct node *n = nodes->seq.items[j];
					const char *pool = label(n, POOL_LABEL);

					if (pool && s->fallback.node_pool_name &&
					    !strcmp(pool, s->fallback.node_pool_name) &&
					    !strcmp(node,
						    node_str(node_path(n, "metadata.name"))) &&
					    requests_gpu(pods->seq.items[i]))
						away++;
				}
			}
		}
		if (!pool_nodes && !away && !cordoned) {
			drill_record_add(r->a, r->rec, now_s(), DRILL_OBJ_DRILL, NULL, s->name,
					 DRILL_RETURN_COMPLETE, NULL,
					 "nodes schedulable, "
					 "pods back on-prem, fallback pool at zero nodes");
			r->res->outcome = DRILL_OUTCOME_AVAILABLE;
			return 0;
		}
		if (now_s() >= deadline) {
			r->res->outcome = DRILL_OUTCOME_TIMEOUT;
			diag_add(r->d, DIAG_ERROR, (struct pos)POS_NONE, DRILL_RUN_TIMEOUT, "",
				 "the return is not complete after %gs: %zu GPU pod(s) "
				 "still on fallback nodes, %zu node(s) in pool '%s', %zu "
				 "drilled node(s) still cordoned; check the pool's "
				 "consolidation (consolidateAfter %s) and the placement "
				 "policy",
				 r->o->timeout, away, pool_nodes,
				 s->fallback.node_pool_name ? s->fallback.node_pool_name : "",
				 cordoned,
				 s->fallback.consolidate_after.text
					 ? s->fallback.consolidate_after.text
					 : "");
			return 0;
		}
		if (nap(r, r->o->interval) < 0)
			return -1;
	}
}

static int
interrupted(struct run *r)
{
	r->res->outcome = DRILL_OUTCOME_INTERRUPTED;
	return diag_add(r->d, DIAG_ERROR, (struct pos)POS_NONE, DRILL_RUN_INTERRUPTED, "",
			"the drill of site '%s' was interrupted: the nodes stay as "
			"they are%s; restore them with `gpusite drill run %s "
			"--restore --execute`",
			r->o->site->name, r->res->wrote ? " (cordoned)" : " (nothing was changed)",
			r->o->site->name);
}

int
drill_run(struct arena *a, struct diags *d, struct drill_record *rec,
	  struct drill_run_result *result, const struct drill_run_opts *o)
{
	struct run r = { a, d, o, rec, result, NULL, 0, NULL, 0 };
	int64_t deadline;
	int rc = 0;

	memset(rec, 0, sizeof(*rec));
	memset(result, 0, sizeof(*result));
	result->outcome = DRILL_OUTCOME_FAILED;
	rec->site = o->site->name;
	rec->cluster = o->site->cluster.name;
	rec->scenario = DRILL_NODE_FAILURE;
	rec->started_at = now_s();
	rec->outcome = DRILL_OUTCOME_FAILED;
	if (choose_nodes(&r) < 0)
		goto fail;
	if (!o->restore && collect_pods(&r) < 0)
		goto fail;
	if (!o->restore && r.nowners) {
		size_t *counts = arena_alloc(a, r.nowners * sizeof(*counts));
		const char *where;

		if (count_ready(&r, counts, false, &where) < 0)
			goto fail;
		for (size_t i = 0; i < r.nowners; i++)
			r.owners[i].ready_before = counts[i];
	}
	if (check_rights(&r) < 0)
		goto fail;
	if (*o->stop)
		goto stop;
	if (!o->execute) {
		/* the dry run: the writes above and below, one per line */
		if (cordon(&r, !o->restore) < 0)
			goto fail;
		for (size_t i = 0; !o->restore && i < r.nmovers; i++)
			if (evict_one(&r, &r.movers[i]) < 0)
				goto fail;
		result->outcome = DRILL_OUTCOME_AVAILABLE;
		return 0;
	}
	rec->started_at = now_s();
	if (!o->restore)
		drill_record_add(a, rec, rec->started_at, DRILL_OBJ_DRILL, NULL, o->site->name,
				 DRILL_DRAIN_START, NULL,
				 arena_printf(a, "%zu node(s), %zu pod(s) to evict",
					      rec->node_count, r.nmovers));
	if (cordon(&r, !o->restore) < 0)
		goto fail_or_stop;
	for (size_t i = 0; !o->restore && i < r.nmovers; i++)
		if (evict_one(&r, &r.movers[i]) < 0)
			goto fail_or_stop;
	deadline = now_s() + (int64_t)(o->timeout + 0.999);
	rc = o->restore ? wait_returned(&r, deadline) : wait_available(&r, deadline);
	if (rc < 0)
		goto fail_or_stop;
	if (observe(&r) < 0)
		goto fail;
	rec->ended_at = now_s();
	rec->ended = true;
	rec->outcome = result->outcome;
	drill_record_sort(rec);
	return 0;
fail_or_stop:
	if (*o->stop)
		goto stop;
fail:
	rec->ended_at = now_s();
	rec->ended = true;
	result->outcome = rec->outcome = DRILL_OUTCOME_FAILED;
	drill_record_sort(rec);
	return -1;
stop:
	rec->ended_at = now_s();
	rec->ended = true;
	if (o->execute && r.res->wrote)
		(void)observe(&r);
	drill_record_sort(rec);
	rec->outcome = DRILL_OUTCOME_INTERRUPTED;
	return interrupted(&r);
}

int
drill_run_write_record(struct diags *d, const struct drill_record *rec, const char *path)
{
	struct buf b;
	char *tmp;
	int fd, err = 0;
	size_t off = 0;

	buf_init(&b, DRILL_RECORD_MAX);
	if (drill_record_write(&b, rec) < 0) {
		buf_release(&b);
		return diag_add(d, DIAG_ERROR, (struct pos)POS_NONE, DRILL_RUN_RECORD, "",
				"the drill record is larger than %u MiB; not written "
				"to %s",
				DRILL_RECORD_MAX >> 20, path);
	}
	tmp = malloc(strlen(path) + 16);
	if (!tmp) {
		buf_release(&b);
		return -1;
	}
	snprintf(tmp, strlen(path) + 16, "%s.tmp.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		err = errno;
	} else {
		mode_t mask = umask(0);

		umask(mask);
		if (fchmod(fd, 0666 & ~mask) < 0) /* mkstemp made it 0600 */
			err = errno;
		while (off < b.len && !err) {
			ssize_t n = write(fd, b.data + off, b.len - off);

			if (n < 0 && errno != EINTR)
				err = errno;
			else if (n > 0)
				off += (size_t)n;
		}
		if (!err && fsync(fd) < 0)
			err = errno;
		if (close(fd) < 0 && !err)
			err = errno;
		if (!err && rename(tmp, path) < 0)
			err = errno;
		if (err)
			unlink(tmp);
	}
	free(tmp);
	buf_release(&b);
	if (err)
		return diag_add(d, DIAG_ERROR, (struct pos)POS_NONE, DRILL_RUN_RECORD, "",
				"cannot write the drill record %s: %s; the cluster is as "
				"the run left it",
				path, strerror(err));
	return 0;
}
