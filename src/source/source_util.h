/*
 * source_util.h - what every source of spec files shares, the work tree
 * (source_dir.c) as much as a revision or the index (source_git.c,
 * source_index.c): the spec file names, the two kinds of diagnostics and
 * the final order of the file set.  No libgit2 here.  Not for other
 * modules.
 */
#ifndef GS_SOURCE_UTIL_H
#define GS_SOURCE_UTIL_H

#include <stdbool.h>

#include "base/diag.h"
#include "source/source.h"

#define SOURCE_RULE_READ "GS001"  /* a file that cannot be taken as a spec */
#define SOURCE_RULE_PATH "GS006"  /* a symlink leading out, not a regular file */
#define SOURCE_RULE_FETCH "GS007" /* a path, revision, index or URL that cannot be read */

/* Whether `name` is a spec file name: *.yaml, *.yml. */
bool source__spec_name(const char *name);

/* Could not do the job: a diagnostic without a file or rule; returns
 * `code` (a negative source_err). */
int source__fail(struct diags *d, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A file that cannot be taken: a finding of `rule` at the file; the walk
 * goes on. */
void source__file_error(struct diags *d, const char *rule, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Sort the set by path and drop the files taken twice (a file named on
 * its own and again inside a directory argument). */
void source__set_finish(struct source_set *s);

#endif
