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

void
drill_terms_compute(struct arena *a, struct drill_terms *out, const struct drill_budget *b,
		    const struct drill_record *r)
{
	const struct drill_transition *not_ready = NULL, *drain = NULL, *deleted = NULL;
	const struct drill_transition *pending = NULL, *sched = NULL, *node_ready = NULL;
	const struct drill_transition *started = NULL, *ready = NULL, *pod = NULL;
	struct drill_term_result *t = out->terms;
	int64_t start = 0;
	bool have_start = false;

	memset(out, 0, sizeof(*out));
	out->scenario = r->scenario;
	out->target = b->target;
	for (int i = 0; i < DRILL_TERM_COUNT; i++) {
		t[i].term = (enum drill_term)i;
		t[i].budget = b->seconds[i];
		t[i].applies = b->applies[i];
	}

	for (size_t i = 0; i < r->count; i++) {
		const struct drill_transition *x = &r->transitions[i];

		if (x->object == DRILL_OBJ_NODE && x->what == DRILL_NOT_READY &&
		    drilled(r, x->name) && !not_ready)
			not_ready = x;
		if (x->object == DRILL_OBJ_DRILL && x->what == DRILL_DRAIN_START && !drain)
			drain = x;
	}
	/* from the cluster alone: the drain started when a drilled node was cordoned */
	for (size_t i = 0; i < r->count && !drain; i++) {
		const struct drill_transition *x = &r->transitions[i];

		if (x->object == DRILL_OBJ_NODE && x->what == DRILL_CORDONED && drilled(r, x->name))
			drain = x;
	}
	/* a NotReady node makes this a failure, even in a drill planned as a drain */
	if (not_ready && !t[DRILL_TERM_NODE_MONITOR_GRACE].applies) {
		t[DRILL_TERM_NODE_MONITOR_GRACE].applies = true;
		t[DRILL_TERM_NODE_MONITOR_GRACE].budget = b->grace;
	}

	/* nodeMonitorGrace: last heartbeat -> NotReady */
	if (!t[DRILL_TERM_NODE_MONITOR_GRACE].applies) {
		t[DRILL_TERM_NODE_MONITOR_GRACE].known = true;
	} else if (!not_ready) {
		unknown(&t[DRILL_TERM_NODE_MONITOR_GRACE],
			"no NotReady transition of a drilled node in the data");
	} else {
		int64_t hb;
		const char *d = not_ready->detail;

		if (d && !strncmp(d, "lastHeartbeat ", 14) && !k8s_time_parse(&hb, d + 14))
			known(&t[DRILL_TERM_NODE_MONITOR_GRACE], hb, not_ready->time);
		else if (r->started_at)
			known(&t[DRILL_TERM_NODE_MONITOR_GRACE], r->started_at, not_ready->time);
		else
			unknown(&t[DRILL_TERM_NODE_MONITOR_GRACE],
				"the node's last heartbeat is not in the data");
	}

	/* eviction: NotReady or drain start -> the last pod of the drilled nodes deleted */
	if (not_ready) {
		start = not_ready->time;
		have_start = true;
	} else if (drain) {
		start = drain->time;
		have_start = true;
	}
	for (size_t i = 0; i < r->count; i++) {
		const struct drill_transition *x = &r->transitions[i];

		if ((x->object == DRILL_OBJ_POD || x->object == DRILL_OBJ_EVENT) &&
		    x->what == DRILL_DELETED && drilled(r, x->node) &&
		    (!have_start || x->time >= start))
			deleted = x;
	}
	if (!have_start)
		unknown(&t[DRILL_TERM_EVICTION], "neither a NotReady transition of a drilled node "
						 "nor the drain start is in the data");
	else if (!deleted)
		unknown(&t[DRILL_TERM_EVICTION], "no pod of the drilled nodes was seen deleted");
	else
		known(&t[DRILL_TERM_EVICTION], start, deleted->time);

	/* the replacement pod Ready last (latest first: one scan in the usual
	 * case), else the one Pending last */
	for (size_t i = r->count; i-- > 0 && !pod;) {
		const struct drill_transition *x = &r->transitions[i];
		const struct drill_transition *p;

		if (x->object != DRILL_OBJ_POD ||
		    (x->what != DRILL_READY && x->what != DRILL_CONTAINERS_READY))
			continue;
		p = find_pod(r, x, DRILL_PENDING);
		if (p && (!have_start || p->time >= start))
			pod = p;
	}
	for (size_t i = r->count; i-- > 0 && !pod;) {
		const struct drill_transition *x = &r->transitions[i];

		if (x->object == DRILL_OBJ_POD && x->what == DRILL_PENDING &&
		    (!have_start || x->time >= start))
			pod = x;
	}
	if (pod) {
		pending = find_pod(r, pod, DRILL_PENDING);
		sched = find_pod(r, pod, DRILL_SCHEDULED);
		started = find_pod(r, pod, DRILL_STARTED);
		ready = find_pod(r, pod, DRILL_READY);
		if (!ready)
			ready = find_pod(r, pod, DRILL_CONTAINERS_READY);
	}
	if (sched && sched->node) {
		for (size_t i = 0; i < r->count; i++) {
			const struct drill_transition *x = &r->transitions[i];

			if (x->object == DRILL_OBJ_NODE && x->what == DRILL_READY &&
			    !strcmp(x->name, sched->node) && x->time <= sched->time)
				node_ready = x;
		}
	}

	/* nodeProvisioning: replacement Pending -> its node Ready */
	if (!pod)
		unknown(&t[DRILL_TERM_NODE_PROVISIONING], "no replacement pod was seen Pending");
	else if (!sched || !sched->node)
		unknown(&t[DRILL_TERM_NODE_PROVISIONING],
			arena_printf(a, "pod %s was not seen scheduled to a node", pod->name));
	else if (!node_ready)
		unknown(&t[DRILL_TERM_NODE_PROVISIONING],
			arena_printf(a, "node %s was not seen turning Ready", sched->node));
	else
		known(&t[DRILL_TERM_NODE_PROVISIONING], pending->time, node_ready->time);

	/* imagePull: scheduled -> containers started */
	if (!pod || !sched)
		unknown(&t[DRILL_TERM_IMAGE_PULL],
			pod ? arena_printf(a, "pod %s was not seen scheduled", pod->name)
			    : "no replacement pod was seen Pending");
	else if (!started)
		unknown(&t[DRILL_TERM_IMAGE_PULL],
			arena_printf(a, "no Started event of pod %s in the data", pod->name));
	else
		known(&t[DRILL_TERM_IMAGE_PULL], sched->time, started->time);

	/* modelLoad: started -> Ready */
	if (!pod || !started)
		unknown(&t[DRILL_TERM_MODEL_LOAD],
			pod ? arena_printf(a, "no Started event of pod %s in the data", pod->name)
			    : "no replacement pod was seen Pending");
	else if (!ready)
		unknown(&t[DRILL_TERM_MODEL_LOAD],
			arena_printf(a, "pod %s was not seen Ready", pod->name));
	else
		known(&t[DRILL_TERM_MODEL_LOAD], started->time, ready->time);

	out->total_known = true;
	for (int i = 0; i < DRILL_TERM_COUNT; i++) {
		if (!t[i].applies)
			continue;
		if (t[i].known)
			out->total += t[i].measured;
		else
			out->total_known = false;
	}
	out->within_target = out->total_known && out->target > 0 && out->total <= out->target;
}
