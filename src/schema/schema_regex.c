/*
 * schema_regex.c - ECMA-262 patterns on POSIX <regex.h>.
 *
 * JSON Schema patterns are ECMA-262 regular expressions and are not
 * anchored.  They are translated to POSIX extended syntax once, compiled
 * once per process (a cache keyed by the pattern text) and matched with
 * regexec() in a UTF-8 locale, so `.` and lengths count code points.
 * What ERE cannot say is refused with a reason, never accepted silently.
 */
#include <limits.h>
#include <locale.h>
#include <regex.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/xalloc.h"
#include "schema/schema_int.h"

/* ------------------------------------------------------------------ */
/* Translation */

struct tr {
	struct buf *out;
	const char *s;
	size_t len;
	size_t i;
	bool utf8;
	bool go;        /* Go RE2 semantics of \s and '.' */
	bool atom;      /* something a quantifier may follow was just written */
	unsigned depth; /* groups open */
	const char *why;
	size_t where;
	int err;
};

static int
tr_fail(struct tr *t, size_t at, const char *why)
{
	if (!t->err) {
		t->why = why;
		t->where = at;
		t->err = -1;
	}
	return -1;
}

static void
tr_puts(struct tr *t, const char *s)
{
	if (buf_adds(t->out, s))
		tr_fail(t, t->i, "pattern too long");
}

static void
tr_putc(struct tr *t, char c)
{
	if (buf_addch(t->out, c))
		tr_fail(t, t->i, "pattern too long");
}

static size_t
utf8_encode(char out[4], uint32_t cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xC0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xE0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		out[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	out[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

/* Decode one UTF-8 sequence at s[*i] (input is valid UTF-8: it came
 * through the YAML or JSON reader). */
static uint32_t
utf8_next(const char *s, size_t len, size_t *i)
{
	const unsigned char *u = (const unsigned char *)s;
	uint32_t cp = u[*i];
	size_t n = 0, k;

	if (cp >= 0xF0)
		n = 3, cp &= 0x07;
	else if (cp >= 0xE0)
		n = 2, cp &= 0x0F;
	else if (cp >= 0xC0)
		n = 1, cp &= 0x1F;
	(*i)++;
	for (k = 0; k < n && *i < len; k++, (*i)++)
		cp = (cp << 6) | (u[*i] & 0x3F);
	return cp;
}

static bool
ere_special(uint32_t c)
{
	return c < 0x80 && strchr(".[]()*+?{}|^$\\", (int)c) && c != 0;
}

/* A literal code point outside brackets. */
static void
tr_literal(struct tr *t, uint32_t cp)
{
	char u[4];
	size_t n;

	if (cp == 0) {
		tr_fail(t, t->i, "NUL in a pattern");
		return;
	}
	if (ere_special(cp)) {
		tr_putc(t, '\\');
		tr_putc(t, (char)cp);
		return;
	}
	n = utf8_encode(u, cp);
	/* Byte-mode regex: keep a multi-byte character one atom. */
	if (n > 1 && !t->utf8)
		tr_putc(t, '(');
	if (buf_add(t->out, u, n))
		tr_fail(t, t->i, "pattern too long");
	if (n > 1 && !t->utf8)
		tr_putc(t, ')');
}

static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Read n hex digits at t->i; -1 when they are not there. */
static long
tr_hex(struct tr *t, size_t n)
{
	long v = 0;
	size_t k;

	if (t->i + n > t->len)
		return -1;
	for (k = 0; k < n; k++) {
		int h = hexval(t->s[t->i + k]);

		if (h < 0)
			return -1;
		v = v * 16 + h;
	}
	t->i += n;
	return v;
}

/* The letter of \cX at t->i: its control character, or -1 when there is
 * no letter. */
static long
tr_control(struct tr *t)
{
	char c = t->i < t->len ? t->s[t->i] : 0;

	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
		t->i++;
		return c & 31;
	}
	return -1;
}

/* The escapes that stand for one character alike inside and outside
 * brackets, c being the letter after '\\': \t \n \r \f \v \xHH \cX.
 * 1 with *cp set, 0 when c is none of them, -1 on a bad one. */
static int
tr_char_escape(struct tr *t, char c, uint32_t *cp)
{
	long v;

	switch (c) {
	case 't': *cp = '\t'; return 1;
	case 'n': *cp = '\n'; return 1;
	case 'r': *cp = '\r'; return 1;
	case 'f': *cp = '\f'; return 1;
	case 'v': *cp = '\v'; return 1;
	case 'x':
		v = tr_hex(t, 2);
		if (v < 0)
			return tr_fail(t, t->i, "bad \\x escape");
		*cp = (uint32_t)v;
		return 1;
	case 'c':
		v = tr_control(t);
		if (v < 0)
			return tr_fail(t, t->i, "bad \\c escape");
		*cp = (uint32_t)v;
		return 1;
	default: return 0;
	}
}

/* Code point ranges of the class escapes (ECMA \s is Unicode White_Space
 * plus line terminators and the BOM). */
struct range {
	uint32_t lo, hi;
};

static const struct range digit_ranges[] = { { '0', '9' } };
static const struct range word_ranges[] = {
	{ '0', '9' },
	{ 'A', 'Z' },
	{ '_', '_' },
	{ 'a', 'z' },
};
static const struct range space_ranges[] = {
	{ 0x09, 0x0D },     { 0x20, 0x20 },     { 0xA0, 0xA0 },     { 0x1680, 0x1680 },
	{ 0x2000, 0x200A }, { 0x2028, 0x2029 }, { 0x202F, 0x202F }, { 0x205F, 0x205F },
	{ 0x3000, 0x3000 }, { 0xFEFF, 0xFEFF },
};

static const struct range go_space_ranges[] = {
	{ 0x09, 0x0A },
	{ 0x0C, 0x0D },
	{ 0x20, 0x20 },
};

/* A set of code point ranges being built for one bracket expression. */
struct cset {
	struct range r[128];
	size_t n;
	bool neg;
};

static void
cset_add(struct tr *t, struct cset *cs, uint32_t lo, uint32_t hi)
{
	if (cs->n == sizeof(cs->r) / sizeof(cs->r[0])) {
		tr_fail(t, t->i, "character class too large");
		return;
	}
	cs->r[cs->n].lo = lo;
	cs->r[cs->n].hi = hi;
	cs->n++;
}

static void
cset_add_class(struct tr *t, struct cset *cs, char cls)
{
	const struct range *r;
	size_t n, k;

	switch (cls) {
	case 'd': r = digit_ranges, n = 1; break;
	case 'w': r = word_ranges, n = 4; break;
	default:
		if (t->go) { /* RE2: [\t\n\f\r ] */
			r = go_space_ranges;
			n = sizeof(go_space_ranges) / sizeof(go_space_ranges[0]);
			break;
		}
		r = space_ranges;
		n = sizeof(space_ranges) / sizeof(space_ranges[0]);
		if (!t->utf8)
			n = 2; /* ASCII only in byte mode */
		break;
	}
	for (k = 0; k < n; k++)
		cset_add(t, cs, r[k].lo, r[k].hi);
}

static void
emit_cp(struct tr *t, uint32_t cp)
{
	char u[4];
	size_t n = utf8_encode(u, cp);

	if (cp >= 0x80 && !t->utf8) {
		tr_fail(t, t->i, "non-ASCII character class without a UTF-8 locale");
		return;
	}
	if (buf_add(t->out, u, n))
		tr_fail(t, t->i, "pattern too long");
}

/*
 * POSIX brackets have no escapes: ']' must come first, '-' last, '^' not
 * first, and '[' must not be followed by ':', '.' or '=', so these four are
 * split out of ranges and placed where they are literal.
 */
static const uint32_t bracket_specials[] = { '-', '[', ']', '^' };

/* Write the range lo..hi inside a bracket expression, without the four
 * specials; -1 when it cannot be written. */
static int
cset_emit_range(struct tr *t, uint32_t lo, uint32_t hi)
{
	size_t j;

	while (lo <= hi) {
		uint32_t end = hi;

		/* Stop the piece before the next special in it. */
		for (j = 0; j < 4; j++)
			if (bracket_specials[j] >= lo && bracket_specials[j] <= end)
				end = bracket_specials[j] == lo ? lo : bracket_specials[j] - 1;
		/* glibc refuses ranges between multi-byte characters
		 * ("Invalid collation character"): list them. */
		if (end >= 0x80 && lo < 0x80) {
			end = 0x7F;
		} else if (end >= 0x80 && end > lo) {
			uint32_t cp;

			if (end - lo > 1024)
				return tr_fail(t, t->i,
					       "a non-ASCII range of more than 1024 characters");
			for (cp = lo; cp <= end; cp++)
				emit_cp(t, cp);
			lo = end + 1;
			continue;
		}
		if (!(end == lo && (lo == '-' || lo == '[' || lo == ']' || lo == '^'))) {
			emit_cp(t, lo);
			if (end > lo) {
				if (end > lo + 1)
					tr_putc(t, '-');
				emit_cp(t, end);
			}
		}
		if (end == UINT32_MAX)
			break;
		lo = end + 1;
	}
	return 0;
}

/* Write a POSIX bracket expression for cs, the specials where they are
 * literal. */
static void
cset_emit(struct tr *t, const struct cset *cs)
{
	bool has[4] = { false, false, false, false };
	size_t k, j, body_start;

	tr_putc(t, '[');
	if (cs->neg)
		tr_putc(t, '^');
	for (k = 0; k < cs->n; k++)
		for (j = 0; j < 4; j++)
			if (cs->r[k].lo <= bracket_specials[j] &&
			    bracket_specials[j] <= cs->r[k].hi)
				has[j] = true;
	if (has[2])
		tr_putc(t, ']');
	body_start = t->out->len;
	for (k = 0; k < cs->n; k++)
		if (cset_emit_range(t, cs->r[k].lo, cs->r[k].hi))
			return;
	if (has[3]) {
		/* '^' first in a non-negated bracket would negate it. */
		if (!cs->neg && t->out->len == body_start && !has[2] && !has[1] && !has[0]) {
			/* The class is exactly "^": say it outside brackets. */
			t->out->len--;
			t->out->data[t->out->len] = '\0';
			tr_puts(t, "\\^");
			return;
		}
		if (!cs->neg && t->out->len == body_start && !has[2]) {
			/* Put something else first; '[' or '-' can lead. */
			if (has[1]) {
				tr_putc(t, '[');
				has[1] = false;
			} else {
				tr_putc(t, '-');
				has[0] = false;
			}
		}
		tr_putc(t, '^');
	}
	if (has[1])
		tr_putc(t, '[');
	if (has[0])
		tr_putc(t, '-');
	tr_putc(t, ']');
}

/* One class atom inside [...]: a code point, or a class escape (then
 * *cls is 'd', 'w' or 's', or an upper-case letter for a negated one). */
static int
tr_class_atom(struct tr *t, uint32_t *cp, char *cls)
{
	char c;
	long v;
	int rc;

	*cls = 0;
	if (t->s[t->i] != '\\') {
		*cp = utf8_next(t->s, t->len, &t->i);
		return 0;
	}
	if (t->i + 1 >= t->len)
		return tr_fail(t, t->i, "pattern ends with '\\'");
	c = t->s[t->i + 1];
	t->i += 2;
	rc = tr_char_escape(t, c, cp);
	if (rc)
		return rc < 0 ? rc : 0;
	switch (c) {
	case 'd':
	case 'w':
	case 's':
	case 'D':
	case 'W':
	case 'S': *cls = c; return 0;
	case 'b': *cp = 0x08; return 0;
	case 'u':
		v = tr_hex(t, 4);
		if (v < 0)
			return tr_fail(t, t->i, "bad \\u escape");
		if (v >= 0xD800 && v <= 0xDFFF)
			return tr_fail(t, t->i, "UTF-16 surrogate escape");
		*cp = (uint32_t)v;
		return 0;
	case '0': return tr_fail(t, t->i - 2, "NUL in a pattern");
	case 'p':
	case 'P': return tr_fail(t, t->i - 2, "Unicode property escape \\p");
	default:
		if (c >= '1' && c <= '9')
			return tr_fail(t, t->i - 2, "octal escape in a class");
		t->i--;
		*cp = utf8_next(t->s, t->len, &t->i);
		return 0;
	}
}

static int
tr_bracket(struct tr *t)
{
	struct cset cs;
	size_t open = t->i;
	char neg_class = 0;
	size_t items = 0;

	cs.n = 0;
	cs.neg = false;
	t->i++; /* '[' */
	if (t->i < t->len && t->s[t->i] == '^') {
		cs.neg = true;
		t->i++;
	}
	while (t->i < t->len && t->s[t->i] != ']') {
		uint32_t lo, hi;
		char cls, cls2;

		if (tr_class_atom(t, &lo, &cls))
			return -1;
		items++;
		if (cls) {
			if (cls >= 'A' && cls <= 'Z')
				neg_class = cls;
			else
				cset_add_class(t, &cs, cls);
			continue;
		}
		hi = lo;
		if (t->i + 1 < t->len && t->s[t->i] == '-' && t->s[t->i + 1] != ']') {
			size_t dash = t->i;

			t->i++;
			if (tr_class_atom(t, &hi, &cls2))
				return -1;
			if (cls2) {
				/* [a-\d]: '-' is a literal (Annex B). */
				cset_add(t, &cs, lo, lo);
				cset_add(t, &cs, '-', '-');
				if (cls2 >= 'A' && cls2 <= 'Z')
					neg_class = cls2;
				else
					cset_add_class(t, &cs, cls2);
				items += 2;
				continue;
			}
			if (hi < lo)
				return tr_fail(t, dash, "range out of order in a character class");
		}
		cset_add(t, &cs, lo, hi);
	}
	if (t->i >= t->len)
		return tr_fail(t, open, "unterminated character class");
	t->i++; /* ']' */
	if (t->err)
		return -1;
	if (neg_class) {
		/* Only [\D] alone (or [^\D]) has an ERE form. */
		if (items != 1)
			return tr_fail(t, open, "negated class escape inside a larger class");
		cs.n = 0;
		cset_add_class(t, &cs, (char)(neg_class - 'A' + 'a'));
		cs.neg = !cs.neg;
	}
	if (cs.n == 0) {
		if (cs.neg) { /* [^] matches any character */
			tr_puts(t, "(.|\n)");
			return t->err;
		}
		return tr_fail(t, open, "empty character class [] matches nothing");
	}
	cset_emit(t, &cs);
	return t->err;
}

/* A class escape outside brackets. */
static void
tr_class_escape(struct tr *t, char c)
{
	struct cset cs;

	cs.n = 0;
	cs.neg = c >= 'A' && c <= 'Z';
	cset_add_class(t, &cs, (char)(cs.neg ? c - 'A' + 'a' : c));
	cset_emit(t, &cs);
}

/* {n}, {n,} or {n,m} at t->i: length of the quantifier, or 0. */
static size_t
brace_quantifier(const struct tr *t, long *lo, long *hi)
{
	size_t j = t->i + 1;
	long a = 0, b = -1;
	bool digits = false;

	while (j < t->len && t->s[j] >= '0' && t->s[j] <= '9') {
		if (a < 100000)
			a = a * 10 + (t->s[j] - '0');
		j++, digits = true;
	}
	if (!digits)
		return 0;
	if (j < t->len && t->s[j] == ',') {
		j++;
		if (j < t->len && t->s[j] >= '0' && t->s[j] <= '9') {
			b = 0;
			while (j < t->len && t->s[j] >= '0' && t->s[j] <= '9') {
				if (b < 100000)
					b = b * 10 + (t->s[j] - '0');
				j++;
			}
		}
	} else {
		b = a;
	}
	if (j >= t->len || t->s[j] != '}')
		return 0;
	*lo = a;
	*hi = b;
	return j + 1 - t->i;
}

/* A lazy quantifier's '?': the same verdict as greedy when only "does it
 * match" is asked, so it is dropped. */
static void
tr_skip_lazy(struct tr *t)
{
	if (t->i < t->len && t->s[t->i] == '?')
		t->i++;
}

/* \uXXXX outside brackets; a surrogate pair \uD83D\uDE00 is one code
 * point, a lone surrogate has no UTF-8 form. */
static void
tr_unicode_escape(struct tr *t)
{
	long v = tr_hex(t, 4), low;

	if (v < 0) {
		tr_fail(t, t->i, "bad \\u escape");
		return;
	}
	if (v >= 0xD800 && v <= 0xDBFF && t->i + 6 <= t->len && t->s[t->i] == '\\' &&
	    t->s[t->i + 1] == 'u') {
		t->i += 2;
		low = tr_hex(t, 4);
		if (low < 0xDC00 || low > 0xDFFF)
			tr_fail(t, t->i, "unpaired UTF-16 surrogate escape");
		else
			tr_literal(t, (uint32_t)(0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00)));
		return;
	}
	if (v >= 0xD800 && v <= 0xDFFF) {
		tr_fail(t, t->i, "unpaired UTF-16 surrogate escape");
		return;
	}
	tr_literal(t, (uint32_t)v);
}

/* A backslash escape outside brackets: a class, a literal, or one of the
 * assertions and references ERE has no form for. */
static void
tr_escape(struct tr *t)
{
	uint32_t cp;
	char c;
	int rc;

	if (t->i + 1 >= t->len) {
		tr_fail(t, t->i, "pattern ends with '\\'");
		return;
	}
	c = t->s[t->i + 1];
	t->i += 2;
	t->atom = true;
	rc = tr_char_escape(t, c, &cp);
	if (rc > 0)
		tr_literal(t, cp);
	if (rc)
		return;
	switch (c) {
	case 'd':
	case 'w':
	case 's':
	case 'D':
	case 'W':
	case 'S': tr_class_escape(t, c); break;
	case 'b':
	case 'B': tr_fail(t, t->i - 2, "word boundary \\b / \\B"); break;
	case 'u': tr_unicode_escape(t); break;
	case 'k': tr_fail(t, t->i - 2, "named backreference \\k"); break;
	case 'p':
	case 'P': tr_fail(t, t->i - 2, "Unicode property escape \\p"); break;
	case '0': tr_fail(t, t->i - 2, "NUL in a pattern"); break;
	default:
		if (c >= '1' && c <= '9') {
			tr_fail(t, t->i - 2, "backreference");
			break;
		}
		/* Identity escape: the character itself. */
		t->i--;
		tr_literal(t, utf8_next(t->s, t->len, &t->i));
		break;
	}
}

/* '.': ECMA's stops at line terminators, RE2's at \n only. */
static void
tr_dot(struct tr *t)
{
	if (t->go)
		tr_puts(t, "[^\n]");
	else
		tr_puts(t, t->utf8 ? "[^\n\r\xE2\x80\xA8\xE2\x80\xA9]" : "[^\n\r]");
	t->i++;
	t->atom = true;
}

/* '(': (?:...) and (?<name>...) become plain groups, which match the
 * same; lookaround and other (?...) forms have no ERE form. */
static void
tr_group_open(struct tr *t)
{
	const char *s = t->s;
	size_t i = t->i, j;

	if (i + 1 < t->len && s[i + 1] == '?') {
		if (i + 2 < t->len && s[i + 2] == ':') {
			t->i += 3;
		} else if (i + 3 < t->len && s[i + 2] == '<' && s[i + 3] != '=' &&
			   s[i + 3] != '!') {
			for (j = i + 3; j < t->len && s[j] != '>'; j++)
				;
			if (j >= t->len) {
				tr_fail(t, i, "unterminated group name");
				return;
			}
			t->i = j + 1;
		} else if (i + 2 < t->len &&
			   (s[i + 2] == '=' || s[i + 2] == '!' || s[i + 2] == '<')) {
			tr_fail(t, i, "lookahead or lookbehind (?= (?! (?<= (?<!");
			return;
		} else {
			tr_fail(t, i, "unknown group (?...)");
			return;
		}
	} else {
		t->i++;
	}
	tr_putc(t, '(');
	t->depth++;
	t->atom = false;
}

static void
tr_group_close(struct tr *t)
{
	if (t->depth == 0) {
		tr_fail(t, t->i, "unmatched ')'");
		return;
	}
	t->depth--;
	tr_putc(t, ')');
	t->i++;
	t->atom = true;
}

/* '*', '+' or '?' after an atom. */
static void
tr_repeat(struct tr *t, char c)
{
	if (!t->atom) {
		tr_fail(t, t->i, "nothing to repeat");
		return;
	}
	tr_putc(t, c);
	t->i++;
	tr_skip_lazy(t);
	t->atom = false;
}

/* '{': a {n}, {n,} or {n,m} quantifier is copied as it is (ERE writes it
 * the same), within the counts regcomp() takes. */
static void
tr_brace(struct tr *t)
{
	long lo = 0, hi = -1;
	size_t q = brace_quantifier(t, &lo, &hi);

	if (!q) {
		/* Annex B: a '{' that is no quantifier is literal. */
		tr_literal(t, '{');
		t->i++;
		t->atom = true;
		return;
	}
	if (!t->atom) {
		tr_fail(t, t->i, "nothing to repeat");
		return;
	}
	if (hi >= 0 && hi < lo) {
		tr_fail(t, t->i, "numbers out of order in {} quantifier");
		return;
	}
	if (lo > RE_DUP_MAX || hi > RE_DUP_MAX) {
		tr_fail(t, t->i, "repeat count too large for POSIX regex");
		return;
	}
	if (buf_add(t->out, t->s + t->i, q))
		tr_fail(t, t->i, "pattern too long");
	t->i += q;
	tr_skip_lazy(t);
	t->atom = false;
}

/* The construct that starts at t->i, outside brackets. */
static void
tr_construct(struct tr *t)
{
	char c = t->s[t->i];

	switch (c) {
	case '\\': tr_escape(t); break;
	case '.': tr_dot(t); break;
	case '[':
		tr_bracket(t);
		t->atom = true;
		break;
	case '(': tr_group_open(t); break;
	case ')': tr_group_close(t); break;
	case '|':
	case '^':
	case '$':
		tr_putc(t, c);
		t->i++;
		t->atom = false;
		break;
	case '*':
	case '+':
	case '?': tr_repeat(t, c); break;
	case '{': tr_brace(t); break;
	case '}':
	case ']':
		/* Annex B: literal outside brackets. */
		tr_literal(t, (uint32_t)(unsigned char)c);
		t->i++;
		t->atom = true;
		break;
	default:
		tr_literal(t, utf8_next(t->s, t->len, &t->i));
		t->atom = true;
		break;
	}
}

int
schema_regex_translate(struct buf *out, const char *src, size_t len,
		       enum schema_regex_dialect dialect, bool utf8, const char **why,
		       size_t *where)
{
	struct tr t;

	memset(&t, 0, sizeof(t));
	t.out = out;
	t.s = src;
	t.len = len;
	t.utf8 = utf8;
	t.go = dialect == SCHEMA_RE_GO;
	while (t.i < t.len && !t.err)
		tr_construct(&t);
	if (!t.err && t.depth)
		tr_fail(&t, t.len, "unmatched '('");
	if (t.err) {
		*why = t.why;
		*where = t.where;
	}
	return t.err;
}

/* ------------------------------------------------------------------ */
/* Compiled patterns, one per distinct text for the whole process */

/*
 * Each pattern has up to two compiled forms, each built the first time it
 * is needed: `full`, the translation for the UTF-8 locale (code point
 * semantics), and `ascii`, a byte-mode twin compiled under the C locale.
 * The twin exists only when the pattern has a byte-mode translation (no
 * non-ASCII character in a class); on a pure-ASCII subject it gives the
 * same verdict as `full` (every character of the subject is one byte;
 * '.', \s and negated classes can only meet ASCII characters; a
 * non-ASCII literal matches in neither) without glibc's per-character
 * multibyte conversion.
 * A subject with any byte >= 0x80 always goes to `full`.
 */
enum { RE_TODO = 0, RE_OK = 1, RE_FAILED = -1 };

struct schema_regex {
	struct schema_regex *next;
	char *src;
	enum schema_regex_dialect dialect;
	signed char full_state, ascii_state; /* RE_TODO, RE_OK, RE_FAILED */
	regex_t full;
	regex_t ascii;
};

#define RE_BUCKETS 256
static struct schema_regex *re_table[RE_BUCKETS];
static bool re_atexit;
#ifdef ARENA_DEBUG
static const bool re_free_at_exit = true;
#else
static const bool re_free_at_exit = false;
#endif
static locale_t re_locale;
static int re_locale_state;       /* 0 unknown, 1 UTF-8, -1 bytes */
static unsigned long re_compiles; /* regcomp calls, for tests */
static locale_t re_c_locale;
static int re_c_state; /* 0 unknown, 1 made, -1 could not */

static void
re_free_all(void)
{
	size_t k;

	for (k = 0; k < RE_BUCKETS; k++) {
		struct schema_regex *r = re_table[k], *next;

		for (; r; r = next) {
			next = r->next;
			if (r->full_state == RE_OK)
				regfree(&r->full);
			if (r->ascii_state == RE_OK)
				regfree(&r->ascii);
			free(r->src);
			free(r);
		}
		re_table[k] = NULL;
	}
	if (re_locale_state == 1)
		freelocale(re_locale);
	re_locale_state = 0;
	if (re_c_state == 1)
		freelocale(re_c_locale);
	re_c_state = 0;
}

bool
schema_regex_utf8(void)
{
	if (re_locale_state == 0) {
		re_locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
		if (!re_locale)
			re_locale = newlocale(LC_CTYPE_MASK, "C.utf8", (locale_t)0);
		if (!re_locale)
			re_locale = newlocale(LC_CTYPE_MASK, "en_US.UTF-8", (locale_t)0);
		re_locale_state = re_locale ? 1 : -1;
	}
	return re_locale_state == 1;
}

static bool
re_c(void)
{
	if (re_c_state == 0) {
		re_c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
		re_c_state = re_c_locale ? 1 : -1;
	}
	return re_c_state == 1;
}

static size_t
re_hash(const char *s)
{
	size_t h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h % RE_BUCKETS;
}

static char *re_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A malloc'd message (the cache lives outside any run's arena). */
static char *
re_error(const char *fmt, ...)
{
	va_list ap;
	char *msg;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	msg = xmalloc((size_t)(n < 0 ? 0 : n) + 1);
	va_start(ap, fmt);
	vsnprintf(msg, (size_t)(n < 0 ? 0 : n) + 1, fmt, ap);
	va_end(ap);
	return msg;
}

/*
 * Translate r->src for `utf8` (the UTF-8 locale) or byte mode and regcomp
 * it into *re under `loc` (when not 0).  With ascii_only (the twin) a
 * case-insensitive translation must be pure ASCII, else -1 without a
 * message.  On other failures *err
 * (when err is not NULL) is a malloc'd message.
 */
static int
re_build(regex_t *re, const struct schema_regex *r, bool utf8, locale_t loc, bool ascii_only,
	 char **err)
{
	struct buf ere;
	size_t where = 0, k;
	const char *why = NULL, *body = r->src;
	locale_t old = (locale_t)0;
	int rc, cflags = REG_EXTENDED | REG_NOSUB;
	bool caret = false; /* "^" written before the flag group */

	/* RE2's case-insensitive flag, as CRDs write it ("(?i)abc",
	 * "^(?i)abc"): only where it covers the whole pattern. */
	if (r->dialect == SCHEMA_RE_GO && strncmp(r->src, "(?i)", 4) == 0) {
		body = r->src + 4;
		cflags |= REG_ICASE;
	} else if (r->dialect == SCHEMA_RE_GO && strncmp(r->src, "^(?i)", 5) == 0) {
		body = r->src + 5;
		cflags |= REG_ICASE;
		caret = true;
	}
	buf_init(&ere, 1u << 20);
	if (caret && buf_addch(&ere, '^'))
		why = "pattern too long";
	if (why ||
	    schema_regex_translate(&ere, body, strlen(body), r->dialect, utf8, &why, &where)) {
		where += (size_t)(body - r->src);
		if (err)
			*err = re_error("pattern '%s' uses %s (at offset %zu), which "
					"POSIX regular expressions cannot express; rewrite it",
					r->src, why, where);
		buf_release(&ere);
		return -1;
	}
	/* A non-ASCII literal outside brackets is a parenthesised byte
	 * sequence in byte mode: it can meet no ASCII subject, in either
	 * form.  Under REG_ICASE the two locales could fold it differently,
	 * so then the twin must be pure ASCII.  (Non-ASCII inside brackets
	 * already failed the byte-mode translation.) */
	if (ascii_only && (cflags & REG_ICASE))
		for (k = 0; k < ere.len; k++)
			if ((unsigned char)ere.data[k] >= 0x80) {
				buf_release(&ere);
				return -1;
			}
	if (loc)
		old = uselocale(loc);
	rc = regcomp(re, ere.data, cflags);
	re_compiles++;
	if (loc)
		uselocale(old);
	buf_release(&ere);
	if (rc) {
		char msg[160];

		regerror(rc, re, msg, sizeof(msg));
		if (err)
			*err = re_error("pattern '%s' is not a valid regular expression: %s",
					r->src, msg);
		return -1;
	}
	return 0;
}

/* Build the full form once; 0 when it is there. */
static int
re_full(struct schema_regex *r, char **err)
{
	bool utf8;

	if (r->full_state == RE_TODO) {
		utf8 = schema_regex_utf8();
		r->full_state =
			re_build(&r->full, r, utf8, utf8 ? re_locale : (locale_t)0, false, err) == 0
				? RE_OK
				: RE_FAILED;
	}
	return r->full_state == RE_OK ? 0 : -1;
}

/* Build the ASCII twin once; 0 when it is there.  Without a UTF-8 locale
 * the full form is already byte mode and no twin is made. */
static int
re_ascii(struct schema_regex *r)
{
	if (r->ascii_state == RE_TODO) {
		r->ascii_state = RE_FAILED;
		if (schema_regex_utf8() && re_c() &&
		    re_build(&r->ascii, r, false, re_c_locale, true, NULL) == 0)
			r->ascii_state = RE_OK;
	}
	return r->ascii_state == RE_OK ? 0 : -1;
}

/* The cache entry for src, made (nothing compiled) when it is new. */
static struct schema_regex *
re_entry(const char *src, enum schema_regex_dialect dialect)
{
	struct schema_regex *r;
	size_t h = re_hash(src);

	for (r = re_table[h]; r; r = r->next)
		if (r->dialect == dialect && strcmp(r->src, src) == 0)
			return r;
	r = xcalloc(1, sizeof(*r));
	r->src = xstrdup(src);
	r->dialect = dialect;
	r->next = re_table[h];
	re_table[h] = r;
	/* Freeing hundreds of compiled patterns at exit is 6% of a one-site
	 * generate; a normal run leaves them to the exit (still reachable
	 * from re_table), a debug build frees them for the leak checkers. */
	if (re_free_at_exit && !re_atexit) {
		atexit(re_free_all);
		re_atexit = true;
	}
	return r;
}

const struct schema_regex *
schema_regex_get(const char *src, enum schema_regex_dialect dialect, char **err)
{
	struct schema_regex *r = re_entry(src, dialect);

	*err = NULL;
	if (r->full_state == RE_FAILED) {
		/* Failed before without a message (a lazy entry): build the
		 * message now. */
		regex_t tmp;
		bool utf8 = schema_regex_utf8();

		if (re_build(&tmp, r, utf8, utf8 ? re_locale : (locale_t)0, false, err) == 0) {
			regfree(&tmp); /* cannot happen: same text, same locale */
			*err = re_error("pattern '%s' could not be compiled", src);
		}
		return NULL;
	}
	if (re_full(r, err))
		return NULL;
	return r;
}

const struct schema_regex *
schema_regex_get_lazy(const char *src, enum schema_regex_dialect dialect)
{
	return re_entry(src, dialect);
}

static bool
is_ascii(const char *s, size_t len)
{
	size_t k;

	for (k = 0; k < len; k++)
		if ((unsigned char)s[k] >= 0x80)
			return false;
	return true;
}

static bool
re_match(const struct schema_regex *cre, const char *s, size_t len, bool twin)
{
	/* The cache owns every entry; compiling on first use fills in the
	 * forms of an entry that callers hold as const. */
	struct schema_regex *re = (struct schema_regex *)cre;
	locale_t loc = (locale_t)0, old = (locale_t)0;
	const regex_t *rx;
	int rc;
#ifdef REG_STARTEND
	regmatch_t m[1];

	m[0].rm_so = 0;
	m[0].rm_eo = (regoff_t)len;
#endif
	if (twin && is_ascii(s, len) && re_ascii(re) == 0) {
		rx = &re->ascii;
		loc = re_c_locale;
	} else {
		char *err = NULL;

		if (re_full(re, &err)) {
			/* Only a lazy entry gets here (schema_regex_get()
			 * refuses the pattern); the built-in schema's are all
			 * compiled by its tests. */
			free(err);
			return false;
		}
		rx = &re->full;
		if (re_locale_state == 1)
			loc = re_locale;
	}
	if (loc)
		old = uselocale(loc);
#ifdef REG_STARTEND
	rc = regexec(rx, s, 1, m, REG_STARTEND);
#else
	(void)len;
	rc = regexec(rx, s, 0, NULL, 0);
#endif
	if (loc)
		uselocale(old);
	return rc == 0;
}

bool
schema_regex_match(const struct schema_regex *re, const char *s, size_t len)
{
	return re_match(re, s, len, true);
}

bool
schema_regex_match_full(const struct schema_regex *re, const char *s, size_t len)
{
	return re_match(re, s, len, false);
}

bool
schema_regex_has_twin(const struct schema_regex *re)
{
	return re_ascii((struct schema_regex *)re) == 0;
}

unsigned long
schema_regex_compiles(void)
{
	return re_compiles;
}
