/*
 * fuzz_model.c - what validates is read exactly.  The first byte picks a
 * field of a valid site spec, the rest is the text written as its value;
 * the document goes through the YAML loader, the schema and the model as
 * the pipeline runs them.  Beyond "no crash", the target asserts:
 *
 *   integer fields   the document is valid exactly when the value the
 *                    scalar means (its YAML type; for a float, the exact
 *                    decimal value of its text, computed here by a
 *                    string routine independent of the code under test)
 *                    is a whole number in the field's range, and then the
 *                    model holds exactly that number;
 *   consolidateAfter when valid, the model's text matches the Karpenter
 *                    CRD pattern and means the same seconds as the input.
 *
 * A violation aborts (libFuzzer keeps the input).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/diag.h"
#include "node/node.h"
#include "schema/schema.h"
#include "spec/spec.h"
#include "yamlio/yamlio.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_TEXT 256

enum field { F_PER_NODE, F_COUNT, F_GPU_LIMIT, F_MIN_MEM, F_WEIGHT, F_NOT_READY,
	     F_UNREACHABLE, F_CONSOLIDATE, F_ALL };

static const struct {
	const char *fine;
	int64_t lo, hi;
} fields[F_ALL] = {
	{ "8", 1, 16 },
	{ "2", 1, INT32_MAX },
	{ "8", 0, INT64_MAX },
	{ "1024", 1, INT64_MAX },
	{ "100", 1, 100 },
	{ "300", 0, INT64_MAX },
	{ "300", 0, INT64_MAX },
	{ "5m", 0, 0 },
};

#define TEMPLATE \
	"apiVersion: gpusite.io/v1alpha1\n" \
	"kind: GPUSite\n" \
	"metadata: {name: lab}\n" \
	"spec:\n" \
	"  cluster: {name: lab-cluster, region: us-west-2}\n" \
	"  nodeGroups:\n" \
	"  - name: rack-a\n" \
	"    gpu:\n" \
	"      model: h200\n" \
	"      perNode: %s\n" \
	"    count: %s\n" \
	"    credentials:\n" \
	"      ssm: {activationId: 4b2c1a3e-5d6f-4a7b-8c9d-0e1f2a3b4c5d, " \
	"activationCodeEnv: SSM_ACTIVATION_CODE_RACK_A}\n" \
	"  gpuStack: {chart: {version: 0.20.0}}\n" \
	"  fallback:\n" \
	"    instanceTypes: [g6e.12xlarge]\n" \
	"    gpuLimit: %s\n" \
	"    minGpuMemoryMiB: %s\n" \
	"    consolidateAfter: %s\n" \
	"  placement:\n" \
	"    weight: %s\n" \
	"    notReadyTolerationSeconds: %s\n" \
	"    unreachableTolerationSeconds: %s\n"

static void
violated(const char *what, const char *text, const char *detail)
{
	fprintf(stderr, "fuzz_model: %s: input '%s': %s\n", what, text, detail);
	abort();
}

/*
 * The exact value of decimal text, by string manipulation alone:
 * 1 a whole number that fits int64 (its canonical decimal in out),
 * 2 whole but too big, 0 not whole, -1 not decimal text.
 */
static int
oracle(const char *s, char out[32])
{
	char m[2 * MAX_TEXT + 8];
	size_t ml = 0, i, il;
	long point, exp = 0, len;
	bool neg = false, edig = false, eneg = false, any = false;
	const char *lim = "9223372036854775807";

	if (*s == '+' || *s == '-')
		neg = *s++ == '-';
	for (il = 0; *s >= '0' && *s <= '9'; s++, il++, any = true)
		m[ml++] = *s;
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++, any = true)
			m[ml++] = *s;
	if (!any)
		return -1;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			eneg = *s++ == '-';
		for (; *s >= '0' && *s <= '9'; s++, edig = true)
			if (exp < 100000)
				exp = exp * 10 + (*s - '0');
		if (!edig)
			return -1;
	}
	if (*s)
		return -1;
	m[ml] = '\0';
	point = (long)il + (eneg ? -exp : exp);
	/* leading zeros off: each moves the point one to the left */
	for (i = 0; i < ml && m[i] == '0'; i++)
		point--;
	memmove(m, m + i, ml - i + 1);
	ml -= i;
	while (ml && m[ml - 1] == '0')	/* trailing zeros: the value is the same */
		m[--ml] = '\0';
	if (!ml) {
		snprintf(out, 32, "0");
		return 1;
	}
	if (point < (long)ml)
		return 0;	/* a non-zero digit behind the point */
	len = point;
	if (len > 19)
		return 2;
	/* digits then zeros up to the point */
	{
		char digits[24];

		memcpy(digits, m, ml);
		memset(digits + ml, '0', (size_t)(len - (long)ml));
		digits[len] = '\0';
		if (len == 19 && strcmp(digits, lim) > 0 &&
		    !(neg && strcmp(digits, "9223372036854775808") == 0))
			return 2;
		snprintf(out, 32, "%s%s", neg ? "-" : "", digits);
	}
	return 1;
}

static const struct node *
field_node(const struct node *doc, enum field f)
{
	const struct node *g = node_path(doc, "spec.nodeGroups");

	g = g && g->kind == NODE_SEQ && g->seq.count ? g->seq.items[0] : NULL;
	switch (f) {
	case F_PER_NODE: return node_path(g, "gpu.perNode");
	case F_COUNT: return node_map_get(g, "count");
	case F_GPU_LIMIT: return node_path(doc, "spec.fallback.gpuLimit");
	case F_MIN_MEM: return node_path(doc, "spec.fallback.minGpuMemoryMiB");
	case F_WEIGHT: return node_path(doc, "spec.placement.weight");
	case F_NOT_READY: return node_path(doc, "spec.placement.notReadyTolerationSeconds");
	case F_UNREACHABLE: return node_path(doc, "spec.placement.unreachableTolerationSeconds");
	case F_CONSOLIDATE: return node_path(doc, "spec.fallback.consolidateAfter");
	default: return NULL;
	}
}

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
	default: return 0;
	}
}

static bool
karpenter_pattern(const char *s)
{
	if (!strcmp(s, "Never"))
		return true;
	if (!*s)
		return false;
	while (*s) {
		if (*s < '0' || *s > '9')
			return false;
		while (*s >= '0' && *s <= '9')
			s++;
		if (*s != 's' && *s != 'm' && *s != 'h')
			return false;
		s++;
	}
	return true;
}

static void
check(enum field f, const char *text)
{
	const char *v[F_ALL];
	char yaml[sizeof(TEMPLATE) + 16 + MAX_TEXT];
	struct arena a;
	struct diags d;
	struct yamlio_docs docs = { NULL, 0 };
	const struct schema *schema;
	const struct node *n;
	struct spec_site *s = NULL;
	enum node_type type;
	char ntext[2 * MAX_TEXT + 8], want[32], got[32];
	int64_t ival = 0;
	bool valid = false;
	int o = -1;
	size_t k;

	for (k = 0; k < F_ALL; k++)
		v[k] = k == f ? text : fields[k].fine;
	snprintf(yaml, sizeof(yaml), TEMPLATE, v[F_PER_NODE], v[F_COUNT], v[F_GPU_LIMIT],
		 v[F_MIN_MEM], v[F_CONSOLIDATE], v[F_WEIGHT], v[F_NOT_READY], v[F_UNREACHABLE]);
	arena_init(&a);
	diags_init(&d, &a);
	schema = schema_gpusite(&a, &d);
	if (!schema)
		violated("schema", text, "the built-in schema does not compile");
	if (yamlio_load(&docs, &a, &d, "sites/lab.yaml", yaml, strlen(yaml), NULL) < 0 ||
	    docs.count != 1)
		goto out;
	n = field_node(docs.docs[0], f);
	/* what the scalar is, before the model reads (and canonicalises) it */
	type = n && n->kind == NODE_SCALAR ? n->type : NODE_NULL;
	if (n && n->kind == NODE_SCALAR && n->scalar.len < sizeof(ntext)) {
		memcpy(ntext, n->scalar.text, n->scalar.len + 1);
		ival = n->scalar.i;
	} else {
		ntext[0] = '\0';
	}
	if (n && n->kind != NODE_SCALAR)
		type = NODE_NULL;
	if (schema_validate(schema, &a, &d, "GS003", docs.docs[0]) == 0) {
		s = spec_load(&a, &d, docs.docs[0]);
		valid = s && d.count == 0;
	}
	if (f == F_CONSOLIDATE) {
		struct spec_duration in, outd;

		if (!valid || s->fallback.consolidate_after.never)
			goto out;
		if (!karpenter_pattern(s->fallback.consolidate_after.text))
			violated("consolidateAfter", text, s->fallback.consolidate_after.text);
		if (spec_parse_duration(ntext, true, &in) < 0 ||
		    spec_parse_duration(s->fallback.consolidate_after.text, true, &outd) < 0 ||
		    in.seconds != outd.seconds)
			violated("consolidateAfter", text, "the seconds changed");
		goto out;
	}
	switch (type) {
	case NODE_INT:
		snprintf(want, sizeof(want), "%lld", (long long)ival);
		o = 1;
		break;
	case NODE_FLOAT:
		o = oracle(ntext, want);
		if (o < 0 && strstr(ntext, "inf") == NULL && strstr(ntext, "Inf") == NULL &&
		    strstr(ntext, "INF") == NULL && strstr(ntext, "nan") == NULL &&
		    strstr(ntext, "NaN") == NULL && strstr(ntext, "NAN") == NULL)
			goto out;	/* !!float 0x10 and the like: no oracle */
		break;
	default:
		o = 0;	/* null, bool, string: never an integer */
		break;
	}
	if (o != 1) {
		if (valid)
			violated("integer field", text, "not a whole number in int64, yet valid");
		goto out;
	}
	{
		long long w = strtoll(want, NULL, 10);
		bool in_range = w >= fields[f].lo && w <= fields[f].hi;

		if (valid != in_range)
			violated("integer field", text, valid ? "valid outside the field's range" :
				 "refused although a whole number in range");
		if (valid) {
			snprintf(got, sizeof(got), "%lld", (long long)model_value(s, f));
			if (strcmp(got, want))
				violated("integer field", text, got);
		}
	}
out:
	arena_release(&a);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char text[MAX_TEXT + 1];
	size_t k;

	if (size < 1 || size - 1 > MAX_TEXT)
		return 0;
	/* one line of text: a line break would change the template's shape */
	for (k = 1; k < size; k++)
		if (data[k] == '\n' || data[k] == '\r' || data[k] == '\0')
			return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	check((enum field)(data[0] % F_ALL), text);
	return 0;
}
