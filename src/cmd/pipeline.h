/*
 * pipeline.h - the road every reading command takes:
 * file set -> yamlio -> schema -> spec -> rules.
 */
#ifndef GS_PIPELINE_H
#define GS_PIPELINE_H

#include "base/diag.h"
#include "source/source.h"
#include "spec/spec.h"

struct arena;

struct pipeline {
	struct arena *arena;
	struct diags diags;		/* everything found, in file order */
	const struct source_set *files;
	struct spec_fleet fleet;	/* sites that passed the schema */
	size_t docs;			/* documents read */
};

/*
 * Run the whole road over `files`.  Sites whose document failed the
 * schema are left out of the fleet (their diagnostics are kept).
 * Returns 0 when no error diagnostic was appended, else -1.
 */
int pipeline_load(struct pipeline *p, struct arena *a,
		  const struct source_set *files);

#endif
