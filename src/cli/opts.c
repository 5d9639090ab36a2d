/*
 * opts.c - one option parser and help printer for every subcommand.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/arena.h"
#include "cli/opts.h"

/* Ids of the common options; commands' own ids are theirs alone, the
 * tables are searched separately. */
enum common_id {
	C_FORMAT = 1,
	C_STRICT,
	C_COLOR,
	C_QUIET,
	C_VERBOSE,
	C_REPO,
	C_REF,
	C_STAGED,
	C_HELP,
};

struct common_opt {
	unsigned mask; /* enum opts_common bit; 0: every command */
	struct opt_spec spec;
};

static const struct common_opt common_opts[] = {
	{ OPTS_FORMAT,
	  { C_FORMAT, "format", 0, "FMT",
	    "findings as ... (the command's formats, see formats_list())" } },
	{ OPTS_STRICT, { C_STRICT, "strict", 0, NULL, "warnings fail too (exit 1)" } },
	{ OPTS_COLOR,
	  { C_COLOR, "color", 0, "WHEN", "auto (default; honours NO_COLOR), always or never" } },
	{ OPTS_QUIET,
	  { C_QUIET, "quiet", 'q', NULL, "no summary line when there is nothing to report" } },
	{ OPTS_VERBOSE,
	  { C_VERBOSE, "verbose", 'v', NULL,
	    "say what was read and how long it took (on stderr)" } },
	{ OPTS_SOURCE,
	  { C_REPO, "repo", 0, "URL|PATH",
	    "read the specs from a Git repository, path or URL (HTTPS token:"
	    " GPUSITE_GIT_TOKEN or GIT_TOKEN)" } },
	{ OPTS_SOURCE,
	  { C_REF, "ref", 0, "REV",
	    "the revision to read (branch, tag, SHA, HEAD~1; default HEAD)" } },
	{ OPTS_SOURCE,
	  { C_STAGED, "staged", 0, NULL,
	    "check what is staged in the Git index, not the work tree" } },
	{ 0, { C_HELP, "help", 'h', NULL, "show this help and exit" } },
};

#define N_COMMON (sizeof(common_opts) / sizeof(common_opts[0]))

void
opts_init(struct opts *out)
{
	memset(out, 0, sizeof(*out));
	out->format = REPORT_TEXT;
	out->color = OPTS_COLOR_AUTO;
}

int
opts_usage_error(const struct opts_cmd *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "gpusite %s: ", cmd->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nsee 'gpusite %s --help'\n", cmd->name);
	return OPTS_EUSAGE;
}

#define N_FORMATS ((size_t)REPORT_FORMATS)

static unsigned
formats_of(const struct opts_cmd *cmd)
{
	return cmd->formats ? cmd->formats : (1u << N_FORMATS) - 1;
}

/* "text, json or sarif" - the formats the command takes, or with
 * `with_default` "text (default), json or sarif". */
static void
formats_list(char *buf, size_t size, const struct opts_cmd *cmd, bool with_default)
{
	unsigned set = formats_of(cmd), left = 0;
	size_t n = 0;

	for (size_t i = 0; i < N_FORMATS; i++)
		left += (set >> i) & 1u;
	buf[0] = '\0';
	for (size_t i = 0; i < N_FORMATS && n < size; i++) {
		if (!((set >> i) & 1u))
			continue;
		left--;
		n += (size_t)snprintf(buf + n, size - n, "%s%s%s",
				      report_format_name((enum report_format)i),
				      with_default && i == REPORT_TEXT ? " (default)" : "",
				      left > 1    ? ", "
				      : left == 1 ? " or "
						  : "");
	}
}

static void
help_line(FILE *out, const struct opt_spec *s)
{
	char left[64];
	int n = 0;

	if (s->short_name && s->long_name)
		n = snprintf(left, sizeof(left), "-%c, --%s", s->short_name, s->long_name);
	else if (s->long_name)
		n = snprintf(left, sizeof(left), "    --%s", s->long_name);
	else
		n = snprintf(left, sizeof(left), "-%c", s->short_name);
	if (s->arg && n > 0 && (size_t)n < sizeof(left))
		snprintf(left + n, sizeof(left) - (size_t)n, " %s", s->arg);
	if (strlen(left) > 24)
		fprintf(out, "  %s\n  %-24s  %s\n", left, "", s->help);
	else
		fprintf(out, "  %-24s  %s\n", left, s->help);
}

void
opts_help(FILE *out, const struct opts_cmd *cmd)
{
	fprintf(out, "usage: gpusite %s%s%s\n\n", cmd->name, *cmd->usage ? " " : "", cmd->usage);
	if (cmd->about)
		fprintf(out, "%s\n", cmd->about);
	fprintf(out, "options:\n");
	for (const struct opt_spec *s = cmd->own; s && (s->long_name || s->short_name); s++)
		help_line(out, s);
	for (size_t i = 0; i < N_COMMON; i++) {
		if (common_opts[i].mask && !(cmd->common & common_opts[i].mask))
			continue;
		if (common_opts[i].spec.id == C_FORMAT) {
			struct opt_spec f = common_opts[i].spec;
			char list[160], text[200];

			formats_list(list, sizeof(list), cmd, true);
			snprintf(text, sizeof(text), "findings as %s", list);
			f.help = text;
			help_line(out, &f);
			continue;
		}
		help_line(out, &common_opts[i].spec);
	}
	fprintf(out, "\nexit codes: 0 ok, 1 findings, 2 usage error,"
		     " 3 could not do the job\n");
}

/* Find a long option; `name` may carry "=value" (nlen stops before it). */
static const struct opt_spec *
find_long(const struct opts_cmd *cmd, const char *name, size_t nlen, bool *is_common)
{
	for (const struct opt_spec *s = cmd->own; s && (s->long_name || s->short_name); s++) {
		if (s->long_name && strlen(s->long_name) == nlen &&
		    !strncmp(s->long_name, name, nlen)) {
			*is_common = false;
			return s;
		}
	}
	for (size_t i = 0; i < N_COMMON; i++) {
		const struct opt_spec *s = &common_opts[i].spec;

		if (common_opts[i].mask && !(cmd->common & common_opts[i].mask))
			continue;
		if (strlen(s->long_name) == nlen && !strncmp(s->long_name, name, nlen)) {
			*is_common = true;
			return s;
		}
	}
	return NULL;
}

static const struct opt_spec *
find_short(const struct opts_cmd *cmd, char c, bool *is_common)
{
	for (const struct opt_spec *s = cmd->own; s && (s->long_name || s->short_name); s++) {
		if (s->short_name == c) {
			*is_common = false;
			return s;
		}
	}
	for (size_t i = 0; i < N_COMMON; i++) {
		const struct opt_spec *s = &common_opts[i].spec;

		if (common_opts[i].mask && !(cmd->common & common_opts[i].mask))
			continue;
		if (s->short_name == c) {
			*is_common = true;
			return s;
		}
	}
	return NULL;
}

static int
apply_common(struct opts *out, const struct opts_cmd *cmd, int id, const char *value)
{
	switch (id) {
	case C_FORMAT: {
		char list[160];

		if (report_format_parse(value, &out->format) < 0 ||
		    !((formats_of(cmd) >> out->format) & 1u)) {
			formats_list(list, sizeof(list), cmd, false);
			return opts_usage_error(cmd, "unknown format '%s': use %s", value, list);
		}
		out->format_set = true;
		return 0;
	}
	case C_STRICT: out->strict = true; return 0;
	case C_COLOR:
		if (!strcmp(value, "auto"))
			out->color = OPTS_COLOR_AUTO;
		else if (!strcmp(value, "always"))
			out->color = OPTS_COLOR_ALWAYS;
		else if (!strcmp(value, "never"))
			out->color = OPTS_COLOR_NEVER;
		else
			return opts_usage_error(cmd,
						"unknown --color value '%s':"
						" use auto, always or never",
						value);
		return 0;
	case C_QUIET: out->quiet = true; return 0;
	case C_VERBOSE: out->verbose++; return 0;
	case C_REPO: out->repo = value; return 0;
	case C_REF: out->ref = value; return 0;
	case C_STAGED: out->staged = true; return 0;
	case C_HELP: opts_help(stdout, cmd); return OPTS_HELP;
	}
	return 0;
}

static int
apply(struct opts *out, const struct opts_cmd *cmd, const struct opt_spec *s, bool is_common,
      const char *value)
{
	if (is_common)
		return apply_common(out, cmd, s->id, value);
	if (cmd->on_option && cmd->on_option(cmd->payload, s->id, value) < 0)
		return OPTS_EUSAGE;
	return 0;
}

int
opts_parse(struct opts *out, const struct opts_cmd *cmd, int argc, char **argv)
{
	bool only_args = false;
	int i, r;

	opts_init(out);
	/* Positional arguments are gathered in place at the front of argv
	 * (after argv[0]); argv is ours to reorder, as getopt does. */
	out->args = argv + 1;
	out->nargs = 0;
	for (i = 1; i < argc; i++) {
		char *a = argv[i];
		const struct opt_spec *s;
		bool is_common;

		if (only_args || a[0] != '-' || !a[1]) {
			out->args[out->nargs++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			only_args = true;
			continue;
		}
		if (a[1] == '-') {
			const char *name = a + 2, *eq = strchr(name, '=');
			size_t nlen = eq ? (size_t)(eq - name) : strlen(name);
			const char *value = NULL;

			s = find_long(cmd, name, nlen, &is_common);
			if (!s)
				return opts_usage_error(cmd, "unknown option '--%.*s'", (int)nlen,
							name);
			if (s->arg) {
				if (eq)
					value = eq + 1;
				else if (i + 1 < argc)
					value = argv[++i];
				else
					return opts_usage_error(cmd,
								"option '--%s' needs a"
								" value (%s)",
								s->long_name, s->arg);
			} else if (eq) {
				return opts_usage_error(cmd, "option '--%s' takes no value",
							s->long_name);
			}
			r = apply(out, cmd, s, is_common, value);
			if (r != 0)
				return r;
			continue;
		}
		/* One or more bundled short options; a value-taking one ends
		 * the bundle and takes the rest or the next argument. */
		for (const char *c = a + 1; *c; c++) {
			const char *value = NULL;

			s = find_short(cmd, *c, &is_common);
			if (!s) {
				if ((unsigned char)*c < 0x21 || (unsigned char)*c > 0x7e)
					return opts_usage_error(cmd, "unknown option in '%s'", a);
				return opts_usage_error(cmd, "unknown option '-%c'", *c);
			}
			if (s->arg) {
				if (c[1])
					value = c + 1;
				else if (i + 1 < argc)
					value = argv[++i];
				else
					return opts_usage_error(cmd,
								"option '-%c' needs a"
								" value (%s)",
								*c, s->arg);
			}
			r = apply(out, cmd, s, is_common, value);
			if (r != 0)
				return r;
			if (value)
				break;
		}
	}
	if (out->nargs < cmd->min_args)
		return opts_usage_error(cmd, "missing argument: usage: gpusite %s %s", cmd->name,
					cmd->usage);
	if (cmd->max_args == 0 && out->nargs > 0)
		return opts_usage_error(cmd, "takes no arguments (got '%s')", out->args[0]);
	if (cmd->max_args != OPTS_ANY && out->nargs > cmd->max_args)
		return opts_usage_error(cmd, "unexpected argument '%s'", out->args[cmd->max_args]);
	return OPTS_OK;
}

bool
opts_is_tty(FILE *stream)
{
	return isatty(fileno(stream)) == 1;
}

bool
opts_use_color(const struct opts *o, FILE *stream)
{
	const char *no_color = getenv("NO_COLOR"), *term = getenv("TERM");

	if (o->color == OPTS_COLOR_ALWAYS)
		return true;
	if (o->color == OPTS_COLOR_NEVER)
		return false;
	if (no_color && *no_color)
		return false;
	if (term && !strcmp(term, "dumb"))
		return false;
	return opts_is_tty(stream);
}

unsigned
opts_report_flags(const struct opts *o, FILE *stream)
{
	unsigned flags = 0;

	if (opts_use_color(o, stream))
		flags |= REPORT_COLOR;
	if (opts_is_tty(stream) || o->color == OPTS_COLOR_ALWAYS)
		flags |= REPORT_CARET;
	return flags;
}

struct pipeline_source
opts_source(const struct opts *o, const char *const *paths, size_t npaths)
{
	struct pipeline_source src = { o->repo, o->ref, o->staged, paths, npaths };

	return src;
}

/* Append the names of a comma-separated list (empty items skipped);
 * -1 when there is none at all. */
int
opts_names_add(struct arena *a, const char ***names, size_t *count, const char *value)
{
	const char *p = value;
	size_t before = *count;

	while (*p) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);

		if (n) {
			*names = arena_realloc(a, *names, *count * sizeof(**names),
					       (*count + 1) * sizeof(**names));
			(*names)[(*count)++] = arena_strndup(a, p, n);
		}
		p += n + (comma ? 1 : 0);
	}
	return *count > before ? 0 : -1;
}

int
opts_parse_ulong(unsigned long *out, const char *s, unsigned long min, unsigned long max)
{
	char *end;

	errno = 0;
	*out = strtoul(s, &end, 10);
	return !*s || *end || errno || *out < min || *out > max ? -1 : 0;
}
