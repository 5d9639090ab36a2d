/*
 * opts.h - command-line options shared by the subcommands.
 *
 * A command describes itself once (usage line, one paragraph, which of
 * the common options it takes, its own options) and opts_parse() both
 * parses argv and prints `--help` from that description, so help text
 * and parsing never disagree.  Long options take `--name=value` or
 * `--name value`; short flags may be bundled (`-qv`); `--` ends options.
 */
#ifndef GS_OPTS_H
#define GS_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "pipeline/pipeline.h"
#include "report/report.h"

struct arena;

/* The common options a command takes (docs/design/commands.md). */
enum opts_common {
	OPTS_FORMAT = 1 << 0,  /* --format text|json|github|sarif|junit|markdown */
	OPTS_STRICT = 1 << 1,  /* --strict */
	OPTS_COLOR = 1 << 2,   /* --color auto|always|never */
	OPTS_QUIET = 1 << 3,   /* -q, --quiet */
	OPTS_VERBOSE = 1 << 4, /* -v, --verbose (repeatable) */
	OPTS_SOURCE = 1 << 5,  /* --repo URL|PATH, --ref REV, --staged */
	OPTS_FINDINGS =
		OPTS_FORMAT | OPTS_STRICT | OPTS_COLOR | OPTS_QUIET | OPTS_VERBOSE | OPTS_SOURCE,
};

enum opts_color { OPTS_COLOR_AUTO, OPTS_COLOR_ALWAYS, OPTS_COLOR_NEVER };

/* One option of a command's own.  `arg` names the value ("DIR"); NULL
 * for a flag.  `id` is passed back to the command's callback. */
struct opt_spec {
	int id;
	const char *long_name; /* without "--"; NULL for short-only */
	char short_name;       /* 0 for long-only */
	const char *arg;
	const char *help;
};

/* What the common options said, and the positional arguments. */
struct opts {
	enum report_format format;
	bool format_set;
	bool strict;
	enum opts_color color;
	bool quiet;
	int verbose;
	const char *repo; /* --repo, or NULL */
	const char *ref;  /* --ref, or NULL */
	bool staged;      /* --staged */
	char **args;      /* positional arguments (points into argv) */
	size_t nargs;
};

/*
 * A command's description.  `on_option` is called for each of the
 * command's own options with its id and value (NULL for flags); it
 * returns 0, or -1 after printing a usage error with opts_usage_error().
 */
struct opts_cmd {
	const char *name;           /* "validate" */
	const char *usage;          /* "[options] [PATH|FILE...]" */
	const char *about;          /* a paragraph; lines end in '\n' */
	unsigned common;            /* enum opts_common bits */
	const struct opt_spec *own; /* terminated by a zeroed entry, or NULL */
	int (*on_option)(void *payload, int id, const char *value);
	void *payload;
	size_t min_args;
	size_t max_args; /* OPTS_ANY for no limit */
	/* The --format values the command takes: OPTS_FMT() bits, 0 for all
	 * six.  Help and parsing both follow it. */
	unsigned formats;
};

#define OPTS_FMT(f) (1u << (f))

/* The row of --kube-version X.Y (render, explain), with the command's id. */
#define OPTS_KUBE_VERSION_ROW(id)                                                                  \
	{                                                                                          \
		id, "kube-version", 0, "X.Y",                                                      \
			"target Kubernetes version (overrides cluster.kubernetesVersion)"          \
	}

#define OPTS_ANY ((size_t)-1)

enum opts_result {
	OPTS_OK = 0,      /* go on */
	OPTS_HELP = 1,    /* help printed to stdout: the command exits 0 */
	OPTS_EUSAGE = -2, /* usage error printed to stderr: the command exits 2 */
};

void opts_init(struct opts *out);

/* Parse argv (argv[0] is the command name). */
int opts_parse(struct opts *out, const struct opts_cmd *cmd, int argc, char **argv);

/* Print the command's help (usage line, paragraph, options). */
void opts_help(FILE *out, const struct opts_cmd *cmd);

/* "gpusite CMD: MESSAGE" and a pointer at --help, on stderr; -2. */
int opts_usage_error(const struct opts_cmd *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Whether to colour output written to `stream`: --color always, or auto
 * on a terminal with NO_COLOR unset or empty and TERM not "dumb".
 */
bool opts_use_color(const struct opts *o, FILE *stream);

/* Whether `stream` is a terminal (caret lines under diagnostics). */
bool opts_is_tty(FILE *stream);

/*
 * The report flags for text findings written to `stream`: REPORT_COLOR
 * as opts_use_color() says, REPORT_CARET (the source line and a caret)
 * on a terminal or with --color always.
 */
unsigned opts_report_flags(const struct opts *o, FILE *stream);

/* The pipeline's source from the common source options (--repo, --ref,
 * --staged) and `paths`. */
struct pipeline_source opts_source(const struct opts *o, const char *const *paths, size_t npaths);

/*
 * Append the names of one value of a repeatable option that takes a
 * comma-separated list (--site a,b), empty items skipped, copied into
 * `a`: 0, or -1 when the value names none at all.
 */
int opts_names_add(struct arena *a, const char ***names, size_t *count, const char *value);

/* `s` as a whole number from `min` to `max` (strtoul, nothing after it): 0, or -1. */
int opts_parse_ulong(unsigned long *out, const char *s, unsigned long min, unsigned long max);

#endif
