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

/* ------------------------------------------------------------------ */
/* Compiled schemas: built by schema_compile.c, read by schema_check.c */

#include <stdint.h>

#include "schema/schema.h"

#define COUNT(x) (sizeof(x) / sizeof((x)[0]))

enum stype {
	ST_NULL = 1 << 0,
	ST_BOOLEAN = 1 << 1,
	ST_INTEGER = 1 << 2,
	ST_NUMBER = 1 << 3,
	ST_STRING = 1 << 4,
	ST_ARRAY = 1 << 5,
	ST_OBJECT = 1 << 6,
};

struct sprop {
	const char *name;
	struct schema *s;
};

struct spattern {
	const struct schema_regex *re;
	const char *src;
	struct schema *s;
};

struct sdep {
	const char *name;
	const char **req; /* array form */
	size_t nreq;
	struct schema *s; /* schema form */
};

struct schema {
	const struct node *src;
	const char *where; /* "#/definitions/taint": for messages */
	bool is_bool;
	bool bool_val;
	struct schema *ref; /* $ref: every sibling keyword is ignored */
	unsigned types;     /* enum stype bits; 0 = any */
	const char *title;
	const char *description;

	struct sprop *props; /* schema order */
	size_t nprops;
	struct sprop *sorted; /* by name, for bsearch */
	struct spattern *pprops;
	size_t npprops;
	struct schema *addl; /* additionalProperties, NULL when absent */
	struct schema *propnames;
	const char **required;
	size_t nrequired;
	struct sdep *deps;
	size_t ndeps;
	int64_t min_props, max_props; /* -1 when absent */

	struct schema *items;  /* one schema for every item */
	struct schema **tuple; /* items as an array */
	size_t ntuple;
	bool is_tuple;
	struct schema *addl_items;
	struct schema *contains;
	int64_t min_items, max_items;
	bool unique;

	int64_t min_len, max_len;
	const struct schema_regex *pattern;
	const char *pattern_src;

	const struct node *minimum, *maximum;
	const struct node *xminimum, *xmaximum;
	const struct node *multiple_of;

	const struct node *const_v;
	const struct node *enum_v; /* a sequence */

	struct schema **all_of, **any_of, **one_of;
	size_t nall, nany, none;
	struct schema *not_s, *if_s, *then_s, *else_s;

	/* Kubernetes structural schemas */
	bool nullable;
	bool preserve; /* x-kubernetes-preserve-unknown-fields */
	bool embedded; /* x-kubernetes-embedded-resource */
	bool strict;   /* unknown fields are errors (structural) */
	int list_type; /* 0, LIST_SET, LIST_MAP */
	const char **map_keys;
	size_t nmap_keys;
	int int_bits; /* format int32 / int64 */
};

enum { LIST_SET = 1, LIST_MAP = 2 };

struct compile_opts {
	bool openapi;
	bool lazy;
	schema_resolve_fn *resolve;
	void *payload;
};

/* The draft-07 meta-schema's URI, without the trailing '#'. */
extern const char *const schema_draft07_uri;

/* `ref` resolved against the base URI `base` (RFC 3986, as much as $id
 * and $ref need), and `uri` split at '#': the document part returned,
 * *frag set to the fragment (NULL when there is no '#'). */
char *schema_uri_resolve(struct arena *a, const char *base, const char *ref);
char *schema_uri_split(struct arena *a, const char *uri, const char **frag);

/* The int64 a number node's text means exactly (num_decimal_to_int64's
 * verdict: 0 with *v when whole and in int64); and whether it is a whole
 * number at all. */
int schema_num_exact(const struct node *n, int64_t *v);
bool schema_num_is_integral(const struct node *n);

/* qsort/bsearch order of struct sprop: by name. */
int schema_sprop_cmp(const void *x, const void *y);

/* Compile the schema document `root`; NULL (with diagnostics under
 * `rule`) when it is not one. */
struct schema *schema_compile_root(struct arena *a, struct diags *d, const char *rule,
				   const struct node *root, const struct compile_opts *o);

#endif
