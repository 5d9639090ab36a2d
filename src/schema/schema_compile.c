/*
 * schema_compile.c - JSON Schema draft-07 (and Kubernetes structural
 * schemas) compiled from node trees.
 *
 * Compiling turns a schema document into `struct schema` once: keywords
 * parsed, $ref resolved (JSON pointers, $id base URIs, the draft-07
 * meta-schema, documents a loader hands in), patterns compiled.  Checking
 * (schema_check.c) then never parses or compiles anything.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strlist.h"
#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "base/num.h"
#include "base/secret.h"
#include "base/strdist.h"
#include "base/utf8.h"
#include "json/json.h"
#include "schema/schema.h"
#include "schema/schema_int.h"

/* ------------------------------------------------------------------ */
/* Compiling */

struct reg {
	const char *uri; /* absolute, no empty fragment */
	const struct node *n;
	const char *parent_base; /* base in effect around n */
};

struct memo {
	const struct node *n;
	struct schema *s;
};

struct cctx {
	struct arena *a;
	struct diags *d;
	const char *rule;
	bool openapi;
	bool lazy; /* patterns compiled on first use (the built-in schema) */
	int err;
	struct reg *reg;
	size_t nreg, areg;
	struct memo *memo; /* open addressing, keyed by node pointer */
	size_t nmemo, amemo;
	schema_resolve_fn *resolve;
	void *payload;
	unsigned loads;
};

static void cerr(struct cctx *c, const struct node *at, const char *where, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void
cerr(struct cctx *c, const struct node *at, const char *where, const char *fmt, ...)
{
	struct pos p = POS_NONE;
	va_list ap;

	if (at)
		p = at->at;
	va_start(ap, fmt);
	diag_vreport(c->d, p, c->rule, where ? where : "", fmt, ap);
	va_end(ap);
	c->err = -1;
}

static size_t
ptr_hash(const void *p, size_t mask)
{
	uintptr_t u = (uintptr_t)p;

	u ^= u >> 17;
	u *= (uintptr_t)0x9E3779B97F4A7C15ull;
	return (size_t)(u >> 7) & mask;
}

static struct schema *
memo_get(const struct cctx *c, const struct node *n)
{
	size_t i;

	if (!c->amemo)
		return NULL;
	for (i = ptr_hash(n, c->amemo - 1); c->memo[i].n; i = (i + 1) & (c->amemo - 1))
		if (c->memo[i].n == n)
			return c->memo[i].s;
	return NULL;
}

static void
memo_put(struct cctx *c, const struct node *n, struct schema *s)
{
	size_t i;

	if ((c->nmemo + 1) * 2 > c->amemo) {
		struct memo *old = c->memo;
		size_t oldn = c->amemo, k;

		c->amemo = c->amemo ? c->amemo * 2 : 256;
		c->memo = arena_alloc(c->a, c->amemo * sizeof(*c->memo));
		for (k = 0; k < oldn; k++) {
			if (!old[k].n)
				continue;
			for (i = ptr_hash(old[k].n, c->amemo - 1); c->memo[i].n;
			     i = (i + 1) & (c->amemo - 1))
				;
			c->memo[i] = old[k];
		}
	}
	for (i = ptr_hash(n, c->amemo - 1); c->memo[i].n; i = (i + 1) & (c->amemo - 1))
		;
	c->memo[i].n = n;
	c->memo[i].s = s;
	c->nmemo++;
}

static const struct reg *
reg_find(const struct cctx *c, const char *uri)
{
	size_t k;

	for (k = 0; k < c->nreg; k++)
		if (strcmp(c->reg[k].uri, uri) == 0)
			return &c->reg[k];
	return NULL;
}

static void
reg_add(struct cctx *c, const char *uri, const struct node *n, const char *parent_base)
{
	size_t len = strlen(uri);

	if (len && uri[len - 1] == '#')
		uri = arena_strndup(c->a, uri, len - 1);
	if (reg_find(c, uri))
		return; /* first one wins */
	ARENA_GROW(c->a, c->reg, c->nreg, c->areg, 16);
	c->reg[c->nreg].uri = uri;
	c->reg[c->nreg].n = n;
	c->reg[c->nreg].parent_base = parent_base;
	c->nreg++;
}

/* Keywords whose value is a schema, an array of schemas, or a map of
 * schemas: where $id may appear. */
static const char *const kw_schema[] = {
	"additionalItems",
	"additionalProperties",
	"contains",
	"else",
	"if",
	"items",
	"not",
	"propertyNames",
	"then",
};
static const char *const kw_schema_array[] = { "allOf", "anyOf", "items", "oneOf" };
static const char *const kw_schema_map[] = {
	"definitions",
	"dependencies",
	"patternProperties",
	"properties",
};

/* Record every $id below n (base = the base URI around n). */
static void
index_ids(struct cctx *c, const struct node *n, const char *base, unsigned depth)
{
	const char *id;
	size_t k, j;

	if (!n || n->kind != NODE_MAP || depth > 256)
		return;
	id = node_str(node_map_get(n, "$id"));
	if (id) {
		char *abs = schema_uri_resolve(c->a, base, id);
		const char *frag;
		char *doc = schema_uri_split(c->a, abs, &frag);

		reg_add(c, abs, n, base);
		if (!frag || !*frag)
			base = doc;
	}
	for (k = 0; k < n->map.count; k++) {
		const char *kw = n->map.pairs[k].key->scalar.text;
		const struct node *v = n->map.pairs[k].value;

		if (str_listed(kw, kw_schema, COUNT(kw_schema)))
			index_ids(c, v, base, depth + 1);
		if (str_listed(kw, kw_schema_array, COUNT(kw_schema_array)) && v->kind == NODE_SEQ)
			for (j = 0; j < v->seq.count; j++)
				index_ids(c, v->seq.items[j], base, depth + 1);
		if (str_listed(kw, kw_schema_map, COUNT(kw_schema_map)) && v->kind == NODE_MAP)
			for (j = 0; j < v->map.count; j++)
				index_ids(c, v->map.pairs[j].value, base, depth + 1);
	}
}

/* A document named by an absolute URI: known already, the meta-schema,
 * or what the loader hands in. */
static const struct reg *
load_doc(struct cctx *c, const char *doc)
{
	const struct reg *r = reg_find(c, doc);
	const struct node *root = NULL;

	if (r)
		return r;
	if (strcmp(doc, schema_draft07_uri) == 0) {
		root = json_parse(c->a, c->d, c->rule, schema_draft07_uri, schema_draft07_json,
				  strlen(schema_draft07_json));
	} else if (c->resolve && c->loads < 64) {
		c->loads++;
		root = c->resolve(c->payload, c->a, c->d, doc);
	}
	if (!root)
		return NULL;
	reg_add(c, doc, root, doc);
	index_ids(c, root, doc, 0);
	return reg_find(c, doc);
}

/* Decode %XX escapes of a URI fragment. */
static char *
pct_decode(struct arena *a, const char *s)
{
	char *out = arena_alloc(a, strlen(s) + 1), *o = out;

	while (*s) {
		if (s[0] == '%' && s[1] && s[2]) {
			char hex[3] = { s[1], s[2], 0 };
			char *end;
			long v = strtol(hex, &end, 16);

			if (*end == '\0') {
				*o++ = (char)v;
				s += 3;
				continue;
			}
		}
		*o++ = *s++;
	}
	*o = '\0';
	return out;
}

/*
 * Follow JSON pointer `ptr` ("/definitions/a~1b") from n.  *base is the
 * base around n on entry and the base around the target on return.
 */
static const struct node *
pointer_walk(struct cctx *c, const struct node *n, const char *ptr, const char **base)
{
	const char *p = ptr;

	while (*p == '/' && n) {
		const char *end = strchr(p + 1, '/');
		size_t len = end ? (size_t)(end - p - 1) : strlen(p + 1);
		char *tok = arena_alloc(c->a, len + 1), *t = tok;
		size_t k;
		const char *id;

		for (k = 0; k < len; k++) {
			char ch = p[1 + k];

			if (ch == '~' && k + 1 < len && p[2 + k] == '1')
				*t++ = '/', k++;
			else if (ch == '~' && k + 1 < len && p[2 + k] == '0')
				*t++ = '~', k++;
			else
				*t++ = ch;
		}
		*t = '\0';
		/* Leaving n for a child: n's own $id now applies. */
		id = node_str(node_map_get(n, "$id"));
		if (id && p != ptr) {
			const char *frag;
			char *doc =
				schema_uri_split(c->a, schema_uri_resolve(c->a, *base, id), &frag);

			if (!frag || !*frag)
				*base = doc;
		}
		if (n->kind == NODE_MAP) {
			n = node_map_get(n, tok);
		} else if (n->kind == NODE_SEQ) {
			char *e;
			unsigned long i = strtoul(tok, &e, 10);

			n = (*tok && !*e && i < n->seq.count) ? n->seq.items[i] : NULL;
		} else {
			n = NULL;
		}
		p += 1 + len;
	}
	return *p ? NULL : n;
}

static struct schema *compile_node(struct cctx *c, const struct node *n, const char *base,
				   const char *where, bool logic);

static struct schema *
schema_true(struct arena *a)
{
	struct schema *s = arena_alloc(a, sizeof(*s));

	s->is_bool = true;
	s->bool_val = true;
	s->where = "";
	s->min_props = s->max_props = -1;
	s->min_items = s->max_items = -1;
	s->min_len = s->max_len = -1;
	return s;
}

static struct schema *
resolve_ref(struct cctx *c, const struct node *at, const char *ref, const char *base,
	    const char *where)
{
	char *abs = schema_uri_resolve(c->a, base, ref);
	const char *frag;
	char *doc = schema_uri_split(c->a, abs, &frag);
	const struct reg *r;
	const struct node *target;
	const char *tbase;

	if (frag && !*frag)
		frag = NULL;
	r = load_doc(c, doc);
	if (!r) {
		cerr(c, at, where,
		     "cannot resolve $ref '%s': no schema has the URI "
		     "'%s' (remote references are not fetched)",
		     ref, doc);
		return schema_true(c->a);
	}
	target = r->n;
	tbase = r->parent_base;
	if (frag && frag[0] == '/') {
		tbase = doc;
		target = pointer_walk(c, target, pct_decode(c->a, frag), &tbase);
	} else if (frag) {
		const struct reg *anchor = reg_find(c, abs);

		target = anchor ? anchor->n : NULL;
		if (anchor)
			tbase = anchor->parent_base;
	}
	if (!target) {
		cerr(c, at, where, "cannot resolve $ref '%s': nothing at '%s'", ref, abs);
		return schema_true(c->a);
	}
	return compile_node(c, target, tbase,
			    *doc ? abs : arena_printf(c->a, "#%s", frag ? frag : ""), false);
}

static const char *
ptr_join(struct arena *a, const char *where, const char *key)
{
	const char *p;
	size_t n = 0;
	char *out, *o;

	for (p = key; *p; p++)
		n += (*p == '~' || *p == '/') ? 2 : 1;
	out = arena_alloc(a, strlen(where) + n + 2);
	o = out;
	memcpy(o, where, strlen(where));
	o += strlen(where);
	*o++ = '/';
	for (p = key; *p; p++) {
		if (*p == '~')
			*o++ = '~', *o++ = '0';
		else if (*p == '/')
			*o++ = '~', *o++ = '1';
		else
			*o++ = *p;
	}
	*o = '\0';
	return out;
}

/*
 * A float's exact value when its text is a whole number in int64 ("16.0",
 * "1.6e1", "9223372036854775806.0"): the schema judges the number the
 * text means, as the model reads it (num_decimal_to_int64, the one number
 * policy), not its nearest double.  Returns that function's verdict.
 */
int
schema_num_exact(const struct node *n, int64_t *v)
{
	if (n->type == NODE_INT) {
		*v = n->scalar.i;
		return 0;
	}
	if (n->type != NODE_FLOAT)
		return -2;
	return num_decimal_to_int64(n->scalar.text, n->scalar.len, v);
}

bool
schema_num_is_integral(const struct node *n)
{
	int64_t v;
	int r = schema_num_exact(n, &v);

	if (r == 0 || r == -3)
		return true;
	if (r == -1)
		return false;
	return n->type == NODE_FLOAT && isfinite(n->scalar.f) && n->scalar.f == floor(n->scalar.f);
}

/* A non-negative integer keyword value (minLength, maxItems, ...). */
static int64_t
get_count(struct cctx *c, const struct node *v, const char *kw, const char *where)
{
	if (!node_is_number(v) || !schema_num_is_integral(v) ||
	    (v->type == NODE_INT ? v->scalar.i < 0 : v->scalar.f < 0)) {
		cerr(c, v, where, "'%s' must be a non-negative integer", kw);
		return -1;
	}
	if (v->type == NODE_FLOAT)
		return v->scalar.f >= 9.2e18 ? INT64_MAX : (int64_t)v->scalar.f;
	return v->scalar.i;
}

static const struct node *
get_number(struct cctx *c, const struct node *v, const char *kw, const char *where)
{
	if (!node_is_number(v)) {
		cerr(c, v, where, "'%s' must be a number", kw);
		return NULL;
	}
	return v;
}

static const char **
get_strings(struct cctx *c, const struct node *v, const char *kw, const char *where, size_t *count)
{
	const char **out;
	size_t k;

	*count = 0;
	if (v->kind != NODE_SEQ) {
		cerr(c, v, where, "'%s' must be an array of strings", kw);
		return NULL;
	}
	out = arena_alloc(c->a, (v->seq.count + 1) * sizeof(*out));
	for (k = 0; k < v->seq.count; k++) {
		out[k] = node_str(v->seq.items[k]);
		if (!out[k]) {
			cerr(c, v->seq.items[k], where, "'%s' must be an array of strings", kw);
			return NULL;
		}
	}
	*count = v->seq.count;
	return out;
}

static unsigned
type_bit(const char *t)
{
	static const struct {
		const char *name;
		unsigned bit;
	} map[] = {
		{ "null", ST_NULL },     { "boolean", ST_BOOLEAN }, { "integer", ST_INTEGER },
		{ "number", ST_NUMBER }, { "string", ST_STRING },   { "array", ST_ARRAY },
		{ "object", ST_OBJECT },
	};
	size_t k;

	for (k = 0; k < COUNT(map); k++)
		if (strcmp(map[k].name, t) == 0)
			return map[k].bit;
	return 0;
}

static struct schema **
compile_array(struct cctx *c, const struct node *v, const char *base, const char *where,
	      const char *kw, size_t *count)
{
	struct schema **out;
	size_t k;

	*count = 0;
	if (v->kind != NODE_SEQ || v->seq.count == 0) {
		cerr(c, v, where, "'%s' must be a non-empty array of schemas", kw);
		return NULL;
	}
	out = arena_alloc(c->a, v->seq.count * sizeof(*out));
	for (k = 0; k < v->seq.count; k++)
		out[k] = compile_node(c, v->seq.items[k], base,
				      arena_printf(c->a, "%s/%zu", where, k), true);
	*count = v->seq.count;
	return out;
}

int
schema_sprop_cmp(const void *x, const void *y)
{
	return strcmp(((const struct sprop *)x)->name, ((const struct sprop *)y)->name);
}

/* Keywords of later drafts that change what validates: refusing them
 * beats silently accepting what their author meant to reject. */
static const char *const kw_unsupported[] = {
	"$anchor",       "$dynamicAnchor",    "$dynamicRef",      "$recursiveAnchor",
	"$recursiveRef", "dependentRequired", "dependentSchemas", "maxContains",
	"minContains",   "prefixItems",       "unevaluatedItems", "unevaluatedProperties",
};

/* What a keyword handler reads: the keyword, its value, the base URI, the
 * JSON pointer of the value, whether inside a logic keyword, and the
 * draft-04 exclusiveMinimum/Maximum flags (set here, applied by
 * compile_node). */
struct kwin {
	const char *kw;
	const struct node *v;
	const char *base;
	const char *where;
	bool logic;
	bool *xmin_flag, *xmax_flag;
};

typedef void kw_fn(struct cctx *c, struct schema *s, const struct kwin *in);

static void
kw_type(struct cctx *c, struct schema *s, const struct kwin *in)
{
	const struct node *v = in->v;
	const char *kwhere = in->where;
	size_t k;

	if (v->kind == NODE_SEQ) {
		for (k = 0; k < v->seq.count; k++) {
			const char *t = node_str(v->seq.items[k]);
			unsigned bit = t ? type_bit(t) : 0;

			if (!bit)
				cerr(c, v->seq.items[k], kwhere, "unknown type '%s'",
				     t ? t : "(not a string)");
			s->types |= bit;
		}
	} else if (node_str(v) && type_bit(node_str(v))) {
		s->types = type_bit(node_str(v));
	} else if (node_str(v)) {
		cerr(c, v, kwhere, "unknown type '%s'", node_str(v));
	} else {
		cerr(c, v, kwhere, "'type' must be a type name or an array of them");
	}
	if (s->types & ST_NUMBER)
		s->types |= ST_INTEGER;
}

static void
kw_properties(struct cctx *c, struct schema *s, const struct kwin *in)
{
	const struct node *v = in->v;
	const char *base = in->base;
	const char *kwhere = in->where;
	bool logic = in->logic;
	size_t k;

	if (v->kind != NODE_MAP) {
		cerr(c, v, kwhere, "'properties' must be an object");
		return;
	}
	s->nprops = v->map.count;
	s->props = arena_alloc(c->a, (s->nprops + 1) * sizeof(*s->props));
	s->sorted = arena_alloc(c->a, (s->nprops + 1) * sizeof(*s->sorted));
	for (k = 0; k < v->map.count; k++) {
		const char *name = v->map.pairs[k].key->scalar.text;

		s->props[k].name = name;
		s->props[k].s = compile_node(c, v->map.pairs[k].value, base,
					     ptr_join(c->a, kwhere, name), logic);
	}
	memcpy(s->sorted, s->props, s->nprops * sizeof(*s->props));
	qsort(s->sorted, s->nprops, sizeof(*s->sorted), schema_sprop_cmp);
}

static void
kw_pattern_properties(struct cctx *c, struct schema *s, const struct kwin *in)
{
	const struct node *v = in->v;
	const char *base = in->base;
	const char *kwhere = in->where;
	bool logic = in->logic;
	size_t k;

	if (v->kind != NODE_MAP) {
		cerr(c, v, kwhere, "'patternProperties' must be an object");
		return;
	}
	s->pprops = arena_alloc(c->a, (v->map.count + 1) * sizeof(*s->pprops));
	for (k = 0; k < v->map.count; k++) {
		const char *src = v->map.pairs[k].key->scalar.text;
		char *err = NULL;
		struct spattern *pp = &s->pprops[s->npprops];

		pp->re =
			c->lazy ? schema_pattern_get_lazy(src, REGEX_ECMA)
				: schema_pattern_get(src, c->openapi ? REGEX_GO : REGEX_ECMA, &err);
		if (!pp->re) {
			cerr(c, v->map.pairs[k].key, kwhere, "%s", err);
			free(err);
			continue;
		}
		pp->src = src;
		pp->s = compile_node(c, v->map.pairs[k].value, base, ptr_join(c->a, kwhere, src),
				     logic);
		s->npprops++;
	}
}

static void
kw_required(struct cctx *c, struct schema *s, const struct kwin *in)
{
	const char *kw = in->kw;
	const struct node *v = in->v;
	const char *kwhere = in->where;

	s->required = get_strings(c, v, kw, kwhere, &s->nrequired);
}

static void
kw_dependencies(struct cctx *c, struct schema *s, const struct kwin *in)
{
	const char *kw = in->kw;
	const struct node *v = in->v;
	const char *base = in->base;
	const char *kwhere = in->where;
	size_t k;

	if (v->kind != NODE_MAP) {
		cerr(c, v, kwhere, "'dependencies' must be an object");
		return;
	}
	s->deps = arena_alloc(c->a, (v->map.count + 1) * sizeof(*s->deps));
	for (k = 0; k < v->map.count; k++) {
		struct sdep *dp = &s->deps[k];
		const struct node *dv = v->map.pairs[k].value;

		dp->name = v->map.pairs[k].key->scalar.text;
		if (dv->kind == NODE_SEQ)
			dp->req = get_strings(c, dv, kw, kwhere, &dp->nreq);
		else
			dp->s = compile_node(c, dv, base, ptr_join(c->a, kwhere, dp->name), true);
	}
	s->ndeps = v->map.count;
}

static void
kw_items(struct cctx *c, struct schema *s, const struct kwin *in)
{
	const struct node *v = in->v;
	const char *base = in->base;
	const char *kwhere = in->where;
	bool logic = in->logic;
	size_t k;

	if (v->kind == NODE_SEQ) {
		s->is_tuple = true;
		s->ntuple = v->seq.count;
		s->tuple = arena_alloc(c->a, (v->seq.count + 1) * sizeof(*s->tuple));
		for (k = 0; k < v->seq.count; k++)
			s->tuple[k] = compile_node(c, v->seq.items[k], base,
						   arena_printf(c->a, "%s/%zu", kwhere, k), logic);
	} else {
		s->items = compile_node(c, v, base, kwhere, logic);
	}
}

static void
kw_unique_items(struct cctx *c, struct schema *s, const struct kwin *in)
{
	const struct node *v = in->v;
	const char *kwhere = in->where;

	if (!node_is_bool(v))
		cerr(c, v, kwhere, "'uniqueItems' must be a boolean");
	else
		s->unique = v->scalar.i != 0;
}

static void
kw_pattern(struct cctx *c, struct schema *s, const struct kwin *in)
{
	const struct node *v = in->v;
	const char *kwhere = in->where;
	char *err = NULL;

	if (!node_str(v)) {
		cerr(c, v, kwhere, "'pattern' must be a string");
		return;
	}
	if (c->lazy)
		s->pattern = schema_pattern_get_lazy(node_str(v), REGEX_ECMA);
	else
		s->pattern =
			schema_pattern_get(node_str(v), c->openapi ? REGEX_GO : REGEX_ECMA, &err);
	if (!s->pattern) {
		cerr(c, v, kwhere, "%s", err);
		free(err);
	}
	s->pattern_src = node_str(v);
}

static void
kw_minimum(struct cctx *c, struct schema *s, const struct kwin *in)
{
	const char *kw = in->kw;
	const struct node *v = in->v;
	const char *kwhere = in->where;

	s->minimum = get_number(c, v, kw, kwhere);
}

static void
kw_maximum(struct cctx *c, struct schema *s, const struct kwin *in)
{
	const char *kw = in->kw;
	const struct node *v = in->v;
	const char *kwhere = in->where;

	s->maximum = get_number(c, v, kw, kwhere);
}

static void
kw_exclusive_minimum(struct cctx *c, struct schema *s, const struct kwin *in)
{
	const char *kw = in->kw;
	const struct node *v = in->v;
	const char *kwhere = in->where;
	bool *xmin_flag = in->xmin_flag;

	/* draft-07: a number; OpenAPI 3.0 / draft-04: a flag on minimum */
	if (node_is_bool(v))
		*xmin_flag = v->scalar.i != 0;
	else
		s->xminimum = get_number(c, v, kw, kwhere);
}

static void
kw_exclusive_maximum(struct cctx *c, struct schema *s, const struct kwin *in)
{
	const char *kw = in->kw;
	const struct node *v = in->v;
	const char *kwhere = in->where;
	bool *xmax_flag = in->xmax_flag;

	if (node_is_bool(v))
		*xmax_flag = v->scalar.i != 0;
	else
		s->xmaximum = get_number(c, v, kw, kwhere);
}

static void
kw_multiple_of(struct cctx *c, struct schema *s, const struct kwin *in)
{
	const char *kw = in->kw;
	const struct node *v = in->v;
	const char *kwhere = in->where;

	s->multiple_of = get_number(c, v, kw, kwhere);
	if (s->multiple_of && !(s->multiple_of->scalar.f > 0))
		cerr(c, v, kwhere, "'multipleOf' must be greater than 0");
}

static void
kw_const(struct cctx *c, struct schema *s, const struct kwin *in)
{
	const struct node *v = in->v;

	(void)c;

	s->const_v = v;
}

static void
kw_enum(struct cctx *c, struct schema *s, const struct kwin *in)
{
	const struct node *v = in->v;
	const char *kwhere = in->where;

	if (v->kind != NODE_SEQ)
		cerr(c, v, kwhere, "'enum' must be an array");
	else
		s->enum_v = v;
}

static void
kw_all_of(struct cctx *c, struct schema *s, const struct kwin *in)
{
	const char *kw = in->kw;
	const struct node *v = in->v;
	const char *base = in->base;
	const char *kwhere = in->where;

	s->all_of = compile_array(c, v, base, kwhere, kw, &s->nall);
}

static void
kw_any_of(struct cctx *c, struct schema *s, const struct kwin *in)
{
	const char *kw = in->kw;
	const struct node *v = in->v;
	const char *base = in->base;
	const char *kwhere = in->where;

	s->any_of = compile_array(c, v, base, kwhere, kw, &s->nany);
}

static void
kw_one_of(struct cctx *c, struct schema *s, const struct kwin *in)
{
	const char *kw = in->kw;
	const struct node *v = in->v;
	const char *base = in->base;
	const char *kwhere = in->where;

	s->one_of = compile_array(c, v, base, kwhere, kw, &s->none);
}

static void
kw_title(struct cctx *c, struct schema *s, const struct kwin *in)
{
	const struct node *v = in->v;

	(void)c;

	s->title = node_str(v);
}

static void
kw_description(struct cctx *c, struct schema *s, const struct kwin *in)
{
	const struct node *v = in->v;

	(void)c;

	s->description = node_str(v);
}

static void
kw_definitions(struct cctx *c, struct schema *s, const struct kwin *in)
{
	const struct node *v = in->v;
	const char *base = in->base;
	const char *kwhere = in->where;
	size_t k;

	(void)s;

	/* Compiled when referenced; but a broken definition is still
	 * an error of the schema, so compile them all now. */
	if (v->kind != NODE_MAP) {
		cerr(c, v, kwhere, "'definitions' must be an object");
		return;
	}
	if (!c->openapi)
		for (k = 0; k < v->map.count; k++)
			compile_node(c, v->map.pairs[k].value, base,
				     ptr_join(c->a, kwhere, v->map.pairs[k].key->scalar.text),
				     false);
}

static void
kw_nullable(struct cctx *c, struct schema *s, const struct kwin *in)
{
	const struct node *v = in->v;

	(void)c;

	s->nullable = node_is_bool(v) && v->scalar.i;
}

static void
kw_x_kubernetes_preserve_unknown_fields(struct cctx *c, struct schema *s, const struct kwin *in)
{
	const struct node *v = in->v;

	(void)c;

	s->preserve = node_is_bool(v) && v->scalar.i;
}

static void
kw_x_kubernetes_embedded_resource(struct cctx *c, struct schema *s, const struct kwin *in)
{
	const struct node *v = in->v;

	(void)c;

	s->embedded = node_is_bool(v) && v->scalar.i;
}

static void
kw_x_kubernetes_int_or_string(struct cctx *c, struct schema *s, const struct kwin *in)
{
	const struct node *v = in->v;

	(void)c;

	if (node_is_bool(v) && v->scalar.i && !s->types)
		s->types = ST_INTEGER | ST_STRING;
}

static void
kw_x_kubernetes_list_type(struct cctx *c, struct schema *s, const struct kwin *in)
{
	const struct node *v = in->v;
	const char *lt = node_str(v);

	(void)c;
	if (lt && strcmp(lt, "set") == 0)
		s->list_type = LIST_SET;
	else if (lt && strcmp(lt, "map") == 0)
		s->list_type = LIST_MAP;
}

static void
kw_x_kubernetes_list_map_keys(struct cctx *c, struct schema *s, const struct kwin *in)
{
	const char *kw = in->kw;
	const struct node *v = in->v;
	const char *kwhere = in->where;

	s->map_keys = get_strings(c, v, kw, kwhere, &s->nmap_keys);
}

static void
kw_format(struct cctx *c, struct schema *s, const struct kwin *in)
{
	const struct node *v = in->v;
	const char *f = node_str(v);

	/* OpenAPI: int32 and int64 are range checks; draft-07: a regex is
	 * checked, every other format is an annotation */
	if (f && c->openapi && strcmp(f, "int32") == 0)
		s->int_bits = 32;
	else if (f && c->openapi && strcmp(f, "int64") == 0)
		s->int_bits = 64;
	else if (f && !c->openapi && strcmp(f, "regex") == 0)
		s->format_regex = true;
}

/* One row per keyword: its name, whether only Kubernetes structural
 * schemas (OpenAPI) have it, and its handler.  A keyword not here is an
 * annotation (or of a later draft: kw_unsupported). */
/* A keyword that only compiles a subschema into a field of struct schema,
 * or only reads a count into one, is a row without a function: `slot` says
 * which, `offset` where the value goes, and `logic` whether the subschema
 * is compiled as a logic one whatever its parent is. */
enum kw_slot { KW_FN, KW_SUBSCHEMA, KW_COUNTS };

#define KW_NONE KW_FN, 0, false
#define KW_SCHEMA(field, logic) KW_SUBSCHEMA, offsetof(struct schema, field), logic
#define KW_COUNT(field) KW_COUNTS, offsetof(struct schema, field), false

static const struct kw_row {
	const char *name;
	bool openapi;
	kw_fn *fn;
	enum kw_slot slot;
	size_t offset;
	bool logic;
} kw_table[] = {
	{ "type", false, kw_type, KW_NONE },
	{ "properties", false, kw_properties, KW_NONE },
	{ "patternProperties", false, kw_pattern_properties, KW_NONE },
	{ "additionalProperties", false, NULL, KW_SCHEMA(addl, false) },
	{ "propertyNames", false, NULL, KW_SCHEMA(propnames, true) },
	{ "required", false, kw_required, KW_NONE },
	{ "dependencies", false, kw_dependencies, KW_NONE },
	{ "minProperties", false, NULL, KW_COUNT(min_props) },
	{ "maxProperties", false, NULL, KW_COUNT(max_props) },
	{ "items", false, kw_items, KW_NONE },
	{ "additionalItems", false, NULL, KW_SCHEMA(addl_items, false) },
	{ "contains", false, NULL, KW_SCHEMA(contains, true) },
	{ "minItems", false, NULL, KW_COUNT(min_items) },
	{ "maxItems", false, NULL, KW_COUNT(max_items) },
	{ "uniqueItems", false, kw_unique_items, KW_NONE },
	{ "minLength", false, NULL, KW_COUNT(min_len) },
	{ "maxLength", false, NULL, KW_COUNT(max_len) },
	{ "pattern", false, kw_pattern, KW_NONE },
	{ "minimum", false, kw_minimum, KW_NONE },
	{ "maximum", false, kw_maximum, KW_NONE },
	{ "exclusiveMinimum", false, kw_exclusive_minimum, KW_NONE },
	{ "exclusiveMaximum", false, kw_exclusive_maximum, KW_NONE },
	{ "multipleOf", false, kw_multiple_of, KW_NONE },
	{ "const", false, kw_const, KW_NONE },
	{ "enum", false, kw_enum, KW_NONE },
	{ "allOf", false, kw_all_of, KW_NONE },
	{ "anyOf", false, kw_any_of, KW_NONE },
	{ "oneOf", false, kw_one_of, KW_NONE },
	{ "not", false, NULL, KW_SCHEMA(not_s, true) },
	{ "if", false, NULL, KW_SCHEMA(if_s, true) },
	{ "then", false, NULL, KW_SCHEMA(then_s, true) },
	{ "else", false, NULL, KW_SCHEMA(else_s, true) },
	{ "title", false, kw_title, KW_NONE },
	{ "description", false, kw_description, KW_NONE },
	{ "definitions", false, kw_definitions, KW_NONE },
	{ "nullable", true, kw_nullable, KW_NONE },
	{ "x-kubernetes-preserve-unknown-fields", true, kw_x_kubernetes_preserve_unknown_fields,
	  KW_NONE },
	{ "x-kubernetes-embedded-resource", true, kw_x_kubernetes_embedded_resource, KW_NONE },
	{ "x-kubernetes-int-or-string", true, kw_x_kubernetes_int_or_string, KW_NONE },
	{ "x-kubernetes-list-type", true, kw_x_kubernetes_list_type, KW_NONE },
	{ "x-kubernetes-list-map-keys", true, kw_x_kubernetes_list_map_keys, KW_NONE },
	{ "format", false, kw_format, KW_NONE },
};

static void
kw_apply(struct cctx *c, struct schema *s, const struct kw_row *row, const struct kwin *in)
{
	char *field = (char *)s + row->offset;

	switch (row->slot) {
	case KW_FN: row->fn(c, s, in); break;
	case KW_SUBSCHEMA:
		*(struct schema **)(void *)field =
			compile_node(c, in->v, in->base, in->where, row->logic || in->logic);
		break;
	case KW_COUNTS: *(int64_t *)(void *)field = get_count(c, in->v, in->kw, in->where); break;
	}
}

static void
compile_keyword(struct cctx *c, struct schema *s, const char *kw, const struct node *v,
		const char *base, const char *where, bool logic, bool *xmin_flag, bool *xmax_flag)
{
	struct kwin in = { kw, v, base, ptr_join(c->a, where, kw), logic, xmin_flag, xmax_flag };
	size_t k;

	for (k = 0; k < COUNT(kw_table); k++) {
		if (kw_table[k].openapi && !c->openapi)
			continue;
		if (strcmp(kw, kw_table[k].name) == 0) {
			kw_apply(c, s, &kw_table[k], &in);
			return;
		}
	}
	if (str_listed(kw, kw_unsupported, COUNT(kw_unsupported)))
		cerr(c, v, in.where,
		     "keyword '%s' belongs to a later JSON Schema draft "
		     "and is not implemented here (draft-07 only)",
		     kw);
	/* Everything else (default, examples, $comment, $schema,
	 * readOnly, contentMediaType, x-kubernetes-validations, unknown
	 * keywords) is an annotation: draft-07 says to ignore it. */
}

static struct schema *
compile_node(struct cctx *c, const struct node *n, const char *base, const char *where, bool logic)
{
	struct schema *s;
	const char *id, *ref;
	bool xmin = false, xmax = false;
	size_t k;

	if (!n) {
		cerr(c, NULL, where, "missing schema");
		return schema_true(c->a);
	}
	s = memo_get(c, n);
	if (s)
		return s;
	s = schema_true(c->a);
	s->where = where;
	memo_put(c, n, s);
	if (n->kind == NODE_SCALAR && n->type == NODE_BOOL) {
		s->bool_val = n->scalar.i != 0;
		return s;
	}
	if (n->kind != NODE_MAP) {
		cerr(c, n, where, "a schema must be an object or a boolean");
		return s;
	}
	s->is_bool = false;
	id = node_str(node_map_get(n, "$id"));
	if (id) {
		const char *frag;
		char *doc = schema_uri_split(c->a, schema_uri_resolve(c->a, base, id), &frag);

		if (!frag || !*frag)
			base = doc;
	}
	ref = node_str(node_map_get(n, "$ref"));
	if (ref) {
		/* draft-07: $ref replaces the whole schema object. */
		s->ref = resolve_ref(c, node_map_get(n, "$ref"), ref, base, where);
		return s;
	}
	for (k = 0; k < n->map.count; k++)
		compile_keyword(c, s, n->map.pairs[k].key->scalar.text, n->map.pairs[k].value, base,
				where, logic, &xmin, &xmax);
	if (xmin) {
		s->xminimum = s->minimum;
		s->minimum = NULL;
	}
	if (xmax) {
		s->xmaximum = s->maximum;
		s->maximum = NULL;
	}
	/* Structural schemas prune (and strict field validation rejects)
	 * what they do not declare; value validations inside allOf/anyOf/
	 * oneOf/not declare nothing. */
	if (c->openapi && !logic && !s->preserve && !s->addl &&
	    ((s->types & ST_OBJECT) || s->nprops))
		s->strict = true;
	return s;
}

struct schema *
schema_compile_root(struct arena *a, struct diags *d, const char *rule, const struct node *root,
		    const struct compile_opts *o)
{
	struct cctx c;
	struct schema *s;
	const char *sch;

	memset(&c, 0, sizeof(c));
	c.a = a;
	c.d = d;
	c.rule = rule;
	c.openapi = o->openapi;
	c.lazy = o->lazy;
	c.resolve = o->resolve;
	c.payload = o->payload;
	if (!root) {
		cerr(&c, NULL, "", "no schema document");
		return NULL;
	}
	sch = node_str(node_map_get(root, "$schema"));
	if (sch && (strstr(sch, "2019-09") || strstr(sch, "2020-12"))) {
		cerr(&c, node_map_get(root, "$schema"), "#/$schema",
		     "the schema is written for JSON Schema '%s'; this validator "
		     "implements draft-07",
		     sch);
		return NULL;
	}
	reg_add(&c, "", root, "");
	index_ids(&c, root, "", 0);
	s = compile_node(&c, root, "", "#", false);
	if (c.openapi && !s->is_bool) {
		/* The API server validates ObjectMeta itself; a CRD schema
		 * only says `metadata: {type: object}`. */
		for (size_t k = 0; k < s->nprops; k++)
			if (strcmp(s->props[k].name, "metadata") == 0 && !s->props[k].s->nprops) {
				s->props[k].s->strict = false;
				s->props[k].s->preserve = true;
			}
	}
	return c.err ? NULL : s;
}

struct schema *
schema_compile(struct arena *a, struct diags *d, const char *rule, const struct node *root)
{
	struct compile_opts o = { false, false, NULL, NULL };

	return schema_compile_root(a, d, rule, root, &o);
}

struct schema *
schema_compile_with(struct arena *a, struct diags *d, const char *rule, const struct node *root,
		    schema_resolve_fn *resolve, void *payload)
{
	struct compile_opts o = { false, false, resolve, payload };

	return schema_compile_root(a, d, rule, root, &o);
}

struct schema *
schema_compile_openapi(struct arena *a, struct diags *d, const char *rule, const struct node *root)
{
	struct compile_opts o = { true, false, NULL, NULL };

	return schema_compile_root(a, d, rule, root, &o);
}
