/*
 * cmd_drill.c - `gpusite drill`.
 */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/opts.h"

static const struct opts_cmd drill_cmd = {
	.name = "drill",
	.usage = "[options]",
	.about = "The fallback drill: plan, run and report (in progress).\n",
	.common = 0,
	.own = NULL,
	.on_option = NULL,
	.payload = NULL,
	.min_args = 0,
	.max_args = OPTS_ANY,
};

int
cmd_drill(int argc, char **argv)
{
	struct opts o;
	int r;

	if (argc > 1 && !strcmp(argv[1], "run"))
		return cmd_drill_run(argc - 1, argv + 1);
	opts_init(&o);
	r = opts_parse(&o, &drill_cmd, argc, argv);
	if (r != OPTS_OK)
		return opts_exit_code(r);
	fprintf(stderr, "gpusite drill: not available in this build\n");
	return 3;
}
