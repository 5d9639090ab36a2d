/*
 * cmd_drill_run.c - `gpusite drill run`: cordon, evict, watch, record.
 */
#include <stdio.h>

#include "cmd/cmd.h"

int
cmd_drill_run(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "gpusite drill run: not available in this build\n");
	return 3;
}
