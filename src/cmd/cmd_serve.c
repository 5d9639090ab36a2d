/*
 * cmd_serve.c - `gpusite serve`.
 */
#include <stdio.h>

#include "cmd/cmd.h"
#include "cmd/opts.h"

static const struct opts_cmd serve_cmd = {
	.name = "serve",
	.usage = "[options]",
	.about = "The ApplicationSet plugin generator for Argo CD (in progress).\n",
	.common = 0,
	.own = NULL,
	.on_option = NULL,
	.payload = NULL,
	.min_args = 0,
	.max_args = OPTS_ANY,
};

int
cmd_serve(int argc, char **argv)
{
	struct opts o;
	int r;

	opts_init(&o);
	r = opts_parse(&o, &serve_cmd, argc, argv);
	if (r != OPTS_OK)
		return opts_exit_code(r);
	fprintf(stderr, "gpusite serve: not available in this build\n");
	return 3;
}
