/*
 * json.c - JSON text <-> node trees (cJSON for parsing).
 *
 * cJSON keeps a number only as a double, which would lose int64 values
 * beyond 2^53.  So before cJSON parses, one pass over the text records
 * where every number token is (and checks size, NUL bytes, UTF-8 and
 * depth); numbers are then converted from their own text, in document
 * order, which is the order a pre-order walk of the cJSON tree meets them.
 *
 * Writing does not go through cJSON: a small writer over the node tree
 * gives exact ints, the same string escaping as cJSON, and a two-space
 * pretty form, byte-stable on every machine.
 */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/num.h"
#include "base/utf8.h"
#include "base/xalloc.h"
#include "json/json.h"

struct numtok {
	size_t off, len;
};

struct scan {
	struct numtok *nums; /* heap */
	size_t count, alloc;
	size_t next; /* next token to hand out */
};

struct pos_at_off {
	unsigned line, col;
};

static struct pos_at_off
text_pos(const char *text, size_t len, size_t off)
{
	struct pos_at_off p = { 1, 1 };
	size_t i;

	for (i = 0; i < off && i < len; i++) {
		if (text[i] == '\n') {
			p.line++;
			p.col = 1;
		} else if (((unsigned char)text[i] & 0xc0) != 0x80) {
			p.col++;
		}
	}
	return p;
}

static int parse_error(struct diags *d, const char *rule, const char *file, const char *text,
		       size_t len, size_t off, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));

static int
parse_error(struct diags *d, const char *rule, const char *file, const char *text, size_t len,
	    size_t off, const char *fmt, ...)
{
	struct pos_at_off p = text_pos(text, len, off);
	struct pos at = { file, p.line, p.col };
	va_list ap;

	va_start(ap, fmt);
	diag_vreport(d, at, rule, "", fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * One pass: number tokens, nesting depth.  Returns 0, or the offset + 1
 * of the first bracket that nests too deep.
 */
static size_t
prescan(struct scan *sc, const char *t, size_t len)
{
	size_t i = 0, depth = 0;

	while (i < len) {
		char c = t[i];

		if (c == '"') {
			/* Skip the string; escapes cannot end it. */
			for (i++; i < len && t[i] != '"'; i++)
				if (t[i] == '\\')
					i++;
			i++;
			continue;
		}
		if (c == '[' || c == '{') {
			if (++depth > JSON_MAX_DEPTH)
				return i + 1;
		} else if (c == ']' || c == '}') {
			if (depth)
				depth--;
		} else if (c == '-' || (c >= '0' && c <= '9')) {
			size_t s = i;

			while (i < len && strchr("0123456789+-.eE", t[i]) && t[i])
				i++;
			if (sc->count == sc->alloc) {
				sc->alloc = sc->alloc ? sc->alloc * 2 : 64;
				sc->nums = xrealloc(sc->nums, sc->alloc * sizeof(*sc->nums));
			}
			sc->nums[sc->count].off = s;
			sc->nums[sc->count].len = i - s;
			sc->count++;
			continue;
		}
		i++;
	}
	return 0;
}

static struct node *
number_node(struct arena *a, struct pos at, struct scan *sc, const char *text, const cJSON *item)
{
	double f = item->valuedouble;
	int64_t iv;
	struct node *n;

	if (sc->next < sc->count) {
		const struct numtok *t = &sc->nums[sc->next++];
		const char *s = text + t->off;

		if (num_parse_int64(s, t->len, &iv))
			return node_new_int(a, at, iv);
		/* 1.0, 1e3: integral doubles within +-2^53 are ints. */
		if (isfinite(f) && f == trunc(f) && fabs(f) <= 9007199254740992.0)
			return node_new_int(a, at, (int64_t)f);
		n = node_new_strn(a, at, s, t->len);
		n->type = NODE_FLOAT;
		n->scalar.f = f;
		return n;
	}
	if (isfinite(f) && f == trunc(f) && fabs(f) <= 9007199254740992.0)
		return node_new_int(a, at, (int64_t)f);
	{
		char tmp[40];
		size_t len = num_fmt_double(tmp, sizeof(tmp), f);

		n = node_new_strn(a, at, tmp, len);
		n->type = NODE_FLOAT;
		n->scalar.f = f;
		return n;
	}
}

static struct node *
convert(struct arena *a, struct pos at, struct scan *sc, const char *text, const cJSON *item)
{
	struct node *n;
	const cJSON *c;

	if (cJSON_IsObject(item)) {
		n = node_new_map(a, at);
		for (c = item->child; c; c = c->next)
			node_map_add_node(a, n, node_new_str(a, at, c->string ? c->string : ""),
					  convert(a, at, sc, text, c));
		return n;
	}
	if (cJSON_IsArray(item)) {
		n = node_new_seq(a, at);
		for (c = item->child; c; c = c->next)
			node_seq_push(a, n, convert(a, at, sc, text, c));
		return n;
	}
	if (cJSON_IsString(item))
		return node_new_str(a, at, item->valuestring ? item->valuestring : "");
	if (cJSON_IsNumber(item))
		return number_node(a, at, sc, text, item);
	if (cJSON_IsTrue(item))
		return node_new_bool(a, at, true);
	if (cJSON_IsFalse(item))
		return node_new_bool(a, at, false);
	return node_new_null(a, at);
}

/* JSON_STRICT: the offset + 1 of the first \u0000 escape, else 0. */
static size_t
find_nul_escape(const char *t, size_t len)
{
	bool in = false;

	for (size_t i = 0; i < len; i++) {
		if (t[i] == '"') {
			in = !in;
		} else if (in && t[i] == '\\' && i + 1 < len) {
			if (t[i + 1] == 'u' && i + 5 < len && !memcmp(t + i + 2, "0000", 4))
				return i + 1;
			i++;
		}
	}
	return 0;
}

static int
key_cmp(const void *pa, const void *pb)
{
	return strcmp(*(const char *const *)pa, *(const char *const *)pb);
}

/* JSON_STRICT: the first key given twice in one object of `item`, else
 * NULL.  Sorting each object's keys keeps it O(n log n). */
static const char *
find_duplicate_key(const cJSON *item)
{
	const char **keys;
	const char *dup = NULL;
	size_t n = 0;
	const cJSON *c;

	for (c = item->child; c; c = c->next) {
		if (c->child && (dup = find_duplicate_key(c)))
			return dup;
		n++;
	}
	if (!cJSON_IsObject(item) || n < 2)
		return NULL;
	keys = xmalloc(n * sizeof(*keys));
	n = 0;
	for (c = item->child; c; c = c->next)
		keys[n++] = c->string ? c->string : "";
	qsort(keys, n, sizeof(*keys), key_cmp);
	for (size_t i = 1; i < n && !dup; i++)
		if (!strcmp(keys[i - 1], keys[i]))
			dup = keys[i];
	free(keys);
	return dup;
}

struct node *
json_parse(struct arena *a, struct diags *d, const char *rule, const char *file, const char *text,
	   size_t len)
{
	return json_parse_flags(a, d, rule, file, text, len, 0);
}

struct node *
json_parse_flags(struct arena *a, struct diags *d, const char *rule, const char *file,
		 const char *text, size_t len, unsigned flags)
{
	struct scan sc = { NULL, 0, 0, 0 };
	struct pos at = { file, 0, 0 };
	struct node *root = NULL;
	cJSON *tree = NULL;
	char *copy = NULL;
	const char *end = NULL, *why;
	size_t off;

	if (len > JSON_MAX_BYTES) {
		diag_report(d, at, rule, "", "JSON text is %zu bytes; the limit is %zu", len,
			    JSON_MAX_BYTES);
		goto out;
	}
	if (utf8_check(text, len, &off, &why)) {
		if (text[off] == '\0')
			parse_error(d, rule, file, text, len, off, "NUL byte (0x00) in JSON text");
		else
			parse_error(d, rule, file, text, len, off,
				    "invalid UTF-8 byte 0x%02x in JSON text (%s)",
				    (unsigned char)text[off], why);
		goto out;
	}
	off = prescan(&sc, text, len);
	if (off) {
		parse_error(d, rule, file, text, len, off - 1,
			    "JSON nesting is deeper than %d levels", JSON_MAX_DEPTH);
		goto out;
	}
	if ((flags & JSON_STRICT) && (off = find_nul_escape(text, len))) {
		parse_error(d, rule, file, text, len, off - 1,
			    "a string holds \\u0000 (NUL): remove it");
		goto out;
	}
	/* cJSON wants the terminating NUL inside the length it is given. */
	copy = xmalloc(len + 1);
	memcpy(copy, text, len);
	copy[len] = '\0';
	tree = cJSON_ParseWithLengthOpts(copy, len + 1, &end, 1);
	if (!tree) {
		off = end && end >= copy && end <= copy + len ? (size_t)(end - copy) : 0;
		if (len == strspn(copy, " \t\r\n"))
			parse_error(d, rule, file, text, len, len, "JSON text is empty");
		else if (off >= len)
			parse_error(d, rule, file, text, len, len,
				    "invalid JSON: unexpected end of text or malformed value");
		else
			parse_error(d, rule, file, text, len, off,
				    "invalid JSON at byte %zu near '%.20s'", off, copy + off);
		goto out;
	}
	if (flags & JSON_STRICT) {
		const char *dup = find_duplicate_key(tree);

		if (dup) {
			diag_report(d, at, rule, "",
				    "the key '%.64s' is given twice in one object: keep one", dup);
			goto out;
		}
	}
	root = convert(a, at, &sc, copy, tree);
out:
	cJSON_Delete(tree);
	free(copy);
	free(sc.nums);
	return root;
}

/* --------------------------------------------------------------- writing */

/*
 * String escaping as cJSON's print_string_ptr does it; bytes that are
 * not UTF-8 become \ufffd so the output is always valid JSON.
 */
static int
write_string(struct buf *out, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, run = 0;
	int err = buf_addch(out, '"');

	for (i = 0; i < len && !err; i++) {
		unsigned char c = (unsigned char)s[i];
		char esc[7];
		size_t n = 0;

		switch (c) {
		case '"':
			esc[0] = '\\';
			esc[1] = '"';
			n = 2;
			break;
		case '\\':
			esc[0] = '\\';
			esc[1] = '\\';
			n = 2;
			break;
		case '\b':
			esc[0] = '\\';
			esc[1] = 'b';
			n = 2;
			break;
		case '\f':
			esc[0] = '\\';
			esc[1] = 'f';
			n = 2;
			break;
		case '\n':
			esc[0] = '\\';
			esc[1] = 'n';
			n = 2;
			break;
		case '\r':
			esc[0] = '\\';
			esc[1] = 'r';
			n = 2;
			break;
		case '\t':
			esc[0] = '\\';
			esc[1] = 't';
			n = 2;
			break;
		default:
			if (c < 0x20) {
				memcpy(esc, "\\u00", 4);
				esc[4] = hex[c >> 4];
				esc[5] = hex[c & 15];
				n = 6;
			} else if (c >= 0x80) {
				size_t w = utf8_seq_len(s + i, len - i);

				if (w) {
					run += w;
					i += w - 1;
					continue;
				}
				/* Not UTF-8 (a file name, say): U+FFFD keeps
				 * the output valid JSON. */
				memcpy(esc, "\\ufffd", 6);
				n = 6;
			}
		}
		if (!n) {
			run++;
			continue;
		}
		err = buf_add(out, s + i - run, run);
		run = 0;
		if (!err)
			err = buf_add(out, esc, n);
	}
	if (!err)
		err = buf_add(out, s + len - run, run);
	if (!err)
		err = buf_addch(out, '"');
	return err;
}

/* Is t a number as JSON spells one? */
static bool
json_number_text(const char *t, size_t len)
{
	size_t k = 0;

	if (k < len && t[k] == '-')
		k++;
	if (k >= len)
		return false;
	if (t[k] == '0') {
		k++;
	} else if (t[k] >= '1' && t[k] <= '9') {
		while (k < len && t[k] >= '0' && t[k] <= '9')
			k++;
	} else {
		return false;
	}
	if (k < len && t[k] == '.') {
		size_t s = ++k;

		while (k < len && t[k] >= '0' && t[k] <= '9')
			k++;
		if (k == s)
			return false;
	}
	if (k < len && (t[k] == 'e' || t[k] == 'E')) {
		size_t s;

		k++;
		if (k < len && (t[k] == '+' || t[k] == '-'))
			k++;
		s = k;
		while (k < len && t[k] >= '0' && t[k] <= '9')
			k++;
		if (k == s)
			return false;
	}
	return k == len;
}

static int
write_scalar(struct buf *out, const struct node *n)
{
	char tmp[40];
	size_t len;

	switch (n->type) {
	case NODE_NULL: return buf_adds(out, "null");
	case NODE_BOOL: return buf_adds(out, n->scalar.i ? "true" : "false");
	case NODE_INT: return buf_printf(out, "%" PRId64, n->scalar.i);
	case NODE_FLOAT:
		if (!isfinite(n->scalar.f))
			return buf_adds(out, "null"); /* JSON has no inf/nan */
		if (n->scalar.text && json_number_text(n->scalar.text, n->scalar.len))
			return buf_add(out, n->scalar.text, n->scalar.len);
		len = num_fmt_double(tmp, sizeof(tmp), n->scalar.f);
		return buf_add(out, tmp, len);
	case NODE_STR:
		return write_string(out, n->scalar.text ? n->scalar.text : "",
				    n->scalar.text ? n->scalar.len : 0);
	}
	return -1;
}

static int
newline_indent(struct buf *out, bool pretty, unsigned level)
{
	int err = 0;
	unsigned i;

	if (!pretty)
		return 0;
	err = buf_addch(out, '\n');
	for (i = 0; i < level && !err; i++)
		err = buf_add(out, "  ", 2);
	return err;
}

static int
write_node(struct buf *out, const struct node *n, bool pretty, unsigned level)
{
	size_t i;
	int err;

	if (!n)
		return buf_adds(out, "null");
	if (level > 100000)
		return -1;
	switch (n->kind) {
	case NODE_SCALAR: return write_scalar(out, n);
	case NODE_SEQ:
		if (!n->seq.count)
			return buf_adds(out, "[]");
		err = buf_addch(out, '[');
		for (i = 0; i < n->seq.count && !err; i++) {
			if (i)
				err = buf_addch(out, ',');
			if (!err)
				err = newline_indent(out, pretty, level + 1);
			if (!err)
				err = write_node(out, n->seq.items[i], pretty, level + 1);
		}
		if (!err)
			err = newline_indent(out, pretty, level);
		return err ? err : buf_addch(out, ']');
	case NODE_MAP:
		if (!n->map.count)
			return buf_adds(out, "{}");
		err = buf_addch(out, '{');
		for (i = 0; i < n->map.count && !err; i++) {
			const struct node *k = n->map.pairs[i].key;

			if (i)
				err = buf_addch(out, ',');
			if (!err)
				err = newline_indent(out, pretty, level + 1);
			if (!err)
				err = write_string(out, k && k->scalar.text ? k->scalar.text : "",
						   k && k->scalar.text ? k->scalar.len : 0);
			if (!err)
				err = pretty ? buf_add(out, ": ", 2) : buf_addch(out, ':');
			if (!err)
				err = write_node(out, n->map.pairs[i].value, pretty, level + 1);
		}
		if (!err)
			err = newline_indent(out, pretty, level);
		return err ? err : buf_addch(out, '}');
	}
	return -1;
}

int
json_write(struct buf *out, const struct node *n, unsigned flags)
{
	size_t start = out->len;
	int err = write_node(out, n, (flags & JSON_PRETTY) != 0, 0);

	if (err) {
		/* Nothing half written. */
		out->len = start;
		if (out->alloc)
			out->data[start] = '\0';
	}
	return err;
}

const char *
json_library_version(void)
{
	return cJSON_Version();
}
