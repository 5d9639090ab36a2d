/*
 * test_secret.c - the one secret policy (base/secret.h): classification
 * by shape and context, the stricter echo check, quoting, redaction.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "base/arena.h"
#include "base/secret.h"

#define AWS_KEY "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
#define SSM_CODE "Fjz3/sZfSvv78EXAMPLE"

static void
test_secret__classify_by_context(void **state)
{
	(void)state;
	assert_int_equal(secret_classify(SSM_CODE, "activationCode"), SECRET_SSM_CODE);
	assert_int_equal(secret_classify(SSM_CODE, "note"), SECRET_NONE);
	assert_int_equal(secret_classify("x activation_code=" SSM_CODE, ""), SECRET_SSM_CODE);
	assert_int_equal(secret_classify(AWS_KEY, "secretAccessKey"), SECRET_AWS_KEY);
	assert_int_equal(secret_classify("x AWS_Secret_Access_Key=abc", ""), SECRET_AWS_KEY);
	assert_int_equal(secret_classify("-----BEGIN EC PRIVATE KEY-----\nMHc", ""),
			 SECRET_PRIVATE_KEY);
	assert_int_equal(secret_classify("us-west-2", "region"), SECRET_NONE);
	assert_int_equal(secret_classify(NULL, ""), SECRET_NONE);
}

static void
test_secret__classify_keys(void **state)
{
	(void)state;
	/* a key named like a secret field counts only as a key (key NULL) */
	assert_int_equal(secret_classify("ACTIVATION-CODE", NULL), SECRET_SSM_CODE);
	assert_int_equal(secret_classify("aws_session_token", NULL), SECRET_SESSION_TOKEN);
	assert_int_equal(secret_classify("activationCode", ""), SECRET_NONE);
	assert_int_equal(secret_classify("kubernetesVersion", NULL), SECRET_NONE);
	assert_true(secret_prefilter("sessionToken", true));
	assert_false(secret_prefilter("sessionToken", false));
}

static void
test_secret__looks_and_field(void **state)
{
	(void)state;
	assert_true(secret_looks(AWS_KEY));
	assert_false(secret_looks("topology.example.com/rack"));
	assert_false(secret_looks(NULL));
	/* 40 mixed characters without a '/' need a context */
	assert_false(secret_looks("wJalrXUtnFEMIxK7MDENGxbPxRfiCYEXAMPLEKEY"));
	assert_true(secret_in_field(SSM_CODE, "activationCode"));
	assert_false(secret_in_field(SSM_CODE, "note"));
	assert_true(secret_in_field(AWS_KEY, NULL));
}

static void
test_secret__unsafe_to_echo(void **state)
{
	const char *k = "XYZZY_wJalrKEY1abcdefgh: 1";

	(void)state;
	/* stricter than secret_looks: 16 mixed characters are enough */
	assert_true(secret_unsafe_to_echo("abcDEF1234567890", 16));
	assert_false(secret_looks("abcDEF1234567890"));
	assert_false(secret_unsafe_to_echo("abcDEF123456789", 15));
	assert_false(secret_unsafe_to_echo("nodeGroups", 10));
	assert_true(secret_unsafe_to_echo("my PRIVATE KEY", 14));
	/* only the first len bytes count */
	assert_false(secret_unsafe_to_echo(k, 5));
	assert_true(secret_unsafe_to_echo(k, strlen(k)));
}

static void
test_secret__quote_and_noun(void **state)
{
	(void)state;
	assert_string_equal(secret_quote(AWS_KEY), SECRET_REDACTED);
	assert_string_equal(secret_quote("gpu-a"), "gpu-a");
	assert_string_equal(secret_noun(SECRET_SSM_CODE), "an SSM activation code");
	assert_string_equal(secret_noun(SECRET_NONE), "a secret");
}

static void
test_secret__name_is_credential(void **state)
{
	(void)state;
	assert_true(secret_name_is_credential("access_token", 12));
	assert_true(secret_name_is_credential("PASSWORD", 8));
	assert_true(secret_name_is_credential("api_key=x", 7));
	assert_false(secret_name_is_credential("ref", 3));
	assert_false(secret_name_is_credential("token", 0));
}

static void
test_secret__redact_text(void **state)
{
	struct arena a = ARENA_INIT;
	const char *plain = "region: us-west-2\n";

	(void)state;
	assert_ptr_equal(secret_redact_text(&a, plain), plain);
	assert_string_equal(secret_redact_text(&a, "ssm:\n  activationCode: abc\n  id: x\n"),
			    "ssm:\n  activationCode: <redacted>\n  id: x\n");
	assert_string_equal(secret_redact_text(&a, "{\"activationCode\":\"a\\\"b\",\"id\":1}"),
			    "{\"activationCode\":\"<redacted>\",\"id\":1}");
	assert_string_equal(secret_redact_text(&a, "activationCodeEnv: X"), "activationCodeEnv: X");
	arena_release(&a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_secret__classify_by_context),
		cmocka_unit_test(test_secret__classify_keys),
		cmocka_unit_test(test_secret__looks_and_field),
		cmocka_unit_test(test_secret__unsafe_to_echo),
		cmocka_unit_test(test_secret__quote_and_noun),
		cmocka_unit_test(test_secret__name_is_credential),
		cmocka_unit_test(test_secret__redact_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
