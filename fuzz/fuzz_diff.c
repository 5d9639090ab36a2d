/*
 * fuzz_diff.c - the object diff of `diff --live` and `drift`: normalise a
 * live and a rendered object, cut the live one down to what the rendered
 * one sets, mask secrets, print the diff and list the paths.
 *
 * Input: a JSON array [live, rendered] (as the API server sends objects),
 * else a YAML stream whose first two documents are live and rendered.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "diff/diff.h"
#include "json/json.h"
#include "node/node.h"
#include "yamlio/yamlio.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_PATHS 16

/* A mapping with the same key twice anywhere in n?  JSON allows it, the
 * API server never sends it, and which one counts is a matter of taste
 * (Go takes the last, node_map_get the first). */
static int
dup_keys(const struct node *n)
{
	if (!n)
		return 0;
	if (n->kind == NODE_SEQ) {
		for (size_t i = 0; i < n->seq.count; i++)
			if (dup_keys(n->seq.items[i]))
				return 1;
	} else if (n->kind == NODE_MAP) {
		for (size_t i = 0; i < n->map.count; i++) {
			const char *k = node_text(n->map.pairs[i].key);

			for (size_t j = 0; k && j < i; j++) {
				const char *o = node_text(n->map.pairs[j].key);

				if (o && !strcmp(k, o))
					return 1;
			}
			if (dup_keys(n->map.pairs[i].value))
				return 1;
		}
	}
	return 0;
}

/*
 * `json`: the objects came from JSON, so every mapping key is a string, as
 * in every Kubernetes object.  YAML may have `true:` or `1:` keys, which
 * the live subset (built by key text) turns into strings: no property is
 * checked on those, only that nothing crashes or leaks.
 */
static void
one(struct arena *a, const struct node *live_in, const struct node *rendered_in, int json)
{
	struct node *r = diff_normalize(a, rendered_in);
	struct node *l = diff_normalize(a, live_in);
	struct node *sub = diff_live_subset(a, l, r);
	struct node *self = diff_live_subset(a, r, r);
	const char *paths[MAX_PATHS];
	struct buf out;
	size_t n;

	buf_init(&out, 16u << 20);
	/* an object never differs from itself */
	if (r && diff_objects(&out, r, r, "a", "b") > 0)
		__builtin_trap();
	if (r && !dup_keys(r) && diff_paths(a, r, r, paths, MAX_PATHS) != 0)
		__builtin_trap();
	if (json && r && !dup_keys(r) && diff_objects(&out, self, r, "a", "b") > 0)
		__builtin_trap();	/* the rendered object is its own live subset */
	buf_reset(&out);

	diff_mask_secrets(a, sub, r);
	(void)diff_objects(&out, sub, r, "live", "rendered");
	buf_reset(&out);
	(void)diff_objects(&out, l, NULL, "live", "(none)");
	buf_reset(&out);
	(void)diff_objects(&out, NULL, r, "(none)", "rendered");
	n = diff_paths(a, sub, r, paths, MAX_PATHS);
	for (size_t i = 0; i < n && i < MAX_PATHS; i++)
		if (!paths[i])
			__builtin_trap();
	buf_release(&out);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena a;
	struct diags d;
	struct node *root;
	const char *text = (const char *)data;

	arena_init(&a);
	diags_init(&d, &a);
	root = json_parse(&a, &d, "GS290", "live.json", text, size);
	if (root && root->kind == NODE_SEQ && root->seq.count >= 2) {
		one(&a, root->seq.items[0], root->seq.items[1], 1);
	} else if (root) {
		one(&a, root, root, 1);
		one(&a, root, NULL, 1);
	} else {
		struct yamlio_docs docs = { 0 };

		(void)yamlio_load(&docs, &a, &d, "in.yaml", text, size,
				  &yamlio_default_limits);
		if (docs.count >= 2)
			one(&a, docs.docs[0], docs.docs[1], 0);
		else if (docs.count == 1)
			one(&a, docs.docs[0], docs.docs[0], 0);
	}
	/* quantities from the raw bytes: the two halves of the input */
	if (size < 128) {
		char *s = arena_strndup(&a, text, size);
		size_t h = strlen(s) / 2;
		char *t = arena_strdup(&a, s + h);

		s[h] = '\0';
		(void)diff_quantity_equal(s, t);
		if (!diff_quantity_equal(t, t))
			__builtin_trap();
	}
	arena_release(&a);
	return 0;
}
