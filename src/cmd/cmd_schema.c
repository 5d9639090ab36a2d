/*
 * cmd_schema.c - `gpusite schema`: print the JSON Schema of GPUSite, the
 * exact bytes built into the binary (schemas/gpusite.v1alpha1.schema.json),
 * for editors and for people who want to read it.
 */
#include <stdio.h>

#include "cmd/cmd.h"
#include "cmd/opts.h"
#include "schema/schema.h"

static const struct opts_cmd schema_cmd = {
	.name = "schema",
	.usage = "[-h]",
	.about = "Print the JSON Schema (draft-07) of GPUSite, gpusite.io/v1alpha1, the\n"
		 "schema this binary validates against.  Editors use it for completion\n"
		 "and checks: at the top of the repository, save it with\n"
		 "  gpusite schema > schemas/gpusite.v1alpha1.schema.json\n"
		 "and start each site file in sites/ with the line 'gpusite init' writes:\n"
		 "  # yaml-language-server: $schema=../schemas/gpusite.v1alpha1.schema.json\n"
		 "(one more ../ per directory deeper).  The schema checks shapes, types,\n"
		 "enums and ranges; 'gpusite validate' also runs the semantic rules.\n",
	.common = 0,
	.own = NULL,
	.on_option = NULL,
	.payload = NULL,
	.min_args = 0,
	.max_args = 0,
};

int
cmd_schema(int argc, char **argv)
{
	struct opts o;
	int r;

	opts_init(&o);
	r = opts_parse(&o, &schema_cmd, argc, argv);
	if (r != OPTS_OK)
		return opts_exit_code(r);
	/* main.c checks the flush and says what failed, once: a short write
	 * never exits 0. */
	if (fwrite(schema_gpusite_json, 1, schema_gpusite_json_len, stdout) !=
	    schema_gpusite_json_len)
		return GS_EXIT_FAILURE;
	return GS_EXIT_OK;
}
