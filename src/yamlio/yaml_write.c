/*
 * yaml_write.c - node trees -> deterministic YAML bytes (libyaml emitter).
 *
 * Block style, indent 2, no line folding, unicode written as is.  The
 * scalar style is decided here, not left to libyaml: a string is written
 * plain only when both YAML 1.1 and 1.2 readers would read it back as
 * the same string and libyaml can write it plain (so libyaml never falls
 * back to single quotes on its own); otherwise it is double-quoted.
 * Multi-line strings use the literal block style when that is exact, and
 * double quotes when not (libyaml itself also falls back to double quotes
 * when a literal cannot hold the text).
 */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <yaml.h>

#include "base/buf.h"
#include "base/num.h"
#include "node/node.h"
#include "yamlio/scalar.h"
#include "yamlio/yamlio.h"

/* Deeper trees than this are refused rather than risking the stack. */
#define EMIT_MAX_DEPTH 10000
#define NUM_TEXT 40 /* a number's text */

struct writer {
	struct buf *out;
	int err;
};

static int
write_handler(void *data, unsigned char *buffer, size_t size)
{
	struct writer *w = data;
	int err = buf_add(w->out, buffer, size);

	if (err) {
		w->err = err;
		return 0;
	}
	return 1;
}

static bool
in_words(const char *s, size_t len, const char *const *words)
{
	for (; *words; words++)
		if (strlen(*words) == len && memcmp(s, *words, len) == 0)
			return true;
	return false;
}

/* Words YAML 1.1 or 1.2 reads as bool or null, and the 1.1 value/merge keys. */
static const char *const special_words[] = {
	"y",    "Y",    "yes",  "Yes",   "YES",   "n",     "N",  "no", "No", "NO",
	"true", "True", "TRUE", "false", "False", "FALSE", "on", "On", "ON", "off",
	"Off",  "OFF",  "null", "Null",  "NULL",  "~",     "=",  "<<", NULL,
};

static bool
all_in(const char *s, size_t len, const char *set)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!s[i] || !strchr(set, s[i]))
			return false;
	return true;
}

static bool
strpbrk_n(const char *s, size_t len, const char *set)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (s[i] && strchr(set, s[i]))
			return true;
	return false;
}

static bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * Does a YAML 1.1 or 1.2 reader see a number here?  Deliberately broad
 * (quoting a string that only looks numeric costs nothing): ints in any
 * base, `_` separators, sexagesimal `1:30`, floats with or without a
 * leading digit (1.1 readers even take "." and "e1"), `.inf` / `.nan` in
 * any case, and dates (1.1 timestamps).
 */
static bool
looks_numeric(const char *s, size_t len)
{
	size_t k = 0;

	if (len > 0 && (s[0] == '-' || s[0] == '+'))
		k = 1;
	if (len - k == 4 && s[k] == '.') {
		char w[4];
		size_t i;

		for (i = 0; i < 3; i++)
			w[i] = (char)(s[k + 1 + i] | 0x20);
		w[3] = '\0';
		if (strcmp(w, "inf") == 0 || strcmp(w, "nan") == 0)
			return true;
	}
	if (k >= len)
		return false;
	if (len - k >= 2 && s[k] == '0' && (s[k + 1] == 'x' || s[k + 1] == 'X'))
		return all_in(s + k + 2, len - k - 2, "0123456789abcdefABCDEF_");
	if (len - k >= 2 && s[k] == '0' && (s[k + 1] == 'o' || s[k + 1] == 'O'))
		return all_in(s + k + 2, len - k - 2, "01234567_");
	if (len - k >= 2 && s[k] == '0' && (s[k + 1] == 'b' || s[k + 1] == 'B'))
		return all_in(s + k + 2, len - k - 2, "01_");
	/* YAML 1.1's float pattern even takes "." and "e1" (as NaN, in some readers). */
	if (all_in(s + k, len - k, "0123456789_.:+-eE") &&
	    (memchr(s, '.', len) || strpbrk_n(s, len, "0123456789")))
		return true;
	/* 2001-12-14, 2001-12-14t21:59:43.10-05:00 */
	if (k == 0 && len >= 8 && is_digit(s[0]) && is_digit(s[1]) && is_digit(s[2]) &&
	    is_digit(s[3]) && s[4] == '-' && is_digit(s[5]))
		return true;
	return false;
}

/*
 * Characters that have no place in a plain or literal scalar: C0 and C1
 * controls (tab included), DEL, the BOM, U+2028/U+2029 (line breaks to
 * YAML) and the non-characters U+FFFE/U+FFFF.  `allow_nl` lets '\n' pass.
 */
static bool
has_special(const char *s, size_t len, bool allow_nl)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = p[i];

		if (c >= 0x20 && c < 0x7f) /* printable ASCII: none of the below */
			continue;
		if (c == '\n' && allow_nl)
			continue;
		if (c < 0x20 || c == 0x7f)
			return true;
		if (c == 0xc2 && i + 1 < len && p[i + 1] < 0xa0)
			return true; /* U+0080..U+009F */
		if (c == 0xe2 && i + 2 < len && p[i + 1] == 0x80 &&
		    (p[i + 2] == 0xa8 || p[i + 2] == 0xa9))
			return true;
		if (c == 0xef && i + 2 < len &&
		    ((p[i + 1] == 0xbb && p[i + 2] == 0xbf) ||
		     (p[i + 1] == 0xbf && (p[i + 2] == 0xbe || p[i + 2] == 0xbf))))
			return true;
		if (c >= 0x80 && (c & 0xc0) != 0x80 && c < 0xc2)
			return true; /* not UTF-8 at all */
	}
	return false;
}

/* Does s[0..len) hold the two bytes sub[0] sub[1] in a row? */
static bool
has_sub(const char *s, size_t len, const char sub[2])
{
	const char *p = s, *end = s + len;

	while ((p = memchr(p, sub[0], (size_t)(end - p))) != NULL) {
		if (p + 1 < end && p[1] == sub[1])
			return true;
		p++;
	}
	return false;
}

/* Can s be written plain and read back as this very string? */
static bool
plain_ok(const char *s, size_t len)
{
	char c;

	if (len == 0 || memchr(s, '\n', len) || has_special(s, len, false))
		return false;
	if (s[0] == ' ' || s[len - 1] == ' ')
		return false;
	c = s[0];
	if (strchr("#,[]{}&*!|>'\"%@`?:", c))
		return false;
	if (c == '-' && (len == 1 || s[1] == ' '))
		return false;
	if (len >= 3 && (memcmp(s, "---", 3) == 0 || memcmp(s, "...", 3) == 0))
		return false;
	if (has_sub(s, len, ": ") || has_sub(s, len, " #") || s[len - 1] == ':')
		return false;
	/* (no special word is longer than 5 bytes) */
	if ((len <= 5 && in_words(s, len, special_words)) || looks_numeric(s, len))
		return false;
	return true;
}

/*
 * Can s be a literal block (`|`, `|-`) that reads back exactly?  Not with
 * a leading space or break (it would need an indentation indicator), a
 * space before a break or at the end, more than one final break (keep
 * chomping), or a special character.
 */
static bool
literal_ok(const char *s, size_t len)
{
	if (len == 0 || !memchr(s, '\n', len) || has_special(s, len, true))
		return false;
	if (s[0] == ' ' || s[0] == '\n')
		return false;
	if (s[len - 1] == ' ' || has_sub(s, len, " \n"))
		return false;
	if (len >= 2 && s[len - 1] == '\n' && s[len - 2] == '\n')
		return false;
	return true;
}

static yaml_scalar_style_t
str_style(const char *s, size_t len, bool is_key)
{
	if (plain_ok(s, len))
		return YAML_PLAIN_SCALAR_STYLE;
	/* A literal key would need the "? " form: keys stay on one line. */
	if (!is_key && literal_ok(s, len))
		return YAML_LITERAL_SCALAR_STYLE;
	return YAML_DOUBLE_QUOTED_SCALAR_STYLE;
}

/* The text and style a scalar is written with; num holds a number's text. */
static void
scalar_text(const struct node *n, bool is_key, char num[NUM_TEXT], const char **text_out,
	    size_t *len_out, yaml_scalar_style_t *style_out)
{
	yaml_scalar_style_t style = YAML_PLAIN_SCALAR_STYLE;
	const char *text = n->scalar.text ? n->scalar.text : "";
	size_t len = n->scalar.text ? n->scalar.len : 0;

	switch (n->type) {
	case NODE_STR: style = str_style(text, len, is_key); break;
	case NODE_NULL:
		text = "null";
		len = 4;
		break;
	case NODE_BOOL:
		text = n->scalar.i ? "true" : "false";
		len = strlen(text);
		break;
	case NODE_INT:
		/* From the value: canonical whatever text the node carries. */
		len = (size_t)snprintf(num, NUM_TEXT, "%" PRId64, n->scalar.i);
		text = num;
		break;
	case NODE_FLOAT: {
		double f;
		int64_t i;

		/* Text that reads back as a number is kept ("1e3", ".inf");
		 * anything else ("inf", "") is written from the value. */
		if (len &&
		    (yamlio_parse_float(text, len, &f) || yamlio_parse_int(text, len, &i, &f)))
			break;
		f = n->scalar.f;
		if (isnan(f))
			text = ".nan";
		else if (isinf(f))
			text = f < 0 ? "-.inf" : ".inf";
		else
			text = num_fmt_double(num, NUM_TEXT, f) ? num : "0";
		len = strlen(text);
		break;
	}
	}
	*text_out = text;
	*len_out = len;
	*style_out = style;
}

static int
emit_scalar(yaml_emitter_t *em, const struct node *n, bool is_key)
{
	yaml_event_t ev;
	yaml_scalar_style_t style;
	char num[NUM_TEXT];
	const char *text;
	size_t len;

	scalar_text(n, is_key, num, &text, &len, &style);
	if (len > INT32_MAX)
		return -1;
	if (!yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)(uintptr_t)text, (int)len,
					  1, 1, style))
		return -1;
	return yaml_emitter_emit(em, &ev) ? 0 : -1;
}

static int
emit_node(yaml_emitter_t *em, const struct node *n, unsigned depth)
{
	yaml_event_t ev;
	size_t i;

	if (!n || depth > EMIT_MAX_DEPTH)
		return -1;
	switch (n->kind) {
	case NODE_SCALAR: return emit_scalar(em, n, false);
	case NODE_SEQ:
		if (!yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
							  YAML_BLOCK_SEQUENCE_STYLE) ||
		    !yaml_emitter_emit(em, &ev))
			return -1;
		for (i = 0; i < n->seq.count; i++)
			if (emit_node(em, n->seq.items[i], depth + 1) < 0)
				return -1;
		if (!yaml_sequence_end_event_initialize(&ev) || !yaml_emitter_emit(em, &ev))
			return -1;
		return 0;
	case NODE_MAP:
		if (!yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
							 YAML_BLOCK_MAPPING_STYLE) ||
		    !yaml_emitter_emit(em, &ev))
			return -1;
		for (i = 0; i < n->map.count; i++) {
			const struct node *k = n->map.pairs[i].key;

			/* Keys are written as strings whatever their type. */
			if (!k || k->kind != NODE_SCALAR)
				return -1;
			if (k->type == NODE_STR) {
				if (emit_scalar(em, k, true) < 0)
					return -1;
			} else {
				struct node ks = *k;

				ks.type = NODE_STR;
				if (emit_scalar(em,
						k->type == NODE_NULL || k->type == NODE_BOOL ? k
											     : &ks,
						true) < 0)
					return -1;
			}
			if (emit_node(em, n->map.pairs[i].value, depth + 1) < 0)
				return -1;
		}
		if (!yaml_mapping_end_event_initialize(&ev) || !yaml_emitter_emit(em, &ev))
			return -1;
		return 0;
	}
	return -1;
}

/*
 * The direct writer: the bytes libyaml writes for the trees render makes,
 * without its emitter (once 39% of a render).  It writes as it checks,
 * and drops what it wrote on the first node it does not take (a tree
 * libyaml may refuse included).  It takes a tree only when
 * every scalar is ASCII and every key short and on one line; plain,
 * double-quoted and literal scalars are then written exactly as libyaml's
 * block style does with this file's settings (indent 2, no width limit,
 * the style chosen above): keys at the mapping's column, a sequence in a
 * mapping at its key's column ("key:\n- a"), a mapping or sequence in a
 * sequence on the dash's line ("- k: v", "- - a"), {} and [] for empty
 * collections, literal lines two columns in from their key or dash.
 * Anything else goes to libyaml (yamlio_emit_libyaml); tests/unit/
 * test_emit_fast.c compares the two on generated trees and scalars.
 */
#define FAST_MAX_KEY 128 /* libyaml writes longer keys as "? key" */

static bool
ascii(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] >= 0x80)
			return false;
	return true;
}

/* A key as emit_node() writes it (its scalar, typed as a string unless
 * null or bool). */
static const struct node *
key_as_str(const struct node *k, struct node *tmp)
{
	if (k->type == NODE_STR || k->type == NODE_NULL || k->type == NODE_BOOL)
		return k;
	*tmp = *k;
	tmp->type = NODE_STR;
	return tmp;
}

/* Plain text libyaml writes plain: no indicator, space or break where
 * its analysis would refuse the plain style. */
static bool
plain_syntax_ok(const char *s, size_t len)
{
	if (len == 0 || memchr(s, '\n', len) || has_special(s, len, false))
		return false;
	if (s[0] == ' ' || s[len - 1] == ' ' || strchr("#,[]{}&*!|>'\"%@`?:", s[0]))
		return false;
	if (s[0] == '-' && (len == 1 || s[1] == ' '))
		return false;
	if (len >= 3 && (memcmp(s, "---", 3) == 0 || memcmp(s, "...", 3) == 0))
		return false;
	return !has_sub(s, len, ": ") && !has_sub(s, len, " #") && s[len - 1] != ':';
}

struct fast {
	struct buf *out;
	bool line_start; /* nothing written on the current line */
	bool refused;    /* a node the direct writer does not take */
	unsigned depth;  /* of the children being written (emit_node's) */
	int err;
};

static void
put(struct fast *w, const char *s, size_t n)
{
	if (!w->err && n) {
		w->err = buf_add(w->out, s, n);
		w->line_start = s[n - 1] == '\n';
	}
}

static void
put_ch(struct fast *w, char c)
{
	put(w, &c, 1);
}

static void
spaces(struct fast *w, unsigned n)
{
	static const char sp[] = "                                ";

	while (n) {
		unsigned k = n < sizeof(sp) - 1 ? n : (unsigned)(sizeof(sp) - 1);

		put(w, sp, k);
		n -= k;
	}
}

/* A new line at column `indent` (libyaml's write_indent). */
static void
line(struct fast *w, unsigned indent)
{
	if (!w->line_start)
		put_ch(w, '\n');
	spaces(w, indent);
	w->line_start = indent == 0;
}

/* libyaml's double-quoted scalar, ASCII text, no width limit. */
static void
put_double(struct fast *w, const char *s, size_t len)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t i, from = 0;

	put_ch(w, '"');
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		char e = 0;

		if (c >= 0x20 && c <= 0x7e && c != '"' && c != '\\')
			continue;
		put(w, s + from, i - from);
		from = i + 1;
		switch (c) {
		case 0x00: e = '0'; break;
		case 0x07: e = 'a'; break;
		case 0x08: e = 'b'; break;
		case 0x09: e = 't'; break;
		case 0x0a: e = 'n'; break;
		case 0x0b: e = 'v'; break;
		case 0x0c: e = 'f'; break;
		case 0x0d: e = 'r'; break;
		case 0x1b: e = 'e'; break;
		case '"': e = '"'; break;
		case '\\': e = '\\'; break;
		}
		put_ch(w, '\\');
		if (e) {
			put_ch(w, e);
		} else {
			char x[3] = { 'x', hex[c >> 4], hex[c & 15] };

			put(w, x, 3);
		}
	}
	put(w, s + from, len - from);
	put_ch(w, '"');
}

/* A scalar after "key:" or "-": its lines, if literal, at `indent`. */
static void
put_scalar(struct fast *w, const struct node *n, bool is_key, unsigned indent)
{
	yaml_scalar_style_t style;
	char num[NUM_TEXT];
	const char *text;
	size_t len;

	scalar_text(n, is_key, num, &text, &len, &style);
	if (len > INT32_MAX || !ascii(text, len) ||
	    (is_key &&
	     (len > FAST_MAX_KEY || memchr(text, '\n', len) || memchr(text, '\r', len))) ||
	    (n->type != NODE_STR && !plain_syntax_ok(text, len))) {
		w->refused = true;
		return;
	}
	if (!is_key)
		put_ch(w, ' ');
	if (style == YAML_PLAIN_SCALAR_STYLE) {
		put(w, text, len);
	} else if (style == YAML_DOUBLE_QUOTED_SCALAR_STYLE) {
		put_double(w, text, len);
	} else {
		/* literal: one final break or none (literal_ok) */
		const char *p = text, *end = text + len;

		put(w, text[len - 1] == '\n' ? "|\n" : "|-\n", text[len - 1] == '\n' ? 2 : 3);
		while (p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			size_t n_line = nl ? (size_t)(nl - p) : (size_t)(end - p);

			if (n_line) {
				spaces(w, indent);
				put(w, p, n_line);
			}
			if (nl)
				put_ch(w, '\n');
			p += n_line + (nl ? 1 : 0);
		}
	}
}

static void fast_map(struct fast *w, const struct node *n, unsigned indent, bool inline_first);
static void fast_seq(struct fast *w, const struct node *n, unsigned indent, bool inline_first);

/* A node emit_node() refuses (NULL, too deep), or a write that failed. */
static bool
fast_refuse(struct fast *w, const struct node *v)
{
	if (!v || w->depth > EMIT_MAX_DEPTH || w->refused || w->err) {
		w->refused = true;
		return true;
	}
	return false;
}

/* The value of a key at column `indent`, after "key:". */
static void
fast_value(struct fast *w, const struct node *v, unsigned indent)
{
	if (fast_refuse(w, v))
		return;
	if (v->kind == NODE_SCALAR)
		put_scalar(w, v, false, indent + 2);
	else if (v->kind == NODE_MAP)
		v->map.count ? fast_map(w, v, indent + 2, false) : put(w, " {}", 3);
	else
		v->seq.count ? fast_seq(w, v, indent, false) : put(w, " []", 3);
}

/* An item whose dash is at column `indent`, after "-". */
static void
fast_item(struct fast *w, const struct node *v, unsigned indent)
{
	if (fast_refuse(w, v))
		return;
	if (v->kind == NODE_SCALAR)
		put_scalar(w, v, false, indent + 2);
	else if (v->kind == NODE_MAP)
		v->map.count ? fast_map(w, v, indent + 2, true) : put(w, " {}", 3);
	else
		v->seq.count ? fast_seq(w, v, indent + 2, true) : put(w, " []", 3);
}

static void
fast_map(struct fast *w, const struct node *n, unsigned indent, bool inline_first)
{
	w->depth++;
	for (size_t i = 0; i < n->map.count && !w->refused; i++) {
		const struct node *k = n->map.pairs[i].key;
		struct node tmp;

		if (!k || k->kind != NODE_SCALAR) {
			w->refused = true;
			return;
		}
		if (i == 0 && inline_first)
			put_ch(w, ' ');
		else
			line(w, indent);
		put_scalar(w, key_as_str(k, &tmp), true, indent);
		put_ch(w, ':');
		fast_value(w, n->map.pairs[i].value, indent);
	}
	w->depth--;
}

static void
fast_seq(struct fast *w, const struct node *n, unsigned indent, bool inline_first)
{
	w->depth++;
	for (size_t i = 0; i < n->seq.count && !w->refused; i++) {
		if (i == 0 && inline_first)
			put_ch(w, ' ');
		else
			line(w, indent);
		put_ch(w, '-');
		fast_item(w, n->seq.items[i], indent);
	}
	w->depth--;
}

/* 1 when the tree is not one the direct writer takes (nothing written),
 * else 0 or a buf error with out as it was. */
static int
fast_emit(struct buf *out, const struct node *doc, unsigned flags)
{
	struct fast w = { out, true, false, 0, 0 };
	size_t start = out->len;

	if (!doc || doc->kind == NODE_SCALAR ||
	    (doc->kind == NODE_MAP ? !doc->map.count : !doc->seq.count))
		return 1;
	if (flags & YAMLIO_DOC_START)
		put(&w, "---", 3);
	if (doc->kind == NODE_MAP)
		fast_map(&w, doc, 0, false);
	else
		fast_seq(&w, doc, 0, false);
	if (!w.line_start)
		put_ch(&w, '\n');
	if (w.err || w.refused) {
		/* as it was; a tree it does not take goes to libyaml */
		out->len = start;
		if (out->alloc)
			out->data[start] = '\0';
		return w.refused ? 1 : w.err;
	}
	return 0;
}

int
yamlio_emit(struct buf *out, const struct node *doc, unsigned flags)
{
	int r = fast_emit(out, doc, flags);

	return r == 1 ? yamlio_emit_libyaml(out, doc, flags) : r;
}

int
yamlio_emit_libyaml(struct buf *out, const struct node *doc, unsigned flags)
{
	yaml_emitter_t em;
	yaml_event_t ev;
	struct writer w = { out, 0 };
	size_t start = out->len;
	int ret = -1;

	if (!yaml_emitter_initialize(&em))
		return -1;
	yaml_emitter_set_output(&em, write_handler, &w);
	yaml_emitter_set_encoding(&em, YAML_UTF8_ENCODING);
	yaml_emitter_set_canonical(&em, 0);
	yaml_emitter_set_indent(&em, 2);
	yaml_emitter_set_width(&em, -1);
	yaml_emitter_set_unicode(&em, 1);
	yaml_emitter_set_break(&em, YAML_LN_BREAK);

	if (!yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING) ||
	    !yaml_emitter_emit(&em, &ev))
		goto out;
	if (!yaml_document_start_event_initialize(&ev, NULL, NULL, NULL,
						  (flags & YAMLIO_DOC_START) ? 0 : 1) ||
	    !yaml_emitter_emit(&em, &ev))
		goto out;
	if (emit_node(&em, doc, 0) < 0)
		goto out;
	if (!yaml_document_end_event_initialize(&ev, 1) || !yaml_emitter_emit(&em, &ev))
		goto out;
	if (!yaml_stream_end_event_initialize(&ev) || !yaml_emitter_emit(&em, &ev))
		goto out;
	if (!yaml_emitter_flush(&em))
		goto out;
	ret = 0;
out:
	yaml_emitter_delete(&em);
	if (ret < 0) {
		/* Nothing half written: the buffer is as it was. */
		out->len = start;
		if (out->alloc)
			out->data[start] = '\0';
		if (w.err)
			ret = w.err;
	}
	return ret;
}
