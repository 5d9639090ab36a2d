/*
 * test_fleetpage.c - the fleet page's arithmetic (src/fleetpage/) on
 * hand-made fleets with known answers: on-prem GPUs by cluster and model,
 * the fallback at its limit and its cost per hour from the built-in
 * price list, every set of up to K sites failing together with its
 * shortfall, and what is not known said so.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "base/arena.h"
#include "fleetpage/fleetpage.h"
#include "rules/rules.h"
#include "spec/spec.h"
#include "yamlio/yamlio.h"

#include "testutil.h"

#define SITE(name, cluster, group, fallback)                                                       \
	"apiVersion: gpusite.io/v1alpha1\n"                                                        \
	"kind: GPUSite\n"                                                                          \
	"metadata: {name: " name "}\n"                                                             \
	"spec:\n"                                                                                  \
	"  cluster: " cluster "\n"                                                                 \
	"  nodeGroups:\n"                                                                          \
	"  - name: rack\n"                                                                         \
	"    gpu: " group "\n"                                                                     \
	"    credentials:\n"                                                                       \
	"      ssm: {activationId: x, activationCodeEnv: CODE}\n"                                  \
	"  gpuStack: {chart: {version: 0.20.0}}\n"                                                 \
	"  fallback: " fallback "\n"

/* a: 16 h200, fallback 8 GPUs on g6e.12xlarge or g6.12xlarge (2 x g6.12xlarge
 * at $4.6016 is the cheapest); b: 8 h100, 16 GPUs of p5.48xlarge (2 x $55.04);
 * c: 12 l40s, Spot, no list price; d: another cluster in eu-central-1. */
static const char *const fleet_yaml[] = {
	SITE("a", "{name: east, region: us-east-1}", "{model: h200, perNode: 8}\n    count: 2",
	     "{instanceTypes: [g6e.12xlarge, g6.12xlarge], gpuLimit: 8}"),
	SITE("b", "{name: east, region: us-east-1}", "{model: h100, perNode: 8}\n    count: 1",
	     "{instanceTypes: [p5.48xlarge], gpuLimit: 16}"),
	SITE("c", "{name: east, region: us-east-1}", "{model: l40s, perNode: 4}\n    count: 3",
	     "{instanceTypes: [g6e.12xlarge], gpuLimit: 4, capacityType: spot}"),
	SITE("d", "{name: west, region: eu-central-1}", "{model: h200, perNode: 8}\n    count: 1",
	     "{instanceTypes: [g6e.12xlarge], gpuLimit: 4}"),
};

/* One cluster with quotas: q1 needs 96 G vCPUs on demand (2 x g6e.12xlarge),
 * q2 384 P (2 x p5.48xlarge, over the 300 alone), q3 and q4 48 G of Spot
 * each (under 64 alone, over it together). */
#define QUOTA_CLUSTER                                                                              \
	"{name: q, region: us-east-1, quotas: {onDemand: {G: 100, P: 300}, spot: {G: 64}}}"
static const char *const quota_yaml[] = {
	SITE("q1", QUOTA_CLUSTER, "{model: h200, perNode: 8}\n    count: 2",
	     "{instanceTypes: [g6e.12xlarge], gpuLimit: 8}"),
	SITE("q2", QUOTA_CLUSTER, "{model: h100, perNode: 8}\n    count: 1",
	     "{instanceTypes: [p5.48xlarge], gpuLimit: 16}"),
	SITE("q3", QUOTA_CLUSTER, "{model: l40s, perNode: 4}\n    count: 1",
	     "{instanceTypes: [g6e.12xlarge], gpuLimit: 4, capacityType: spot}"),
	SITE("q4", QUOTA_CLUSTER, "{model: l40s, perNode: 4}\n    count: 1",
	     "{instanceTypes: [g6e.12xlarge, g6e.48xlarge], gpuLimit: 4,"
	     " capacityType: [spot, on-demand]}"),
};

/* Burst pools: s1 (16 h200, fallback 8) bursts 8 GPUs of Spot, s2 (8
 * h200, fallback 8) 4 on demand; s3 has none; t1, of another cluster, 4 of
 * Spot.  They are shown, never counted in what a failed site may launch. */
#define BURST(limit, extra) "  burst: {gpuLimit: " limit ", namespaces: [batch]" extra "}\n"
static const char *const burst_yaml[] = {
	SITE("s1", "{name: east, region: us-east-1}", "{model: h200, perNode: 8}\n    count: 2",
	     "{instanceTypes: [g6.12xlarge], gpuLimit: 8}") BURST("8", ""),
	SITE("s2", "{name: east, region: us-east-1}", "{model: h200, perNode: 8}\n    count: 1",
	     "{instanceTypes: [g6.12xlarge], gpuLimit: 8}") BURST("4", ", capacityType: on-demand"),
	SITE("s3", "{name: east, region: us-east-1}", "{model: h200, perNode: 8}\n    count: 1",
	     "{instanceTypes: [g6.12xlarge], gpuLimit: 8}"),
	SITE("t1", "{name: west, region: us-east-1}", "{model: l40s, perNode: 4}\n    count: 1",
	     "{instanceTypes: [g6.12xlarge], gpuLimit: 4}") BURST("4", ""),
};

static void
fleet_from(struct spec_fleet *f, const char *const *yaml, size_t n)
{
	memset(f, 0, sizeof(*f));
	for (size_t i = 0; i < n; i++) {
		struct yamlio_docs docs =
			testutil_yaml_docs("sites/x.yaml", yaml[i], &yamlio_default_limits);
		struct spec_site *s;

		assert_int_equal(docs.count, 1);
		s = spec_load(&A, &D, docs.docs[0]);
		assert_non_null(s);
		spec_fleet_add(&A, f, s);
	}
	spec_fleet_sort(f);
	assert_int_equal(D.count, 0);
}

static void
fleet_of(struct spec_fleet *f, size_t n)
{
	fleet_from(f, fleet_yaml, n);
}

static const struct fp_whatif *
set_of(const struct fleetpage *fp, const char *x, const char *y)
{
	for (size_t i = 0; i < fp->whatif_count; i++) {
		const struct fp_whatif *w = &fp->whatifs[i];

		if (w->count != (y ? 2u : 1u) || strcmp(fp->sites[w->sites[0]].spec->name, x))
			continue;
		if (!y || !strcmp(fp->sites[w->sites[1]].spec->name, y))
			return w;
	}
	return NULL;
}

/* The page of a hand-made fleet at K 2; the fleet in *f. */
static void
build_from(struct fleetpage *fp, struct spec_fleet *f, const char *const *yaml, size_t n)
{
	struct fleetpage_options o = { 2, NULL, 0, NULL };

	fleet_from(f, yaml, n);
	assert_int_equal(fleetpage_build(fp, &A, &D, f, &o), 0);
}

static void
build(struct fleetpage *fp, int k, const char *only)
{
	struct spec_fleet f;
	struct fleetpage_options o = { k, NULL, 0, only };

	fleet_of(&f, sizeof(fleet_yaml) / sizeof(fleet_yaml[0]));
	assert_int_equal(fleetpage_build(fp, &A, &D, &f, &o), 0);
}

static void
test_fleetpage__clusters_and_models(void **state)
{
	struct fleetpage fp;
	const struct fp_cluster *c;

	(void)state;
	build(&fp, 2, NULL);
	assert_int_equal(fp.cluster_count, 2);
	c = &fp.clusters[0];
	assert_string_equal(c->name, "east");
	assert_int_equal(c->site_count, 3);
	assert_int_equal(c->onprem_gpus, 16 + 8 + 12);
	assert_int_equal(c->fallback_limit, 8 + 16 + 4);
	assert_int_equal(c->model_count, 3);
	assert_string_equal(c->models[0].model, "h100");
	assert_int_equal(c->models[0].gpus, 8);
	assert_string_equal(c->models[1].model, "h200");
	assert_int_equal(c->models[1].gpus, 16);
	assert_string_equal(c->models[2].model, "l40s");
	assert_int_equal(c->models[2].gpus, 12);
	assert_string_equal(fp.clusters[1].name, "west");
}

static void
test_fleetpage__cost_at_the_limit(void **state)
{
	struct fleetpage fp;
	const struct fp_site *a, *b, *c, *d;

	(void)state;
	build(&fp, 2, NULL);
	a = &fp.sites[0], b = &fp.sites[1], c = &fp.sites[2], d = &fp.sites[3];
	/* the cheapest type that serves: 2 x g6.12xlarge within gpuLimit 8 */
	assert_int_equal(a->cost_state, FP_COST_KNOWN);
	assert_string_equal(a->cost_type, "g6.12xlarge");
	assert_float_equal(a->cost_per_hour, 2 * 4.6016, 1e-9);
	assert_int_equal(a->quota_vcpus, 2 * 48);
	assert_int_equal(a->quota_group, QUOTA_G);
	assert_int_equal(a->quota_market, QUOTA_ON_DEMAND);
	assert_false(a->cost_estimate);
	assert_int_equal(a->types[0].nodes_at_limit, 2);
	assert_float_equal(b->cost_per_hour, 2 * 55.04, 1e-9);
	assert_int_equal(b->quota_vcpus, 2 * 192);
	assert_int_equal(b->quota_group, QUOTA_P);
	/* Spot: no list price, said so */
	assert_int_equal(c->cost_state, FP_COST_CAPACITY);
	assert_non_null(strstr(fleetpage_cost_reason(c), "price not known"));
	assert_false(a->cost_ceiling);
	/* priced outside us-east-1: an estimate */
	assert_int_equal(d->cost_state, FP_COST_KNOWN);
	assert_true(d->cost_estimate);
	assert_float_equal(d->cost_per_hour, 10.49264, 1e-9);
}

static void
test_fleetpage__what_if_shortfall(void **state)
{
	struct fleetpage fp;
	const struct fp_whatif *w;

	(void)state;
	build(&fp, 2, NULL);
	/* east: 3 singles + 3 pairs; west: 1 single */
	assert_int_equal(fp.whatif_count, 3 + 3 + 1);
	w = set_of(&fp, "a", "b");
	assert_non_null(w);
	assert_int_equal(w->lost, 24);
	assert_int_equal(w->launchable, 24);
	assert_int_equal(w->shortfall, 0);
	assert_float_equal(w->cost_per_hour, 2 * 4.6016 + 2 * 55.04, 1e-9);
	assert_false(w->cost_partial);
	w = set_of(&fp, "a", "c");
	assert_non_null(w);
	assert_int_equal(w->lost, 28);
	assert_int_equal(w->launchable, 12);
	assert_int_equal(w->shortfall, 16);
	assert_float_equal(w->cost_per_hour, 2 * 4.6016, 1e-9);
	assert_true(w->cost_partial);
	w = set_of(&fp, "c", NULL);
	assert_non_null(w);
	assert_int_equal(w->shortfall, 8);
	assert_null(set_of(&fp, "a", "d")); /* never across clusters */
}

static void
test_fleetpage__fail_k_and_selection(void **state)
{
	struct fleetpage fp;

	(void)state;
	build(&fp, 1, NULL);
	assert_int_equal(fp.whatif_count, 4);
	build(&fp, 3, NULL);
	assert_int_equal(fp.whatif_count, 3 + 3 + 1 + 1);
	assert_int_equal(fp.whatifs[6].lost, 36);
	build(&fp, 2, "east");
	assert_int_equal(fp.site_count, 3);
	assert_int_equal(fp.cluster_count, 1);
	build(&fp, 2, "d");
	assert_int_equal(fp.site_count, 1);
	assert_string_equal(fp.clusters[0].name, "west");
}

static void
test_fleetpage__quotas(void **state)
{
	struct spec_fleet f;
	struct fleetpage fp;
	const struct fp_whatif *w;
	size_t gs196 = 0;

	(void)state;
	build_from(&fp, &f, quota_yaml, sizeof(quota_yaml) / sizeof(quota_yaml[0]));
	assert_non_null(fp.clusters[0].quotas);
	assert_int_equal(fp.sites[0].quota_vcpus, 96);
	assert_false(fp.sites[0].quota_over);
	assert_int_equal(fp.sites[1].quota_vcpus, 384);
	assert_int_equal(fp.sites[1].quota_group, QUOTA_P);
	assert_true(fp.sites[1].quota_over);
	/* q4: the type that needs the fewest vCPUs, g6e.12xlarge, not g6e.48xlarge */
	assert_int_equal(fp.sites[3].quota_vcpus, 48);
	assert_int_equal(fp.sites[3].quota_market, QUOTA_SPOT);
	/* spot, then on-demand: priced at on-demand's list price, the most */
	assert_int_equal(fp.sites[3].cost_state, FP_COST_KNOWN);
	assert_true(fp.sites[3].cost_ceiling);
	assert_float_equal(fp.sites[3].cost_per_hour, 10.49264, 1e-9);
	assert_int_equal(fp.sites[2].cost_state, FP_COST_CAPACITY);
	assert_true(set_of(&fp, "q3", "q4")->cost_ceiling);
	w = set_of(&fp, "q3", "q4");
	assert_non_null(w);
	assert_int_equal(w->quota_vcpus[QUOTA_SPOT][QUOTA_G], 96);
	assert_true(w->quota_over);
	w = set_of(&fp, "q1", "q3");
	assert_int_equal(w->quota_vcpus[QUOTA_ON_DEMAND][QUOTA_G], 96);
	assert_false(w->quota_over);
	assert_false(set_of(&fp, "q1", NULL)->quota_over);
	assert_true(set_of(&fp, "q1", "q2")->quota_over);
	/* validate: GS196 for q2 alone */
	rules_check(&A, &D, &f);
	for (size_t i = 0; i < D.count; i++)
		if (!strcmp(D.items[i].rule, "GS196")) {
			gs196++;
			assert_string_equal(D.items[i].site, "q2");
			assert_non_null(
				strstr(D.items[i].msg, "384 vCPUs of the P instance families"));
		}
	assert_int_equal(gs196, 1);
}

/* What `write` makes of `fp` holds each string of `want`. */
static void
writes(const struct fleetpage *fp,
       int (*write)(struct buf *, struct arena *, const struct fleetpage *),
       const char *const *want, size_t n)
{
	struct buf b = BUF_INIT;

	buf_init(&b, 1u << 20);
	assert_int_equal(write(&b, &A, fp), 0);
	assert_int_equal(buf_addch(&b, 0), 0);
	for (size_t i = 0; i < n; i++)
		if (!strstr(b.data, want[i]))
			fail_msg("no \"%s\" in:\n%s", want[i], b.data);
	buf_release(&b);
}

static void
test_fleetpage__burst_pool(void **state)
{
	struct spec_fleet f;
	struct fleetpage fp;
	const struct fp_whatif *w;
	static const char *const md_want[] = {
		"| 24 | 12 (varies by site) |", "| 4 | 4 (spot) |",
		"| 8 GPUs, spot |\n",           "| none |\n",
		"burst capacity is Spot",       "it is not failover capacity",
	};
	static const char *const json_want[] = {
		"\"burstGpuLimit\": 12,\n",
		"\"burstCapacityType\": \"varies by site\",",
		"\"nodePool\": \"s1-gpu-burst\"",
		"\"failoverCapacity\": false",
	};

	(void)state;
	build_from(&fp, &f, burst_yaml, sizeof(burst_yaml) / sizeof(burst_yaml[0]));
	assert_int_equal(fp.pool_sites, 3);
	assert_int_equal(fp.sites[0].pool_count, 1);
	assert_string_equal(fp.sites[0].pools[0].noun, "burst");
	assert_int_equal(fp.sites[0].pools[0].limit, 8);
	assert_string_equal(fp.sites[0].pools[0].capacity, "spot");
	assert_string_equal(fp.sites[0].pools[0].name, "s1-gpu-burst");
	assert_string_equal(fp.sites[1].pools[0].capacity, "on-demand");
	assert_int_equal(fp.sites[2].pool_count, 0);
	/* per cluster and kind of pool: the sum, and its capacity type */
	assert_int_equal(fp.clusters[0].pool_count, 1);
	assert_string_equal(fp.clusters[0].pools[0].noun, "burst");
	assert_int_equal(fp.clusters[0].pools[0].sites, 2);
	assert_int_equal(fp.clusters[0].pools[0].limit, 12);
	assert_string_equal(fp.clusters[0].pools[0].capacity, "varies by site");
	assert_int_equal(fp.clusters[0].fallback_limit, 24);
	assert_int_equal(fp.clusters[1].pools[0].limit, 4);
	assert_string_equal(fp.clusters[1].pools[0].capacity, "spot");
	/* the what-if counts the fallback only: s1 + s2 lose 24, may launch 16 */
	w = set_of(&fp, "s1", "s2");
	assert_non_null(w);
	assert_int_equal(w->lost, 24);
	assert_int_equal(w->launchable, 16);
	assert_int_equal(w->shortfall, 8);
	assert_int_equal(set_of(&fp, "s1", NULL)->launchable, 8);
	/* the page and the JSON say so */
	writes(&fp, fleetpage_markdown, md_want, sizeof(md_want) / sizeof(md_want[0]));
	writes(&fp, fleetpage_json, json_want, sizeof(json_want) / sizeof(json_want[0]));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		TESTUTIL_CASE(test_fleetpage__clusters_and_models),
		TESTUTIL_CASE(test_fleetpage__cost_at_the_limit),
		TESTUTIL_CASE(test_fleetpage__what_if_shortfall),
		TESTUTIL_CASE(test_fleetpage__fail_k_and_selection),
		TESTUTIL_CASE(test_fleetpage__quotas),
		TESTUTIL_CASE(test_fleetpage__burst_pool),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
