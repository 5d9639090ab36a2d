/*
 * report_schema.h - the field reference of docs/spec.md: every field of
 * the GPUSite schema built into the binary, its type, whether it is
 * required, its default, the rules that check it and its description, as
 * one Markdown table (`gpusite schema --reference`).
 */
#ifndef GS_REPORT_SCHEMA_H
#define GS_REPORT_SCHEMA_H

#include <stdio.h>

/* Write the table to out: 0, or -1 when the schema could not be read or
 * the table not written. */
int report_schema_reference(FILE *out);

#endif
