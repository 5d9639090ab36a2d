/*
 * test_regex.c - src/regex/ against what the dialects mean: ECMA-262
 * where it differs from PCRE2's defaults (the cases of the
 * JSON-Schema-Test-Suite's optional/ecmascript-regex.json and
 * non-bmp-regex.json among them), RE2 and what it refuses, the match
 * limit on catastrophic backtracking, and subjects that are not UTF-8.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "regex/regex.h"

static char why[256];

/* The verdict of pattern on subject[0..len); the pattern must compile. */
static int
match_n(enum regex_dialect d, const char *pattern, const char *subject, size_t len)
{
	struct regex *re = regex_compile(pattern, strlen(pattern), d, why, sizeof(why));
	int rc;

	if (!re)
		print_error("pattern '%s' did not compile: %s\n", pattern, why);
	assert_non_null(re);
	rc = regex_match(re, subject, len);
	regex_free(re);
	return rc;
}

static int
ecma(const char *pattern, const char *subject)
{
	return match_n(REGEX_ECMA, pattern, subject, strlen(subject));
}

static int
go(const char *pattern, const char *subject)
{
	return match_n(REGEX_GO, pattern, subject, strlen(subject));
}

/* The reason pattern does not compile (it must not). */
static const char *
refused(enum regex_dialect d, const char *pattern)
{
	struct regex *re = regex_compile(pattern, strlen(pattern), d, why, sizeof(why));

	if (re)
		print_error("pattern '%s' compiled\n", pattern);
	assert_null(re);
	return why;
}

/* A pattern the dialect refuses, and words of the reason. */
struct refusal {
	const char *pattern, *why;
};

static void
assert_refusals(enum regex_dialect d, const struct refusal *cases, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		const char *w = refused(d, cases[k].pattern);

		if (!strstr(w, cases[k].why))
			print_error("'%s': '%s', not '%s'\n", cases[k].pattern, w, cases[k].why);
		assert_non_null(strstr(w, cases[k].why));
	}
}

#define YES REGEX_MATCH
#define NO REGEX_NOMATCH

static void
test_regex__ecma_classes_are_ascii_but_s(void **state)
{
	(void)state;
	/* \d \w \b: ASCII only (no PCRE2_UCP) */
	assert_int_equal(ecma("^\\d$", "0"), YES);
	assert_int_equal(ecma("^\\d$", "\xdf\x80"), NO);                  /* NKO DIGIT ZERO */
	assert_int_equal(ecma("^\\d+$", "\xe0\xa7\xaa\xe0\xa7\xa8"), NO); /* Bengali 42 */
	assert_int_equal(ecma("^\\D$", "\xdf\x80"), YES);
	assert_int_equal(ecma("^\\w$", "a"), YES);
	assert_int_equal(ecma("^\\w$", "\xc3\xa9"), NO);
	assert_int_equal(ecma("^\\W$", "\xc3\xa9"), YES);
	assert_int_equal(ecma("\\wcole", "l'\xc3\xa9"
					 "cole"),
			 NO);
	assert_int_equal(ecma("\\bfoo\\b", "\xc3\xa9"
					   "foo"),
			 YES);
	assert_int_equal(ecma("\\Bfoo", "afoo"), YES);
	assert_int_equal(ecma("[a-z]cole", "l'\xc3\xa9"
					   "cole"),
			 NO);
	/* \s: ECMA's WhiteSpace and LineTerminator, Unicode ones included */
	static const char *spaces[] = {
		" ",
		"\t",
		"\v",
		"\f",
		"\n",
		"\r",
		"\xc2\xa0",
		"\xef\xbb\xbf",
		"\xe2\x80\xa9",
		"\xe2\x80\x83",
		"\xe3\x80\x80",
		"\xe1\x9a\x80",
	};
	for (size_t k = 0; k < sizeof(spaces) / sizeof(spaces[0]); k++) {
		assert_int_equal(ecma("^\\s$", spaces[k]), YES);
		assert_int_equal(ecma("^\\S$", spaces[k]), NO);
		assert_int_equal(ecma("^[\\s]$", spaces[k]), YES);
		assert_int_equal(ecma("^[^\\s]$", spaces[k]), NO);
		assert_int_equal(ecma("^[a\\S]$", spaces[k]), NO);
		assert_int_equal(ecma("^[^a\\S]$", spaces[k]), YES);
	}
	static const char *not_spaces[] = { "\x01", "\xe2\x80\x93", "a", "\xc2\x85",
					    "\xe2\x80\x8b" };
	for (size_t k = 0; k < sizeof(not_spaces) / sizeof(not_spaces[0]); k++) {
		assert_int_equal(ecma("^\\s$", not_spaces[k]), NO);
		assert_int_equal(ecma("^\\S$", not_spaces[k]), YES);
		assert_int_equal(ecma("^[a\\S]$", not_spaces[k]), YES);
		assert_int_equal(ecma("^[^a\\S]$", not_spaces[k]), NO);
	}
	/* a class mixing them: [\s\d] */
	assert_int_equal(ecma("^[\\s\\d]+$", " 1\xc2\xa0"), YES);
}

static void
test_regex__ecma_anchors_dot_and_escapes(void **state)
{
	(void)state;
	/* '$' only at the end (PCRE2_DOLLAR_ENDONLY), not anchored */
	assert_int_equal(ecma("^abc$", "abc"), YES);
	assert_int_equal(ecma("^abc$", "abc\n"), NO);
	assert_int_equal(ecma("b", "abc"), YES);
	/* '.' stops at the four line terminators only */
	assert_int_equal(ecma("^.$", "\n"), NO);
	assert_int_equal(ecma("^.$", "\r"), NO);
	assert_int_equal(ecma("^.$", "\xe2\x80\xa8"), NO);
	assert_int_equal(ecma("^.$", "\xe2\x80\xa9"), NO);
	assert_int_equal(ecma("^.$", "\v"), YES);
	assert_int_equal(ecma("^.$", "\xc2\x85"), YES);
	assert_int_equal(ecma("^.$", "\xf0\x9f\x90\xb2"), YES); /* one code point */
	/* character escapes */
	assert_int_equal(ecma("^\\t$", "\t"), YES);
	assert_int_equal(ecma("^\\t$", "\\t"), NO);
	assert_int_equal(ecma("^\\cC$", "\x03"), YES);
	assert_int_equal(ecma("^\\cc$", "\x03"), YES);
	assert_int_equal(ecma("^\\v$", "\v"), YES);
	assert_int_equal(ecma("^\\v$", "\n"), NO); /* PCRE2's \v would */
	assert_int_equal(ecma("^[\\v]$", "\n"), NO);
	assert_int_equal(ecma("^\\x41$", "A"), YES);
	assert_int_equal(ecma("^\\x4$", "x4"), YES); /* Annex B: not an escape */
	assert_int_equal(ecma("^\\0$", "\0"), NO);   /* strlen: the subject is empty */
	assert_int_equal(match_n(REGEX_ECMA, "^\\0$", "\0", 1), YES);
	/* \u: ECMA's forms, a UTF-16 pair is one code point */
	assert_int_equal(ecma("^\\u00e9$", "\xc3\xa9"), YES);
	assert_int_equal(ecma("^\\u{1F600}$", "\xf0\x9f\x98\x80"), YES);
	assert_int_equal(ecma("^\\u{41}+$", "AA"), YES);
	assert_int_equal(ecma("^\\uD83D\\uDE00$", "\xf0\x9f\x98\x80"), YES);
	assert_int_equal(ecma("^[\\uD83D\\uDE00-\\uD83D\\uDE4F]$", "\xf0\x9f\x98\x8a"), YES);
	assert_int_equal(ecma("^[\\uD83D\\uDE00-\\uD83D\\uDE4F]$", "\xf0\x9f\x90\xb2"), NO);
	/* non-BMP characters are one character each */
	assert_int_equal(ecma("^\xf0\x9f\x90\xb2*$", ""), YES);
	assert_int_equal(ecma("^\xf0\x9f\x90\xb2*$", "\xf0\x9f\x90\xb2\xf0\x9f\x90\xb2"), YES);
	assert_int_equal(ecma("^\xf0\x9f\x90\xb2*$", "\xf0\x9f\x90\x89"), NO);
	/* Annex B: '{' that is no quantifier, ']' and '}' are characters */
	assert_int_equal(ecma("^a{$", "a{"), YES);
	assert_int_equal(ecma("^a{,2}$", "a{,2}"), YES);
	assert_int_equal(ecma("^]}$", "]}"), YES);
	/* lazy quantifiers */
	assert_int_equal(ecma("^a+?b$", "aab"), YES);
	assert_int_equal(ecma("^a{1,2}?$", "aa"), YES);
}

static void
test_regex__ecma_classes_groups_backreferences(void **state)
{
	(void)state;
	/* [] matches nothing, [^] anything */
	assert_int_equal(ecma("a[]", "a"), NO);
	assert_int_equal(ecma("^[^]$", "\n"), YES);
	/* '[' in a class is a character: no POSIX classes */
	assert_int_equal(ecma("^[[:alpha:]]$", "a]"), YES);
	assert_int_equal(ecma("^[[:alpha:]]$", "a"), NO);
	assert_int_equal(ecma("^[[.a.]]$", ".]"), YES);
	assert_int_equal(ecma("^[\\]a-]+$", "]-a"), YES);
	/* groups */
	assert_int_equal(ecma("^(?:a|b)\\w$", "b_"), YES);
	assert_int_equal(ecma("^(?<year>\\d{4})-\\k<year>$", "2024-2024"), YES);
	assert_int_equal(ecma("^(?<year>\\d{4})-\\k<year>$", "2024-2025"), NO);
	assert_int_equal(ecma("^(a)\\1$", "aa"), YES);
	/* a group that did not take part matches the empty string */
	assert_int_equal(ecma("^(?:(a)|b)\\1$", "b"), YES);
	assert_int_equal(ecma("^\\1(a)$", "a"), YES);
}

static void
test_regex__ecma_lookaround(void **state)
{
	(void)state;
	assert_int_equal(ecma("^(?!kube)", "kubelet"), NO);
	assert_int_equal(ecma("^(?!kube)", "node"), YES);
	assert_int_equal(ecma("^a(?=b)", "ab"), YES);
	assert_int_equal(ecma("^a(?=b)", "ac"), NO);
	assert_int_equal(ecma("(?<=\\$)\\d+", "$42"), YES);
	assert_int_equal(ecma("(?<=\\$)\\d+", "42"), NO);
	assert_int_equal(ecma("(?<!\\$)\\b\\d+", "$42"), NO);
	assert_int_equal(ecma("(?<!\\$)\\b\\d+", "x 42"), YES);
	/* PCRE2 10.42 takes fixed-length lookbehind only, and says so */
	assert_non_null(strstr(refused(REGEX_ECMA, "(?<=a+)b"), "lookbehind"));
}

static void
test_regex__ecma_property_escapes(void **state)
{
	(void)state;
	/* ECMA's names: long, short, aliases, Name=Value */
	assert_int_equal(ecma("\\p{Letter}cole", "l'ecole"), YES);
	assert_int_equal(ecma("\\p{Letter}cole", "l'\xc3\xa9"
						 "cole"),
			 YES);
	assert_int_equal(ecma("\\p{Letter}cole", "L'\xc3\x89"
						 "COLE"),
			 NO);
	assert_int_equal(ecma("^\\p{digit}+$", "\xe0\xa7\xaa\xe0\xa7\xa8"), YES);
	assert_int_equal(ecma("^\\p{digit}+$", "-%#"), NO);
	assert_int_equal(ecma("^\\p{Nd}+$", "42"), YES);
	assert_int_equal(ecma("^\\p{General_Category=Decimal_Number}$", "\xdf\x80"), YES);
	assert_int_equal(ecma("^\\p{gc=Lu}$", "\xc3\x89"), YES);
	assert_int_equal(ecma("^\\p{gc=Lu}$", "\xc3\xa9"), NO);
	assert_int_equal(ecma("^\\P{Letter}$", "1"), YES);
	assert_int_equal(ecma("^\\p{Script=Greek}$", "\xce\xb1"), YES);
	assert_int_equal(ecma("^\\p{sc=Greek}$", "a"), NO);
	assert_int_equal(ecma("^\\p{scx=Greek}$", "\xce\xb1"), YES);
	assert_int_equal(ecma("^[\\p{Lu}\\d]+$", "A1\xc3\x89"), YES);
	assert_int_equal(ecma("^\\p{ASCII}+$", "abc"), YES);
	/* ECMA writes them \p{...}; an unknown name fails */
	assert_non_null(strstr(refused(REGEX_ECMA, "\\pL"), "\\p{Name}"));
	assert_non_null(strstr(refused(REGEX_ECMA, "\\p{^L}"), "\\p{Name}"));
	assert_non_null(strstr(refused(REGEX_ECMA, "\\p{gc=Bogus}"), "General_Category"));
	assert_non_null(strstr(refused(REGEX_ECMA, "x\\p{Bogus}"), "at offset 1"));
}

static void
test_regex__ecma_refuses_what_pcre_alone_has(void **state)
{
	static const struct refusal cases[] = {
		{ "^\\S(|(.|\\n)*\\S)\\Z",
		  "no such escape (PCRE2 would read it as its own) (at offset 15)" },
		{ "\\Aabc", "no such escape" },
		{ "abc\\z", "no such escape" },
		{ "\\h", "no such escape" },
		{ "\\e", "no such escape" },
		{ "\\Qa.b\\E", "no such escape" },
		{ "a\\K", "no such escape" },
		{ "\\X", "no such escape" },
		{ "\\R", "no such escape" },
		{ "\\N", "no such escape" },
		{ "\\g1", "no such escape" },
		{ "\\U", "no such escape" },
		{ "[\\h]", "no such escape" },
		{ "\\c1", "control escape" },
		{ "\\kname", "\\k<name>" },
		{ "(?i)abc", "ECMA-262 groups are" },
		{ "a(?#comment)b", "ECMA-262 groups are" },
		{ "(?>a+)b", "ECMA-262 groups are" },
		{ "(?|a|b)", "ECMA-262 groups are" },
		{ "(?P<n>a)", "ECMA-262 groups are" },
		{ "(a)(?1)", "(at offset 3)" },
		{ "(*UTF)a", "verbs" },
		{ "a++", "possessive" },
		{ "a*+", "possessive" },
		{ "a{2}+", "possessive" },
		{ "a?+", "possessive" },
		/* PCRE2's own errors, at the offset in the pattern as written */
		{ "\\s\\s(", "missing closing parenthesis (at offset 5)" },
		{ "..{2,1}", "out of order" },
		{ "*a", "quantifier does not follow a repeatable item (at offset 0)" },
		{ "a)", "unmatched closing parenthesis (at offset 1)" },
		{ "[z-a]", "range out of order" },
		{ "(a)\\2", "non-existent" },
	};

	(void)state;
	assert_refusals(REGEX_ECMA, cases, sizeof(cases) / sizeof(cases[0]));
}

static void
test_regex__go_is_re2(void **state)
{
	(void)state;
	/* \s is [\t\n\f\r ]: no VT, no Unicode spaces */
	assert_int_equal(go("^\\s$", " "), YES);
	assert_int_equal(go("^\\s$", "\v"), NO);
	assert_int_equal(go("^\\s$", "\xc2\xa0"), NO);
	assert_int_equal(go("^\\S$", "\v"), YES);
	assert_int_equal(go("^[\\S]$", "\v"), YES);
	assert_int_equal(go("^[^\\s]$", "\v"), YES);
	assert_int_equal(go("^[a\\S]$", "\t"), NO);
	assert_int_equal(go("^\\v$", "\v"), YES);
	assert_int_equal(go("^\\v$", "\n"), NO);
	/* '.' stops at \n only; (?s) lets it take \n */
	assert_int_equal(go("^.$", "\r"), YES);
	assert_int_equal(go("^.$", "\xe2\x80\xa8"), YES);
	assert_int_equal(go("^.$", "\n"), NO);
	assert_int_equal(go("(?s)^.$", "\n"), YES);
	/* '$' at the end only, without (?m) */
	assert_int_equal(go("^abc$", "abc\n"), NO);
	assert_int_equal(go("(?m)^abc$", "abc\nx"), YES);
	/* flags anywhere, as CRDs write them */
	assert_int_equal(go("^(?i)(abort|warn)?$", "WARN"), YES);
	assert_int_equal(go("(?i)^abc$", "AbC"), YES);
	assert_int_equal(go("^(?i:a)b$", "Ab"), YES);
	assert_int_equal(go("^(?i:a)b$", "AB"), NO);
	assert_int_equal(go("(?i)^\xc5\xbf$", "s"), YES); /* Unicode folding */
	/* RE2's own syntax */
	assert_int_equal(go("^\\x{41}+$", "AA"), YES);
	assert_int_equal(go("^\\x41$", "A"), YES);
	assert_int_equal(go("^\\Q.*+\\E$", ".*+"), YES);
	assert_int_equal(go("^\\Q(?=\\E$", "(?="), YES);
	assert_int_equal(go("^[[:alpha:]]+$", "abc"), YES);
	assert_int_equal(go("^[[:^digit:]]$", "a"), YES);
	assert_int_equal(go("^[]a]+$", "]a"), YES);
	assert_int_equal(go("^\\pL\\p{Greek}$", "a\xce\xb1"), YES);
	assert_int_equal(go("^(?P<x>a)(?<y>b)\\z", "ab"), YES);
	assert_int_equal(go("\\Aab", "ab"), YES);
	assert_int_equal(go("\\d", "\xdf\x80"), NO);
	/* the CRD patterns of the upstream charts */
	assert_int_equal(go("^(([0-9]+(s|m|h))+|Never)$", "1h30m"), YES);
	assert_int_equal(go("^((100|[0-9]{1,2})%|[0-9]+)$", "50%"), YES);
	assert_int_equal(go("^[^/]*$", "a/b"), NO);
}

static void
test_regex__go_refuses_what_re2_has_not(void **state)
{
	static const struct refusal cases[] = {
		{ "^(?!kube)", "RE2 has no lookahead or lookbehind (at offset 1)" },
		{ "a(?=b)", "RE2 has no lookahead or lookbehind (at offset 1)" },
		{ "(?<=a)b", "lookahead or lookbehind" },
		{ "(?<!a)b", "lookahead or lookbehind" },
		{ "(a)\\1", "RE2 has no backreferences (at offset 3)" },
		{ "(?<n>a)\\k<n>", "backreferences" },
		{ "(?P<n>a)(?P=n)", "backreferences" },
		{ "(a)\\g1", "backreferences" },
		{ "(?>a+)b", "atomic groups" },
		{ "(?#c)a", "RE2 groups are" },
		{ "(?x)a", "RE2 groups are" },
		{ "(?R)", "RE2 groups are" },
		{ "(a)(?1)", "RE2 groups are" },
		{ "(?(1)a|b)", "RE2 groups are" },
		{ "(*ACCEPT)a", "verbs" },
		{ "a++", "possessive" },
		{ "a{2}+", "possessive" },
		{ "a\\Z", "RE2 has no such escape (at offset 1)" },
		{ "\\Ga", "no such escape" },
		{ "\\h", "no such escape" },
		{ "a\\K", "no such escape" },
		{ "\\cA", "no such escape" },
		{ "\\u0041", "no such escape" },
		{ "\\e", "no such escape" },
		{ "[\\Q]\\E]", "no such escape in a character class" },
		/* PCRE2's own errors */
		{ "(", "missing closing parenthesis (at offset 1)" },
		{ "[a", "missing terminating ]" },
	};

	(void)state;
	assert_refusals(REGEX_GO, cases, sizeof(cases) / sizeof(cases[0]));
}

static double
now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* ^(a+)+$ against "aaa...a!" backtracks 2^n ways: the match limit ends
 * it, on the interpreter and (once the pattern is hot) on the JIT. */
static void
test_regex__match_limit_ends_catastrophic_backtracking(void **state)
{
	char subject[64];
	struct regex *re = regex_compile("^(a+)+$", 7, REGEX_ECMA, why, sizeof(why));
	double t0, ms;
	int k;

	(void)state;
	assert_non_null(re);
	memset(subject, 'a', 48);
	subject[48] = '!';
	subject[49] = '\0';
	t0 = now_ms();
	assert_int_equal(regex_match(re, subject, 49), REGEX_GAVE_UP);
	ms = now_ms() - t0;
	/* about 40 ms unloaded; 2^48 steps would take days */
	if (ms > 5000)
		print_error("the interpreter took %.0f ms\n", ms);
	assert_true(ms < 5000);
	for (k = 0; k < 300; k++)
		assert_int_equal(regex_match(re, "aaaa", 4), REGEX_MATCH);
	t0 = now_ms();
	assert_int_equal(regex_match(re, subject, 49), REGEX_GAVE_UP);
	ms = now_ms() - t0;
	if (ms > 5000)
		print_error("the JIT (%d) took %.0f ms\n", regex_jitted(re), ms);
	assert_true(ms < 5000);
	assert_int_equal(regex_match(re, "aaaa!", 5), REGEX_NOMATCH);
	regex_free(re);
	/* a long value on a repeated group: 50,000 iterations hit no limit,
	 * on the interpreter or the JIT (whose stack it outgrows) */
	{
		static char big[100001];
		const char *pattern = "^[a-z0-9]+(-[a-z0-9]+)*$";
		struct regex *dns =
			regex_compile(pattern, strlen(pattern), REGEX_ECMA, why, sizeof(why));

		for (k = 0; k < 100000; k++)
			big[k] = k % 2 ? '-' : 'a';
		big[99999] = 'a';
		for (k = 0; k < 300; k++)
			assert_int_equal(regex_match(dns, big, k < 299 ? 3 : 100000), REGEX_MATCH);
		big[99999] = '-';
		assert_int_equal(regex_match(dns, big, 100000), REGEX_NOMATCH);
		regex_free(dns);
	}
}

/* RE2 runs in time linear in the value (PCRE2's DFA matcher, the pattern
 * anchored behind (?s:.)*?): what backtracking gives up on is answered. */
static void
test_regex__go_runs_in_linear_time(void **state)
{
	static char big[100002];
	static const char *const nested[] = { "(a+)+$",         "^(a+)+$",  "(a|aa)+$",
					      "^(a*)*b$",       "(a+)+b",   "^([a-z]+-?)+$",
					      "(?:a{1,}){1,}$", "(x+x+)+y", "\\b(\\w+\\s?)+$" };
	double t0, ms;

	(void)state;
	memset(big, 'a', 100000);
	big[100000] = '!';
	t0 = now_ms();
	for (size_t k = 0; k < sizeof(nested) / sizeof(nested[0]); k++) {
		int want = strchr(nested[k], '!') ? YES : NO;

		if (match_n(REGEX_GO, nested[k], big, 100001) != want)
			print_error("'%s' on 100,000 a's and '!'\n", nested[k]);
		assert_int_equal(match_n(REGEX_GO, nested[k], big, 100001), want);
	}
	ms = now_ms() - t0;
	/* about 0.2 s unloaded; backtracking would take longer than the universe */
	if (ms > 20000)
		print_error("RE2 patterns took %.0f ms\n", ms);
	assert_true(ms < 20000);
	/* the same patterns still match what they should */
	assert_int_equal(go("(a+)+$", "xaaa"), YES);
	assert_int_equal(go("^(a+)+$", "aaa"), YES);
	assert_int_equal(go("(a+)+b", "xxaab"), YES);
	assert_int_equal(go("^([a-z]+-?)+$", "gpu-node-"), YES);
	assert_int_equal(go("^([a-z]+-?)+$", "gpu--node"), NO);
	assert_int_equal(go("^a+?b$", "aaab"), YES);
	assert_int_equal(go("^a{2,}$", "a"), NO);
	assert_int_equal(go("^a{2,}$", "aa"), YES);
	assert_int_equal(go("^a{2,}?$", "aaaa"), YES);
	assert_int_equal(go("^\\d+\\.[0-9]+$", "10.42"), YES);
	assert_int_equal(go("^é+$", "ééé"), YES);
	assert_int_equal(go("^\\Qa+\\E+$", "a++"), YES);
	assert_int_equal(go("^\\Qa+", "a+"), YES);
	assert_int_equal(go("^(?i)ab+$", "ABB"), YES);
	assert_int_equal(go("x|^y", "y"), YES);
	assert_int_equal(go("x|^y", "zy"), NO);
	assert_int_equal(go("(?m)^y", "z\ny"), YES);
}

/* Go's regexp/syntax limits: a count up to 1000, alone and multiplied
 * over nested repeats; no repetition of a repetition. */
static void
test_regex__go_repeat_limits(void **state)
{
	static const struct refusal cases[] = {
		{ "a{1001}", "at most 1000" },      { "a{0,1001}", "at most 1000" },
		{ "a{1001,}", "at most 1000" },     { "(a{2}){501}", "nested" },
		{ "((a{10}){10}){11}", "nested" },  { "(?:a{1000}b){2}", "nested" },
		{ "a**", "nested repetition" },     { "a+*", "nested repetition" },
		{ "a{2}{3}", "nested repetition" }, { "a*??", "nested repetition" },
	};
	static char s[1001];
	char *deep = malloc(4100);
	size_t k;

	(void)state;
	assert_refusals(REGEX_GO, cases, sizeof(cases) / sizeof(cases[0]));
	memset(s, 'a', 1000);
	assert_int_equal(go("^a{1000}$", s), YES);
	assert_int_equal(go("^(a{10}){100}$", s), YES);
	assert_int_equal(go("^((a{10}){10}){10}$", s), YES);
	assert_int_equal(go("^((a{1000}){0}){2}a{1000}$", s), YES);
	assert_int_equal(go("^a{999}$", s), NO);
	assert_int_equal(go("^a{0,1000}?$", s), YES);
	assert_int_equal(go("a{,5}", "a{,5}"), YES); /* a literal '{' in RE2 */
	assert_int_equal(go("a*{", "aa{"), YES);
	/* groups nest 1000 deep, not 1001 */
	for (k = 0; k < 1000; k++)
		deep[k] = '(';
	deep[k] = 'a';
	for (k = 0; k < 1000; k++)
		deep[1001 + k] = ')';
	deep[2001] = '\0';
	assert_int_equal(go(deep, "a"), YES);
	memmove(deep + 1, deep, 2002);
	deep[2002] = ')';
	deep[2003] = '\0';
	assert_non_null(strstr(refused(REGEX_GO, deep), "1000 deep"));
	free(deep);
}

/* A hot pattern goes to the JIT, with the same verdicts. */
static void
test_regex__hot_patterns_keep_their_verdicts_on_the_jit(void **state)
{
	const char *dns = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$";
	struct regex *re = regex_compile(dns, strlen(dns), REGEX_ECMA, why, sizeof(why));
	int k;

	(void)state;
	assert_non_null(re);
	assert_false(regex_jitted(re));
	for (k = 0; k < 1000; k++) {
		assert_int_equal(regex_match(re, "gpu-node-1", 10), REGEX_MATCH);
		assert_int_equal(regex_match(re, "-gpu", 4), REGEX_NOMATCH);
		assert_int_equal(regex_match(re, "\xff", 1), REGEX_NOMATCH);
	}
	/* the JIT is optional: the verdicts are the same either way */
	print_message("# the JIT %s\n", regex_jitted(re) ? "is in use" : "is not available");
	regex_free(re);
}

/* Bytes that are not UTF-8 match no item of a pattern; nothing crashes,
 * on the interpreter or the JIT. */
static void
test_regex__invalid_utf8_subjects(void **state)
{
	static const struct {
		const char *s;
		size_t len;
	} bad[] = {
		{ "\xff", 1 },     { "a\xff", 2 },        { "\xe2\x82", 2 },
		{ "\xc0\xaf", 2 }, { "\xed\xa0\x80", 3 }, { "\xf4\x90\x80\x80", 4 },
		{ "\x80", 1 },     { "abc\xe2", 4 },
	};
	static const char *patterns[] = { "^.*$",        "^[^a]+$",   "^\\W+$",      "^\\S+$",
					  "^[\\s\\S]+$", "^\\P{L}+$", "^(?:.|\\n)+$" };
	int round;

	(void)state;
	for (round = 0; round < 2; round++)
		for (size_t p = 0; p < sizeof(patterns) / sizeof(patterns[0]); p++) {
			struct regex *re = regex_compile(patterns[p], strlen(patterns[p]),
							 REGEX_ECMA, why, sizeof(why));
			int k;

			assert_non_null(re);
			/* the second round runs on the JIT when there is one */
			for (k = 0; round && k < 300; k++)
				(void)regex_match(re, "x", 1);
			for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++)
				assert_int_equal(regex_match(re, bad[b].s, bad[b].len),
						 REGEX_NOMATCH);
			regex_free(re);
		}
	/* the well-formed parts still match */
	assert_int_equal(match_n(REGEX_ECMA, "b",
				 "a\xff"
				 "b",
				 3),
			 YES);
	assert_int_equal(match_n(REGEX_ECMA, "^a", "a\xff", 2), YES);
	/* Go reads a byte that is no character as U+FFFD: '.' takes it */
	assert_int_equal(match_n(REGEX_GO, "^a.b$",
				 "a\xff"
				 "b",
				 3),
			 YES);
	assert_int_equal(match_n(REGEX_GO, "^a\\x{FFFD}{2}b$",
				 "a\xe2\x82"
				 "b",
				 4),
			 YES);
	assert_int_equal(match_n(REGEX_GO, "^[a-z]+$", "ab\xff", 3), NO);
}

static void
test_regex__long_patterns_are_refused(void **state)
{
	size_t n = (64 << 10) + 1;
	char *p = malloc(n + 1);

	(void)state;
	memset(p, 'a', n);
	p[n] = '\0';
	assert_non_null(strstr(refused(REGEX_ECMA, p), "longer than 64 KiB"));
	/* within the size, its rewriting must fit too */
	memset(p, '.', n - 1);
	p[n - 1] = '\0';
	assert_non_null(strstr(refused(REGEX_ECMA, p), "too long"));
	free(p);
}

/* Every block PCRE2 allocated for the module is freed with its regex:
 * after the tests above (which free what they compile), and after a mix
 * of refusals, interpreted and JIT matches and long subjects.  (The leak
 * checkers ignore libpcre2's blocks, for libgit2's sake: mk/lsan.supp.) */
static void
test_regex__every_pcre2_block_is_freed(void **state)
{
	static char big[10000];
	struct regex *re[3];
	int k;

	(void)state;
	assert_int_equal(regex_live_blocks(), 0);
	memset(big, 'a', sizeof(big));
	assert_null(regex_compile("a(", 2, REGEX_ECMA, why, sizeof(why)));
	assert_null(regex_compile("\\Z", 2, REGEX_ECMA, why, sizeof(why)));
	re[0] = regex_compile("^a+$", 4, REGEX_ECMA, why, sizeof(why));
	re[1] = regex_compile("^(a|b)*$", 8, REGEX_GO, why, sizeof(why));
	re[2] = regex_compile("x", 1, REGEX_ECMA, why, sizeof(why));
	for (k = 0; k < 2; k++) {
		int n;

		assert_non_null(re[k]);
		for (n = 0; n < 300; n++)
			assert_int_equal(regex_match(re[k], "aaa", 3), REGEX_MATCH);
		assert_int_equal(regex_match(re[k], big, sizeof(big)), REGEX_MATCH);
	}
	assert_true(regex_live_blocks() > 0);
	for (k = 0; k < 3; k++)
		regex_free(re[k]);
	assert_int_equal(regex_live_blocks(), 0);
}

static void
test_regex__library_version(void **state)
{
	const char *v = regex_library_version();
	unsigned major = 0, minor = 0;
	char end = 0;

	(void)state;
	assert_int_equal(sscanf(v, "%u.%u%c", &major, &minor, &end), 2);
	assert_int_equal(major, 10);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_regex__ecma_classes_are_ascii_but_s),
		cmocka_unit_test(test_regex__ecma_anchors_dot_and_escapes),
		cmocka_unit_test(test_regex__ecma_classes_groups_backreferences),
		cmocka_unit_test(test_regex__ecma_lookaround),
		cmocka_unit_test(test_regex__ecma_property_escapes),
		cmocka_unit_test(test_regex__ecma_refuses_what_pcre_alone_has),
		cmocka_unit_test(test_regex__go_is_re2),
		cmocka_unit_test(test_regex__go_refuses_what_re2_has_not),
		cmocka_unit_test(test_regex__go_runs_in_linear_time),
		cmocka_unit_test(test_regex__go_repeat_limits),
		cmocka_unit_test(test_regex__match_limit_ends_catastrophic_backtracking),
		cmocka_unit_test(test_regex__hot_patterns_keep_their_verdicts_on_the_jit),
		cmocka_unit_test(test_regex__invalid_utf8_subjects),
		cmocka_unit_test(test_regex__long_patterns_are_refused),
		cmocka_unit_test(test_regex__every_pcre2_block_is_freed),
		cmocka_unit_test(test_regex__library_version),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
