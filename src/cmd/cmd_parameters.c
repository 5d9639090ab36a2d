/*
 * cmd_parameters.c - `gpusite parameters`: the plugin's dynamic parameter
 * announcements (plugin.yaml spec.parameters.dynamic), a JSON array of
 * Argo CD ParameterAnnouncement objects on stdout.
 *
 * Argo CD never sends the announced defaults back, so each default here is
 * exactly what `gpusite generate` does when the parameter is not set: the
 * same lookup (ARGOCD_ENV_<NAME>, then <NAME>) and the same built-in
 * default (all sites under the application path, in render order).
 */
#include <stdio.h>

#include "argocd/argocd_app.h"
#include "argocd/argocd_plugin.h"
#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "cli/help.h"
#include "cli/opts.h"
#include "cmd/cmd.h"

extern char **environ;

static const struct opts_cmd parameters_cmd = {
	.name = "parameters",
	.usage = "",
	.about = cli_help_parameters,
	.common = 0,
	.min_args = 0,
	.max_args = 0,
};

int
cmd_parameters(int argc, char **argv)
{
	struct arena a;
	struct diags d;
	struct buf out;
	struct opts o;
	int code, rc;

	rc = opts_parse(&o, &parameters_cmd, argc, argv);
	if (rc != OPTS_OK)
		return cmd_parse_exit(rc);
	arena_init(&a);
	diags_init(&d, &a);
	buf_init(&out, 16u << 20);
	code = argocd_parameters(&out, &a, &d, (const char *const *)environ) < 0 ? GS_EXIT_FAILURE
										 : GS_EXIT_OK;
	diags_sort(&d);
	argocd_diags_print(stderr, &d, 50);
	if (code != GS_EXIT_OK) {
		const char *sum = argocd_diags_summary(&a, &d);

		fprintf(stderr, "gpusite: parameters failed%s%s\n", *sum ? ": " : "", sum);
	} else {
		if (diags_count(&d, DIAG_ERROR))
			fprintf(stderr,
				"gpusite: parameters: %s; 'sites' lists the sites that loaded\n",
				argocd_diags_summary(&a, &d));
		if (fwrite(out.data, 1, out.len, stdout) != out.len)
			code = GS_EXIT_FAILURE;
	}
	buf_release(&out);
	arena_release(&a);
	return code;
}
