/*
 * cmd_schema.c - `gpusite schema`: print the JSON Schema of GPUSite, the
 * exact bytes built into the binary (schemas/gpusite.v1alpha1.schema.json),
 * for editors and for people who want to read it.
 */
#include <stdbool.h>
#include <stdio.h>

#include "cmd/cmd.h"
#include "cli/help.h"
#include "cli/opts.h"
#include "report/report_schema.h"
#include "schema/schema.h"

enum { OPT_REFERENCE = 1 };

static bool reference;

static int
schema_option(void *payload, int id, const char *value)
{
	(void)payload;
	(void)value;
	if (id == OPT_REFERENCE)
		reference = true;
	return 0;
}

static const struct opt_spec schema_opts[] = {
	{ OPT_REFERENCE, "reference", 0, NULL,
	  "print the field reference (Markdown) instead: every field, its type,"
	  " default and the rules that check it (docs/spec.md)" },
	{ 0, NULL, 0, NULL, NULL },
};

static const struct opts_cmd schema_cmd = {
	.name = "schema",
	.usage = "[--reference]",
	.about = cli_help_schema,
	.common = 0,
	.own = schema_opts,
	.on_option = schema_option,
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
		return cmd_parse_exit(r);
	if (reference)
		return report_schema_reference(stdout) < 0 ? GS_EXIT_FAILURE : GS_EXIT_OK;
	/* main.c checks the flush and says what failed, once: a short write
	 * never exits 0. */
	if (fwrite(schema_gpusite_json, 1, schema_gpusite_json_len, stdout) !=
	    schema_gpusite_json_len)
		return GS_EXIT_FAILURE;
	return GS_EXIT_OK;
}
