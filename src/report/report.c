/*
 * report.c - picking the format, the summary line, and the compiler-style
 * text format: `FILE:LINE:COL: SEVERITY: MESSAGE [RULE]`, with the source
 * line and a caret under the column on a terminal (jq's locfile).
 */
#include <string.h>

#include "report/report_int.h"

static const char *const format_names[] = {
	[REPORT_TEXT] = "text",
	[REPORT_JSON] = "json",
	[REPORT_GITHUB] = "github",
	[REPORT_SARIF] = "sarif",
	[REPORT_JUNIT] = "junit",
	[REPORT_MARKDOWN] = "markdown",
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

	fprintf(out, "gpusite: %zu error%s, %zu warning%s (%zu file%s, %zu site%s)\n",
		e, e == 1 ? "" : "s", w, w == 1 ? "" : "s",
		f, f == 1 ? "" : "s", s, s == 1 ? "" : "s");
	return ferror(out) ? -1 : 0;
}

/* The location prefix: "FILE:LINE:COL", "FILE:LINE", "FILE" or "gpusite". */
static void
put_location(FILE *out, const struct diag *d)
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

static void
put_rule(FILE *out, const struct diag *d)
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
	put_location(out, d);
	fprintf(out, ": %s: ", diag_level_name(d->level));
	report_put_safe(out, d->msg);
	put_rule(out, d);
}

/*
 * Finding a line in a file without rescanning it for every diagnostic:
 * diagnostics come sorted by file and line, so a cursor moves forward
 * and starts over only when the file changes or a line goes back.
 */
struct line_cursor {
	const struct source_file *file;
	unsigned line;		/* line number at `off` */
	size_t off;		/* start of that line */
};

static const struct source_file *
find_file(const struct source_set *set, const char *path, size_t *hint)
{
	if (!set || !path)
		return NULL;
	if (*hint < set->count && !strcmp(set->files[*hint].path, path))
		return &set->files[*hint];
	for (size_t i = 0; i < set->count; i++) {
		if (!strcmp(set->files[i].path, path)) {
			*hint = i;
			return &set->files[i];
		}
	}
	return NULL;
}

/* Start and length of line `line` (1-based), or -1 when past the end. */
static int
cursor_seek(struct line_cursor *c, const struct source_file *f, unsigned line,
	    const char **start, size_t *len)
{
	size_t end;

	if (c->file != f || line < c->line) {
		c->file = f;
		c->line = 1;
		c->off = 0;
	}
	while (c->line < line) {
		const char *nl = memchr(f->data + c->off, '\n', f->len - c->off);

		if (!nl)
			return -1;
		c->off = (size_t)(nl - f->data) + 1;
		c->line++;
	}
	if (c->off > f->len)
		return -1;
	end = c->off;
	while (end < f->len && f->data[end] != '\n')
		end++;
	if (end > c->off && f->data[end - 1] == '\r')
		end--;
	*start = f->data + c->off;
	*len = end - c->off;
	return 0;
}

/* What an excerpt shows in place of a secret. */
#define REDACTED "<redacted>"

/* Rules whose finding marks a secret at its place: the excerpt of that
 * line never shows the text from there on, whichever finding it is
 * printed under. */
static int
is_secret_rule(const char *rule)
{
	return rule && !strcmp(rule, "GS010");
}

/*
 * The column from which line `line` of `file` must be masked, or 0: the
 * smallest column of a secret finding on that line (1 when a finding is
 * about the line as a whole).  Diagnostics are sorted by file and line,
 * so the findings of one line sit together around index `i`.
 */
static unsigned
mask_column(const struct diags *ds, size_t i)
{
	const struct diag *d = &ds->items[i];
	unsigned col = 0;
	size_t j = i;

	while (j > 0 && ds->items[j - 1].at.line == d->at.line &&
	       ds->items[j - 1].at.file && d->at.file &&
	       !strcmp(ds->items[j - 1].at.file, d->at.file))
		j--;
	for (; j < ds->count; j++) {
		const struct diag *o = &ds->items[j];

		if (o->at.line != d->at.line || !o->at.file || !d->at.file ||
		    strcmp(o->at.file, d->at.file))
			break;
		if (is_secret_rule(o->rule)) {
			unsigned c = o->at.col ? o->at.col : 1;

			if (!col || c < col)
				col = c;
		}
	}
	return col;
}

/* Characters shown around the column of a long line. */
#define CARET_BEFORE 60
#define CARET_WIDTH 160

/*
 * Print the source line and a caret under column `col` (code points,
 * 1-based).  Control characters and invalid bytes show as '?', tabs stay
 * tabs so the caret lines up; a long line is cut to a window around the
 * column.  From column `mask_from` on (0: none) the line is shown as
 * REDACTED: a secret was found there.
 */
static void
put_caret(FILE *out, const char *line, size_t len, unsigned line_no,
	  unsigned col, unsigned mask_from, int color)
{
	const unsigned char *s = (const unsigned char *)line, *e = s + len;
	unsigned first = 1, k = 1;
	char gutter[24];
	int gw;

	if (col > CARET_BEFORE + 40)
		first = col - CARET_BEFORE;
	gw = snprintf(gutter, sizeof(gutter), "%5u", line_no);
	fprintf(out, "%s | ", gutter);
	if (first > 1)
		fputs("...", out);
	/* the line */
	while (s < e && k < first + CARET_WIDTH) {
		size_t n = report_utf8_len(s);
		int bad = n == 0 || s + n > e;

		if (bad)
			n = 1;
		if (k >= first) {
			if (mask_from && k >= mask_from) {
				fputs(REDACTED, out);
				break;
			}
			if (*s == '\t')
				fputc('\t', out);
			else if (bad || *s < 0x20 || *s == 0x7f ||
				 (n == 2 && s[0] == 0xc2 && s[1] < 0xa0) ||
				 (n > 1 && report_bidi_at(s)))
				fputc('?', out);
			else
				fwrite(s, 1, n, out);
		}
		s += n;
		k++;
	}
	if (s < e && !(mask_from && k >= mask_from))
		fputs("...", out);
	fputc('\n', out);
	/* the caret line */
	fprintf(out, "%*s | ", gw, "");
	if (first > 1)
		fputs("   ", out);
	s = (const unsigned char *)line;
	k = 1;
	while (k < col) {
		size_t n = s < e ? report_utf8_len(s) : 1;

		if (n == 0 || s + n > e)
			n = 1;
		if (k >= first)
			fputc(s < e && *s == '\t' ? '\t' : ' ', out);
		if (s < e)
			s += n;
		k++;
	}
	fputs(color ? "\033[1;32m^\033[0m\n" : "^\n", out);
}

static const char *
level_color(enum diag_level level)
{
	switch (level) {
	case DIAG_ERROR: return "\033[1;31m";
	case DIAG_WARNING: return "\033[1;35m";
	default: return "\033[1;36m";
	}
}

int
report_write_text(FILE *err, const struct report_input *in, unsigned flags)
{
	struct line_cursor cur = { NULL, 0, 0 };
	size_t hint = 0, n = in->diags ? in->diags->count : 0;
	int color = (flags & REPORT_COLOR) != 0;

	for (size_t i = 0; i < n; i++) {
		const struct diag *d = &in->diags->items[i];
		const struct source_file *f;
		const char *line;
		size_t len;

		if (color) {
			fputs("\033[1m", err);
			put_location(err, d);
			fprintf(err, ":\033[0m %s%s:\033[0m ", level_color(d->level),
				diag_level_name(d->level));
			report_put_safe(err, d->msg);
			put_rule(err, d);
		} else {
			report_put_diag_line(err, d);
		}
		fputc('\n', err);
		if (!(flags & REPORT_CARET) || !d->at.line)
			continue;
		f = find_file(in->files, d->at.file, &hint);
		if (f && cursor_seek(&cur, f, d->at.line, &line, &len) == 0)
			put_caret(err, line, len, d->at.line, d->at.col ? d->at.col : 1,
				  mask_column(in->diags, i), color);
	}
	if (!(flags & REPORT_NO_SUMMARY) && (!(flags & REPORT_QUIET) || n > 0))
		report_summary(err, in);
	return ferror(err) ? -1 : 0;
}

int
report_write_flags(FILE *out, FILE *err, const struct report_input *in,
		   enum report_format fmt, unsigned flags)
{
	switch (fmt) {
	case REPORT_TEXT:
		return report_write_text(err, in, flags);
	case REPORT_JSON:
		return report_write_json(out, in);
	case REPORT_GITHUB:
		return report_write_github(out, in);
	case REPORT_SARIF:
		return report_write_sarif(out, in);
	case REPORT_JUNIT:
		return report_write_junit(out, in);
	case REPORT_MARKDOWN:
		return report_write_markdown(out, in, 0);
	}
	return -1;
}

int
report_write(FILE *out, FILE *err, const struct report_input *in,
	     enum report_format fmt, bool color_or_tty)
{
	return report_write_flags(out, err, in, fmt,
				  color_or_tty ? REPORT_CARET | REPORT_COLOR : 0);
}
