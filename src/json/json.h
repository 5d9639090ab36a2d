/*
 * json.h - the only door to cJSON: JSON text <-> node trees.
 *
 * Used for API server bodies (kube), the embedded JSON Schema (schema),
 * machine-readable output (emit, report).  Parsing is bounded (size,
 * depth); numbers become NODE_INT when they are exact int64 values, else
 * NODE_FLOAT.  JSON nodes have line 0 positions carrying `file`.
 */
#ifndef GS_JSON_H
#define GS_JSON_H

#include <stddef.h>

#include "base/diag.h"
#include "node/node.h"

struct arena;
struct buf;

#define JSON_MAX_DEPTH 512

/* Returns the root, or NULL after appending a diagnostic with `rule`. */
struct node *json_parse(struct arena *a, struct diags *d, const char *rule,
			const char *file, const char *text, size_t len);

enum json_write_flags {
	JSON_PRETTY = 1 << 0,	/* two-space indent; default is compact */
};

/* Append the JSON text of n (keys in the map's order) to out. */
int json_write(struct buf *out, const struct node *n, unsigned flags);

const char *json_library_version(void);

#endif
