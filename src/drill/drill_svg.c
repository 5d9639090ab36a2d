/*
 * drill_svg.c - the drill's timeline chart: one row per term, the budget
 * bar above the measured bar, both at the same pixels per second (the
 * root's data-px-per-second), each with an id and data-seconds a test
 * can read back.  Text is escaped; the chart is plain SVG 1.1.
 */
#include <stdio.h>
#include <string.h>

#include "base/buf.h"
#include "drill/drill.h"
#include "spec/spec.h"

#define WIDTH 760
#define LABEL 160 /* left column: the term names */
#define BARS (WIDTH - LABEL - 120)
#define ROW 44

int
drill_xml_escape(struct buf *out, const char *s)
{
	int rc = 0;

	for (; s && *s; s++) {
		switch (*s) {
		case '&': rc |= buf_adds(out, "&amp;"); break;
		case '<': rc |= buf_adds(out, "&lt;"); break;
		case '>': rc |= buf_adds(out, "&gt;"); break;
		case '"': rc |= buf_adds(out, "&quot;"); break;
		case '\'': rc |= buf_adds(out, "&apos;"); break;
		default:
			/* control bytes are not XML characters */
			rc |= buf_addch(out, (unsigned char)*s < 0x20 ? ' ' : *s);
		}
	}
	return rc;
}

int
drill_report_svg(struct buf *out, const struct drill_report_input *in)
{
	const struct drill_terms *t = in->terms;
	int64_t max = 1;
	double scale;
	int height = 70 + ROW * (DRILL_TERM_COUNT + 1), rc = 0;
	char d[SPEC_DURATION_BUFSZ];

	for (int i = 0; i < DRILL_TERM_COUNT; i++) {
		const struct drill_term_result *r = &t->terms[i];

		if (r->applies && r->budget > max)
			max = r->budget;
		if (r->applies && r->known && r->measured > max)
			max = r->measured;
	}
	scale = (double)BARS / (double)max;
	rc |= buf_printf(out,
			 "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
			 "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\""
			 " height=\"%d\" viewBox=\"0 0 %d %d\" data-px-per-second=\"%.6f\">\n",
			 WIDTH, height, WIDTH, height, scale);
	rc |= buf_adds(out, "<title>");
	rc |= drill_xml_escape(out, in->site);
	rc |= buf_printf(out, " - %s drill: budget against measured</title>\n",
			 drill_scenario_name(t->scenario));
	rc |= buf_printf(out,
			 "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n",
			 WIDTH, height);
	rc |= buf_adds(out, "<text x=\"10\" y=\"24\" font-family=\"sans-serif\" font-size=\"16\">");
	rc |= drill_xml_escape(out, in->site);
	rc |= buf_printf(out, " (%s): budget (grey) against measured</text>\n",
			 drill_scenario_name(t->scenario));
	for (int i = 0; i < DRILL_TERM_COUNT; i++) {
		const struct drill_term_result *r = &t->terms[i];
		const char *name = drill_term_name(r->term);
		int y = 50 + ROW * i;
		bool over = r->known && r->applies && r->measured > r->budget;

		rc |= buf_printf(out,
				 "<g id=\"term-%s\">\n<text x=\"10\" y=\"%d\" font-family="
				 "\"sans-serif\" font-size=\"13\">%s</text>\n",
				 name, y + 18, name);
		rc |= buf_printf(
			out,
			"<rect id=\"budget-%s\" class=\"budget\" x=\"%d\" y=\"%d\""
			" width=\"%.3f\" height=\"14\" fill=\"#b0b0b0\" data-seconds=\"%lld\"/>\n",
			name, LABEL, y, (r->applies ? r->budget : 0) * scale,
			(long long)(r->applies ? r->budget : 0));
		if (r->applies && !r->known) {
			rc |= buf_printf(out,
					 "<text id=\"measured-%s\" class=\"unknown\" x=\"%d\""
					 " y=\"%d\" font-family=\"sans-serif\" font-size=\"12\""
					 " data-seconds=\"unknown\">unknown: ",
					 name, LABEL, y + 30);
			rc |= drill_xml_escape(out, r->reason);
			rc |= buf_adds(out, "</text>\n</g>\n");
			continue;
		}
		rc |= buf_printf(
			out,
			"<rect id=\"measured-%s\" class=\"measured\" x=\"%d\" y=\"%d\""
			" width=\"%.3f\" height=\"14\" fill=\"%s\" data-seconds=\"%lld\"/>\n",
			name, LABEL, y + 18, (r->applies ? r->measured : 0) * scale,
			over ? "#d62728" : "#2ca02c", (long long)(r->applies ? r->measured : 0));
		spec_duration_format(d, sizeof(d), r->applies ? r->measured : 0);
		rc |= buf_printf(out,
				 "<text x=\"%.3f\" y=\"%d\" font-family=\"sans-serif\""
				 " font-size=\"12\">%s%s</text>\n</g>\n",
				 LABEL + (r->applies ? r->measured : 0) * scale + 6, y + 30,
				 r->applies ? d : "absent in a drain", over ? " (over)" : "");
	}
	{
		int y = 50 + ROW * DRILL_TERM_COUNT + 18;

		rc |= buf_printf(out,
				 "<text id=\"total\" x=\"10\" y=\"%d\" font-family=\"sans-serif\""
				 " font-size=\"13\" data-seconds=\"",
				 y);
		rc |= t->total_known ? buf_printf(out, "%lld", (long long)t->total)
				     : buf_adds(out, "unknown");
		rc |= buf_printf(out, "\" data-target-seconds=\"%lld\">total ",
				 (long long)t->target);
		if (t->total_known) {
			spec_duration_format(d, sizeof(d), t->total);
			rc |= buf_adds(out, d);
		} else {
			rc |= buf_adds(out, "unknown");
		}
		if (t->target) {
			spec_duration_format(d, sizeof(d), t->target);
			rc |= buf_printf(out, " against targetRTO %s%s", d,
					 !t->total_known    ? ""
					 : t->within_target ? ": within"
							    : ": OVER");
		}
		rc |= buf_adds(out, "</text>\n</svg>\n");
	}
	return rc ? BUF_ETOOBIG : 0;
}
