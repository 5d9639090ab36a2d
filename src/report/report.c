/*
 * report.c - the dispatcher: a report in the format asked for, by the
 * writer of that format (report_text.c, report_json.c, report_github.c,
 * report_sarif.c, report_junit.c); what they share is report_util.c's and
 * report_escape.c's.
 */
#include "report/report_int.h"

int
report_write_flags(FILE *out, FILE *err, const struct report_input *in, enum report_format fmt,
		   unsigned flags)
{
	switch (fmt) {
	case REPORT_TEXT: return report_write_text(err, in, flags);
	case REPORT_JSON: return report_write_json(out, in);
	case REPORT_GITHUB: return report_write_github(out, in);
	case REPORT_SARIF: return report_write_sarif(out, in);
	case REPORT_JUNIT: return report_write_junit(out, in);
	case REPORT_MARKDOWN: return report_write_markdown(out, in, 0);
	}
	return -1;
}

int
report_write(FILE *out, FILE *err, const struct report_input *in, enum report_format fmt,
	     bool color_or_tty)
{
	return report_write_flags(out, err, in, fmt,
				  color_or_tty ? REPORT_CARET | REPORT_COLOR : 0);
}
