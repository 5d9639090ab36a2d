/*
 * schema_builtin.c - the built-in GPUSite schema as a run meets it: the
 * static tables the build compiled from schemas/ (mk/schema-gen.c), so no
 * run parses or compiles the schema's JSON.
 */
#include <stdbool.h>
#include <stddef.h>

#include "regex/regex.h"
#include "schema/schema.h"
#include "schema/schema_int.h"

const struct schema *
schema_gpusite(struct arena *a, struct diags *d)
{
	static bool ready;
	size_t k;

	(void)a;
	(void)d;
	if (!ready) {
		/* Each pattern's cache entry, compiled on its first match. */
		for (k = 0; k < schema_gpusite_npatterns; k++)
			*schema_gpusite_patterns[k].slot =
				schema_pattern_get_lazy(schema_gpusite_patterns[k].src, REGEX_ECMA);
		ready = true;
	}
	return schema_gpusite_table;
}
