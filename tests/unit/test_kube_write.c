/*
 * test_kube_write.c - the writes of `drill run` as kube builds them: the
 * cordon patch kubectl cordon sends, the policy/v1 Eviction kubectl drain
 * sends, a SelfSubjectAccessReview; names escaped in the path and the
 * JSON body, which stays JSON whatever bytes a name holds.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/arena.h"
#include "json/json.h"
#include "kube/kube.h"
#include "node/node.h"

static void
test_kube_write__cordon_as_kubectl(void **state)
{
	struct arena a;
	struct kube_call c;

	(void)state;
	arena_init(&a);
	assert_int_equal(kube_call_cordon(&c, &a, "gpu-a-01", true), 0);
	assert_string_equal(c.method, "PATCH");
	assert_string_equal(c.path, "/api/v1/nodes/gpu-a-01");
	assert_string_equal(c.content_type, "application/strategic-merge-patch+json");
	assert_string_equal(c.body, "{\"spec\":{\"unschedulable\":true}}");
	assert_false(c.pass_429);
	assert_int_equal(kube_call_cordon(&c, &a, "gpu-a-01", false), 0);
	assert_string_equal(c.body, "{\"spec\":{\"unschedulable\":null}}");
	arena_release(&a);
}

static void
test_kube_write__eviction_as_kubectl_drain(void **state)
{
	struct arena a;
	struct kube_call c;

	(void)state;
	arena_init(&a);
	assert_int_equal(kube_call_evict(&c, &a, "inference", "llm-server-6f7d9c8b5-abcde"), 0);
	assert_string_equal(c.method, "POST");
	assert_string_equal(c.path, "/api/v1/namespaces/inference/pods/"
				    "llm-server-6f7d9c8b5-abcde/eviction");
	assert_string_equal(c.content_type, "application/json");
	assert_string_equal(c.body, "{\"kind\":\"Eviction\",\"apiVersion\":\"policy/v1\","
				    "\"metadata\":{\"name\":\"llm-server-6f7d9c8b5-abcde\","
				    "\"namespace\":\"inference\",\"creationTimestamp\":null},"
				    "\"deleteOptions\":{}}");
	assert_true(c.pass_429); /* a PDB's 429 is the drill's to retry */
	arena_release(&a);
}

static void
test_kube_write__names_escaped(void **state)
{
	struct arena a;
	struct diags d;
	struct kube_call c;
	const struct node *doc;

	(void)state;
	arena_init(&a);
	diags_init(&d, &a);
	assert_int_equal(kube_call_evict(&c, &a, "a/b", "x\"y\\z\n?#"), 0);
	assert_string_equal(c.path, "/api/v1/namespaces/a%2Fb/pods/x%22y%5Cz%0A%3F%23/eviction");
	doc = json_parse(&a, &d, "GS290", "body", c.body, strlen(c.body));
	assert_non_null(doc);
	assert_string_equal(node_str(node_path(doc, "metadata.name")), "x\"y\\z\n?#");
	assert_string_equal(node_str(node_path(doc, "metadata.namespace")), "a/b");
	arena_release(&a);
}

static void
test_kube_write__body_always_json(void **state)
{
	struct arena a;
	struct diags d;
	struct kube_call c;

	(void)state;
	arena_init(&a);
	diags_init(&d, &a);
	/* a control character the short way, a byte that is not UTF-8 as
	 * U+FFFD: the body stays JSON the API server accepts */
	assert_int_equal(kube_call_evict(&c, &a, "ns\t1", "p\n\xff"), 0);
	assert_string_equal(c.body, "{\"kind\":\"Eviction\",\"apiVersion\":\"policy/v1\","
				    "\"metadata\":{\"name\":\"p\\n\\ufffd\","
				    "\"namespace\":\"ns\\t1\",\"creationTimestamp\":null},"
				    "\"deleteOptions\":{}}");
	assert_non_null(json_parse(&a, &d, "GS290", "body", c.body, strlen(c.body)));
	assert_int_equal(kube_call_access_review(&c, &a, "get", "", "pods\x80", "", "x\"y"), 0);
	assert_string_equal(c.body, "{\"kind\":\"SelfSubjectAccessReview\",\"apiVersion\":"
				    "\"authorization.k8s.io/v1\",\"spec\":{\"resourceAttributes\":{"
				    "\"namespace\":\"x\\\"y\",\"verb\":\"get\",\"group\":\"\","
				    "\"resource\":\"pods\\ufffd\"}}}");
	assert_non_null(json_parse(&a, &d, "GS290", "body", c.body, strlen(c.body)));
	arena_release(&a);
}

static void
test_kube_write__access_review(void **state)
{
	struct arena a;
	struct kube_call c;

	(void)state;
	arena_init(&a);
	assert_int_equal(kube_call_access_review(&c, &a, "create", "", "pods", "eviction", NULL),
			 0);
	assert_string_equal(c.method, "POST");
	assert_string_equal(c.path, "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews");
	assert_string_equal(c.body, "{\"kind\":\"SelfSubjectAccessReview\",\"apiVersion\":"
				    "\"authorization.k8s.io/v1\",\"spec\":{\"resourceAttributes\":{"
				    "\"verb\":\"create\",\"group\":\"\",\"resource\":\"pods\","
				    "\"subresource\":\"eviction\"}}}");
	assert_int_equal(kube_call_access_review(&c, &a, "list", "karpenter.sh", "nodeclaims", NULL,
						 "inference"),
			 0);
	assert_non_null(strstr(c.body, "{\"namespace\":\"inference\",\"verb\":\"list\","
				       "\"group\":\"karpenter.sh\",\"resource\":\"nodeclaims\"}"));
	arena_release(&a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kube_write__cordon_as_kubectl),
		cmocka_unit_test(test_kube_write__eviction_as_kubectl_drain),
		cmocka_unit_test(test_kube_write__names_escaped),
		cmocka_unit_test(test_kube_write__body_always_json),
		cmocka_unit_test(test_kube_write__access_review),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
