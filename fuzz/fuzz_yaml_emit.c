/*
 * fuzz_yaml_emit.c - whatever loads must emit, and what is emitted must
 * load back equal: the emitter's quoting is checked on every input.
 */
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "node/node.h"
#include "yamlio/yamlio.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena a;
	struct diags d;
	struct yamlio_docs docs = { 0 };

	arena_init(&a);
	diags_init(&d, &a);
	if (yamlio_load(&docs, &a, &d, "in.yaml", (const char *)data, size,
			&yamlio_default_limits) == 0) {
		for (size_t i = 0; i < docs.count; i++) {
			struct buf out = BUF_INIT;
			struct yamlio_docs back = { 0 };

			buf_init(&out, 64u << 20);
			if (yamlio_emit(&out, docs.docs[i], 0) == 0 &&
			    yamlio_load(&back, &a, &d, "out.yaml", out.data,
					out.len, &yamlio_default_limits) == 0 &&
			    (back.count != 1 ||
			     !node_equal(back.docs[0], docs.docs[i])))
				__builtin_trap();	/* emit lost or changed data */
			buf_release(&out);
		}
	}
	arena_release(&a);
	return 0;
}
