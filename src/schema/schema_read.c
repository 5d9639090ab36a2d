/*
 * schema_read.c - a direct reader of the built-in schema's JSON text into
 * a node tree, so that a run does not parse it with cJSON, convert the
 * result and free it again.
 *
 * It builds exactly what json_parse() builds (same kinds, types, texts,
 * key order and zero positions; a unit test compares the two trees for
 * the embedded file) but only for plain, well-formed text: on anything it
 * does not handle (invalid UTF-8, a NUL escape, a lone surrogate, a raw
 * control character in a string, nesting deeper than JSON_MAX_DEPTH, a
 * syntax error) it returns NULL, and the caller falls
 * back to json_parse(), which reports.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/num.h"
#include "base/utf8.h"
#include "json/json.h"
#include "node/node.h"
#include "schema/schema_int.h"

struct rd {
	struct arena *a;
	struct pos at;
	const char *s;
	size_t len, i;
	char *tmp; /* decoded string, `cap` bytes, from the arena */
	size_t cap;
};

static void
rd_ws(struct rd *r)
{
	while (r->i < r->len && (r->s[r->i] == ' ' || r->s[r->i] == '\t' || r->s[r->i] == '\n' ||
				 r->s[r->i] == '\r'))
		r->i++;
}

static int
rd_hex4(struct rd *r, uint32_t *out)
{
	uint32_t v = 0;
	size_t k;

	if (r->i + 4 > r->len)
		return -1;
	for (k = 0; k < 4; k++) {
		char c = r->s[r->i + k];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (uint32_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (uint32_t)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (uint32_t)(c - 'A' + 10);
		else
			return -1;
	}
	r->i += 4;
	*out = v;
	return 0;
}

/* A string at r->i (the opening quote) into a new scalar. */
static struct node *
rd_string(struct rd *r)
{
	size_t o = 0, start = ++r->i, end = start;
	bool plain = true;

	/* Most strings have no escape: copy them straight. */
	while (end < r->len && r->s[end] != '"') {
		if (r->s[end] == '\\' || (unsigned char)r->s[end] < 0x20) {
			plain = false;
			break;
		}
		end++;
	}
	if (end >= r->len)
		return NULL;
	if (plain) {
		r->i = end + 1;
		return node_new_strn(r->a, r->at, r->s + start, end - start);
	}
	while (r->i < r->len && r->s[r->i] != '"') {
		unsigned char c = (unsigned char)r->s[r->i];
		uint32_t cp, lo;

		if (!r->tmp) {
			/* A decoded string is never longer than the text. */
			r->cap = r->len + 8;
			r->tmp = arena_alloc(r->a, r->cap);
		}
		if (o + 4 >= r->cap)
			return NULL;
		if (c < 0x20)
			return NULL;
		if (c != '\\') {
			r->tmp[o++] = (char)c;
			r->i++;
			continue;
		}
		if (++r->i >= r->len)
			return NULL;
		c = (unsigned char)r->s[r->i++];
		switch (c) {
		case '"': r->tmp[o++] = '"'; continue;
		case '\\': r->tmp[o++] = '\\'; continue;
		case '/': r->tmp[o++] = '/'; continue;
		case 'b': r->tmp[o++] = '\b'; continue;
		case 'f': r->tmp[o++] = '\f'; continue;
		case 'n': r->tmp[o++] = '\n'; continue;
		case 'r': r->tmp[o++] = '\r'; continue;
		case 't': r->tmp[o++] = '\t'; continue;
		case 'u': break;
		default: return NULL;
		}
		if (rd_hex4(r, &cp) || cp == 0 || (cp >= 0xDC00 && cp <= 0xDFFF))
			return NULL;
		if (cp >= 0xD800 && cp <= 0xDBFF) {
			if (r->i + 2 > r->len || r->s[r->i] != '\\' || r->s[r->i + 1] != 'u')
				return NULL;
			r->i += 2;
			if (rd_hex4(r, &lo) || lo < 0xDC00 || lo > 0xDFFF)
				return NULL;
			cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
		}
		if (cp < 0x80) {
			r->tmp[o++] = (char)cp;
		} else if (cp < 0x800) {
			r->tmp[o++] = (char)(0xC0 | (cp >> 6));
			r->tmp[o++] = (char)(0x80 | (cp & 0x3F));
		} else if (cp < 0x10000) {
			r->tmp[o++] = (char)(0xE0 | (cp >> 12));
			r->tmp[o++] = (char)(0x80 | ((cp >> 6) & 0x3F));
			r->tmp[o++] = (char)(0x80 | (cp & 0x3F));
		} else {
			r->tmp[o++] = (char)(0xF0 | (cp >> 18));
			r->tmp[o++] = (char)(0x80 | ((cp >> 12) & 0x3F));
			r->tmp[o++] = (char)(0x80 | ((cp >> 6) & 0x3F));
			r->tmp[o++] = (char)(0x80 | (cp & 0x3F));
		}
	}
	if (r->i >= r->len)
		return NULL;
	r->i++;
	return node_new_strn(r->a, r->at, r->tmp, o);
}

/* A number, typed as json.c's number_node() types it. */
static struct node *
rd_number(struct rd *r)
{
	size_t start = r->i, n;
	const char *tok = r->s + start;
	char buf[64], *end;
	int64_t iv;
	double f;
	struct node *nd;

	while (r->i < r->len && r->s[r->i] && strchr("0123456789+-.eE", r->s[r->i]))
		r->i++;
	n = r->i - start;
	if (num_parse_int64(tok, n, &iv))
		return node_new_int(r->a, r->at, iv);
	/* Only the plain JSON grammar: what cJSON would read the same. */
	if (n == 0 || n >= sizeof(buf))
		return NULL;
	memcpy(buf, tok, n);
	buf[n] = '\0';
	f = strtod(buf, &end);
	if ((size_t)(end - buf) != n || !isfinite(f))
		return NULL;
	if (f == trunc(f) && fabs(f) <= 9007199254740992.0)
		return node_new_int(r->a, r->at, (int64_t)f);
	nd = node_new_strn(r->a, r->at, tok, n);
	nd->type = NODE_FLOAT;
	nd->scalar.f = f;
	return nd;
}

static struct node *
rd_value(struct rd *r, unsigned depth)
{
	struct node *n, *k, *v;

	rd_ws(r);
	if (r->i >= r->len || depth > JSON_MAX_DEPTH)
		return NULL;
	switch (r->s[r->i]) {
	case '{':
		r->i++;
		n = node_new_map(r->a, r->at);
		rd_ws(r);
		if (r->i < r->len && r->s[r->i] == '}') {
			r->i++;
			return n;
		}
		for (;;) {
			rd_ws(r);
			if (r->i >= r->len || r->s[r->i] != '"' || !(k = rd_string(r)))
				return NULL;
			rd_ws(r);
			if (r->i >= r->len || r->s[r->i] != ':')
				return NULL;
			r->i++;
			if (!(v = rd_value(r, depth + 1)))
				return NULL;
			node_map_add_node(r->a, n, k, v);
			rd_ws(r);
			if (r->i < r->len && r->s[r->i] == ',') {
				r->i++;
				continue;
			}
			if (r->i < r->len && r->s[r->i] == '}') {
				r->i++;
				return n;
			}
			return NULL;
		}
	case '[':
		r->i++;
		n = node_new_seq(r->a, r->at);
		rd_ws(r);
		if (r->i < r->len && r->s[r->i] == ']') {
			r->i++;
			return n;
		}
		for (;;) {
			if (!(v = rd_value(r, depth + 1)))
				return NULL;
			node_seq_push(r->a, n, v);
			rd_ws(r);
			if (r->i < r->len && r->s[r->i] == ',') {
				r->i++;
				continue;
			}
			if (r->i < r->len && r->s[r->i] == ']') {
				r->i++;
				return n;
			}
			return NULL;
		}
	case '"': return rd_string(r);
	case 't':
		if (r->len - r->i >= 4 && !memcmp(r->s + r->i, "true", 4)) {
			r->i += 4;
			return node_new_bool(r->a, r->at, true);
		}
		return NULL;
	case 'f':
		if (r->len - r->i >= 5 && !memcmp(r->s + r->i, "false", 5)) {
			r->i += 5;
			return node_new_bool(r->a, r->at, false);
		}
		return NULL;
	case 'n':
		if (r->len - r->i >= 4 && !memcmp(r->s + r->i, "null", 4)) {
			r->i += 4;
			return node_new_null(r->a, r->at);
		}
		return NULL;
	default:
		if (r->s[r->i] == '-' || (r->s[r->i] >= '0' && r->s[r->i] <= '9'))
			return rd_number(r);
		return NULL;
	}
}

struct node *
schema_json_read(struct arena *a, const char *file, const char *text, size_t len)
{
	struct rd r;
	struct node *root;
	const char *why;
	size_t bad;

	if (len > JSON_MAX_BYTES || utf8_check(text, len, &bad, &why))
		return NULL;
	memset(&r, 0, sizeof(r));
	r.a = a;
	r.at.file = file;
	r.s = text;
	r.len = len;
	root = rd_value(&r, 1);
	if (!root)
		return NULL;
	rd_ws(&r);
	return r.i == r.len ? root : NULL;
}
