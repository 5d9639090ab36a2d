/*
 * yamlio.h - the only door to libyaml: YAML bytes -> node trees, and
 * node trees -> deterministic YAML bytes.
 *
 * Loading is strict and bounded: hostile input gets a GS001 diagnostic
 * with its line:column, never a crash, a hang or unbounded memory.
 * Duplicate mapping keys are GS002.  Tags: the YAML 1.2 core tags
 * (!!str !!int !!float !!bool !!null !!map !!seq) are honoured, any other
 * tag (say !!python/object) is GS001.  Anchors and aliases work, merge
 * keys `<<` work, and the number of nodes an alias may expand into is
 * bounded so a billion-laughs file fails fast.
 */
#ifndef GS_YAMLIO_H
#define GS_YAMLIO_H

#include <stddef.h>

#include "base/diag.h"
#include "node/node.h"

struct arena;
struct buf;

struct yamlio_limits {
	size_t max_bytes;   /* whole input */
	unsigned max_depth; /* nesting of collections */
	size_t max_nodes;   /* nodes produced, aliases expanded, per file */
	size_t max_scalar;  /* bytes of one scalar (keys included) */
	size_t max_docs;    /* documents in one file */
	size_t max_key;     /* bytes of one mapping key */
};
/* A field left 0 takes the default value. */

#define YAMLIO_MAX_BYTES (4u << 20)
extern const struct yamlio_limits yamlio_default_limits;

struct yamlio_docs {
	struct node **docs; /* one root per document, in file order */
	size_t count;
};

/*
 * Parse `len` bytes of file `file` (the name is kept in every node's pos;
 * it must live as long as the arena).  Empty documents are skipped.
 * Returns 0, or -1 after appending GS001/GS002 diagnostics; `out` then
 * holds the documents that did load (a duplicate key does not stop the
 * load: its document is kept, with the first value).  `lim` may be NULL
 * (the defaults).
 *
 * An alias shares the anchored subtree (no copy): clone a node before
 * changing it in place.  Keys brought in by a merge key `<<` follow the
 * mapping's own keys.
 */
int yamlio_load(struct yamlio_docs *out, struct arena *a, struct diags *d, const char *file,
		const char *bytes, size_t len, const struct yamlio_limits *lim);

/*
 * Emitting.  Keys are written in the order the mapping holds them (the
 * render layer orders them once).  Strings that YAML 1.1 or 1.2 would read
 * as something else ("on", "yes", "1e3", "0777", "null", "") are quoted;
 * multi-line strings use literal block style.  Output is the same bytes on
 * every machine, locale and run.
 */
enum yamlio_emit_flags {
	YAMLIO_DOC_START = 1 << 0, /* write "---" before the document */
};

/* Appends one document to out; returns 0, or BUF_ETOOBIG / -1 (a tree
 * libyaml refuses, such as a string that is not UTF-8) with out as it was. */
int yamlio_emit(struct buf *out, const struct node *doc, unsigned flags);
/* The same through libyaml's emitter alone (yamlio_emit writes the trees
 * it can without it, the same bytes): for tests. */
int yamlio_emit_libyaml(struct buf *out, const struct node *doc, unsigned flags);

/* Versions for `gpusite --version`. */
const char *yamlio_library_version(void);

#endif
