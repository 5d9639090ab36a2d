#include <stdio.h>

#include "cmd/cmd.h"

/* Placeholder until the command lands; keeps the table and build whole. */
int
cmd_diff(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "gpusite: '%s' is not implemented yet\n", argv[0]);
	return GS_EXIT_FAILURE;
}
