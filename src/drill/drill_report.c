/*
 * drill_report.c - the measured terms against the budget: text,
 * Markdown and JSON (drill.h has the JSON shape).
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "drill/drill.h"
#include "json/json.h"
#include "node/node.h"
#include "report/report.h"
#include "spec/spec.h"

static const char *
dur(char *b, size_t n, int64_t s)
{
	spec_duration_format(b, n, s);
	return b;
}

static int
jstr(struct buf *out, const char *s)
{
	struct node n;

	memset(&n, 0, sizeof(n));
	n.kind = NODE_SCALAR;
	n.type = NODE_STR;
	n.scalar.text = s ? s : "";
	n.scalar.len = strlen(n.scalar.text);
	return json_write(out, &n, 0);
}

/* "OK", "OVER by 1m0s", "" for a term that cannot be judged. */
static const char *
verdict(char *b, size_t n, const struct drill_term_result *t)
{
	char d[SPEC_DURATION_BUFSZ];

	if (!t->applies || !t->known)
		return "";
	if (t->measured <= t->budget)
		return "OK";
	snprintf(b, n, "OVER by %s", dur(d, sizeof(d), t->measured - t->budget));
	return b;
}

static const char *
measured(char *b, size_t n, const struct drill_term_result *t)
{
	char d[SPEC_DURATION_BUFSZ];

	if (!t->applies)
		return "absent";
	if (!t->known)
		return "unknown";
	snprintf(b, n, "%s", dur(d, sizeof(d), t->measured));
	return b;
}

static void
total_line(char *b, size_t n, const struct drill_terms *t)
{
	char d[SPEC_DURATION_BUFSZ], e[SPEC_DURATION_BUFSZ];

	if (!t->total_known)
		snprintf(b, n, "unknown: a term is unknown, so the total cannot be judged");
	else if (!t->target)
		snprintf(b, n, "no targetRTO to compare with");
	else if (t->within_target)
		snprintf(b, n, "OK: %s within targetRTO %s",
			 dur(d, sizeof(d), t->target - t->total), dur(e, sizeof(e), t->target));
	else
		snprintf(b, n, "OVER targetRTO %s by %s", dur(e, sizeof(e), t->target),
			 dur(d, sizeof(d), t->total - t->target));
}

/* Whether a scoped pool's work stayed off the failover pool, one
 * sentence ("burst work stayed off the fallback: ..."). */
static const char *
scope_line(char *b, size_t n, const struct drill_scope_check *k)
{
	if (!k->on_failover)
		snprintf(b, n,
			 "%s work stayed off the %s: none of the %zu running Pods of the"
			 " %s scope is on a %s node",
			 k->noun, k->failover_noun, k->pods, k->noun, k->failover_noun);
	else
		snprintf(b, n,
			 "%s work did NOT stay off the %s: %zu of %zu Pods of the %s"
			 " scope on %s nodes (%s)",
			 k->noun, k->failover_noun, k->on_failover, k->pods, k->noun,
			 k->failover_noun, k->offender);
	return b;
}

int
drill_report_text(struct buf *out, const struct drill_report_input *in)
{
	const struct drill_terms *t = in->terms;
	char b1[64], b2[64], b3[SPEC_DURATION_BUFSZ], line[160], bl[512];
	int rc = 0;

	rc |= buf_printf(out, "drill report: site %s, scenario %s (%s)\n", in->site,
			 drill_scenario_name(t->scenario), in->source);
	rc |= buf_printf(out, "  %-18s %10s %10s\n", "term", "budget", "measured");
	for (int i = 0; i < DRILL_TERM_COUNT; i++) {
		const struct drill_term_result *r = &t->terms[i];

		rc |= buf_printf(out, "  %-18s %10s %10s", drill_term_name(r->term),
				 r->applies ? dur(b3, sizeof(b3), r->budget) : "-",
				 measured(b1, sizeof(b1), r));
		if (!r->applies)
			rc |= buf_adds(out, "  (no heartbeat is missed in a drain)\n");
		else if (!r->known)
			rc |= buf_printf(out, "  (%s)\n", r->reason);
		else
			rc |= buf_printf(out, "  %s\n", verdict(b2, sizeof(b2), r));
	}
	total_line(line, sizeof(line), t);
	rc |= buf_printf(out, "  %-18s %10s %10s  %s\n", "total",
			 dur(b3, sizeof(b3),
			     t->terms[0].budget + t->terms[1].budget + t->terms[2].budget +
				     t->terms[3].budget + t->terms[4].budget),
			 t->total_known ? dur(b1, sizeof(b1), t->total) : "unknown", line);
	for (size_t i = 0; i < in->scope_check_count; i++)
		rc |= buf_printf(out, "  %s\n", scope_line(bl, sizeof(bl), &in->scope_checks[i]));
	return rc ? BUF_ETOOBIG : 0;
}

int
drill_report_markdown(struct buf *out, const struct drill_report_input *in)
{
	const struct drill_terms *t = in->terms;
	char b1[64], b2[64], b3[SPEC_DURATION_BUFSZ], line[160], bl[512];
	int rc = 0;

	/* the site comes from a record file: through the one Markdown escaper */
	rc |= buf_adds(out, "### Drill report: ");
	rc |= report_md_code(out, in->site, 0);
	rc |= buf_printf(out, " (%s)\n\n", drill_scenario_name(t->scenario));
	rc |= buf_adds(out, "| term | budget | measured | |\n|---|---:|---:|---|\n");
	for (int i = 0; i < DRILL_TERM_COUNT; i++) {
		const struct drill_term_result *r = &t->terms[i];

		rc |= buf_printf(out, "| `%s` | %s | %s | %s |\n", drill_term_name(r->term),
				 r->applies ? dur(b3, sizeof(b3), r->budget) : "-",
				 measured(b1, sizeof(b1), r),
				 !r->applies ? "no heartbeat is missed in a drain"
				 : !r->known ? r->reason
					     : verdict(b2, sizeof(b2), r));
	}
	total_line(line, sizeof(line), t);
	rc |= buf_printf(out, "| **total** | %s | %s | %s |\n",
			 dur(b3, sizeof(b3),
			     t->terms[0].budget + t->terms[1].budget + t->terms[2].budget +
				     t->terms[3].budget + t->terms[4].budget),
			 t->total_known ? dur(b1, sizeof(b1), t->total) : "unknown", line);
	for (size_t i = 0; i < in->scope_check_count; i++)
		rc |= buf_printf(out, "%s%s\n", i ? "" : "\n",
				 scope_line(bl, sizeof(bl), &in->scope_checks[i]));
	return rc ? BUF_ETOOBIG : 0;
}

int
drill_report_json(struct buf *out, const struct drill_report_input *in)
{
	const struct drill_terms *t = in->terms;
	int rc = 0;

	rc |= buf_adds(out, "{\"site\":");
	rc |= jstr(out, in->site);
	rc |= buf_printf(out, ",\"scenario\":\"%s\",\"terms\":[", drill_scenario_name(t->scenario));
	for (int i = 0; i < DRILL_TERM_COUNT; i++) {
		const struct drill_term_result *r = &t->terms[i];

		rc |= buf_printf(out, "%s{\"name\":\"%s\",\"budgetSeconds\":%lld,", i ? "," : "",
				 drill_term_name(r->term), (long long)(r->applies ? r->budget : 0));
		if (!r->applies)
			rc |= buf_adds(out, "\"measuredSeconds\":0}");
		else if (r->known)
			rc |= buf_printf(out, "\"measuredSeconds\":%lld}", (long long)r->measured);
		else {
			rc |= buf_adds(out, "\"measuredSeconds\":null,\"reason\":");
			rc |= jstr(out, r->reason);
			rc |= buf_adds(out, "}");
		}
	}
	rc |= buf_adds(out, "],\"totalSeconds\":");
	rc |= t->total_known ? buf_printf(out, "%lld", (long long)t->total) : buf_adds(out, "null");
	rc |= buf_adds(out, ",\"targetSeconds\":");
	rc |= t->target ? buf_printf(out, "%lld", (long long)t->target) : buf_adds(out, "null");
	rc |= buf_adds(out, ",\"withinTarget\":");
	rc |= !t->total_known || !t->target ? buf_adds(out, "null")
					    : buf_adds(out, t->within_target ? "true" : "false");
	for (size_t i = 0; i < in->scope_check_count; i++) {
		const struct drill_scope_check *k = &in->scope_checks[i];

		/* "burstPods", "burstOnFallback": the nouns are the inventory's
		 * lower-case words, so the first letter's upper case is ASCII */
		rc |= buf_printf(out, ",\"%sPods\":%zu,\"%sOn%c%s\":%zu", k->noun, k->pods, k->noun,
				 toupper((unsigned char)k->failover_noun[0]), k->failover_noun + 1,
				 k->on_failover);
	}
	rc |= buf_adds(out, "}\n");
	return rc ? BUF_ETOOBIG : 0;
}

const char *
drill_over_target(struct arena *a, const struct spec_site *s, const struct drill_terms *terms)
{
	char d1[SPEC_DURATION_BUFSZ], d2[SPEC_DURATION_BUFSZ];

	if (!terms->total_known || !terms->target || terms->within_target)
		return NULL;
	spec_duration_format(d1, sizeof(d1), terms->total);
	spec_duration_format(d2, sizeof(d2), terms->target);
	return arena_printf(a,
			    "site %s recovered in %s, over its targetRTO %s; shorten the terms"
			    " over budget [%s]",
			    s->name, d1, d2, DRILL_OVER_TARGET);
}
