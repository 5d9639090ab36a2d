/*
 * drill_run.c - `gpusite drill run`: cordon the site's nodes, evict their
 * pods through the Eviction API as `kubectl drain` does, poll until every
 * GPU pod that moved is Ready again, and keep the timeline in the drill
 * record; `--restore` uncordons and waits for the return condition.
 *
 * Only the site's on-prem hybrid nodes are taken down (drill_nodes.c):
 * never a cloud fallback node, which carries the site label too.  A node
 * already unschedulable gets no cordon (as kubectl drain) and the record
 * says so; --restore reads the record and uncordons only the nodes the
 * drill cordoned.
 *
 * Before the first write a SelfSubjectAccessReview asks for every right
 * the run needs, so a drill never stops half-way for lack of RBAC.  The
 * record is written before the first write and after each cordon.  A
 * signal stops the run between two calls, and a write that fails for
 * good stops it too: the nodes stay as they are, and the message names
 * the nodes the drill cordoned and the command that restores them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/buf.h"
#include "drill/drill_run.h"
#include "k8s/k8s_gpu.h"
#include "k8s/k8s_time.h"
#include "inventory/inventory.h"
#include "kube/kube.h"
#include "node/node.h"
#include "spec/spec.h"

#define SITE_LABEL INV_SITE_LABEL
#define HYBRID_SELECTOR "eks.amazonaws.com/compute-type=hybrid"
#define GROUP_LABEL INV_GROUP_LABEL
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

/* A node the run sends a cordon or an uncordon to (unless before). */
struct target {
	const char *name;
	bool before; /* unschedulable when the run began: nothing is sent */
	bool done;   /* the PATCH answered 200, or got no answer at all */
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
	struct target *targets;
	size_t ntargets, tcap;
	size_t evicted; /* pods the API server accepted an eviction for */
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
drilled(const struct drill_record *rec, const char *node)
{
	for (size_t i = 0; node && i < rec->node_count; i++)
		if (!strcmp(rec->nodes[i], node))
			return true;
	return false;
}

static struct target *
target_of(const struct run *r, const char *name)
{
	for (size_t i = 0; name && i < r->ntargets; i++)
		if (!strcmp(r->targets[i].name, name))
			return &r->targets[i];
	return NULL;
}

static void
add_target(struct run *r, const char *name, bool before)
{
	ARENA_GROW(r->a, r->targets, r->ntargets, r->tcap, 8);
	r->targets[r->ntargets++] = (struct target){ arena_strdup(r->a, name), before, false };
}

/* The node reached: in the record's nodes, with its state. */
static void
add_node(struct run *r, const struct target *t)
{
	struct drill_record *rec = r->rec;

	rec->nodes = arena_realloc(r->a, rec->nodes, rec->node_count * sizeof(*rec->nodes),
				   (rec->node_count + 1) * sizeof(*rec->nodes));
	rec->nodes[rec->node_count++] = arena_strdup(r->a, t->name);
	drill_record_add_state(r->a, rec, t->name, t->before, !t->before);
}

static void note(const struct run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A line on the notes stream: what the run leaves as it is, and why. */
static void
note(const struct run *r, const char *fmt, ...)
{
	va_list ap;

	if (!r->o->err)
		return;
	va_start(ap, fmt);
	fputs("gpusite drill run: ", r->o->err);
	vfprintf(r->o->err, fmt, ap);
	fputc('\n', r->o->err);
	va_end(ap);
}

static const struct node *
find_node(const struct node *nodes, const char *name)
{
	for (size_t j = 0; j < nodes->seq.count; j++) {
		const char *n = node_str(node_path(nodes->seq.items[j], "metadata.name"));

		if (n && !strcmp(n, name))
			return nodes->seq.items[j];
	}
	return NULL;
}

/* --nodes: each in the cluster, and a node a drill may take down. */
static int
choose_named(struct run *r, const struct node *nodes)
{
	const struct drill_run_opts *o = r->o;
	const char *s = o->site->name;

	for (size_t i = 0; i < o->node_count; i++) {
		const struct node *obj = find_node(nodes, o->nodes[i]);
		const char *why = obj ? drill_node_refusal(r->a, o->site, obj, o->nodes[i]) : NULL;

		if (!obj)
			return diag_report(r->d, (struct pos)POS_NONE, DRILL_RUN_NODES, "",
					   "node '%s' is not in the cluster: check the name "
					   "(kubectl get nodes -l %s=%s,%s)",
					   o->nodes[i], SITE_LABEL, s, HYBRID_SELECTOR);
		if (why)
			return diag_report(
				r->d, (struct pos)POS_NONE, DRILL_RUN_NODES, "",
				"%s: a drill takes down only the on-prem hybrid nodes of "
				"site '%s'; name them with --nodes (kubectl get nodes -l "
				"%s=%s,%s)",
				why, s, SITE_LABEL, s, HYBRID_SELECTOR);
		add_target(r, o->nodes[i], drill_node_unschedulable(obj));
	}
	return 0;
}

/* --nodes, --group, else every hybrid node of the site. */
static int
choose_nodes(struct run *r)
{
	const struct drill_run_opts *o = r->o;
	const struct spec_site *s = o->site;
	struct node *nodes;

	if (kube_list_nodes(&nodes, o->kube, r->a) < 0)
		return -1;
	if (o->node_count)
		return choose_named(r, nodes);
	for (size_t j = 0; j < nodes->seq.count; j++) {
		const struct node *n = nodes->seq.items[j];
		const char *name = node_str(node_path(n, "metadata.name"));

		if (!name || !drill_node_drillable(s, n, name))
			continue;
		if (o->group && !drill_node_in_group(s, n, name, o->group))
			continue;
		add_target(r, name, drill_node_unschedulable(n));
	}
	if (!r->ntargets)
		return diag_report(
			r->d, (struct pos)POS_NONE, DRILL_RUN_NODES, "",
			o->group ? "no hybrid node of group '%s' of site '%s' is in the "
				   "cluster: check --group and the nodes' %s label"
				 : "no hybrid node of site '%s%s' is in the cluster: check "
				   "the nodes' %s label or name them with --nodes",
			o->group ? o->group : "", s->name, o->group ? GROUP_LABEL : SITE_LABEL);
	return 0;
}

/* --restore is about node `name`: --nodes names it, or there is none */
static bool
restores(const struct drill_run_opts *o, const char *name)
{
	for (size_t j = 0; j < o->node_count; j++)
		if (!strcmp(o->nodes[j], name))
			return true;
	return !o->node_count;
}

/* --restore: the nodes the record says the drill cordoned (those of
 * --nodes), still cordoned now. */
static int
choose_restore(struct run *r)
{
	const struct drill_run_opts *o = r->o;
	const struct drill_record *dr = o->drilled;
	struct node *nodes;

	if (!dr->state_count)
		return diag_report(
			r->d, (struct pos)POS_NONE, DRILL_RUN_NODES, "",
			"the record %s does not say which nodes the drill cordoned (no "
			"nodeStates: an older gpusite wrote it): nothing was changed; "
			"uncordon by hand the nodes the drill cordoned (kubectl uncordon "
			"NODE), not those cordoned before it",
			o->record);
	for (size_t i = 0; i < o->node_count; i++)
		if (!drill_record_state(dr, o->nodes[i]))
			return diag_report(r->d, (struct pos)POS_NONE, DRILL_RUN_NODES, "",
					   "node '%s' is not in the drill record %s: the drill did "
					   "not take it down, so --restore leaves it; nothing was "
					   "changed",
					   o->nodes[i], o->record);
	if (kube_list_nodes(&nodes, o->kube, r->a) < 0)
		return -1;
	for (size_t i = 0; i < dr->state_count; i++) {
		const struct drill_node_state *st = &dr->states[i];
		const struct node *obj = find_node(nodes, st->name);

		if (!restores(o, st->name) || !st->cordoned)
			continue;
		if (!obj)
			note(r, "node %s is no longer in the cluster: nothing to uncordon",
			     st->name);
		else if (!drill_node_unschedulable(obj))
			note(r, "node %s is schedulable already: no uncordon is sent", st->name);
		else
			add_target(r, st->name, false);
	}
	for (size_t i = 0; i < dr->state_count; i++)
		if (dr->states[i].unschedulable_before && restores(o, dr->states[i].name))
			note(r,
			     "node %s stays cordoned: it was unschedulable before the drill "
			     "(cordoned by someone else); uncordon it when whoever cordoned it is "
			     "done",
			     dr->states[i].name);
	return 0;
}

/* A GPU Pod of `site` (k8s/k8s_gpu.h: any request form, the site's
 * shared names among them). */
static bool
requests_gpu(struct arena *a, const struct spec_site *site, const struct node *pod)
{
	const struct inventory *inv = inventory_site(a, site);

	return k8s_gpu_pod(pod, inv->gpu_shared_names, inv->gpu_shared_name_count);
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

	for (size_t i = 0; i < r->ntargets; i++) {
		struct kube_list_query q = {
			"v1",
			"Pod",
			NULL,
			NULL,
			arena_printf(r->a, "spec.nodeName=%s", r->targets[i].name),
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
			m->node = r->targets[i].name;
			m->owner_uid = ctl ? node_str(node_map_get(ctl, "uid")) : NULL;
			m->gpu = requests_gpu(r->a, r->o->site, p) && in_placement(r->o->site, ns);
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
			return diag_report(r->d, (struct pos)POS_NONE, DRILL_RUN_RIGHTS, "",
					   "cannot ask whether the drill may %s: "
					   "SelfSubjectAccessReview answered %ld%s%s; nothing "
					   "was changed",
					   right_text(r->a, rt), ans.status,
					   ans.message ? ": " : "", ans.message ? ans.message : "");
		if (!node_is_bool(allowed) || !allowed->scalar.i) {
			nmissing++;
			missing = missing ? arena_printf(r->a, "%s, '%s'", missing,
							 right_text(r->a, rt))
					  : arena_printf(r->a, "'%s'", right_text(r->a, rt));
		}
	}
	if (missing) {
		r->res->denied = true;
		return diag_report(r->d, (struct pos)POS_NONE, DRILL_RUN_RIGHTS, "",
				   "the drill needs %s at the cluster scope and the user "
				   "of this context lacks %s; nothing was changed: bind "
				   "the role of examples/rbac/gpusite-drill.yaml",
				   missing, nmissing > 1 ? "them" : "it");
	}
	return 0;
}

/* The nodes the drill cordoned, "a, b"; NULL when none. */
static const char *
cordoned_list(const struct run *r)
{
	const char *list = NULL;

	for (size_t i = 0; i < r->rec->state_count; i++)
		if (r->rec->states[i].cordoned)
			list = list ? arena_printf(r->a, "%s, %s", list, r->rec->states[i].name)
				    : r->rec->states[i].name;
	return list;
}

const char *
drill_run_restore_hint(struct arena *a, const struct drill_run_opts *o,
		       const struct drill_record *rec)
{
	const char **nodes = arena_alloc(a, (rec->state_count + 1) * sizeof(*nodes));
	size_t n = 0;

	for (size_t i = 0; i < rec->state_count; i++)
		if (rec->states[i].cordoned)
			nodes[n++] = rec->states[i].name;
	return drill_restore_command(a, o->site->name, o->again, nodes, n,
				     o->record ? o->record : "RECORD");
}

/* What a drill stopped half-way leaves behind, for the end of its
 * message: the nodes it cordoned and the command that restores them. */
static const char *
left_behind(struct run *r)
{
	const char *list = cordoned_list(r);
	const char *evicted = r->evicted ? arena_printf(r->a, " (%zu pod%s evicted already)",
							r->evicted, r->evicted == 1 ? "" : "s")
					 : "";

	if (!list)
		return arena_printf(r->a, "no node was cordoned%s%s", evicted,
				    r->evicted ? "" : ": nothing was changed");
	return arena_printf(
		r->a, "the drill cordoned %s%s, and they stay cordoned: restore them with `%s`",
		list, evicted, drill_run_restore_hint(r->a, r->o, r->rec));
}

/* What a restore stopped half-way leaves: the nodes it did not uncordon
 * and the command that does. */
static const char *
left_cordoned(struct run *r)
{
	const char **rest = arena_alloc(r->a, (r->ntargets + 1) * sizeof(*rest));
	const char *list = NULL;
	size_t n = 0;

	for (size_t i = 0; i < r->ntargets; i++)
		if (!r->targets[i].done) {
			rest[n++] = r->targets[i].name;
			list = list ? arena_printf(r->a, "%s, %s", list, r->targets[i].name)
				    : r->targets[i].name;
		}
	if (!n)
		return "every node the drill cordoned is uncordoned";
	return arena_printf(
		r->a, "still cordoned: %s; run the restore again: `%s`", list,
		drill_restore_command(r->a, r->o->site->name, r->o->again, rest, n, r->o->record));
}

/* A write refused for good: the message, then what is left. */
static int stopped(struct run *r, const char *rule, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int
stopped(struct run *r, const char *rule, const char *fmt, ...)
{
	va_list ap;
	const char *what;

	va_start(ap, fmt);
	what = arena_vprintf(r->a, fmt, ap);
	va_end(ap);
	return diag_report(r->d, (struct pos)POS_NONE, rule, "", "%s; %s", what,
			   r->o->restore ? left_cordoned(r) : left_behind(r));
}

/* The record so far, when the run keeps one: 0, or -1 after GS227. */
static int
checkpoint(struct run *r)
{
	if (!r->o->execute || !r->o->record)
		return 0;
	if (drill_run_write_record(r->d, r->rec, r->o->record) < 0)
		return -1;
	r->res->recorded = true;
	return 0;
}

/* Cordon (on) or uncordon one target; 0, or -1 after saying why. */
static int
cordon_one(struct run *r, struct target *t, bool on)
{
	struct kube_call c;
	struct kube_answer ans;
	const char *verb = on ? "cordon" : "uncordon";

	if (kube_call_cordon(&c, r->a, t->name, on) < 0)
		return -1;
	if (!r->o->execute) {
		print_call(r->o->out, &c);
		return 0;
	}
	if (*r->o->stop)
		return -1;
	r->res->wrote = true;
	if (kube_send(&ans, r->o->kube, r->a, &c,
		      arena_printf(r->a, "%s node '%s'", verb, t->name)) < 0) {
		t->done = true; /* sent: it may have been applied */
		if (on)
			add_node(r, t);
		(void)checkpoint(r);
		return stopped(r, DRILL_RUN_WRITE,
			       "the %s of node '%s' got no answer: it may be %sed", verb, t->name,
			       verb);
	}
	if (ans.status == 404 && !on) {
		note(r, "node %s is no longer in the cluster: nothing to uncordon", t->name);
		t->done = true;
		return 0;
	}
	if (ans.status != 200)
		return stopped(r, DRILL_RUN_WRITE,
			       "cannot %s node '%s': the API server answered %ld%s%s", verb,
			       t->name, ans.status, ans.message ? ": " : "",
			       ans.message ? ans.message : "");
	t->done = true;
	fprintf(r->o->out, "node/%s %s\n", t->name, on ? "cordoned" : "uncordoned");
	return 0;
}

/* Cordon the targets, recording each as it is reached; a target already
 * unschedulable gets nothing (kubectl drain does the same). */
static int
cordon(struct run *r)
{
	for (size_t i = 0; i < r->ntargets; i++) {
		struct target *t = &r->targets[i];

		if (t->before) {
			note(r,
			     "node %s is unschedulable already (cordoned before the drill): no "
			     "cordon is sent, and --restore leaves it cordoned",
			     t->name);
			add_node(r, t);
			if (checkpoint(r) < 0)
				return stopped(r, DRILL_RUN_RECORD, "the drill stopped");
			continue;
		}
		if (cordon_one(r, t, true) < 0)
			return -1;
		add_node(r, t);
		if (checkpoint(r) < 0)
			return stopped(r, DRILL_RUN_RECORD, "the drill stopped");
	}
	return 0;
}

/* Uncordon the targets, each noted in the record as it is done. */
static int
uncordon(struct run *r)
{
	for (size_t i = 0; i < r->ntargets; i++) {
		struct target *t = &r->targets[i];

		if (cordon_one(r, t, false) < 0)
			return -1;
		if (!r->o->execute)
			continue;
		drill_record_add(r->a, r->rec, now_s(), DRILL_OBJ_NODE, NULL, t->name,
				 DRILL_UNCORDONED, t->name, "local clock");
		if (checkpoint(r) < 0)
			return stopped(r, DRILL_RUN_RECORD, "the restore stopped");
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
		r->res->wrote = true;
		if (kube_send(&ans, r->o->kube, r->a, &c,
			      arena_printf(r->a, "evict pod '%s' in namespace '%s'", m->name,
					   m->ns)) < 0)
			return stopped(r, DRILL_RUN_WRITE,
				       "the eviction of pod '%s' in namespace '%s' got no answer",
				       m->name, m->ns);
		if (ans.status == 201 || ans.status == 200) {
			r->evicted++;
			fprintf(r->o->out, "pod/%s evicted (namespace %s)\n", m->name, m->ns);
			drill_record_add(r->a, r->rec, now_s(), DRILL_OBJ_POD, m->ns, m->name,
					 DRILL_EVICTED, m->node, "policy/v1 Eviction accepted");
			return 0;
		}
		if (ans.status == 404)
			return 0; /* gone already */
		if (ans.status != 429)
			return stopped(r, DRILL_RUN_WRITE,
				       "cannot evict pod '%s' in namespace '%s': the API server "
				       "answered %ld%s%s",
				       m->name, m->ns, ans.status, ans.message ? ": " : "",
				       ans.message ? ans.message : "");
		if (tries >= DRILL_RUN_EVICT_TRIES)
			return stopped(
				r, DRILL_RUN_PDB,
				"pod '%s' in namespace '%s' cannot be evicted: %s (still "
				"refused after %d tries): scale the workload up or relax that "
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
					diag_report(
						r->d, (struct pos)POS_NONE, DRILL_RUN_TIMEOUT, "",
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
	const char *pool_name = drill_pool_name(r->a, s);

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

			if (pool && pool_name && !strcmp(pool, pool_name))
				pool_nodes++;
			if (target_of(r, node_str(node_path(n, "metadata.name"))) &&
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

					if (pool && pool_name && !strcmp(pool, pool_name) &&
					    !strcmp(node,
						    node_str(node_path(n, "metadata.name"))) &&
					    requests_gpu(r->a, s, pods->seq.items[i]))
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
			diag_report(r->d, (struct pos)POS_NONE, DRILL_RUN_TIMEOUT, "",
				    "the return is not complete after %gs: %zu GPU pod(s) "
				    "still on fallback nodes, %zu node(s) in pool '%s', %zu "
				    "node(s) the drill cordoned still cordoned; check the pool's "
				    "consolidation (consolidateAfter %s) and the placement "
				    "policy",
				    r->o->timeout, away, pool_nodes, pool_name ? pool_name : "",
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
	return diag_report(r->d, (struct pos)POS_NONE, DRILL_RUN_INTERRUPTED, "",
			   "the %s of site '%s' was interrupted: the nodes stay as they are; %s",
			   r->o->restore ? "restore" : "drill", r->o->site->name,
			   r->o->restore ? left_cordoned(r) : left_behind(r));
}

/* The run begins: the record of a drill, or the drill's for --restore. */
static void
begin(struct run *r)
{
	const struct drill_run_opts *o = r->o;
	struct drill_record *rec = r->rec;

	memset(rec, 0, sizeof(*rec));
	memset(r->res, 0, sizeof(*r->res));
	r->res->outcome = DRILL_OUTCOME_FAILED;
	if (o->restore && o->drilled) {
		/* the restore adds its steps to the drill's record */
		*rec = *o->drilled;
		rec->transitions = arena_alloc(r->a, (rec->count + 1) * sizeof(*rec->transitions));
		memcpy(rec->transitions, o->drilled->transitions,
		       rec->count * sizeof(*rec->transitions));
		rec->cap = rec->count + 1;
		return;
	}
	rec->site = o->site->name;
	rec->cluster = o->site->cluster.name;
	rec->scenario = DRILL_NODE_FAILURE;
	rec->started_at = now_s();
	rec->outcome = DRILL_OUTCOME_FAILED;
}

/* Choose the nodes and the pods, count what is Ready now, check the
 * rights; the dry run prints the writes too.  0, or -1. */
static int
prepare(struct run *r)
{
	const struct drill_run_opts *o = r->o;

	if ((o->restore ? choose_restore(r) : choose_nodes(r)) < 0)
		return -1;
	r->res->nodes = r->ntargets;
	if (!o->restore && collect_pods(r) < 0)
		return -1;
	if (!o->restore && r->nowners) {
		size_t *counts = arena_alloc(r->a, r->nowners * sizeof(*counts));
		const char *where;

		if (count_ready(r, counts, false, &where) < 0)
			return -1;
		for (size_t i = 0; i < r->nowners; i++)
			r->owners[i].ready_before = counts[i];
	}
	if (check_rights(r) < 0)
		return -1;
	if (o->execute)
		return 0;
	/* the dry run: the writes, one per line */
	if ((o->restore ? uncordon(r) : cordon(r)) < 0)
		return -1;
	for (size_t i = 0; !o->restore && i < r->nmovers; i++)
		if (evict_one(r, &r->movers[i]) < 0)
			return -1;
	return 0;
}

static void
end(struct run *r, enum drill_outcome outcome)
{
	r->res->outcome = outcome;
	if (r->o->restore)
		return; /* the record keeps the drill's end and outcome */
	r->rec->ended_at = now_s();
	r->rec->ended = true;
	r->rec->outcome = outcome;
	drill_record_sort(r->rec);
}

int
drill_run(struct arena *a, struct diags *d, struct drill_record *rec,
	  struct drill_run_result *result, const struct drill_run_opts *o)
{
	struct run r = { a, d, o, rec, result, NULL, 0, NULL, 0, NULL, 0, 0, 0 };
	int64_t deadline;

	begin(&r);
	if (prepare(&r) < 0)
		goto fail;
	if (*o->stop)
		goto stop;
	if (!o->execute) {
		result->outcome = DRILL_OUTCOME_AVAILABLE;
		return 0;
	}
	if (!o->restore) {
		rec->started_at = now_s();
		drill_record_add(
			a, rec, rec->started_at, DRILL_OBJ_DRILL, NULL, o->site->name,
			DRILL_DRAIN_START, NULL,
			arena_printf(a, "%zu node(s), %zu pod(s) to evict", r.ntargets, r.nmovers));
	}
	if (checkpoint(&r) < 0) /* before the first write: the record can be kept */
		goto fail;
	if ((o->restore ? uncordon(&r) : cordon(&r)) < 0)
		goto fail_or_stop;
	for (size_t i = 0; !o->restore && i < r.nmovers; i++)
		if (evict_one(&r, &r.movers[i]) < 0)
			goto fail_or_stop;
	deadline = now_s() + (int64_t)(o->timeout + 0.999);
	if ((o->restore ? wait_returned(&r, deadline) : wait_available(&r, deadline)) < 0)
		goto fail_or_stop;
	if (!o->restore && observe(&r) < 0)
		goto fail;
	end(&r, result->outcome);
	return 0;
fail_or_stop:
	if (*o->stop)
		goto stop;
fail:
	end(&r, DRILL_OUTCOME_FAILED);
	return -1;
stop:
	if (o->execute && r.res->wrote && !o->restore)
		(void)observe(&r);
	end(&r, DRILL_OUTCOME_INTERRUPTED);
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
		return diag_report(d, (struct pos)POS_NONE, DRILL_RUN_RECORD, "",
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
		return diag_report(d, (struct pos)POS_NONE, DRILL_RUN_RECORD, "",
				   "cannot write the drill record %s: %s; the cluster is as "
				   "the run left it",
				   path, strerror(err));
	return 0;
}
