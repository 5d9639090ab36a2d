/*
 * report.h - diagnostics -> text (compiler style), json, github, sarif,
 * junit, markdown, as docs/design/commands.md says.
 */
#ifndef GS_REPORT_H
#define GS_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "base/diag.h"
#include "source/source.h"
#include "spec/spec.h"

enum report_format {
	REPORT_TEXT,
	REPORT_JSON,
	REPORT_GITHUB,
	REPORT_SARIF,
	REPORT_JUNIT,
	REPORT_MARKDOWN,
};
#define REPORT_FORMATS (REPORT_MARKDOWN + 1)

struct report_input {
	const struct diags *diags;      /* sorted */
	const struct source_set *files; /* for caret lines and per-file suites */
	const struct spec_fleet *fleet; /* for per-site test cases */
	size_t sites;                   /* sites read (valid or not) */
	const char *tool_name;          /* "gpusite validate" */
};

/* "text", "json", ... -> enum; -1 for an unknown name. */
int report_format_parse(const char *name, enum report_format *out);

/* enum -> "text", "json", ... */
const char *report_format_name(enum report_format fmt);

/*
 * Write the report.  `text` goes to `err` (compiler style, caret lines
 * when `color_or_tty`), every other format to `out`.  Returns 0 or -1
 * on a write error.
 */
int report_write(FILE *out, FILE *err, const struct report_input *in, enum report_format fmt,
		 bool color_or_tty);

/* Flags for report_write_flags(); report_write(..., true) is CARET|COLOR. */
enum report_flags {
	REPORT_CARET = 1 << 0,      /* text: the source line and a caret under the column */
	REPORT_COLOR = 1 << 1,      /* text: ANSI colours */
	REPORT_QUIET = 1 << 2,      /* text: no summary line when nothing was found */
	REPORT_NO_SUMMARY = 1 << 3, /* text: the diagnostics only (a run that
					 * could not do its job) */
};

int report_write_flags(FILE *out, FILE *err, const struct report_input *in, enum report_format fmt,
		       unsigned flags);

/* "gpusite: 1 error, 0 warnings (1 file, 1 site)" and a newline. */
int report_summary(FILE *out, const struct report_input *in);

/*
 * The Markdown table of every diagnostic and the summary (the markdown
 * format; also what the github format appends to $GITHUB_STEP_SUMMARY).
 * At most `max_rows` rows (0: all); a final line counts the rest.
 */
int report_write_markdown(FILE *out, const struct report_input *in, size_t max_rows);

/*
 * Open the job summary file $GITHUB_STEP_SUMMARY names for appending,
 * never blocking: a FIFO, a device or anything else that is not a
 * regular file is refused.  NULL after one warning line on stderr
 * ("TOOL: warning: ..."); the caller goes on without a summary.
 */
FILE *report_open_step_summary(const char *path, const char *tool);

/*
 * The one terminal-safe printer: control characters, C1 controls, invalid
 * UTF-8 and bidi formatting characters are written as escapes (\n, \x1b,
 * \u009b, \u202e), so text from outside stays one line and never drives
 * the terminal (report_escape.c).
 */
void report_put_safe(FILE *out, const char *s);

struct buf;

/*
 * Text from outside (a branch, a site or object name, a message) for
 * Markdown output, through the one Markdown escaper (report_escape.c):
 * one line; < > & as entities; \ ` * _ [ ] ~ | # ! after a backslash;
 * GFM's extended autolinks broken (the ':' of "://" and the '.' of "www."
 * as entities, a zero-width space after every '@'); bidi controls (U+061C, U+200E/F, U+202A..E,
 * U+2066..9) dropped; control characters as spaces; invalid UTF-8 as
 * U+FFFD.  0, or -1 when `b` is full.
 */
int report_md_text(struct buf *b, const char *s);

/* `s` as a Markdown code span (a fence longer than any backtick run in
 * it), the same characters dropped or replaced as report_md_text does. */
enum report_md_flags {
	REPORT_MD_CELL = 1 << 0, /* in a GFM table cell: '|' is written \| */
	REPORT_MD_PAD = 1 << 1,  /* a space each side inside the fence */
};
int report_md_code(struct buf *b, const char *s, unsigned flags);

/* Text from outside for HTML text or a quoted attribute value: & < > " '
 * as entities, bidi controls dropped, control characters as spaces,
 * invalid UTF-8 as U+FFFD. */
int report_html_text(struct buf *b, const char *s);

#endif
