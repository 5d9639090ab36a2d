/*
 * yaml_read.c - YAML bytes -> node trees, with libyaml's event API.
 *
 * The event API (not the document API) lets us stop at the first sign of
 * trouble: nesting is checked when a collection opens, alias expansion is
 * charged to a running total when the alias is seen (anchors share their
 * subtree, they are never copied), so neither a billion-laughs file nor a
 * 100,000-deep nest costs more than a few milliseconds.  Bytes are
 * checked for NUL and invalid UTF-8 before libyaml sees them, so those
 * are reported at their exact line:column.
 */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/num.h"
#include "base/utf8.h"
#include "base/xalloc.h"
#include "node/node.h"
#include "yamlio/scalar.h"
#include "yamlio/yamlio.h"

#define RULE_SYNTAX "GS001"
#define RULE_DUPKEY "GS002"
#define TAG_PREFIX "tag:yaml.org,2002:"

const struct yamlio_limits yamlio_default_limits = {
	.max_bytes = YAMLIO_MAX_BYTES,
	.max_depth = 64,
	.max_nodes = 1000000,
	.max_scalar = 1u << 20,
	.max_docs = 10000,
	.max_key = 1024,
};

/* An anchor: the node it names and how many nodes it expands into. */
struct anchor {
	const char *name;
	struct node *node; /* NULL while its collection is still open */
	size_t nodes;      /* nodes in the subtree, aliases expanded */
	unsigned height;   /* collection levels in the subtree */
};

struct anchors {
	struct anchor *slots; /* open addressing, heap */
	size_t size;          /* power of two, or 0 */
	size_t used;
};

/* A collection being built. */
struct frame {
	struct node *node;
	const char *anchor; /* registered when the collection closes */
	size_t nodes;       /* this node plus its subtree so far */
	unsigned height;    /* 1 + the tallest child collection */
	struct node *key;   /* mappings: the key waiting for its value */
	bool key_is_merge;
	struct node **merges; /* mappings named by `<<`, in order */
	size_t nmerges, amerges;
};

struct loader {
	struct arena *a;
	struct diags *d;
	const char *file;
	const char *bytes;
	size_t len;
	struct yamlio_limits lim;
	struct yamlio_docs *out;
	struct frame *stack; /* heap */
	size_t depth, stack_alloc;
	struct anchors anchors;
	size_t total; /* nodes of the file so far, aliases expanded */
	size_t docs_seen;
	struct node *root;
	bool root_empty; /* the root is an empty plain scalar */
	bool dup_found;
};

/* ---------------------------------------------------------------- places */

static struct pos
pos_of(const struct loader *l, yaml_mark_t m)
{
	struct pos p = { l->file, (unsigned)m.line + 1, (unsigned)m.column + 1 };

	return p;
}

/*
 * line:col of a byte offset, counting as libyaml does: columns are
 * characters, a BOM at the start is not a column, CR LF / CR / LF and
 * NEL, LS, PS are line breaks.
 */
static struct pos
pos_at_offset(const struct loader *l, size_t off)
{
	const unsigned char *p = (const unsigned char *)l->bytes;
	struct pos at = { l->file, 1, 1 };
	size_t i = 0;

	if (off > l->len)
		off = l->len;
	if (l->len >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf)
		i = 3;
	while (i < off) {
		unsigned char c = p[i];

		if (c == '\n' || (c == '\r' && (i + 1 >= l->len || p[i + 1] != '\n'))) {
			at.line++;
			at.col = 1;
			i++;
			continue;
		}
		if (c == '\r') {
			i++;
			continue;
		}
		if (c == 0xc2 && i + 1 < l->len && p[i + 1] == 0x85) {
			at.line++;
			at.col = 1;
			i += 2;
			continue;
		}
		if (c == 0xe2 && i + 2 < l->len && p[i + 1] == 0x80 &&
		    (p[i + 2] == 0xa8 || p[i + 2] == 0xa9)) {
			at.line++;
			at.col = 1;
			i += 3;
			continue;
		}
		if ((c & 0xc0) != 0x80)
			at.col++;
		i++;
	}
	return at;
}

static int syntax_error(struct loader *l, struct pos at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int
syntax_error(struct loader *l, struct pos at, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vreport(l->d, at, RULE_SYNTAX, "", fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * Text fit for a one-line message: control characters escaped, long
 * text cut to 60 bytes (at a character boundary) with "...".
 */
static const char *
shown(struct loader *l, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, n = 0, lim = len > 60 ? 57 : len;
	char *o;

	while (lim < len && lim > 0 && ((unsigned char)s[lim] & 0xc0) == 0x80)
		lim--;
	o = arena_alloc(l->a, lim * 4 + 4);
	for (i = 0; i < lim; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c == 0x7f) {
			o[n++] = '\\';
			o[n++] = 'x';
			o[n++] = hex[c >> 4];
			o[n++] = hex[c & 15];
		} else {
			o[n++] = (char)c;
		}
	}
	if (lim < len) {
		memcpy(o + n, "...", 3);
		n += 3;
	}
	o[n] = '\0';
	return o;
}

/* "!!python/object" for "tag:yaml.org,2002:python/object". */
static const char *
tag_shown(struct loader *l, const char *tag)
{
	if (strncmp(tag, TAG_PREFIX, strlen(TAG_PREFIX)) == 0)
		return arena_printf(
			l->a, "!!%s",
			shown(l, tag + strlen(TAG_PREFIX), strlen(tag + strlen(TAG_PREFIX))));
	return shown(l, tag, strlen(tag));
}

/* -------------------------------------------------------------- anchors */

static size_t
hash_str(const char *s, size_t len)
{
	size_t h = 14695981039346656037ULL & SIZE_MAX, i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= (size_t)1099511628211ULL;
	}
	return h;
}

static struct anchor *
anchor_find(struct anchors *t, const char *name)
{
	size_t i;

	if (!t->size)
		return NULL;
	i = hash_str(name, strlen(name)) & (t->size - 1);
	while (t->slots[i].name) {
		if (strcmp(t->slots[i].name, name) == 0)
			return &t->slots[i];
		i = (i + 1) & (t->size - 1);
	}
	return NULL;
}

/* Define (or redefine: the latest definition wins) an anchor. */
static struct anchor *
anchor_set(struct loader *l, const char *name)
{
	struct anchors *t = &l->anchors;
	struct anchor *e = anchor_find(t, name);
	size_t i;

	if (e)
		return e;
	if ((t->used + 1) * 2 > t->size) {
		struct anchors old = *t;

		t->size = old.size ? old.size * 2 : 64;
		t->slots = xcalloc(t->size, sizeof(*t->slots));
		t->used = 0;
		for (i = 0; i < old.size; i++) {
			if (old.slots[i].name) {
				size_t j = hash_str(old.slots[i].name, strlen(old.slots[i].name)) &
					   (t->size - 1);

				while (t->slots[j].name)
					j = (j + 1) & (t->size - 1);
				t->slots[j] = old.slots[i];
				t->used++;
			}
		}
		free(old.slots);
	}
	i = hash_str(name, strlen(name)) & (t->size - 1);
	while (t->slots[i].name)
		i = (i + 1) & (t->size - 1);
	e = &t->slots[i];
	e->name = arena_strdup(l->a, name);
	t->used++;
	return e;
}

static void
anchors_clear(struct anchors *t)
{
	free(t->slots);
	t->slots = NULL;
	t->size = 0;
	t->used = 0;
}

/* --------------------------------------------------------------- keysets */

/*
 * A set of key texts, to find duplicates and merged keys in O(1).  Sized
 * once for every key that may go in (it never fills up); small sets
 * live on the stack, and one of KEYSET_LINEAR keys or fewer (most
 * mappings of a spec) is a plain list: comparing a few keys costs less
 * than hashing them and clearing the table.
 */
#define KEYSET_INLINE 64
#define KEYSET_LINEAR 8

struct keyset {
	const struct node **slots;
	size_t size;  /* hash slots; 0: a list */
	size_t count; /* keys in the list */
	const struct node *inline_slots[KEYSET_INLINE];
};

static void
keyset_init(struct keyset *s, size_t n)
{
	s->count = 0;
	if (n <= KEYSET_LINEAR) {
		s->size = 0;
		s->slots = s->inline_slots;
		return;
	}
	s->size = 16;
	while (s->size < n * 2)
		s->size *= 2;
	if (s->size <= KEYSET_INLINE) {
		s->slots = s->inline_slots;
		memset(s->inline_slots, 0, s->size * sizeof(*s->slots));
	} else {
		s->slots = xcalloc(s->size, sizeof(*s->slots));
	}
}

static void
keyset_release(struct keyset *s)
{
	if (s->slots != s->inline_slots)
		free(s->slots);
}

static bool
same_key(const struct node *o, const struct node *k)
{
	return o->scalar.len == k->scalar.len &&
	       memcmp(o->scalar.text, k->scalar.text, k->scalar.len) == 0;
}

/* The key already in the set with the same text, else insert k. */
static const struct node *
keyset_add(struct keyset *s, const struct node *k)
{
	size_t i;

	if (!s->size) {
		for (i = 0; i < s->count; i++)
			if (same_key(s->slots[i], k))
				return s->slots[i];
		s->slots[s->count++] = k;
		return NULL;
	}
	i = hash_str(k->scalar.text, k->scalar.len) & (s->size - 1);
	while (s->slots[i]) {
		const struct node *o = s->slots[i];

		if (same_key(o, k))
			return o;
		i = (i + 1) & (s->size - 1);
	}
	s->slots[i] = k;
	return NULL;
}

/* ---------------------------------------------------- scalar resolution */

/* s[0..len) is the word w; s holds no NUL (on_scalar refuses one), so the
 * walk stops at w's end or before. */
static bool
word_is(const char *s, size_t len, const char *w)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (w[i] != s[i])
			return false;
	return w[len] == '\0';
}

static bool
is_word(const char *s, size_t len, const char *const *words)
{
	for (; *words; words++)
		if (word_is(s, len, *words))
			return true;
	return false;
}

static const char *const null_words[] = { "~", "null", "Null", "NULL", NULL };
static const char *const true_words[] = { "true", "True", "TRUE", NULL };
static const char *const false_words[] = { "false", "False", "FALSE", NULL };

static struct node *
scalar_node(struct loader *l, struct pos at, enum node_type type, const char *text, size_t len)
{
	struct node *n = node_new_strn(l->a, at, text, len);

	n->type = type;
	return n;
}

/* node_new_int()'s node, its decimal text written here rather than by
 * printf (a spec is full of small numbers). */
static struct node *
int_node(struct loader *l, struct pos at, int64_t v)
{
	char text[NUM_U64_DIGITS + 1], *p = text + sizeof(text);
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	struct node *n;

	p = num_u64_text(p, u);
	if (v < 0)
		*--p = '-';
	n = node_new_strn(l->a, at, p, (size_t)(text + sizeof(text) - p));
	n->type = NODE_INT;
	n->scalar.i = v;
	n->scalar.f = (double)v;
	return n;
}

/* A plain scalar, resolved as the YAML 1.2 core schema says. */
static struct node *
resolve_plain(struct loader *l, struct pos at, const char *s, size_t len)
{
	int64_t i;
	double f;
	int r;
	struct node *n;

	if (len == 0)
		return node_new_null(l->a, at);
	if (len <= 5) { /* "false" is the longest word */
		if (is_word(s, len, null_words))
			return node_new_null(l->a, at);
		if (is_word(s, len, true_words))
			return node_new_bool(l->a, at, true);
		if (is_word(s, len, false_words))
			return node_new_bool(l->a, at, false);
	}
	/* a number starts with a digit, a sign or a point (".5", ".inf",
	 * ".nan"); most plain scalars are words */
	if (!((s[0] >= '0' && s[0] <= '9') || s[0] == '-' || s[0] == '+' || s[0] == '.'))
		return node_new_strn(l->a, at, s, len);
	r = yamlio_parse_int(s, len, &i, &f);
	if (r == 1)
		return int_node(l, at, i);
	if (r == 0 && !yamlio_parse_float(s, len, &f))
		return node_new_strn(l->a, at, s, len);
	/* A float, or an int too big for int64: keep the source text. */
	n = scalar_node(l, at, NODE_FLOAT, s, len);
	n->scalar.f = f;
	return n;
}

/*
 * A scalar with an explicit core tag (the suffix after
 * "tag:yaml.org,2002:").  0 with *out set; -1 when the value does not fit
 * the tag (diagnostic added); 1 when the tag is not one we know.
 */
static int
resolve_tagged(struct node **out, struct loader *l, struct pos at, const char *tag, const char *s,
	       size_t len)
{
	int64_t i;
	double f;
	int r;

	*out = NULL;
	if (strcmp(tag, "str") == 0) {
		*out = node_new_strn(l->a, at, s, len);
	} else if (strcmp(tag, "null") == 0) {
		if (len == 0 || is_word(s, len, null_words))
			*out = node_new_null(l->a, at);
	} else if (strcmp(tag, "bool") == 0) {
		if (is_word(s, len, true_words))
			*out = node_new_bool(l->a, at, true);
		else if (is_word(s, len, false_words))
			*out = node_new_bool(l->a, at, false);
	} else if (strcmp(tag, "int") == 0) {
		r = yamlio_parse_int(s, len, &i, &f);
		if (r == 1) {
			*out = int_node(l, at, i);
		} else if (r == 2) {
			*out = scalar_node(l, at, NODE_FLOAT, s, len);
			(*out)->scalar.f = f;
		}
	} else if (strcmp(tag, "float") == 0) {
		r = yamlio_parse_int(s, len, &i, &f);
		if (r || yamlio_parse_float(s, len, &f)) {
			*out = scalar_node(l, at, NODE_FLOAT, s, len);
			(*out)->scalar.f = f;
		}
	} else {
		return 1;
	}
	if (*out)
		return 0;
	return syntax_error(l, at, "'%s' is not a valid !!%s value", shown(l, s, len), tag);
}

/* ------------------------------------------------------- tree building */

static int
check_total(struct loader *l, struct pos at, size_t add)
{
	if (add > l->lim.max_nodes || l->total > l->lim.max_nodes - add) {
		l->total = l->lim.max_nodes + 1;
		return syntax_error(l, at,
				    "alias expansion exceeds the limit of %zu nodes per file; "
				    "use fewer aliases or split the file",
				    l->lim.max_nodes);
	}
	l->total += add;
	return 0;
}

static struct frame *
top(struct loader *l)
{
	return l->depth ? &l->stack[l->depth - 1] : NULL;
}

/* A mapping with its `<<` sources folded in and duplicates dropped. */
static void
map_finish(struct loader *l, struct frame *fr)
{
	struct node *m = fr->node;
	struct keyset set;
	size_t i, j, kept = 0, all = m->map.count;

	for (i = 0; i < fr->nmerges; i++)
		all += fr->merges[i]->map.count;
	keyset_init(&set, all);
	for (i = 0; i < m->map.count; i++) {
		struct node_pair *p = &m->map.pairs[i];
		const struct node *first = keyset_add(&set, p->key);

		if (first) {
			diag_report(l->d, p->key->at, RULE_DUPKEY, "",
				    "duplicate key '%s' (first at line %u, column %u); "
				    "remove one of them",
				    shown(l, p->key->scalar.text, p->key->scalar.len),
				    first->at.line, first->at.col);
			l->dup_found = true;
			continue;
		}
		m->map.pairs[kept++] = *p;
	}
	m->map.count = kept;
	/* Explicit keys win; an earlier merged mapping wins over a later. */
	for (i = 0; i < fr->nmerges; i++) {
		const struct node *src = fr->merges[i];

		for (j = 0; j < src->map.count; j++) {
			const struct node_pair *p = &src->map.pairs[j];

			if (keyset_add(&set, p->key))
				continue;
			node_map_add_node(l->a, m, p->key, p->value);
		}
	}
	keyset_release(&set);
}

static int
add_merge(struct loader *l, struct frame *fr, struct node *src)
{
	ARENA_GROW(l->a, fr->merges, fr->nmerges, fr->amerges, 4);
	fr->merges[fr->nmerges++] = src;
	return 0;
}

static int
merge_value(struct loader *l, struct frame *fr, struct node *v, struct pos at)
{
	size_t i;

	if (v->kind == NODE_MAP)
		return add_merge(l, fr, v);
	if (v->kind == NODE_SEQ) {
		for (i = 0; i < v->seq.count; i++)
			if (v->seq.items[i]->kind != NODE_MAP)
				goto bad;
		for (i = 0; i < v->seq.count; i++)
			add_merge(l, fr, v->seq.items[i]);
		return 0;
	}
bad:
	return syntax_error(l, at,
			    "the value of a merge key '<<' must be a mapping or a sequence "
			    "of mappings");
}

/*
 * Hand a finished node (nodes = its expanded size, height = its
 * collection levels) to the collection that holds it.
 */
static int
attach(struct loader *l, struct node *n, struct pos at, size_t nodes, unsigned height,
       bool is_merge_key)
{
	struct frame *fr = top(l);

	if (!fr) {
		l->root = n;
		return 0;
	}
	fr->nodes += nodes;
	if (height + 1 > fr->height)
		fr->height = height + 1;
	if (fr->node->kind == NODE_SEQ) {
		node_seq_push(l->a, fr->node, n);
		return 0;
	}
	if (!fr->key) {
		if (n->kind != NODE_SCALAR)
			return syntax_error(l, at, "a mapping key must be a scalar, not a %s",
					    n->kind == NODE_MAP ? "mapping" : "sequence");
		if (n->scalar.len > l->lim.max_key)
			return syntax_error(l, at, "mapping key is %zu bytes; the limit is %zu",
					    n->scalar.len, l->lim.max_key);
		fr->key = n;
		fr->key_is_merge = is_merge_key;
		return 0;
	}
	if (fr->key_is_merge) {
		if (merge_value(l, fr, n, at) < 0)
			return -1;
	} else {
		node_map_add_node(l->a, fr->node, fr->key, n);
	}
	fr->key = NULL;
	fr->key_is_merge = false;
	return 0;
}

/* Is the next node a mapping key?  (Collections may not be keys.) */
static bool
wants_key(struct loader *l)
{
	struct frame *fr = top(l);

	return fr && fr->node->kind == NODE_MAP && !fr->key;
}

static const char *
core_tag(const char *tag)
{
	if (tag && strncmp(tag, TAG_PREFIX, strlen(TAG_PREFIX)) == 0)
		return tag + strlen(TAG_PREFIX);
	return NULL;
}

static int
on_scalar(struct loader *l, const yaml_event_t *ev)
{
	struct pos at = pos_of(l, ev->start_mark);
	const char *s = (const char *)ev->data.scalar.value;
	size_t len = ev->data.scalar.length;
	const char *tag = (const char *)ev->data.scalar.tag;
	const char *core = core_tag(tag);
	bool plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
	bool merge_key = false;
	struct node *n;

	if (check_total(l, at, 1) < 0)
		return -1;
	if (len > l->lim.max_scalar)
		return syntax_error(l, at, "scalar is %zu bytes; the limit is %zu", len,
				    l->lim.max_scalar);
	/* A raw NUL never gets here (check_bytes); an escaped one ("\0",
	 * "\x00", "\u0000") would cut the text short in every C string that
	 * holds it, so a key "gpuLimit\0" would pass for gpuLimit. */
	if (memchr(s, '\0', len))
		return syntax_error(l, at,
				    "NUL character (an escaped \\0, \\x00 or \\u0000) in a "
				    "quoted scalar; YAML text here cannot contain it, remove it");
	if (!tag) {
		n = plain ? resolve_plain(l, at, s, len) : node_new_strn(l->a, at, s, len);
		merge_key = plain && len == 2 && memcmp(s, "<<", 2) == 0;
	} else if (strcmp(tag, "!") == 0) {
		n = node_new_strn(l->a, at, s, len);
	} else if (core && strcmp(core, "merge") == 0 && len == 2 && memcmp(s, "<<", 2) == 0 &&
		   wants_key(l)) {
		n = node_new_strn(l->a, at, s, len);
		merge_key = true;
	} else if (core && (strcmp(core, "map") == 0 || strcmp(core, "seq") == 0)) {
		return syntax_error(l, at, "tag !!%s on a scalar; use it on a %s", core,
				    strcmp(core, "map") == 0 ? "mapping" : "sequence");
	} else {
		int r = core ? resolve_tagged(&n, l, at, core, s, len) : 1;

		if (r < 0)
			return -1;
		if (r > 0)
			return syntax_error(l, at,
					    "unsupported tag '%s'; only !!str, !!int, !!float, "
					    "!!bool, !!null, !!map and !!seq are allowed",
					    tag_shown(l, tag));
	}
	if (!l->depth)
		l->root_empty = plain && !tag && len == 0 && !ev->data.scalar.anchor;
	if (ev->data.scalar.anchor) {
		struct anchor *e = anchor_set(l, (const char *)ev->data.scalar.anchor);

		e->node = n;
		e->nodes = 1;
		e->height = 0;
	}
	return attach(l, n, at, 1, 0, merge_key);
}

static int
on_alias(struct loader *l, const yaml_event_t *ev)
{
	struct pos at = pos_of(l, ev->start_mark);
	const char *name = (const char *)ev->data.alias.anchor;
	struct anchor *e = anchor_find(&l->anchors, name);

	if (!e)
		return syntax_error(l, at,
				    "undefined alias '*%s'; define the "
				    "anchor '&%s' before using it",
				    shown(l, name, strlen(name)), shown(l, name, strlen(name)));
	if (!e->node)
		return syntax_error(l, at,
				    "alias '*%s' refers to a node that "
				    "contains it",
				    shown(l, name, strlen(name)));
	if (check_total(l, at, e->nodes) < 0)
		return -1;
	if (l->depth + e->height > l->lim.max_depth)
		return syntax_error(l, at,
				    "alias '*%s' makes the nesting deeper "
				    "than %u levels",
				    shown(l, name, strlen(name)), l->lim.max_depth);
	if (!l->depth)
		l->root_empty = false;
	return attach(l, e->node, at, e->nodes, e->height, false);
}

static int
on_start(struct loader *l, const yaml_event_t *ev, bool is_map)
{
	struct pos at = pos_of(l, ev->start_mark);
	const char *tag = is_map ? (const char *)ev->data.mapping_start.tag
				 : (const char *)ev->data.sequence_start.tag;
	const char *anchor = is_map ? (const char *)ev->data.mapping_start.anchor
				    : (const char *)ev->data.sequence_start.anchor;
	const char *core = core_tag(tag);
	struct frame *fr;

	if (wants_key(l))
		return syntax_error(l, at, "a mapping key must be a scalar, not a %s",
				    is_map ? "mapping" : "sequence");
	if (l->depth + 1 > l->lim.max_depth)
		return syntax_error(l, at, "nesting is deeper than %u levels", l->lim.max_depth);
	if (check_total(l, at, 1) < 0)
		return -1;
	if (tag && strcmp(tag, "!") != 0) {
		if (!core || (strcmp(core, "map") != 0 && strcmp(core, "seq") != 0))
			return syntax_error(l, at,
					    "unsupported tag '%s'; only !!str, !!int, !!float, "
					    "!!bool, !!null, !!map and !!seq are allowed",
					    tag_shown(l, tag));
		if ((strcmp(core, "map") == 0) != is_map)
			return syntax_error(l, at, "tag !!%s on a %s", core,
					    is_map ? "mapping" : "sequence");
	}
	if (l->depth == l->stack_alloc) {
		l->stack_alloc = l->stack_alloc ? l->stack_alloc * 2 : 16;
		l->stack = xrealloc(l->stack, l->stack_alloc * sizeof(*l->stack));
	}
	fr = &l->stack[l->depth++];
	memset(fr, 0, sizeof(*fr));
	fr->node = is_map ? node_new_map(l->a, at) : node_new_seq(l->a, at);
	fr->nodes = 1;
	fr->height = 1;
	if (anchor) {
		struct anchor *e = anchor_set(l, anchor);

		/* Until it closes, an alias to it would be a cycle. */
		e->node = NULL;
		fr->anchor = e->name;
	}
	return 0;
}

static int
on_end(struct loader *l)
{
	struct frame fr = l->stack[--l->depth];

	if (fr.node->kind == NODE_MAP)
		map_finish(l, &fr);
	if (fr.anchor) {
		struct anchor *e = anchor_find(&l->anchors, fr.anchor);

		if (e) {
			e->node = fr.node;
			e->nodes = fr.nodes;
			e->height = fr.height;
		}
	}
	if (!l->depth)
		l->root_empty = false;
	return attach(l, fr.node, fr.node->at, fr.nodes, fr.height, false);
}

static int
on_document_start(struct loader *l, const yaml_event_t *ev)
{
	if (++l->docs_seen > l->lim.max_docs)
		return syntax_error(l, pos_of(l, ev->start_mark),
				    "more than %zu documents in one file; split the file",
				    l->lim.max_docs);
	anchors_clear(&l->anchors);
	l->depth = 0;
	l->root = NULL;
	l->root_empty = false;
	return 0;
}

static void
on_document_end(struct loader *l)
{
	struct yamlio_docs *o = l->out;

	if (!l->root || l->root_empty)
		return;
	o->docs = arena_realloc(l->a, o->docs, o->count * sizeof(*o->docs),
				(o->count + 1) * sizeof(*o->docs));
	o->docs[o->count++] = l->root;
	l->root = NULL;
}

static int
on_event(struct loader *l, const yaml_event_t *ev)
{
	switch (ev->type) {
	case YAML_DOCUMENT_START_EVENT: return on_document_start(l, ev);
	case YAML_DOCUMENT_END_EVENT: on_document_end(l); return 0;
	case YAML_SCALAR_EVENT: return on_scalar(l, ev);
	case YAML_ALIAS_EVENT: return on_alias(l, ev);
	case YAML_SEQUENCE_START_EVENT: return on_start(l, ev, false);
	case YAML_MAPPING_START_EVENT: return on_start(l, ev, true);
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT: return on_end(l);
	default: return 0;
	}
}

/* Byte offset of a 1-based line:column (the inverse of pos_at_offset). */
static size_t
offset_of(const struct loader *l, struct pos at)
{
	const unsigned char *p = (const unsigned char *)l->bytes;
	size_t off = 0;
	unsigned line = 1, col = 1;

	if (l->len >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf)
		off = 3;
	while (off < l->len && (line < at.line || col < at.col)) {
		if (p[off] == '\n') {
			line++;
			col = 1;
		} else if (p[off] != '\r' && (p[off] & 0xc0) != 0x80) {
			col++;
		}
		off++;
	}
	while (off < l->len && (p[off] & 0xc0) == 0x80)
		off++;
	return off;
}

/*
 * libyaml gives up on an implicit key longer than 1024 characters with
 * "could not find expected ':'"; say what is really wrong, at the key.
 */
static bool
long_key(struct loader *l, const yaml_parser_t *p)
{
	struct pos at = pos_of(l, p->context_mark);
	size_t lim = l->lim.max_key < 1024 ? l->lim.max_key : 1024;
	size_t start, i;

	if (!p->context || strcmp(p->context, "while scanning a simple key") != 0 ||
	    p->context_mark.line != p->problem_mark.line ||
	    p->problem_mark.column - p->context_mark.column <= 1024)
		return false;
	start = offset_of(l, at);
	/* A plain key: its length is up to the ": " that ends it. */
	if (start < l->len && l->bytes[start] != '"' && l->bytes[start] != '\'') {
		for (i = start; i < l->len && l->bytes[i] != '\n'; i++) {
			char next = i + 1 < l->len ? l->bytes[i + 1] : ' ';
			size_t n = i - start;

			if (l->bytes[i] != ':' || !strchr(" \t\r\n", next))
				continue;
			while (n &&
			       (l->bytes[start + n - 1] == ' ' || l->bytes[start + n - 1] == '\t'))
				n--;
			syntax_error(l, at, "mapping key is %zu bytes; the limit is %zu", n, lim);
			return true;
		}
	}
	syntax_error(l, at,
		     "mapping key is longer than 1024 characters; "
		     "the limit is %zu",
		     lim);
	return true;
}

/* Column of the first character of `line` that is not a space, and that
 * character ('\0' for an empty line or the end of the input). */
static unsigned
first_column(const struct loader *l, unsigned line, char *ch)
{
	struct pos at = { l->file, line, 1 };
	size_t off = offset_of(l, at);
	unsigned col = 1;

	while (off < l->len && l->bytes[off] == ' ')
		off++, col++;
	*ch = off < l->len ? l->bytes[off] : '\0';
	return col;
}

/* Does `line` hold ": " (or ':' at its end) before column `col`? */
static bool
colon_before(const struct loader *l, unsigned line, unsigned col)
{
	struct pos at = { l->file, line, 1 };
	size_t off = offset_of(l, at), end;

	at.col = col;
	end = offset_of(l, at);
	for (; off + 1 < end; off++)
		if (l->bytes[off] == ':' && (l->bytes[off + 1] == ' ' || l->bytes[off + 1] == '\t'))
			return true;
	return false;
}

/*
 * The nearest line above `line` with content (not blank, not only a
 * comment): its number (0 when none), the column it starts at, and
 * whether it holds a ': ' or ends in ':'.
 */
static unsigned
line_above(const struct loader *l, unsigned line, unsigned *col, bool *has_colon)
{
	while (--line >= 1) {
		struct pos at = { l->file, line, 1 };
		size_t off = offset_of(l, at), k;
		char first;

		*col = first_column(l, line, &first);
		if (first == '\n' || first == '\r' || first == '#' || first == '\0')
			continue;
		*has_colon = false;
		for (k = off; k < l->len && l->bytes[k] != '\n'; k++)
			if (l->bytes[k] == ':' &&
			    (k + 1 >= l->len || strchr(" \t\r\n", l->bytes[k + 1])))
				*has_colon = true;
		return line;
	}
	return 0;
}

static bool
context_is(const yaml_parser_t *p, const char *what)
{
	return p->context && strcmp(p->context, what) == 0;
}

/*
 * The layout mistakes people make, said in their words at the line that
 * holds them, instead of libyaml's text (which often points at the line
 * after).  Returns false when the error is none of them.
 */
static bool
layout_error(struct loader *l, const yaml_parser_t *p)
{
	struct pos at = pos_of(l, p->problem_mark);
	struct pos ctx = pos_of(l, p->context_mark);
	const char *problem = p->problem ? p->problem : "";
	size_t off = offset_of(l, at);
	char ch = off < l->len ? l->bytes[off] : '\0';
	char first;
	unsigned col, acol = 0;
	bool colon = false;

	if (ch == '\t' || strstr(problem, "tab character")) {
		syntax_error(l, at,
			     "a tab character in the indentation: YAML "
			     "indents with spaces only; replace the tab with spaces");
		return true;
	}
	if (!strcmp(problem, "could not find expected ':'") &&
	    context_is(p, "while scanning a simple key")) {
		/* libyaml notices only on the next line; the line that lacks
		 * the ':' is where the key started */
		syntax_error(l, ctx,
			     "this line has no ':' after its key: write "
			     "'key: value', or indent it further if it continues "
			     "the value above");
		return true;
	}
	if (!strcmp(problem, "did not find expected key") &&
	    context_is(p, "while parsing a block mapping")) {
		col = first_column(l, at.line, &first);
		if (at.line == ctx.line || col != at.col) {
			syntax_error(l, at,
				     "unexpected text after a value: quote the "
				     "whole value, or remove what follows it");
		} else if (first == '-') {
			syntax_error(l, at,
				     "a list item where the mapping that starts "
				     "at line %u, column %u expects a key: indent the item "
				     "under the key it belongs to",
				     ctx.line, ctx.col);
		} else if (line_above(l, at.line, &col, &colon) && col > at.col) {
			syntax_error(l, at,
				     "bad indentation: this line starts at column "
				     "%u, between the column %u of the line above and the "
				     "column %u of the keys of the mapping at line %u; "
				     "indent it like the keys it belongs with, using spaces",
				     at.col, col, ctx.col, ctx.line);
		} else {
			syntax_error(l, at,
				     "bad indentation: this line starts at column "
				     "%u, but the keys of the mapping at line %u are at "
				     "column %u; indent it like the keys it belongs with, "
				     "using spaces",
				     at.col, ctx.line, ctx.col);
		}
		return true;
	}
	if (!strcmp(problem, "did not find expected '-' indicator") &&
	    context_is(p, "while parsing a block collection")) {
		syntax_error(l, at,
			     "bad indentation: the list that starts at line %u, "
			     "column %u expects '- ' items here; indent this line "
			     "under an item, or start it with '- '",
			     ctx.line, ctx.col);
		return true;
	}
	if (!strcmp(problem, "mapping values are not allowed in this context")) {
		col = first_column(l, at.line, &first);
		unsigned above = line_above(l, at.line, &acol, &colon);

		if (colon_before(l, at.line, at.col)) {
			syntax_error(l, at,
				     "a second ': ' on one line: quote the value "
				     "if the ': ' belongs to it (key: \"a: b\")");
		} else if (above && !colon && acol == col) {
			/* "name lab" then "region: x": the two read as one key */
			struct pos prev = { l->file, above, acol };

			syntax_error(l, prev,
				     "this line has no ':' after its key: write "
				     "'key: value', or indent it further if it continues "
				     "the value above");
		} else {
			at.col = col;
			syntax_error(l, at,
				     "bad indentation: this line is indented deeper "
				     "than the key above it, so it reads as part of that "
				     "value; line it up with its siblings, using spaces");
		}
		return true;
	}
	return false;
}

static void
parser_error(struct loader *l, const yaml_parser_t *p)
{
	struct pos at;
	const char *problem = p->problem ? p->problem : "malformed YAML";

	switch (p->error) {
	case YAML_MEMORY_ERROR:
		syntax_error(l, pos_at_offset(l, 0), "out of memory while parsing YAML");
		return;
	case YAML_READER_ERROR:
		at = pos_at_offset(l, p->problem_offset);
		if (p->problem_value != -1)
			syntax_error(l, at, "%s (character 0x%x)", problem,
				     (unsigned)p->problem_value);
		else
			syntax_error(l, at, "%s", problem);
		return;
	default:
		at = pos_of(l, p->problem_mark);
		if (long_key(l, p) || layout_error(l, p))
			return;
		if (p->context)
			syntax_error(l, at, "%s (%s at line %u, column %u)", problem, p->context,
				     (unsigned)p->context_mark.line + 1,
				     (unsigned)p->context_mark.column + 1);
		else
			syntax_error(l, at, "%s", problem);
	}
}

/* NUL bytes and invalid UTF-8, at their exact place. */
static int
check_bytes(struct loader *l)
{
	size_t off;
	const char *why;

	if (!utf8_check(l->bytes, l->len, &off, &why))
		return 0;
	if (l->bytes[off] == '\0')
		return syntax_error(l, pos_at_offset(l, off),
				    "NUL byte (0x00) in the file; YAML text cannot contain it");
	return syntax_error(l, pos_at_offset(l, off),
			    "invalid UTF-8 byte 0x%02x (%s); save the file as UTF-8",
			    (unsigned char)l->bytes[off], why);
}

static void
limits_fill(struct yamlio_limits *o, const struct yamlio_limits *lim)
{
	const struct yamlio_limits *def = &yamlio_default_limits;

	*o = lim ? *lim : *def;
	if (!o->max_bytes)
		o->max_bytes = def->max_bytes;
	if (!o->max_depth)
		o->max_depth = def->max_depth;
	if (!o->max_nodes)
		o->max_nodes = def->max_nodes;
	if (!o->max_scalar)
		o->max_scalar = def->max_scalar;
	if (!o->max_docs)
		o->max_docs = def->max_docs;
	if (!o->max_key)
		o->max_key = def->max_key;
}

int
yamlio_load(struct yamlio_docs *out, struct arena *a, struct diags *d, const char *file,
	    const char *bytes, size_t len, const struct yamlio_limits *lim)
{
	struct loader l;
	yaml_parser_t parser;
	yaml_event_t ev;
	int ret = -1;

	memset(&l, 0, sizeof(l));
	l.a = a;
	l.d = d;
	l.file = file;
	l.bytes = bytes;
	l.len = len;
	l.out = out;
	limits_fill(&l.lim, lim);
	out->docs = NULL;
	out->count = 0;

	if (len > l.lim.max_bytes) {
		struct pos whole = { file, 0, 0 };

		return syntax_error(&l, whole, "file is %zu bytes; the limit is %zu", len,
				    l.lim.max_bytes);
	}
	if (check_bytes(&l) < 0)
		return -1;
	if (!yaml_parser_initialize(&parser))
		return syntax_error(&l, pos_at_offset(&l, 0), "out of memory while parsing YAML");
	yaml_parser_set_input_string(&parser, (const unsigned char *)bytes, len);
	for (;;) {
		yaml_event_type_t type;
		int rc;

		if (!yaml_parser_parse(&parser, &ev)) {
			parser_error(&l, &parser);
			goto out;
		}
		rc = on_event(&l, &ev);
		type = ev.type;
		yaml_event_delete(&ev);
		if (rc < 0)
			goto out;
		if (type == YAML_STREAM_END_EVENT)
			break;
	}
	ret = l.dup_found ? -1 : 0;
out:
	yaml_parser_delete(&parser);
	anchors_clear(&l.anchors);
	free(l.stack);
	return ret;
}

const char *
yamlio_library_version(void)
{
	return yaml_get_version_string();
}
