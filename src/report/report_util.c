/*
 * report_util.c - what every report writer shares: the format names, the
 * counts and the summary line, and one diagnostic as a line.
 */
#include <string.h>

#include "report/report_int.h"

static const char *const format_names[] = {
	[REPORT_TEXT] = "text",   [REPORT_JSON] = "json",   [REPORT_GITHUB] = "github",
	[REPORT_SARIF] = "sarif", [REPORT_JUNIT] = "junit", [REPORT_MARKDOWN] = "markdown",
};

int
report_format_parse(const char *name, enum report_format *out)
{
	for (size_t i = 0; i < sizeof(format_names) / sizeof(format_names[0]); i++) {
		if (name && !strcmp(name, format_names[i])) {
			*out = (enum report_format)i;
			return 0;
		}
	}
	return -1;
}

const char *
report_format_name(enum report_format fmt)
{
	return (unsigned)fmt < REPORT_FORMATS ? format_names[fmt] : "?";
}

size_t
report_count_errors(const struct report_input *in)
{
	return in->diags ? diags_count(in->diags, DIAG_ERROR) : 0;
}

size_t
report_count_warnings(const struct report_input *in)
{
	return in->diags ? diags_count(in->diags, DIAG_WARNING) : 0;
}

int
report_summary(FILE *out, const struct report_input *in)
{
	size_t e = report_count_errors(in), w = report_count_warnings(in);
	size_t f = in->files ? in->files->count : 0, s = in->sites;

	fprintf(out, "gpusite: %zu error%s, %zu warning%s (%zu file%s, %zu site%s)\n", e,
		e == 1 ? "" : "s", w, w == 1 ? "" : "s", f, f == 1 ? "" : "s", s,
		s == 1 ? "" : "s");
	return ferror(out) ? -1 : 0;
}

/* The location prefix: "FILE:LINE:COL", "FILE:LINE", "FILE" or "gpusite". */
void
report_put_location(FILE *out, const struct diag *d)
{
	if (!d->at.file || !*d->at.file) {
		fputs("gpusite", out);
		return;
	}
	report_put_safe(out, d->at.file);
	if (d->at.line) {
		fprintf(out, ":%u", d->at.line);
		if (d->at.col)
			fprintf(out, ":%u", d->at.col);
	}
}

void
report_put_rule(FILE *out, const struct diag *d)
{
	if (d->rule && *d->rule) {
		fputs(" [", out);
		report_put_safe(out, d->rule);
		fputc(']', out);
	}
}

void
report_put_diag_line(FILE *out, const struct diag *d)
{
	report_put_location(out, d);
	fprintf(out, ": %s: ", diag_level_name(d->level));
	report_put_safe(out, d->msg);
	report_put_rule(out, d);
}
