/*
 * findings.h - the one table of findings: every diagnostic ID the program
 * reports, with its severity, the part of the program that reports it and
 * a one-line summary (base/findings.c).  Nothing else writes a summary or
 * a severity down: the rules (rules/rules.c) and drift (live/drift.c) take
 * theirs from here; docs/rules.md, the README's findings tables and every
 * --help list of findings are generated from it (`make
 * docs-rules-update`, report/report_findings.h).
 */
#ifndef GS_FINDINGS_H
#define GS_FINDINGS_H

#include <stddef.h>

#include "base/diag.h"

/* Who reports a finding; the order of docs/rules.md's "where they come
 * from" table. */
enum finding_source {
	FINDING_READ,         /* reading the specs: YAML, schema, the file walk */
	FINDING_RULE,         /* the rules over the site specs (rules/) */
	FINDING_PLUGIN,       /* the Argo CD plugin: generate, parameters */
	FINDING_CHECK,        /* validate --rendered (check/) */
	FINDING_SCOPE,        /* verify-scope (scope/) */
	FINDING_RENDER,       /* render, generate (render/) */
	FINDING_DRIFT,        /* drift (live/) */
	FINDING_DRILL_RUN,    /* drill run (drill/drill_run.h) */
	FINDING_DRILL_PLAN,   /* drill plan (drill/drill.h) */
	FINDING_DRILL_REPORT, /* drill report (drill/drill.h) */
	FINDING_KUBE,         /* reading the live cluster (kube/) */
	FINDING_SOURCES       /* the count */
};

struct finding {
	const char *id; /* "GS041" */
	enum diag_level level;
	enum finding_source source;
	const char *summary; /* one line, no '|', no final period */
};

/* Every finding in ID order. */
extern const struct finding findings_table[];
extern const size_t findings_count;

/* The row of `id`, or NULL (also for NULL). */
const struct finding *findings_find(const char *id);

#endif
