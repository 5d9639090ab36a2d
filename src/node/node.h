/*
 * node.h - the one document tree every module shares.
 *
 * YAML files (yamlio), JSON from the API server and schema files (json),
 * rendered objects (render) and live objects (kube) are all this tree, so
 * schema checks, diff and normalisation are written once.  Every node
 * knows where it came from (file:line:col; line 0 for made-up nodes).
 * Nodes live in an arena; a mapping keeps its keys in insertion order
 * (emit decides the output order).
 */
#ifndef GS_NODE_H
#define GS_NODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"

struct arena;
struct buf;

enum node_kind {
	NODE_SCALAR,
	NODE_SEQ,
	NODE_MAP,
};

/* What a scalar holds, resolved as the YAML 1.2 core schema says
 * (plain scalars only; quoted scalars are always strings). */
enum node_type {
	NODE_NULL,
	NODE_BOOL,
	NODE_INT,   /* fits int64 */
	NODE_FLOAT, /* number that is not an int64: fraction, exponent, too big */
	NODE_STR,
};

struct node;

struct node_pair {
	struct node *key; /* a scalar */
	struct node *value;
};

struct node {
	enum node_kind kind;
	enum node_type type; /* scalars only */
	struct pos at;
	union {
		struct {
			const char *text; /* canonical text, NUL-terminated */
			size_t len;
			int64_t i; /* NODE_INT, NODE_BOOL (0/1) */
			double f;  /* NODE_FLOAT, NODE_INT */
		} scalar;
		struct {
			struct node **items;
			size_t count;
			size_t alloc;
		} seq;
		struct {
			struct node_pair *pairs;
			size_t count;
			size_t alloc;
		} map;
	};
};

/* Constructors; `at` may be a zero pos for made-up nodes. */
struct node *node_new_map(struct arena *a, struct pos at);
struct node *node_new_seq(struct arena *a, struct pos at);
struct node *node_new_str(struct arena *a, struct pos at, const char *s);
struct node *node_new_strn(struct arena *a, struct pos at, const char *s, size_t n);
struct node *node_new_int(struct arena *a, struct pos at, int64_t v);
struct node *node_new_bool(struct arena *a, struct pos at, bool v);
struct node *node_new_null(struct arena *a, struct pos at);
/* A scalar of a given type whose text is already canonical. */
struct node *node_new_scalar(struct arena *a, struct pos at, enum node_type type, const char *text,
			     size_t len);

void node_seq_push(struct arena *a, struct node *seq, struct node *item);
/* Append key/value (no duplicate check); returns value. */
struct node *node_map_add(struct arena *a, struct node *map, const char *key, struct node *value);
/* Append a pair whose key is an existing scalar node (keeps its pos). */
void node_map_add_node(struct arena *a, struct node *map, struct node *key, struct node *value);
/* Replace the value of key, or append it. */
struct node *node_map_set(struct arena *a, struct node *map, const char *key, struct node *value);
/* Convenience: add a string / int / bool value under key. */
struct node *node_map_add_str(struct arena *a, struct node *map, const char *key,
			      const char *value);
struct node *node_map_add_int(struct arena *a, struct node *map, const char *key, int64_t value);
struct node *node_map_add_bool(struct arena *a, struct node *map, const char *key, bool value);

/* Lookups: NULL when absent or when `n` is not of the needed kind. */
struct node *node_map_get(const struct node *map, const char *key);
const struct node_pair *node_map_pair(const struct node *map, const char *key);
/* Dotted path of mapping keys, e.g. "spec.fallback.gpuLimit". */
struct node *node_path(const struct node *n, const char *dotted);
/* The text of a string scalar, else NULL. */
const char *node_str(const struct node *n);
/* Scalar text of any type (numbers, bools too), else NULL. */
const char *node_text(const struct node *n);
bool node_is_str(const struct node *n);
bool node_is_int(const struct node *n);
bool node_is_number(const struct node *n); /* int or float */
bool node_is_bool(const struct node *n);
bool node_is_null(const struct node *n); /* also true for n == NULL */

/* Deep equality as JSON sees it (1 == 1.0; key order ignored in maps). */
bool node_equal(const struct node *a, const struct node *b);
/* Total order used for sorting (kind, type, value; maps by sorted keys). */
int node_compare(const struct node *a, const struct node *b);
/* Deep copy into arena `a`, keeping positions. */
struct node *node_clone(struct arena *a, const struct node *n);

/*
 * JSON path text for diagnostics: appends ".key" or "[i]" the way the
 * tool prints paths ("spec.nodeGroups[0].name"); keys that are not plain
 * identifiers are written ["key.with.dots"].
 */
char *node_path_join(struct arena *a, const char *base, const char *key);
char *node_path_index(struct arena *a, const char *base, size_t index);

#endif
