/*
 * gs00x_catalogue.c - rows of the catalogue whose checks live in other
 * modules: GS001/GS002 in yamlio (loading), GS003 in schema, GS006 in
 * source (the file walker).  Listed so reports see the whole catalogue.
 */
#include "rules/rules_int.h"

const struct rule rule_gs001 = {
	.id = "GS001",
	.level = DIAG_ERROR,
	.summary = "YAML is malformed, or a document is not a mapping",
};

const struct rule rule_gs002 = {
	.id = "GS002",
	.level = DIAG_ERROR,
	.summary = "duplicate mapping key",
};

const struct rule rule_gs003 = {
	.id = "GS003",
	.level = DIAG_ERROR,
	.summary = "schema violation: unknown field, wrong type, missing required "
		   "field, value out of range or not matching the pattern",
};

const struct rule rule_gs006 = {
	.id = "GS006",
	.level = DIAG_ERROR,
	.summary = "a spec path is a symlink that leads outside the repository "
		   "root, or not a regular file",
};
