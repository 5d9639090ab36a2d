/*
 * test_schema.c - the JSON Schema validator: the GPUSite schema and its
 * messages, draft-07 keyword semantics the official suite does not pin
 * down (positions, paths, messages, limits), patterns (ECMA-262, and
 * RE2 in Kubernetes structural schemas; the dialects themselves are
 * tests/unit/test_regex.c's), structural schemas and the upstream CRDs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <cmocka.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "json/json.h"
#include "node/node.h"
#include "schema/schema.h"
#include "schema/schema_int.h"
#include "yamlio/yamlio.h"

#include "testutil.h"

static const struct yamlio_limits big_limits = {
	.max_bytes = YAMLIO_MAX_BYTES,
	.max_depth = 512,
	.max_nodes = 10000000,
	.max_scalar = 1u << 20,
	.max_docs = 100,
	.max_key = 1024,
};

static struct node *
yaml(const char *text)
{
	struct yamlio_docs docs = testutil_yaml_docs("t.yaml", text, &big_limits);

	assert_int_equal(docs.count, 1);
	return docs.docs[0];
}

static struct node *
json(const char *text)
{
	struct node *n = json_parse(&A, &D, "TEST", "t.json", text, strlen(text));

	assert_non_null(n);
	return n;
}

static struct schema *
compile(const char *schema_json)
{
	size_t before = D.count;
	struct schema *s = schema_compile(&A, &D, "TEST", json(schema_json));

	if (!s && D.count > before)
		print_error("compile: %s\n", D.items[before].msg);
	assert_non_null(s);
	assert_int_equal(D.count, before);
	return s;
}

static struct schema *
compile_openapi(const char *schema_yaml)
{
	size_t before = D.count;
	struct schema *s = schema_compile_openapi(&A, &D, "TEST", yaml(schema_yaml));

	assert_non_null(s);
	assert_int_equal(D.count, before);
	return s;
}

/* Validate; check that schema_accepts() agrees; return the diag count. */
static size_t
check(const struct schema *s, const struct node *doc)
{
	size_t before = D.count;
	int rc = schema_validate(s, &A, &D, "GS003", doc);

	assert_int_equal(rc == 0, schema_accepts(s, doc));
	assert_int_equal(rc == 0, D.count == before);
	return D.count - before;
}

static const struct diag *
find_diag(const char *path)
{
	size_t k;

	for (k = 0; k < D.count; k++)
		if (strcmp(D.items[k].path, path) == 0)
			return &D.items[k];
	print_error("no diagnostic with path '%s'; have:\n", path);
	for (k = 0; k < D.count; k++)
		print_error("  %u:%u %s: %s\n", D.items[k].at.line, D.items[k].at.col,
			    D.items[k].path, D.items[k].msg);
	fail();
	return NULL;
}

#define SITE                                                                                       \
	"apiVersion: gpusite.io/v1alpha1\n"                                                        \
	"kind: GPUSite\n"                                                                          \
	"metadata:\n"                                                                              \
	"  name: seoul-dc1\n"                                                                      \
	"spec:\n"                                                                                  \
	"  cluster:\n"                                                                             \
	"    name: my-hybrid-cluster\n"                                                            \
	"    region: us-west-2\n"                                                                  \
	"    provisioner: %s\n"                                                                    \
	"  nodeGroups:\n"                                                                          \
	"    - name: rack-a\n"                                                                     \
	"      gpu: {model: h200, perNode: 8}\n"                                                   \
	"      nodes: [gpu-a-01]\n"                                                                \
	"      credentials:\n"                                                                     \
	"        iamRolesAnywhere:\n"                                                              \
	"          trustAnchorArn: "                                                               \
	"arn:aws:rolesanywhere:us-west-2:111122223333:trust-anchor/1f2e\n"                         \
	"          profileArn: arn:aws:rolesanywhere:us-west-2:111122223333:profile/9a8b\n"        \
	"          roleArn: arn:aws:iam::111122223333:role/HybridNodesRole\n"                      \
	"    - name: rack-b\n"                                                                     \
	"      gpu: {model: h200, perNode: %s}\n"                                                  \
	"      count: 2\n"                                                                         \
	"      credentials:\n"                                                                     \
	"        ssm:\n"                                                                           \
	"          activationId: 4b2c1a3e-5d6f-4a7b-8c9d-0e1f2a3b4c5d\n"                           \
	"          activationCodeEnv: SSM_ACTIVATION_CODE_RACK_B\n"                                \
	"  gpuStack:\n"                                                                            \
	"    chart:\n"                                                                             \
	"      %s: 0.17.1\n"                                                                       \
	"  fallback:\n"                                                                            \
	"    enabled: %s\n"                                                                        \
	"    instanceTypes: [g6.12xlarge, g6e.12xlarge]\n"                                         \
	"    %s: 16\n"

static struct node *
site(const char *provisioner, const char *per_node, const char *version_key, const char *enabled,
     const char *limit_key)
{
	return yaml(arena_printf(&A, SITE, provisioner, per_node, version_key, enabled, limit_key));
}

static const struct schema *
gpusite(void)
{
	const struct schema *s = schema_gpusite(&A, &D);

	assert_non_null(s);
	assert_int_equal(D.count, 0);
	return s;
}

/* ------------------------------------------------------------------ */
/* The GPUSite schema */

static void
test_schema__gpusite_compiles_once(void **state)
{
	const struct schema *s1, *s2;

	(void)state;
	s1 = gpusite();
	s2 = schema_gpusite(&A, &D);
	assert_ptr_equal(s1, s2);
	assert_true(schema_gpusite_json_len > 1000);
	assert_int_equal(strlen(schema_gpusite_json), schema_gpusite_json_len);
}

static void
test_schema__gpusite_compiles_no_pattern_up_front(void **state)
{
	unsigned long before = schema_pattern_compiles(), after_compile;

	(void)state;
	/* The first schema_gpusite() of the process: patterns are
	 * compiled the first time a value meets them, not before. */
	gpusite();
	after_compile = schema_pattern_compiles();
	assert_int_equal(after_compile, before);
	assert_int_equal(check(gpusite(), site("karpenter", "8", "version", "true", "gpuLimit")),
			 0);
	assert_true(schema_pattern_compiles() > after_compile);
}

static void
test_schema__gpusite_every_pattern_compiles(void **state)
{
	struct node *own = json_parse(&A, &D, "TEST", "gpusite.json", schema_gpusite_json,
				      schema_gpusite_json_len);

	(void)state;
	/* schema_gpusite() compiles its patterns lazily and cannot report
	 * one that fails; an eager compile of the same document proves
	 * every one of them compiles. */
	assert_non_null(own);
	assert_non_null(schema_compile(&A, &D, "TEST", own));
	assert_int_equal(D.count, 0);
}

/* The same tree: kinds, types, texts, values, order, positions. */
static void
same_tree(const struct node *x, const struct node *y)
{
	size_t k;

	assert_non_null(x);
	assert_non_null(y);
	assert_int_equal(x->kind, y->kind);
	assert_int_equal(x->at.line, y->at.line);
	assert_int_equal(x->at.col, y->at.col);
	assert_string_equal(x->at.file ? x->at.file : "", y->at.file ? y->at.file : "");
	switch (x->kind) {
	case NODE_SCALAR:
		assert_int_equal(x->type, y->type);
		assert_int_equal(x->scalar.len, y->scalar.len);
		assert_memory_equal(x->scalar.text, y->scalar.text, x->scalar.len + 1);
		assert_true(x->scalar.i == y->scalar.i);
		assert_true(x->scalar.f == y->scalar.f ||
			    (x->scalar.f != x->scalar.f && y->scalar.f != y->scalar.f));
		break;
	case NODE_SEQ:
		assert_int_equal(x->seq.count, y->seq.count);
		for (k = 0; k < x->seq.count; k++)
			same_tree(x->seq.items[k], y->seq.items[k]);
		break;
	case NODE_MAP:
		assert_int_equal(x->map.count, y->map.count);
		for (k = 0; k < x->map.count; k++) {
			same_tree(x->map.pairs[k].key, y->map.pairs[k].key);
			same_tree(x->map.pairs[k].value, y->map.pairs[k].value);
		}
		break;
	}
}

static void
same_as_json_parse(const char *text, size_t len)
{
	struct node *direct = schema_json_read(&A, "f.json", text, len);
	struct node *parsed = json_parse(&A, &D, "TEST", "f.json", text, len);

	assert_int_equal(D.count, 0);
	same_tree(direct, parsed);
}

static void
test_schema__direct_read_builds_the_json_parse_tree(void **state)
{
	static const char *texts[] = {
		"{}",
		"[]",
		" { \"a\" : [1, -2, 0, 1.5, -0.25, 1e3, 2E-2, 1.0, 123456789012345678901234567890,"
		" true, false, null, \"\"], \"b\": {\"\": {}}, \"a\": 3 } ",
		"\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00b5\\u20AC\\ud83d\\ude00 plain \xc3\xa9\"",
		"{\"pattern\": \"^[0-9]+(\\\\.[0-9]+)?(ns|\\u00b5s)$\", \"minimum\": "
		"-9223372036854775808}",
		"-12",
		"\"x\"",
	};
	size_t k;

	(void)state;
	/* the file it is for, and the meta-schema */
	same_as_json_parse(schema_gpusite_json, schema_gpusite_json_len);
	same_as_json_parse(schema_draft07_json, strlen(schema_draft07_json));
	for (k = 0; k < sizeof(texts) / sizeof(texts[0]); k++)
		same_as_json_parse(texts[k], strlen(texts[k]));
	/* what it does not handle: NULL, and the caller uses json_parse() */
	assert_null(schema_json_read(&A, "f.json", "{\"a\": 1,}", 9));
	assert_null(schema_json_read(&A, "f.json", "{\"a\": 1} x", 10));
	assert_null(schema_json_read(&A, "f.json", "\"\\u0000\"", 8));
	assert_null(schema_json_read(&A, "f.json", "\"\\ud800\"", 8));
	assert_null(schema_json_read(&A, "f.json", "\"a\tb\"", 5));
	assert_null(schema_json_read(&A, "f.json", "\"\xff\"", 3));
	assert_null(schema_json_read(&A, "f.json", "", 0));
	assert_null(schema_json_read(&A, "f.json", "[1e999]", 7));
}

/*
 * The static tables of the built-in schema against the runtime
 * compiler's result for the same schema, field by field: a walk of both
 * graphs in step, each pair of schemas compared once (the graphs have
 * cycles: a $ref to a definition that contains it).
 */
struct walk {
	const struct schema **x, **y; /* the pairs met so far */
	size_t n, alloc;
};

static void same_schema(struct walk *w, const struct schema *x, const struct schema *y);

static void
same_str(const char *x, const char *y)
{
	assert_true((x == NULL) == (y == NULL));
	if (x)
		assert_string_equal(x, y);
}

static void
same_strs(const char **x, const char **y, size_t n)
{
	size_t k;

	assert_true((x == NULL) == (y == NULL));
	for (k = 0; x && k < n; k++)
		same_str(x[k], y[k]);
}

static void
same_node(const struct node *x, const struct node *y)
{
	assert_true((x == NULL) == (y == NULL));
	if (x)
		same_tree(x, y);
}

static void
same_sprops(struct walk *w, const struct sprop *x, const struct sprop *y, size_t n)
{
	size_t k;

	assert_true((x == NULL) == (y == NULL));
	for (k = 0; x && k < n; k++) {
		same_str(x[k].name, y[k].name);
		same_schema(w, x[k].s, y[k].s);
	}
}

static void
same_schemas(struct walk *w, struct schema **x, struct schema **y, size_t n)
{
	size_t k;

	assert_true((x == NULL) == (y == NULL));
	for (k = 0; x && k < n; k++)
		same_schema(w, x[k], y[k]);
}

/* The keywords that hold other schemas: the arrays. */
static void
same_schema_arrays(struct walk *w, const struct schema *x, const struct schema *y)
{
	size_t k;

	same_sprops(w, x->props, y->props, x->nprops);
	same_sprops(w, x->sorted, y->sorted, x->nprops);
	assert_true((x->pprops == NULL) == (y->pprops == NULL));
	for (k = 0; k < x->npprops; k++) {
		/* the same entry of the pattern cache */
		assert_ptr_equal(x->pprops[k].re, y->pprops[k].re);
		same_str(x->pprops[k].src, y->pprops[k].src);
		same_schema(w, x->pprops[k].s, y->pprops[k].s);
	}
	assert_true((x->deps == NULL) == (y->deps == NULL));
	for (k = 0; k < x->ndeps; k++) {
		same_str(x->deps[k].name, y->deps[k].name);
		assert_int_equal(x->deps[k].nreq, y->deps[k].nreq);
		same_strs(x->deps[k].req, y->deps[k].req, x->deps[k].nreq);
		same_schema(w, x->deps[k].s, y->deps[k].s);
	}
	same_schemas(w, x->tuple, y->tuple, x->ntuple);
	same_schemas(w, x->all_of, y->all_of, x->nall);
	same_schemas(w, x->any_of, y->any_of, x->nany);
	same_schemas(w, x->one_of, y->one_of, x->none);
}

static void
same_schema(struct walk *w, const struct schema *x, const struct schema *y)
{
	size_t k;

	assert_true((x == NULL) == (y == NULL));
	if (!x)
		return;
	for (k = 0; k < w->n; k++)
		if (w->x[k] == x) {
			/* met before: the same partner (the same shape) */
			assert_ptr_equal(w->y[k], y);
			return;
		}
	if (w->n == w->alloc) {
		w->alloc = w->alloc ? 2 * w->alloc : 64;
		w->x = realloc(w->x, w->alloc * sizeof(*w->x));
		w->y = realloc(w->y, w->alloc * sizeof(*w->y));
		assert_non_null(w->x);
		assert_non_null(w->y);
	}
	w->x[w->n] = x;
	w->y[w->n++] = y;
	same_str(x->where, y->where);
	assert_int_equal(x->is_bool, y->is_bool);
	assert_int_equal(x->bool_val, y->bool_val);
	assert_int_equal(x->types, y->types);
	same_str(x->title, y->title);
	same_str(x->description, y->description);
	assert_int_equal(x->nprops, y->nprops);
	assert_int_equal(x->npprops, y->npprops);
	assert_int_equal(x->nrequired, y->nrequired);
	same_strs(x->required, y->required, x->nrequired);
	assert_int_equal(x->ndeps, y->ndeps);
	assert_true(x->min_props == y->min_props && x->max_props == y->max_props);
	assert_int_equal(x->ntuple, y->ntuple);
	assert_int_equal(x->is_tuple, y->is_tuple);
	assert_true(x->min_items == y->min_items && x->max_items == y->max_items);
	assert_int_equal(x->unique, y->unique);
	assert_true(x->min_len == y->min_len && x->max_len == y->max_len);
	assert_ptr_equal(x->pattern, y->pattern);
	same_str(x->pattern_src, y->pattern_src);
	assert_int_equal(x->format_regex, y->format_regex);
	same_node(x->minimum, y->minimum);
	same_node(x->maximum, y->maximum);
	same_node(x->xminimum, y->xminimum);
	same_node(x->xmaximum, y->xmaximum);
	same_node(x->multiple_of, y->multiple_of);
	same_node(x->const_v, y->const_v);
	same_node(x->enum_v, y->enum_v);
	assert_int_equal(x->nall, y->nall);
	assert_int_equal(x->nany, y->nany);
	assert_int_equal(x->none, y->none);
	assert_int_equal(x->nullable, y->nullable);
	assert_int_equal(x->preserve, y->preserve);
	assert_int_equal(x->embedded, y->embedded);
	assert_int_equal(x->strict, y->strict);
	assert_int_equal(x->list_type, y->list_type);
	assert_int_equal(x->nmap_keys, y->nmap_keys);
	same_strs(x->map_keys, y->map_keys, x->nmap_keys);
	assert_int_equal(x->int_bits, y->int_bits);
	same_schema(w, x->ref, y->ref);
	same_schema(w, x->addl, y->addl);
	same_schema(w, x->propnames, y->propnames);
	same_schema(w, x->items, y->items);
	same_schema(w, x->addl_items, y->addl_items);
	same_schema(w, x->contains, y->contains);
	same_schema(w, x->not_s, y->not_s);
	same_schema(w, x->if_s, y->if_s);
	same_schema(w, x->then_s, y->then_s);
	same_schema(w, x->else_s, y->else_s);
	same_schema_arrays(w, x, y);
}

static void
test_schema__gpusite_tables_are_the_compiled_schema(void **state)
{
	const struct schema *tables = gpusite();
	const struct schema *compiled = schema_gpusite_compile(&A, &D);
	struct walk w = { NULL, NULL, 0, 0 };

	(void)state;
	assert_non_null(compiled);
	assert_int_equal(D.count, 0);
	assert_ptr_not_equal(tables, compiled);
	same_schema(&w, tables, compiled);
	/* the whole schema: its definitions and their patterns */
	assert_true(w.n > 100);
	assert_true(schema_gpusite_npatterns > 10);
	free(w.x);
	free(w.y);
}

static void
test_schema__gpusite_is_a_valid_draft07_schema(void **state)
{
	struct schema *meta = compile("{\"$ref\": \"http://json-schema.org/draft-07/schema#\"}");
	struct node *own = json_parse(&A, &D, "TEST", "gpusite.json", schema_gpusite_json,
				      schema_gpusite_json_len);

	(void)state;
	assert_non_null(own);
	assert_int_equal(check(meta, own), 0);
	/* and the meta-schema is not a rubber stamp */
	assert_int_equal(check(meta, json("{\"type\": 12}")), 1);
	assert_int_equal(check(meta, json("{\"properties\": {\"a\": 3}}")), 1);
}

static void
test_schema__valid_site_has_no_diagnostic(void **state)
{
	(void)state;
	assert_int_equal(check(gpusite(), site("karpenter", "8", "version", "true", "gpuLimit")),
			 0);
}

static void
test_schema__unknown_field_at_key_with_suggestion(void **state)
{
	const struct diag *dg;

	(void)state;
	assert_int_equal(check(gpusite(), site("karpenter", "8", "version", "true", "gpuLimt")), 1);
	dg = find_diag("spec.fallback.gpuLimt");
	assert_string_equal(dg->msg, "unknown field 'gpuLimt' in spec.fallback "
				     "(did you mean 'gpuLimit'?)");
	assert_string_equal(dg->rule, "GS003");
	assert_int_equal(dg->level, DIAG_ERROR);
	assert_int_equal(dg->at.line, 32);
	assert_int_equal(dg->at.col, 5); /* the key, not the value */
	/* the if/else makes gpuLimit required when the fallback is enabled;
	 * the misspelling is one mistake, said at the typo only */
	assert_int_equal(D.count, 1);
}

static void
test_schema__maximum_message_and_path(void **state)
{
	const struct diag *dg;

	(void)state;
	assert_int_equal(check(gpusite(), site("karpenter", "32", "version", "true", "gpuLimit")),
			 1);
	dg = find_diag("spec.nodeGroups[1].gpu.perNode");
	assert_string_equal(dg->msg, "spec.nodeGroups[1].gpu.perNode is 32; the maximum is 16");
	assert_int_equal(dg->at.line, 20);
	assert_int_equal(dg->at.col, 35);
}

static void
test_schema__missing_required_at_the_mapping(void **state)
{
	const struct diag *dg;

	(void)state;
	/* a misspelt required field: one error, at the typo, not a second
	 * "missing required field" at the mapping */
	assert_int_equal(check(gpusite(), site("karpenter", "8", "versions", "true", "gpuLimit")),
			 1);
	dg = find_diag("spec.gpuStack.chart.versions");
	assert_string_equal(dg->msg, "unknown field 'versions' in spec.gpuStack.chart "
				     "(did you mean 'version'?)");
	/* a missing field with no typo beside it is still said at the mapping */
	diags_init(&D, &A);
	assert_int_equal(check(gpusite(), site("karpenter", "8", "tag", "true", "gpuLimit")), 2);
	dg = find_diag("spec.gpuStack.chart.version");
	assert_string_equal(dg->msg, "missing required field 'version' in spec.gpuStack.chart");
	assert_int_equal(dg->at.line, 28);
	assert_int_equal(dg->at.col, 7);
}

static void
test_schema__enum_message(void **state)
{
	const struct diag *dg;

	(void)state;
	assert_int_equal(check(gpusite(), site("karpentr", "8", "version", "true", "gpuLimit")), 1);
	dg = find_diag("spec.cluster.provisioner");
	assert_string_equal(dg->msg, "spec.cluster.provisioner must be one of: karpenter, "
				     "auto-mode (got 'karpentr'; did you mean 'karpenter'?)");
	assert_int_equal(dg->at.line, 9);
	assert_int_equal(dg->at.col, 18);
	D.count = 0;
	assert_int_equal(check(gpusite(), site("fargate", "8", "version", "true", "gpuLimit")), 1);
	assert_string_equal(D.items[0].msg, "spec.cluster.provisioner must be one of: "
					    "karpenter, auto-mode (got 'fargate')");
}

static void
test_schema__fallback_limit_unless_disabled(void **state)
{
	const struct schema *s = gpusite();
	struct node *doc, *fb;

	(void)state;
	/* enabled: false lifts the requirement (the if/else) */
	assert_int_equal(check(s, site("karpenter", "8", "version", "false", "minGpuMemoryMiB")),
			 0);
	assert_int_equal(check(s, site("karpenter", "8", "version", "true", "minGpuMemoryMiB")), 1);
	assert_string_equal(find_diag("spec.fallback.gpuLimit")->msg,
			    "missing required field 'gpuLimit' in spec.fallback");
	/* enabled left out means enabled */
	doc = site("karpenter", "8", "version", "true", "minGpuMemoryMiB");
	fb = node_map_get(node_map_get(doc, "spec"), "fallback");
	assert_string_equal(fb->map.pairs[0].key->scalar.text, "enabled");
	fb->map.pairs++;
	fb->map.count--;
	D.count = 0;
	assert_int_equal(check(s, doc), 1);
	assert_string_equal(D.items[0].path, "spec.fallback.gpuLimit");
	D.count = 0;
	assert_int_equal(check(s, site("karpenter", "8", "version", "\"no\"", "gpuLimit")), 1);
	assert_string_equal(D.items[0].msg, "spec.fallback.enabled must be a boolean "
					    "(got string 'no')");
}

static void
test_schema__type_errors_say_how_to_fix(void **state)
{
	const struct schema *s = gpusite();

	(void)state;
	assert_int_equal(check(s, site("karpenter", "\"8\"", "version", "true", "gpuLimit")), 1);
	assert_string_equal(D.items[0].msg, "spec.nodeGroups[1].gpu.perNode must be an "
					    "integer (got string '8'); remove the quotes");
	D.count = 0;
	assert_int_equal(check(s, site("1.5", "8", "version", "true", "gpuLimit")), 1);
	assert_string_equal(D.items[0].msg,
			    "spec.cluster.provisioner must be a string "
			    "(got number 1.5); to mean the text, quote it: \"1.5\"");
	D.count = 0;
	assert_int_equal(check(s, json("[]")), 1);
	assert_string_equal(D.items[0].msg, "the document must be an object (got an array)");
	assert_string_equal(D.items[0].path, "");
}

/* What a semantic rule reports with its own ID must pass the schema. */
static void
test_schema__leaves_rule_checks_to_the_rules(void **state)
{
	const struct schema *s = gpusite();
	struct node *doc = site("karpenter", "8", "version", "true", "gpuLimit");
	struct node *spec = node_map_get(doc, "spec");
	struct node *g0 = node_map_get(spec, "nodeGroups")->seq.items[0];
	struct node *creds = node_map_get(g0, "credentials");
	struct node *labels = node_new_map(&A, g0->at);
	struct node *pl = node_new_map(&A, spec->at);

	(void)state;
	/* GS011 both credentials, GS013 node name, GS020/GS023 labels,
	 * GS030 chart version, GS040 instance types, GS052 namespaces */
	node_map_add(
		&A, creds, "ssm",
		node_clone(&A,
			   node_map_get(node_map_get(node_map_get(spec, "nodeGroups")->seq.items[1],
						     "credentials"),
					"ssm")));
	node_map_get(g0, "nodes")->seq.items[0] = node_new_str(&A, g0->at, "GPU_A!");
	node_map_add_str(&A, labels, "kubernetes.io/role", "x y");
	node_map_add(&A, g0, "labels", labels);
	node_map_set(&A, node_map_get(node_map_get(spec, "gpuStack"), "chart"), "version",
		     node_new_str(&A, spec->at, "latest"));
	node_map_get(node_map_get(spec, "fallback"), "instanceTypes")->seq.items[0] =
		node_new_str(&A, spec->at, "m5.large");
	node_map_add(&A, pl, "namespaces", node_new_seq(&A, spec->at));
	node_map_add(&A, spec, "placement", pl);
	assert_int_equal(check(s, doc), 0);
}

/* ------------------------------------------------------------------ */
/* Keyword semantics and messages */

static void
test_schema__integer_means_zero_fraction(void **state)
{
	struct schema *s = compile("{\"type\": \"integer\", \"minimum\": 1}");

	(void)state;
	assert_int_equal(check(s, json("1.0")), 0);
	assert_int_equal(check(s, json("3")), 0);
	assert_int_equal(check(s, json("1.5")), 1);
	assert_string_equal(D.items[0].msg, "the document must be an integer (got number 1.5)");
	assert_int_equal(check(s, json("\"2\"")), 1);
	assert_int_equal(check(s, json("0.0")), 1);
	assert_string_equal(D.items[2].msg, "the document is 0; the minimum is 1");
}

static void
test_schema__length_counts_code_points(void **state)
{
	struct schema *s = compile("{\"minLength\": 2, \"maxLength\": 3}");

	(void)state;
	assert_int_equal(check(s, json("\"\\u00e9\\u00e9\\u00e9\"")), 0); /* 6 bytes, 3 chars */
	assert_int_equal(check(s, json("\"\\u00e9\"")), 1);
	assert_string_equal(D.items[0].msg, "the document '\xc3\xa9' is 1 character long; "
					    "the minimum is 2");
	assert_int_equal(check(s, json("\"abcd\"")), 1);
	assert_int_equal(check(s, json("7")), 0); /* not a string: n/a */
}

static void
test_schema__patterns_are_ecma_and_unanchored(void **state)
{
	(void)state;
	assert_int_equal(check(compile("{\"pattern\": \"\\\\d+\"}"), json("\"abc12\"")), 0);
	assert_int_equal(check(compile("{\"pattern\": \"\\\\d+\"}"), json("\"abc\"")), 1);
	assert_int_equal(check(compile("{\"pattern\": \"^(?:a|b)\\\\w$\"}"), json("\"b_\"")), 0);
	assert_int_equal(check(compile("{\"pattern\": \"^(?:a|b)\\\\w$\"}"), json("\"c_\"")), 1);
	/* '.' stops at line terminators; it takes one code point */
	assert_int_equal(check(compile("{\"pattern\": \"^.$\"}"), json("\"\\n\"")), 1);
	assert_int_equal(check(compile("{\"pattern\": \"^.$\"}"), json("\"\\u00e9\"")), 0);
	/* \s knows the no-break space */
	assert_int_equal(check(compile("{\"pattern\": \"^\\\\s$\"}"), json("\"\\u00a0\"")), 0);
	/* lazy quantifiers, lookahead, \b */
	assert_int_equal(check(compile("{\"pattern\": \"^a+?b$\"}"), json("\"aab\"")), 0);
	assert_int_equal(check(compile("{\"pattern\": \"^(?!kube)\"}"), json("\"kubelet\"")), 1);
	assert_int_equal(check(compile("{\"pattern\": \"^(?!kube)\"}"), json("\"node\"")), 0);
	assert_int_equal(check(compile("{\"pattern\": \"\\\\bgpu\\\\b\"}"), json("\"a gpu\"")), 0);
	/* a '{' that is not a quantifier is a literal (Annex B) */
	assert_int_equal(check(compile("{\"pattern\": \"^a{$\"}"), json("\"a{\"")), 0);
	/* patterns only apply to strings */
	assert_int_equal(check(compile("{\"pattern\": \"^a$\"}"), json("12")), 0);
	/* patternProperties, the same dialect */
	assert_int_equal(check(compile("{\"patternProperties\": {\"^\\\\p{Lu}\": "
				       "{\"type\": \"integer\"}}}"),
			       json("{\"\\u00c9t\\u00e9\": \"x\", \"\\u00e9t\\u00e9\": \"x\"}")),
			 1);
	assert_string_equal(D.items[D.count - 1].path, "[\"\xc3\x89t\xc3\xa9\"]");
}

static void
test_schema__invalid_pattern_fails_compile(void **state)
{
	(void)state;
	/* what ECMA-262 has not, at the place it is written */
	assert_null(schema_compile(&A, &D, "GS003", json("{\"pattern\": \"^x\\\\Z\"}")));
	assert_int_equal(D.count, 1);
	assert_string_equal(D.items[0].path, "#/pattern");
	assert_string_equal(D.items[0].msg,
			    "pattern '^x\\Z' is not a valid regular expression: ECMA-262 has no "
			    "such escape (PCRE2 would read it as its own) (at offset 2)");
	assert_null(schema_compile(&A, &D, "GS003", json("{\"patternProperties\": {\"(\": {}}}")));
	assert_int_equal(D.count, 2);
	assert_string_equal(D.items[1].msg, "pattern '(' is not a valid regular expression: "
					    "missing closing parenthesis (at offset 1)");
	/* a Kubernetes schema is RE2: no lookahead */
	assert_null(schema_compile_openapi(&A, &D, "GS003",
					   yaml("type: object\n"
						"properties:\n"
						"  name: {type: string, pattern: '^(?!kube)'}\n")));
	assert_int_equal(D.count, 3);
	assert_string_equal(D.items[2].path, "#/properties/name/pattern");
	assert_string_equal(D.items[2].msg,
			    "pattern '^(?!kube)' is not a valid regular expression: "
			    "RE2 has no lookahead or lookbehind (at offset 1)");
}

/* A pattern that backtracks without end gives up at the match limit: the
 * value is reported, in bounded time, and so is a field name. */
static void
test_schema__pattern_match_limit_is_a_finding(void **state)
{
	struct schema *s = compile("{\"pattern\": \"^(a+)+$\"}");
	struct schema *pp = compile("{\"patternProperties\": {\"^(a|a)+$\": {}}, "
				    "\"additionalProperties\": false}");
	char value[80], doc[128];

	(void)state;
	memset(value, 'a', 40);
	value[40] = '!';
	value[41] = '\0';
	snprintf(doc, sizeof(doc), "\"%s\"", value);
	assert_int_equal(check(s, json(doc)), 1);
	assert_string_equal(D.items[D.count - 1].msg,
			    "the document 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!' could not be "
			    "checked against the pattern ^(a+)+$: the match gave up after 1000000 "
			    "steps; use a shorter value");
	assert_false(schema_accepts(s, json(doc)));
	assert_int_equal(check(s, json("\"aaaa\"")), 0);
	snprintf(doc, sizeof(doc), "{\"%s\": 1}", value);
	assert_int_equal(check(pp, json(doc)), 1);
	assert_non_null(strstr(D.items[D.count - 1].msg, "could not be checked against the "
							 "pattern ^(a|a)+$"));
	assert_int_equal(check(pp, json("{\"aaa\": 1}")), 0);
}

/* format: regex is asserted in draft-07 schemas (an ECMA-262 pattern),
 * an annotation in Kubernetes ones; other formats are annotations. */
static void
test_schema__format_regex_is_asserted(void **state)
{
	struct schema *s = compile("{\"format\": \"regex\"}");

	(void)state;
	assert_int_equal(check(s, json("\"([abc])+\\\\s+$\"")), 0);
	assert_int_equal(check(s, json("\"^(abc]\"")), 1);
	assert_string_equal(D.items[D.count - 1].msg,
			    "the document '^(abc]' is not a valid regular expression: missing "
			    "closing parenthesis (at offset 6)");
	assert_int_equal(check(s, json("\"^\\\\S(|(.|\\\\n)*\\\\S)\\\\Z\"")), 1);
	assert_int_equal(check(s, json("12")), 0);
	assert_int_equal(check(compile_openapi("type: string\nformat: regex\n"), json("\"(\"")), 0);
	assert_int_equal(check(compile("{\"format\": \"email\"}"), json("\"nope\"")), 0);
}

static void
test_schema__unsupported_keywords_fail_compile(void **state)
{
	(void)state;
	assert_null(schema_compile(&A, &D, "X", json("{\"unevaluatedProperties\": false}")));
	assert_non_null(strstr(D.items[0].msg, "'unevaluatedProperties' belongs to a later"));
	assert_null(schema_compile(
		&A, &D, "X",
		json("{\"$schema\": \"https://json-schema.org/draft/2020-12/schema\"}")));
	assert_non_null(strstr(D.items[1].msg, "implements draft-07"));
	assert_null(schema_compile(&A, &D, "X", json("{\"type\": \"integr\"}")));
	assert_string_equal(D.items[2].msg, "unknown type 'integr'");
	assert_null(schema_compile(&A, &D, "X", json("{\"minItems\": -1}")));
	assert_null(schema_compile(&A, &D, "X", json("{\"properties\": {\"a\": 3}}")));
	assert_int_equal(D.count, 5);
	/* format is an annotation: accepted, not asserted */
	assert_int_equal(check(compile("{\"format\": \"email\"}"), json("\"nope\"")), 0);
}

static void
test_schema__refs(void **state)
{
	struct schema *s;

	(void)state;
	assert_null(schema_compile(&A, &D, "X", json("{\"$ref\": \"#/definitions/nope\"}")));
	assert_non_null(strstr(D.items[0].msg, "cannot resolve $ref '#/definitions/nope'"));
	assert_null(schema_compile(&A, &D, "X", json("{\"$ref\": \"http://example.com/s.json\"}")));
	assert_non_null(strstr(D.items[1].msg, "remote references are not fetched"));
	D.count = 0;
	/* escaped pointers, nested refs */
	s = compile("{\"definitions\": {\"a/b\": {\"$ref\": \"#/definitions/c~0d\"},"
		    " \"c~d\": {\"type\": \"string\"}},"
		    " \"properties\": {\"x\": {\"$ref\": \"#/definitions/a~1b\"}}}");
	assert_int_equal(check(s, json("{\"x\": \"ok\"}")), 0);
	assert_int_equal(check(s, json("{\"x\": 1}")), 1);
	assert_string_equal(D.items[0].path, "x");
	/* a ref loop that never consumes the instance stops, with a message */
	s = compile("{\"$ref\": \"#\"}");
	assert_int_equal(check(s, json("{}")), 1);
	assert_non_null(strstr(D.items[1].msg, "nests too deep"));
}

static void
test_schema__oneof_reports_the_closest_branch(void **state)
{
	struct schema *s = compile("{\"oneOf\": ["
				   "{\"type\": \"string\"},"
				   "{\"type\": \"object\", \"required\": [\"a\", \"b\", \"c\"]}]}");

	(void)state;
	assert_int_equal(check(s, json("\"x\"")), 0);
	/* an object: the object branch, although the string one has fewer
	 * errors (one: the type) */
	assert_int_equal(check(s, json("{\"a\": 1}")), 2);
	assert_string_equal(D.items[0].msg, "missing required field 'b' in the document");
	assert_string_equal(D.items[1].msg, "missing required field 'c' in the document");
	s = compile("{\"anyOf\": [{\"required\": [\"a\", \"b\"]}, {\"required\": [\"c\"]}]}");
	assert_int_equal(check(s, json("{\"a\": 1}")), 1);
	assert_string_equal(D.items[2].msg, "missing required field 'b' in the document");
	s = compile("{\"oneOf\": [{\"minimum\": 1}, {\"maximum\": 5}]}");
	assert_int_equal(check(s, json("3")), 1);
	assert_non_null(strstr(D.items[3].msg, "matches more than one alternative"));
}

static void
test_schema__unique_items_at_scale(void **state)
{
	struct schema *s = compile("{\"uniqueItems\": true}");
	struct node *seq = node_new_seq(&A, (struct pos){ "t", 1, 1 });
	size_t k;

	(void)state;
	for (k = 0; k < 20000; k++)
		node_seq_push(&A, seq, node_new_int(&A, (struct pos){ "t", 2, 1 }, (int64_t)k * 7));
	assert_int_equal(check(s, seq), 0);
	node_seq_push(&A, seq, json("7.0")); /* 7 == 7.0 */
	assert_int_equal(check(s, seq), 1);
	assert_string_equal(D.items[0].msg, "[20000] repeats [1] (7); the items must be unique");
	assert_int_equal(check(s, json("[{\"a\": 1, \"b\": [1]}, {\"b\": [1], \"a\": 1.0}]")), 1);
	assert_int_equal(check(s, json("[{\"a\": 1}, {\"a\": 2}, [1], [1, 1], 1, true, \"1\"]")),
			 0);
}

static void
test_schema__echo_is_bounded_and_redacted(void **state)
{
	struct schema *s = compile("{\"const\": \"x\"}");
	char long_value[300];

	(void)state;
	memset(long_value, 'v', sizeof(long_value) - 1);
	long_value[sizeof(long_value) - 1] = '\0';
	assert_int_equal(check(s, node_new_str(&A, (struct pos){ 0 }, long_value)), 1);
	assert_true(strlen(D.items[0].msg) < 140);
	assert_non_null(strstr(D.items[0].msg, "vvv...'"));
	assert_int_equal(check(s, node_new_str(&A, (struct pos){ 0 },
					       "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")),
			 1);
	assert_string_equal(D.items[1].msg, "the document must be 'x' (got '<redacted>')");
	assert_int_equal(check(s, node_new_str(&A, (struct pos){ 0 }, "a\nb\x01")), 1);
	assert_string_equal(D.items[2].msg, "the document must be 'x' (got 'a\\nb\\x01')");
}

static void
test_schema__object_keywords(void **state)
{
	struct schema *s = compile(
		"{"
		"\"properties\": {\"name\": {\"type\": \"string\"}, \"no\": false},"
		"\"patternProperties\": {\"^x-\": {\"type\": \"integer\"}},"
		"\"additionalProperties\": {\"type\": \"boolean\"},"
		"\"propertyNames\": {\"maxLength\": 5},"
		"\"dependencies\": {\"name\": [\"id\"], \"id\": {\"required\": [\"kind\"]}},"
		"\"minProperties\": 1, \"maxProperties\": 3}");

	(void)state;
	assert_int_equal(check(s, json("{\"name\": \"n\", \"id\": true, \"kind\": false}")), 0);
	assert_int_equal(check(s, json("{\"x-a\": 1, \"flag\": true}")), 0);
	assert_int_equal(check(s, json("{\"x-a\": \"1\"}")), 1);
	assert_string_equal(D.items[0].path, "x-a");
	assert_int_equal(check(s, json("{\"other\": 3}")), 1);
	assert_string_equal(D.items[1].msg, "other must be a boolean (got integer 3)");
	assert_int_equal(check(s, json("{\"no\": 1}")), 1);
	assert_string_equal(D.items[2].msg, "field 'no' is not allowed in the document");
	assert_int_equal(check(s, json("{\"toolong\": true}")), 1);
	assert_string_equal(D.items[3].msg, "field name 'toolong' in the document "
					    "is 7 characters long; the maximum is 5");
	assert_int_equal(check(s, json("{\"name\": \"n\"}")), 1);
	assert_string_equal(D.items[4].msg, "field 'name' in the document requires "
					    "field 'id' beside it");
	assert_int_equal(check(s, json("{}")), 1);
	assert_string_equal(D.items[5].msg, "the document has 0 fields; at least 1 is required");
	assert_int_equal(check(s, json("{\"a\": true, \"b\": true, \"c\": true, \"d\": true}")), 1);
}

static void
test_schema__array_keywords(void **state)
{
	struct schema *s = compile("{\"items\": [{\"type\": \"string\"}, {\"type\": \"integer\"}],"
				   " \"additionalItems\": false, \"minItems\": 1,"
				   " \"contains\": {\"const\": 2}}");

	(void)state;
	assert_int_equal(check(s, json("[\"a\", 2]")), 0);
	assert_int_equal(check(s, json("[\"a\", 2, 3]")), 1);
	assert_string_equal(D.items[0].msg, "the document has 3 items; at most 2 are allowed");
	assert_string_equal(D.items[0].path, "[2]");
	assert_int_equal(check(s, json("[\"a\"]")), 1);
	assert_non_null(
		strstr(D.items[1].msg, "has no item that matches the schema at #/contains"));
	assert_int_equal(check(s, json("[]")), 2);
}

static void
test_schema__errors_are_capped(void **state)
{
	struct schema *s = compile("{\"additionalProperties\": false}");
	struct buf b;
	int k;

	(void)state;
	buf_init(&b, 0);
	assert_int_equal(buf_addch(&b, '{'), 0);
	for (k = 0; k < 2000; k++)
		assert_int_equal(buf_printf(&b, "%s\"k%d\": 1", k ? "," : "", k), 0);
	assert_int_equal(buf_addch(&b, '}'), 0);
	assert_int_equal(check(s, json(b.data)), 501);
	assert_non_null(strstr(D.items[500].msg, "more than 500 schema violations"));
	buf_release(&b);
}

static void test_schema__remote_refs_through_the_resolver(void **state);

/* ------------------------------------------------------------------ */
/* Kubernetes structural schemas */

static void
test_schema__openapi_nullable_int_or_string_format(void **state)
{
	struct schema *s =
		compile_openapi("type: object\n"
				"properties:\n"
				"  a: {type: string, nullable: true}\n"
				"  b: {x-kubernetes-int-or-string: true, anyOf: [{type: integer}, "
				"{type: string}]}\n"
				"  c: {type: integer, format: int32}\n"
				"  d: {type: number, minimum: 0, exclusiveMinimum: true}\n"
				"  e: {type: string, pattern: \"^(?i)(abort|warn)?$\"}\n");

	(void)state;
	assert_int_equal(check(s, yaml("{a: null, b: 10%, c: 2147483647, d: 0.5}")), 0);
	assert_int_equal(check(s, yaml("{b: 3}")), 0);
	assert_int_equal(check(s, yaml("{b: 1.5}")), 1);
	assert_int_equal(check(s, yaml("{c: 2147483648}")), 1);
	assert_string_equal(D.items[1].msg, "c is 2147483648; it does not fit in a "
					    "32-bit integer (int32)");
	assert_int_equal(check(s, yaml("{d: 0}")), 1);
	assert_string_equal(D.items[2].msg, "d is 0; it must be greater than 0");
	/* Go RE2's leading (?i), as CRDs write it; ECMA has no such group */
	assert_int_equal(check(s, yaml("{e: WARN}")), 0);
	assert_int_equal(check(s, yaml("{e: stop}")), 1);
	assert_null(schema_compile(&A, &D, "X", json("{\"pattern\": \"^(?i)a$\"}")));
}

static void
test_schema__openapi_unknown_fields(void **state)
{
	struct schema *s = compile_openapi(
		"type: object\n"
		"properties:\n"
		"  metadata: {type: object}\n"
		"  spec:\n"
		"    type: object\n"
		"    properties:\n"
		"      keep: {type: object, x-kubernetes-preserve-unknown-fields: true}\n"
		"      map: {type: object, additionalProperties: {type: string}}\n"
		"      plain: {type: object}\n"
		"      embedded:\n"
		"        type: object\n"
		"        x-kubernetes-embedded-resource: true\n"
		"        x-kubernetes-preserve-unknown-fields: true\n"
		"      choice:\n"
		"        type: object\n"
		"        properties: {a: {type: string}, b: {type: string}}\n"
		"        anyOf: [{required: [a]}, {properties: {b: {minLength: 1}}, required: "
		"[b]}]\n");

	(void)state;
	/* root metadata is ObjectMeta, checked by the API server itself */
	assert_int_equal(check(s, yaml("metadata: {name: x, labels: {a: b}}\n"
				       "spec: {keep: {any: [thing]}, map: {k: v},"
				       " embedded: {apiVersion: v1, kind: Pod, spec: {}},"
				       " choice: {b: x}}\n")),
			 0);
	assert_int_equal(check(s, yaml("spec: {plain: {x: 1}, choice: {a: x, c: y}, extra: 1}")),
			 3);
	assert_string_equal(find_diag("spec.extra")->msg,
			    "unknown field 'extra' in spec "
			    "(known fields: keep, map, plain, embedded, choice)");
	assert_string_equal(find_diag("spec.plain.x")->msg,
			    "unknown field 'x' in spec.plain: it takes no fields");
	assert_non_null(find_diag("spec.choice.c"));
}

static void
test_schema__openapi_list_types(void **state)
{
	struct schema *s = compile_openapi(
		"type: object\n"
		"properties:\n"
		"  set: {type: array, x-kubernetes-list-type: set, items: {type: string}}\n"
		"  map:\n"
		"    type: array\n"
		"    x-kubernetes-list-type: map\n"
		"    x-kubernetes-list-map-keys: [name, port]\n"
		"    items: {type: object, properties: {name: {type: string},"
		" port: {type: integer}, x: {type: string}}}\n");

	(void)state;
	assert_int_equal(
		check(s, yaml("{set: [a, b], map: [{name: a, port: 1}, {name: a, port: 2}]}")), 0);
	assert_int_equal(check(s, yaml("{set: [a, b, a]}")), 1);
	assert_string_equal(D.items[0].msg, "set[2] repeats set[0] ('a'); "
					    "x-kubernetes-list-type 'set' needs unique items");
	assert_int_equal(
		check(s, yaml("{map: [{name: a, port: 1, x: p}, {name: a, port: 1, x: q}]}")), 1);
	assert_string_equal(D.items[1].path, "map[1]");
}

/* ------------------------------------------------------------------ */
/* Upstream CRDs (../shared/upstream), skipped visibly when absent */

static const char *
upstream_dir(void)
{
	const char *top = getenv("TEST_TOP");
	const char *dir;
	struct stat st;

	dir = arena_printf(&A, "%s/../shared/upstream", top && *top ? top : ".");
	return stat(dir, &st) == 0 ? dir : NULL;
}

static void
skip_visibly(const char *name)
{
	printf("ok - %s # SKIP ../shared/upstream not found\n", name);
}

static struct node *
load_yaml_file(const char *path)
{
	struct yamlio_docs docs = { NULL, 0 };
	struct buf b;

	buf_init(&b, YAMLIO_MAX_BYTES);
	assert_int_equal(buf_read_file(&b, path), 0);
	assert_int_equal(
		yamlio_load(&docs, &A, &D, arena_strdup(&A, path), b.data, b.len, &big_limits), 0);
	buf_release(&b);
	assert_true(docs.count >= 1);
	return docs.docs[0];
}

/* The openAPIV3Schema of CRD version `version` (NULL: the first). */
static struct schema *
crd_schema(const char *path, const char *version)
{
	struct node *crd = load_yaml_file(path);
	struct node *versions = node_path(crd, "spec.versions");
	size_t k;

	assert_non_null(versions);
	for (k = 0; k < versions->seq.count; k++) {
		struct node *v = versions->seq.items[k];
		struct schema *s;

		if (version && strcmp(node_str(node_map_get(v, "name")), version))
			continue;
		s = schema_compile_openapi(&A, &D, "TEST", node_path(v, "schema.openAPIV3Schema"));
		if (!s)
			print_error("%s %s: %s\n", path, node_str(node_map_get(v, "name")),
				    D.count ? D.items[0].msg : "?");
		assert_non_null(s);
		return s;
	}
	fail_msg("no version %s in %s", version, path);
	return NULL;
}

static void
test_schema__upstream_crds_compile(void **state)
{
	static const char *const crds[] = {
		"karpenter/aws-provider/karpenter.sh_nodepools.yaml",
		"karpenter/aws-provider/karpenter.sh_nodeclaims.yaml",
		"karpenter/karpenter.sh_nodepools.yaml",
		"karpenter/karpenter.sh_nodeclaims.yaml",
		"karpenter/karpenter.k8s.aws_ec2nodeclasses.yaml",
		"nodeadm/eks-hybrid.node.eks.aws_nodeconfigs.yaml",
		"nodeadm/amazon-eks-ami.node.eks.aws_nodeconfigs.yaml",
		"argocd/application-crd.yaml",
		"argocd/applicationset-crd.yaml",
		"kyverno/policies.kyverno.io_mutatingpolicies.yaml",
		"kyverno/kyverno.io_clusterpolicies.yaml",
		"prometheus-operator/monitoring.coreos.com_prometheusrules.yaml",
	};
	const char *up = upstream_dir();
	size_t k, j, versions = 0;

	(void)state;
	if (!up) {
		skip_visibly("test_schema__upstream_crds_compile");
		return;
	}
	for (k = 0; k < sizeof(crds) / sizeof(crds[0]); k++) {
		const char *path = arena_printf(&A, "%s/%s", up, crds[k]);
		struct node *vs = node_path(load_yaml_file(path), "spec.versions");

		assert_non_null(vs);
		for (j = 0; j < vs->seq.count; j++) {
			struct node *root = node_path(vs->seq.items[j], "schema.openAPIV3Schema");

			if (!schema_compile_openapi(&A, &D, "TEST", root))
				fail_msg("%s: %s", crds[k], D.count ? D.items[0].msg : "?");
			versions++;
		}
	}
	assert_true(versions >= 12);
	assert_int_equal(D.count, 0);
}

static struct node *
load_json_file(const char *path)
{
	struct buf b;
	struct node *n;

	buf_init(&b, 16u << 20);
	assert_int_equal(buf_read_file(&b, path), 0);
	n = json_parse(&A, &D, "TEST", arena_strdup(&A, path), b.data, b.len);
	buf_release(&b);
	assert_non_null(n);
	return n;
}

/* Upstream JSON Schemas: SARIF 2.1.0 (draft-04 keywords, read the same
 * by draft-07) and the converted EKS Auto Mode NodeClass. */
static void
test_schema__upstream_json_schemas(void **state)
{
	const char *up = upstream_dir();
	struct schema *sarif, *nodeclass;

	(void)state;
	if (!up) {
		skip_visibly("test_schema__upstream_json_schemas");
		return;
	}
	sarif = schema_compile(
		&A, &D, "TEST",
		load_json_file(arena_printf(&A, "%s/sarif/sarif-schema-2.1.0.json", up)));
	assert_non_null(sarif);
	assert_int_equal(
		check(sarif, json("{\"version\": \"2.1.0\", \"runs\": [{"
				  "\"tool\": {\"driver\": {\"name\": \"gpusite\"}}, \"results\": [{"
				  "\"ruleId\": \"GS041\", \"message\": {\"text\": \"m\"}}]}]}")),
		0);
	assert_int_equal(check(sarif, json("{\"version\": \"2.0\", \"runs\": [{}]}")), 2);
	assert_non_null(find_diag("version"));
	assert_non_null(find_diag("runs[0].tool"));
	nodeclass = schema_compile(
		&A, &D, "TEST",
		load_json_file(arena_printf(
			&A, "%s/eks-auto-mode/eks.amazonaws.com_nodeclass_v1.schema.json", up)));
	assert_non_null(nodeclass);
}

#define NODEPOOL                                                                                   \
	"apiVersion: karpenter.sh/v1\n"                                                            \
	"kind: NodePool\n"                                                                         \
	"metadata:\n"                                                                              \
	"  name: seoul-dc1-gpu-fallback\n"                                                         \
	"  labels: {app.kubernetes.io/managed-by: gpusite}\n"                                      \
	"spec:\n"                                                                                  \
	"  template:\n"                                                                            \
	"    metadata:\n"                                                                          \
	"      labels: {node-type: cloud-gpu}\n"                                                   \
	"    spec:\n"                                                                              \
	"      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: gpu-fallback}\n" \
	"      requirements:\n"                                                                    \
	"        - key: node.kubernetes.io/instance-type\n"                                        \
	"          operator: %s\n"                                                                 \
	"          values: [g6.12xlarge, g6e.12xlarge]\n"                                          \
	"        - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}\n"         \
	"      taints:\n"                                                                          \
	"        - {key: nvidia.com/gpu, value: Exists, effect: NoSchedule}\n"                     \
	"      expireAfter: 720h\n"                                                                \
	"  disruption:\n"                                                                          \
	"    consolidationPolicy: %s\n"                                                            \
	"    consolidateAfter: 5m\n"                                                               \
	"  limits:\n"                                                                              \
	"    nvidia.com/gpu: %s\n"                                                                 \
	"  %s: 10\n"

static void
test_schema__nodepool_good_and_bad(void **state)
{
	const char *up = upstream_dir();
	struct schema *s;

	(void)state;
	if (!up) {
		skip_visibly("test_schema__nodepool_good_and_bad");
		return;
	}
	s = crd_schema(
		arena_printf(&A, "%s/karpenter/aws-provider/karpenter.sh_nodepools.yaml", up),
		"v1");
	assert_int_equal(check(s, yaml(arena_printf(&A, NODEPOOL, "In", "WhenEmptyOrUnderutilized",
						    "16", "weight"))),
			 0);
	assert_int_equal(check(s, yaml(arena_printf(&A, NODEPOOL, "Within", "WhenUnderutilized",
						    "lots", "wieght"))),
			 4);
	assert_string_equal(find_diag("spec.template.spec.requirements[0].operator")->msg,
			    "spec.template.spec.requirements[0].operator must be one of: "
			    "Gte, Lte, In, NotIn, Exists, DoesNotExist, Gt, Lt (got 'Within')");
	assert_non_null(strstr(find_diag("spec.disruption.consolidationPolicy")->msg,
			       "must be one of: WhenEmpty, WhenEmptyOrUnderutilized"));
	assert_non_null(strstr(find_diag("spec.limits[\"nvidia.com/gpu\"]")->msg,
			       "'lots' does not match the pattern"));
	assert_string_equal(find_diag("spec.wieght")->msg,
			    "unknown field 'wieght' in spec (did you mean 'weight'?)");
	assert_int_equal(find_diag("spec.wieght")->at.line, 25);
}

/* ------------------------------------------------------------------ */

static const struct node *
fake_remote(void *payload, struct arena *a, struct diags *d, const char *uri)
{
	(void)payload;
	if (strcmp(uri, "http://example.com/int.json") == 0) {
		static const char text[] = "{\"definitions\": {\"i\": {\"type\": \"integer\"}}}";

		return json_parse(a, d, "TEST", "int.json", text, strlen(text));
	}
	return NULL;
}

static void
test_schema__remote_refs_through_the_resolver(void **state)
{
	struct node *root = json("{\"$id\": \"http://example.com/root.json\","
				 " \"items\": {\"$ref\": \"int.json#/definitions/i\"}}");
	struct schema *s = schema_compile_with(&A, &D, "X", root, fake_remote, NULL);

	(void)state;
	assert_non_null(s);
	assert_int_equal(check(s, json("[1, 2]")), 0);
	assert_int_equal(check(s, json("[1, \"2\"]")), 1);
	assert_null(schema_compile(&A, &D, "X", root)); /* no resolver: refused */
}

static void
test_schema__validates_a_thousand_sites_fast(void **state)
{
	const struct schema *s = gpusite();
	struct node *doc = site("karpenter", "8", "version", "true", "gpuLimit");
	struct timespec t0, t1;
	double ms;
	int k;

	(void)state;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (k = 0; k < 1000; k++)
		assert_int_equal(schema_validate(s, &A, &D, "GS003", doc), 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
	printf("# 1000 site validations against the GPUSite schema: %.1f ms\n", ms);
	/* generous: sanitizer and valgrind builds run here too */
	assert_true(ms < 5000);
}

/* A schema of `levels` levels, each applying the next twice (allOf of
 * two $refs): 2^levels evaluations of its leaf. */
static struct schema *
fanout(int levels, const char *leaf)
{
	struct buf b;
	struct schema *s;

	buf_init(&b, 1 << 20);
	assert_int_equal(buf_printf(&b, "{\"$ref\": \"#/definitions/L0\", \"definitions\": {"), 0);
	for (int i = 0; i < levels; i++)
		assert_int_equal(
			buf_printf(&b,
				   "\"L%d\": {\"allOf\": [{\"$ref\": \"#/definitions/L%d\"}, "
				   "{\"$ref\": \"#/definitions/L%d\"}]}, ",
				   i, i + 1, i + 1),
			0);
	assert_int_equal(buf_printf(&b, "\"L%d\": %s}}", levels, leaf), 0);
	assert_int_equal(buf_add(&b, "", 1), 0);
	s = compile(b.data);
	buf_release(&b);
	return s;
}

/* Schemas a user gathers are bounded: steps per object and per run, a
 * deadline; past a bound the answer is -3 with nothing reported, never
 * a verdict; within them the verdict is the unbounded one. */
static void
test_schema__evaluation_is_bounded(void **state)
{
	struct schema *fail = fanout(22, "{\"type\": \"string\"}");
	struct schema *pass = fanout(22, "{\"type\": \"integer\"}");
	struct schema *few = fanout(4, "{\"type\": \"string\"}");
	struct schema_budget b = { SCHEMA_STEPS_PER_OBJECT, SCHEMA_STEPS_PER_RUN, 0, 0, NULL };
	size_t before = D.count;
	double t0 = schema_clock();

	(void)state;
	assert_int_equal(schema_validate_bounded(fail, &A, &D, "X", json("1"), &b), -3);
	assert_non_null(strstr(b.why, "limit of steps of one object"));
	assert_int_equal(schema_validate_bounded(pass, &A, &D, "X", json("1"), &b), -3);
	assert_int_equal(D.count, before); /* nothing said: the caller says it */
	/* well under a second unloaded; the unbounded run took 25 s and 4 GB */
	assert_true(schema_clock() - t0 < 20);
	/* within the bounds: the verdicts, the errors */
	assert_int_equal(schema_validate_bounded(few, &A, &D, "X", json("\"a\""), &b), 0);
	assert_int_equal(schema_validate_bounded(few, &A, &D, "X", json("1"), &b), -1);
	assert_true(D.count > before);
	/* the run's steps: what is left of them bounds the next object */
	b = (struct schema_budget){ 1000000, 1500000, 0, 0, NULL };
	assert_int_equal(schema_validate_bounded(pass, &A, &D, "X", json("1"), &b), -3);
	assert_non_null(strstr(b.why, "of one object"));
	assert_int_equal(schema_validate_bounded(pass, &A, &D, "X", json("1"), &b), -3);
	assert_non_null(strstr(b.why, "the run's"));
	assert_int_equal(schema_validate_bounded(few, &A, &D, "X", json("\"a\""), &b), -3);
	/* the deadline */
	b = (struct schema_budget){ SCHEMA_STEPS_PER_OBJECT, SCHEMA_STEPS_PER_RUN,
				    schema_clock() - 1, 0, NULL };
	assert_int_equal(schema_validate_bounded(pass, &A, &D, "X", json("1"), &b), -3);
	assert_non_null(strstr(b.why, "--timeout"));
}

/* anyOf with no passing branch: the closest branch's messages, built for
 * that branch only. */
static void
test_schema__any_of_reports_the_closest_branch(void **state)
{
	struct schema *s = compile("{\"anyOf\": [{\"type\": \"string\"},"
				   " {\"type\": \"object\", \"required\": [\"a\", \"b\"]},"
				   " {\"type\": \"object\", \"required\": [\"a\"]}]}");
	size_t before = D.count;

	(void)state;
	assert_int_equal(check(s, json("{\"c\": 1}")), 1);
	assert_int_equal(D.count, before + 1);
	assert_non_null(strstr(D.items[before].msg, "'a'"));
}

#define T(f) TESTUTIL_CASE(f)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_schema__gpusite_compiles_no_pattern_up_front),
		T(test_schema__evaluation_is_bounded),
		T(test_schema__any_of_reports_the_closest_branch),
		T(test_schema__gpusite_compiles_once),
		T(test_schema__gpusite_every_pattern_compiles),
		T(test_schema__gpusite_tables_are_the_compiled_schema),
		T(test_schema__direct_read_builds_the_json_parse_tree),
		T(test_schema__gpusite_is_a_valid_draft07_schema),
		T(test_schema__valid_site_has_no_diagnostic),
		T(test_schema__unknown_field_at_key_with_suggestion),
		T(test_schema__maximum_message_and_path),
		T(test_schema__missing_required_at_the_mapping),
		T(test_schema__enum_message),
		T(test_schema__fallback_limit_unless_disabled),
		T(test_schema__type_errors_say_how_to_fix),
		T(test_schema__leaves_rule_checks_to_the_rules),
		T(test_schema__integer_means_zero_fraction),
		T(test_schema__length_counts_code_points),
		T(test_schema__patterns_are_ecma_and_unanchored),
		T(test_schema__invalid_pattern_fails_compile),
		T(test_schema__pattern_match_limit_is_a_finding),
		T(test_schema__format_regex_is_asserted),
		T(test_schema__unsupported_keywords_fail_compile),
		T(test_schema__refs),
		T(test_schema__remote_refs_through_the_resolver),
		T(test_schema__oneof_reports_the_closest_branch),
		T(test_schema__unique_items_at_scale),
		T(test_schema__echo_is_bounded_and_redacted),
		T(test_schema__object_keywords),
		T(test_schema__array_keywords),
		T(test_schema__errors_are_capped),
		T(test_schema__openapi_nullable_int_or_string_format),
		T(test_schema__openapi_unknown_fields),
		T(test_schema__openapi_list_types),
		T(test_schema__upstream_crds_compile),
		T(test_schema__nodepool_good_and_bad),
		T(test_schema__upstream_json_schemas),
		T(test_schema__validates_a_thousand_sites_fast),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
