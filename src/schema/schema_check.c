/*
 * schema_check.c - a node tree checked against a compiled schema.
 *
 * A check runs in one of two modes: "accept" stops at the first problem
 * and allocates nothing (used for anyOf/oneOf/not/if and contains);
 * "collect" records every problem with the node's position and JSON path.
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
/* Checking */

#define MAX_ERRORS 500
#define MAX_DEPTH 4096
#define ECHO_MAX 80

struct pseg {
	const struct pseg *up;
	const char *key; /* NULL: index */
	size_t index;
};

/* What a recorded error says about a field, so one mistake gives one
 * error: a misspelt required field is reported at the typo only. */
enum verr_kind { VERR_OTHER, VERR_UNKNOWN_FIELD, VERR_MISSING_FIELD };

struct verr {
	struct pos at;
	const char *path;
	const char *msg;
	enum verr_kind kind;
	const struct node *map; /* the mapping, for the two field kinds */
	const char *field;      /* the suggested name, or the missing one */
};

/* The bounds of one evaluation (schema_validate_bounded): steps, a
 * deadline, and the arena's growth, looked at every BUDGET_LOOK steps. */
#define BUDGET_LOOK 1024u
struct vbudget {
	unsigned long steps, max;
	double deadline; /* schema_clock() seconds; 0: none */
	struct arena *a;
	size_t bytes_at_start;
	bool out;
	const char *why;
};

struct vctx {
	struct arena *a;
	struct vbudget *bud; /* NULL: unbounded (the built-in schema) */
	bool collect;        /* false: stop at the first problem, record nothing */
	bool count_only;     /* collect: count the errors and tag them, build no message */
	struct verr *errs;
	size_t nerrs, aerrs;
	bool truncated;
	unsigned depth;
	const char *name_of; /* checking a property name: "field name 'x' in P" */
};

static const char *
path_of(struct arena *a, const struct pseg *p)
{
	const char *base;

	if (!p || !a) /* accept mode builds no text */
		return "";
	base = path_of(a, p->up);
	return p->key ? node_path_join(a, base, p->key) : node_path_index(a, base, p->index);
}

static const char *
subject(struct vctx *c, const char *path)
{
	if (c->name_of)
		return c->name_of;
	return *path ? path : "the document";
}

static void
verr_add(struct vctx *c, struct pos at, const char *path, const char *msg)
{
	if (c->nerrs >= MAX_ERRORS) {
		c->truncated = true;
		return;
	}
	ARENA_GROW(c->a, c->errs, c->nerrs, c->aerrs, 8);
	c->errs[c->nerrs].at = at;
	c->errs[c->nerrs].path = path;
	c->errs[c->nerrs].msg = msg;
	c->errs[c->nerrs].kind = VERR_OTHER;
	c->errs[c->nerrs].map = NULL;
	c->errs[c->nerrs].field = NULL;
	c->nerrs++;
}

/*
 * Record a problem at node n.  The format gets the subject (the JSON
 * path, or "the document") as its first %s.
 */
static void verr(struct vctx *c, const struct node *n, const struct pseg *p, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void
verr(struct vctx *c, const struct node *n, const struct pseg *p, const char *fmt, ...)
{
	va_list ap;
	const char *path;

	if (!c->collect)
		return;
	path = path_of(c->a, p);
	va_start(ap, fmt);
	verr_add(c, n->at, path, arena_vprintf(c->a, fmt, ap));
	va_end(ap);
}

/* Arguments (paths, echoed values) are built only for an error that is
 * kept: when recording, with room in the list, and not only counting. */
#define VERR(c, n, ...)                                                                            \
	do {                                                                                       \
		if (!(c)->collect)                                                                 \
			break;                                                                     \
		if ((c)->nerrs >= MAX_ERRORS)                                                      \
			(c)->truncated = true;                                                     \
		else if ((c)->count_only)                                                          \
			verr_add((c), (n)->at, "", NULL);                                          \
		else                                                                               \
			verr((c), (n), __VA_ARGS__);                                               \
	} while (0)

/* A value fit for a one-line message: control characters escaped, cut
 * after ECHO_MAX characters, secrets hidden. */
static const char *
echo(struct arena *a, const char *s, size_t len)
{
	char *out, *o;
	size_t k, chars = 0;

	if (secret_unsafe_to_echo(s, len))
		return SECRET_REDACTED;
	out = arena_alloc(a, len * 4 + 8);
	o = out;
	for (k = 0; k < len; k++) {
		unsigned char ch = (unsigned char)s[k];

		if ((ch & 0xC0) != 0x80 && ++chars > ECHO_MAX) {
			memcpy(o, "...", 3);
			o += 3;
			break;
		}
		if (ch == '\n')
			*o++ = '\\', *o++ = 'n';
		else if (ch == '\t')
			*o++ = '\\', *o++ = 't';
		else if (ch < 0x20 || ch == 0x7F)
			o += snprintf(o, 5, "\\x%02x", ch);
		else
			*o++ = (char)ch;
	}
	*o = '\0';
	return out;
}

static const char *
kind_name(const struct node *n)
{
	if (n->kind == NODE_MAP)
		return "an object";
	if (n->kind == NODE_SEQ)
		return "an array";
	switch (n->type) {
	case NODE_NULL: return "null";
	case NODE_BOOL: return "boolean";
	case NODE_INT: return "integer";
	case NODE_FLOAT: return "number";
	default: return "string";
	}
}

/* "string 'abc'", "integer 3", "an object" */
static const char *
describe(struct arena *a, const struct node *n)
{
	if (n->kind != NODE_SCALAR || n->type == NODE_NULL)
		return kind_name(n);
	if (n->type == NODE_STR)
		return arena_printf(a, "string '%s'", echo(a, n->scalar.text, n->scalar.len));
	return arena_printf(a, "%s %s", kind_name(n), echo(a, n->scalar.text, n->scalar.len));
}

/* A scalar value as a message shows it: strings quoted. */
static const char *
show(struct arena *a, const struct node *n)
{
	struct buf b;
	const char *out;

	if (n->kind == NODE_SCALAR && n->type == NODE_STR)
		return arena_printf(a, "'%s'", echo(a, n->scalar.text, n->scalar.len));
	if (n->kind == NODE_SCALAR)
		return echo(a, n->scalar.text, n->scalar.len);
	buf_init(&b, 4096);
	if (json_write(&b, n, 0))
		out = n->kind == NODE_MAP ? "{...}" : "[...]";
	else
		out = echo(a, b.data, b.len);
	out = arena_strdup(a, out);
	buf_release(&b);
	return out;
}

static unsigned
node_types(const struct node *n)
{
	if (n->kind == NODE_MAP)
		return ST_OBJECT;
	if (n->kind == NODE_SEQ)
		return ST_ARRAY;
	switch (n->type) {
	case NODE_NULL: return ST_NULL;
	case NODE_BOOL: return ST_BOOLEAN;
	case NODE_INT: return ST_INTEGER | ST_NUMBER;
	case NODE_FLOAT: return schema_num_is_integral(n) ? ST_INTEGER | ST_NUMBER : ST_NUMBER;
	default: return ST_STRING;
	}
}

static const char *
types_text(struct arena *a, unsigned t)
{
	static const struct {
		unsigned bit;
		const char *text;
	} names[] = {
		{ ST_OBJECT, "an object" }, { ST_ARRAY, "an array" },
		{ ST_STRING, "a string" },  { ST_INTEGER, "an integer" },
		{ ST_NUMBER, "a number" },  { ST_BOOLEAN, "a boolean" },
		{ ST_NULL, "null" },
	};
	const char *out = NULL;
	size_t k;

	if (t & ST_NUMBER)
		t &= ~(unsigned)ST_INTEGER;
	for (k = 0; k < COUNT(names); k++) {
		if (!(t & names[k].bit))
			continue;
		out = out ? arena_printf(a, "%s or %s", out, names[k].text) : names[k].text;
	}
	return out ? out : "nothing";
}

/* The sign of i - d, exactly: no conversion of i to a double (which
 * rounds past 2^53) and no long double (which is a double on some targets
 * and under valgrind). */
static int
cmp_int_double(int64_t i, double d)
{
	int64_t t;
	double frac;

	if (d >= 9223372036854775808.0)
		return -1;
	if (d < -9223372036854775808.0)
		return 1;
	t = (int64_t)d; /* |d| < 2^63: the integer part, exactly */
	if (i != t)
		return i < t ? -1 : 1;
	frac = d - (double)t; /* exact: t is d's integer part */
	return frac > 0 ? -1 : frac < 0;
}

/* Exact comparison of two numbers (int64 or double). */
static int
num_cmp(const struct node *x, const struct node *y)
{
	int64_t xi, yi;
	bool xint, yint;

	xint = schema_num_exact(x, &xi) == 0;
	yint = schema_num_exact(y, &yi) == 0;
	if (xint && yint)
		return xi < yi ? -1 : xi > yi;
	if (xint)
		return cmp_int_double(xi, y->scalar.f);
	if (yint)
		return -cmp_int_double(yi, x->scalar.f);
	return x->scalar.f < y->scalar.f ? -1 : x->scalar.f > y->scalar.f;
}

static bool
is_multiple(const struct node *x, const struct node *m)
{
	double q, r;

	if (x->type == NODE_INT && m->type == NODE_INT && m->scalar.i > 0)
		return x->scalar.i % m->scalar.i == 0;
	q = (x->type == NODE_INT ? (double)x->scalar.i : x->scalar.f) /
	    (m->type == NODE_INT ? (double)m->scalar.i : m->scalar.f);
	if (!isfinite(q))
		return false;
	r = nearbyint(q);
	return fabs(q - r) <= 1e-9 * fmax(1.0, fabs(q));
}

/* The closest name within 2 edits (and not a total rewrite), or NULL. */
static const char *
closest(const char *word, const char *const *cands, size_t n, const struct node *skip_present)
{
	const char *best = NULL;
	size_t best_d = 3, k, wl = strlen(word);

	for (k = 0; k < n; k++) {
		size_t d;

		if (skip_present && node_map_get(skip_present, cands[k]))
			continue;
		d = strdist_edit(word, cands[k], 2);
		if (d < best_d && d < wl && d < strlen(cands[k])) {
			best = cands[k];
			best_d = d;
		}
	}
	return best;
}

static bool v_schema(struct vctx *c, const struct schema *s, const struct node *n,
		     const struct pseg *p);

/* Run s on n in accept mode (no record, first problem stops). */
static bool
accepts(struct vctx *c, const struct schema *s, const struct node *n)
{
	struct vctx sub;

	memset(&sub, 0, sizeof(sub));
	sub.a = c->a;
	sub.bud = c->bud;
	sub.depth = c->depth;
	return v_schema(&sub, s, n, NULL);
}

/* Append errors of a sub-check to c. */
static void
take_errors(struct vctx *c, const struct vctx *sub)
{
	size_t k;

	for (k = 0; k < sub->nerrs; k++) {
		size_t at = c->nerrs;

		verr_add(c, sub->errs[k].at, sub->errs[k].path, sub->errs[k].msg);
		if (c->nerrs > at) {
			c->errs[at].kind = sub->errs[k].kind;
			c->errs[at].map = sub->errs[k].map;
			c->errs[at].field = sub->errs[k].field;
		}
	}
	if (sub->truncated)
		c->truncated = true;
}

static const struct sprop *
find_prop(const struct schema *s, const char *name)
{
	struct sprop key;

	if (!s->nprops)
		return NULL;
	key.name = name;
	key.s = NULL;
	return bsearch(&key, s->sorted, s->nprops, sizeof(*s->sorted), schema_sprop_cmp);
}

/* Tag the error just recorded (if it was: the list may be full). */
static void
verr_tag(struct vctx *c, size_t before, enum verr_kind kind, const struct node *map,
	 const char *field)
{
	if (c->nerrs > before) {
		c->errs[before].kind = kind;
		c->errs[before].map = map;
		c->errs[before].field = field;
	}
}

static void
unknown_field(struct vctx *c, const struct schema *s, const struct node *map,
	      const struct node_pair *pr, const struct pseg *p, const struct pseg *kp)
{
	const char *name = pr->key->scalar.text;
	const char *where;
	const char **cands;
	const char *hint;
	size_t k;

	if (!c->collect)
		return;
	if (c->count_only || c->nerrs >= MAX_ERRORS) {
		VERR(c, pr->key, kp, "unknown field");
		return;
	}
	where = subject(c, path_of(c->a, p));
	cands = arena_alloc(c->a, (s->nprops + 1) * sizeof(*cands));
	for (k = 0; k < s->nprops; k++)
		cands[k] = s->props[k].name;
	hint = closest(name, cands, s->nprops, map);
	if (hint) {
		size_t before = c->nerrs;

		VERR(c, pr->key, kp, "unknown field '%s' in %s (did you mean '%s'?)",
		     echo(c->a, name, strlen(name)), where, hint);
		verr_tag(c, before, VERR_UNKNOWN_FIELD, map, hint);
	} else if (s->nprops == 0) {
		VERR(c, pr->key, kp, "unknown field '%s' in %s: it takes no fields",
		     echo(c->a, name, strlen(name)), where);
	} else if (s->nprops <= 12) {
		const char *list = s->props[0].name;

		for (k = 1; k < s->nprops; k++)
			list = arena_printf(c->a, "%s, %s", list, s->props[k].name);
		VERR(c, pr->key, kp, "unknown field '%s' in %s (known fields: %s)",
		     echo(c->a, name, strlen(name)), where, list);
	} else {
		VERR(c, pr->key, kp, "unknown field '%s' in %s", echo(c->a, name, strlen(name)),
		     where);
	}
}

/* A key of map within 2 edits of `want` (a likely misspelling), or NULL. */
static const char *
present_typo(struct vctx *c, const struct node *map, const char *want)
{
	const char **keys = arena_alloc(c->a, (map->map.count + 1) * sizeof(*keys));
	const char *best;
	size_t k;

	for (k = 0; k < map->map.count; k++)
		keys[k] = map->map.pairs[k].key->scalar.text;
	best = closest(want, keys, map->map.count, NULL);
	return best ? echo(c->a, best, strlen(best)) : NULL;
}

static bool
embedded_field(const char *name)
{
	return strcmp(name, "apiVersion") == 0 || strcmp(name, "kind") == 0 ||
	       strcmp(name, "metadata") == 0;
}

/* propertyNames: the key `pr` checked as a string, errors named after it. */
static bool
v_property_name(struct vctx *c, const struct schema *s, const struct node_pair *pr,
		const struct pseg *p, const struct pseg *kp)
{
	const char *name = pr->key->scalar.text;
	struct vctx sub;

	memset(&sub, 0, sizeof(sub));
	sub = *c;
	sub.errs = NULL;
	sub.nerrs = sub.aerrs = 0;
	sub.truncated = false;
	if (c->collect && !c->count_only)
		sub.name_of =
			arena_printf(c->a, "field name '%s' in %s", echo(c->a, name, strlen(name)),
				     subject(c, path_of(c->a, p)));
	if (!v_schema(&sub, s->propnames, pr->key, kp)) {
		take_errors(c, &sub);
		return false;
	}
	return true;
}

/* required: each missing field reported, with the present key it looks
 * misspelt as; in accept mode false at the first one. */
static bool
v_required(struct vctx *c, const struct schema *s, const struct node *n, const struct pseg *p)
{
	bool ok = true;
	size_t k;

	for (k = 0; k < s->nrequired; k++) {
		struct pseg rp = { p, s->required[k], 0 };
		const char *typo;
		size_t before;

		if (node_map_get(n, s->required[k]))
			continue;
		ok = false;
		if (!c->collect)
			return false;
		before = c->nerrs;
		typo = present_typo(c, n, s->required[k]);
		if (typo)
			VERR(c, n, &rp,
			     "missing required field '%s' in %s ('%s' looks "
			     "like a misspelling of it)",
			     s->required[k], subject(c, path_of(c->a, p)), typo);
		else
			VERR(c, n, &rp, "missing required field '%s' in %s", s->required[k],
			     subject(c, path_of(c->a, p)));
		verr_tag(c, before, VERR_MISSING_FIELD, n, s->required[k]);
	}
	return ok;
}

/* dependencies: a present field's schema or the fields it requires beside
 * it; in accept mode false at the first field that fails. */
static bool
v_dependencies(struct vctx *c, const struct schema *s, const struct node *n, const struct pseg *p)
{
	bool ok = true;
	size_t k, j;

	for (k = 0; k < s->ndeps; k++) {
		const struct sdep *dp = &s->deps[k];
		const struct node_pair *have = node_map_pair(n, dp->name);

		if (!have)
			continue;
		if (dp->s) {
			if (!v_schema(c, dp->s, n, p))
				ok = false;
		}
		for (j = 0; j < dp->nreq; j++) {
			struct pseg kp = { p, dp->name, 0 };

			if (node_map_get(n, dp->req[j]))
				continue;
			ok = false;
			VERR(c, have->key, &kp, "field '%s' in %s requires field '%s' beside it",
			     dp->name, subject(c, path_of(c->a, p)), dp->req[j]);
		}
		if (!ok && !c->collect)
			return false;
	}
	return ok;
}

static bool
v_object(struct vctx *c, const struct schema *s, const struct node *n, const struct pseg *p)
{
	bool ok = true;
	size_t k, j;

	for (k = 0; k < n->map.count; k++) {
		const struct node_pair *pr = &n->map.pairs[k];
		const char *name = pr->key->scalar.text;
		const struct sprop *sp = find_prop(s, name);
		/* the path names the key: a secret-looking one is masked there
		 * too, as in the message (json and sarif print the path) */
		struct pseg kp = { p,
				   sp || !c->collect ||
						   !secret_unsafe_to_echo(name, pr->key->scalar.len)
					   ? name
					   : SECRET_REDACTED,
				   0 };
		bool matched = sp != NULL;

		if (sp) {
			if (sp->s->is_bool && !sp->s->bool_val) {
				VERR(c, pr->key, &kp, "field '%s' is not allowed in %s",
				     echo(c->a, name, strlen(name)), subject(c, path_of(c->a, p)));
				ok = false;
			} else if (!v_schema(c, sp->s, pr->value, &kp)) {
				ok = false;
			}
			if (!ok && !c->collect)
				return false;
		}
		for (j = 0; j < s->npprops; j++) {
			int m = schema_pattern_match(s->pprops[j].re, name, pr->key->scalar.len);

			if (m == REGEX_GAVE_UP) {
				VERR(c, pr->key, &kp,
				     "field '%s' could not be checked against the pattern %s: "
				     "the match gave up after %u steps; use a shorter name",
				     echo(c->a, name, pr->key->scalar.len),
				     echo(c->a, s->pprops[j].src, strlen(s->pprops[j].src)),
				     REGEX_MATCH_LIMIT);
				ok = false;
				if (!c->collect)
					return false;
				matched = true; /* not unknown: undecided, and said */
			}
			if (m != REGEX_MATCH)
				continue;
			matched = true;
			if (!v_schema(c, s->pprops[j].s, pr->value, &kp)) {
				ok = false;
				if (!c->collect)
					return false;
			}
		}
		if (!matched) {
			if (s->addl && s->addl->is_bool && !s->addl->bool_val) {
				unknown_field(c, s, n, pr, p, &kp);
				ok = false;
			} else if (s->addl) {
				ok = v_schema(c, s->addl, pr->value, &kp) && ok;
			} else if (s->strict && !(s->embedded && embedded_field(name))) {
				unknown_field(c, s, n, pr, p, &kp);
				ok = false;
			}
			if (!ok && !c->collect)
				return false;
		}
		if (s->propnames && !v_property_name(c, s, pr, p, &kp)) {
			ok = false;
			if (!c->collect)
				return false;
		}
	}
	if (!v_required(c, s, n, p)) {
		ok = false;
		if (!c->collect)
			return false;
	}
	if (!v_dependencies(c, s, n, p)) {
		ok = false;
		if (!c->collect)
			return false;
	}
	if (s->min_props >= 0 && n->map.count < (uint64_t)s->min_props) {
		VERR(c, n, p, "%s has %zu field%s; at least %lld %s required",
		     subject(c, path_of(c->a, p)), n->map.count, n->map.count == 1 ? "" : "s",
		     (long long)s->min_props, s->min_props == 1 ? "is" : "are");
		ok = false;
	}
	if (s->max_props >= 0 && n->map.count > (uint64_t)s->max_props) {
		VERR(c, n, p, "%s has %zu field%s; at most %lld %s allowed",
		     subject(c, path_of(c->a, p)), n->map.count, n->map.count == 1 ? "" : "s",
		     (long long)s->max_props, s->max_props == 1 ? "is" : "are");
		ok = false;
	}
	return ok;
}

/* ---- duplicate detection (uniqueItems, list-type set/map) ---- */

static uint64_t
mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
	return h;
}

static uint64_t
str_hash(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ull;
	size_t k;

	for (k = 0; k < len; k++)
		h = (h ^ (unsigned char)s[k]) * 1099511628211ull;
	return h;
}

/* A hash that agrees with node_equal (1 and 1.0 hash alike; key order
 * does not matter). */
static uint64_t
node_hash(const struct node *n)
{
	uint64_t h;
	size_t k;

	if (!n)
		return 0;
	switch (n->kind) {
	case NODE_SEQ:
		h = 7;
		for (k = 0; k < n->seq.count; k++)
			h = mix(h, node_hash(n->seq.items[k]));
		return h;
	case NODE_MAP:
		h = 11;
		for (k = 0; k < n->map.count; k++)
			h += mix(str_hash(n->map.pairs[k].key->scalar.text,
					  n->map.pairs[k].key->scalar.len),
				 node_hash(n->map.pairs[k].value));
		return h;
	case NODE_SCALAR: break;
	}
	switch (n->type) {
	case NODE_NULL: return 1;
	case NODE_BOOL: return 2 + (n->scalar.i != 0);
	case NODE_INT:
	case NODE_FLOAT: {
		double f = n->type == NODE_INT ? (double)n->scalar.i : n->scalar.f;
		uint64_t bits;

		if (f == 0)
			f = 0; /* -0 == 0 */
		memcpy(&bits, &f, sizeof(bits));
		return mix(5, bits);
	}
	default: return str_hash(n->scalar.text, n->scalar.len);
	}
}

struct hidx {
	uint64_t h;
	size_t i;
};

static int
hidx_cmp(const void *x, const void *y)
{
	const struct hidx *a = x, *b = y;

	if (a->h != b->h)
		return a->h < b->h ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

static uint64_t
map_key_hash(const struct schema *s, const struct node *item)
{
	uint64_t h = 13;
	size_t k;

	for (k = 0; k < s->nmap_keys; k++)
		h = mix(h, node_hash(node_map_get(item, s->map_keys[k])));
	return h;
}

static bool
map_key_equal(const struct schema *s, const struct node *a, const struct node *b)
{
	size_t k;

	for (k = 0; k < s->nmap_keys; k++) {
		const struct node *x = node_map_get(a, s->map_keys[k]);
		const struct node *y = node_map_get(b, s->map_keys[k]);

		if (!x != !y || (x && !node_equal(x, y)))
			return false;
	}
	return true;
}

/*
 * Report every item equal to an earlier one (by value, or by the
 * list-map keys when by_keys).  O(n log n): items are bucketed by hash
 * and only items of one bucket are compared.
 */
static bool
check_unique(struct vctx *c, const struct schema *s, const struct node *n, const struct pseg *p,
	     bool by_keys, const char *why)
{
	size_t count = n->seq.count, k, j, run;
	struct hidx *ix;
	bool ok = true;

	if (count < 2)
		return true;
	ix = malloc(count * sizeof(*ix));
	if (!ix)
		return true;
	for (k = 0; k < count; k++) {
		ix[k].i = k;
		ix[k].h = by_keys ? map_key_hash(s, n->seq.items[k]) : node_hash(n->seq.items[k]);
	}
	qsort(ix, count, sizeof(*ix), hidx_cmp);
	for (k = 0; k < count; k = run) {
		for (run = k + 1; run < count && ix[run].h == ix[k].h; run++)
			;
		for (j = k + 1; j < run; j++) {
			size_t m;

			for (m = k; m < j; m++) {
				const struct node *a = n->seq.items[ix[m].i];
				const struct node *b = n->seq.items[ix[j].i];
				bool same = by_keys ? map_key_equal(s, a, b) : node_equal(a, b);

				if (!same)
					continue;
				ok = false;
				if (c->collect) {
					struct pseg ip = { p, NULL, ix[j].i };
					struct pseg fp = { p, NULL, ix[m].i };

					VERR(c, b, &ip, "%s repeats %s (%s); %s",
					     path_of(c->a, &ip), path_of(c->a, &fp), show(c->a, b),
					     why);
				}
				break;
			}
			if (!ok && !c->collect)
				goto out;
		}
	}
out:
	free(ix);
	return ok;
}

static bool
v_array(struct vctx *c, const struct schema *s, const struct node *n, const struct pseg *p)
{
	bool ok = true;
	size_t k, count = n->seq.count;

	for (k = 0; k < count; k++) {
		const struct schema *is = NULL;
		struct pseg ip = { p, NULL, k };

		if (s->is_tuple) {
			if (k < s->ntuple) {
				is = s->tuple[k];
			} else if (s->addl_items) {
				is = s->addl_items;
				if (is->is_bool && !is->bool_val) {
					VERR(c, n->seq.items[k], &ip,
					     "%s has %zu item%s; at most %zu %s allowed",
					     subject(c, path_of(c->a, p)), count,
					     count == 1 ? "" : "s", s->ntuple,
					     s->ntuple == 1 ? "is" : "are");
					ok = false;
					break;
				}
			}
		} else {
			is = s->items;
		}
		if (is && !v_schema(c, is, n->seq.items[k], &ip)) {
			ok = false;
			if (!c->collect)
				return false;
		}
	}
	if (s->min_items >= 0 && count < (uint64_t)s->min_items) {
		if (count == 0)
			VERR(c, n, p, "%s is empty; at least %lld item%s required",
			     subject(c, path_of(c->a, p)), (long long)s->min_items,
			     s->min_items == 1 ? " is" : "s are");
		else
			VERR(c, n, p, "%s has %zu item%s; at least %lld %s required",
			     subject(c, path_of(c->a, p)), count, count == 1 ? "" : "s",
			     (long long)s->min_items, s->min_items == 1 ? "is" : "are");
		ok = false;
	}
	if (s->max_items >= 0 && count > (uint64_t)s->max_items) {
		if (s->max_items == 0)
			VERR(c, n, p, "%s must be empty here (it has %zu item%s)",
			     subject(c, path_of(c->a, p)), count, count == 1 ? "" : "s");
		else
			VERR(c, n, p, "%s has %zu items; at most %lld %s allowed",
			     subject(c, path_of(c->a, p)), count, (long long)s->max_items,
			     s->max_items == 1 ? "is" : "are");
		ok = false;
	}
	if (!ok && !c->collect)
		return false;
	if (s->contains) {
		bool found = false;

		for (k = 0; k < count && !found; k++)
			found = accepts(c, s->contains, n->seq.items[k]);
		if (!found) {
			VERR(c, n, p, "%s has no item that matches the schema at %s",
			     subject(c, path_of(c->a, p)), s->contains->where);
			ok = false;
		}
	}
	if (s->unique && !check_unique(c, s, n, p, false, "the items must be unique"))
		ok = false;
	if (s->list_type == LIST_SET &&
	    !check_unique(c, s, n, p, false, "x-kubernetes-list-type 'set' needs unique items"))
		ok = false;
	if (s->list_type == LIST_MAP && s->nmap_keys &&
	    !check_unique(c, s, n, p, true, "x-kubernetes-list-type 'map' needs unique keys"))
		ok = false;
	return ok;
}

/* "spec.x 'value'", or the property name being checked (which already
 * shows the value). */
static const char *
subject_value(struct vctx *c, const struct pseg *p, const char *txt, size_t len)
{
	if (c->name_of)
		return c->name_of;
	return arena_printf(c->a, "%s '%s'", subject(c, path_of(c->a, p)), echo(c->a, txt, len));
}

/* `pattern`: whether the string matches; the message names the pattern
 * (or, with a title, says what the value should be). */
static bool
v_pattern(struct vctx *c, const struct schema *s, const struct node *n, const struct pseg *p)
{
	const char *txt = n->scalar.text;
	size_t len = n->scalar.len;
	int m = schema_pattern_match(s->pattern, txt, len);

	if (m == REGEX_MATCH)
		return true;
	if (!c->collect)
		return false;
	if (m == REGEX_GAVE_UP) {
		VERR(c, n, p,
		     "%s could not be checked against the pattern %s: the match gave up "
		     "after %u steps; use a shorter value",
		     subject_value(c, p, txt, len),
		     echo(c->a, s->pattern_src, strlen(s->pattern_src)), REGEX_MATCH_LIMIT);
		return false;
	}
	if (s->title && s->description) {
		size_t dl = strlen(s->description);
		char *desc;

		if (dl && s->description[dl - 1] == '.')
			dl--;
		desc = arena_strndup(c->a, s->description, dl);
		/* "Lower-case letters" reads "lower-case letters" after a
		 * colon; "DNS-1123 ..." keeps its capitals. */
		if (desc[0] >= 'A' && desc[0] <= 'Z' && !(desc[1] >= 'A' && desc[1] <= 'Z'))
			desc[0] = (char)(desc[0] - 'A' + 'a');
		VERR(c, n, p, "%s is not a valid %s: %s", subject_value(c, p, txt, len), s->title,
		     desc);
	} else if (s->title) {
		VERR(c, n, p, "%s is not a valid %s (pattern %s)", subject_value(c, p, txt, len),
		     s->title, echo(c->a, s->pattern_src, strlen(s->pattern_src)));
	} else {
		VERR(c, n, p, "%s does not match the pattern %s", subject_value(c, p, txt, len),
		     echo(c->a, s->pattern_src, strlen(s->pattern_src)));
	}
	return false;
}

/* `format: regex` (draft-07): the string is an ECMA-262 pattern. */
static bool
v_format_regex(struct vctx *c, const struct node *n, const struct pseg *p)
{
	char why[256];
	struct regex *re =
		regex_compile(n->scalar.text, n->scalar.len, REGEX_ECMA, why, sizeof(why));

	if (re) {
		regex_free(re);
		return true;
	}
	VERR(c, n, p, "%s is not a valid regular expression: %s",
	     subject_value(c, p, n->scalar.text, n->scalar.len), why);
	return false;
}

static bool
v_string(struct vctx *c, const struct schema *s, const struct node *n, const struct pseg *p)
{
	const char *txt = n->scalar.text;
	size_t len = n->scalar.len;
	bool ok = true;

	if (s->min_len >= 0 || s->max_len >= 0) {
		size_t chars = utf8_length(txt, len);

		if (s->min_len >= 0 && chars < (uint64_t)s->min_len) {
			if (chars == 0)
				VERR(c, n, p, "%s is empty; it needs at least %lld character%s",
				     subject(c, path_of(c->a, p)), (long long)s->min_len,
				     s->min_len == 1 ? "" : "s");
			else
				VERR(c, n, p, "%s is %zu character%s long; the minimum is %lld",
				     subject_value(c, p, txt, len), chars, chars == 1 ? "" : "s",
				     (long long)s->min_len);
			ok = false;
		}
		if (s->max_len >= 0 && chars > (uint64_t)s->max_len) {
			VERR(c, n, p, "%s is %zu characters long; the maximum is %lld",
			     subject_value(c, p, txt, len), chars, (long long)s->max_len);
			ok = false;
		}
		if (!ok && !c->collect)
			return false;
	}
	if (s->pattern && !v_pattern(c, s, n, p)) {
		ok = false;
		if (!c->collect)
			return false;
	}
	if (s->format_regex && !v_format_regex(c, n, p))
		ok = false;
	return ok;
}

static bool
v_number(struct vctx *c, const struct schema *s, const struct node *n, const struct pseg *p)
{
	bool ok = true;
	const char *num = n->scalar.text;

	if (s->minimum && num_cmp(n, s->minimum) < 0) {
		VERR(c, n, p, "%s is %s; the minimum is %s", subject(c, path_of(c->a, p)), num,
		     node_text(s->minimum));
		ok = false;
	}
	if (s->maximum && num_cmp(n, s->maximum) > 0) {
		VERR(c, n, p, "%s is %s; the maximum is %s", subject(c, path_of(c->a, p)), num,
		     node_text(s->maximum));
		ok = false;
	}
	if (s->xminimum && num_cmp(n, s->xminimum) <= 0) {
		VERR(c, n, p, "%s is %s; it must be greater than %s", subject(c, path_of(c->a, p)),
		     num, node_text(s->xminimum));
		ok = false;
	}
	if (s->xmaximum && num_cmp(n, s->xmaximum) >= 0) {
		VERR(c, n, p, "%s is %s; it must be less than %s", subject(c, path_of(c->a, p)),
		     num, node_text(s->xmaximum));
		ok = false;
	}
	if (s->multiple_of && !is_multiple(n, s->multiple_of)) {
		VERR(c, n, p, "%s is %s; it must be a multiple of %s", subject(c, path_of(c->a, p)),
		     num, node_text(s->multiple_of));
		ok = false;
	}
	if (s->int_bits && schema_num_is_integral(n)) {
		double v = n->type == NODE_INT ? (double)n->scalar.i : n->scalar.f;
		int64_t exact;

		if (schema_num_exact(n, &exact) == 0)
			v = (double)exact;

		if (s->int_bits == 32 && (v < INT32_MIN || v > INT32_MAX)) {
			VERR(c, n, p, "%s is %s; it does not fit in a 32-bit integer (int32)",
			     subject(c, path_of(c->a, p)), num);
			ok = false;
		}
		if (s->int_bits == 64 && schema_num_exact(n, &exact) != 0 &&
		    (v < -9.223372036854775808e18 || v >= 9.223372036854775808e18)) {
			VERR(c, n, p, "%s is %s; it does not fit in a 64-bit integer (int64)",
			     subject(c, path_of(c->a, p)), num);
			ok = false;
		}
	}
	return ok;
}

static void
type_error(struct vctx *c, const struct schema *s, const struct node *n, const struct pseg *p)
{
	const char *want = types_text(c->a, s->types);
	const char *subj = subject(c, path_of(c->a, p));
	const char *hint = "";

	if ((s->types & ST_STRING) && n->kind == NODE_SCALAR && n->type != NODE_STR)
		hint = arena_printf(c->a, "; to mean the text, quote it: \"%s\"",
				    echo(c->a, n->scalar.text, n->scalar.len));
	else if ((s->types & (ST_INTEGER | ST_NUMBER)) && n->kind == NODE_SCALAR &&
		 n->type == NODE_STR && n->scalar.len &&
		 strspn(n->scalar.text, "0123456789.-+eE") == n->scalar.len)
		hint = "; remove the quotes";
	VERR(c, n, p, "%s must be %s (got %s)%s", subj, want, describe(c->a, n), hint);
}

static void
enum_error(struct vctx *c, const struct schema *s, const struct node *n, const struct pseg *p)
{
	const struct node *ev = s->enum_v;
	const char **cands = arena_alloc(c->a, (ev->seq.count + 1) * sizeof(*cands));
	const char *list = NULL, *hint = NULL;
	size_t k, ncand = 0;

	for (k = 0; k < ev->seq.count; k++) {
		const struct node *e = ev->seq.items[k];
		const char *t = e->kind == NODE_SCALAR && e->type == NODE_STR
					? echo(c->a, e->scalar.text, e->scalar.len)
					: show(c->a, e);

		if (k == 12) {
			list = arena_printf(c->a, "%s, ...", list);
			break;
		}
		list = list ? arena_printf(c->a, "%s, %s", list, t) : t;
	}
	for (k = 0; k < ev->seq.count; k++)
		if (node_is_str(ev->seq.items[k]))
			cands[ncand++] = ev->seq.items[k]->scalar.text;
	if (node_is_str(n))
		hint = closest(n->scalar.text, cands, ncand, NULL);
	if (hint)
		VERR(c, n, p, "%s must be one of: %s (got %s; did you mean '%s'?)",
		     subject(c, path_of(c->a, p)), list ? list : "", show(c->a, n), hint);
	else
		VERR(c, n, p, "%s must be one of: %s (got %s)", subject(c, path_of(c->a, p)),
		     list ? list : "", show(c->a, n));
}

/* One branch checked into sub, collecting (or only counting) its errors. */
static void
branch_check(struct vctx *sub, const struct vctx *c, bool count_only, const struct schema *b,
	     const struct node *node, const struct pseg *p)
{
	memset(sub, 0, sizeof(*sub));
	sub->a = c->a;
	sub->bud = c->bud;
	sub->collect = true;
	sub->count_only = count_only;
	sub->depth = c->depth;
	sub->name_of = c->name_of;
	v_schema(sub, b, node, p);
}

/* anyOf / oneOf with no passing branch: the errors of the branch that
 * came closest (fewest errors), not a wall of every branch's errors. */
static void
best_branch(struct vctx *c, struct schema *const *br, size_t n, const struct node *node,
	    const struct pseg *p)
{
	struct vctx best, sub;
	size_t k, best_k = 0;
	bool have = false;

	bool best_fits = false;

	memset(&best, 0, sizeof(best));
	/* the errors of every branch are counted; the messages are built
	 * for the closest branch only */
	for (k = 0; k < n; k++) {
		const struct schema *b = br[k];
		bool fits;
		unsigned hops = 0;

		/* A branch for another type (string vs object) is the least
		 * relevant, however few its errors: it says "wrong type". */
		while (b->ref && hops++ < 64)
			b = b->ref;
		fits = !b->types || (b->types & node_types(node));
		branch_check(&sub, c, true, br[k], node, p);
		if (!sub.nerrs)
			continue;
		if (!have || (fits && !best_fits) ||
		    (fits == best_fits && sub.nerrs < best.nerrs)) {
			best = sub;
			best_k = k;
			best_fits = fits;
			have = true;
		}
	}
	if (have && !c->count_only)
		branch_check(&best, c, false, br[best_k], node, p);
	if (have)
		take_errors(c, &best);
	else
		VERR(c, node, p, "%s matches none of the allowed alternatives",
		     subject(c, path_of(c->a, p)));
}

/* allOf, anyOf, oneOf, not and if/then/else over one value; in accept
 * mode false at the first that fails. */
static bool
v_logic(struct vctx *c, const struct schema *s, const struct node *n, const struct pseg *p)
{
	bool ok = true;
	size_t k;

	for (k = 0; k < s->nall; k++) {
		if (!v_schema(c, s->all_of[k], n, p)) {
			ok = false;
			if (!c->collect)
				return false;
		}
	}
	if (s->nany) {
		for (k = 0; k < s->nany; k++)
			if (accepts(c, s->any_of[k], n))
				break;
		if (k == s->nany) {
			ok = false;
			if (!c->collect)
				return false;
			best_branch(c, s->any_of, s->nany, n, p);
		}
	}
	if (s->none) {
		size_t pass = 0, first = 0, second = 0;

		for (k = 0; k < s->none && pass < 2; k++) {
			if (accepts(c, s->one_of[k], n)) {
				if (pass == 0)
					first = k;
				else
					second = k;
				pass++;
			}
		}
		if (pass != 1) {
			ok = false;
			if (!c->collect)
				return false;
			if (pass == 0)
				best_branch(c, s->one_of, s->none, n, p);
			else
				VERR(c, n, p,
				     "%s matches more than one alternative "
				     "(%s/%zu and /%zu); it must match exactly one",
				     subject(c, path_of(c->a, p)), s->where, first, second);
		}
	}
	if (s->not_s && accepts(c, s->not_s, n)) {
		VERR(c, n, p, "%s must not match the schema at %s", subject(c, path_of(c->a, p)),
		     s->not_s->where);
		ok = false;
		if (!c->collect)
			return false;
	}
	if (s->if_s && (s->then_s || s->else_s)) {
		const struct schema *branch = accepts(c, s->if_s, n) ? s->then_s : s->else_s;

		if (branch && !v_schema(c, branch, n, p))
			ok = false;
	}
	return ok;
}

double
schema_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* One step more; true once a bound is passed (and from then on). */
static bool
budget_spent(struct vbudget *b)
{
	if (b->out)
		return true;
	if (++b->steps > b->max) {
		b->out = true;
		b->why = "steps";
	} else if (b->steps % BUDGET_LOOK == 0) {
		if (b->deadline > 0 && schema_clock() > b->deadline) {
			b->out = true;
			b->why = "deadline";
		} else if (b->a->total - b->bytes_at_start > SCHEMA_BYTES_PER_OBJECT) {
			b->out = true;
			b->why = "memory";
		}
	}
	return b->out;
}

static bool
v_schema(struct vctx *c, const struct schema *s, const struct node *n, const struct pseg *p)
{
	bool ok = true;
	size_t k;

	if (s->is_bool) {
		if (s->bool_val)
			return true;
		VERR(c, n, p, "%s is not allowed here", subject(c, path_of(c->a, p)));
		return false;
	}
	if (c->bud && budget_spent(c->bud))
		return false; /* the verdict is discarded: schema_validate_bounded says -3 */
	if (++c->depth > MAX_DEPTH) {
		VERR(c, n, p, "%s: the schema nests too deep here (a $ref loop?)",
		     subject(c, path_of(c->a, p)));
		ok = false;
		goto out;
	}
	if (s->ref) {
		ok = v_schema(c, s->ref, n, p);
		goto out;
	}
	if (s->nullable && node_is_null(n))
		goto out;
	if (s->types && !(s->types & node_types(n))) {
		if (c->collect)
			type_error(c, s, n, p);
		ok = false;
		goto out; /* the rest would only repeat it */
	}
	if (s->const_v && !node_equal(n, s->const_v)) {
		VERR(c, n, p, "%s must be %s (got %s)", subject(c, path_of(c->a, p)),
		     show(c->a, s->const_v), show(c->a, n));
		ok = false;
		if (!c->collect)
			goto out;
	}
	if (s->enum_v) {
		for (k = 0; k < s->enum_v->seq.count; k++)
			if (node_equal(n, s->enum_v->seq.items[k]))
				break;
		if (k == s->enum_v->seq.count) {
			if (c->collect)
				enum_error(c, s, n, p);
			ok = false;
			if (!c->collect)
				goto out;
		}
	}
	if (n->kind == NODE_MAP)
		ok = v_object(c, s, n, p) && ok;
	else if (n->kind == NODE_SEQ)
		ok = v_array(c, s, n, p) && ok;
	else if (n->type == NODE_STR)
		ok = v_string(c, s, n, p) && ok;
	else if (n->type == NODE_INT || n->type == NODE_FLOAT)
		ok = v_number(c, s, n, p) && ok;
	if (!ok && !c->collect)
		goto out;
	if (!v_logic(c, s, n, p))
		ok = false;
out:
	c->depth--;
	return ok;
}

/*
 * A missing required field that an unknown key of the same mapping is
 * the misspelling of (fallbak: did you mean 'fallback'?) is one mistake,
 * already said at the typo: the missing-field error would repeat it at
 * the parent's line.
 */
static bool
said_at_typo(const struct vctx *c, const struct verr *e)
{
	size_t k;

	if (e->kind != VERR_MISSING_FIELD)
		return false;
	for (k = 0; k < c->nerrs; k++)
		if (c->errs[k].kind == VERR_UNKNOWN_FIELD && c->errs[k].map == e->map &&
		    strcmp(c->errs[k].field, e->field) == 0)
			return true;
	return false;
}

int
schema_validate(const struct schema *s, struct arena *a, struct diags *d, const char *rule,
		const struct node *doc)
{
	return schema_validate_bounded(s, a, d, rule, doc, NULL);
}

/* The evaluation of doc with the bounds of b; -3 (b->why set) once one is
 * passed, with nothing reported. */
static int
evaluate(struct vctx *c, const struct schema *s, const struct node *doc, struct schema_budget *b)
{
	struct vbudget vb;
	bool ok;

	memset(&vb, 0, sizeof(vb));
	if (b) {
		unsigned long left =
			b->run_steps_max > b->run_steps ? b->run_steps_max - b->run_steps : 0;

		vb.max = b->object_steps_max < left ? b->object_steps_max : left;
		vb.deadline = b->deadline;
		vb.a = c->a;
		vb.bytes_at_start = c->a->total;
		c->bud = &vb;
	}
	ok = v_schema(c, s, doc, NULL);
	if (!b)
		return ok ? 0 : -1;
	b->run_steps += vb.steps;
	if (!vb.out)
		return ok ? 0 : -1;
	b->why = !strcmp(vb.why, "deadline") ? "the --timeout ran out"
		 : !strcmp(vb.why, "memory")
			 ? "its evaluation took more memory than the limit of one object"
		 : vb.max < b->object_steps_max
			 ? "the run's schema evaluation passed its limit of steps"
			 : "its evaluation passed the limit of steps of one object";
	return -3;
}

int
schema_validate_bounded(const struct schema *s, struct arena *a, struct diags *d, const char *rule,
			const struct node *doc, struct schema_budget *b)
{
	struct vctx c;
	size_t k;
	int rc;

	if (!s || !doc)
		return -1;
	memset(&c, 0, sizeof(c));
	c.a = a;
	c.collect = true;
	rc = evaluate(&c, s, doc, b);
	if (rc == -3)
		return -3;
	if (rc == 0 && c.nerrs == 0)
		return 0;
	if (c.nerrs == 0)
		diag_report(d, doc->at, rule, "", "the document does not match the schema");
	for (k = 0; k < c.nerrs; k++)
		if (!said_at_typo(&c, &c.errs[k]))
			diag_report(d, c.errs[k].at, rule, c.errs[k].path, "%s", c.errs[k].msg);
	if (c.truncated)
		diag_report(d, doc->at, rule, "",
			    "more than %d schema violations in this document; "
			    "the rest are not shown",
			    MAX_ERRORS);
	return -1;
}

bool
schema_accepts(const struct schema *s, const struct node *doc)
{
	struct vctx c;

	if (!s || !doc)
		return false;
	memset(&c, 0, sizeof(c));
	return v_schema(&c, s, doc, NULL);
}
