/*
 * test_k8s.c - the Kubernetes semantics of src/k8s/, each against the
 * upstream rules it reproduces (apimachinery, core/v1).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "k8s/k8s_affinity.h"
#include "k8s/k8s_int.h"
#include "k8s/k8s_labels.h"
#include "k8s/k8s_names.h"
#include "k8s/k8s_quantity.h"
#include "k8s/k8s_selector.h"
#include "k8s/k8s_time.h"
#include "k8s/k8s_toleration.h"
#include "k8s/k8s_controllers.h"
#include "k8s/k8s_version.h"

#include "testutil.h"

static const struct node *
yaml(const char *text)
{
	return testutil_yaml_first("t.yaml", text, NULL);
}

/* In the spirit of apimachinery labels/selector_test.go TestRequirementMatches /
 * metav1 LabelSelectorAsSelector: a missing label fails In and Exists and
 * passes NotIn and DoesNotExist; invalid requirements select nothing. */
static void
test_k8s__label_selector_like_apimachinery(void **state)
{
	static const struct {
		const char *sel;
		bool match;
	} cases[] = {
		{ "{}", true },
		{ "{matchLabels: {a: x}}", true },
		{ "{matchLabels: {a: y}}", false },
		{ "{matchLabels: {missing: x}}", false },
		{ "{matchLabels: {a: x, b: y}}", true },
		{ "{matchExpressions: [{key: a, operator: In, values: [x, z]}]}", true },
		{ "{matchExpressions: [{key: a, operator: In, values: [z]}]}", false },
		{ "{matchExpressions: [{key: missing, operator: In, values: [x]}]}", false },
		{ "{matchExpressions: [{key: a, operator: NotIn, values: [z]}]}", true },
		{ "{matchExpressions: [{key: a, operator: NotIn, values: [x]}]}", false },
		{ "{matchExpressions: [{key: missing, operator: NotIn, values: [x]}]}", true },
		{ "{matchExpressions: [{key: a, operator: Exists}]}", true },
		{ "{matchExpressions: [{key: missing, operator: Exists}]}", false },
		{ "{matchExpressions: [{key: a, operator: DoesNotExist}]}", false },
		{ "{matchExpressions: [{key: missing, operator: DoesNotExist}]}", true },
		/* AND of matchLabels and every expression */
		{ "{matchLabels: {a: x}, matchExpressions: [{key: b, operator: In, values: [z]}]}",
		  false },
		/* invalid: selects nothing */
		{ "{matchExpressions: [{key: a, operator: In, values: []}]}", false },
		{ "{matchExpressions: [{key: missing, operator: NotIn, values: []}]}", false },
		{ "{matchExpressions: [{key: a, operator: Exists, values: [x]}]}", false },
		{ "{matchExpressions: [{key: missing, operator: DoesNotExist, values: [x]}]}",
		  false },
		{ "{matchExpressions: [{operator: NotIn, values: [x]}]}", false },
		{ "{matchExpressions: [{key: missing, operator: Like, values: [x]}]}", false },
		/* Gt and Lt belong to node selectors, not label selectors */
		{ "{matchExpressions: [{key: n, operator: Gt, values: [\"1\"]}]}", false },
	};
	const struct node *labels = yaml("{a: x, b: y, n: \"7\"}");

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (k8s_label_selector_matches(yaml(cases[i].sel), labels) != cases[i].match)
			fail_msg("selector %s: want %d", cases[i].sel, cases[i].match);
	}
	assert_true(k8s_label_selector_matches(NULL, labels));
	assert_false(k8s_label_selector_matches(yaml("{matchLabels: {a: x}}"), NULL));
}

/* Disjoint selectors: no set of labels matches both. */
static void
test_k8s__selectors_disjoint(void **state)
{
	static const struct {
		const char *a, *b;
		bool disjoint;
	} cases[] = {
		{ "{}", "{}", false },
		{ "{}", "{matchLabels: {a: x}}", false },
		{ "{matchLabels: {a: x}}", "{matchLabels: {a: y}}", true },
		{ "{matchLabels: {a: x}}", "{matchLabels: {b: y}}", false },
		{ "{matchLabels: {a: x}}",
		  "{matchExpressions: [{key: a, operator: In, values: [y, x]}]}", false },
		{ "{matchLabels: {a: x}}",
		  "{matchExpressions: [{key: a, operator: NotIn, values: [x]}]}", true },
		{ "{matchLabels: {a: x}}", "{matchExpressions: [{key: a, operator: DoesNotExist}]}",
		  true },
		{ "{matchExpressions: [{key: a, operator: Exists}]}",
		  "{matchExpressions: [{key: a, operator: DoesNotExist}]}", true },
		{ "{matchExpressions: [{key: a, operator: NotIn, values: [x]}]}",
		  "{matchExpressions: [{key: a, operator: NotIn, values: [y]}]}", false },
		{ "{matchExpressions: [{key: a, operator: In, values: [x, y]}]}",
		  "{matchExpressions: [{key: a, operator: NotIn, values: [x, y]}]}", true },
		{ "{matchExpressions: [{key: a, operator: Exists}]}",
		  "{matchExpressions: [{key: a, operator: NotIn, values: [x]}]}", false },
		/* one key disjoint is enough, whatever the others */
		{ "{matchLabels: {a: x, b: y}}", "{matchLabels: {b: y, a: z}}", true },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct node *a = yaml(cases[i].a), *b = yaml(cases[i].b);

		if (k8s_label_selectors_disjoint(a, b) != cases[i].disjoint ||
		    k8s_label_selectors_disjoint(b, a) != cases[i].disjoint)
			fail_msg("%s vs %s: want disjoint %d", cases[i].a, cases[i].b,
				 cases[i].disjoint);
	}
	assert_false(k8s_label_selectors_disjoint(NULL, yaml("{matchLabels: {a: x}}")));
}

static void
test_k8s__node_requirements_gt_lt(void **state)
{
	const struct node *one = yaml("[\"7\"]");

	(void)state;
	assert_int_equal(k8s_requirement_eval("Gt", one, "8", K8S_REQ_NODE), K8S_REQ_YES);
	assert_int_equal(k8s_requirement_eval("Gt", one, "7", K8S_REQ_NODE), K8S_REQ_NO);
	assert_int_equal(k8s_requirement_eval("Lt", one, "6", K8S_REQ_NODE), K8S_REQ_YES);
	assert_int_equal(k8s_requirement_eval("Lt", one, "+6", K8S_REQ_NODE), K8S_REQ_YES);
	/* a label that is absent or not an integer does not match */
	assert_int_equal(k8s_requirement_eval("Gt", one, NULL, K8S_REQ_NODE), K8S_REQ_NO);
	assert_int_equal(k8s_requirement_eval("Gt", one, "x", K8S_REQ_NODE), K8S_REQ_NO);
	/* exactly one integer value, else invalid */
	assert_int_equal(k8s_requirement_eval("Gt", yaml("[\"1\", \"2\"]"), "8", K8S_REQ_NODE),
			 K8S_REQ_INVALID);
	assert_int_equal(k8s_requirement_eval("Gt", yaml("[\"1.5\"]"), "8", K8S_REQ_NODE),
			 K8S_REQ_INVALID);
	assert_int_equal(k8s_requirement_eval("Gt", one, "8", 0), K8S_REQ_INVALID);
	assert_int_equal(k8s_requirement_eval(NULL, one, "8", K8S_REQ_NODE), K8S_REQ_INVALID);
}

static bool
tol(const char *toleration, const char *key, const char *value, const char *effect)
{
	const struct k8s_taint t = { key, value, effect };

	return k8s_toleration_tolerates(yaml(toleration), &t);
}

/* In the spirit of core/v1 toleration_test.go TestTolerationToleratesTaint. */
static void
test_k8s__toleration_like_core_v1(void **state)
{
	(void)state;
	/* same key, value, effect */
	assert_true(tol("{key: k, operator: Equal, value: v, effect: NoSchedule}", "k", "v",
			"NoSchedule"));
	/* operator "" is Equal */
	assert_true(tol("{key: k, value: v, effect: NoSchedule}", "k", "v", "NoSchedule"));
	assert_false(tol("{key: k, operator: Equal, value: w, effect: NoSchedule}", "k", "v",
			 "NoSchedule"));
	/* Exists: any value */
	assert_true(tol("{key: k, operator: Exists, effect: NoSchedule}", "k", "v", "NoSchedule"));
	assert_false(tol("{key: j, operator: Exists, effect: NoSchedule}", "k", "v", "NoSchedule"));
	/* empty effect matches all effects; a set one only its own */
	assert_true(tol("{key: k, operator: Exists}", "k", "v", "NoExecute"));
	assert_false(tol("{key: k, operator: Exists, effect: NoSchedule}", "k", "v", "NoExecute"));
	/* empty key with Exists tolerates everything */
	assert_true(tol("{operator: Exists}", "k", "v", "NoExecute"));
	/* empty key with Equal: only the value is compared (ToleratesTaint itself) */
	assert_true(tol("{operator: Equal, value: v}", "k", "v", "NoSchedule"));
	/* an empty taint value equals an absent toleration value */
	assert_true(tol("{key: k, effect: NoSchedule}", "k", NULL, "NoSchedule"));
	/* unknown operators tolerate nothing */
	assert_false(tol("{key: k, operator: Gt, value: v}", "k", "v", "NoSchedule"));
	assert_false(tol("[]", "k", "v", "NoSchedule"));
	assert_true(k8s_tolerations_tolerate(
		yaml("[{key: j, operator: Exists}, {key: k, operator: Exists}]"),
		&(struct k8s_taint){ "k", "v", "NoSchedule" }));
	assert_false(k8s_tolerations_tolerate(NULL, &(struct k8s_taint){ "k", "v", "NoSchedule" }));
}

static void
test_k8s__parse_int64_like_strconv(void **state)
{
	long long v = 0;

	(void)state;
	assert_true(k8s_parse_int64("+9", &v));
	assert_int_equal(v, 9);
	assert_true(k8s_parse_int64("-9223372036854775808", &v));
	assert_false(k8s_parse_int64("+-1", &v));
	assert_false(k8s_parse_int64("++1", &v));
	assert_false(k8s_parse_int64("+", &v));
	assert_false(k8s_parse_int64(NULL, &v));
	assert_int_equal(v, INT64_MIN);
}

static int
version(const char *text, int *major, int *minor)
{
	*major = *minor = -7;
	return k8s_version_parse(text, strlen(text), major, minor);
}

static void
test_k8s__version_accepts_what_clusters_and_argocd_write(void **state)
{
	static const struct {
		const char *text;
		int major, minor;
	} ok[] = {
		{ "1.35", 1, 35 },
		{ "v1.35", 1, 35 },
		{ "V1.35", 1, 35 },
		{ "1.35.2", 1, 35 },
		{ "v1.35.0-eks-4096722", 1, 35 },
		{ "1.35+", 1, 35 },
		{ "1.29+", 1, 29 },
		{ "1.31.2+eks", 1, 31 },
		{ "v1.30.4-eks-a737599", 1, 30 },
		{ "1.9", 1, 9 },
		{ "2.0", 2, 0 },
	};
	int major, minor;

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		assert_int_equal(version(ok[i].text, &major, &minor), 0);
		assert_int_equal(major, ok[i].major);
		assert_int_equal(minor, ok[i].minor);
	}
}

static void
test_k8s__version_refuses_anything_else(void **state)
{
	static const char *const bad[] = {
		"",        "v",      "1",       "1.",      "1.x",        ".35",
		"1.35.",   "1.35-",  "1.35 ",   " 1.35",   "1..35",      "vv1.35",
		"1.35.2.", "1.35/2", "1.12345", "12345.1", "1.35-eks 1", "latest",
	};
	int major, minor;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(version(bad[i], &major, &minor), -1);
		assert_int_equal(major, -7); /* untouched on failure */
	}
	/* the length is what counts, not a NUL */
	assert_int_equal(k8s_version_parse("1.35junk", 4, &major, &minor), 0);
	assert_int_equal(minor, 35);
	assert_int_equal(k8s_version_parse(NULL, 0, &major, &minor), -1);
}

/* Controller releases: MAJOR.MINOR[.PATCH] digits only; each construct
 * served from its release on (and, when removed, before the removal). */
static void
test_k8s__controller_releases(void **state)
{
	static const char *const bad[] = { "",        "1",       "1.",  "v1.9",    "1.9.",
					   "1.9.1.1", "1.9-rc1", "1.x", "12345.1", "1.9 " };
	struct k8s_release r = { 7, 7, 7 };
	char text[32];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(k8s_release_parse(bad[i], &r), -1);
	assert_int_equal(r.major, 7);
	assert_int_equal(k8s_release_parse("1.17.2", &r), 0);
	assert_string_equal(k8s_release_text(r, text, sizeof(text)), "1.17.2");
	assert_true(k8s_release_serves(r, K8S_REQ_GTE));
	assert_int_equal(k8s_release_parse("1.8", &r), 0);
	assert_false(k8s_release_serves(r, K8S_REQ_GTE));
	assert_true(k8s_release_serves(r, K8S_CAPACITY_BLOCK));
	assert_int_equal(k8s_release_parse("1.5.9", &r), 0);
	assert_false(k8s_release_serves(r, K8S_CAPACITY_BLOCK));
	assert_true(k8s_release_serves(r, K8S_RESERVED_CAPACITY));
	assert_int_equal(k8s_release_parse("0.37", &r), 0);
	assert_false(k8s_release_serves(r, K8S_NODEPOOL_V1));
	assert_int_equal(k8s_release_parse("1.19.9", &r), 0);
	assert_true(k8s_release_serves(r, K8S_KYVERNO_CLUSTERPOLICY));
	assert_true(k8s_release_serves(r, K8S_MUTATING_POLICY));
	assert_int_equal(k8s_release_parse("1.20", &r), 0);
	assert_false(k8s_release_serves(r, K8S_KYVERNO_CLUSTERPOLICY));
	assert_int_equal(k8s_release_parse("1.16.9", &r), 0);
	assert_false(k8s_release_serves(r, K8S_MUTATING_POLICY));
	/* 1.10 is newer than 1.9: numbers, not text */
	assert_int_equal(k8s_release_parse("1.10", &r), 0);
	assert_true(k8s_release_serves(r, K8S_REQ_GTE));
}

/* apimachinery validation: IsDNS1123Label/Subdomain, IsQualifiedName,
 * IsValidLabelValue */
static void
test_k8s__names_like_apimachinery(void **state)
{
	char l63[64], l64[65], sub[256];

	(void)state;
	memset(l63, 'a', 63);
	l63[63] = '\0';
	memset(l64, 'a', 64);
	l64[64] = '\0';
	assert_true(k8s_is_dns1123_label("a-1"));
	assert_true(k8s_is_dns1123_label(l63));
	assert_false(k8s_is_dns1123_label(l64));
	assert_false(k8s_is_dns1123_label("A"));
	assert_false(k8s_is_dns1123_label("-a"));
	assert_false(k8s_is_dns1123_label("a.b"));
	assert_false(k8s_is_dns1123_label(NULL));
	assert_true(k8s_is_dns1123_subdomain("a.b-c.d"));
	assert_false(k8s_is_dns1123_subdomain("a..b"));
	assert_false(k8s_is_dns1123_subdomain("a."));
	/* the subdomain regex caps the whole at 253, no label of its own */
	snprintf(sub, sizeof(sub), "%s.b", l64);
	assert_true(k8s_is_dns1123_subdomain(sub));
	memset(sub, 'a', 254);
	sub[254] = '\0';
	assert_false(k8s_is_dns1123_subdomain(sub));
	assert_null(k8s_qualified_name_problem("nvidia.com/gpu"));
	assert_null(k8s_qualified_name_problem("node-type"));
	assert_null(k8s_qualified_name_problem("A_b.c"));
	assert_non_null(k8s_qualified_name_problem(""));
	assert_non_null(k8s_qualified_name_problem("a/b/c"));
	assert_non_null(k8s_qualified_name_problem("/b"));
	assert_non_null(k8s_qualified_name_problem("Example.com/b"));
	assert_non_null(k8s_qualified_name_problem("a/"));
	assert_non_null(k8s_qualified_name_problem(l64));
	assert_non_null(k8s_qualified_name_problem("-a"));
	assert_null(k8s_label_value_problem(""));
	assert_null(k8s_label_value_problem(NULL));
	assert_null(k8s_label_value_problem("hybrid-gpu"));
	assert_null(k8s_label_value_problem(l63));
	assert_non_null(k8s_label_value_problem(l64));
	assert_non_null(k8s_label_value_problem("a/b"));
	assert_non_null(k8s_label_value_problem("a-"));
}

static int
qty(const char *text, double *v)
{
	return k8s_quantity_parse(text, strlen(text), v);
}

/* resource.ParseQuantity's grammar (quantity_test.go in spirit) */
static void
test_k8s__quantity_like_parse_quantity(void **state)
{
	static const struct {
		const char *text;
		double value;
	} ok[] = {
		{ "0", 0 },
		{ "4", 4 },
		{ "+4", 4 },
		{ "-4", -4 },
		{ "100m", 0.1 },
		{ "1Gi", 1073741824.0 },
		{ "1.5Gi", 1610612736.0 },
		{ "1e3", 1000 },
		{ "1E3", 1000 },
		{ "1e-3", 0.001 },
		{ "2k", 2000 },
		{ "1E", 1e18 },
		{ "1.", 1 },
		{ ".5", 0.5 },
		{ "5Mi", 5242880.0 },
		{ "3n", 3e-9 },
		{ "7u", 7e-6 },
		{ "190126320Ki", 194689351680.0 },
		{ "47810m", 47.81 },
	};
	static const char *const bad[] = {
		"",    "+",  "-",    ".",     "1 Gi", " 1",  "1gi", "1Gib", "0x10", "inf",
		"nan", "1e", "1e3k", "1.5.2", "1K",   "1ki", "e3",  "1e+",  "1..5", "--1",
	};
	double v;

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		if (qty(ok[i].text, &v) != 0)
			fail_msg("%s: refused", ok[i].text);
		if (fabs(v - ok[i].value) > 1e-9 * fmax(1.0, fabs(ok[i].value)))
			fail_msg("%s: %g, want %g", ok[i].text, v, ok[i].value);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = -7;
		if (qty(bad[i], &v) != -1 || v != -7)
			fail_msg("%s: accepted", bad[i]);
	}
	assert_int_equal(k8s_quantity_parse(NULL, 0, &v), -1);
}

static const char *
map_label(const void *ctx, const char *key)
{
	return node_text(node_map_get(ctx, key));
}

/* nodeaffinity: terms ORed, requirements of a term ANDed */
static void
test_k8s__node_selector_terms(void **state)
{
	const struct node *labels = yaml("{node-type: hybrid-gpu, gpu.count: \"8\"}");
	const struct k8s_node_ref n = { "gpu-a-01", map_label, labels };
	struct k8s_term_result r;

	(void)state;
	assert_true(k8s_node_selector_terms_match(
		yaml("[{matchExpressions: [{key: node-type, operator: In, values: [cpu]}]},"
		     " {matchExpressions: [{key: gpu.count, operator: Gt, values: [\"7\"]}]}]"),
		&n));
	assert_false(k8s_node_selector_terms_match(yaml("[]"), &n));
	assert_false(k8s_node_selector_terms_match(NULL, &n));
	/* an empty term matches no node */
	assert_false(k8s_node_selector_term_matches(&r, yaml("{}"), &n));
	assert_int_equal(r.verdict, K8S_TERM_EMPTY);
	/* AND inside a term; the first failing requirement is named */
	assert_false(k8s_node_selector_term_matches(
		&r,
		yaml("{matchExpressions: [{key: node-type, operator: Exists},"
		     " {key: gpu.count, operator: Lt, values: [\"8\"]}]}"),
		&n));
	assert_int_equal(r.verdict, K8S_TERM_EXPR_NO);
	assert_int_equal(r.index, 1);
	assert_false(k8s_node_selector_term_matches(
		&r, yaml("{matchExpressions: [{key: node-type, operator: Exists, values: [x]}]}"),
		&n));
	assert_int_equal(r.verdict, K8S_TERM_EXPR_INVALID);
	/* matchFields: metadata.name, In / NotIn, one value */
	assert_true(k8s_node_selector_term_matches(
		&r, yaml("{matchFields: [{key: metadata.name, operator: In, values: [gpu-a-01]}]}"),
		&n));
	assert_int_equal(r.verdict, K8S_TERM_MATCH);
	assert_false(k8s_node_selector_term_matches(
		&r,
		yaml("{matchFields: [{key: metadata.name, operator: NotIn, values: [gpu-a-01]}]}"),
		&n));
	assert_int_equal(r.verdict, K8S_TERM_FIELD_NO);
	assert_false(k8s_node_selector_term_matches(
		&r, yaml("{matchFields: [{key: metadata.name, operator: In, values: [a, b]}]}"),
		&n));
	assert_int_equal(r.verdict, K8S_TERM_FIELD_INVALID);
	assert_false(k8s_node_selector_term_matches(
		&r, yaml("{matchFields: [{key: metadata.uid, operator: In, values: [a]}]}"), &n));
	assert_int_equal(r.verdict, K8S_TERM_FIELD_INVALID);
}

/* metav1.Time and expirationTimestamp: RFC 3339 as Go's time.RFC3339 reads it */
static void
test_k8s__time_rfc3339(void **state)
{
	static const char *const bad[] = {
		"tomorrow",
		"2025-06-01 08:14",
		"2025-13-01T08:14:00Z",
		"2025-06-00T08:14:00Z",
		"2025-06-01T24:00:00Z",
		"2025-06-01T08:60:00Z",
		"2025-06-01T08:14:61Z",
		"2025-06-01T08:14:00",
		"2025-06-01T08:14:00.Z",
		"2025-06-01T08:14:00Zjunk",
		"2025-06-01T08:14:00+0900",
		"2025-06-01T08:14:00+24:00",
		"2025-06-01T08:14:00+09:60",
		"2025-06-01X08:14:00Z",
		"-025-06-01T08:14:00Z",
		"",
	};
	int64_t t;

	(void)state;
	assert_int_equal(k8s_time_parse(&t, "1970-01-01T00:01:00Z"), 0);
	assert_int_equal(t, 60);
	assert_int_equal(k8s_time_parse(&t, "2025-06-01T08:14:00.123456Z"), 0);
	assert_int_equal(t, 1748765640);
	assert_int_equal(k8s_time_parse(&t, "2025-06-01T17:14:00+09:00"), 0);
	assert_int_equal(t, 1748765640);
	assert_int_equal(k8s_time_parse(&t, "2025-06-01T00:14:00.5-08:00"), 0);
	assert_int_equal(t, 1748765640);
	assert_int_equal(k8s_time_parse(&t, "2025-06-01t08:14:00z"), 0);
	assert_int_equal(t, 1748765640);
	assert_int_equal(k8s_time_parse(&t, "2025-06-01 08:14:00Z"), 0);
	assert_int_equal(t, 1748765640);
	/* a leap second reads as the next second, as timegm normalises it */
	assert_int_equal(k8s_time_parse(&t, "2016-12-31T23:59:60Z"), 0);
	assert_int_equal(t, 1483228800);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		t = 7;
		if (k8s_time_parse(&t, bad[i]) != -1)
			fail_msg("'%s' was taken for a time", bad[i]);
		assert_int_equal(t, 7);
	}
	assert_int_equal(k8s_time_parse(&t, NULL), -1);
}

/* kubelet well_known_labels.go (IsKubeletLabel), the kubelet's
 * --node-labels check and NodeRestriction's getForbiddenLabels */
static void
test_k8s__kubelet_labels(void **state)
{
	(void)state;
	/* the kubelet's own keys and domains */
	assert_true(k8s_is_kubelet_label("kubernetes.io/hostname"));
	assert_true(k8s_is_kubelet_label("topology.kubernetes.io/zone"));
	assert_true(k8s_is_kubelet_label("node.kubernetes.io/anything"));
	assert_true(k8s_is_kubelet_label("x.kubelet.kubernetes.io/y"));
	assert_false(k8s_is_kubelet_label("kubernetes.io/role"));
	assert_false(k8s_is_kubelet_label("gpu"));
	assert_false(k8s_is_kubelet_label(NULL));
	/* refused: kubernetes.io and k8s.io, their subdomains, unless the
	 * kubelet's own */
	assert_true(k8s_kubelet_refuses_label("kubernetes.io/role"));
	assert_true(k8s_kubelet_refuses_label("node-role.kubernetes.io/gpu"));
	assert_true(k8s_kubelet_refuses_label("k8s.io/x"));
	assert_true(k8s_kubelet_refuses_label("a.k8s.io/x"));
	assert_false(k8s_kubelet_refuses_label("kubernetes.io/arch"));
	assert_false(k8s_kubelet_refuses_label("node.kubernetes.io/pool"));
	/* a domain only ends in kubernetes.io after a dot */
	assert_false(k8s_kubelet_refuses_label("notkubernetes.io/x"));
	assert_false(k8s_kubelet_refuses_label("example.com/gpu"));
	assert_false(k8s_kubelet_refuses_label("kubernetes.io"));
	assert_false(k8s_kubelet_refuses_label(NULL));
	/* NodeRestriction adds its own domain to what the kubelet refuses */
	assert_true(k8s_node_restriction_forbids("node-restriction.kubernetes.io/x"));
	assert_true(k8s_node_restriction_forbids("a.node-restriction.kubernetes.io/x"));
	assert_true(k8s_node_restriction_forbids("kubernetes.io/role"));
	assert_false(k8s_node_restriction_forbids("node.kubernetes.io/pool"));
	assert_false(k8s_node_restriction_forbids("example.com/gpu"));
	assert_false(k8s_node_restriction_forbids(NULL));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		TESTUTIL_CASE(test_k8s__selectors_disjoint),
		cmocka_unit_test(test_k8s__version_accepts_what_clusters_and_argocd_write),
		cmocka_unit_test(test_k8s__version_refuses_anything_else),
		cmocka_unit_test(test_k8s__controller_releases),
		TESTUTIL_CASE(test_k8s__label_selector_like_apimachinery),
		TESTUTIL_CASE(test_k8s__node_requirements_gt_lt),
		TESTUTIL_CASE(test_k8s__toleration_like_core_v1),
		cmocka_unit_test(test_k8s__parse_int64_like_strconv),
		cmocka_unit_test(test_k8s__names_like_apimachinery),
		cmocka_unit_test(test_k8s__time_rfc3339),
		cmocka_unit_test(test_k8s__quantity_like_parse_quantity),
		TESTUTIL_CASE(test_k8s__node_selector_terms),
		cmocka_unit_test(test_k8s__kubelet_labels),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
