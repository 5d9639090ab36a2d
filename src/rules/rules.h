/*
 * rules.h - the semantic checks of site-spec.md (GS004-GS063, GS1xx),
 * run on the typed model after the schema passed.  One file per rule or
 * family (rules/gsNNN_*.c), one row each in rules_table (rules/rules.c).
 */
#ifndef GS_RULES_H
#define GS_RULES_H

#include "base/diag.h"
#include "spec/spec.h"

struct arena;

/* Run every rule over every site and across the fleet; returns -1 when
 * any error was appended, else 0. */
int rules_check(struct arena *a, struct diags *d, const struct spec_fleet *fleet);

#endif
