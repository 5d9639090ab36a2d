/*
 * test_diff_revisions.c - the secret masking `diff --base` applies to
 * both sides before comparing: activationCode values as mapping values
 * and inside strings (YAML and JSON spellings), nothing else touched.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/arena.h"
#include "base/buf.h"
#include "diff/diff.h"
#include "node/node.h"
#include "yamlio/yamlio.h"

static struct node *
load(struct arena *a, const char *text)
{
	struct yamlio_docs docs = { NULL, 0 };
	struct diags d;

	diags_init(&d, a);
	assert_int_equal(
		yamlio_load(&docs, a, &d, "t.yaml", text, strlen(text), &yamlio_default_limits), 0);
	assert_int_equal(docs.count, 1);
	return docs.docs[0];
}

static char *
emit(struct arena *a, const struct node *n)
{
	struct buf b = BUF_INIT;
	char *s;

	buf_init(&b, 0);
	assert_int_equal(yamlio_emit(&b, n, 0), 0);
	s = arena_strndup(a, b.data, b.len);
	buf_release(&b);
	return s;
}

static void
test_diff_revisions__redacts_activation_code_values(void **state)
{
	struct arena a = ARENA_INIT;
	struct node *n;

	(void)state;
	arena_init(&a);
	n = load(&a, "hybrid:\n  ssm:\n    activationCode: s3cr3t-code\n"
		     "    activationId: id-1\nlist:\n- activationCode: other-s3cr3t\n"
		     "keep: activationCode is a word here\n");
	diff_revisions_redact(&a, n);
	assert_string_equal(emit(&a, n),
			    "hybrid:\n  ssm:\n    activationCode: <redacted>\n"
			    "    activationId: id-1\nlist:\n- activationCode: <redacted>\n"
			    "keep: activationCode is a word here\n");
	arena_release(&a);
}

static void
test_diff_revisions__redacts_inside_strings(void **state)
{
	struct arena a = ARENA_INIT;
	struct node *n;
	const char *yaml, *json;

	(void)state;
	arena_init(&a);
	n = load(&a, "data:\n"
		     "  nodeconfig.yaml: \"spec:\\n  hybrid:\\n    ssm:\\n      activationCode: "
		     "s3cr3t\\n      activationId: x\\n\"\n"
		     "  nodeconfig.json: '{\"activationCode\": \"s3\\\"cr3t\", "
		     "\"activationId\":\"x\"}'\n"
		     "  other: 'activationCodeless: fine'\n");
	diff_revisions_redact(&a, n);
	yaml = node_str(node_map_get(node_map_get(n, "data"), "nodeconfig.yaml"));
	json = node_str(node_map_get(node_map_get(n, "data"), "nodeconfig.json"));
	assert_non_null(yaml);
	assert_non_null(json);
	assert_string_equal(yaml, "spec:\n  hybrid:\n    ssm:\n      activationCode: <redacted>\n"
				  "      activationId: x\n");
	assert_string_equal(json, "{\"activationCode\": \"<redacted>\", \"activationId\":\"x\"}");
	assert_string_equal(node_str(node_map_get(node_map_get(n, "data"), "other")),
			    "activationCodeless: fine");
	assert_null(strstr(emit(&a, n), "s3cr3t"));
	arena_release(&a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_diff_revisions__redacts_activation_code_values),
		cmocka_unit_test(test_diff_revisions__redacts_inside_strings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
