/*
 * schema_embedded.c - the GPUSite schema embedded from schemas/, compiled
 * once per process.
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "base/num.h"
#include "base/secret.h"
#include "base/strdist.h"
#include "base/utf8.h"
#include "json/json.h"
#include "schema/schema.h"
#include "schema/schema_int.h"

/* ------------------------------------------------------------------ */
/* The embedded GPUSite schema, compiled once per process */

static struct arena gpusite_arena = ARENA_INIT;
static const struct schema *gpusite_schema;

static void
gpusite_release(void)
{
	arena_release(&gpusite_arena);
	gpusite_schema = NULL;
}

const struct schema *
schema_gpusite(struct arena *a, struct diags *d)
{
	struct diags local;
	const struct node *root;
	size_t k;

	(void)a;
	if (gpusite_schema)
		return gpusite_schema;
	/* Kept outside the run's arena: the compiled schema outlives a run
	 * (a test or the benchmark may run many), and is built only once. */
	diags_init(&local, &gpusite_arena);
	root = schema_json_read(&gpusite_arena, "schemas/gpusite.v1alpha1.schema.json",
				schema_gpusite_json, schema_gpusite_json_len);
	if (!root)
		root = json_parse(&gpusite_arena, &local, "GS003",
				  "schemas/gpusite.v1alpha1.schema.json", schema_gpusite_json,
				  schema_gpusite_json_len);
	if (root) {
		/* Its patterns are compiled the first time a value meets
		 * them: the unit tests compile every one of them eagerly. */
		struct compile_opts o = { false, true, NULL, NULL };

		gpusite_schema = schema_compile_root(&gpusite_arena, &local, "GS003", root, &o);
	}
	if (!gpusite_schema) {
		for (k = 0; k < local.count; k++)
			diag_report(d, local.items[k].at, local.items[k].rule, local.items[k].path,
				    "built-in schema: %s", local.items[k].msg);
		arena_release(&gpusite_arena);
		return NULL;
	}
	atexit(gpusite_release);
	return gpusite_schema;
}
