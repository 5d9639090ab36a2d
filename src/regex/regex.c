/*
 * regex.c - ECMA-262 and RE2 patterns on PCRE2 (regex.h).
 *
 * PCRE2 compiles the pattern as it is written, with the options that give
 * it the dialect's meaning (UTF, '$' only at the end, no Unicode \d \w \b).
 * One reading of the pattern before that (scan_*) refuses what the
 * dialect has not and PCRE2 would accept with a meaning of its own (\Z,
 * possessive quantifiers, (?i) in ECMA-262; lookaround and
 * backreferences in RE2), and spells the few escapes whose meaning
 * PCRE2 has no option for: ECMA's and RE2's \s and \S, \v (a vertical
 * tab in both, a class in PCRE2), ECMA's '.', its \p{General_Category}
 * names, and \uD83D\uDE00 (a UTF-16 pair for one code point).  For
 * RE2 it also applies Go's limits on repeats and nesting, and writes the
 * few forms PCRE2's DFA matcher runs slowly or wrongly (re2_braces,
 * scan_quantifier, '$'); RE2 patterns are matched by pcre2_dfa_match.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "base/buf.h"
#include "base/utf8.h"
#include "base/xalloc.h"
#include "regex/regex.h"

#define REGEX_MAX_PATTERN ((size_t)64 << 10)
/* The interpreter's backtracking frames: about 80 bytes each, up to four
 * per iteration of a repeated group, so a 100 KB value still matches
 * ^[a-z]+(-[a-z]+)*$ (50,000 iterations). */
#define REGEX_DEPTH_LIMIT 250000u
#define REGEX_HEAP_LIMIT 32768u /* KiB */
/* The frames stay in the match data: a longer subject gets its own, freed
 * after, so no pattern keeps megabytes for the rest of the run. */
#define REGEX_SHORT_SUBJECT 4096u
/* JIT-compiling a pattern costs about as much as 200 interpreted matches
 * of a short value: a pattern goes to the JIT on its 256th match. */
#define REGEX_JIT_AFTER 256u

struct regex {
	pcre2_general_context *gctx; /* PCRE2's memory through counted_malloc */
	pcre2_code *code;
	pcre2_match_context *mctx;
	pcre2_match_data *md; /* made on the first match */
	unsigned long uses;
	bool jit; /* the JIT compiled it */
	bool jit_tried;
	bool dfa; /* RE2: pcre2_dfa_match, anchored behind a leading (?s:.)*? */
	int *ws;  /* its workspace */
	size_t wsn;
};

/* RE2's limits (docs/design/upstream.md, "Kubernetes CRD patterns"): a
 * repeat count is at most 1000, and so is the product of the counts of
 * nested {n,m} repeats; groups nest at most 1000 deep. */
#define RE2_MAX_REPEAT 1000
#define RE2_MAX_NEST 1000
/* The DFA matcher's workspace: ints, grown up to the cap on demand. */
#define REGEX_DFA_WS_FIRST 1024u
#define REGEX_DFA_WS_CAP (1u << 20)

/* ------------------------------------------------------------------ */
/* Reading the pattern once */

struct scan {
	const char *s;
	size_t len, i;
	enum regex_dialect dialect;
	struct buf out; /* what PCRE2 compiles */
	size_t *map;    /* map[k]: the offset in s that out byte k comes from */
	size_t map_alloc;
	const char *why; /* the first refusal, static */
	size_t where;
	/* RE2: the last item (its start in out, or NO_ATOM after a group or
	 * an anchor), whether it was a quantifier, and for the repeat limits
	 * the product of nested {n,m} counts: each open group's largest, and
	 * the last item's, not yet merged into its group's */
	size_t atom;
	bool quantified;
	size_t depth;
	unsigned long inner[RE2_MAX_NEST + 1];
	unsigned long pend;
	bool multiline[RE2_MAX_NEST + 1]; /* (?m) in force in each open group */
};

#define NO_ATOM ((size_t)-1)

static bool
sc_ecma(const struct scan *sc)
{
	return sc->dialect == REGEX_ECMA;
}

static void
sc_refuse(struct scan *sc, size_t at, const char *why)
{
	if (!sc->why) {
		sc->why = why;
		sc->where = at;
	}
}

/* Append n bytes of t, each coming from offset `from` of the pattern. */
static void
sc_emit(struct scan *sc, const char *t, size_t n, size_t from)
{
	size_t k, at = sc->out.len;

	if (sc->why)
		return;
	if (buf_add(&sc->out, t, n)) {
		sc_refuse(sc, from, "the pattern is too long");
		return;
	}
	if (sc->out.len > sc->map_alloc) {
		sc->map_alloc = sc->out.len * 2 + 64;
		sc->map = xrealloc(sc->map, sc->map_alloc * sizeof(*sc->map));
	}
	for (k = 0; k < n; k++)
		sc->map[at + k] = from;
}

static void
sc_emits(struct scan *sc, const char *t, size_t from)
{
	sc_emit(sc, t, strlen(t), from);
}

/* Copy n bytes of the pattern as they are. */
static void
sc_copy(struct scan *sc, size_t n)
{
	size_t k;

	if (sc->i + n > sc->len)
		n = sc->len - sc->i;
	for (k = 0; k < n && !sc->why; k++, sc->i++)
		sc_emit(sc, sc->s + sc->i, 1, sc->i);
}

struct cp_range {
	uint32_t lo, hi;
};

/* ECMA-262 WhiteSpace and LineTerminator (Unicode Zs, U+FEFF, the four
 * line terminators, tab, VT, FF); RE2's \s is [\t\n\f\r ]. */
static const struct cp_range ecma_space[] = {
	{ 0x09, 0x0D },     { 0x20, 0x20 },     { 0xA0, 0xA0 },     { 0x1680, 0x1680 },
	{ 0x2000, 0x200A }, { 0x2028, 0x2029 }, { 0x202F, 0x202F }, { 0x205F, 0x205F },
	{ 0x3000, 0x3000 }, { 0xFEFF, 0xFEFF },
};
static const struct cp_range go_space[] = { { 0x09, 0x0A }, { 0x0C, 0x0D }, { 0x20, 0x20 } };

/* One code point inside a class: \xHH or \u{H} (ECMA, PCRE2_ALT_BSUX),
 * \x{H} (RE2). */
static void
sc_emit_cp(struct scan *sc, uint32_t cp, size_t from)
{
	char t[16];
	int n;

	if (cp <= 0xFF && sc_ecma(sc))
		n = snprintf(t, sizeof(t), "\\x%02X", (unsigned)cp);
	else
		n = snprintf(t, sizeof(t), sc_ecma(sc) ? "\\u{%X}" : "\\x{%X}", (unsigned)cp);
	sc_emit(sc, t, (size_t)n, from);
}

static void
sc_emit_range(struct scan *sc, uint32_t lo, uint32_t hi, size_t from)
{
	sc_emit_cp(sc, lo, from);
	if (hi > lo) {
		sc_emits(sc, "-", from);
		sc_emit_cp(sc, hi, from);
	}
}

/* \s (or \S, negated) as items of a class: the dialect's spaces, or every
 * code point but them. */
static void
sc_space_items(struct scan *sc, bool negated, size_t from)
{
	const struct cp_range *r = sc_ecma(sc) ? ecma_space : go_space;
	size_t n = sc_ecma(sc) ? sizeof(ecma_space) / sizeof(ecma_space[0])
			       : sizeof(go_space) / sizeof(go_space[0]);
	uint32_t next = 0;
	size_t k;

	for (k = 0; k < n; k++) {
		if (!negated)
			sc_emit_range(sc, r[k].lo, r[k].hi, from);
		else if (r[k].lo > next)
			sc_emit_range(sc, next, r[k].lo - 1, from);
		next = r[k].hi + 1;
	}
	if (negated)
		sc_emit_range(sc, next, 0x10FFFF, from);
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

/* The value of \uHHHH at s[at], or -1. */
static long
u4_at(const struct scan *sc, size_t at)
{
	long v = 0;
	size_t k;

	if (at + 6 > sc->len || sc->s[at] != '\\' || sc->s[at + 1] != 'u')
		return -1;
	for (k = 2; k < 6; k++) {
		int h = hexval(sc->s[at + k]);

		if (h < 0)
			return -1;
		v = v * 16 + h;
	}
	return v;
}

/* An escape with braces, \u{1F600} or \x{41}, copied to its '}' (its
 * digits are no {n} quantifier). */
static void
sc_copy_braced(struct scan *sc)
{
	const char *close = memchr(sc->s + sc->i, '}', sc->len - sc->i);

	sc_copy(sc, close ? (size_t)(close - (sc->s + sc->i)) + 1 : 2);
}

/* ECMA \u: a UTF-16 pair \uD83D\uDE00 is one code point; everything else
 * (\uHHHH, \u{H...}, a lone 'u') PCRE2_ALT_BSUX reads as ECMA does. */
static void
scan_ecma_u(struct scan *sc)
{
	long hi = u4_at(sc, sc->i), lo = u4_at(sc, sc->i + 6);

	if (hi >= 0xD800 && hi <= 0xDBFF && lo >= 0xDC00 && lo <= 0xDFFF) {
		sc_emit_cp(sc, (uint32_t)(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)), sc->i);
		sc->i += 12;
		return;
	}
	if (sc->i + 2 < sc->len && sc->s[sc->i + 2] == '{')
		sc_copy_braced(sc);
	else
		sc_copy(sc, 2);
}

/* ECMA's General_Category values (long names and aliases) and the short
 * names PCRE2 knows them by. */
static const struct {
	const char *name, *pcre;
} gc_names[] = {
	{ "Other", "C" },
	{ "Control", "Cc" },
	{ "cntrl", "Cc" },
	{ "Format", "Cf" },
	{ "Unassigned", "Cn" },
	{ "Private_Use", "Co" },
	{ "Surrogate", "Cs" },
	{ "Letter", "L" },
	{ "Cased_Letter", "LC" },
	{ "Lowercase_Letter", "Ll" },
	{ "Modifier_Letter", "Lm" },
	{ "Other_Letter", "Lo" },
	{ "Titlecase_Letter", "Lt" },
	{ "Uppercase_Letter", "Lu" },
	{ "Mark", "M" },
	{ "Combining_Mark", "M" },
	{ "Spacing_Mark", "Mc" },
	{ "Enclosing_Mark", "Me" },
	{ "Nonspacing_Mark", "Mn" },
	{ "Number", "N" },
	{ "Decimal_Number", "Nd" },
	{ "digit", "Nd" },
	{ "Letter_Number", "Nl" },
	{ "Other_Number", "No" },
	{ "Punctuation", "P" },
	{ "punct", "P" },
	{ "Connector_Punctuation", "Pc" },
	{ "Dash_Punctuation", "Pd" },
	{ "Close_Punctuation", "Pe" },
	{ "Final_Punctuation", "Pf" },
	{ "Initial_Punctuation", "Pi" },
	{ "Other_Punctuation", "Po" },
	{ "Open_Punctuation", "Ps" },
	{ "Symbol", "S" },
	{ "Currency_Symbol", "Sc" },
	{ "Modifier_Symbol", "Sk" },
	{ "Math_Symbol", "Sm" },
	{ "Other_Symbol", "So" },
	{ "Separator", "Z" },
	{ "Line_Separator", "Zl" },
	{ "Paragraph_Separator", "Zp" },
	{ "Space_Separator", "Zs" },
};

/* The PCRE2 name of General_Category value v[0..n), or NULL. */
static const char *
gc_pcre(const char *v, size_t n)
{
	size_t k;

	for (k = 0; k < sizeof(gc_names) / sizeof(gc_names[0]); k++) {
		if (strlen(gc_names[k].name) == n && !memcmp(gc_names[k].name, v, n))
			return gc_names[k].pcre;
		if (strlen(gc_names[k].pcre) == n && !memcmp(gc_names[k].pcre, v, n))
			return gc_names[k].pcre;
	}
	return NULL;
}

static bool
name_is(const char *s, size_t n, const char *want)
{
	return strlen(want) == n && !memcmp(s, want, n);
}

/* ECMA \p{...} or \P{...} at sc->i: \p{Name=Value} for General_Category
 * (gc), Script (sc) and Script_Extensions (scx), \p{Value} for a General
 * Category value or a binary property.  PCRE2 knows the short category
 * names, the scripts and the binary properties by ECMA's names. */
static void
scan_ecma_property(struct scan *sc)
{
	const char *s = sc->s, *name, *eq, *close;
	const char *gc;
	size_t at = sc->i, n;
	char t[40];

	if (at + 2 >= sc->len || s[at + 2] != '{') {
		sc_refuse(sc, at, "ECMA-262 writes a property escape as \\p{Name}");
		return;
	}
	name = s + at + 3;
	close = memchr(name, '}', sc->len - (at + 3));
	if (!close || close == name || *name == '^') {
		sc_refuse(sc, at, "ECMA-262 writes a property escape as \\p{Name}");
		return;
	}
	n = (size_t)(close - name);
	eq = memchr(name, '=', n);
	if (eq && !(name_is(name, (size_t)(eq - name), "General_Category") ||
		    name_is(name, (size_t)(eq - name), "gc"))) {
		sc_copy(sc, n + 4); /* Script=, sc=, scx=: PCRE2's own */
		return;
	}
	gc = eq ? gc_pcre(eq + 1, (size_t)(close - eq - 1)) : gc_pcre(name, n);
	if (!gc && eq) {
		sc_refuse(sc, at, "ECMA-262 has no such General_Category value");
		return;
	}
	if (!gc) {
		sc_copy(sc, n + 4); /* a binary property: PCRE2 knows it or says so */
		return;
	}
	snprintf(t, sizeof(t), "\\%c{%s}", s[at + 1], gc);
	sc_emits(sc, t, at);
	sc->i += n + 4;
}

/* The letters after '\\' that PCRE2 reads with a meaning the dialect has
 * not (for RE2 also those Go refuses), and why. */
static const char *
escape_refused(const struct scan *sc, char e, bool in_class)
{
	if (!e)
		return sc_ecma(sc) ? "ECMA-262 has no escape of a NUL byte; write \\0"
				   : "RE2 has no escape of a NUL byte; write \\x00";
	if (sc_ecma(sc)) {
		if (strchr("aAeEgGhHKNoQRUVXzZC", e))
			return "ECMA-262 has no such escape (PCRE2 would read it as its own)";
		return NULL;
	}
	if (e >= '1' && e <= '9')
		return "RE2 has no backreferences";
	if (e == 'k' || e == 'g')
		return "RE2 has no backreferences";
	if (in_class && (e == 'Q' || e == 'A' || e == 'z' || e == 'B'))
		return "RE2 has no such escape in a character class";
	if (strchr("eEGhHKNoRUVXZcuC", e))
		return "RE2 has no such escape";
	return NULL;
}

/* RE2 \Q...\E: copied to its \E (or the end), nothing inside it read. */
static void
scan_go_quote(struct scan *sc)
{
	size_t k;

	for (k = sc->i + 2; k + 1 < sc->len; k++)
		if (sc->s[k] == '\\' && sc->s[k + 1] == 'E')
			break;
	if (k + 1 < sc->len) {
		sc_copy(sc, k + 2 - sc->i);
		return;
	}
	sc_copy(sc, sc->len - sc->i);
	sc_emits(sc, "\\E", sc->len); /* to the end: closed, so the pattern can be wrapped */
}

/* The escape at sc->i (s[i] is '\\'), inside a class or not. */
static void
scan_escape(struct scan *sc, bool in_class)
{
	size_t at = sc->i;
	char e, next;
	const char *why;

	if (at + 1 >= sc->len) {
		sc_copy(sc, 1); /* PCRE2: "\ at end of pattern" */
		return;
	}
	e = sc->s[at + 1];
	next = at + 2 < sc->len ? sc->s[at + 2] : 0;
	why = escape_refused(sc, e, in_class);
	if (why) {
		sc_refuse(sc, at, why);
		return;
	}
	switch (e) {
	case 's':
	case 'S':
		if (!in_class)
			sc_emits(sc, e == 's' ? "[" : "[^", at);
		sc_space_items(sc, in_class && e == 'S', at);
		if (!in_class)
			sc_emits(sc, "]", at);
		sc->i += 2;
		return;
	case 'v':
		sc_emits(sc, "\\x0B", at);
		sc->i += 2;
		return;
	case 'Q':
		if (!in_class) {
			scan_go_quote(sc);
			return;
		}
		break;
	case 'u': scan_ecma_u(sc); return;
	case 'x':
		if (!sc_ecma(sc) && next == '{') {
			sc_copy_braced(sc);
			return;
		}
		break;
	case 'p':
	case 'P':
		if (sc_ecma(sc)) {
			scan_ecma_property(sc);
			return;
		}
		break;
	case 'c':
		if (!((next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z'))) {
			sc_refuse(sc, at, "ECMA-262 writes a control escape as \\c and a letter");
			return;
		}
		sc_copy(sc, 3);
		return;
	case 'k':
		if (next != '<') {
			sc_refuse(sc, at, "ECMA-262 writes a named backreference as \\k<name>");
			return;
		}
		break;
	default: break;
	}
	sc_copy(sc, 2);
}

/* A POSIX class [:name:] inside an RE2 class: copied whole. */
static bool
scan_go_posix(struct scan *sc)
{
	size_t k;

	if (sc_ecma(sc) || sc->i + 1 >= sc->len || sc->s[sc->i + 1] != ':')
		return false;
	for (k = sc->i + 2; k + 1 < sc->len; k++)
		if (sc->s[k] == ':' && sc->s[k + 1] == ']') {
			sc_copy(sc, k + 2 - sc->i);
			return true;
		}
	return false;
}

/*
 * A class [...] at sc->i.  In ECMA-262 the first ']' ends it ("[]" matches
 * nothing, "[^]" anything: PCRE2_ALLOW_EMPTY_CLASS) and '[' is always a
 * character, never the start of a POSIX class; in RE2 a ']' right after
 * "[" or "[^" is a character and [:alpha:] is a class.
 */
static void
scan_class(struct scan *sc)
{
	sc_copy(sc, 1);
	if (sc->i < sc->len && sc->s[sc->i] == '^')
		sc_copy(sc, 1);
	if (!sc_ecma(sc) && sc->i < sc->len && sc->s[sc->i] == ']')
		sc_copy(sc, 1);
	while (sc->i < sc->len && !sc->why) {
		char c = sc->s[sc->i];

		if (c == ']') {
			sc_copy(sc, 1);
			return;
		}
		if (c == '\\') {
			scan_escape(sc, true);
		} else if (c == '[' && !scan_go_posix(sc)) {
			sc_emits(sc, "\\[", sc->i);
			sc->i++;
		} else if (c != '[') {
			sc_copy(sc, 1);
		}
	}
	/* unterminated: PCRE2 says so */
}

/* RE2 inline flags (?imsU-...) or (?flags:...) at sc->i + 2. */
static bool
go_flags(const struct scan *sc, size_t *n)
{
	size_t k = sc->i + 2;

	while (k < sc->len && strchr("imsU-", sc->s[k]) && sc->s[k])
		k++;
	if (k == sc->i + 2 || k >= sc->len || (sc->s[k] != ')' && sc->s[k] != ':'))
		return false;
	*n = k + 1 - sc->i;
	return true;
}

/* How many bytes of the group opening "(?..." at sc->i the dialect
 * takes, or 0 with the refusal recorded. */
static size_t
group_opening(struct scan *sc)
{
	const char *s = sc->s + sc->i;
	size_t left = sc->len - sc->i, n;
	char t = left > 2 ? s[2] : 0, u = left > 3 ? s[3] : 0;
	bool behind = t == '<' && (u == '=' || u == '!');

	if (sc_ecma(sc)) {
		if (t == ':' || t == '=' || t == '!')
			return 3;
		if (t == '<')
			return behind ? 4 : 3; /* (?<name> */
		sc_refuse(sc, sc->i,
			  "ECMA-262 groups are (?: (?= (?! (?<= (?<! and (?<name>; "
			  "inline flags, comments, atomic groups and conditionals are PCRE's");
		return 0;
	}
	if (t == '=' || t == '!' || behind) {
		sc_refuse(sc, sc->i, "RE2 has no lookahead or lookbehind");
		return 0;
	}
	if (t == ':' || t == '<')
		return 3;
	if (t == 'P' && u == '<')
		return 4;
	if (go_flags(sc, &n))
		return n;
	if (t == 'P' && (u == '=' || u == '>'))
		sc_refuse(sc, sc->i, "RE2 has no backreferences or recursion");
	else
		sc_refuse(sc, sc->i,
			  "RE2 groups are (?: (?P<name> (?<name> and flags (?imsU); "
			  "atomic groups, comments, conditionals and recursion are PCRE's");
	return 0;
}

/* RE2's nesting and repeat limits (RE2_MAX_*): the last item's product
 * of nested counts merged into its group's largest. */
static void
re2_merge(struct scan *sc)
{
	if (sc->pend > sc->inner[sc->depth])
		sc->inner[sc->depth] = sc->pend;
	sc->pend = 1;
}

static void
re2_open(struct scan *sc)
{
	if (sc_ecma(sc))
		return;
	if (sc->depth >= RE2_MAX_NEST) {
		sc_refuse(sc, sc->i - 1, "RE2 nests groups at most 1000 deep");
		return;
	}
	sc->inner[++sc->depth] = 1;
	sc->multiline[sc->depth] = sc->multiline[sc->depth - 1];
	sc->atom = NO_ATOM;
}

/* RE2 flags "imsU-..." of n bytes at `at`: whether they leave (?m) on. */
static bool
re2_multiline(const struct scan *sc, size_t at, size_t n)
{
	bool on = sc->multiline[sc->depth], neg = false;

	for (size_t k = at; k < at + n; k++) {
		if (sc->s[k] == '-')
			neg = true;
		else if (sc->s[k] == 'm')
			on = !neg;
	}
	return on;
}

static void
re2_close(struct scan *sc)
{
	re2_merge(sc);
	if (sc->depth)
		sc->pend = sc->inner[sc->depth--];
	sc->atom = NO_ATOM;
}

static void
scan_group(struct scan *sc)
{
	size_t n;
	bool m;

	if (sc->i + 1 < sc->len && sc->s[sc->i + 1] == '*') {
		sc_refuse(sc, sc->i,
			  sc_ecma(sc) ? "ECMA-262 has no (*VERB) control verbs"
				      : "RE2 has no (*VERB) control verbs");
		return;
	}
	if (sc->i + 1 >= sc->len || sc->s[sc->i + 1] != '?') {
		sc_copy(sc, 1);
		re2_open(sc);
		return;
	}
	n = group_opening(sc);
	if (!n)
		return;
	sc_copy(sc, n);
	if (sc_ecma(sc))
		return;
	m = re2_multiline(sc, sc->i - n + 2, n - 3);
	if (sc->s[sc->i - 1] != ')')
		re2_open(sc);
	if (sc->s[sc->i - n + 2] != ':' && sc->s[sc->i - n + 2] != '<' &&
	    sc->s[sc->i - n + 2] != 'P')
		sc->multiline[sc->depth] = m; /* flags: (?m) or (?m:...) */
}

/* {n}, {n,} or {n,m} at sc->i: its length, or 0 when the '{' is a
 * character (ECMA-262 Annex B, PCRE2 and RE2 alike). */
static size_t
brace_quantifier(const struct scan *sc)
{
	size_t j = sc->i + 1, digits = 0;

	while (j < sc->len && sc->s[j] >= '0' && sc->s[j] <= '9')
		j++, digits++;
	if (!digits)
		return 0;
	if (j < sc->len && sc->s[j] == ',')
		for (j++; j < sc->len && sc->s[j] >= '0' && sc->s[j] <= '9';)
			j++;
	return j < sc->len && sc->s[j] == '}' ? j + 1 - sc->i : 0;
}

/* The last item again (RE2: X+ is written XX*, X{n,} X{n}X*: PCRE2's DFA
 * matcher keeps a state per count of a repeated single item, which costs
 * cubic time inside a repeated group, and none for X*). */
static void
re2_atom_again(struct scan *sc, size_t end, size_t from)
{
	for (size_t k = sc->atom; k < end && !sc->why; k++) {
		char ch = sc->out.data[k];

		sc_emit(sc, &ch, 1, from);
	}
}

/* RE2's {n}, {n,} or {n,m} of q bytes at sc->i: the counts within
 * RE2_MAX_REPEAT, alone and multiplied over nested repeats. */
static void
re2_braces(struct scan *sc, size_t q)
{
	unsigned long n = 0, m = 0, count;
	size_t k = sc->i + 1, end;
	bool unbounded = false, big = false;

	for (; sc->s[k] >= '0' && sc->s[k] <= '9'; k++)
		n = n > 100000 ? n : n * 10 + (unsigned long)(sc->s[k] - '0');
	m = n;
	if (sc->s[k] == ',') {
		unbounded = sc->s[k + 1] == '}';
		for (m = 0, k++; sc->s[k] >= '0' && sc->s[k] <= '9'; k++)
			m = m > 100000 ? m : m * 10 + (unsigned long)(sc->s[k] - '0');
	}
	big = n > RE2_MAX_REPEAT || (!unbounded && m > RE2_MAX_REPEAT);
	count = unbounded ? n : m;
	if (big) {
		sc_refuse(sc, sc->i, "RE2 allows a repeat count of at most 1000");
		return;
	}
	if (count && count * sc->pend > RE2_MAX_REPEAT) {
		sc_refuse(sc, sc->i,
			  "RE2 allows at most 1000 repetitions in all: the counts of nested "
			  "repeats multiply");
		return;
	}
	sc->pend = count ? count * sc->pend : 1;
	if (!unbounded || sc->atom == NO_ATOM) {
		sc_copy(sc, q);
		return;
	}
	end = sc->out.len;
	sc_copy(sc, q - 2); /* "{n" */
	sc_emits(sc, "}", sc->i);
	re2_atom_again(sc, end, sc->i);
	sc_emits(sc, "*", sc->i);
	sc->i += 2; /* ",}" */
}

/* A quantifier of n bytes at sc->i, its lazy '?', and no possessive '+'
 * (PCRE's; ECMA-262 and RE2 read "a++" as an error). */
static void
scan_quantifier(struct scan *sc, size_t n)
{
	if (!sc_ecma(sc) && sc->quantified) {
		sc_refuse(sc, sc->i,
			  "RE2 has no nested repetition operators (a** or a{2}{3}): use a group");
		return;
	}
	if (sc_ecma(sc)) {
		sc_copy(sc, n);
	} else if (sc->s[sc->i] == '{') {
		re2_braces(sc, n);
	} else if (sc->s[sc->i] == '+' && sc->atom != NO_ATOM) {
		re2_atom_again(sc, sc->out.len, sc->i);
		sc_emits(sc, "*", sc->i);
		sc->i++;
	} else {
		sc_copy(sc, n);
	}
	sc->quantified = true;
	if (sc->i < sc->len && sc->s[sc->i] == '?')
		sc_copy(sc, 1);
	if (sc->i < sc->len && sc->s[sc->i] == '+')
		sc_refuse(sc, sc->i,
			  sc_ecma(sc) ? "ECMA-262 has no possessive quantifiers (nothing to repeat)"
				      : "RE2 has no possessive quantifiers");
}

/* RE2: the item starting at sc->i, after the one before is merged. */
static void
re2_item(struct scan *sc, char c)
{
	bool quantifier = c == '*' || c == '+' || c == '?' || (c == '{' && brace_quantifier(sc));

	if (sc_ecma(sc))
		return;
	if (!quantifier)
		sc->quantified = false;
	if (quantifier || c == ')')
		return;
	re2_merge(sc);
	sc->atom = c == '|' || c == '^' || c == '$' || c == '(' ||
				   (c == '\\' && sc->i + 1 < sc->len && sc->s[sc->i + 1] == 'Q')
			   ? NO_ATOM
			   : sc->out.len;
}

static void
scan_pattern(struct scan *sc)
{
	while (sc->i < sc->len && !sc->why) {
		char c = sc->s[sc->i];
		size_t q;

		re2_item(sc, c);
		switch (c) {
		case '\\': scan_escape(sc, false); break;
		case '[': scan_class(sc); break;
		case '(': scan_group(sc); break;
		case '.':
			if (sc_ecma(sc)) {
				/* ECMA's '.' stops at \n \r U+2028 U+2029 */
				sc_emits(sc, "[^\\n\\r\\u{2028}\\u{2029}]", sc->i);
				sc->i++;
			} else {
				sc_copy(sc, 1); /* PCRE2_NEWLINE_LF: RE2's '.' */
			}
			break;
		case '*':
		case '+':
		case '?': scan_quantifier(sc, 1); break;
		case ')':
			sc_copy(sc, 1);
			if (!sc_ecma(sc))
				re2_close(sc);
			break;
		case '$':
			/* RE2's '$' is the very end unless (?m); PCRE2's DFA
			 * matcher mishandles (?m)$ with PCRE2_DOLLAR_ENDONLY */
			if (!sc_ecma(sc) && !sc->multiline[sc->depth]) {
				sc_emits(sc, "\\z", sc->i);
				sc->i++;
			} else {
				sc_copy(sc, 1);
			}
			break;
		case '{':
			q = brace_quantifier(sc);
			if (q)
				scan_quantifier(sc, q);
			else
				sc_copy(sc, 1);
			break;
		default:
			/* a whole character: a quantifier repeats all of it */
			q = sc_ecma(sc) ? 1 : utf8_seq_len(sc->s + sc->i, sc->len - sc->i);
			sc_copy(sc, q ? q : 1);
			break;
		}
	}
}

/* ------------------------------------------------------------------ */
/* Compiling and matching */

/*
 * Every block PCRE2 allocates for this module comes from counted_malloc:
 * LeakSanitizer and valgrind must ignore leaks inside libpcre2 (libgit2
 * leaks its match data, mk/lsan.supp), so the module counts its own, and
 * tests/unit/test_regex.c checks that freeing every regex frees them all.
 */
static _Atomic long live_blocks;

static void *
counted_malloc(size_t n, void *data)
{
	void *p = malloc(n);

	(void)data;
	if (p)
		live_blocks++;
	return p;
}

static void
counted_free(void *p, void *data)
{
	(void)data;
	if (p)
		live_blocks--;
	free(p);
}

long
regex_live_blocks(void)
{
	return live_blocks;
}

/* RE2 runs on PCRE2's DFA matcher, which takes no PCRE2_MATCH_INVALID_UTF:
 * a subject that is not UTF-8 is read as Go reads it (regex_match). */
static uint32_t
compile_options(enum regex_dialect dialect)
{
	uint32_t o = PCRE2_UTF | PCRE2_NEVER_BACKSLASH_C | PCRE2_NEVER_UCP;

	if (dialect == REGEX_ECMA)
		o |= PCRE2_DOLLAR_ENDONLY | PCRE2_MATCH_INVALID_UTF | PCRE2_ALT_BSUX |
		     PCRE2_ALLOW_EMPTY_CLASS | PCRE2_MATCH_UNSET_BACKREF;
	return o;
}

static pcre2_code *
compile_scanned(const struct scan *sc, pcre2_general_context *gctx, char *err, size_t errlen)
{
	pcre2_compile_context *cc = pcre2_compile_context_create(gctx);
	pcre2_code *code = NULL;
	PCRE2_SIZE eo = 0;
	int en = 0;

	if (!cc) {
		snprintf(err, errlen, "out of memory (at offset 0)");
		return NULL;
	}
	pcre2_set_newline(cc, PCRE2_NEWLINE_LF);
	pcre2_set_max_pattern_length(cc, REGEX_MAX_PATTERN * 4 + 16);
	if (sc->dialect == REGEX_GO)
		pcre2_set_parens_nest_limit(cc, RE2_MAX_NEST + 8);
	if (sc->dialect == REGEX_ECMA)
		pcre2_set_compile_extra_options(cc, PCRE2_EXTRA_ALT_BSUX);
	code = pcre2_compile((PCRE2_SPTR)sc->out.data, sc->out.len, compile_options(sc->dialect),
			     &en, &eo, cc);
	pcre2_compile_context_free(cc);
	if (!code) {
		PCRE2_UCHAR msg[160];

		if (pcre2_get_error_message(en, msg, sizeof(msg)) < 0)
			snprintf((char *)msg, sizeof(msg), "error %d", en);
		snprintf(err, errlen, "%s (at offset %zu)", (const char *)msg,
			 eo < sc->out.len ? sc->map[eo] : sc->len);
	}
	return code;
}

/*
 * RE2 finds a match anywhere in linear time; PCRE2's DFA matcher starts
 * again at each offset of an unanchored pattern (quadratic).  So the
 * pattern, once known to compile as written, is compiled again as
 * (?s:.)*?(?:PATTERN) and matched anchored: one pass over the subject.
 */
static pcre2_code *
compile_anywhere(const struct scan *sc, pcre2_general_context *gctx, char *err, size_t errlen)
{
	static const char head[] = "(?s:.)*?(?:", tail[] = ")";
	struct scan w = *sc;
	size_t n = sizeof(head) - 1;
	pcre2_code *code;

	w.out.len = 0;
	w.out.data = NULL;
	w.map = NULL;
	w.map_alloc = 0;
	buf_init(&w.out, REGEX_MAX_PATTERN * 4 + 16);
	sc_emit(&w, head, n, 0);
	for (size_t k = 0; k < sc->out.len && !w.why; k++)
		sc_emit(&w, sc->out.data + k, 1, sc->map[k]);
	sc_emit(&w, tail, sizeof(tail) - 1, sc->len);
	code = w.why ? NULL : compile_scanned(&w, gctx, err, errlen);
	if (w.why)
		snprintf(err, errlen, "%s (at offset %zu)", w.why, w.where);
	buf_release(&w.out);
	free(w.map);
	return code;
}

struct regex *
regex_compile(const char *src, size_t len, enum regex_dialect dialect, char *err, size_t errlen)
{
	struct scan sc;
	struct regex *re;

	memset(&sc, 0, sizeof(sc));
	sc.s = src;
	sc.len = len;
	sc.dialect = dialect;
	sc.atom = NO_ATOM;
	sc.pend = 1;
	sc.inner[0] = 1;
	buf_init(&sc.out, REGEX_MAX_PATTERN * 4);
	if (len > REGEX_MAX_PATTERN)
		sc_refuse(&sc, REGEX_MAX_PATTERN, "the pattern is longer than 64 KiB");
	scan_pattern(&sc);
	re = xcalloc(1, sizeof(*re));
	re->gctx = pcre2_general_context_create(counted_malloc, counted_free, NULL);
	if (sc.why)
		snprintf(err, errlen, "%s (at offset %zu)", sc.why, sc.where);
	else if (!re->gctx)
		snprintf(err, errlen, "out of memory (at offset 0)");
	else
		re->code = compile_scanned(&sc, re->gctx, err, errlen);
	if (re->code && dialect == REGEX_GO) {
		pcre2_code_free(re->code);
		re->code = compile_anywhere(&sc, re->gctx, err, errlen);
		re->dfa = true;
	}
	buf_release(&sc.out);
	free(sc.map);
	if (re->code)
		re->mctx = pcre2_match_context_create(re->gctx);
	if (!re->mctx) {
		if (re->code)
			snprintf(err, errlen, "out of memory (at offset 0)");
		regex_free(re);
		return NULL;
	}
	pcre2_set_match_limit(re->mctx, REGEX_MATCH_LIMIT);
	pcre2_set_depth_limit(re->mctx, REGEX_DEPTH_LIMIT);
	pcre2_set_heap_limit(re->mctx, REGEX_HEAP_LIMIT);
	return re;
}

void
regex_free(struct regex *re)
{
	if (!re)
		return;
	free(re->ws);
	pcre2_match_data_free(re->md);
	pcre2_match_context_free(re->mctx);
	pcre2_code_free(re->code);
	pcre2_general_context_free(re->gctx);
	free(re);
}

/*
 * Go reads each byte that is not part of a well-formed character as
 * U+FFFD (regexp: "each byte of an invalid UTF-8 sequence is treated as
 * if it encoded utf8.RuneError"); PCRE2's DFA matcher refuses such a
 * subject.  NULL when s is well-formed; else the copy, which the caller
 * frees.
 */
static char *
go_subject(const char *s, size_t len, size_t *out_len)
{
	size_t k = 0, n;
	char *out, *o;

	while (k < len && (n = utf8_seq_len(s + k, len - k)) != 0)
		k += n;
	if (k == len)
		return NULL;
	out = xmalloc(len * 3 + 1);
	memcpy(out, s, k);
	o = out + k;
	while (k < len) {
		n = utf8_seq_len(s + k, len - k);
		if (n) {
			memcpy(o, s + k, n);
			o += n;
			k += n;
		} else {
			memcpy(o, "\xEF\xBF\xBD", 3);
			o += 3;
			k++;
		}
	}
	*out_len = (size_t)(o - out);
	return out;
}

/* RE2 on the DFA matcher: no backtracking, its time linear in the
 * subject for the patterns RE2 accepts (the repeats the scan rewrote);
 * the workspace grows to REGEX_DFA_WS_CAP, past that it gives up. */
static int
dfa_match(struct regex *re, pcre2_match_data *md, const char *s, size_t len)
{
	size_t n = len;
	char *copy = go_subject(s, len, &n);
	int rc;

	for (;;) {
		if (!re->ws) {
			re->wsn = REGEX_DFA_WS_FIRST;
			re->ws = xmalloc(re->wsn * sizeof(*re->ws));
		}
		rc = pcre2_dfa_match(re->code, (PCRE2_SPTR)(copy ? copy : s), n, 0, PCRE2_ANCHORED,
				     md, re->mctx, re->ws, re->wsn);
		if (rc != PCRE2_ERROR_DFA_WSSIZE || re->wsn >= REGEX_DFA_WS_CAP)
			break;
		re->wsn *= 4;
		re->ws = xrealloc(re->ws, re->wsn * sizeof(*re->ws));
	}
	free(copy);
	if (rc >= 0)
		return REGEX_MATCH; /* 0: matched, the ovector too small */
	return rc == PCRE2_ERROR_NOMATCH ? REGEX_NOMATCH : REGEX_GAVE_UP;
}

int
regex_match(struct regex *re, const char *s, size_t len)
{
	pcre2_match_data *md;
	int rc;

	if (!re->md)
		re->md = pcre2_match_data_create(1, re->gctx); /* only "does it match" */
	md = len > REGEX_SHORT_SUBJECT ? pcre2_match_data_create(1, re->gctx) : re->md;
	if (!md)
		return REGEX_GAVE_UP;
	if (re->dfa) {
		rc = dfa_match(re, md, s, len);
		if (md != re->md)
			pcre2_match_data_free(md);
		return rc;
	}
	if (++re->uses >= REGEX_JIT_AFTER && !re->jit_tried) {
		re->jit_tried = true;
		re->jit = pcre2_jit_compile(re->code, PCRE2_JIT_COMPLETE) == 0;
	}
	rc = pcre2_match(re->code, (PCRE2_SPTR)s, len, 0, 0, md, re->mctx);
	if (rc == PCRE2_ERROR_JIT_STACKLIMIT) /* the interpreter keeps its frames on the heap */
		rc = pcre2_match(re->code, (PCRE2_SPTR)s, len, 0, PCRE2_NO_JIT, md, re->mctx);
	if (md != re->md)
		pcre2_match_data_free(md);
	if (rc >= 0)
		return REGEX_MATCH; /* 0: matched, the ovector too small for the groups */
	return rc == PCRE2_ERROR_NOMATCH ? REGEX_NOMATCH : REGEX_GAVE_UP;
}

bool
regex_jitted(const struct regex *re)
{
	return re->jit;
}

const char *
regex_library_version(void)
{
	static char v[48];

	if (!v[0]) {
		char full[48];

		if (pcre2_config(PCRE2_CONFIG_VERSION, full) < 0)
			snprintf(full, sizeof(full), "unknown");
		/* "10.42 2022-12-11": the number only */
		snprintf(v, sizeof(v), "%.*s", (int)strcspn(full, " "), full);
	}
	return v;
}
