/*
 * test_gs189.c - GS189, a listed capacity type no offering can satisfy:
 * reserved on a declared Karpenter whose ReservedCapacity gate is off by
 * default (1.3 to 1.5), on every pool of the inventory, at the entry that
 * names it; quiet from 1.6, before 1.3 (GS186's), with Auto Mode, and for
 * on-demand and spot.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "base/arena.h"
#include "base/findings.h"
#include "rules/rules.h"
#include "spec/spec.h"
#include "yamlio/yamlio.h"

#include "testutil.h"

/* A site of one rack; VERSIONS, the fallback's capacityType and the
 * burst block vary. */
#define SITE_HEAD(versions, provisioner)                                                           \
	"apiVersion: gpusite.io/v1alpha1\n"                                                        \
	"kind: GPUSite\n"                                                                          \
	"metadata: {name: lab}\n"                                                                  \
	"spec:\n"                                                                                  \
	"  cluster:\n"                                                                             \
	"    name: lab-cluster\n"                                                                  \
	"    region: us-west-2\n" provisioner versions "  nodeGroups:\n"                           \
	"  - name: rack-a\n"                                                                       \
	"    gpu: {model: l40s, perNode: 4}\n"                                                     \
	"    nodes: [gpu-01, gpu-02]\n"                                                            \
	"    credentials:\n"                                                                       \
	"      iamRolesAnywhere: {trustAnchorArn: ta, profileArn: pa, roleArn: ra}\n"              \
	"  gpuStack:\n"                                                                            \
	"    chart: {version: 0.20.0}\n"                                                           \
	"  placement:\n"                                                                           \
	"    namespaces: [inference]\n"
#define FALLBACK(capacity)                                                                         \
	"  fallback:\n"                                                                            \
	"    instanceTypes: [g6e.12xlarge]\n"                                                      \
	"    gpuLimit: 8\n"                                                                        \
	"    nodeImage: bottlerocket\n"                                                            \
	"    capacityType: " capacity "\n"                                                         \
	"    nodeClassSelectsReservations: true\n"
#define KARPENTER(v) "    versions: {karpenter: \"" v "\"}\n"
#define BURST_RESERVED                                                                             \
	"  burst:\n"                                                                               \
	"    instanceTypes: [g6e.12xlarge, g6e.24xlarge]\n"                                        \
	"    gpuLimit: 8\n"                                                                        \
	"    capacityType: [spot, reserved]\n"                                                     \
	"    namespaces: [batch]\n"

/* The rules' findings on `yaml` (one site), sorted. */
static void
run(const char *yaml)
{
	struct spec_fleet fleet;
	struct yamlio_docs docs = { NULL, 0 };

	memset(&fleet, 0, sizeof(fleet));
	assert_int_equal(yamlio_load(&docs, &A, &D, "sites/lab.yaml", yaml, strlen(yaml),
				     &yamlio_default_limits),
			 0);
	assert_int_equal(docs.count, 1);
	spec_fleet_add(&A, &fleet, spec_load(&A, &D, docs.docs[0]));
	assert_int_equal(D.count, 0);
	spec_fleet_sort(&fleet);
	rules_check(&A, &D, &fleet);
	diags_sort(&D);
}

/* How many findings of `rule`. */
static size_t
count(const char *rule)
{
	size_t n = 0;

	for (size_t i = 0; i < D.count; i++)
		n += !strcmp(D.items[i].rule, rule);
	return n;
}

/* Line and column (1-based) of the `nth` (0-based) `marker` in yaml,
 * plus `skip` bytes. */
static void
expect_pos(const struct diag *d, const char *yaml, const char *marker, int nth, size_t skip)
{
	const char *m = strstr(yaml, marker);
	unsigned line = 1, col = 1;

	while (m && nth--)
		m = strstr(m + 1, marker);
	assert_non_null(m);
	for (const char *p = yaml; p < m + skip; p++) {
		col = *p == '\n' ? 1 : col + 1;
		line += *p == '\n';
	}
	assert_int_equal(d->at.line, line);
	assert_int_equal(d->at.col, col);
}

/* The GS189 finding number `nth` (0-based), which must exist. */
static const struct diag *
nth_gs189(size_t nth)
{
	for (size_t i = 0; i < D.count; i++)
		if (!strcmp(D.items[i].rule, "GS189") && !nth--)
			return &D.items[i];
	fail_msg("too few GS189 findings");
	return NULL;
}

static void
test_gs189__gate_off_by_default(void **state)
{
	static const char yaml[] =
		SITE_HEAD(KARPENTER("1.5"), "") FALLBACK("[on-demand, reserved]") BURST_RESERVED;
	const struct diag *d;

	(void)state;
	run(yaml);
	assert_int_equal(count("GS189"), 2);
	assert_int_equal(D.count, 2);
	/* the fallback's capacityType[1] */
	d = nth_gs189(0);
	assert_int_equal(d->level, findings_find("GS189")->level);
	assert_int_equal(d->level, DIAG_ERROR);
	expect_pos(d, yaml, "reserved]", 0, 0);
	assert_string_equal(d->path, "spec.fallback.capacityType[1]");
	assert_non_null(strstr(d->msg, "fallback.capacityType lists reserved but no offering of"
				       " g6e.12xlarge can be reserved: Karpenter 1.5"));
	assert_non_null(
		strstr(d->msg, "ReservedCapacity feature gate off by default (on from 1.6)"));
	/* the burst pool, judged alike */
	d = nth_gs189(1);
	assert_string_equal(d->path, "spec.burst.capacityType[1]");
	expect_pos(d, yaml, "reserved]", 1, 0);
	assert_non_null(strstr(d->msg, "burst.capacityType lists reserved but no offering of"
				       " g6e.12xlarge or any other type it admits"));
}

static void
test_gs189__scalar_entry(void **state)
{
	static const char yaml[] = SITE_HEAD(KARPENTER("1.3.2"), "") FALLBACK("reserved");
	const struct diag *d;

	(void)state;
	run(yaml);
	assert_int_equal(count("GS189"), 1);
	d = nth_gs189(0);
	assert_string_equal(d->path, "spec.fallback.capacityType");
	expect_pos(d, yaml, "capacityType: reserved", 0, strlen("capacityType: "));
}

static void
test_gs189__quiet(void **state)
{
	static const char *const quiet[] = {
		/* the gate is on by default from 1.6; no version: the assumed one */
		SITE_HEAD(KARPENTER("1.6"), "") FALLBACK("[reserved, on-demand]") BURST_RESERVED,
		SITE_HEAD("", "") FALLBACK("[reserved, on-demand]"),
		/* on-demand and spot on 1.5 */
		SITE_HEAD(KARPENTER("1.5"), "") FALLBACK("[on-demand, spot]"),
		/* Auto Mode: no Karpenter release of the user's */
		SITE_HEAD("", "    provisioner: auto-mode\n") FALLBACK("[reserved, on-demand]"),
	};

	(void)state;
	for (size_t i = 0; i < sizeof(quiet) / sizeof(quiet[0]); i++) {
		arena_release(&A);
		testutil_setup(NULL);
		run(quiet[i]);
		if (count("GS189"))
			fail_msg("case %zu: GS189: %s", i, nth_gs189(0)->msg);
	}
}

static void
test_gs189__before_reserved_capacity_is_gs186s(void **state)
{
	static const char yaml[] =
		SITE_HEAD(KARPENTER("1.2"), "") FALLBACK("[reserved, on-demand]");

	(void)state;
	run(yaml);
	assert_int_equal(count("GS189"), 0);
	assert_int_equal(count("GS186"), 1);
}

static void
test_gs189__no_admitted_type_is_left_to_gs040(void **state)
{
	static const char yaml[] =
		SITE_HEAD(KARPENTER("1.5"), "") "  fallback:\n"
						"    instanceTypes: [g4ad.xlarge]\n"
						"    gpuLimit: 8\n"
						"    capacityType: reserved\n"
						"    nodeClassSelectsReservations: true\n";

	(void)state;
	run(yaml);
	assert_int_equal(count("GS189"), 0);
	assert_true(count("GS040") >= 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		TESTUTIL_CASE(test_gs189__gate_off_by_default),
		TESTUTIL_CASE(test_gs189__scalar_entry),
		TESTUTIL_CASE(test_gs189__quiet),
		TESTUTIL_CASE(test_gs189__before_reserved_capacity_is_gs186s),
		TESTUTIL_CASE(test_gs189__no_admitted_type_is_left_to_gs040),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
