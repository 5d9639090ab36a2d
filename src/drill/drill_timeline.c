/*
 * drill_timeline.c - the names of the drill's enums, the budget from the
 * spec, and the five terms measured from a list of transitions.
 *
 * The terms follow one replacement pod, the one that was Ready last (the
 * drill is over when it is): its Pending, the node it was scheduled to
 * turning Ready, its containers started, its Ready.  The eviction term
 * ends at the last deletion of a pod of the drilled nodes; it starts at
 * the first NotReady of a drilled node, else the drain start (the Drill
 * entry, else the first cordon of a drilled node).  A term whose
 * ends are not both in the data is unknown, with the reason.  The total
 * is the sum of the terms, as the budget is; it is unknown when a term
 * that applies is.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/arena.h"
#include "drill/drill.h"
#include "k8s/k8s_time.h"
#include "spec/spec.h"

static const char *const scenario_names[] = { "node-failure", "partition" };
static const char *const term_names[DRILL_TERM_COUNT] = {
	"nodeMonitorGrace", "eviction", "nodeProvisioning", "imagePull", "modelLoad",
};
static const char *const object_names[DRILL_OBJ_COUNT] = {
	"Node", "Pod", "NodeClaim", "Event", "Drill",
};
static const char *const what_names[DRILL_WHAT_COUNT] = {
	"cordoned", "uncordoned", "evicted",     "deleted",     "NotReady",  "Ready",
	"Pending",  "Scheduled",  "Pulling",     "Pulled",      "Started",   "ContainersReady",
	"Launched", "Registered", "Initialized", "drain-start", "available", "return-complete",
};
static const char *const outcome_names[] = { "available", "timeout", "interrupted", "failed" };

#define N(x) (sizeof(x) / sizeof((x)[0]))

static int
lookup(const char *const *names, size_t n, const char *name)
{
	for (size_t i = 0; name && i < n; i++)
		if (!strcmp(names[i], name))
			return (int)i;
	return -1;
}

const char *
drill_scenario_name(enum drill_scenario s)
{
	return (size_t)s < N(scenario_names) ? scenario_names[s] : "?";
}

int
drill_scenario_parse(enum drill_scenario *out, const char *name)
{
	int i = lookup(scenario_names, N(scenario_names), name);

	if (i < 0)
		return -1;
	*out = (enum drill_scenario)i;
	return 0;
}

const char *
drill_term_name(enum drill_term t)
{
	return (size_t)t < N(term_names) ? term_names[t] : "?";
}

const char *
drill_object_name(enum drill_object o)
{
	return (size_t)o < N(object_names) ? object_names[o] : "?";
}

int
drill_object_parse(enum drill_object *out, const char *name)
{
	int i = lookup(object_names, N(object_names), name);

	if (i < 0)
		return -1;
	*out = (enum drill_object)i;
	return 0;
}

const char *
drill_what_name(enum drill_what w)
{
	return (size_t)w < N(what_names) ? what_names[w] : "?";
}

int
drill_what_parse(enum drill_what *out, const char *name)
{
	int i = lookup(what_names, N(what_names), name);

	if (i < 0)
		return -1;
	*out = (enum drill_what)i;
	return 0;
}

const char *
drill_outcome_name(enum drill_outcome o)
{
	return (size_t)o < N(outcome_names) ? outcome_names[o] : "?";
}

int
drill_outcome_parse(enum drill_outcome *out, const char *name)
{
	int i = lookup(outcome_names, N(outcome_names), name);

	if (i < 0)
		return -1;
	*out = (enum drill_outcome)i;
	return 0;
}

void
drill_budget_compute(struct drill_budget *out, const struct spec_site *s, enum drill_scenario sc)
{
	const struct spec_recovery *r = &s->recovery;
	const struct spec_placement *p = &s->placement;
	int64_t nr = p->not_ready_toleration_seconds, un = p->unreachable_toleration_seconds;

	memset(out, 0, sizeof(*out));
	out->set = r->set;
	/* without a recovery block the model may leave it 0: Kubernetes' 50 s */
	out->grace = r->set || r->node_monitor_grace_period.seconds
			     ? r->node_monitor_grace_period.seconds
			     : 50;
	out->seconds[DRILL_TERM_NODE_MONITOR_GRACE] = out->grace;
	out->seconds[DRILL_TERM_EVICTION] = sc == DRILL_PARTITION ? un : (nr > un ? nr : un);
	out->seconds[DRILL_TERM_NODE_PROVISIONING] = r->node_provisioning.seconds;
	out->seconds[DRILL_TERM_IMAGE_PULL] = spec_image_pull_seconds(s, &out->image_pull_cached);
	out->seconds[DRILL_TERM_MODEL_LOAD] = r->model_load.seconds;
	out->target = r->target_rto.seconds;
	for (int t = 0; t < DRILL_TERM_COUNT; t++) {
		out->applies[t] = true;
		out->real_failure_total += out->seconds[t];
	}
	if (sc == DRILL_NODE_FAILURE) {
		/* a drain: no heartbeat is missed */
		out->applies[DRILL_TERM_NODE_MONITOR_GRACE] = false;
		out->seconds[DRILL_TERM_NODE_MONITOR_GRACE] = 0;
	}
	for (int t = 0; t < DRILL_TERM_COUNT; t++)
		out->total += out->seconds[t];
}

void
drill_record_add(struct arena *a, struct drill_record *r, int64_t time, enum drill_object object,
		 const char *namespace, const char *name, enum drill_what what, const char *node,
		 const char *detail)
{
	struct drill_transition *t;

	ARENA_GROW(a, r->transitions, r->count, r->cap, 32);
	t = &r->transitions[r->count++];
	t->time = time;
	t->object = object;
	t->namespace = namespace ? arena_strdup(a, namespace) : NULL;
	t->name = arena_strdup(a, name ? name : "");
	t->what = what;
	t->node = node ? arena_strdup(a, node) : NULL;
	t->detail = detail ? arena_strdup(a, detail) : NULL;
}

void
drill_record_add_state(struct arena *a, struct drill_record *r, const char *name,
		       bool unschedulable_before, bool cordoned)
{
	struct drill_node_state *st;

	ARENA_GROW(a, r->states, r->state_count, r->state_cap, 8);
	st = &r->states[r->state_count++];
	st->name = arena_strdup(a, name);
	st->unschedulable_before = unschedulable_before;
	st->cordoned = cordoned;
}

const struct drill_node_state *
drill_record_state(const struct drill_record *r, const char *name)
{
	for (size_t i = 0; i < r->state_count; i++)
		if (!strcmp(r->states[i].name, name))
			return &r->states[i];
	return NULL;
}

void
drill_record_sort(struct drill_record *r)
{
	/* insertion sort: stable, and records are short and nearly sorted */
	for (size_t i = 1; i < r->count; i++) {
		struct drill_transition t = r->transitions[i];
		size_t j = i;

		while (j > 0 && r->transitions[j - 1].time > t.time) {
			r->transitions[j] = r->transitions[j - 1];
			j--;
		}
		r->transitions[j] = t;
	}
}

void
drill_time_format(char *out, size_t size, int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm) || !strftime(out, size, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(out, size, "?");
}

/* --- the terms --- */

static bool
drilled(const struct drill_record *r, const char *node)
{
	if (!r->node_count)
		return true;
	for (size_t i = 0; node && i < r->node_count; i++)
		if (!strcmp(r->nodes[i], node))
			return true;
	return false;
}

static bool
same_pod(const struct drill_transition *t, const struct drill_transition *p)
{
	if (t->object != DRILL_OBJ_POD && t->object != DRILL_OBJ_EVENT)
		return false;
	if (strcmp(t->name, p->name))
		return false;
	if (!t->namespace || !p->namespace)
		return !t->namespace && !p->namespace;
	return !strcmp(t->namespace, p->namespace);
}

/* The first transition of that pod of that kind; NULL if none. */
static const struct drill_transition *
find_pod(const struct drill_record *r, const struct drill_transition *pod, enum drill_what w)
{
	for (size_t i = 0; i < r->count; i++)
		if (r->transitions[i].what == w && same_pod(&r->transitions[i], pod))
			return &r->transitions[i];
	return NULL;
}

static void
known(struct drill_term_result *t, int64_t from, int64_t to)
{
	t->known = true;
	t->from = from;
	t->to = to;
	t->measured = to > from ? to - from : 0;
}

static void
unknown(struct drill_term_result *t, const char *why)
{
	t->known = false;
	t->reason = why;
}

/* The pod a term follows and its transitions; NULL where not in the data. */
struct replacement {
	const struct drill_transition *pod, *pending, *sched, *node_ready;
	const struct drill_transition *started, *ready;
};

/* Whether x is at or after the term start (any time without one). */
static bool
after_start(const struct drill_transition *x, const struct drill_transition *start)
{
	return !start || x->time >= start->time;
}

static void
terms_init(struct drill_terms *out, const struct drill_budget *b, const struct drill_record *r)
{
	memset(out, 0, sizeof(*out));
	out->scenario = r->scenario;
	out->target = b->target;
	for (int i = 0; i < DRILL_TERM_COUNT; i++) {
		out->terms[i].term = (enum drill_term)i;
		out->terms[i].budget = b->seconds[i];
		out->terms[i].applies = b->applies[i];
	}
}

/* The first NotReady of a drilled node; NULL if none. */
static const struct drill_transition *
first_not_ready(const struct drill_record *r)
{
	for (size_t i = 0; i < r->count; i++) {
		const struct drill_transition *x = &r->transitions[i];

		if (x->object == DRILL_OBJ_NODE && x->what == DRILL_NOT_READY &&
		    drilled(r, x->name))
			return x;
	}
	return NULL;
}

/* The Drill entry's drain start, else the first cordon of a drilled node. */
static const struct drill_transition *
first_drain(const struct drill_record *r)
{
	for (size_t i = 0; i < r->count; i++) {
		const struct drill_transition *x = &r->transitions[i];

		if (x->object == DRILL_OBJ_DRILL && x->what == DRILL_DRAIN_START)
			return x;
	}
	/* from the cluster alone: the drain started when a drilled node was cordoned */
	for (size_t i = 0; i < r->count; i++) {
		const struct drill_transition *x = &r->transitions[i];

		if (x->object == DRILL_OBJ_NODE && x->what == DRILL_CORDONED && drilled(r, x->name))
			return x;
	}
	return NULL;
}

/* nodeMonitorGrace: last heartbeat -> NotReady */
static void
term_grace(struct drill_term_result *t, const struct drill_budget *b, const struct drill_record *r,
	   const struct drill_transition *not_ready)
{
	int64_t hb;
	const char *d;

	/* a NotReady node makes this a failure, even in a drill planned as a drain */
	if (not_ready && !t->applies) {
		t->applies = true;
		t->budget = b->grace;
	}
	if (!t->applies) {
		t->known = true;
		return;
	}
	if (!not_ready) {
		unknown(t, "no NotReady transition of a drilled node in the data");
		return;
	}
	d = not_ready->detail;
	if (d && !strncmp(d, "lastHeartbeat ", 14) && !k8s_time_parse(&hb, d + 14))
		known(t, hb, not_ready->time);
	else if (r->started_at)
		known(t, r->started_at, not_ready->time);
	else
		unknown(t, "the node's last heartbeat is not in the data");
}

/* eviction: NotReady or drain start -> the last pod of the drilled nodes deleted */
static void
term_eviction(struct drill_term_result *t, const struct drill_record *r,
	      const struct drill_transition *start)
{
	const struct drill_transition *deleted = NULL;

	for (size_t i = 0; i < r->count; i++) {
		const struct drill_transition *x = &r->transitions[i];

		if ((x->object == DRILL_OBJ_POD || x->object == DRILL_OBJ_EVENT) &&
		    x->what == DRILL_DELETED && drilled(r, x->node) && after_start(x, start))
			deleted = x;
	}
	if (!start)
		unknown(t, "neither a NotReady transition of a drilled node "
			   "nor the drain start is in the data");
	else if (!deleted)
		unknown(t, "no pod of the drilled nodes was seen deleted");
	else
		known(t, start->time, deleted->time);
}

/* The replacement pod Ready last (latest first: one scan in the usual
 * case), else the one Pending last; its Pending, NULL if none. */
static const struct drill_transition *
replacement_pod(const struct drill_record *r, const struct drill_transition *start)
{
	for (size_t i = r->count; i-- > 0;) {
		const struct drill_transition *x = &r->transitions[i];
		const struct drill_transition *p;

		if (x->object != DRILL_OBJ_POD ||
		    (x->what != DRILL_READY && x->what != DRILL_CONTAINERS_READY))
			continue;
		p = find_pod(r, x, DRILL_PENDING);
		if (p && after_start(p, start))
			return p;
	}
	for (size_t i = r->count; i-- > 0;) {
		const struct drill_transition *x = &r->transitions[i];

		if (x->object == DRILL_OBJ_POD && x->what == DRILL_PENDING && after_start(x, start))
			return x;
	}
	return NULL;
}

/* The last Ready of the node the pod was scheduled to, before it was. */
static const struct drill_transition *
scheduled_node_ready(const struct drill_record *r, const struct drill_transition *sched)
{
	const struct drill_transition *node_ready = NULL;

	for (size_t i = 0; sched && sched->node && i < r->count; i++) {
		const struct drill_transition *x = &r->transitions[i];

		if (x->object == DRILL_OBJ_NODE && x->what == DRILL_READY &&
		    !strcmp(x->name, sched->node) && x->time <= sched->time)
			node_ready = x;
	}
	return node_ready;
}

static void
replacement_find(struct replacement *out, const struct drill_record *r,
		 const struct drill_transition *start)
{
	memset(out, 0, sizeof(*out));
	out->pod = replacement_pod(r, start);
	if (!out->pod)
		return;
	out->pending = find_pod(r, out->pod, DRILL_PENDING);
	out->sched = find_pod(r, out->pod, DRILL_SCHEDULED);
	out->started = find_pod(r, out->pod, DRILL_STARTED);
	out->ready = find_pod(r, out->pod, DRILL_READY);
	if (!out->ready)
		out->ready = find_pod(r, out->pod, DRILL_CONTAINERS_READY);
	out->node_ready = scheduled_node_ready(r, out->sched);
}

/* nodeProvisioning: replacement Pending -> its node Ready */
static void
term_provisioning(struct arena *a, struct drill_term_result *t, const struct replacement *rp)
{
	if (!rp->pod)
		unknown(t, "no replacement pod was seen Pending");
	else if (!rp->sched || !rp->sched->node)
		unknown(t,
			arena_printf(a, "pod %s was not seen scheduled to a node", rp->pod->name));
	else if (!rp->node_ready)
		unknown(t, arena_printf(a, "node %s was not seen turning Ready", rp->sched->node));
	else
		known(t, rp->pending->time, rp->node_ready->time);
}

/* imagePull: scheduled -> containers started */
static void
term_image_pull(struct arena *a, struct drill_term_result *t, const struct replacement *rp)
{
	if (!rp->pod || !rp->sched)
		unknown(t, rp->pod ? arena_printf(a, "pod %s was not seen scheduled", rp->pod->name)
				   : "no replacement pod was seen Pending");
	else if (!rp->started)
		unknown(t,
			arena_printf(a, "no Started event of pod %s in the data", rp->pod->name));
	else
		known(t, rp->sched->time, rp->started->time);
}

/* modelLoad: started -> Ready */
static void
term_model_load(struct arena *a, struct drill_term_result *t, const struct replacement *rp)
{
	if (!rp->pod || !rp->started)
		unknown(t, rp->pod ? arena_printf(a, "no Started event of pod %s in the data",
						  rp->pod->name)
				   : "no replacement pod was seen Pending");
	else if (!rp->ready)
		unknown(t, arena_printf(a, "pod %s was not seen Ready", rp->pod->name));
	else
		known(t, rp->started->time, rp->ready->time);
}

static void
terms_total(struct drill_terms *out)
{
	out->total_known = true;
	for (int i = 0; i < DRILL_TERM_COUNT; i++) {
		if (!out->terms[i].applies)
			continue;
		if (out->terms[i].known)
			out->total += out->terms[i].measured;
		else
			out->total_known = false;
	}
	out->within_target = out->total_known && out->target > 0 && out->total <= out->target;
}

void
drill_terms_compute(struct arena *a, struct drill_terms *out, const struct drill_budget *b,
		    const struct drill_record *r)
{
	struct drill_term_result *t = out->terms;
	const struct drill_transition *not_ready, *start;
	struct replacement rp;

	terms_init(out, b, r);
	not_ready = first_not_ready(r);
	start = not_ready ? not_ready : first_drain(r);
	term_grace(&t[DRILL_TERM_NODE_MONITOR_GRACE], b, r, not_ready);
	term_eviction(&t[DRILL_TERM_EVICTION], r, start);
	replacement_find(&rp, r, start);
	term_provisioning(a, &t[DRILL_TERM_NODE_PROVISIONING], &rp);
	term_image_pull(a, &t[DRILL_TERM_IMAGE_PULL], &rp);
	term_model_load(a, &t[DRILL_TERM_MODEL_LOAD], &rp);
	terms_total(out);
}
