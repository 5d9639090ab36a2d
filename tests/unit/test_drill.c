/*
 * test_drill.c - the drill's five terms measured from transitions: a
 * drain that met its target, one that missed it on image pull, a
 * partition (nodeMonitorGrace from the last heartbeat), unknown terms
 * with their reasons, and the record read back as written (with the
 * state of each node); which nodes a drill may take down, and the
 * commands it prints.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/buf.h"
#include "drill/drill.h"
#include "spec/spec.h"
#include "testutil.h"

#define T0 1772352000 /* 2026-03-01T08:00:00Z */

static struct drill_budget
budget(enum drill_scenario sc)
{
	struct drill_budget b;

	memset(&b, 0, sizeof(b));
	b.set = true;
	b.seconds[DRILL_TERM_NODE_MONITOR_GRACE] = sc == DRILL_PARTITION ? 50 : 0;
	b.seconds[DRILL_TERM_EVICTION] = 60;
	b.seconds[DRILL_TERM_NODE_PROVISIONING] = 240;
	b.seconds[DRILL_TERM_IMAGE_PULL] = 360;
	b.seconds[DRILL_TERM_MODEL_LOAD] = 180;
	for (int i = 0; i < DRILL_TERM_COUNT; i++)
		b.applies[i] = i != DRILL_TERM_NODE_MONITOR_GRACE || sc == DRILL_PARTITION;
	b.total = 50 * (sc == DRILL_PARTITION) + 60 + 240 + 360 + 180;
	b.real_failure_total = 50 + 60 + 240 + 360 + 180;
	b.target = 900;
	return b;
}

static const char *const drilled_nodes[] = { "gpu-a-01" };

/* A drain of gpu-a-01; the replacement starts `pull` seconds after it is scheduled. */
static void
drain(struct drill_record *r, int64_t pull, bool deleted, bool started)
{
	memset(r, 0, sizeof(*r));
	r->site = "seoul-dc1";
	r->scenario = DRILL_NODE_FAILURE;
	r->nodes = (const char **)drilled_nodes;
	r->node_count = 1;
	r->started_at = T0;
	drill_record_add(&A, r, T0, DRILL_OBJ_DRILL, NULL, "seoul-dc1", DRILL_DRAIN_START, NULL,
			 NULL);
	drill_record_add(&A, r, T0, DRILL_OBJ_NODE, NULL, "gpu-a-01", DRILL_CORDONED, "gpu-a-01",
			 NULL);
	if (deleted)
		drill_record_add(&A, r, T0 + 20, DRILL_OBJ_POD, "inference", "llm-0-old",
				 DRILL_DELETED, "gpu-a-01", NULL);
	drill_record_add(&A, r, T0 + 21, DRILL_OBJ_POD, "inference", "llm-0-new", DRILL_PENDING,
			 NULL, NULL);
	drill_record_add(&A, r, T0 + 60, DRILL_OBJ_NODECLAIM, NULL, "fb-x", DRILL_LAUNCHED, NULL,
			 NULL);
	drill_record_add(&A, r, T0 + 220, DRILL_OBJ_NODE, NULL, "ip-10-0-1-5", DRILL_READY,
			 "ip-10-0-1-5", NULL);
	drill_record_add(&A, r, T0 + 225, DRILL_OBJ_POD, "inference", "llm-0-new", DRILL_SCHEDULED,
			 "ip-10-0-1-5", NULL);
	drill_record_add(&A, r, T0 + 226, DRILL_OBJ_EVENT, "inference", "llm-0-new", DRILL_PULLING,
			 "ip-10-0-1-5", NULL);
	if (started) {
		drill_record_add(&A, r, T0 + 225 + pull, DRILL_OBJ_EVENT, "inference", "llm-0-new",
				 DRILL_STARTED, "ip-10-0-1-5", NULL);
		drill_record_add(&A, r, T0 + 225 + pull + 150, DRILL_OBJ_POD, "inference",
				 "llm-0-new", DRILL_READY, "ip-10-0-1-5", NULL);
	}
	drill_record_sort(r);
}

static void
test_drill__drain_within_target(void **state)
{
	struct drill_budget b = budget(DRILL_NODE_FAILURE);
	struct drill_record r;
	struct drill_terms t;

	(void)state;
	drain(&r, 290, true, true);
	drill_terms_compute(&A, &t, &b, &r);
	assert_false(t.terms[DRILL_TERM_NODE_MONITOR_GRACE].applies);
	assert_int_equal(t.terms[DRILL_TERM_EVICTION].measured, 20);
	assert_int_equal(t.terms[DRILL_TERM_NODE_PROVISIONING].measured, 199);
	assert_int_equal(t.terms[DRILL_TERM_IMAGE_PULL].measured, 290);
	assert_int_equal(t.terms[DRILL_TERM_MODEL_LOAD].measured, 150);
	assert_true(t.total_known);
	assert_int_equal(t.total, 659);
	assert_true(t.within_target);
}

static void
test_drill__drain_missed_on_image_pull(void **state)
{
	struct drill_budget b = budget(DRILL_NODE_FAILURE);
	struct drill_record r;
	struct drill_terms t;

	(void)state;
	drain(&r, 770, true, true);
	drill_terms_compute(&A, &t, &b, &r);
	assert_int_equal(t.terms[DRILL_TERM_IMAGE_PULL].measured, 770);
	assert_true(t.terms[DRILL_TERM_IMAGE_PULL].measured >
		    t.terms[DRILL_TERM_IMAGE_PULL].budget);
	assert_int_equal(t.total, 20 + 199 + 770 + 150);
	assert_false(t.within_target);
}

static void
test_drill__unknown_terms_say_why(void **state)
{
	struct drill_budget b = budget(DRILL_NODE_FAILURE);
	struct drill_record r;
	struct drill_terms t;

	(void)state;
	drain(&r, 290, false, false);
	drill_terms_compute(&A, &t, &b, &r);
	assert_false(t.terms[DRILL_TERM_EVICTION].known);
	assert_string_equal(t.terms[DRILL_TERM_EVICTION].reason,
			    "no pod of the drilled nodes was seen deleted");
	assert_true(t.terms[DRILL_TERM_NODE_PROVISIONING].known);
	assert_false(t.terms[DRILL_TERM_IMAGE_PULL].known);
	assert_string_equal(t.terms[DRILL_TERM_IMAGE_PULL].reason,
			    "no Started event of pod llm-0-new in the data");
	assert_false(t.terms[DRILL_TERM_MODEL_LOAD].known);
	assert_false(t.total_known);
	assert_false(t.within_target);
}

static void
test_drill__partition_from_last_heartbeat(void **state)
{
	struct drill_budget b = budget(DRILL_PARTITION);
	struct drill_record r;
	struct drill_terms t;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.scenario = DRILL_PARTITION;
	r.nodes = (const char **)drilled_nodes;
	r.node_count = 1;
	r.started_at = T0;
	drill_record_add(&A, &r, T0 + 50, DRILL_OBJ_NODE, NULL, "gpu-a-01", DRILL_NOT_READY,
			 "gpu-a-01", "lastHeartbeat 2026-03-01T08:00:10Z");
	/* the old pod is deleted after the unreachable toleration; it may still run */
	drill_record_add(&A, &r, T0 + 110, DRILL_OBJ_POD, "inference", "llm-0-old", DRILL_DELETED,
			 "gpu-a-01", NULL);
	drill_record_add(&A, &r, T0 + 111, DRILL_OBJ_POD, "inference", "llm-0-new", DRILL_PENDING,
			 NULL, NULL);
	drill_record_add(&A, &r, T0 + 300, DRILL_OBJ_NODE, NULL, "fb", DRILL_READY, "fb", NULL);
	drill_record_add(&A, &r, T0 + 301, DRILL_OBJ_POD, "inference", "llm-0-new", DRILL_SCHEDULED,
			 "fb", NULL);
	drill_record_add(&A, &r, T0 + 601, DRILL_OBJ_POD, "inference", "llm-0-new", DRILL_STARTED,
			 "fb", NULL);
	drill_record_add(&A, &r, T0 + 701, DRILL_OBJ_POD, "inference", "llm-0-new", DRILL_READY,
			 "fb", NULL);
	drill_terms_compute(&A, &t, &b, &r);
	assert_true(t.terms[DRILL_TERM_NODE_MONITOR_GRACE].applies);
	assert_int_equal(t.terms[DRILL_TERM_NODE_MONITOR_GRACE].measured, 40);
	assert_int_equal(t.terms[DRILL_TERM_EVICTION].measured, 60);
	assert_int_equal(t.terms[DRILL_TERM_NODE_PROVISIONING].measured, 189);
	assert_int_equal(t.terms[DRILL_TERM_IMAGE_PULL].measured, 300);
	assert_int_equal(t.terms[DRILL_TERM_MODEL_LOAD].measured, 100);
	assert_int_equal(t.total, 689);
	assert_true(t.within_target);

	/* without the heartbeat: from the record's start; without it either: unknown */
	r.transitions[0].detail = NULL;
	drill_terms_compute(&A, &t, &b, &r);
	assert_int_equal(t.terms[DRILL_TERM_NODE_MONITOR_GRACE].measured, 50);
	r.started_at = 0;
	drill_terms_compute(&A, &t, &b, &r);
	assert_false(t.terms[DRILL_TERM_NODE_MONITOR_GRACE].known);
	assert_string_equal(t.terms[DRILL_TERM_NODE_MONITOR_GRACE].reason,
			    "the node's last heartbeat is not in the data");
}

static void
test_drill__partition_without_not_ready_is_unknown(void **state)
{
	struct drill_budget b = budget(DRILL_PARTITION);
	struct drill_record r;
	struct drill_terms t;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.scenario = DRILL_PARTITION;
	r.started_at = T0;
	drill_terms_compute(&A, &t, &b, &r);
	assert_false(t.terms[DRILL_TERM_NODE_MONITOR_GRACE].known);
	assert_string_equal(t.terms[DRILL_TERM_NODE_MONITOR_GRACE].reason,
			    "no NotReady transition of a drilled node in the data");
	assert_false(t.terms[DRILL_TERM_EVICTION].known);
	assert_string_equal(t.terms[DRILL_TERM_NODE_PROVISIONING].reason,
			    "no replacement pod was seen Pending");
}

static void
test_drill__record_round_trip(void **state)
{
	struct drill_record r, back;
	struct buf b;

	(void)state;
	drain(&r, 290, true, true);
	r.cluster = "my-hybrid-cluster";
	r.ended = true;
	r.ended_at = T0 + 700;
	buf_init(&b, 0);
	assert_int_equal(drill_record_write(&b, &r), 0);
	assert_non_null(strstr(b.data,
			       "{\"apiVersion\": \"gpusite.io/drill-record/v1\",\n"
			       " \"site\": \"seoul-dc1\", \"cluster\": \"my-hybrid-cluster\""));
	assert_non_null(strstr(
		b.data, "{\"time\": \"2026-03-01T08:00:20Z\", \"object\": \"Pod\","
			" \"namespace\": \"inference\", \"name\": \"llm-0-old\","
			" \"what\": \"deleted\", \"node\": \"gpu-a-01\", \"detail\": null}"));
	assert_int_equal(drill_record_read(&A, &D, &back, b.data, b.len, "r.json"), 0);
	assert_int_equal(back.count, r.count);
	assert_int_equal(back.started_at, T0);
	assert_true(back.ended);
	for (size_t i = 0; i < r.count; i++) {
		assert_int_equal(back.transitions[i].time, r.transitions[i].time);
		assert_int_equal(back.transitions[i].what, r.transitions[i].what);
		assert_string_equal(back.transitions[i].name, r.transitions[i].name);
	}
	buf_release(&b);
	assert_int_equal(
		drill_record_read(&A, &D, &back, "{\"apiVersion\": \"x\"}", 19, "bad.json"), -1);
	assert_string_equal(D.items[D.count - 1].rule, DRILL_RECORD);
}

static void
test_drill__record_with_too_many_transitions_is_refused(void **state)
{
	struct drill_record back;
	struct buf b;

	(void)state;
	buf_init(&b, 0);
	assert_int_equal(
		buf_adds(&b,
			 "{\"apiVersion\": \"gpusite.io/drill-record/v1\", \"site\": \"s\","
			 " \"scenario\": \"partition\", \"startedAt\": \"2026-03-01T08:00:00Z\","
			 " \"transitions\": ["),
		0);
	for (int i = 0; i <= DRILL_RECORD_MAX_TRANSITIONS; i++)
		assert_int_equal(
			buf_printf(&b,
				   "%s{\"time\": \"2026-03-01T08:00:00Z\", \"object\": \"Pod\","
				   " \"name\": \"p%d\", \"what\": \"Pending\"}",
				   i ? "," : "", i),
			0);
	assert_int_equal(buf_adds(&b, "]}"), 0);
	assert_int_equal(drill_record_read(&A, &D, &back, b.data, b.len, "big.json"), -1);
	assert_non_null(strstr(D.items[D.count - 1].msg, "it has 10001, more than the 10000"));
	buf_release(&b);
}

static void
test_drill__record_keeps_node_states(void **state)
{
	struct drill_record r, back;
	struct buf b;
	const char *old = "{\"apiVersion\": \"gpusite.io/drill-record/v1\", \"site\": \"s\","
			  " \"scenario\": \"node-failure\", \"nodes\": [\"a\"],"
			  " \"startedAt\": \"2026-03-01T08:00:00Z\", \"transitions\": []}";

	(void)state;
	drain(&r, 290, true, true);
	drill_record_add_state(&A, &r, "gpu-a-01", false, true);
	drill_record_add_state(&A, &r, "gpu-a-02", true, false);
	buf_init(&b, 0);
	assert_int_equal(drill_record_write(&b, &r), 0);
	assert_non_null(strstr(b.data, " \"nodes\": [\"gpu-a-01\"],\n \"nodeStates\": [\n"
				       "  {\"name\": \"gpu-a-01\", \"unschedulableBefore\": false,"
				       " \"cordonedByDrill\": true},\n"
				       "  {\"name\": \"gpu-a-02\", \"unschedulableBefore\": true,"
				       " \"cordonedByDrill\": false}],\n \"startedAt\""));
	assert_int_equal(drill_record_read(&A, &D, &back, b.data, b.len, "r.json"), 0);
	assert_int_equal(back.state_count, 2);
	assert_true(drill_record_state(&back, "gpu-a-01")->cordoned);
	assert_true(drill_record_state(&back, "gpu-a-02")->unschedulable_before);
	assert_false(drill_record_state(&back, "gpu-a-02")->cordoned);
	assert_null(drill_record_state(&back, "gpu-a-03"));
	buf_release(&b);
	/* a record of an older version has none: read, with no states */
	assert_int_equal(drill_record_read(&A, &D, &back, old, strlen(old), "old.json"), 0);
	assert_int_equal(back.state_count, 0);
	/* a node unschedulable before cannot have been cordoned by the drill */
	buf_init(&b, 0);
	assert_int_equal(buf_printf(&b,
				    "%.*s, \"nodeStates\": [{\"name\": \"a\","
				    " \"unschedulableBefore\": true, \"cordonedByDrill\": true}]}",
				    (int)strlen(old) - 1, old),
			 0);
	assert_int_equal(drill_record_read(&A, &D, &back, b.data, b.len, "bad.json"), -1);
	assert_non_null(strstr(D.items[D.count - 1].msg, "nodeStates[0] is not a drill record's"));
	buf_release(&b);
}

static void
test_drill__only_the_sites_hybrid_nodes_are_drilled(void **state)
{
	static const char *names[] = { "gpu-a-01" };
	struct spec_node_group g = { .name = "rack-a", .nodes = names, .node_count = 1 };
	struct spec_site s = { .name = "seoul-dc1", .groups = &g, .group_count = 1 };
	struct node *fallback = testutil_yaml_first(
		"n.yaml",
		"metadata:\n  labels:\n    karpenter.sh/nodepool: seoul-dc1-gpu-fallback\n"
		"    gpusite.io/site: seoul-dc1\n    eks.amazonaws.com/compute-type: hybrid\n",
		NULL);
	struct node *hybrid = testutil_yaml_first(
		"n.yaml",
		"metadata:\n  labels:\n    gpusite.io/site: seoul-dc1\n"
		"    eks.amazonaws.com/compute-type: hybrid\n    gpusite.io/node-group: rack-b\n"
		"spec:\n  unschedulable: true\n",
		NULL);
	struct node *other =
		testutil_yaml_first("n.yaml",
				    "metadata:\n  labels:\n    gpusite.io/site: pangyo-dc2\n"
				    "    eks.amazonaws.com/compute-type: hybrid\n",
				    NULL);
	struct node *auto_mode =
		testutil_yaml_first("n.yaml",
				    "metadata:\n  labels:\n    gpusite.io/site: seoul-dc1\n"
				    "    eks.amazonaws.com/compute-type: auto\n",
				    NULL);
	/* a burst node: the site's label too, never drained */
	struct node *burst = testutil_yaml_first(
		"n.yaml",
		"metadata:\n  labels:\n    karpenter.sh/nodepool: seoul-dc1-gpu-burst\n"
		"    gpusite.io/pool: burst\n    gpusite.io/site: seoul-dc1\n",
		NULL);

	(void)state;
	assert_false(drill_node_drillable(&s, fallback, "ip-10-0-77-12"));
	assert_string_equal(drill_node_refusal(&A, &s, fallback, "ip-10-0-77-12"),
			    "node 'ip-10-0-77-12' is a cloud node of Karpenter NodePool"
			    " 'seoul-dc1-gpu-fallback' (label karpenter.sh/nodepool), not an"
			    " on-prem hybrid node");
	assert_null(drill_node_refusal(&A, &s, hybrid, "mi-1"));
	assert_false(drill_node_drillable(&s, burst, "ip-10-0-93-21"));
	assert_string_equal(drill_node_refusal(&A, &s, burst, "ip-10-0-93-21"),
			    "node 'ip-10-0-93-21' is a cloud node of Karpenter NodePool"
			    " 'seoul-dc1-gpu-burst' (label karpenter.sh/nodepool), not an"
			    " on-prem hybrid node");
	assert_true(drill_node_unschedulable(hybrid));
	assert_false(drill_node_unschedulable(other));
	assert_true(drill_node_in_group(&s, hybrid, "mi-1", "rack-b"));
	assert_false(drill_node_in_group(&s, hybrid, "mi-1", "rack-a"));
	/* another site's node: only when the spec names it */
	assert_string_equal(drill_node_refusal(&A, &s, other, "gpu-z-01"),
			    "node 'gpu-z-01' is not a node of site 'seoul-dc1' (no"
			    " gpusite.io/site=seoul-dc1 label, not in a nodeGroup)");
	assert_null(drill_node_refusal(&A, &s, other, "gpu-a-01"));
	assert_true(drill_node_in_group(&s, other, "gpu-a-01", "rack-a"));
	assert_string_equal(drill_node_refusal(&A, &s, auto_mode, "i-1"),
			    "node 'i-1' is not a hybrid node (label eks.amazonaws.com/compute-type"
			    " is 'auto')");
}

static void
test_drill__commands_are_shell_words(void **state)
{
	static const char *nodes[] = { "gpu-a-01", "gpu-a-02" };

	(void)state;
	assert_string_equal(drill_shell_word(&A, "sites/prod-1.yaml", "X"), "sites/prod-1.yaml");
	assert_string_equal(drill_shell_word(&A, "my sites", "X"), "'my sites'");
	assert_string_equal(drill_shell_word(&A, "it's", "X"), "'it'\\''s'");
	assert_string_equal(drill_shell_word(&A, "$(rm -rf /)", "X"), "'$(rm -rf /)'");
	assert_string_equal(drill_shell_word(&A, "a\x1b[2Jb", "PATH"), "PATH");
	assert_string_equal(drill_shell_word(&A, "", "X"), "''");
	assert_string_equal(drill_restore_command(&A, "seoul-dc1", " sites --context prod", nodes,
						  2, "my drill.json"),
			    "gpusite drill run seoul-dc1 sites --context prod --restore --nodes"
			    " gpu-a-01,gpu-a-02 --record 'my drill.json' --execute");
	assert_null(drill_restore_command(&A, "seoul-dc1", "", nodes, 0, "r.json"));
}

/* Each pool with a scope of its own gets its line and its JSON counts,
 * named from its noun and the failover pool's: a second scoped pool (a toy
 * here) needs no code in the report. */
static void
test_drill__report_names_each_scope_check(void **state)
{
	struct drill_budget b = budget(DRILL_NODE_FAILURE);
	struct drill_record r;
	struct drill_terms t;
	struct drill_scope_check checks[] = {
		{ "burst", "fallback", 2, 0, NULL },
		{ "toy", "fallback", 3, 1, "jobs/toy-0 on ip-10-0-0-9" },
	};
	struct drill_report_input in = { "seoul-dc1", NULL, &t, "cluster", checks, 2 };
	struct buf out = BUF_INIT;

	(void)state;
	drain(&r, 290, true, true);
	drill_terms_compute(&A, &t, &b, &r);
	buf_init(&out, 0);
	assert_int_equal(drill_report_json(&out, &in), 0);
	assert_non_null(strstr(out.data,
			       ",\"withinTarget\":true,\"burstPods\":2,"
			       "\"burstOnFallback\":0,\"toyPods\":3,\"toyOnFallback\":1}\n"));
	buf_reset(&out);
	assert_int_equal(drill_report_text(&out, &in), 0);
	assert_non_null(strstr(out.data,
			       "\n  burst work stayed off the fallback: none of the 2"
			       " running Pods of the burst scope is on a fallback node\n"
			       "  toy work did NOT stay off the fallback: 1 of 3 Pods of the"
			       " toy scope on fallback nodes (jobs/toy-0 on ip-10-0-0-9)\n"));
	buf_release(&out);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		TESTUTIL_CASE(test_drill__drain_within_target),
		TESTUTIL_CASE(test_drill__report_names_each_scope_check),
		TESTUTIL_CASE(test_drill__drain_missed_on_image_pull),
		TESTUTIL_CASE(test_drill__unknown_terms_say_why),
		TESTUTIL_CASE(test_drill__partition_from_last_heartbeat),
		TESTUTIL_CASE(test_drill__partition_without_not_ready_is_unknown),
		TESTUTIL_CASE(test_drill__record_round_trip),
		TESTUTIL_CASE(test_drill__record_with_too_many_transitions_is_refused),
		TESTUTIL_CASE(test_drill__record_keeps_node_states),
		TESTUTIL_CASE(test_drill__only_the_sites_hybrid_nodes_are_drilled),
		TESTUTIL_CASE(test_drill__commands_are_shell_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
