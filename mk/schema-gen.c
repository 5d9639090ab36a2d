/*
 * schema-gen.c - schema-gen OUT: the built-in GPUSite schema
 * (schemas/gpusite.v1alpha1.schema.json, as the binary embeds it),
 * compiled by the runtime compiler and written as C: static tables of
 * `struct schema` and the few node trees they point to (enum, const,
 * bounds), so a run starts with the compiled schema and parses no JSON.
 * `make` writes $(O)/gen/schema_tables.c with it; nothing generated is
 * committed.  The tables hold no compiled pattern: they list each pattern
 * slot with its source, which schema_gpusite() fills with the pattern
 * cache's entry on first use.  test_schema walks these tables against a
 * fresh runtime compile, field by field.
 *
 * Exit 0 written, 2 usage, 3 the schema does not compile or OUT could
 * not be written.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/diag.h"
#include "node/node.h"
#include "schema/schema.h"
#include "schema/schema_int.h"

struct gen {
	struct arena *a;
	const struct schema **s; /* every schema reached from the root, in order */
	size_t ns, as;
	const struct node **n; /* every node they point to, in order */
	size_t nn, an;
	FILE *f;
};

static size_t
find_schema(const struct gen *g, const struct schema *s)
{
	size_t k;

	for (k = 0; k < g->ns; k++)
		if (g->s[k] == s)
			return k;
	return (size_t)-1;
}

static size_t
find_node(const struct gen *g, const struct node *n)
{
	size_t k;

	for (k = 0; k < g->nn; k++)
		if (g->n[k] == n)
			return k;
	return (size_t)-1;
}

static void
add_schema(struct gen *g, const struct schema *s)
{
	if (!s || find_schema(g, s) != (size_t)-1)
		return;
	ARENA_GROW(g->a, g->s, g->ns, g->as, 64);
	g->s[g->ns++] = s;
}

static void
add_node(struct gen *g, const struct node *n)
{
	size_t k;

	if (!n || find_node(g, n) != (size_t)-1)
		return;
	ARENA_GROW(g->a, g->n, g->nn, g->an, 64);
	g->n[g->nn++] = n;
	if (n->kind == NODE_SEQ)
		for (k = 0; k < n->seq.count; k++)
			add_node(g, n->seq.items[k]);
	else if (n->kind == NODE_MAP)
		for (k = 0; k < n->map.count; k++) {
			add_node(g, n->map.pairs[k].key);
			add_node(g, n->map.pairs[k].value);
		}
}

/* Every schema and node reachable from g->s[0], breadth first. */
static void
collect(struct gen *g)
{
	size_t i, k;

	for (i = 0; i < g->ns; i++) {
		const struct schema *s = g->s[i];

		add_schema(g, s->ref);
		for (k = 0; k < s->nprops; k++)
			add_schema(g, s->props[k].s);
		for (k = 0; k < s->npprops; k++)
			add_schema(g, s->pprops[k].s);
		add_schema(g, s->addl);
		add_schema(g, s->propnames);
		for (k = 0; k < s->ndeps; k++)
			add_schema(g, s->deps[k].s);
		add_schema(g, s->items);
		for (k = 0; k < s->ntuple; k++)
			add_schema(g, s->tuple[k]);
		add_schema(g, s->addl_items);
		add_schema(g, s->contains);
		for (k = 0; k < s->nall; k++)
			add_schema(g, s->all_of[k]);
		for (k = 0; k < s->nany; k++)
			add_schema(g, s->any_of[k]);
		for (k = 0; k < s->none; k++)
			add_schema(g, s->one_of[k]);
		add_schema(g, s->not_s);
		add_schema(g, s->if_s);
		add_schema(g, s->then_s);
		add_schema(g, s->else_s);
		add_node(g, s->minimum);
		add_node(g, s->maximum);
		add_node(g, s->xminimum);
		add_node(g, s->xmaximum);
		add_node(g, s->multiple_of);
		add_node(g, s->const_v);
		add_node(g, s->enum_v);
	}
}

/* A C string literal of s[0..len), every byte that is not plain
 * printable ASCII (and '?', for trigraphs) as an octal escape. */
static void
put_str(FILE *f, const char *s, size_t len)
{
	size_t k;

	if (!s) {
		fputs("NULL", f);
		return;
	}
	fputc('"', f);
	for (k = 0; k < len; k++) {
		unsigned char c = (unsigned char)s[k];

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f || c == '?')
			fprintf(f, "\\%03o", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void
put_cstr(FILE *f, const char *s)
{
	put_str(f, s, s ? strlen(s) : 0);
}

static void
put_i64(FILE *f, int64_t v)
{
	if (v == INT64_MIN)
		fputs("(-INT64_MAX - 1)", f);
	else
		fprintf(f, "INT64_C(%" PRId64 ")", v);
}

static void
put_double(FILE *f, double v)
{
	if (isnan(v))
		fputs("NAN", f);
	else if (isinf(v))
		fputs(v < 0 ? "-HUGE_VAL" : "HUGE_VAL", f);
	else
		fprintf(f, "%a", v);
}

/* "&S[i]" or "NULL" */
static void
put_sref(const struct gen *g, const struct schema *s)
{
	if (s)
		fprintf(g->f, "&S[%zu]", find_schema(g, s));
	else
		fputs("NULL", g->f);
}

static void
put_nref(const struct gen *g, const struct node *n)
{
	if (n)
		fprintf(g->f, "&N[%zu]", find_node(g, n));
	else
		fputs("NULL", g->f);
}

/* A string array NAME (or nothing when `v` is NULL). */
static void
put_str_array(const struct gen *g, const char *name, size_t i, const char **v, size_t n)
{
	size_t k;

	if (!v)
		return;
	fprintf(g->f, "static const char *S%zu_%s[] = {", i, name);
	for (k = 0; k < n; k++) {
		put_cstr(g->f, v[k]);
		fputs(", ", g->f);
	}
	fputs("NULL };\n", g->f);
}

static void
put_schema_array(const struct gen *g, const char *name, size_t i, struct schema **v, size_t n)
{
	size_t k;

	if (!v)
		return;
	fprintf(g->f, "static struct schema *S%zu_%s[] = {", i, name);
	for (k = 0; k < n; k++) {
		put_sref(g, v[k]);
		fputs(", ", g->f);
	}
	fputs("NULL };\n", g->f);
}

static void
put_sprops(const struct gen *g, const char *name, size_t i, const struct sprop *v, size_t n)
{
	size_t k;

	if (!v)
		return;
	fprintf(g->f, "static struct sprop S%zu_%s[] = {\n", i, name);
	for (k = 0; k < n; k++) {
		fputs("\t{ ", g->f);
		put_cstr(g->f, v[k].name);
		fputs(", ", g->f);
		put_sref(g, v[k].s);
		fputs(" },\n", g->f);
	}
	fputs("\t{ NULL, NULL },\n};\n", g->f);
}

/* The arrays schema i points to, each named S<i>_<field>. */
static void
put_arrays(const struct gen *g, size_t i)
{
	const struct schema *s = g->s[i];
	size_t k;

	put_sprops(g, "props", i, s->props, s->nprops);
	put_sprops(g, "sorted", i, s->sorted, s->nprops);
	if (s->pprops) {
		fprintf(g->f, "static struct spattern S%zu_pprops[] = {\n", i);
		for (k = 0; k < s->npprops; k++) {
			fputs("\t{ NULL, ", g->f);
			put_cstr(g->f, s->pprops[k].src);
			fputs(", ", g->f);
			put_sref(g, s->pprops[k].s);
			fputs(" },\n", g->f);
		}
		fputs("\t{ NULL, NULL, NULL },\n};\n", g->f);
	}
	put_str_array(g, "required", i, s->required, s->nrequired);
	if (s->deps) {
		for (k = 0; k < s->ndeps; k++) {
			char name[32];

			snprintf(name, sizeof(name), "dep%zu", k);
			put_str_array(g, name, i, s->deps[k].req, s->deps[k].nreq);
		}
		fprintf(g->f, "static struct sdep S%zu_deps[] = {\n", i);
		for (k = 0; k < s->ndeps; k++) {
			fputs("\t{ ", g->f);
			put_cstr(g->f, s->deps[k].name);
			if (s->deps[k].req)
				fprintf(g->f, ", S%zu_dep%zu, %zu, ", i, k, s->deps[k].nreq);
			else
				fprintf(g->f, ", NULL, %zu, ", s->deps[k].nreq);
			put_sref(g, s->deps[k].s);
			fputs(" },\n", g->f);
		}
		fputs("\t{ NULL, NULL, 0, NULL },\n};\n", g->f);
	}
	put_schema_array(g, "tuple", i, s->tuple, s->ntuple);
	put_schema_array(g, "all_of", i, s->all_of, s->nall);
	put_schema_array(g, "any_of", i, s->any_of, s->nany);
	put_schema_array(g, "one_of", i, s->one_of, s->none);
	put_str_array(g, "map_keys", i, s->map_keys, s->nmap_keys);
}

/* ".name = S<i>_name, " when the array exists */
static void
put_array_field(const struct gen *g, const char *name, size_t i, const void *p)
{
	if (p)
		fprintf(g->f, "\t\t.%s = S%zu_%s,\n", name, i, name);
}

static void
put_sfield(const struct gen *g, const char *name, const struct schema *s)
{
	if (s) {
		fprintf(g->f, "\t\t.%s = ", name);
		put_sref(g, s);
		fputs(",\n", g->f);
	}
}

static void
put_nfield(const struct gen *g, const char *name, const struct node *n)
{
	if (n) {
		fprintf(g->f, "\t\t.%s = ", name);
		put_nref(g, n);
		fputs(",\n", g->f);
	}
}

static void
put_strfield(const struct gen *g, const char *name, const char *v)
{
	if (v) {
		fprintf(g->f, "\t\t.%s = ", name);
		put_cstr(g->f, v);
		fputs(",\n", g->f);
	}
}

static void
put_i64field(const struct gen *g, const char *name, int64_t v)
{
	fprintf(g->f, "\t\t.%s = ", name);
	put_i64(g->f, v);
	fputs(",\n", g->f);
}

static void
put_schema(const struct gen *g, size_t i)
{
	const struct schema *s = g->s[i];
	FILE *f = g->f;

	fprintf(f, "\t[%zu] = {\n", i);
	put_strfield(g, "where", s->where);
	fprintf(f, "\t\t.is_bool = %d, .bool_val = %d, .types = %uu,\n", s->is_bool, s->bool_val,
		s->types);
	put_sfield(g, "ref", s->ref);
	put_strfield(g, "title", s->title);
	put_strfield(g, "description", s->description);
	put_array_field(g, "props", i, s->props);
	put_array_field(g, "sorted", i, s->sorted);
	put_array_field(g, "pprops", i, s->pprops);
	put_array_field(g, "required", i, s->required);
	put_array_field(g, "deps", i, s->deps);
	fprintf(f, "\t\t.nprops = %zu, .npprops = %zu, .nrequired = %zu, .ndeps = %zu,\n",
		s->nprops, s->npprops, s->nrequired, s->ndeps);
	put_sfield(g, "addl", s->addl);
	put_sfield(g, "propnames", s->propnames);
	put_i64field(g, "min_props", s->min_props);
	put_i64field(g, "max_props", s->max_props);
	put_sfield(g, "items", s->items);
	put_array_field(g, "tuple", i, s->tuple);
	fprintf(f, "\t\t.ntuple = %zu, .is_tuple = %d, .unique = %d,\n", s->ntuple, s->is_tuple,
		s->unique);
	put_sfield(g, "addl_items", s->addl_items);
	put_sfield(g, "contains", s->contains);
	put_i64field(g, "min_items", s->min_items);
	put_i64field(g, "max_items", s->max_items);
	put_i64field(g, "min_len", s->min_len);
	put_i64field(g, "max_len", s->max_len);
	put_strfield(g, "pattern_src", s->pattern_src);
	fprintf(f, "\t\t.format_regex = %d,\n", s->format_regex);
	put_nfield(g, "minimum", s->minimum);
	put_nfield(g, "maximum", s->maximum);
	put_nfield(g, "xminimum", s->xminimum);
	put_nfield(g, "xmaximum", s->xmaximum);
	put_nfield(g, "multiple_of", s->multiple_of);
	put_nfield(g, "const_v", s->const_v);
	put_nfield(g, "enum_v", s->enum_v);
	put_array_field(g, "all_of", i, s->all_of);
	put_array_field(g, "any_of", i, s->any_of);
	put_array_field(g, "one_of", i, s->one_of);
	fprintf(f, "\t\t.nall = %zu, .nany = %zu, .none = %zu,\n", s->nall, s->nany, s->none);
	put_sfield(g, "not_s", s->not_s);
	put_sfield(g, "if_s", s->if_s);
	put_sfield(g, "then_s", s->then_s);
	put_sfield(g, "else_s", s->else_s);
	fprintf(f,
		"\t\t.nullable = %d, .preserve = %d, .embedded = %d, .strict = %d, "
		".list_type = %d, .int_bits = %d,\n",
		s->nullable, s->preserve, s->embedded, s->strict, s->list_type, s->int_bits);
	put_array_field(g, "map_keys", i, s->map_keys);
	fprintf(f, "\t\t.nmap_keys = %zu,\n\t},\n", s->nmap_keys);
}

/* The item and pair arrays of node i, named N<i>_items / N<i>_pairs. */
static void
put_node_arrays(const struct gen *g, size_t i)
{
	const struct node *n = g->n[i];
	size_t k;

	if (n->kind == NODE_SEQ && n->seq.items) {
		fprintf(g->f, "static struct node *N%zu_items[] = {", i);
		for (k = 0; k < n->seq.count; k++) {
			put_nref(g, n->seq.items[k]);
			fputs(", ", g->f);
		}
		fputs("NULL };\n", g->f);
	} else if (n->kind == NODE_MAP && n->map.pairs) {
		fprintf(g->f, "static struct node_pair N%zu_pairs[] = {", i);
		for (k = 0; k < n->map.count; k++) {
			fputs("{ ", g->f);
			put_nref(g, n->map.pairs[k].key);
			fputs(", ", g->f);
			put_nref(g, n->map.pairs[k].value);
			fputs(" }, ", g->f);
		}
		fputs("{ NULL, NULL } };\n", g->f);
	}
}

static void
put_node(const struct gen *g, size_t i)
{
	const struct node *n = g->n[i];
	FILE *f = g->f;
	static const char *const kinds[] = { "NODE_SCALAR", "NODE_SEQ", "NODE_MAP" };
	static const char *const types[] = { "NODE_NULL", "NODE_BOOL", "NODE_INT", "NODE_FLOAT",
					     "NODE_STR" };

	fprintf(f, "\t[%zu] = { .kind = %s, .type = %s, .at = { ", i, kinds[n->kind],
		types[n->type]);
	put_cstr(f, n->at.file);
	fprintf(f, ", %u, %u }, ", n->at.line, n->at.col);
	if (n->kind == NODE_SCALAR) {
		fputs(".scalar = { ", f);
		put_str(f, n->scalar.text, n->scalar.len);
		fprintf(f, ", %zu, ", n->scalar.len);
		put_i64(f, n->scalar.i);
		fputs(", ", f);
		put_double(f, n->scalar.f);
		fputs(" } },\n", f);
	} else if (n->kind == NODE_SEQ) {
		if (n->seq.items)
			fprintf(f, ".seq = { N%zu_items, %zu, %zu } },\n", i, n->seq.count,
				n->seq.count);
		else
			fputs(".seq = { NULL, 0, 0 } },\n", f);
	} else {
		if (n->map.pairs)
			fprintf(f, ".map = { N%zu_pairs, %zu, %zu } },\n", i, n->map.count,
				n->map.count);
		else
			fputs(".map = { NULL, 0, 0 } },\n", f);
	}
}

/* Each pattern slot of the tables, with its source. */
static void
put_patterns(const struct gen *g)
{
	size_t i, k, count = 0;

	fputs("const struct schema_table_pattern schema_gpusite_patterns[] = {\n", g->f);
	for (i = 0; i < g->ns; i++) {
		const struct schema *s = g->s[i];

		if (s->pattern_src) {
			fprintf(g->f, "\t{ &S[%zu].pattern, ", i);
			put_cstr(g->f, s->pattern_src);
			fputs(" },\n", g->f);
			count++;
		}
		for (k = 0; k < s->npprops; k++) {
			fprintf(g->f, "\t{ &S%zu_pprops[%zu].re, ", i, k);
			put_cstr(g->f, s->pprops[k].src);
			fputs(" },\n", g->f);
			count++;
		}
	}
	fputs("\t{ NULL, NULL },\n};\n", g->f);
	fprintf(g->f, "const size_t schema_gpusite_npatterns = %zu;\n", count);
}

static void
put_all(struct gen *g)
{
	size_t i;

	fputs("/* generated from schemas/gpusite.v1alpha1.schema.json by mk/schema-gen.c; "
	      "do not edit */\n"
	      "#include <math.h>\n#include <stddef.h>\n#include <stdint.h>\n\n"
	      "#include \"node/node.h\"\n#include \"schema/schema_int.h\"\n\n",
	      g->f);
	fprintf(g->f, "static struct schema S[%zu];\n", g->ns);
	if (g->nn)
		fprintf(g->f, "static struct node N[%zu];\n", g->nn);
	for (i = 0; i < g->nn; i++)
		put_node_arrays(g, i);
	for (i = 0; i < g->ns; i++)
		put_arrays(g, i);
	if (g->nn) {
		fprintf(g->f, "static struct node N[%zu] = {\n", g->nn);
		for (i = 0; i < g->nn; i++)
			put_node(g, i);
		fputs("};\n", g->f);
	}
	fprintf(g->f, "static struct schema S[%zu] = {\n", g->ns);
	for (i = 0; i < g->ns; i++)
		put_schema(g, i);
	fputs("};\n\nstruct schema *const schema_gpusite_table = &S[0];\n", g->f);
	put_patterns(g);
}

int
main(int argc, char **argv)
{
	struct arena a = ARENA_INIT;
	struct diags d;
	struct gen g;
	const struct schema *root;
	char *tmp;
	size_t k;
	int rc = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: schema-gen OUT\n");
		return 2;
	}
	diags_init(&d, &a);
	root = schema_gpusite_compile(&a, &d);
	if (!root) {
		for (k = 0; k < d.count; k++)
			fprintf(stderr, "schema-gen: %s\n", d.items[k].msg);
		arena_release(&a);
		return 3;
	}
	memset(&g, 0, sizeof(g));
	g.a = &a;
	add_schema(&g, root);
	collect(&g);
	tmp = arena_printf(&a, "%s.tmp", argv[1]);
	g.f = fopen(tmp, "w");
	if (!g.f) {
		perror(tmp);
		arena_release(&a);
		return 3;
	}
	put_all(&g);
	if (ferror(g.f) | fclose(g.f) || rename(tmp, argv[1]) != 0) {
		perror(argv[1]);
		rc = 3;
	}
	arena_release(&a);
	return rc;
}
