/*
 * fuzz_json.c - JSON from outside (API server bodies, parameters) into the
 * node tree and back out.
 */
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "json/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena a;
	struct diags d;
	struct node *n;

	arena_init(&a);
	diags_init(&d, &a);
	n = json_parse(&a, &d, "GS001", "fuzz.json", (const char *)data, size);
	/* the strict parse refuses more, never accepts what the plain one refuses */
	if (json_parse_flags(&a, &d, "GS001", "fuzz.json", (const char *)data, size, JSON_STRICT) &&
	    !n)
		__builtin_trap();
	if (n) {
		struct buf out = BUF_INIT;

		buf_init(&out, 64u << 20);
		if (json_write(&out, n, 0) == 0 && out.len == 0)
			__builtin_trap();	/* a parsed value always prints */
		buf_release(&out);
	}
	arena_release(&a);
	return 0;
}
