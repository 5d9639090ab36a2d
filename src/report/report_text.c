/*
 * report_text.c - the compiler-style text format: `FILE:LINE:COL:
 * SEVERITY: MESSAGE [RULE]`, with the source line and a caret under the
 * column on a terminal (jq's locfile).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/secret.h"
#include "report/report_int.h"

/*
 * Finding a line in a file without rescanning it for every diagnostic:
 * diagnostics come sorted by file and line, so a cursor moves forward
 * and starts over only when the file changes or a line goes back.
 */
struct line_cursor {
	const struct source_file *file;
	unsigned line; /* line number at `off` */
	size_t off;    /* start of that line */
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
cursor_seek(struct line_cursor *c, const struct source_file *f, unsigned line, const char **start,
	    size_t *len)
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
#define REDACTED SECRET_REDACTED

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

	while (j > 0 && ds->items[j - 1].at.line == d->at.line && ds->items[j - 1].at.file &&
	       d->at.file && !strcmp(ds->items[j - 1].at.file, d->at.file))
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
put_caret(FILE *out, const char *line, size_t len, unsigned line_no, unsigned col,
	  unsigned mask_from, int color)
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

/* One diagnostic: its line, then its source line and caret when asked. */
static void
put_diag(FILE *out, const struct report_input *in, size_t i, unsigned flags,
	 struct line_cursor *cur, size_t *hint)
{
	const struct diag *d = &in->diags->items[i];
	int color = (flags & REPORT_COLOR) != 0;
	const struct source_file *f;
	const char *line;
	size_t len;

	if (color) {
		fputs("\033[1m", out);
		report_put_location(out, d);
		fprintf(out, ":\033[0m %s%s:\033[0m ", level_color(d->level),
			diag_level_name(d->level));
		report_put_safe(out, d->msg);
		report_put_rule(out, d);
	} else {
		report_put_diag_line(out, d);
	}
	fputc('\n', out);
	if (!(flags & REPORT_CARET) || !d->at.line)
		return;
	f = find_file(in->files, d->at.file, hint);
	if (f && cursor_seek(cur, f, d->at.line, &line, &len) == 0)
		put_caret(out, line, len, d->at.line, d->at.col ? d->at.col : 1,
			  mask_column(in->diags, i), color);
}

/*
 * Each diagnostic is composed in memory and written with one call: stderr
 * is unbuffered, and written piece by piece a diagnostic cost hundreds of
 * write(2) calls (the escaper writes a character at a time).  Unbuffered,
 * it still comes out at once, in order with what else goes to stderr.
 * Without the memory for it, the diagnostic is written directly.
 */
int
report_write_text(FILE *err, const struct report_input *in, unsigned flags)
{
	struct line_cursor cur = { NULL, 0, 0 };
	size_t hint = 0, n = in->diags ? in->diags->count : 0;

	for (size_t i = 0; i < n; i++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);

		if (m) {
			put_diag(m, in, i, flags, &cur, &hint);
			if (fclose(m) == 0)
				fwrite(buf, 1, len, err);
			else
				m = NULL;
			free(buf);
		}
		if (!m)
			put_diag(err, in, i, flags, &cur, &hint);
	}
	if (!(flags & REPORT_NO_SUMMARY) && (!(flags & REPORT_QUIET) || n > 0))
		report_summary(err, in);
	return ferror(err) ? -1 : 0;
}
