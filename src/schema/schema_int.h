/*
 * schema_int.h - internals of the schema module shared by its files and
 * its unit tests; nothing outside src/schema/ and tests should need it.
 */
#ifndef GS_SCHEMA_INT_H
#define GS_SCHEMA_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "regex/regex.h"

/*
 * The patterns of the schemas (`pattern`, `patternProperties`), compiled
 * through src/regex/ once per process: a cache keyed by the pattern text
 * and its dialect (ECMA-262 for JSON Schema, RE2 for Kubernetes
 * OpenAPI schemas), freed at exit in debug builds and left to the exit
 * otherwise (schema_pattern.c).
 */
struct schema_pattern;

/*
 * The compiled form of `src`, compiled now when it is new.  NULL when it
 * cannot be compiled; *err is then a message allocated with malloc that
 * the caller frees ("pattern '...' is not a valid regular expression:
 * ...").
 */
const struct schema_pattern *schema_pattern_get(const char *src, enum regex_dialect dialect,
						char **err);

/*
 * The cache entry for `src` without compiling anything: it is compiled on
 * its first schema_pattern_match().  Only for patterns known to compile
 * (the built-in schema, whose tests compile every one); a pattern that
 * turns out not to compile never matches.
 */
const struct schema_pattern *schema_pattern_get_lazy(const char *src, enum regex_dialect dialect);

/* Whether the pattern matches anywhere in s[0..len) (ECMA's test()):
 * REGEX_MATCH, REGEX_NOMATCH or REGEX_GAVE_UP (regex.h). */
int schema_pattern_match(const struct schema_pattern *p, const char *s, size_t len);

/* For tests: how many patterns this process has compiled. */
unsigned long schema_pattern_compiles(void);

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
	const struct schema_pattern *re;
	const char *src;
	struct schema *s;
};

struct sdep {
	const char *name;
	const char **req; /* array form */
	size_t nreq;
	struct schema *s; /* schema form */
};

/*
 * A compiled schema.  The built-in schema's are also static tables made
 * at build time (mk/schema-gen.c): a new field is written there too, and
 * compared by test_schema's walk of the tables against the runtime
 * compiler's result.
 */
struct schema {
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
	const struct schema_pattern *pattern;
	const char *pattern_src;
	bool format_regex; /* format: regex (draft-07 only): an ECMA-262 pattern */

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

/*
 * The built-in GPUSite schema.  schema_gpusite_compile() compiles the
 * embedded JSON (schema_embedded.c) into `a` with lazy patterns: what
 * mk/schema-gen.c writes at build time as static tables,
 * schema_gpusite_table in $(O)/gen/schema_tables.c.  Those tables hold no
 * pattern: each slot of schema_gpusite_patterns is set to its cache
 * entry (schema_pattern_get_lazy) when schema_gpusite() first returns
 * them (schema_builtin.c).
 */
const struct schema *schema_gpusite_compile(struct arena *a, struct diags *d);

struct schema_table_pattern {
	const struct schema_pattern **slot;
	const char *src; /* ECMA-262 */
};

extern struct schema *const schema_gpusite_table;
extern const struct schema_table_pattern schema_gpusite_patterns[];
extern const size_t schema_gpusite_npatterns;

#endif
