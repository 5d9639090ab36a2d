/*
 * fuzz_spec.c - the whole reading road on arbitrary bytes: YAML loader,
 * schema, spec model, rules.  Nothing may crash, hang or leak.
 */
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "pipeline/pipeline.h"
#include "source/source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena a;
	struct source_set files = { 0 };
	struct pipeline p;

	arena_init(&a);
	source_set_add(&a, &files, "sites/fuzz.yaml", (const char *)data, size);
	pipeline_load(&p, &a, &files);
	arena_release(&a);
	return 0;
}
