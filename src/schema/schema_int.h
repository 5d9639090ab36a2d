/*
 * schema_int.h - internals of the schema module shared by its files and
 * its unit tests; nothing outside src/schema/ and tests should need it.
 */
#ifndef GS_SCHEMA_INT_H
#define GS_SCHEMA_INT_H

#include <stdbool.h>
#include <stddef.h>

struct buf;

/*
 * ECMA-262 regular expressions (what JSON Schema's `pattern` means) run
 * on POSIX <regex.h>.  schema_regex_translate() turns one into POSIX ERE
 * text: \d \w \s and their negations, (?:...) and (?<name>...) groups,
 * escapes, lazy quantifiers (same verdict as greedy when only "does it
 * match" is asked), `.` without line terminators.  Features ERE cannot
 * express (lookaround, backreferences, \b) fail with *why set to a static
 * reason and *where to the byte offset in `src`, never a silent accept.
 * `utf8` says the ERE will run in a UTF-8 locale (code points, not bytes).
 * The Go dialect differs in what \s and '.' match; a leading (?i) is
 * handled by schema_regex_get().
 */
/* Which syntax a pattern is written in. */
enum schema_regex_dialect {
	SCHEMA_RE_ECMA, /* JSON Schema: ECMA-262 */
	SCHEMA_RE_GO,   /* Kubernetes OpenAPI: Go RE2 (ASCII \s, '.' stops
			 * only at \n, a leading (?i) flag group) */
};

int schema_regex_translate(struct buf *out, const char *src, size_t len,
			   enum schema_regex_dialect dialect, bool utf8, const char **why,
			   size_t *where);

struct schema_regex;

/*
 * The compiled form of `src`, from a process-wide cache (one regcomp per
 * distinct pattern for the life of the process, freed at exit).  NULL when
 * the pattern cannot be compiled; *err is then a message allocated with
 * malloc that the caller frees.
 */
const struct schema_regex *schema_regex_get(const char *src, enum schema_regex_dialect dialect,
					    char **err);

/*
 * The cache entry for `src` without compiling anything: translation and
 * regcomp happen on the first schema_regex_match().  Only for patterns
 * known to compile (the built-in schema, whose tests compile every one);
 * a pattern that turns out not to compile never matches.
 */
const struct schema_regex *schema_regex_get_lazy(const char *src,
						 enum schema_regex_dialect dialect);

/* Whether the pattern matches anywhere in s[0..len) (ECMA test()).  A
 * pure-ASCII subject runs on a byte-mode twin of the pattern when one
 * exists (same verdict, no multibyte conversion). */
bool schema_regex_match(const struct schema_regex *re, const char *s, size_t len);

/* For tests: schema_regex_match() always on the full (UTF-8) form, and
 * whether the pattern has an ASCII twin (building it if needed). */
bool schema_regex_match_full(const struct schema_regex *re, const char *s, size_t len);
bool schema_regex_has_twin(const struct schema_regex *re);

/* For tests: how many times regcomp() has run in this process. */
unsigned long schema_regex_compiles(void);

/* True when patterns run in a UTF-8 locale (code point semantics). */
bool schema_regex_utf8(void);

/*
 * The node tree json_parse() would build from `text` (zero positions in
 * `file`), read directly without cJSON; NULL for anything but plain,
 * well-formed JSON, and the caller then uses json_parse(), which reports.
 * For the built-in schema (schema_read.c).
 */
struct arena;
struct node;
struct node *schema_json_read(struct arena *a, const char *file, const char *text, size_t len);

/* The draft-07 meta-schema (http://json-schema.org/draft-07/schema#). */
extern const char schema_draft07_json[];

#endif
