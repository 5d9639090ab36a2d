/*
 * test_spec_numbers.c - what validates is read exactly: a property test
 * of the road YAML -> schema -> model for every integer field.
 *
 * For each integer field of the model, values from a fixed-seed generator
 * (edges, small, huge) are written in many spellings (16, +16, 0x10,
 * 0o20, 16.0, 16e0, 1.6e1, 1600e-2, !!float 16, !!int 16, "16"...); the
 * document goes through yamlio_load, schema_validate and spec_load as the
 * pipeline runs them.  The property: when the schema accepts the
 * document and spec_load adds no error, the model holds exactly the
 * integer the spelling means (computed here independently of the code
 * under test); when the spelling's value is not a whole number in the
 * field's range, the road ends in GS003 and the model is never consulted.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "base/arena.h"
#include "base/num.h"
#include "schema/schema.h"
#include "spec/spec.h"
#include "yamlio/yamlio.h"

#include "testutil.h"

#define TEMPLATE                                                                                   \
	"apiVersion: gpusite.io/v1alpha1\n"                                                        \
	"kind: GPUSite\n"                                                                          \
	"metadata: {name: lab}\n"                                                                  \
	"spec:\n"                                                                                  \
	"  cluster: {name: lab-cluster, region: us-west-2}\n"                                      \
	"  nodeGroups:\n"                                                                          \
	"  - name: rack-a\n"                                                                       \
	"    gpu: {model: h200, perNode: %s}\n"                                                    \
	"    count: %s\n"                                                                          \
	"    credentials:\n"                                                                       \
	"      ssm: {activationId: 4b2c1a3e-5d6f-4a7b-8c9d-0e1f2a3b4c5d, "                         \
	"activationCodeEnv: SSM_ACTIVATION_CODE_RACK_A}\n"                                         \
	"  gpuStack: {chart: {version: 0.20.0}}\n"                                                 \
	"  fallback: {instanceTypes: [g6e.12xlarge], gpuLimit: %s, minGpuMemoryMiB: %s}\n"         \
	"  placement: {weight: %s, notReadyTolerationSeconds: %s, "                                \
	"unreachableTolerationSeconds: %s}\n"

enum field {
	F_PER_NODE,
	F_COUNT,
	F_GPU_LIMIT,
	F_MIN_MEM,
	F_WEIGHT,
	F_NOT_READY,
	F_UNREACHABLE,
	F_COUNT_ALL
};

static const struct {
	const char *name;
	int64_t lo, hi;
	const char *fine; /* a valid value for the other slots */
} fields[F_COUNT_ALL] = {
	{ "perNode", 1, 16, "8" },
	{ "count", 1, INT32_MAX, "2" },
	{ "gpuLimit", 0, INT64_MAX, "8" },
	{ "minGpuMemoryMiB", 1, INT64_MAX, "1024" },
	{ "weight", 1, 100, "100" },
	{ "notReadyTolerationSeconds", 0, INT64_MAX, "300" },
	{ "unreachableTolerationSeconds", 0, INT64_MAX, "300" },
};

static int64_t
model_value(const struct spec_site *s, enum field f)
{
	switch (f) {
	case F_PER_NODE: return s->groups[0].gpus_per_node;
	case F_COUNT: return s->groups[0].count;
	case F_GPU_LIMIT: return s->fallback.gpu_limit;
	case F_MIN_MEM: return s->fallback.min_gpu_memory_mib;
	case F_WEIGHT: return s->placement.weight;
	case F_NOT_READY: return s->placement.not_ready_toleration_seconds;
	case F_UNREACHABLE: return s->placement.unreachable_toleration_seconds;
	default: return -1;
	}
}

/* xorshift64*: the same sequence on every run */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t
rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ull;
}

/*
 * Spelling number k of the integer v; *means is what it means as a YAML
 * 1.2 core scalar read exactly: 1 an integer (v), 0 not a number the
 * schema takes as an integer (a string, a fraction).
 */
static const char *
spell(char *out, size_t size, int64_t v, unsigned k, int *means)
{
	unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
	const char *sg = v < 0 ? "-" : "";

	*means = 1;
	switch (k) {
	case 0: snprintf(out, size, "%lld", (long long)v); break;
	case 1: snprintf(out, size, "%s%llu.0", sg, u); break;
	case 2: snprintf(out, size, "%s%llue0", sg, u); break;
	case 3: snprintf(out, size, "%s%llu00e-2", sg, u); break;
	case 4: snprintf(out, size, "!!float %s%llu", sg, u); break;
	case 5: snprintf(out, size, "!!int %lld", (long long)v); break;
	case 6:
		if (v < 0)
			snprintf(out, size, "%lld", (long long)v);
		else
			snprintf(out, size, "0x%llx", u);
		break;
	case 7:
		if (v < 0)
			snprintf(out, size, "%lld", (long long)v);
		else
			snprintf(out, size, "0o%llo", u);
		break;
	case 8:
		snprintf(out, size, "+%lld", (long long)v);
		if (v < 0)
			*means = 0;
		break;
	case 9: {
		/* d.ddd...eN: the digits moved behind the point */
		char d[32];
		size_t n = (size_t)snprintf(d, sizeof(d), "%llu", u);

		snprintf(out, size, "%s%c.%s0e%zu", sg, d[0], n > 1 ? d + 1 : "", n - 1);
		break;
	}
	case 10:
		snprintf(out, size, "%s%llu.5", sg, u);
		*means = 0;
		break;
	case 11:
		snprintf(out, size, "\"%lld\"", (long long)v);
		*means = 0;
		break;
	case 12:
		snprintf(out, size, "%s%llu.00000000000000000001", sg, u);
		*means = 0;
		break;
	default: snprintf(out, size, "%lld", (long long)v); break;
	}
	return out;
}
#define SPELLINGS 13

struct verdict {
	bool valid;    /* schema and loader report no error */
	bool gs003;    /* an error was GS003 */
	int64_t value; /* the model's value when valid */
};

static struct verdict
run_road(enum field f, const char *text)
{
	const char *v[F_COUNT_ALL];
	char yaml[2048];
	struct yamlio_docs docs = { NULL, 0 };
	const struct schema *schema;
	struct spec_site *s;
	struct verdict out = { false, false, 0 };
	size_t before, k;

	for (k = 0; k < F_COUNT_ALL; k++)
		v[k] = k == f ? text : fields[k].fine;
	snprintf(yaml, sizeof(yaml), TEMPLATE, v[F_PER_NODE], v[F_COUNT], v[F_GPU_LIMIT],
		 v[F_MIN_MEM], v[F_WEIGHT], v[F_NOT_READY], v[F_UNREACHABLE]);
	before = D.count;
	assert_int_equal(yamlio_load(&docs, &A, &D, "sites/lab.yaml", yaml, strlen(yaml), NULL), 0);
	assert_int_equal(docs.count, 1);
	schema = schema_gpusite(&A, &D);
	assert_non_null(schema);
	if (schema_validate(schema, &A, &D, "GS003", docs.docs[0]) == 0) {
		s = spec_load(&A, &D, docs.docs[0]);
		assert_non_null(s);
		if (D.count == before) {
			out.valid = true;
			out.value = model_value(s, f);
		}
	}
	for (k = before; k < D.count; k++)
		if (!strcmp(D.items[k].rule, "GS003"))
			out.gs003 = true;
	assert_true(out.valid || out.gs003);
	return out;
}

static void
check_one(enum field f, int64_t v, unsigned k)
{
	char text[96];
	int means;
	struct verdict r;
	bool in_range = v >= fields[f].lo && v <= fields[f].hi;

	spell(text, sizeof(text), v, k, &means);
	r = run_road(f, text);
	if (means && in_range) {
		if (!r.valid || r.value != v)
			fail_msg("%s: %s%s is %lld; the model read %lld (%s)", fields[f].name, "",
				 text, (long long)v, (long long)r.value,
				 r.valid ? "valid" : "refused");
	} else if (r.valid) {
		fail_msg("%s: %s validated and was read as %lld; it is not a whole number "
			 "from %lld to %lld",
			 fields[f].name, text, (long long)r.value, (long long)fields[f].lo,
			 (long long)fields[f].hi);
	}
}

static void
test_spec_numbers__every_spelling_read_exactly(void **state)
{
	static const int64_t edges[] = {
		0,
		1,
		2,
		15,
		16,
		17,
		99,
		100,
		101,
		300,
		2147483647,
		2147483648ll,
		9007199254740992ll,
		9007199254740993ll,
		999999999999999999ll,
		INT64_MAX - 1,
		INT64_MAX,
		-1,
		INT64_MIN,
	};
	size_t e;
	unsigned f, k, i;

	(void)state;
	for (f = 0; f < F_COUNT_ALL; f++) {
		for (e = 0; e < sizeof(edges) / sizeof(edges[0]); e++)
			for (k = 0; k < SPELLINGS; k++)
				check_one((enum field)f, edges[e], k);
		for (i = 0; i < 40; i++) {
			uint64_t r = rng();
			int64_t v;

			/* small, field-sized and huge values alike */
			switch (i % 3) {
			case 0: v = (int64_t)(r % 200); break;
			case 1: v = (int64_t)(r % ((uint64_t)fields[f].hi + 1)); break;
			default: v = (int64_t)(r >> 1); break;
			}
			for (k = 0; k < SPELLINGS; k++)
				check_one((enum field)f, v, k);
		}
		arena_release(&A);
		arena_init(&A);
		diags_init(&D, &A);
	}
}

/* Numbers past int64 are refused where they are written, never read as 0. */
static void
test_spec_numbers__beyond_int64_refused(void **state)
{
	static const char *const huge[] = {
		"99999999999999999999999999",
		"9223372036854775808",
		"1e19",
		"9.3e18",
		"-9223372036854775809",
		"1e400",
		".inf",
		"!!float 9223372036854775808",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(huge) / sizeof(huge[0]); i++) {
		struct verdict r = run_road(F_GPU_LIMIT, huge[i]);

		if (r.valid)
			fail_msg("gpuLimit: %s validated as %lld", huge[i], (long long)r.value);
		assert_true(r.gs003);
	}
}

/* After spec_load, the tree says what the model says: rules that read the
 * node (GS012 reads count) see the same integer. */
static void
test_spec_numbers__tree_holds_the_integer(void **state)
{
	struct verdict r;
	struct node *n;

	(void)state;
	r = run_road(F_GPU_LIMIT, "1.6e1");
	assert_true(r.valid);
	assert_int_equal(r.value, 16);
	/* the scalar itself, reached the way a rule reaches it */
	{
		struct yamlio_docs docs = testutil_yaml_docs("x.yaml", "n: 6.0e1\n", NULL);
		int64_t v = 0;

		n = node_map_get(docs.docs[0], "n");
		assert_int_equal(n->type, NODE_FLOAT);
		assert_int_equal(spec_node_int(&A, n, &v), 0);
		assert_int_equal(v, 60);
		assert_true(node_is_int(n));
		assert_int_equal(n->scalar.i, 60);
		assert_string_equal(n->scalar.text, "60");
		assert_int_equal(n->at.line, 1);
		assert_int_equal(n->at.col, 4);
	}
	{
		struct yamlio_docs docs =
			testutil_yaml_docs("x.yaml", "n: 16.0000000000000001\n", NULL);
		int64_t v = 7;

		n = node_map_get(docs.docs[0], "n");
		assert_int_equal(spec_node_int(&A, n, &v), -1);
		assert_int_equal(v, 7);
		assert_int_equal(n->type, NODE_FLOAT);
	}
}

/* The decimal writer the reader's integer nodes and the fleet keys use:
 * the same text as printf's %llu, 0 and UINT64_MAX included. */
static void
test_spec_numbers__u64_text_is_printf_text(void **state)
{
	static const uint64_t v[] = { 0, 7, 10, 99, 1000, 4294967296u, UINT64_MAX };
	char buf[NUM_U64_DIGITS + 1], want[32];

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		char *p = num_u64_text(buf + NUM_U64_DIGITS, v[i]);

		buf[NUM_U64_DIGITS] = '\0';
		snprintf(want, sizeof(want), "%llu", (unsigned long long)v[i]);
		assert_string_equal(p, want);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		TESTUTIL_CASE(test_spec_numbers__every_spelling_read_exactly),
		TESTUTIL_CASE(test_spec_numbers__beyond_int64_refused),
		TESTUTIL_CASE(test_spec_numbers__tree_holds_the_integer),
		TESTUTIL_CASE(test_spec_numbers__u64_text_is_printf_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
