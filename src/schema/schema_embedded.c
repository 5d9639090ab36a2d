/*
 * schema_embedded.c - the GPUSite schema embedded from schemas/, compiled
 * by the runtime compiler.
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
/* The embedded GPUSite schema, compiled at run time: what the build
 * turns into static tables (mk/schema-gen.c), and what the unit test
 * compares them with */

const struct schema *
schema_gpusite_compile(struct arena *a, struct diags *d)
{
	struct diags local;
	const struct node *root;
	const struct schema *gpusite_schema = NULL;
	size_t k;

	diags_init(&local, a);
	root = schema_json_read(a, "schemas/gpusite.v1alpha1.schema.json", schema_gpusite_json,
				schema_gpusite_json_len);
	if (!root)
		root = json_parse(a, &local, "GS003", "schemas/gpusite.v1alpha1.schema.json",
				  schema_gpusite_json, schema_gpusite_json_len);
	if (root) {
		/* Its patterns are compiled the first time a value meets
		 * them: the unit tests compile every one of them eagerly. */
		struct compile_opts o = { false, true, NULL, NULL };

		gpusite_schema = schema_compile_root(a, &local, "GS003", root, &o);
	}
	if (!gpusite_schema) {
		for (k = 0; k < local.count; k++)
			diag_report(d, local.items[k].at, local.items[k].rule, local.items[k].path,
				    "built-in schema: %s", local.items[k].msg);
		return NULL;
	}
	return gpusite_schema;
}
