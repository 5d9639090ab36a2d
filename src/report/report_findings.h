/*
 * report_findings.h - the --help lists of findings, generated from the
 * table of findings (base/findings.h) so that no command writes an ID or a
 * summary of its own.  docs/rules.md and the README's findings tables are
 * generated from the same table by `make docs-rules-update`
 * (mk/findings-gen.c).
 */
#ifndef GS_REPORT_FINDINGS_H
#define GS_REPORT_FINDINGS_H

#include <stddef.h>

#include "base/findings.h"

/* Width of a help line, and where a summary starts ("  GS201  "). */
#define REPORT_FINDINGS_WIDTH 78
#define REPORT_FINDINGS_INDENT 9

/* What goes around a help list. */
struct report_findings_help {
	const char *head; /* the text before the list */
	enum finding_source source;
	const char *strip; /* a prefix of the summaries the command's help
				 * leaves out ("drill plan: "), or NULL */
	const char *tail;  /* the text after the list */
};

/*
 * Write h->head, then one entry per finding of h->source in ID order
 * ("  GS201  summary", wrapped at REPORT_FINDINGS_WIDTH with the
 * continuation lines indented to the summary), then h->tail into
 * out[cap] (NUL-terminated).  Returns 0, or -1 when cap is too small (out
 * then holds the head alone, or "" when even that does not fit).
 */
int report_findings_help(char *out, size_t cap, const struct report_findings_help *h);

#endif
