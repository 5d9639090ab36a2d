/*
 * spec_starter.h - the starter site spec of `gpusite init`.
 */
#ifndef GS_SPEC_STARTER_H
#define GS_SPEC_STARTER_H

struct buf;

/* Where `gpusite schema` output goes, below the repository's top. */
#define SPEC_SCHEMA_PATH "schemas/gpusite.v1alpha1.schema.json"

/*
 * Append the starter spec of site `name` (a DNS-1123 label) to `b`, its
 * editor's schema at `schema` (relative to the spec's file).  Its values
 * pass every rule without a warning.  0, or negative when `b` is full.
 */
int spec_starter(struct buf *b, const char *name, const char *schema);

#endif
