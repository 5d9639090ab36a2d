/*
 * live_schemas.h - the schemas of the cluster for `validate --rendered
 * --live`: its CRDs and its OpenAPI v3 documents (live_schemas.c).
 */
#ifndef GS_PIPELINE_LIVE_SCHEMAS_H
#define GS_PIPELINE_LIVE_SCHEMAS_H

#include <stdbool.h>

struct arena;
struct diags;
struct check_upstream;
struct live_opts;
struct live_schemas;

/*
 * Open the cluster of --kubeconfig/--context, add its CRDs to `u` and
 * have `u` ask for its OpenAPI v3 documents as kinds are looked up.
 * Returns 0, or -3 after a diagnostic in `d` (the cluster could not be
 * read).  live_schemas_close() when the check is done.
 */
int live_schemas_open(struct live_schemas **out, struct check_upstream *u, struct arena *a,
		      struct diags *d, const struct live_opts *lo, bool verbose);
void live_schemas_close(struct live_schemas *ls);

#endif
