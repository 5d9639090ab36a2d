/*
 * test_diff.c - normalising objects, the live subset (server defaults are
 * no difference), quantities, Secret masking, the object diff printer and
 * the list of differing fields.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "diff/diff.h"
#include "json/json.h"
#include "node/node.h"
#include "yamlio/yamlio.h"

static struct node *
J(struct arena *a, const char *text)
{
	struct diags d;
	struct node *n;

	diags_init(&d, a);
	n = json_parse(a, &d, "T", "test", text, strlen(text));
	assert_non_null(n);
	return n;
}

static char *
yaml_of(struct arena *a, const struct node *n)
{
	struct buf b;
	char *s;

	buf_init(&b, 0);
	assert_int_equal(yamlio_emit(&b, n, 0), 0);
	s = arena_strdup(a, b.data);
	buf_release(&b);
	return s;
}

static const char live_pool[] =
	"{\"apiVersion\":\"karpenter.sh/v1\",\"kind\":\"NodePool\","
	"\"metadata\":{\"name\":\"gpu-fallback\",\"uid\":\"u-1\",\"resourceVersion\":\"77\","
	"\"generation\":3,\"creationTimestamp\":\"2025-06-01T08:00:00Z\",\"selfLink\":\"/x\","
	"\"managedFields\":[{\"manager\":\"argocd\"}],"
	"\"labels\":{\"gpusite.io/site\":\"seoul\",\"argocd.argoproj.io/instance\":\"gpu\"},"
	"\"annotations\":{\"kubectl.kubernetes.io/last-applied-configuration\":\"{}\","
	"\"argocd.argoproj.io/tracking-id\":\"gpu:karpenter.sh/NodePool:/gpu-fallback\"}},"
	"\"spec\":{\"weight\":10,\"disruption\":{\"budgets\":[{\"nodes\":\"10%\"}],"
	"\"consolidateAfter\":\"5m\",\"consolidationPolicy\":\"WhenEmpty\"},"
	"\"limits\":{\"nvidia.com/gpu\":\"16\",\"memory\":\"1Gi\"},"
	"\"template\":{\"spec\":{\"taints\":[{\"key\":\"nvidia.com/gpu\",\"value\":\"Exists\","
	"\"effect\":\"NoSchedule\"}],\"expireAfter\":\"720h\",\"startupTaints\":[]}}},"
	"\"status\":{\"resources\":{\"nodes\":\"0\"}}}";

static const char rendered_pool[] =
	"{\"apiVersion\":\"karpenter.sh/v1\",\"kind\":\"NodePool\","
	"\"metadata\":{\"name\":\"gpu-fallback\",\"labels\":{\"gpusite.io/site\":\"seoul\"}},"
	"\"spec\":{\"template\":{\"spec\":{\"taints\":[{\"key\":\"nvidia.com/gpu\","
	"\"value\":\"Exists\",\"effect\":\"NoSchedule\"}],\"startupTaints\":[],"
	"\"nodeClassRef\":{}}},"
	"\"disruption\":{\"consolidationPolicy\":\"WhenEmpty\",\"consolidateAfter\":\"5m\"},"
	"\"limits\":{\"nvidia.com/gpu\":16,\"memory\":\"1024Mi\"}}}";

static void
test_diff__normalize_drops_server_fields(void **state)
{
	struct arena a = ARENA_INIT;
	struct node *n;
	const struct node *md;

	(void)state;
	n = diff_normalize(&a, J(&a, live_pool));
	md = node_map_get(n, "metadata");
	assert_null(node_map_get(n, "status"));
	assert_null(node_map_get(md, "uid"));
	assert_null(node_map_get(md, "resourceVersion"));
	assert_null(node_map_get(md, "generation"));
	assert_null(node_map_get(md, "creationTimestamp"));
	assert_null(node_map_get(md, "selfLink"));
	assert_null(node_map_get(md, "managedFields"));
	/* both annotations were tool-owned: the mapping goes */
	assert_null(node_map_get(md, "annotations"));
	assert_non_null(node_path(n, "metadata.labels"));
	assert_null(node_map_get(node_map_get(md, "labels"), "argocd.argoproj.io/instance"));
	assert_string_equal(node_str(node_map_get(node_map_get(md, "labels"), "gpusite.io/site")),
			    "seoul");
	assert_non_null(node_path(n, "spec.weight"));
	arena_release(&a);
}

static void
test_diff__server_defaults_are_no_difference(void **state)
{
	struct arena a = ARENA_INIT;
	struct node *r, *l;
	struct buf out;

	(void)state;
	r = diff_normalize(&a, J(&a, rendered_pool));
	l = diff_live_subset(&a, diff_normalize(&a, J(&a, live_pool)), r);
	/* weight, budgets, expireAfter were defaulted by the server: gone;
	 * 16 vs "16" and 1Gi vs 1024Mi are equal; key order is rendered's;
	 * nodeClassRef {} is absent live (omitempty) */
	assert_string_equal(yaml_of(&a, l), yaml_of(&a, r));
	assert_true(node_equal(l, r));
	buf_init(&out, 0);
	assert_int_equal(diff_objects(&out, l, r, "live/NodePool/gpu-fallback",
				      "rendered/NodePool/gpu-fallback"),
			 0);
	assert_int_equal(out.len, 0);
	buf_release(&out);
	arena_release(&a);
}

static void
test_diff__a_changed_field_is_a_difference(void **state)
{
	struct arena a = ARENA_INIT;
	struct node *r, *live, *l;
	struct buf out;
	const char *paths[4];

	(void)state;
	r = diff_normalize(&a, J(&a, rendered_pool));
	live = J(&a, live_pool);
	node_map_set(&a, node_path(live, "spec.limits"), "nvidia.com/gpu",
		     node_new_int(&a, (struct pos){ 0 }, 32));
	l = diff_live_subset(&a, diff_normalize(&a, live), r);
	buf_init(&out, 0);
	assert_int_equal(diff_objects(&out, l, r, "live/NodePool/gpu-fallback",
				      "rendered/NodePool/gpu-fallback"),
			 1);
	assert_non_null(strstr(out.data, "--- live/NodePool/gpu-fallback\n"
					 "+++ rendered/NodePool/gpu-fallback\n@@ "));
	assert_non_null(strstr(out.data, "\n-    nvidia.com/gpu: 32\n+    nvidia.com/gpu: 16\n"));
	/* only that line changed */
	assert_null(strstr(out.data, "\n-    memory"));
	assert_int_equal(diff_paths(&a, l, r, paths, 4), 1);
	assert_string_equal(paths[0], "spec.limits[\"nvidia.com/gpu\"]");
	buf_release(&out);
	arena_release(&a);
}

static void
test_diff__missing_and_removed_objects_are_shown_whole(void **state)
{
	struct arena a = ARENA_INIT;
	struct node *r;
	struct buf out;
	size_t plus = 0, lines = 0;

	(void)state;
	r = diff_normalize(&a, J(&a, rendered_pool));
	buf_init(&out, 0);
	assert_int_equal(diff_objects(&out, NULL, r, "live/NodePool/x", "rendered/NodePool/x"), 1);
	assert_non_null(strstr(out.data, "@@ -0,0 +1,"));
	for (const char *p = strstr(out.data, "@@"); p && (p = strchr(p, '\n')) && p[1]; p++) {
		lines++;
		plus += p[1] == '+';
	}
	assert_true(lines > 10);
	assert_int_equal(plus, lines);
	buf_reset(&out);
	assert_int_equal(diff_objects(&out, r, NULL, "live/NodePool/x", "rendered/NodePool/x"), 1);
	assert_non_null(strstr(out.data, " +0,0 @@"));
	assert_non_null(strstr(out.data, "\n-apiVersion: karpenter.sh/v1\n"));
	buf_release(&out);
	arena_release(&a);
}

static void
test_diff__lists_compare_item_by_item(void **state)
{
	struct arena a = ARENA_INIT;
	struct node *r, *l;

	(void)state;
	r = J(&a, "{\"t\":[{\"key\":\"a\",\"operator\":\"Exists\"}]}");
	/* a defaulted field inside an item is dropped; an extra item stays */
	l = diff_live_subset(&a,
			     J(&a, "{\"t\":[{\"key\":\"a\",\"operator\":\"Exists\","
				   "\"effect\":\"\"},{\"key\":\"b\"}]}"),
			     r);
	assert_int_equal(node_map_get(l, "t")->seq.count, 2);
	assert_null(node_map_get(node_map_get(l, "t")->seq.items[0], "effect"));
	assert_false(node_equal(l, r));
	arena_release(&a);
}

static void
test_diff__quantities(void **state)
{
	(void)state;
	assert_true(diff_quantity_equal("16", "16"));
	assert_true(diff_quantity_equal("100m", "0.1"));
	assert_true(diff_quantity_equal("1Gi", "1024Mi"));
	assert_true(diff_quantity_equal("2k", "2000"));
	assert_false(diff_quantity_equal("1G", "1Gi"));
	assert_false(diff_quantity_equal("16", "32"));
	assert_false(diff_quantity_equal("5m", "300s")); /* a duration is not a quantity */
	assert_false(diff_quantity_equal("gpu", "gpu2"));
	assert_false(diff_quantity_equal(NULL, "1"));
}

static void
test_diff__booleans_and_strings_are_not_confused(void **state)
{
	struct arena a = ARENA_INIT;
	struct node *r, *l;

	(void)state;
	r = J(&a, "{\"enabled\":true,\"v\":\"true\"}");
	l = diff_live_subset(&a, J(&a, "{\"enabled\":\"true\",\"v\":\"true\"}"), r);
	assert_false(node_equal(l, r));
	arena_release(&a);
}

static void
test_diff__secret_values_are_masked(void **state)
{
	struct arena a = ARENA_INIT;
	struct node *l, *r;
	struct buf out;

	(void)state;
	l = J(&a, "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"s\"},"
		  "\"data\":{\"same\":\"c2FtZQ==\",\"code\":\"b2xkLXNlY3JldA==\"}}");
	r = J(&a, "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"s\"},"
		  "\"data\":{\"same\":\"c2FtZQ==\",\"code\":\"bmV3LXNlY3JldA==\"}}");
	diff_mask_secrets(&a, l, r);
	assert_string_equal(node_str(node_path(l, "data.same")), "***");
	assert_string_equal(node_str(node_path(r, "data.same")), "***");
	assert_string_equal(node_str(node_path(l, "data.code")), "*** (before)");
	assert_string_equal(node_str(node_path(r, "data.code")), "*** (after)");
	buf_init(&out, 0);
	assert_int_equal(diff_objects(&out, l, r, "live/Secret/s", "rendered/Secret/s"), 1);
	assert_null(strstr(out.data, "c2VjcmV0"));
	assert_null(strstr(out.data, "b2xkLXNlY3JldA"));
	buf_release(&out);
	arena_release(&a);
}

static void
test_diff__other_kinds_are_not_masked(void **state)
{
	struct arena a = ARENA_INIT;
	struct node *l;

	(void)state;
	l = J(&a, "{\"kind\":\"ConfigMap\",\"data\":{\"k\":\"v\"}}");
	diff_mask_secrets(&a, l, NULL);
	assert_string_equal(node_str(node_path(l, "data.k")), "v");
	arena_release(&a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_diff__normalize_drops_server_fields),
		cmocka_unit_test(test_diff__server_defaults_are_no_difference),
		cmocka_unit_test(test_diff__a_changed_field_is_a_difference),
		cmocka_unit_test(test_diff__missing_and_removed_objects_are_shown_whole),
		cmocka_unit_test(test_diff__lists_compare_item_by_item),
		cmocka_unit_test(test_diff__quantities),
		cmocka_unit_test(test_diff__booleans_and_strings_are_not_confused),
		cmocka_unit_test(test_diff__secret_values_are_masked),
		cmocka_unit_test(test_diff__other_kinds_are_not_masked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
