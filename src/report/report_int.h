/*
 * report_int.h - helpers shared by the report formats (not for other
 * modules): escaping for terminals, XML, Markdown and GitHub workflow
 * commands, and the site a diagnostic belongs to.
 */
#ifndef GS_REPORT_INT_H
#define GS_REPORT_INT_H

#include <stdio.h>

#include "report/report.h"

struct node;

/* Length of the valid UTF-8 sequence at s (1..4), 0 when invalid. */
size_t report_utf8_len(const unsigned char *s);

/* The code point of the bidi formatting character (U+061C, U+200E/F,
 * U+202A..U+202E, U+2066..U+2069) starting at s, else 0. */
unsigned report_bidi_at(const unsigned char *s);

/* XML character data (attr: attribute value, newlines as &#10;);
 * characters XML 1.0 forbids and invalid UTF-8 become U+FFFD. */
void report_put_xml(FILE *out, const char *s, int attr);

/* A Markdown table cell: one line, | \ ` * _ [ ] < > & escaped. */
void report_put_md(FILE *out, const char *s);

/* GitHub workflow command data (% \r \n) and properties (also : ,). */
void report_put_gh_data(FILE *out, const char *s);
void report_put_gh_prop(FILE *out, const char *s);

/* One diagnostic as a plain text line, no colour, no newline. */
void report_put_diag_line(FILE *out, const struct diag *d);
/* Its parts: "FILE:LINE:COL" (or "gpusite"), and " [RULE]" (or nothing). */
void report_put_location(FILE *out, const struct diag *d);
void report_put_rule(FILE *out, const struct diag *d);

/* `root` as one line of JSON and a newline (json and sarif): 0, or -1
 * when it is over the size cap of a report or cannot be written. */
int report_put_json(FILE *out, const struct node *root);

size_t report_count_errors(const struct report_input *in);
size_t report_count_warnings(const struct report_input *in);

int report_write_text(FILE *err, const struct report_input *in, unsigned flags);
int report_write_json(FILE *out, const struct report_input *in);
int report_write_github(FILE *out, const struct report_input *in);
int report_write_sarif(FILE *out, const struct report_input *in);
int report_write_junit(FILE *out, const struct report_input *in);

#endif
