/*
 * main.c - gpusite: dispatch to a subcommand, then make sure stdout really
 * got its bytes (a closed pipe or a full disk is exit 3, never a silent
 * truncation).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "argocd/serve.h"
#include "cmd/cmd.h"
#include "json/json.h"
#include "kube/kube.h"
#include "regex/regex.h"
#include "source/source.h"
#include "yamlio/yamlio.h"

static char help_flag[] = "--help";

/* What the tool is, for --help and the DESCRIPTION of gpusite(1). */
static const char about[] =
	"gpusite turns a Git repository of hybrid GPU site specs (GPUSite,\n"
	"gpusite.io/v1alpha1) into what an EKS cluster with on-premises GPU servers\n"
	"needs: nodeadm NodeConfigs that taint the GPU nodes at join time, an NVIDIA\n"
	"GPU stack scoped to hybrid nodes only, a Karpenter fallback NodePool,\n"
	"placement admission policies and PrometheusRules.  It validates the specs,\n"
	"renders byte-stable output, runs as an Argo CD plugin, and diffs the result\n"
	"against Git revisions and the live cluster.\n";

/* The usage lines and the commands; `full` (--help) adds what the tool is. */
static void
print_usage(FILE *out, bool full)
{
	fprintf(out, "usage: gpusite <command> [options]\n"
		     "       gpusite --version | --help\n\n");
	if (full)
		fprintf(out, "%s\n", about);
	fprintf(out, "commands:\n");
	for (size_t i = 0; i < commands_count; i++)
		fprintf(out, "  %-14s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\nRun 'gpusite <command> --help' for a command's options.\n"
		     "Exit codes: 0 ok, 1 findings (invalid, difference, drift),"
		     " 2 usage error, 3 could not do the job.\n");
}

static void
print_version(void)
{
	printf("gpusite %s\n", GPUSITE_VERSION);
#ifdef GPUSITE_COMMIT
	/* a build from a git checkout (or its release tarball) names its commit */
	printf("commit %s\n", GPUSITE_COMMIT);
#endif
	printf("libgit2 %s\n", source_library_version());
	printf("libyaml %s\n", yamlio_library_version());
	printf("cJSON %s\n", json_library_version());
	printf("libcurl %s\n", kube_library_version());
	printf("libmicrohttpd %s\n", serve_library_version());
	printf("PCRE2 %s\n", regex_library_version());
}

static int
finish_stdout(int code)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "gpusite: error: cannot write standard output: %s\n",
			strerror(errno ? errno : EIO));
		return GS_EXIT_FAILURE;
	}
	return code;
}

int
main(int argc, char **argv)
{
	if (argc < 2) {
		print_usage(stderr, false);
		return GS_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "help") && argc > 2) {
		/* `gpusite help CMD` is `gpusite CMD --help` */
		char *help_argv[] = { argv[2], help_flag, NULL };

		for (size_t i = 0; i < commands_count; i++) {
			if (!strcmp(argv[2], commands[i].name))
				return finish_stdout(commands[i].fn(2, help_argv));
		}
		fprintf(stderr, "gpusite: '%s' is not a gpusite command; see 'gpusite --help'\n",
			argv[2]);
		return GS_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		print_usage(stdout, true);
		return finish_stdout(GS_EXIT_OK);
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		print_version();
		return finish_stdout(GS_EXIT_OK);
	}
	for (size_t i = 0; i < commands_count; i++) {
		if (!strcmp(argv[1], commands[i].name))
			return finish_stdout(commands[i].fn(argc - 1, argv + 1));
	}
	fprintf(stderr, "gpusite: '%s' is not a gpusite command; see 'gpusite --help'\n", argv[1]);
	return GS_EXIT_USAGE;
}
