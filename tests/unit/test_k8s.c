/*
 * test_k8s.c - the Kubernetes semantics of src/k8s/, each against the
 * upstream rules it reproduces (apimachinery, core/v1).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "k8s/k8s_version.h"

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
		"", "v", "1", "1.", "1.x", ".35", "1.35.", "1.35-", "1.35 ", " 1.35",
		"1..35", "vv1.35", "1.35.2.", "1.35/2", "1.12345", "12345.1",
		"1.35-eks 1", "latest",
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_k8s__version_accepts_what_clusters_and_argocd_write),
		cmocka_unit_test(test_k8s__version_refuses_anything_else),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
