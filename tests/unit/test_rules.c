/*
 * test_rules.c - every semantic rule fires on a crafted spec, at the
 * line:column of the offending node, with its catalogue severity, and
 * stays quiet on the example fleet; the instance-type and GPU-model
 * tables agree with each other.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <cmocka.h>

#include "base/arena.h"
#include "base/buf.h"
#include "rules/instance_types.h"
#include "rules/rules_int.h"
#include "rules/rules.h"
#include "schema/schema.h"
#include "spec/spec.h"
#include "yamlio/yamlio.h"

#include "testutil.h"

static struct spec_fleet F;

static int
setup(void **state)
{
	memset(&F, 0, sizeof(F));
	return testutil_setup(state);
}

/* A fresh arena, diagnostics and fleet within one test. */
static void
reset(void)
{
	testutil_teardown(NULL);
	setup(NULL);
}

/* Pieces of a small valid site; tests swap one piece for a bad one. */
#define HEAD(name)                                                                                 \
	"apiVersion: gpusite.io/v1alpha1\n"                                                        \
	"kind: GPUSite\n"                                                                          \
	"metadata:\n"                                                                              \
	"  name: " name "\n"                                                                       \
	"spec:\n"
#define CLUSTER(c)                                                                                 \
	"  cluster:\n"                                                                             \
	"    name: " c "\n"                                                                        \
	"    region: us-west-2\n"
#define GROUP(name, model, per, n1, n2)                                                            \
	"  - name: " name "\n"                                                                     \
	"    gpu: {model: " model ", perNode: " per "}\n"                                          \
	"    nodes: [" n1 ", " n2 "]\n"                                                            \
	"    credentials:\n"                                                                       \
	"      iamRolesAnywhere: {trustAnchorArn: ta, profileArn: pa, roleArn: ra}\n"
#define GROUPS "  nodeGroups:\n" GROUP("rack-a", "l40s", "4", "gpu-01", "gpu-02")
#define STACK                                                                                      \
	"  gpuStack:\n"                                                                            \
	"    chart: {version: 0.20.0}\n"
#define FALLBACK                                                                                   \
	"  fallback:\n"                                                                            \
	"    instanceTypes: [g6e.12xlarge]\n"                                                      \
	"    gpuLimit: 8\n"                                                                        \
	"    nodeImage: bottlerocket\n"
/* auto-mode chooses the image itself (GS111 refuses nodeImage there) */
#define FALLBACK_AUTO                                                                              \
	"  fallback:\n"                                                                            \
	"    instanceTypes: [g6e.12xlarge]\n"                                                      \
	"    gpuLimit: 8\n"
#define PLACEMENT                                                                                  \
	"  placement:\n"                                                                           \
	"    namespaces: [inference]\n"
/* the placement of a second site of one cluster (GS171: its own namespace) */
#define PLACEMENT_2                                                                                \
	"  placement:\n"                                                                           \
	"    namespaces: [inference-2]\n"
#define SITE(name, cluster) HEAD(name) CLUSTER(cluster) GROUPS STACK FALLBACK PLACEMENT
#define BASE SITE("lab", "lab-cluster")

static void
load(const char *file, const char *yaml)
{
	struct yamlio_docs docs = { NULL, 0 };
	size_t i;

	assert_int_equal(
		yamlio_load(&docs, &A, &D, file, yaml, strlen(yaml), &yamlio_default_limits), 0);
	for (i = 0; i < docs.count; i++) {
		struct spec_site *s = spec_load(&A, &D, docs.docs[i]);

		assert_non_null(s);
		spec_fleet_add(&A, &F, s);
	}
	assert_int_equal(D.count, 0);
}

static void
check(void)
{
	spec_fleet_sort(&F);
	rules_check(&A, &D, &F);
	diags_sort(&D);
}

static void
dump(void)
{
	size_t i;

	for (i = 0; i < D.count; i++)
		print_message("  %s:%u:%u: %s: %s [%s]\n", D.items[i].at.file, D.items[i].at.line,
			      D.items[i].at.col, diag_level_name(D.items[i].level), D.items[i].msg,
			      D.items[i].rule);
}

/* Line and column (1-based, bytes) of marker + skip in yaml. */
static void
pos_of(const char *yaml, const char *marker, size_t skip, unsigned *line, unsigned *col)
{
	const char *m = strstr(yaml, marker), *p;

	if (!m)
		fail_msg("marker '%s' not in the test spec", marker);
	m += skip;
	*line = 1;
	*col = 1;
	for (p = yaml; p < m; p++) {
		if (*p == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

/* The diagnostics are exactly `n`, all of `rule`. */
static void
expect_only(const char *rule, size_t n)
{
	size_t i;

	if (D.count != n) {
		dump();
		fail_msg("%zu diagnostics, want %zu of %s", D.count, n, rule);
	}
	for (i = 0; i < D.count; i++) {
		if (strcmp(D.items[i].rule, rule)) {
			dump();
			fail_msg("unexpected %s, want only %s", D.items[i].rule, rule);
		}
	}
}

/* Diagnostic i sits in `file` at marker + skip of `yaml`. */
static void
expect_at(size_t i, const char *file, const char *yaml, const char *marker, size_t skip)
{
	unsigned line, col;

	assert_true(i < D.count);
	pos_of(yaml, marker, skip, &line, &col);
	if (strcmp(D.items[i].at.file, file) || D.items[i].at.line != line ||
	    D.items[i].at.col != col) {
		dump();
		fail_msg("diagnostic %zu at %s:%u:%u, want %s:%u:%u", i, D.items[i].at.file,
			 D.items[i].at.line, D.items[i].at.col, file, line, col);
	}
}

static void
expect_msg(size_t i, const char *needle)
{
	assert_true(i < D.count);
	if (!strstr(D.items[i].msg, needle))
		fail_msg("message '%s' lacks '%s'", D.items[i].msg, needle);
}

/* One site, one finding of `rule` at the marker. */
static void
one(const char *rule, const char *yaml, const char *marker, size_t skip)
{
	load("sites/lab.yaml", yaml);
	check();
	expect_only(rule, 1);
	expect_at(0, "sites/lab.yaml", yaml, marker, skip);
	assert_int_equal(D.items[0].level, findings_find(rule)->level);
	assert_string_equal(D.items[0].site, "lab");
}

static void
quiet(const char *yaml)
{
	load("sites/lab.yaml", yaml);
	check();
	if (D.count) {
		dump();
		fail_msg("%zu diagnostics on a spec that should pass", D.count);
	}
}

/* ---- the catalogue ---- */

static void
test_rules__table_is_the_catalogue(void **state)
{
	/* severities fixed by docs/rules.md */
	static const struct {
		const char *id;
		enum diag_level level;
	} want[] = {
		{ "GS001", DIAG_ERROR },   { "GS002", DIAG_ERROR },   { "GS003", DIAG_ERROR },
		{ "GS004", DIAG_ERROR },   { "GS005", DIAG_ERROR },   { "GS006", DIAG_ERROR },
		{ "GS010", DIAG_ERROR },   { "GS011", DIAG_ERROR },   { "GS012", DIAG_ERROR },
		{ "GS013", DIAG_ERROR },   { "GS020", DIAG_ERROR },   { "GS021", DIAG_ERROR },
		{ "GS022", DIAG_ERROR },   { "GS023", DIAG_ERROR },   { "GS030", DIAG_ERROR },
		{ "GS031", DIAG_ERROR },   { "GS032", DIAG_WARNING }, { "GS033", DIAG_WARNING },
		{ "GS040", DIAG_ERROR },   { "GS041", DIAG_ERROR },   { "GS042", DIAG_ERROR },
		{ "GS043", DIAG_WARNING }, { "GS044", DIAG_ERROR },   { "GS045", DIAG_WARNING },
		{ "GS046", DIAG_ERROR },   { "GS047", DIAG_ERROR },   { "GS050", DIAG_ERROR },
		{ "GS051", DIAG_ERROR },   { "GS052", DIAG_ERROR },   { "GS060", DIAG_ERROR },
		{ "GS061", DIAG_WARNING }, { "GS062", DIAG_ERROR },   { "GS063", DIAG_WARNING },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct finding *r = findings_find(want[i].id);

		if (!r)
			fail_msg("%s missing from the table of findings", want[i].id);
		assert_int_equal(r->level, want[i].level);
		assert_true(r->summary && *r->summary);
	}
	for (i = 0; i < rules_count; i++) {
		const struct rule *r = rules_table[i];
		const struct finding *f = findings_find(r->id);

		assert_int_equal(strlen(r->id), 5);
		if (i)
			assert_true(strcmp(rules_table[i - 1]->id, r->id) < 0);
		/* every check has its row, as a rule; the rows found while
		 * reading (GS001-GS003, GS006) have no check here */
		if (!f)
			fail_msg("%s has a check but no row in the table of findings", r->id);
		assert_int_equal(f->source, FINDING_RULE);
		assert_true(r->check_site || r->check_fleet);
	}
	for (i = 0; i < findings_count; i++) {
		size_t j = 0;

		while (j < rules_count && strcmp(rules_table[j]->id, findings_table[i].id))
			j++;
		if ((findings_table[i].source == FINDING_RULE) != (j < rules_count))
			fail_msg(
				"%s: a rule of the table of findings without a check, or the other "
				"way round",
				findings_table[i].id);
	}
	assert_null(findings_find("GS999"));
}

static void
test_rules__quiet_on_the_fleet(void **state)
{
	const char *top = getenv("TEST_TOP");
	char *dir;
	DIR *dp;
	struct dirent *e;
	size_t files = 0;

	(void)state;
	dir = arena_printf(&A, "%s/testdata/fleet/sites", top ? top : ".");
	dp = opendir(dir);
	assert_non_null(dp);
	while ((e = readdir(dp))) {
		struct buf b;
		const char *path;

		if (!strstr(e->d_name, ".yaml"))
			continue;
		buf_init(&b, 1 << 20);
		path = arena_printf(&A, "%s/%s", dir, e->d_name);
		assert_int_equal(buf_read_file(&b, path), 0);
		load(arena_printf(&A, "sites/%s", e->d_name), arena_strndup(&A, b.data, b.len));
		buf_release(&b);
		files++;
	}
	closedir(dp);
	assert_true(files >= 3);
	check();
	if (D.count) {
		dump();
		fail_msg("the example fleet has %zu diagnostics", D.count);
	}
	/* the seed site is there with its facts */
	assert_non_null(spec_fleet_find(&F, "seoul-dc1"));
	assert_int_equal(spec_fleet_find(&F, "seoul-dc1")->fallback.gpu_limit, 16);
}

static void
test_rules__quiet_on_the_base_spec(void **state)
{
	(void)state;
	quiet(BASE);
}

/* ---- GS004, GS005: names ---- */

static void
test_rules__gs004_duplicate_site(void **state)
{
	const char *a = SITE("lab", "c1");
	const char *b = HEAD("lab")
		CLUSTER("c2") "  nodeGroups:\n" GROUP("rack-a", "l40s", "4", "gpu-11", "gpu-12")
			STACK FALLBACK PLACEMENT;

	(void)state;
	load("sites/b.yaml", b);
	load("sites/a.yaml", a);
	check();
	expect_only("GS004", 1);
	expect_at(0, "sites/b.yaml", b, "name: lab", 6);
	expect_msg(0, "(first at sites/a.yaml:4:9)");
}

static void
test_rules__gs005_duplicate_group(void **state)
{
	const char *y = HEAD("lab")
		CLUSTER("c") "  nodeGroups:\n" GROUP("rack-a", "l40s", "2", "gpu-01", "gpu-02")
			GROUP("rack-a", "l40s", "2", "gpu-03", "gpu-04") STACK FALLBACK PLACEMENT;
	unsigned line, col;

	(void)state;
	load("sites/lab.yaml", y);
	check();
	expect_only("GS005", 1);
	pos_of(y, "- name: rack-a\n    gpu: {model: l40s, perNode: 2}\n    nodes: [gpu-03", 0,
	       &line, &col);
	assert_int_equal(D.items[0].at.line, line);
	assert_int_equal(D.items[0].at.col, col + 8);
	expect_msg(0, "(first at sites/lab.yaml:");
	assert_string_equal(D.items[0].path, "spec.nodeGroups[1].name");
}

static void
test_rules__gs005_node_twice_in_repository(void **state)
{
	const char *a = SITE("a", "c1");
	const char *b = HEAD("b")
		CLUSTER("c2") "  nodeGroups:\n" GROUP("rack-a", "l40s", "4", "gpu-09", "gpu-02")
			STACK FALLBACK PLACEMENT;

	(void)state;
	load("sites/a.yaml", a);
	load("sites/b.yaml", b);
	check();
	expect_only("GS005", 1);
	expect_at(0, "sites/b.yaml", b, "gpu-02", 0);
	expect_msg(0, "'gpu-02'");
	expect_msg(0, "(first at sites/a.yaml:");
	assert_string_equal(D.items[0].path, "spec.nodeGroups[0].nodes[1]");
}

/* ---- GS010: secrets ---- */

static void
secret_case(const char *yaml, const char *marker, size_t skip, const char *secret, const char *what)
{
	reset();
	one("GS010", yaml, marker, skip);
	expect_msg(0, what);
	if (strstr(D.items[0].msg, secret) || strstr(D.items[0].path, secret))
		fail_msg("GS010 echoed the secret: %s", D.items[0].msg);
}

static void
test_rules__gs010_secrets(void **state)
{
	(void)state;
	/* the activation code pasted where its variable's name belongs */
	secret_case(HEAD("lab") CLUSTER("c") "  nodeGroups:\n"
					     "  - name: rack-b\n"
					     "    gpu: {model: l40s, perNode: 8}\n"
					     "    count: 1\n"
					     "    credentials:\n"
					     "      ssm: {activationId: x, activationCodeEnv: "
					     "Fjz3sZfSvv78EXAMPLEa}\n" STACK FALLBACK PLACEMENT,
		    "Fjz3sZfSvv78EXAMPLEa", 0, "Fjz3sZfSvv78EXAMPLEa", "an SSM activation code");
	/* env-style name/value pair in Helm values */
	secret_case(HEAD("lab") CLUSTER("c") GROUPS
		    "  gpuStack:\n"
		    "    chart: {version: 0.20.0}\n"
		    "    values:\n"
		    "      env:\n"
		    "      - name: AWS_SECRET_ACCESS_KEY\n"
		    "        value: wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n" FALLBACK PLACEMENT,
		    "wJalr", 0, "wJalrXUtnFEMI", "an AWS secret access key");
	/* the credentials-file form inside one string */
	secret_case(HEAD("lab") CLUSTER("c") GROUPS
		    "  gpuStack:\n"
		    "    chart: {version: 0.20.0}\n"
		    "    values: {note: \"aws_secret_access_key = abc\"}\n" FALLBACK PLACEMENT,
		    "\"aws_secret", 0, "abc", "an AWS secret access key");
	/* a private key block */
	secret_case(HEAD("lab") CLUSTER("c") GROUPS
		    "  gpuStack:\n"
		    "    chart: {version: 0.20.0}\n"
		    "    values:\n"
		    "      tls:\n"
		    "        key: |\n"
		    "          -----BEGIN EC PRIVATE KEY-----\n"
		    "          MHcCAQEEIBkg4LVWM9nuwNSk3yByxZpYRTBnVJk5oWy3uhM5z5sGoAoGCCqGSM49\n"
		    "          -----END EC PRIVATE KEY-----\n" FALLBACK PLACEMENT,
		    "|\n", 0, "MHcCAQEEIBkg", "a private key block");
	/* a field named for the code, whatever it holds */
	secret_case(HEAD("lab") CLUSTER("c") GROUPS
		    "  gpuStack:\n"
		    "    chart: {version: 0.20.0}\n"
		    "    values: {activationCode: hidden}\n" FALLBACK PLACEMENT,
		    "activationCode", 0, "hidden", "a field for an SSM activation code");
	/* an STS session token */
	secret_case(HEAD("lab") CLUSTER("c") GROUPS
		    "  gpuStack:\n"
		    "    chart: {version: 0.20.0}\n"
		    "    values: {t: "
		    "IQoJb3JpZ2luX2VjEHYaCXVzLXdlc3QtMiJHMEUCIQDxEXAMPLEtokenAAAAAAAAAAAAAAAAAAAAAA"
		    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA}\n" FALLBACK PLACEMENT,
		    "IQoJ", 0, "IQoJb3JpZ2lu", "an AWS session token");
}

static void
test_rules__gs010_quiet_on_names_of_secrets(void **state)
{
	(void)state;
	/* variable names and ARNs are not secrets */
	quiet(HEAD("lab")
		      CLUSTER("c") "  nodeGroups:\n"
				   "  - name: rack-b\n"
				   "    gpu: {model: l40s, perNode: 8}\n"
				   "    count: 1\n"
				   "    credentials:\n"
				   "      ssm: {activationId: 4b2c1a3e-5d6f-4a7b-8c9d-0e1f2a3b4c5d,"
				   " activationCodeEnv: SSM_ACTIVATION_CODE_RACK_B}\n"
				   "  gpuStack:\n"
				   "    chart: {version: 0.20.0}\n"
				   "    values: {env: [{name: AWS_SECRET_ACCESS_KEY_FILE, value: "
				   "/run/secrets/aws}]}\n" FALLBACK PLACEMENT);
}

static void
test_rules__gs010_scan_of_a_rejected_document(void **state)
{
	const char *y = "spec:\n  ssm:\n    activationCode: Fjz3/sZfSvv78EXAMPLE\n";
	struct yamlio_docs docs = { NULL, 0 };

	(void)state;
	assert_int_equal(
		yamlio_load(&docs, &A, &D, "sites/x.yaml", y, strlen(y), &yamlio_default_limits),
		0);
	assert_int_equal(rules_scan_secrets(&A, &D, docs.docs[0]), -1);
	/* one finding for the field, at its key, the code not echoed */
	assert_int_equal(D.count, 1);
	assert_string_equal(D.items[0].rule, "GS010");
	assert_int_equal(D.items[0].at.line, 3);
	assert_int_equal(D.items[0].at.col, 5);
	assert_null(strstr(D.items[0].msg, "Fjz3"));
	assert_string_equal(D.items[0].path, "spec.ssm.activationCode");
	assert_true(rules_looks_secret("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"));
	assert_false(rules_looks_secret("topology.example.com/rack"));
}

static void
test_rules__gs010_path_of_a_deep_finding(void **state)
{
	const char *y = "spec:\n"
			"  list:\n"
			"  - {\"a b\": [x, {secret: wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY}]}\n";
	struct yamlio_docs docs = { NULL, 0 };

	(void)state;
	assert_int_equal(
		yamlio_load(&docs, &A, &D, "sites/x.yaml", y, strlen(y), &yamlio_default_limits),
		0);
	assert_int_equal(rules_scan_secrets(&A, &D, docs.docs[0]), -1);
	/* the path is written only for the finding, with the same steps */
	assert_int_equal(D.count, 1);
	assert_string_equal(D.items[0].path, "spec.list[0][\"a b\"][1].secret");
	assert_string_equal(D.items[0].msg,
			    "spec.list[0][\"a b\"][1].secret holds what looks like an AWS "
			    "secret access key: remove it and rotate it; hybrid nodes get "
			    "their credentials from SSM or IAM Roles Anywhere");
}

static void
test_rules__gs010_prefilter(void **state)
{
	static const char *texts[] = {
		"",
		"rack-a",
		"us-west-2",
		"topology.example.com/rack",
		"aaaaaaaaaaaaaaaaaaa",                       /* 19 */
		"aaaaaaaaaaaaaaaaaaaaa",                     /* 21 */
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",   /* 39 */
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", /* 41 */
		"Fjz3/sZfSvv78EXAMPLE",
		"code: Fjz3/sZfSvv78EXAMPLE.",
		"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
		"-----BEGIN RSA PRIVATE KEY-----",
		"x AWS_Secret_Access_Key=abc",
		"aws_secret",
		"sessionToken",
		"activation_code",
		"secretKey",
		"role/HybridNodesRole",
		"arn:aws:iam::111122223333:role/HybridNodesRole",
		"AKIAIOSFODNN7EXAMPLEAKIAIOSFODNN7EXAMPL",
	};
	char long_run[128];
	size_t k;

	(void)state;
	/* the shapes: mixed runs of 20 and 40 base64 characters, any of 100+ */
	assert_false(rules_secret_prefilter("aaaaaaaaaaaaaaaaaa1", false));
	assert_true(rules_secret_prefilter("aaaaaaaaaaaaaaaaaaa1", false));
	assert_false(rules_secret_prefilter("aaaaaaaaaaaaaaaaaaaa", false));
	assert_false(rules_secret_prefilter("aaaaaaaaaaaaaaaaaaaa1", false));
	assert_true(rules_secret_prefilter("x=Fjz3/sZfSvv78EXAMPLE;", false));
	assert_false(rules_secret_prefilter("x=FJZ3/SZFSVV78EXAMPLE;", false));
	assert_true(rules_secret_prefilter("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", false));
	assert_false(rules_secret_prefilter("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEYx", false));
	memset(long_run, 'Q', 99);
	long_run[99] = '\0';
	assert_false(rules_secret_prefilter(long_run, false));
	long_run[99] = 'Q';
	long_run[100] = '\0';
	assert_true(rules_secret_prefilter(long_run, false));
	/* the markers, anywhere in the text */
	assert_true(rules_secret_prefilter("x -----BEGIN EC PRIVATE KEY-----", false));
	assert_true(rules_secret_prefilter("x AWS_Secret_Access_Key=abc", false));
	assert_false(rules_secret_prefilter("us-west-2", false));
	/* a key may name a field when it is as long as a field's name
	 * without separators (12, 14, 15 or 18 characters) */
	assert_true(rules_secret_prefilter("sessionToken", true));
	assert_false(rules_secret_prefilter("sessionToken", false));
	assert_true(rules_secret_prefilter("ACTIVATION-CODE", true));
	assert_true(rules_secret_prefilter("aws_secret_access.key", true));
	assert_false(rules_secret_prefilter("secretKey", true));
	assert_false(rules_secret_prefilter("kubernetesVersion", true));
	assert_false(rules_secret_prefilter("session_token_", false));
	/* a necessary condition: what it turns away nothing would report */
	for (k = 0; k < sizeof(texts) / sizeof(texts[0]); k++) {
		if (rules_secret_prefilter(texts[k], false))
			continue;
		assert_false(rules_looks_secret(texts[k]));
		assert_false(rules_secret_in_field(texts[k], "activationCode"));
		assert_false(rules_secret_in_field(texts[k], "aws_secret_access_key"));
		assert_false(rules_secret_in_field(texts[k], "sessionToken"));
	}
	/* and what it lets through is still judged by the full check */
	assert_true(rules_secret_in_field("Fjz3/sZfSvv78EXAMPLE", "activationCode"));
	assert_false(rules_secret_in_field("Fjz3/sZfSvv78EXAMPLE", "note"));
	assert_true(rules_secret_in_field("x AWS_Secret_Access_Key=abc", "note"));
}

/* ---- GS011-GS013: credentials and node names ---- */

static void
test_rules__gs011_both_or_neither(void **state)
{
	const char *both = HEAD("lab") CLUSTER(
		"c") "  nodeGroups:\n"
		     "  - name: rack-a\n"
		     "    gpu: {model: l40s, perNode: 4}\n"
		     "    nodes: [gpu-01, gpu-02]\n"
		     "    credentials:\n"
		     "      ssm: {activationId: x, activationCodeEnv: SSM_ACTIVATION_CODE}\n"
		     "      iamRolesAnywhere: {trustAnchorArn: ta, profileArn: pa, roleArn: ra}\n"
		     "    count: 2\n" STACK FALLBACK PLACEMENT;
	const char *neither =
		HEAD("lab") CLUSTER("c") "  nodeGroups:\n"
					 "  - name: rack-a\n"
					 "    gpu: {model: l40s, perNode: 4}\n"
					 "    nodes: [gpu-01, gpu-02]\n"
					 "    credentials: {}\n" STACK FALLBACK PLACEMENT;

	(void)state;
	one("GS011", both, "iamRolesAnywhere:", 0);
	expect_msg(0, "both");
	reset();
	one("GS011", neither, "credentials: {}", 13);
	expect_msg(0, "no credentials");
}

static void
test_rules__gs012_forms(void **state)
{
	const char *ra_no_nodes =
		HEAD("lab") CLUSTER("c") "  nodeGroups:\n"
					 "  - name: rack-a\n"
					 "    gpu: {model: l40s, perNode: 4}\n"
					 "    count: 2\n"
					 "    credentials:\n"
					 "      iamRolesAnywhere: {trustAnchorArn: ta, profileArn: "
					 "pa, roleArn: ra}\n" STACK FALLBACK PLACEMENT;
	const char *ssm_no_count = HEAD("lab") CLUSTER(
		"c") "  nodeGroups:\n"
		     "  - name: rack-b\n"
		     "    gpu: {model: l40s, perNode: 4}\n"
		     "    credentials:\n"
		     "      ssm: {activationId: x, activationCodeEnv: SSM_ACTIVATION_CODE}\n" STACK
			     FALLBACK PLACEMENT;
	const char *disagree =
		HEAD("lab") CLUSTER("c") "  nodeGroups:\n"
					 "  - name: rack-a\n"
					 "    gpu: {model: l40s, perNode: 4}\n"
					 "    nodes: [gpu-01, gpu-02]\n"
					 "    count: 3\n"
					 "    credentials:\n"
					 "      iamRolesAnywhere: {trustAnchorArn: ta, profileArn: "
					 "pa, roleArn: ra}\n" STACK FALLBACK PLACEMENT;

	(void)state;
	one("GS012", ra_no_nodes, "iamRolesAnywhere:", 0);
	expect_msg(0, "lists no nodes");
	reset();
	one("GS012", ssm_no_count, "ssm:", 0);
	expect_msg(0, "has no count");
	reset();
	one("GS012", disagree, "count: 3", 7);
	expect_msg(0, "count 3 but lists 2 nodes");
}

static void
test_rules__gs013_node_names(void **state)
{
	const char *y = HEAD("lab")
		CLUSTER("c") "  nodeGroups:\n" GROUP("rack-a", "l40s", "4", "gpu-01", "GPU_02")
			STACK FALLBACK PLACEMENT;
	const char *longname = HEAD("lab") CLUSTER("c") "  nodeGroups:\n" GROUP(
		"rack-a", "l40s", "4", "gpu-01",
		"n123456789.123456789.123456789.123456789.123456789.123456789.12345")
		STACK FALLBACK PLACEMENT;

	(void)state;
	one("GS013", y, "GPU_02", 0);
	assert_string_equal(D.items[0].path, "spec.nodeGroups[0].nodes[1]");
	reset();
	one("GS013", longname, "n123456789.", 0);
	expect_msg(0, "longer than 64");
}

/* ---- GS020-GS023: labels, taints, kubelet flags ---- */

#define GROUP_WITH(extra)                                                                          \
	"  nodeGroups:\n"                                                                          \
	"  - name: rack-a\n"                                                                       \
	"    gpu: {model: l40s, perNode: 4}\n"                                                     \
	"    nodes: [gpu-01, gpu-02]\n"                                                            \
	"    credentials:\n"                                                                       \
	"      iamRolesAnywhere: {trustAnchorArn: ta, profileArn: pa, roleArn: ra}\n" extra

#define WITH_GROUP(extra) HEAD("lab") CLUSTER("c") GROUP_WITH(extra) STACK FALLBACK PLACEMENT

static void
test_rules__gs020_node_restriction(void **state)
{
	const char *y = WITH_GROUP("    labels:\n"
				   "      node.kubernetes.io/gpu-pool: a\n"
				   "      kubelet.kubernetes.io/x: a\n"
				   "      sub.node.kubernetes.io/x: a\n"
				   "      topology.kubernetes.io/zone: onprem-1\n"
				   "      kubernetes.io/hostname: gpu-01\n"
				   "      example.com/rack: a\n"
				   "      node-role.kubernetes.io/gpu: \"\"\n"
				   "      k8s.io/owner: me\n"
				   "      node-restriction.kubernetes.io/pool: a\n");

	(void)state;
	load("sites/lab.yaml", y);
	check();
	expect_only("GS020", 3);
	expect_at(0, "sites/lab.yaml", y, "node-role.kubernetes.io/gpu", 0);
	expect_at(1, "sites/lab.yaml", y, "k8s.io/owner", 0);
	expect_at(2, "sites/lab.yaml", y, "node-restriction.kubernetes.io/pool", 0);
	expect_msg(0, "NodeRestriction");
}

static void
test_rules__gs021_nodeadm_owns(void **state)
{
	const char *y = WITH_GROUP("    labels: {eks.amazonaws.com/compute-type: hybrid}\n"
				   "    taints: [{key: eks.amazonaws.com/compute-type, value: x, "
				   "effect: NoSchedule}]\n"
				   "    kubelet:\n"
				   "      flags: [--hostname-override=gpu-01, --v=2]\n");

	(void)state;
	load("sites/lab.yaml", y);
	check();
	expect_only("GS021", 3);
	expect_at(0, "sites/lab.yaml", y, "eks.amazonaws.com/compute-type: hybrid", 0);
	expect_at(1, "sites/lab.yaml", y, "eks.amazonaws.com/compute-type, value", 0);
	expect_at(2, "sites/lab.yaml", y, "--hostname-override", 0);
	expect_msg(2, "rejected by nodeadm");
}

static void
test_rules__gs022_hand_written_flags(void **state)
{
	const char *y = WITH_GROUP("    kubelet:\n"
				   "      flags:\n"
				   "      - --node-labels=a=b\n"
				   "      - --max-pods=110\n"
				   "      - -register-with-taints=x=y:NoSchedule\n");

	(void)state;
	load("sites/lab.yaml", y);
	check();
	expect_only("GS022", 2);
	expect_at(0, "sites/lab.yaml", y, "--node-labels", 0);
	expect_msg(0, "labels");
	expect_at(1, "sites/lab.yaml", y, "-register-with-taints", 0);
	expect_msg(1, "taints");
}

static void
test_rules__gs023_syntax(void **state)
{
	const char *y = HEAD("lab") CLUSTER("c")
		GROUP_WITH("    labels:\n"
			   "      bad key: a\n"
			   "      ok: \"not ok!\"\n"
			   "    taints: [{key: Example.com/x, value: v, effect: NoSchedule}]\n")
			STACK FALLBACK "  placement:\n"
				       "    namespaces: [inference]\n"
				       "  alerts:\n"
				       "    labels: {-x: a}\n";

	(void)state;
	load("sites/lab.yaml", y);
	check();
	expect_only("GS023", 4);
	expect_at(0, "sites/lab.yaml", y, "bad key", 0);
	expect_at(1, "sites/lab.yaml", y, "\"not ok!\"", 0);
	expect_at(2, "sites/lab.yaml", y, "Example.com/x", 0);
	expect_at(3, "sites/lab.yaml", y, "-x: a", 0);
	expect_msg(2, "prefix");
}

static void
test_rules__k8s_syntax(void **state)
{
	(void)state;
	assert_null(k8s_qualified_name_problem("nvidia.com/gpu"));
	assert_null(k8s_qualified_name_problem("a"));
	assert_null(k8s_qualified_name_problem("A_b.c-D"));
	assert_non_null(k8s_qualified_name_problem(""));
	assert_non_null(k8s_qualified_name_problem("/a"));
	assert_non_null(k8s_qualified_name_problem("a/"));
	assert_non_null(k8s_qualified_name_problem("a/b/c"));
	assert_non_null(k8s_qualified_name_problem("-a"));
	assert_non_null(k8s_qualified_name_problem("UPPER.com/a"));
	assert_non_null(k8s_qualified_name_problem(
		"a234567890123456789012345678901234567890123456789012345678901234"));
	assert_null(k8s_label_value_problem(""));
	assert_null(k8s_label_value_problem("Exists"));
	assert_non_null(k8s_label_value_problem("a b"));
	assert_non_null(k8s_label_value_problem("a."));
	assert_true(k8s_is_dns1123_subdomain("gpu-a-01.example.com"));
	assert_false(k8s_is_dns1123_subdomain("gpu..01"));
	assert_false(k8s_is_dns1123_subdomain("Gpu"));
}

/* ---- GS030-GS033: the GPU stack ---- */

static void
test_rules__gs030_exact_version(void **state)
{
	static const char *const bad[] = {
		"\"^0.20\"",
		"latest",
		"\"\"",
		"\"0.20\"",
		"~0.20.0",
		"\">=0.19.0\"",
		"0.20.x",
		"\"*\"",
		"\"0.19.0 - 0.20.0\"",
		"\"0.20.0 || 0.19.0\"",
	};
	static const char *const good[] = { "0.20.0", "v26.7.0", "1.0.0-rc.1+build.5" };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *y;

		reset();
		y = arena_printf(&A,
				 HEAD("lab") CLUSTER("c") GROUPS
				 "  gpuStack:\n    chart: {version: %s}\n" FALLBACK PLACEMENT,
				 bad[i]);
		one("GS030", y, "version: ", 9);
	}
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		reset();
		/* 0.x is a device-plugin version, the others gpu-operator's (GS109) */
		quiet(arena_printf(
			&A,
			HEAD("lab") CLUSTER("c") GROUPS
			"  gpuStack:\n    type: %s\n    chart: {version: %s}\n" FALLBACK PLACEMENT,
			i ? "gpu-operator" : "device-plugin", good[i]));
	}
}

/* The value a hint names in diagnostic i: the text after `lead` up to a
 * space, ',', ')' or '?'. */
static const char *
hint_after(size_t i, const char *lead)
{
	const char *p;

	assert_true(i < D.count);
	p = strstr(D.items[i].msg, lead);
	if (!p)
		fail_msg("message '%s' has no hint after '%s'", D.items[i].msg, lead);
	p += strlen(lead);
	return arena_strndup(&A, p, strcspn(p, " ,)?"));
}

/* `tmpl` with its one "@@" replaced by `value` (test specs in pieces). */
static const char *
fill(const char *tmpl, const char *value)
{
	const char *at = strstr(tmpl, "@@");

	assert_non_null(at);
	return arena_printf(&A, "%.*s%s%s", (int)(at - tmpl), tmpl, value, at + 2);
}

/* GS030's example version, fed back, passes for either stack type (a
 * device-plugin version for gpu-operator would be GS109). */
static void
test_rules__gs030_hint_passes(void **state)
{
	static const char *const specs[] = {
		HEAD("lab") CLUSTER("c") GROUPS
		"  gpuStack:\n    type: device-plugin\n    chart: {version: @@}\n" FALLBACK
			PLACEMENT,
		HEAD("lab") CLUSTER("c") GROUPS
		"  gpuStack:\n    type: gpu-operator\n    chart: {version: @@}\n" FALLBACK
			PLACEMENT,
	};

	(void)state;
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		const char *hint;
		char keep[64];

		reset();
		load("sites/lab.yaml", fill(specs[i], "latest"));
		check();
		expect_only("GS030", 1);
		hint = hint_after(0, "for example ");
		snprintf(keep, sizeof(keep), "%s", hint); /* reset() frees the arena */
		reset();
		quiet(fill(specs[i], keep));
	}
}

static void
test_rules__gs031_owned_values(void **state)
{
	const char *dp = HEAD("lab") CLUSTER("c") GROUPS
		"  gpuStack:\n"
		"    chart: {version: 0.20.0}\n"
		"    values:\n"
		"      nodeSelector: {kubernetes.io/os: linux}\n"
		"      nfd:\n"
		"        worker:\n"
		"          tolerations: []\n"
		"      driver: {enabled: true}\n" /* refused for either stack */
		FALLBACK PLACEMENT;
	const char *dp_off = HEAD("lab") CLUSTER("c") GROUPS
		"  gpuStack:\n"
		"    chart: {version: 0.20.0}\n"
		"    values:\n"
		"      driver: {enabled: false}\n" /* harmless: installs nothing */
		FALLBACK PLACEMENT;
	const char *op = HEAD("lab") CLUSTER("c") GROUPS
		"  gpuStack:\n"
		"    type: gpu-operator\n"
		"    chart: {version: v26.7.0}\n"
		"    values:\n"
		"      driver:\n"
		"        enabled: true\n"
		"      operator: {version: v26.7.0}\n" FALLBACK PLACEMENT;

	(void)state;
	load("sites/lab.yaml", dp);
	check();
	expect_only("GS031", 3);
	expect_at(0, "sites/lab.yaml", dp, "nodeSelector", 0);
	expect_at(1, "sites/lab.yaml", dp, "tolerations", 0);
	expect_msg(1, "nfd.worker.tolerations");
	expect_at(2, "sites/lab.yaml", dp, "enabled: true", 0);
	expect_msg(2, "driver.enabled");
	assert_string_equal(D.items[2].path, "spec.gpuStack.values.driver.enabled");
	reset();
	quiet(dp_off);
	reset();
	one("GS031", op, "enabled: true", 0);
	expect_msg(0, "driver.enabled");
	assert_string_equal(D.items[0].path, "spec.gpuStack.values.driver.enabled");
}

static void
test_rules__gs032_gs033_device_plugin(void **state)
{
	(void)state;
	one("GS032",
	    HEAD("lab") CLUSTER("c") GROUPS
	    "  gpuStack:\n    chart: {version: 0.20.0}\n    gfd: false\n" FALLBACK PLACEMENT,
	    "gfd: false", 5);
	reset();
	one("GS033",
	    HEAD("lab") CLUSTER("c") GROUPS
	    "  gpuStack:\n    chart: {version: 0.20.0}\n    dcgmExporter: true\n" FALLBACK
		    PLACEMENT,
	    "dcgmExporter: true", 14);
	/* written false, or with the operator: nothing to say */
	reset();
	quiet(HEAD("lab") CLUSTER("c") GROUPS
	      "  gpuStack:\n    chart: {version: 0.20.0}\n    dcgmExporter: false\n" FALLBACK
		      PLACEMENT);
	reset();
	quiet(HEAD("lab") CLUSTER("c") GROUPS
	      "  gpuStack:\n    type: gpu-operator\n    chart: {version: v26.7.0}\n"
	      "    dcgmExporter: true\n    gfd: false\n" FALLBACK PLACEMENT);
}

/* ---- GS040-GS045: the fallback pool ---- */

#define WITH_FALLBACK(fb) HEAD("lab") CLUSTER("c") GROUPS STACK fb PLACEMENT

/* GS115's example role, fed back, passes the schema (an IAM role name of
 * at most 64 characters, even for a 100-character cluster name) and
 * every rule. */
static void
test_rules__gs115_hint_passes(void **state)
{
	static const char tmpl[] = HEAD(
		"lab") "  cluster:\n    name: @@\n    region: us-west-2\n"
		       "  nodeGroups:\n  - name: rack-a\n    gpu: {model: l40s, perNode: 4}\n"
		       "    nodes: [gpu-01, gpu-02]\n    credentials:\n      iamRolesAnywhere:\n"
		       "        trustAnchorArn: arn:aws:rolesanywhere:us-west-2:111122223333:"
		       "trust-anchor/0a1b2c3d-0000-4000-8000-000000000001\n"
		       "        profileArn: arn:aws:rolesanywhere:us-west-2:111122223333:"
		       "profile/0a1b2c3d-0000-4000-8000-000000000002\n"
		       "        roleArn: arn:aws:iam::111122223333:role/HybridNodesRole\n" STACK
		       "  fallback:\n    instanceTypes: [g6e.12xlarge]\n    gpuLimit: 8\n"
		       "    nodeImage: bottlerocket\n    nodeClass:\n"
		       "      subnetSelectorTerms: [{tags: {karpenter.sh/discovery: c}}]\n"
		       "      securityGroupSelectorTerms: [{tags: {karpenter.sh/discovery: c}}]\n"
		       "      amiVersion: v1.26.0\n      ROLE\n" PLACEMENT;
	static const char *const clusters[] = {
		"lab-cluster", "c123456789012345678901234567890123456789012345678"
			       "901234567890123456789012345678901234567890123456789"
	};

	(void)state;
	for (size_t i = 0; i < sizeof(clusters) / sizeof(clusters[0]); i++) {
		const char *spec, *hint, *r, *fed;
		char keep[128];
		const struct schema *schema;
		struct yamlio_docs docs = { NULL, 0 };

		reset();
		spec = fill(tmpl, clusters[i]);
		r = strstr(spec, "ROLE");
		load("sites/lab.yaml",
		     arena_printf(&A, "%.*s# no role%s", (int)(r - spec), spec, r + 4));
		check();
		expect_only("GS115", 1);
		hint = hint_after(0, "such as ");
		assert_true(strlen(hint) <= 64);
		snprintf(keep, sizeof(keep), "%s", hint); /* reset() frees the arena */
		reset();
		spec = fill(tmpl, clusters[i]);
		r = strstr(spec, "ROLE");
		fed = arena_printf(&A, "%.*srole: %s%s", (int)(r - spec), spec, keep, r + 4);
		schema = schema_gpusite(&A, &D);
		assert_non_null(schema);
		assert_int_equal(yamlio_load(&docs, &A, &D, "sites/lab.yaml", fed, strlen(fed),
					     &yamlio_default_limits),
				 0);
		assert_int_equal(schema_validate(schema, &A, &D, "GS003", docs.docs[0]), 0);
		quiet(fed);
	}
}

/*
 * GS040's hint for a type it does not know, fed back into the site,
 * passes every rule: the near type (m5.24xlarge -> g5.24xlarge, 24 GB)
 * only when it meets the site's GPU memory, gpuLimit and provisioner,
 * else an example type that does.
 */
static void
test_rules__gs040_hint_passes(void **state)
{
	static const struct {
		const char *cluster; /* CLUSTER(...) and more */
		const char *groups;
		const char *fallback; /* the fallback block around "%s" */
		const char *not_hint; /* a hint it must not give, or NULL */
	} cases[] = {
		{ CLUSTER("c"), GROUPS,
		  "  fallback:\n    nodeImage: bottlerocket\n    instanceTypes: [@@]\n"
		  "    gpuLimit: 8\n",
		  "g5.24xlarge" },
		{ CLUSTER("c"), GROUPS,
		  "  fallback:\n    nodeImage: bottlerocket\n    instanceTypes: [@@]\n"
		  "    gpuLimit: 8\n    minGpuMemoryMiB: 60000\n",
		  "g6e.12xlarge" },
		{ CLUSTER("c"), GROUPS,
		  "  fallback:\n    nodeImage: bottlerocket\n    instanceTypes: [@@]\n"
		  "    gpuLimit: 8\n    minGpuMemoryMiB: 20000\n",
		  NULL },
		{ CLUSTER("c"), "  nodeGroups:\n" GROUP("rack-a", "l40s", "1", "gpu-01", "gpu-02"),
		  "  fallback:\n    nodeImage: bottlerocket\n    instanceTypes: [@@]\n"
		  "    gpuLimit: 1\n",
		  "g6e.12xlarge" },
		{ CLUSTER("c") "    provisioner: auto-mode\n", GROUPS,
		  "  fallback:\n    instanceTypes: [@@]\n    gpuLimit: 8\n", NULL },
	};
	static const char *const unknown[] = { "m5.24xlarge", "g6e.13xlarge", "p5.48xlarg",
					       "m5.large" };

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (size_t u = 0; u < sizeof(unknown) / sizeof(unknown[0]); u++) {
			const char *spec =
				arena_printf(&A, "%s%s%s%s%s%s", HEAD("lab"), cases[i].cluster,
					     cases[i].groups, STACK, cases[i].fallback, PLACEMENT);
			const char *hint;

			load("sites/lab.yaml", fill(spec, unknown[u]));
			check();
			expect_only("GS040", 1);
			hint = strstr(D.items[0].msg, "did you mean ")
				       ? hint_after(0, "did you mean ")
				       : hint_after(0, "such as ");
			if (cases[i].not_hint && !strcmp(hint, cases[i].not_hint))
				fail_msg("case %zu, %s: the hint %s does not fit the site", i,
					 unknown[u], hint);
			D.count = 0;
			memset(&F, 0, sizeof(F));
			quiet(fill(spec, hint));
			reset();
		}
	}
}

static void
test_rules__gs040_instance_types(void **state)
{
	const char *y = WITH_FALLBACK("  fallback:\n"
				      "    nodeImage: bottlerocket\n"
				      "    instanceTypes: [g6e.12xlarge, g6e.13xlarge, "
				      "g4ad.16xlarge, g6f.4xlarge, m5.large]\n"
				      "    gpuLimit: 8\n");

	(void)state;
	load("sites/lab.yaml", y);
	check();
	expect_only("GS040", 4);
	expect_at(0, "sites/lab.yaml", y, "g6e.13xlarge", 0);
	expect_msg(0, "did you mean g6e.12xlarge?");
	expect_at(1, "sites/lab.yaml", y, "g4ad.16xlarge", 0);
	expect_msg(1, "not NVIDIA");
	expect_at(2, "sites/lab.yaml", y, "g6f.4xlarge", 0);
	expect_msg(2, "fractional");
	expect_at(3, "sites/lab.yaml", y, "m5.large", 0);
	assert_string_equal(D.items[3].path, "spec.fallback.instanceTypes[4]");
}

static void
test_rules__gs041_limit_below_smallest(void **state)
{
	const char *y = HEAD("lab")
		CLUSTER("c") "  nodeGroups:\n" GROUP("rack-a", "l40s", "1", "gpu-01", "gpu-02")
			STACK "  fallback:\n"
			      "    nodeImage: bottlerocket\n"
			      "    instanceTypes: [g6e.48xlarge, g6e.12xlarge]\n"
			      "    gpuLimit: 2\n" PLACEMENT;

	(void)state;
	one("GS041", y, "gpuLimit: 2", 10);
	assert_string_equal(D.items[0].msg,
			    "fallback.gpuLimit 2 is below the 4 GPUs of g6e.12xlarge, "
			    "the smallest listed instance type: the pool can never "
			    "launch a node");
}

static void
test_rules__gs042_min_memory(void **state)
{
	const char *y = WITH_FALLBACK("  fallback:\n"
				      "    nodeImage: bottlerocket\n"
				      "    instanceTypes: [g6e.12xlarge, g6.12xlarge]\n"
				      "    gpuLimit: 8\n"
				      "    minGpuMemoryMiB: 40000\n");

	(void)state;
	one("GS042", y, "g6.12xlarge]", 0);
	expect_msg(0, "22888 MiB per GPU (l4), below fallback.minGpuMemoryMiB 40000");
}

static void
test_rules__gs043_smaller_than_onprem(void **state)
{
	const char *y = HEAD("lab")
		CLUSTER("c") "  nodeGroups:\n" GROUP("rack-a", "h200", "4", "gpu-01", "gpu-02")
			STACK FALLBACK PLACEMENT;
	const char *unknown = HEAD("lab") CLUSTER("c") "  nodeGroups:\n" GROUP(
		"rack-a", "mystery-9000", "4", "gpu-01", "gpu-02") STACK FALLBACK PLACEMENT;

	(void)state;
	one("GS043", y, "g6e.12xlarge", 0);
	expect_msg(0, "45776 MiB per GPU (l40s), less than the 144384 MiB of the on-prem h200");
	reset();
	quiet(unknown);
}

static void
test_rules__gs044_auto_mode(void **state)
{
	const char *y = HEAD("lab") "  cluster:\n    name: c\n    region: us-west-2\n    "
				    "provisioner: auto-mode\n" GROUPS STACK "  fallback:\n"
				    "    instanceTypes: [g6e.12xlarge, g7.12xlarge]\n"
				    "    gpuLimit: 8\n"
				    "    minGpuMemoryMiB: 30000\n"
				    "    expireAfter: 720h\n" PLACEMENT;

	(void)state;
	load("sites/lab.yaml", y);
	check();
	expect_only("GS044", 2);
	expect_at(0, "sites/lab.yaml", y, "g7.12xlarge", 0);
	expect_at(1, "sites/lab.yaml", y, "720h", 0);
	expect_msg(1, "504h");
	/* the same pool under self-managed Karpenter is fine */
	reset();
	quiet(WITH_FALLBACK("  fallback:\n"
			    "    nodeImage: bottlerocket\n"
			    "    instanceTypes: [g6e.12xlarge, g7.12xlarge]\n"
			    "    gpuLimit: 8\n"
			    "    minGpuMemoryMiB: 30000\n"
			    "    expireAfter: 720h\n"));
}

static void
test_rules__gs045_half_of_onprem(void **state)
{
	const char *y = HEAD("lab")
		CLUSTER("c") "  nodeGroups:\n" GROUP("rack-a", "l40s", "16", "gpu-01", "gpu-02")
			STACK FALLBACK PLACEMENT;

	(void)state;
	one("GS045", y, "gpuLimit: 8", 10);
	expect_msg(0, "fallback.gpuLimit 8 covers less than half of the 32 on-prem GPUs");
	/* exactly half is enough */
	reset();
	quiet(HEAD("lab") CLUSTER("c") "  nodeGroups:\n" GROUP("rack-a", "l40s", "8", "gpu-01",
							       "gpu-02") STACK FALLBACK PLACEMENT);
}

/* ---- GS046, GS047, GS100: sites sharing a cluster ---- */

static void
test_rules__gs046_pool_name_in_cluster(void **state)
{
	const char *a = HEAD("a") CLUSTER("shared") GROUPS STACK
		"  fallback:\n    nodePoolName: gpu-fallback\n    nodeImage: bottlerocket\n"
		"    instanceTypes: [g6e.12xlarge]\n    gpuLimit: 8\n" PLACEMENT;
	const char *b = HEAD("b")
		CLUSTER("shared") "  nodeGroups:\n" GROUP("rack-a", "l40s", "4", "gpu-11", "gpu-12")
			STACK
		"  fallback:\n    nodePoolName: gpu-fallback\n    nodeImage: bottlerocket\n"
		"    instanceTypes: [g6e.12xlarge]\n    gpuLimit: 8\n" PLACEMENT_2;

	(void)state;
	load("sites/b.yaml", b);
	load("sites/a.yaml", a);
	check();
	expect_only("GS046", 1);
	expect_at(0, "sites/b.yaml", b, "gpu-fallback", 0);
	expect_msg(0, "site 'a'");
	expect_msg(0, "(first at sites/a.yaml:");
}

/* GS171: one cluster, one namespace, selectors that can both match. */
static void
test_rules__gs171_scope_collision(void **state)
{
	const char *a = HEAD("a") CLUSTER("shared") GROUPS STACK
		"  fallback:\n    nodePoolName: a-gpu\n    nodeImage: bottlerocket\n"
		"    instanceTypes: [g6e.12xlarge]\n    gpuLimit: 8\n"
		"  placement:\n    namespaces: [inference]\n";
	const char *b = HEAD("b")
		CLUSTER("shared") "  nodeGroups:\n" GROUP("rack-a", "l40s", "4", "gpu-11", "gpu-12")
			STACK "  fallback:\n    nodePoolName: b-gpu\n    nodeImage: bottlerocket\n"
			      "    instanceTypes: [g6e.12xlarge]\n    gpuLimit: 8\n"
			      "  placement:\n    namespaces: [batch, inference]\n"
			      "    podSelector: {matchLabels: {team: batch}}\n";
	/* the same namespace in another cluster, and with engine none */
	const char *c = HEAD("c")
		CLUSTER("other") "  nodeGroups:\n" GROUP("rack-a", "l40s", "4", "gpu-21", "gpu-22")
			STACK FALLBACK PLACEMENT;
	const char *d = HEAD("d")
		CLUSTER("shared") "  nodeGroups:\n" GROUP("rack-a", "l40s", "4", "gpu-31", "gpu-32")
			STACK "  fallback:\n    nodePoolName: d-gpu\n    nodeImage: bottlerocket\n"
			      "    instanceTypes: [g6e.12xlarge]\n    gpuLimit: 8\n"
			      "  placement:\n    engine: none\n    namespaces: [inference]\n";

	(void)state;
	load("sites/a.yaml", a);
	load("sites/b.yaml", b);
	load("sites/c.yaml", c);
	load("sites/d.yaml", d);
	check();
	expect_only("GS171", 1);
	expect_at(0, "sites/b.yaml", b, "inference]", 0);
	expect_msg(0, "namespace 'inference'");
	expect_msg(0, "site 'a'");
}

static void
test_rules__gs047_cluster_stack(void **state)
{
	const char *a = SITE("a", "shared");
	const char *b = HEAD("b") CLUSTER("shared") "  nodeGroups:\n" GROUP(
		"rack-a", "l40s", "4", "gpu-11",
		"gpu-12") "  gpuStack:\n    chart: {version: 0.19.3}\n" FALLBACK PLACEMENT_2
			  "  argocd: {project: other}\n";
	const char *c = HEAD("c") CLUSTER("elsewhere") "  nodeGroups:\n" GROUP(
		"rack-a", "l40s", "4", "gpu-21",
		"gpu-22") "  gpuStack:\n    type: gpu-operator\n    chart: {version: "
			  "v26.7.0}\n" FALLBACK PLACEMENT_2;

	(void)state;
	load("sites/a.yaml", a);
	load("sites/b.yaml", b);
	load("sites/c.yaml", c);
	check();
	expect_only("GS047", 2);
	expect_at(0, "sites/b.yaml", b, "0.19.3", 0);
	expect_msg(0, "gpuStack.chart.version '0.19.3' differs from '0.20.0' in site 'a'");
	expect_at(1, "sites/b.yaml", b, "other", 0);
	expect_msg(1, "argocd.project 'other' differs from 'default' (the default)");
	/* a defaulted block: "first at" names site a's "spec:" line */
	expect_msg(1, "(first at sites/a.yaml:5:1)");
}

static void
test_rules__gs100_cluster_facts(void **state)
{
	const char *a = SITE("a", "shared");
	const char *b = HEAD("b") "  cluster:\n    name: shared\n    region: eu-west-1\n"
				  "    kubernetesVersion: \"1.35\"\n"
				  "  nodeGroups:\n" GROUP("rack-a", "l40s", "4", "gpu-11", "gpu-12")
					  STACK FALLBACK PLACEMENT_2;

	(void)state;
	load("sites/a.yaml", a);
	load("sites/b.yaml", b);
	check();
	expect_only("GS100", 2);
	expect_at(0, "sites/b.yaml", b, "eu-west-1", 0);
	expect_at(1, "sites/b.yaml", b, "\"1.35\"", 0);
	expect_msg(1, "'1.35' differs from unset");
	expect_msg(0, "cluster.region 'eu-west-1' differs from 'us-west-2' in site 'a'");
}

/* ---- GS050-GS052: placement ---- */

#define WITH_PLACEMENT(p) HEAD("lab") CLUSTER("c") GROUPS STACK FALLBACK p

static void
test_rules__gs05x_placement(void **state)
{
	(void)state;
	one("GS050",
	    WITH_PLACEMENT("  placement:\n    mode: require-onprem\n"
			   "    namespaces: [inference]\n"),
	    "require-onprem", 0);
	reset();
	quiet(HEAD("lab") CLUSTER("c") GROUPS STACK
	      "  fallback: {enabled: false}\n"
	      "  placement:\n    mode: require-onprem\n    namespaces: [inference]\n");
	reset();
	one("GS051",
	    WITH_PLACEMENT("  placement:\n    namespaces: [inference]\n"
			   "    singleWriter: true\n"),
	    "singleWriter: true", 14);
	reset();
	quiet(WITH_PLACEMENT("  placement:\n    namespaces: [inference]\n"
			     "    singleWriter: true\n    fencing: lease\n"));
	reset();
	one("GS052", WITH_PLACEMENT("  placement:\n    namespaces: []\n"), "namespaces: []", 12);
	reset();
	quiet(WITH_PLACEMENT("  placement:\n    engine: none\n"));
}

/* ---- GS060-GS063: recovery and admission API ---- */

static void
test_rules__gs060_rto_budget(void **state)
{
	const char *y = BASE "  recovery:\n"
			     "    targetRTO: 15m\n"
			     "    nodeProvisioning: 4m\n"
			     "    imagePull: 6m\n"
			     "    modelLoad: 3m\n";

	(void)state;
	one("GS060", y, "15m", 0);
	assert_string_equal(D.items[0].msg,
			    "RTO budget 18m50s exceeds targetRTO 15m: eviction 5m0s + "
			    "node monitor grace 50s + provisioning 4m0s + image pull "
			    "6m0s + model load 3m0s; shorten a term or raise targetRTO");
	/* the larger of the two tolerations counts; missing terms are 0 */
	reset();
	one("GS060",
	    HEAD("lab") CLUSTER("c") GROUPS STACK FALLBACK
	    "  placement:\n    namespaces: [inference]\n"
	    "    notReadyTolerationSeconds: 30\n    unreachableTolerationSeconds: 90\n"
	    "  recovery:\n    targetRTO: 2m\n    nodeMonitorGracePeriod: 40s\n",
	    "2m\n", 0);
	expect_msg(0, "RTO budget 2m10s exceeds targetRTO 2m: eviction 1m30s + "
		      "node monitor grace 40s + provisioning 0s");
	/* within budget, or no target: quiet */
	reset();
	quiet(BASE "  recovery:\n    targetRTO: 18m50s\n    nodeProvisioning: 4m\n"
		   "    imagePull: 6m\n    modelLoad: 3m\n");
	reset();
	quiet(BASE "  recovery:\n    nodeProvisioning: 40m\n");
}

static void
test_rules__gs061_slow_tolerations(void **state)
{
	const char *y = WITH_PLACEMENT("  placement:\n    namespaces: [inference]\n"
				       "    notReadyTolerationSeconds: 300\n"
				       "    unreachableTolerationSeconds: 600\n");

	(void)state;
	one("GS061", y, "600", 0);
	expect_msg(0, "unreachableTolerationSeconds 600");
}

static const char *
with_engine(const char *version)
{
	return arena_printf(
		&A,
		HEAD("lab") "  cluster:\n    name: c\n    region: us-west-2\n%s" GROUPS STACK
			FALLBACK "  placement:\n    engine: mutating-admission-policy\n"
			    "    namespaces: [inference]\n",
		version);
}

static void
test_rules__gs062_gs063_admission_policy(void **state)
{
	(void)state;
	one("GS062", with_engine("    kubernetesVersion: \"1.33\"\n"), "mutating-admission-policy",
	    0);
	expect_msg(0, "1.33");
	reset();
	one("GS063", with_engine("    kubernetesVersion: \"1.35\"\n"), "mutating-admission-policy",
	    0);
	expect_msg(0, "--runtime-config=admissionregistration.k8s.io/v1beta1=true");
	reset();
	one("GS063", with_engine("    kubernetesVersion: \"1.34\"\n"), "mutating-admission-policy",
	    0);
	reset();
	quiet(with_engine("    kubernetesVersion: \"1.36\"\n"));
	reset();
	quiet(with_engine("")); /* assumed 1.36 never fires */
}

/* ---- GS101, GS102 ---- */

static void
test_rules__gs101_duplicate_taints(void **state)
{
	const char *y =
		WITH_GROUP("    taints:\n"
			   "    - {key: nvidia.com/gpu, value: present, effect: NoSchedule}\n"
			   "    - {key: example.com/a, value: x, effect: NoExecute}\n"
			   "    - {key: example.com/a, value: y, effect: NoExecute}\n"
			   "    - {key: nvidia.com/gpu, value: x, effect: NoExecute}\n");

	(void)state;
	load("sites/lab.yaml", y);
	check();
	expect_only("GS101", 2);
	expect_at(0, "sites/lab.yaml", y, "nvidia.com/gpu, value: present", 0);
	expect_msg(0, "repeats the GPU taint");
	expect_at(1, "sites/lab.yaml", y, "example.com/a, value: y", 0);
}

static void
test_rules__gs102_tool_labels(void **state)
{
	const char *y = WITH_GROUP("    labels:\n"
				   "      node-type: gpu\n"
				   "      gpusite.io/site: x\n"
				   "      gpu.model.example.com/x: fine\n");

	(void)state;
	load("sites/lab.yaml", y);
	check();
	expect_only("GS102", 2);
	expect_at(0, "sites/lab.yaml", y, "node-type", 0);
	expect_at(1, "sites/lab.yaml", y, "gpusite.io/site", 0);
}

/* ---- GS103-GS109 ---- */

#define SSM_GROUP(env)                                                                             \
	"  nodeGroups:\n"                                                                          \
	"  - name: rack-b\n"                                                                       \
	"    gpu: {model: l40s, perNode: 4}\n"                                                     \
	"    count: 2\n"                                                                           \
	"    credentials:\n"                                                                       \
	"      ssm: {activationId: x, activationCodeEnv: " env "}\n"

static void
test_rules__gs103_activation_code_env(void **state)
{
	static const char *const good[] = {
		"SSM_ACTIVATION_CODE_RACK_B",
		"DJ_SSM_ACTIVATION_CODE",
		"ssm_activation_code",
		"SSM_ACTIVATION",
	};
	static const struct {
		const char *name;
		const char *why;
	} bad[] = {
		{ "AWS_SECRET_ACCESS_KEY", "AWS_" },
		{ "AWS_SSM_ACTIVATION_CODE", "AWS_" },
		{ "GPUSITE_GIT_TOKEN", "GPUSITE_" },
		{ "GIT_SSM_ACTIVATION", "GIT_" },
		{ "GITHUB_TOKEN", "GITHUB_" },
		{ "ARGOCD_ENV_SSM_ACTIVATION", "ARGOCD_" },
		{ "KUBECONFIG", "KUBE" },
		{ "HOME", "SSM and ACTIVATION" },
		{ "SSM_CODE", "SSM and ACTIVATION" },
		{ "ACTIVATION_CODE", "SSM and ACTIVATION" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		assert_null(rules_activation_env_problem(good[i]));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *why = rules_activation_env_problem(bad[i].name);

		assert_non_null(why);
		if (!strstr(why, bad[i].why))
			fail_msg("%s: '%s' lacks '%s'", bad[i].name, why, bad[i].why);
	}
	assert_non_null(rules_activation_env_problem(""));

	one("GS103",
	    HEAD("lab") CLUSTER("c") SSM_GROUP("AWS_SECRET_ACCESS_KEY") STACK FALLBACK PLACEMENT,
	    "AWS_SECRET", 0);
	expect_msg(0, "names starting with AWS_");
	expect_msg(0, "such as SSM_ACTIVATION_CODE_RACK_B");
	assert_string_equal(D.items[0].path,
			    "spec.nodeGroups[0].credentials.ssm.activationCodeEnv");
	reset();
	quiet(HEAD("lab") CLUSTER("c") SSM_GROUP("DJ_SSM_ACTIVATION_CODE")
		      STACK FALLBACK PLACEMENT);
	/* a secret written as the name is GS010's alone, never echoed */
	reset();
	load("sites/lab.yaml",
	     HEAD("lab") CLUSTER("c") SSM_GROUP("Fjz3sZfSvv78EXAMPLEa") STACK FALLBACK PLACEMENT);
	check();
	expect_only("GS010", 1);
}

#define BPRINT(...) assert_int_equal(buf_printf(&b, __VA_ARGS__), 0)

static void
test_rules__gs104_node_limits(void **state)
{
	struct buf b;
	const char *y;
	size_t per_group[] = { 1000, 1001 };

	(void)state;
	for (size_t k = 0; k < 2; k++) {
		reset();
		buf_init(&b, 1 << 24);
		BPRINT(HEAD("lab") CLUSTER("c") "  nodeGroups:\n  - name: rack-a\n"
						"    gpu: {model: l40s, perNode: 4}\n    nodes:\n");
		for (size_t i = 0; i < per_group[k]; i++)
			BPRINT("    - gpu-%05zu\n", i);
		BPRINT("    credentials:\n      iamRolesAnywhere: {trustAnchorArn: ta,"
		       " profileArn: pa, roleArn: ra}\n" STACK "  fallback:\n"
		       "    nodeImage: bottlerocket\n"
		       "    instanceTypes: [g6e.12xlarge]\n    gpuLimit: 4004\n" PLACEMENT);
		y = arena_strndup(&A, b.data, b.len);
		buf_release(&b);
		if (!k) {
			quiet(y);
			continue;
		}
		one("GS104", y, "nodes:", 0);
		expect_msg(0, "node group 'rack-a' has 1001 nodes, over the limit of 1000");
		assert_string_equal(D.items[0].path, "spec.nodeGroups[0].nodes");
	}
	/* six SSM groups of 900: every group fits, the site does not */
	reset();
	buf_init(&b, 1 << 20);
	BPRINT(HEAD("lab") CLUSTER("c") "  nodeGroups:\n");
	for (int g = 0; g < 6; g++)
		BPRINT("  - name: rack-%d\n    gpu: {model: l40s, perNode: 4}\n"
		       "    count: 900\n    credentials:\n      ssm: {activationId: x,"
		       " activationCodeEnv: SSM_ACTIVATION_CODE}\n",
		       g);
	BPRINT(STACK "  fallback:\n    nodeImage: bottlerocket\n    instanceTypes: [g6e.12xlarge]\n"
		     "    gpuLimit: 10800\n" PLACEMENT);
	y = arena_strndup(&A, b.data, b.len);
	buf_release(&b);
	one("GS104", y, "nodeGroups:", 0);
	expect_msg(0, "site 'lab' has 5400 nodes, over the limit of 5000 per site");
	reset();
	one("GS104",
	    HEAD("lab") CLUSTER("c") "  nodeGroups:\n  - name: rack-a\n"
				     "    gpu: {model: l40s, perNode: 4}\n    count: 300000\n"
				     "    credentials:\n      ssm: {activationId: x, "
				     "activationCodeEnv: SSM_ACTIVATION_CODE}\n" STACK
				     "  fallback:\n    nodeImage: bottlerocket\n    instanceTypes: "
				     "[g6e.12xlarge]\n    "
				     "gpuLimit: 600000\n" PLACEMENT,
	    "count:", 0);
}

#define WITH_ZONES(z) HEAD("lab") CLUSTER("c") GROUPS STACK FALLBACK "    zones: " z "\n" PLACEMENT

static void
test_rules__gs105_zones(void **state)
{
	static const char *const good[] = {
		"[us-west-2a, us-west-2d]",
		"[us-west-2-lax-1a]",
		"[us-west-2-wl1-las-wlz-1]",
		"[]",
	};
	static const struct {
		const char *zones;
		const char *marker;
		const char *msg;
	} bad[] = {
		{ "[us-west-2a, us-east-1a]", "us-east-1a",
		  "a zone of region us-east-1, but the cluster is in us-west-2" },
		{ "[usw2-az1]", "usw2-az1", "a zone ID" },
		{ "[us-west-2]", "us-west-2]", "not an AWS zone name" },
		{ "[us-west-2ab]", "us-west-2ab", "not an AWS zone name" },
		{ "[US-WEST-2A]", "US-WEST-2A", "not an AWS zone name" },
		{ "[\"us-west-2a \"]", "\"us-west-2a", "not an AWS zone name" },
		{ "[us-west-2--lax-1a]", "us-west-2--", "not an AWS zone name" },
		{ "[eu-central-1a]", "eu-central-1a", "region eu-central-1" },
		{ "[us-west-22a]", "us-west-22a", "region us-west-22" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		reset();
		quiet(arena_printf(&A, WITH_ZONES("%s"), good[i]));
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *y;

		reset();
		y = arena_printf(&A, WITH_ZONES("%s"), bad[i].zones);
		one("GS105", y, bad[i].marker, 0);
		expect_msg(0, bad[i].msg);
	}
}

static void
test_rules__gs107_one_provisioner(void **state)
{
	const char *a = SITE("a", "shared");
	const char *b = HEAD("b") "  cluster:\n    name: shared\n    region: us-west-2\n"
				  "    provisioner: auto-mode\n"
				  "  nodeGroups:\n" GROUP("rack-a", "l40s", "4", "gpu-11", "gpu-12")
					  STACK FALLBACK_AUTO PLACEMENT_2;
	const char *c = HEAD("c") "  cluster:\n    name: other\n    region: us-west-2\n"
				  "    provisioner: auto-mode\n"
				  "  nodeGroups:\n" GROUP("rack-a", "l40s", "4", "gpu-21", "gpu-22")
					  STACK FALLBACK_AUTO PLACEMENT_2;

	(void)state;
	load("sites/a.yaml", a);
	load("sites/b.yaml", b);
	load("sites/c.yaml", c);
	check();
	expect_only("GS107", 1);
	expect_at(0, "sites/b.yaml", b, "auto-mode", 0);
	expect_msg(0, "cluster.provisioner 'auto-mode' differs from 'karpenter' (the default) in "
		      "site 'a'");
	expect_msg(0, "(first at sites/a.yaml:");
}

static void
test_rules__gs108_reserved_label_domains(void **state)
{
	const char *y = WITH_GROUP("    labels:\n"
				   "      karpenter.sh/nodepool: x\n"
				   "      karpenter.k8s.aws/instance-family: g6\n"
				   "      node.eks.amazonaws.com/x: a\n"
				   "      notkarpenter.sh/x: fine\n"
				   "      example.com/karpenter.sh: fine\n");

	(void)state;
	load("sites/lab.yaml", y);
	check();
	expect_only("GS108", 3);
	expect_at(0, "sites/lab.yaml", y, "karpenter.sh/nodepool", 0);
	expect_msg(0, "in the karpenter.sh domain");
	expect_at(1, "sites/lab.yaml", y, "karpenter.k8s.aws/", 0);
	expect_at(2, "sites/lab.yaml", y, "node.eks.amazonaws.com/x", 0);
	expect_msg(2, "in the eks.amazonaws.com domain");
	/* nodeadm's compute-type label stays GS021's alone */
	reset();
	load("sites/lab.yaml",
	     WITH_GROUP("    labels:\n      eks.amazonaws.com/compute-type: hybrid\n"));
	check();
	expect_only("GS021", 1);
}

static void
test_rules__gs109_other_stacks_chart(void **state)
{
	const char *y;

	(void)state;
	y = HEAD("lab") CLUSTER("c") GROUPS
		"  gpuStack:\n    type: gpu-operator\n    chart: {version: 0.20.0}\n" FALLBACK
			PLACEMENT;
	one("GS109", y, "0.20.0", 0);
	expect_msg(0, "0.20.0 looks like a version of the nvidia-device-plugin chart");
	reset();
	y = HEAD("lab") CLUSTER("c") GROUPS
		"  gpuStack:\n    chart: {version: v25.3.1}\n" FALLBACK PLACEMENT;
	one("GS109", y, "v25.3.1", 0);
	expect_msg(0, "looks like a version of the gpu-operator chart");
	reset();
	y = HEAD("lab") CLUSTER("c") GROUPS
		"  gpuStack:\n    chart: {name: gpu-operator, version: 0.20.0}\n" FALLBACK
			PLACEMENT;
	one("GS109", y, "gpu-operator", 0);
	expect_msg(0, "the chart of the other stack");
	reset();
	quiet(HEAD("lab") CLUSTER("c") GROUPS
	      "  gpuStack:\n    type: gpu-operator\n    chart: {version: v26.7.0}\n" FALLBACK
		      PLACEMENT);
}

/* GS110: a Karpenter fallback must say its AMI family; auto-mode, a
 * disabled fallback and a nodeClass block (GS112 asks instead) do not warn */
static void
test_rules__gs110_node_image(void **state)
{
	(void)state;
	one("GS110",
	    HEAD("lab") CLUSTER("c") GROUPS STACK
	    "  fallback:\n"
	    "    instanceTypes: [g6e.12xlarge]\n    gpuLimit: 8\n" PLACEMENT,
	    "fallback:", 0);
	expect_msg(0, "on an AL2023 NVIDIA AMI no plugin runs and GPU pods stay Pending");
	expect_msg(0, "a second plugin would double-advertise the GPUs");
	assert_string_equal(D.items[0].path, "spec.fallback.nodeImage");
	reset();
	/* the whole fallback block defaulted: still a Karpenter fallback */
	one("GS110", HEAD("lab") CLUSTER("c") GROUPS STACK PLACEMENT, "spec:", 0);
	reset();
	quiet(HEAD("lab") CLUSTER("c") GROUPS STACK
	      "  fallback:\n    nodeImage: al2023\n    instanceTypes: [g6e.12xlarge]\n"
	      "    gpuLimit: 8\n" PLACEMENT);
	reset();
	quiet(HEAD("lab") CLUSTER("c") GROUPS STACK "  fallback: {enabled: false}\n" PLACEMENT);
	reset();
	quiet(HEAD("lab") "  cluster:\n    name: c\n    region: us-west-2\n"
			  "    provisioner: auto-mode\n" GROUPS STACK FALLBACK_AUTO PLACEMENT);
}

/* ---- the tables ---- */

static void
test_rules__instance_type_table(void **state)
{
	const struct instance_type *t;

	(void)state;
	assert_int_equal(instance_types_count, 70);
	t = instance_type_find("g6.12xlarge");
	assert_non_null(t);
	assert_int_equal(t->gpu_count, 4);
	assert_int_equal(t->nvidia_gpus, 4);
	assert_int_equal(t->gpu_memory_mib, 22888); /* per GPU */
	assert_string_equal(t->gpu_name, "l4");
	assert_string_equal(t->gpu_manufacturer, "nvidia");
	assert_true(t->auto_mode);
	assert_true(instance_type_whole_nvidia(t));
	t = instance_type_find("g4dn.12xlarge");
	assert_int_equal(t->gpu_memory_mib, instance_type_find("g4dn.xlarge")->gpu_memory_mib);
	t = instance_type_find("g6f.large");
	assert_int_equal(t->gpu_count, 0);
	assert_false(instance_type_whole_nvidia(t));
	assert_false(t->auto_mode);
	assert_false(instance_type_find("g7.2xlarge")->auto_mode);
	assert_true(instance_type_find("g7e.2xlarge")->auto_mode);
	assert_false(instance_type_whole_nvidia(instance_type_find("g4ad.xlarge")));
	assert_string_equal(instance_type_find("g5g.xlarge")->arch, "arm64");
	assert_int_equal(instance_type_find("p5e.48xlarge")->gpu_memory_mib, 144384);
	assert_null(instance_type_find("G6.12xlarge"));
	assert_null(instance_type_find(NULL));
	assert_string_equal(instance_type_suggest("g6.12xlarg"), "g6.12xlarge");
	assert_null(instance_type_suggest("m5.large"));
}

static void
test_rules__gpu_models_agree_with_instance_types(void **state)
{
	size_t i, seen = 0;

	(void)state;
	for (i = 0; i < instance_types_count; i++) {
		const struct instance_type *t = &instance_types[i];
		int64_t m = gpu_model_memory_mib(t->gpu_name);

		if (!instance_type_whole_nvidia(t))
			continue;
		if (!m)
			fail_msg("GPU model %s of %s missing from gpu_models.c", t->gpu_name,
				 t->name);
		/* a100/v100 list the smaller variant; the rest are exact */
		if (!strcmp(t->gpu_name, "a100") || !strcmp(t->gpu_name, "v100"))
			assert_true(m <= t->gpu_memory_mib);
		else
			assert_int_equal(m, t->gpu_memory_mib);
		seen++;
	}
	assert_true(seen > 50);
	assert_int_equal(gpu_model_memory_mib("h200"), 144384);
	assert_int_equal(gpu_model_memory_mib("a100-80gb"), 81920);
	assert_int_equal(gpu_model_memory_mib("unknown"), 0);
	assert_int_equal(gpu_model_memory_mib(NULL), 0);
}

/* Every cross-file rule declares the keys it compares, so validate's
 * lean road never needs a second list of them. */
static void
test_rules__fleet_rules_declare_their_keys(void **state)
{
	(void)state;
	for (size_t i = 0; i < rules_count; i++) {
		if (!rules_table[i]->check_fleet)
			continue;
		if (!rules_table[i]->fleet_keys)
			fail_msg("%s compares sites but declares no fleet_keys",
				 rules_table[i]->id);
	}
}

/* The one architecture of a fallback's types, from the generated table:
 * unknown names do not count, a mix has none. */
static void
test_rules__instance_types_arch(void **state)
{
	static const char *const x86[] = { "nope.xlarge", "g6e.12xlarge", "p5.48xlarge" };
	static const char *const arm[] = { "g5g.16xlarge" };
	static const char *const mixed[] = { "g6e.12xlarge", "g5g.16xlarge" };
	static const char *const none[] = { "nope.xlarge" };

	(void)state;
	assert_string_equal(instance_types_arch(x86, 3), "amd64");
	assert_string_equal(instance_types_arch(arm, 1), "arm64");
	assert_null(instance_types_arch(mixed, 2));
	assert_null(instance_types_arch(none, 1));
}

int
main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, testutil_teardown)
	const struct CMUnitTest tests[] = {
		T(test_rules__table_is_the_catalogue),
		T(test_rules__instance_types_arch),
		T(test_rules__fleet_rules_declare_their_keys),
		T(test_rules__quiet_on_the_fleet),
		T(test_rules__quiet_on_the_base_spec),
		T(test_rules__gs004_duplicate_site),
		T(test_rules__gs005_duplicate_group),
		T(test_rules__gs005_node_twice_in_repository),
		T(test_rules__gs010_secrets),
		T(test_rules__gs010_quiet_on_names_of_secrets),
		T(test_rules__gs010_path_of_a_deep_finding),
		T(test_rules__gs010_prefilter),
		T(test_rules__gs010_scan_of_a_rejected_document),
		T(test_rules__gs011_both_or_neither),
		T(test_rules__gs012_forms),
		T(test_rules__gs013_node_names),
		T(test_rules__gs020_node_restriction),
		T(test_rules__gs021_nodeadm_owns),
		T(test_rules__gs022_hand_written_flags),
		T(test_rules__gs023_syntax),
		T(test_rules__k8s_syntax),
		T(test_rules__gs030_exact_version),
		T(test_rules__gs030_hint_passes),
		T(test_rules__gs031_owned_values),
		T(test_rules__gs032_gs033_device_plugin),
		T(test_rules__gs040_instance_types),
		T(test_rules__gs040_hint_passes),
		T(test_rules__gs115_hint_passes),
		T(test_rules__gs041_limit_below_smallest),
		T(test_rules__gs042_min_memory),
		T(test_rules__gs043_smaller_than_onprem),
		T(test_rules__gs044_auto_mode),
		T(test_rules__gs045_half_of_onprem),
		T(test_rules__gs046_pool_name_in_cluster),
		T(test_rules__gs047_cluster_stack),
		T(test_rules__gs171_scope_collision),
		T(test_rules__gs100_cluster_facts),
		T(test_rules__gs05x_placement),
		T(test_rules__gs060_rto_budget),
		T(test_rules__gs061_slow_tolerations),
		T(test_rules__gs062_gs063_admission_policy),
		T(test_rules__gs101_duplicate_taints),
		T(test_rules__gs102_tool_labels),
		T(test_rules__gs103_activation_code_env),
		T(test_rules__gs104_node_limits),
		T(test_rules__gs105_zones),
		T(test_rules__gs107_one_provisioner),
		T(test_rules__gs108_reserved_label_domains),
		T(test_rules__gs109_other_stacks_chart),
		T(test_rules__gs110_node_image),
		T(test_rules__instance_type_table),
		T(test_rules__gpu_models_agree_with_instance_types),
	};
#undef T

	return cmocka_run_group_tests(tests, NULL, NULL);
}
