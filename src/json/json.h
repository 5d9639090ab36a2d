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
#define JSON_MAX_BYTES ((size_t)64 << 20) /* text json_parse accepts */

/*
 * Returns the root, or NULL after appending a diagnostic with `rule`
 * (at the line:col of the error; text over JSON_MAX_BYTES, NUL bytes,
 * invalid UTF-8, nesting over JSON_MAX_DEPTH and trailing garbage are
 * errors).  Integers that fit int64 are NODE_INT exactly, from their text;
 * 1.0 and 1e3 (integral, within 2^53) are NODE_INT too; other numbers
 * are NODE_FLOAT keeping their JSON text.
 */
struct node *json_parse(struct arena *a, struct diags *d, const char *rule, const char *file,
			const char *text, size_t len);

enum json_parse_flags {
	JSON_STRICT = 1 << 0, /* also refuse a key given twice in one object and
				 a \u0000 in a string (text from a client) */
};

/* json_parse with `flags` (enum json_parse_flags). */
struct node *json_parse_flags(struct arena *a, struct diags *d, const char *rule, const char *file,
			      const char *text, size_t len, unsigned flags);

enum json_write_flags {
	JSON_PRETTY = 1 << 0, /* two-space indent; default is compact */
};

/*
 * Append the JSON text of n (keys in the map's order, no final newline)
 * to out.  Ints are exact; non-finite floats are null; bytes that are not
 * UTF-8 become \ufffd.  Returns 0, or BUF_ETOOBIG / -1 with out as it was.
 */
int json_write(struct buf *out, const struct node *n, unsigned flags);

const char *json_library_version(void);

#endif
