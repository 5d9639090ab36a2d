/*
 * cmd_generate.c - `gpusite generate`: the Argo CD config-management
 * plugin entry point (plugin/plugin.yaml).
 *
 * Argo CD runs it in a fresh copy of the repository with the application
 * path as working directory and the inputs in the environment only
 * (argocd/argocd_env.h).  It prints the same YAML stream `gpusite render`
 * prints for the same sites, except for the objects the sites of a
 * cluster share: with one Application per site they would have several
 * owners in Argo CD, so only one site per cluster carries them (the
 * `shared-objects` setting).  Whatever goes wrong, stdout stays empty:
 * an empty success would make Argo CD prune every object of the app.
 * The output is built in memory and written only once all went well;
 * stderr is one line per problem and a summary last, which is what the
 * Argo CD UI shows.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "argocd/argocd_app.h"
#include "argocd/argocd_env.h"
#include "argocd/argocd_plugin.h"
#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "cli/help.h"
#include "cli/opts.h"
#include "cmd/cmd.h"

extern char **environ;

/* The UI shows the whole of stderr: keep it readable. */
#define MAX_LINES 50

static const struct opts_cmd generate_cmd = {
	.name = "generate",
	.usage = "",
	.about = cli_help_generate,
	.common = 0,
	.min_args = 0,
	.max_args = 0,
};

static void
on_deadline(int sig)
{
	static const char msg[] =
		"gpusite: error: gave up after 45 s, before Argo CD's 60 s deadline:"
		" make the application path hold fewer sites [" ARGOCD_RULE_DEADLINE "]\n"
		"gpusite: generate failed: out of time (" ARGOCD_RULE_DEADLINE ")\n";
	ssize_t r;

	(void)sig;
	/* Only async-signal-safe calls here; stdout was never written. */
	r = write(STDERR_FILENO, msg, sizeof(msg) - 1);
	(void)r;
	_exit(GS_EXIT_FAILURE);
}

static void
deadline_arm(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_deadline;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	alarm(ARGOCD_DEADLINE_SECONDS);
}

/* The exit code of an argocd_generate() result. */
static int
exit_of(int rc)
{
	switch (rc) {
	case ARGOCD_RUN_OK: return GS_EXIT_OK;
	case ARGOCD_RUN_FINDINGS: return GS_EXIT_FINDINGS;
	case ARGOCD_RUN_SETTINGS: return GS_EXIT_USAGE;
	default: return GS_EXIT_FAILURE;
	}
}

int
cmd_generate(int argc, char **argv)
{
	struct arena a;
	struct diags d;
	struct buf out;
	struct opts o;
	int code, rc;

	rc = opts_parse(&o, &generate_cmd, argc, argv);
	if (rc != OPTS_OK)
		return cmd_parse_exit(rc);
	deadline_arm();
	arena_init(&a);
	diags_init(&d, &a);
	buf_init(&out, ARGOCD_OUTPUT_CAP);

	code = exit_of(argocd_generate(&out, &a, &d, (const char *const *)environ));
	alarm(0);
	if (code == GS_EXIT_OK && diags_count(&d, DIAG_ERROR))
		code = GS_EXIT_FINDINGS;
	diags_sort(&d);
	argocd_diags_print(stderr, &d, MAX_LINES);
	if (code != GS_EXIT_OK) {
		const char *sum = argocd_diags_summary(&a, &d);

		fprintf(stderr, "gpusite: generate failed%s%s\n", *sum ? ": " : "", sum);
	} else if (fwrite(out.data, 1, out.len, stdout) != out.len) {
		code = GS_EXIT_FAILURE; /* main.c reports the write error */
	}
	buf_release(&out);
	arena_release(&a);
	return code;
}
