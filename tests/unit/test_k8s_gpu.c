/*
 * test_k8s_gpu.c - the GPU resource names and the GPU Pod predicate:
 * every request form the scheduler and the device plugin honour (a
 * container, an init container, a native sidecar; nvidia.com/gpu, a MIG
 * profile, a shared name; limits or requests; resource claims), and what
 * is not one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "k8s/k8s_gpu.h"
#include "testutil.h"

static const char *const shared[] = { "nvidia.com/gpu.shared", "nvidia.com/a100-slice" };

static bool
gpu_pod(const char *yaml)
{
	return k8s_gpu_pod(testutil_yaml_first("pod.yaml", yaml, NULL), shared, 2);
}

static void
test_k8s_gpu__resource_names(void **state)
{
	(void)state;
	assert_true(k8s_gpu_resource_is_gpu("nvidia.com/gpu", NULL, 0));
	assert_true(k8s_gpu_resource_is_gpu("nvidia.com/mig-1g.10gb", NULL, 0));
	assert_true(k8s_gpu_resource_is_gpu("nvidia.com/mig-3g.40gb.shared", NULL, 0));
	assert_false(k8s_gpu_resource_is_gpu("nvidia.com/gpu.shared", NULL, 0));
	assert_true(k8s_gpu_resource_is_gpu("nvidia.com/gpu.shared", shared, 2));
	assert_true(k8s_gpu_resource_is_gpu("nvidia.com/a100-slice", shared, 2));
	/* exact names are exact: no prefix match on them */
	assert_false(k8s_gpu_resource_is_gpu("nvidia.com/gpux", shared, 2));
	assert_false(k8s_gpu_resource_is_gpu("nvidia.com/gpu.shared2", shared, 2));
	assert_false(k8s_gpu_resource_is_gpu("nvidia.com/mig", NULL, 0));
	assert_false(k8s_gpu_resource_is_gpu("amd.com/gpu", shared, 2));
	assert_false(k8s_gpu_resource_is_gpu("cpu", shared, 2));
	assert_false(k8s_gpu_resource_is_gpu(NULL, shared, 2));
	assert_int_equal(k8s_gpu_resource_count, 2);
}

static void
test_k8s_gpu__request_forms(void **state)
{
	(void)state;
	/* a container's limit, or its request only */
	assert_true(gpu_pod("spec: {containers: [{name: a, resources: {limits: "
			    "{nvidia.com/gpu: 1}}}]}"));
	assert_true(gpu_pod("spec: {containers: [{name: a}, {name: b, resources: {requests: "
			    "{nvidia.com/gpu: 1}}}]}"));
	/* an init container, a native sidecar */
	assert_true(gpu_pod("spec: {containers: [{name: a}], initContainers: [{name: i, "
			    "resources: {limits: {nvidia.com/gpu: 1}}}]}"));
	assert_true(gpu_pod("spec: {containers: [{name: a}], initContainers: [{name: s, "
			    "restartPolicy: Always, resources: {limits: {nvidia.com/gpu: 1}}}]}"));
	/* a MIG profile, a shared name */
	assert_true(gpu_pod("spec: {containers: [{name: a, resources: {limits: "
			    "{nvidia.com/mig-1g.10gb: 1}}}]}"));
	assert_true(gpu_pod("spec: {containers: [{name: a, resources: {limits: "
			    "{nvidia.com/gpu.shared: 1}}}]}"));
	/* resource claims, non-empty */
	assert_true(gpu_pod("spec: {containers: [{name: a}], resourceClaims: [{name: gpu, "
			    "resourceClaimTemplateName: gpu}]}"));
}

static void
test_k8s_gpu__not_gpu_pods(void **state)
{
	(void)state;
	assert_false(gpu_pod("spec: {containers: [{name: a, resources: {limits: {cpu: 1}}}]}"));
	assert_false(gpu_pod("spec: {containers: [{name: a}], resourceClaims: []}"));
	assert_false(gpu_pod("spec: {containers: [{name: a, resources: {limits: "
			     "{amd.com/gpu: 1}}}]}"));
	/* ephemeral containers cannot request resources: not looked at */
	assert_false(gpu_pod("spec: {containers: [{name: a}], ephemeralContainers: [{name: e, "
			     "resources: {limits: {nvidia.com/gpu: 1}}}]}"));
	/* the name as a value, not a key; odd shapes */
	assert_false(gpu_pod("spec: {containers: [{name: nvidia.com/gpu, resources: {limits: "
			     "[nvidia.com/gpu]}}]}"));
	assert_false(gpu_pod("spec: {containers: {a: 1}, initContainers: 3}"));
	assert_false(gpu_pod("metadata: {name: x}"));
	assert_false(k8s_gpu_pod(NULL, NULL, 0));
	/* a shared name counts only when the site has it */
	assert_false(k8s_gpu_pod(testutil_yaml_first("pod.yaml",
						     "spec: {containers: [{name: a, resources: "
						     "{limits: {nvidia.com/gpu.shared: 1}}}]}",
						     NULL),
				 NULL, 0));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		TESTUTIL_CASE(test_k8s_gpu__resource_names),
		TESTUTIL_CASE(test_k8s_gpu__request_forms),
		TESTUTIL_CASE(test_k8s_gpu__not_gpu_pods),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
