/*
 * help.h - the paragraph each command's --help prints under its usage
 * line (struct opts_cmd's `about`); lines end in '\n'.
 */
#ifndef GS_CLI_HELP_H
#define GS_CLI_HELP_H

extern const char cli_help_diff[];
extern const char cli_help_drift_head[];
extern const char cli_help_drift_tail[];
extern const char cli_help_drill[];
extern const char cli_help_drill_plan_head[];
extern const char cli_help_drill_plan_tail[];
extern const char cli_help_drill_report[];
extern const char cli_help_drill_run[];
extern const char cli_help_explain[];
extern const char cli_help_generate[];
extern const char cli_help_hydrate[];
extern const char cli_help_init[];
extern const char cli_help_parameters[];
extern const char cli_help_render[];
extern const char cli_help_report[];
extern const char cli_help_schema[];
extern const char cli_help_serve[];
extern const char cli_help_validate[];
extern const char cli_help_verify_scope[];

#endif
