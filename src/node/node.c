/*
 * node.c - constructors, lookups, equality and order of the document tree.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/num.h"
#include "base/xalloc.h"
#include "node/node.h"

static struct node *
node_alloc(struct arena *a, enum node_kind kind, struct pos at)
{
	struct node *n = arena_alloc(a, sizeof(*n));

	n->kind = kind;
	n->type = NODE_STR;
	n->at = at;
	return n;
}

struct node *
node_new_map(struct arena *a, struct pos at)
{
	return node_alloc(a, NODE_MAP, at);
}

struct node *
node_new_seq(struct arena *a, struct pos at)
{
	return node_alloc(a, NODE_SEQ, at);
}

struct node *
node_new_strn(struct arena *a, struct pos at, const char *s, size_t n)
{
	struct node *r = node_alloc(a, NODE_SCALAR, at);

	r->type = NODE_STR;
	r->scalar.text = arena_strndup(a, s, n);
	r->scalar.len = n;
	return r;
}

struct node *
node_new_str(struct arena *a, struct pos at, const char *s)
{
	return node_new_strn(a, at, s, strlen(s));
}

struct node *
node_new_int(struct arena *a, struct pos at, int64_t v)
{
	struct node *r = node_alloc(a, NODE_SCALAR, at);

	r->type = NODE_INT;
	r->scalar.text = arena_printf(a, "%" PRId64, v);
	r->scalar.len = strlen(r->scalar.text);
	r->scalar.i = v;
	r->scalar.f = (double)v;
	return r;
}

struct node *
node_new_bool(struct arena *a, struct pos at, bool v)
{
	struct node *r = node_alloc(a, NODE_SCALAR, at);

	r->type = NODE_BOOL;
	r->scalar.text = v ? "true" : "false";
	r->scalar.len = v ? 4 : 5;
	r->scalar.i = v;
	return r;
}

struct node *
node_new_null(struct arena *a, struct pos at)
{
	struct node *r = node_alloc(a, NODE_SCALAR, at);

	r->type = NODE_NULL;
	r->scalar.text = "null";
	r->scalar.len = 4;
	return r;
}

/* A float's text: C syntax, or YAML's .inf / -.Inf / .NaN spellings. */
static double
text_to_double(const char *t)
{
	const char *p = t + (*t == '-' || *t == '+');

	if (p[0] == '.' && (p[1] | 0x20) == 'i' && (p[2] | 0x20) == 'n' && (p[3] | 0x20) == 'f' &&
	    !p[4])
		return *t == '-' ? -INFINITY : INFINITY;
	if (p[0] == '.' && (p[1] | 0x20) == 'n' && (p[2] | 0x20) == 'a' && (p[3] | 0x20) == 'n' &&
	    !p[4])
		return NAN;
	return num_strtod(t, NULL);
}

struct node *
node_new_scalar(struct arena *a, struct pos at, enum node_type type, const char *text, size_t len)
{
	struct node *r = node_alloc(a, NODE_SCALAR, at);

	r->type = type;
	r->scalar.text = arena_strndup(a, text, len);
	r->scalar.len = len;
	switch (type) {
	case NODE_INT:
		r->scalar.i = strtoll(r->scalar.text, NULL, 10);
		r->scalar.f = (double)r->scalar.i;
		break;
	case NODE_FLOAT: r->scalar.f = text_to_double(r->scalar.text); break;
	case NODE_BOOL: r->scalar.i = len == 4 && memcmp(text, "true", 4) == 0; break;
	case NODE_NULL:
	case NODE_STR: break;
	}
	return r;
}

void
node_seq_push(struct arena *a, struct node *seq, struct node *item)
{
	ARENA_GROW(a, seq->seq.items, seq->seq.count, seq->seq.alloc, 4);
	seq->seq.items[seq->seq.count++] = item;
}

void
node_map_add_node(struct arena *a, struct node *map, struct node *key, struct node *value)
{
	struct node_pair *p;

	ARENA_GROW(a, map->map.pairs, map->map.count, map->map.alloc, 4);
	p = &map->map.pairs[map->map.count++];
	p->key = key;
	p->value = value;
}

struct node *
node_map_add(struct arena *a, struct node *map, const char *key, struct node *value)
{
	struct pos at = value ? value->at : map->at;

	node_map_add_node(a, map, node_new_str(a, at, key), value);
	return value;
}

static struct node_pair *
pair_find(const struct node *map, const char *key, size_t klen)
{
	size_t i;

	if (!map || map->kind != NODE_MAP)
		return NULL;
	for (i = 0; i < map->map.count; i++) {
		const struct node *k = map->map.pairs[i].key;

		if (k && k->scalar.len == klen && memcmp(k->scalar.text, key, klen) == 0)
			return &map->map.pairs[i];
	}
	return NULL;
}

struct node *
node_map_set(struct arena *a, struct node *map, const char *key, struct node *value)
{
	struct node_pair *p = pair_find(map, key, strlen(key));

	if (p) {
		p->value = value;
		return value;
	}
	return node_map_add(a, map, key, value);
}

struct node *
node_map_add_str(struct arena *a, struct node *map, const char *key, const char *value)
{
	return node_map_add(a, map, key, node_new_str(a, map->at, value));
}

struct node *
node_map_add_int(struct arena *a, struct node *map, const char *key, int64_t value)
{
	return node_map_add(a, map, key, node_new_int(a, map->at, value));
}

struct node *
node_map_add_bool(struct arena *a, struct node *map, const char *key, bool value)
{
	return node_map_add(a, map, key, node_new_bool(a, map->at, value));
}

struct node *
node_map_get(const struct node *map, const char *key)
{
	const struct node_pair *p = node_map_pair(map, key);

	return p ? p->value : NULL;
}

const struct node_pair *
node_map_pair(const struct node *map, const char *key)
{
	if (!key)
		return NULL;
	return pair_find(map, key, strlen(key));
}

struct node *
node_path(const struct node *n, const char *dotted)
{
	const char *s = dotted;

	if (!n)
		return NULL;
	if (!dotted || !*dotted)
		return (struct node *)n;
	for (;;) {
		const char *dot = strchr(s, '.');
		size_t len = dot ? (size_t)(dot - s) : strlen(s);
		struct node_pair *p = pair_find(n, s, len);

		if (!p)
			return NULL;
		n = p->value;
		if (!dot)
			return (struct node *)n;
		s = dot + 1;
	}
}

const char *
node_str(const struct node *n)
{
	if (!n || n->kind != NODE_SCALAR || n->type != NODE_STR)
		return NULL;
	return n->scalar.text;
}

const char *
node_text(const struct node *n)
{
	if (!n || n->kind != NODE_SCALAR)
		return NULL;
	return n->scalar.text;
}

bool
node_is_str(const struct node *n)
{
	return n && n->kind == NODE_SCALAR && n->type == NODE_STR;
}

bool
node_is_int(const struct node *n)
{
	return n && n->kind == NODE_SCALAR && n->type == NODE_INT;
}

bool
node_is_number(const struct node *n)
{
	return n && n->kind == NODE_SCALAR && (n->type == NODE_INT || n->type == NODE_FLOAT);
}

bool
node_is_bool(const struct node *n)
{
	return n && n->kind == NODE_SCALAR && n->type == NODE_BOOL;
}

bool
node_is_null(const struct node *n)
{
	return !n || (n->kind == NODE_SCALAR && n->type == NODE_NULL);
}

/*
 * Exact comparison of an int64 with a double (no rounding of the int):
 * NaN sorts after every number.
 */
static int
cmp_int_double(int64_t i, double f)
{
	double t;
	int64_t ti;

	if (isnan(f))
		return -1;
	if (f >= 9223372036854775808.0)
		return -1;
	if (f < -9223372036854775808.0)
		return 1;
	t = trunc(f);
	ti = (int64_t)t;
	if (i != ti)
		return i < ti ? -1 : 1;
	if (f > t)
		return -1;
	if (f < t)
		return 1;
	return 0;
}

static int
cmp_double(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) - isnan(b);
	if (a < b)
		return -1;
	if (a > b)
		return 1;
	return 0;
}

static int
cmp_number(const struct node *a, const struct node *b)
{
	if (a->type == NODE_INT && b->type == NODE_INT)
		return a->scalar.i < b->scalar.i ? -1 : a->scalar.i > b->scalar.i;
	if (a->type == NODE_INT)
		return cmp_int_double(a->scalar.i, b->scalar.f);
	if (b->type == NODE_INT)
		return -cmp_int_double(b->scalar.i, a->scalar.f);
	return cmp_double(a->scalar.f, b->scalar.f);
}

static int
cmp_bytes(const char *a, size_t alen, const char *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);

	if (c)
		return c < 0 ? -1 : 1;
	return alen < blen ? -1 : alen > blen;
}

/* JSON ranks: null < bool < number < string. */
static int
type_rank(enum node_type t)
{
	switch (t) {
	case NODE_NULL: return 0;
	case NODE_BOOL: return 1;
	case NODE_INT:
	case NODE_FLOAT: return 2;
	case NODE_STR: return 3;
	}
	return 4;
}

static int
key_cmp(const struct node *a, const struct node *b)
{
	return cmp_bytes(a->scalar.text, a->scalar.len, b->scalar.text, b->scalar.len);
}

static int
pair_cmp_qsort(const void *x, const void *y)
{
	const struct node_pair *a = *(const struct node_pair *const *)x;
	const struct node_pair *b = *(const struct node_pair *const *)y;

	return key_cmp(a->key, b->key);
}

/* The pairs of a map ordered by key, in a heap array the caller frees. */
static const struct node_pair **
sorted_pairs(const struct node *m)
{
	const struct node_pair **v = xmalloc((m->map.count + 1) * sizeof(*v));
	size_t i;

	for (i = 0; i < m->map.count; i++)
		v[i] = &m->map.pairs[i];
	qsort(v, m->map.count, sizeof(*v), pair_cmp_qsort);
	return v;
}

bool
node_equal(const struct node *a, const struct node *b)
{
	size_t i;

	if (a == b)
		return true;
	if (!a || !b || a->kind != b->kind)
		return false;
	switch (a->kind) {
	case NODE_SCALAR:
		if (node_is_number(a) && node_is_number(b))
			return cmp_number(a, b) == 0;
		if (a->type != b->type)
			return false;
		switch (a->type) {
		case NODE_NULL: return true;
		case NODE_BOOL: return (a->scalar.i != 0) == (b->scalar.i != 0);
		default:
			return a->scalar.len == b->scalar.len &&
			       memcmp(a->scalar.text, b->scalar.text, a->scalar.len) == 0;
		}
	case NODE_SEQ:
		if (a->seq.count != b->seq.count)
			return false;
		for (i = 0; i < a->seq.count; i++)
			if (!node_equal(a->seq.items[i], b->seq.items[i]))
				return false;
		return true;
	case NODE_MAP:
		if (a->map.count != b->map.count)
			return false;
		/* Same order is the common case: try it first. */
		for (i = 0; i < a->map.count; i++) {
			const struct node_pair *p = &a->map.pairs[i];
			const struct node_pair *q = &b->map.pairs[i];

			if (key_cmp(p->key, q->key) != 0)
				break;
			if (!node_equal(p->value, q->value))
				return false;
		}
		if (i == a->map.count)
			return true;
		return node_compare(a, b) == 0;
	}
	return false;
}

int
node_compare(const struct node *a, const struct node *b)
{
	size_t i, n;
	int c = 0;

	if (a == b)
		return 0;
	if (!a || !b)
		return !a ? -1 : 1;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	switch (a->kind) {
	case NODE_SCALAR:
		if (type_rank(a->type) != type_rank(b->type))
			return type_rank(a->type) < type_rank(b->type) ? -1 : 1;
		switch (a->type) {
		case NODE_NULL: return 0;
		case NODE_BOOL: return (a->scalar.i != 0) - (b->scalar.i != 0);
		case NODE_INT:
		case NODE_FLOAT: return cmp_number(a, b);
		case NODE_STR:
			return cmp_bytes(a->scalar.text, a->scalar.len, b->scalar.text,
					 b->scalar.len);
		}
		return 0;
	case NODE_SEQ:
		n = a->seq.count < b->seq.count ? a->seq.count : b->seq.count;
		for (i = 0; i < n; i++) {
			c = node_compare(a->seq.items[i], b->seq.items[i]);
			if (c)
				return c;
		}
		return a->seq.count < b->seq.count ? -1 : a->seq.count > b->seq.count;
	case NODE_MAP: {
		const struct node_pair **pa = sorted_pairs(a);
		const struct node_pair **pb = sorted_pairs(b);

		n = a->map.count < b->map.count ? a->map.count : b->map.count;
		for (i = 0; i < n && !c; i++) {
			c = key_cmp(pa[i]->key, pb[i]->key);
			if (!c)
				c = node_compare(pa[i]->value, pb[i]->value);
		}
		free(pa);
		free(pb);
		if (c)
			return c;
		return a->map.count < b->map.count ? -1 : a->map.count > b->map.count;
	}
	}
	return 0;
}

struct node *
node_clone(struct arena *a, const struct node *n)
{
	struct node *r;
	size_t i;

	if (!n)
		return NULL;
	r = node_alloc(a, n->kind, n->at);
	r->type = n->type;
	switch (n->kind) {
	case NODE_SCALAR:
		r->scalar = n->scalar;
		r->scalar.text = arena_strndup(a, n->scalar.text, n->scalar.len);
		break;
	case NODE_SEQ:
		for (i = 0; i < n->seq.count; i++)
			node_seq_push(a, r, node_clone(a, n->seq.items[i]));
		break;
	case NODE_MAP:
		for (i = 0; i < n->map.count; i++)
			node_map_add_node(a, r, node_clone(a, n->map.pairs[i].key),
					  node_clone(a, n->map.pairs[i].value));
		break;
	}
	return r;
}

static bool
is_ident(const char *k)
{
	const char *p;

	if (!((*k >= 'A' && *k <= 'Z') || (*k >= 'a' && *k <= 'z') || *k == '_'))
		return false;
	for (p = k + 1; *p; p++)
		if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '-'))
			return false;
	return true;
}

char *
node_path_join(struct arena *a, const char *base, const char *key)
{
	const char *p;
	size_t n = 0;
	char *out, *o;

	if (!base)
		base = "";
	if (is_ident(key))
		return *base ? arena_printf(a, "%s.%s", base, key) : arena_strdup(a, key);
	/* base["key"], with " and \ escaped. */
	for (p = key; *p; p++)
		n += (*p == '"' || *p == '\\') ? 2 : 1;
	out = arena_alloc(a, strlen(base) + n + 5);
	o = out;
	memcpy(o, base, strlen(base));
	o += strlen(base);
	*o++ = '[';
	*o++ = '"';
	for (p = key; *p; p++) {
		if (*p == '"' || *p == '\\')
			*o++ = '\\';
		*o++ = *p;
	}
	*o++ = '"';
	*o++ = ']';
	*o = '\0';
	return out;
}

char *
node_path_index(struct arena *a, const char *base, size_t index)
{
	return arena_printf(a, "%s[%zu]", base ? base : "", index);
}
