/*
 * regex.h - the only door to PCRE2: regular expressions in the two
 * dialects the schemas are written in.
 *
 * REGEX_ECMA is ECMA-262 as JSON Schema means it (draft-07 `pattern`,
 * `patternProperties`, `format: regex`): not anchored, code points,
 * Unicode property escapes \p{...}, ASCII \d \w \b, ECMA's \s (Unicode
 * spaces and line terminators, U+FEFF), '.' stopping at the four line
 * terminators, '$' only at the end, lookahead and fixed-length
 * lookbehind, backreferences (an unset group matches the empty string).
 * REGEX_GO is the RE2 syntax of Kubernetes OpenAPI patterns (what Go's
 * regexp accepts): inline flags (?i) (?m) (?s) (?U), \Q...\E, POSIX
 * classes, RE2's ASCII \s; what RE2 has not (lookaround, backreferences,
 * atomic groups, possessive quantifiers, recursion) is refused, as the
 * API server would.  In both, a construct PCRE2 would read with a meaning
 * the dialect does not give it is refused with the reason, never taken
 * silently.
 *
 * RE2 also as Go limits it: a repeat count is at most 1000, alone and
 * multiplied over nested {n,m} repeats; no repetition of a repetition
 * (a**); groups nest at most 1000 deep.
 *
 * Matching is bounded.  ECMA-262 runs on PCRE2's backtracking matcher:
 * REGEX_MATCH_LIMIT steps, a depth and a heap limit, so a hostile
 * pattern or value ends in REGEX_GAVE_UP, not a hang.  RE2 runs as RE2
 * does, without backtracking (PCRE2's DFA matcher, docs/design/upstream.md
 * "Kubernetes CRD patterns"): (a+)+$ on a long value is answered.  A
 * subject that is not UTF-8 never crashes: in ECMA-262 a byte that is not
 * part of a well-formed character matches no item of the pattern; in RE2
 * it is U+FFFD, as Go reads it.
 */
#ifndef GS_REGEX_H
#define GS_REGEX_H

#include <stdbool.h>
#include <stddef.h>

enum regex_dialect {
	REGEX_ECMA, /* JSON Schema: ECMA-262 */
	REGEX_GO,   /* Kubernetes OpenAPI: RE2, as Go's regexp reads it */
};

enum regex_result {
	REGEX_GAVE_UP = -1, /* a limit was hit: neither match nor no match */
	REGEX_NOMATCH = 0,
	REGEX_MATCH = 1,
};

/* Backtracking steps one match may take (pcre2_set_match_limit). */
#define REGEX_MATCH_LIMIT 1000000u

struct regex;

/*
 * Compile src[0..len) in `dialect`.  NULL when it cannot be compiled;
 * then err (errlen bytes) holds why, ending with "(at offset N)", N the
 * byte offset in src.  Patterns longer than 64 KiB are refused.
 */
struct regex *regex_compile(const char *src, size_t len, enum regex_dialect dialect, char *err,
			    size_t errlen);

void regex_free(struct regex *re);

/*
 * Whether re matches anywhere in s[0..len) (ECMA's test()): REGEX_MATCH,
 * REGEX_NOMATCH, or REGEX_GAVE_UP when a limit was hit.  The first
 * matches run on PCRE2's interpreter; a pattern that keeps being used is
 * compiled by the JIT when the library has one.  One struct regex is
 * matched by one thread at a time (it keeps its match data).
 */
int regex_match(struct regex *re, const char *s, size_t len);

/* For tests: whether re now runs on the JIT; how many blocks PCRE2 holds
 * for this module (0 once every regex is freed). */
bool regex_jitted(const struct regex *re);
long regex_live_blocks(void);

/* "10.42": the PCRE2 version the process runs with. */
const char *regex_library_version(void);

#endif
