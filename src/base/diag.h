/*
 * diag.h - diagnostics: every problem the tool finds, with its place.
 *
 * Modules append diagnostics and go on, so one run reports everything;
 * they return an error code, and only the command layer picks the exit
 * code.  All strings are copied into the arena the list was made with.
 */
#ifndef GS_DIAG_H
#define GS_DIAG_H

#include <stdarg.h>
#include <stddef.h>

struct arena;

/* 1-based line and column; line 0 means "the file as a whole". */
struct pos {
	const char *file;
	unsigned line;
	unsigned col;
};

/* No position: no file, no line.  An initializer; as a value:
 * (struct pos)POS_NONE. */
#define POS_NONE                                                                                   \
	{                                                                                          \
		NULL, 0, 0                                                                         \
	}

enum diag_level {
	DIAG_NOTE = 0,
	DIAG_WARNING = 1,
	DIAG_ERROR = 2,
};

struct diag {
	enum diag_level level;
	struct pos at;
	const char *rule; /* "GS041"; never NULL */
	const char *path; /* JSON path in the document ("spec.fallback.gpuLimit") or "" */
	const char *msg;  /* one line, lower-case start, no final period */
	const char *site; /* metadata.name of the site concerned, or NULL */
};

struct diags {
	struct arena *arena;
	struct diag *items;
	size_t count;
	size_t alloc;
};

void diags_init(struct diags *d, struct arena *a);

/* Report the finding `rule` ("GS041"): the level is the one the table of
 * findings gives the ID (base/findings.c), never the caller's; an ID
 * without a row is reported as an error (test_catalogue and
 * mk/lint/finding-levels.sh fail on one).  Where one condition needs two
 * levels it has two IDs.  Returns -1 for an error, 0 otherwise, so
 * callers can write `return diag_report(...)` (git's error()). */
int diag_report(struct diags *d, struct pos at, const char *rule, const char *path, const char *fmt,
		...) __attribute__((format(printf, 5, 6)));
int diag_vreport(struct diags *d, struct pos at, const char *rule, const char *path,
		 const char *fmt, va_list ap) __attribute__((format(printf, 5, 0)));

/* Append a copy of `g` (level, place, rule, path, message and site), as
 * found: a level promoted by --strict stays promoted. */
void diag_copy(struct diags *to, const struct diag *g);

/* Append one diagnostic at the level given.  For the unit tests that
 * build a list of every level; nothing under src/ but this module calls
 * it (mk/lint/finding-levels.sh). */
int diag_add(struct diags *d, enum diag_level level, struct pos at, const char *rule,
	     const char *path, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
int diag_vadd(struct diags *d, enum diag_level level, struct pos at, const char *rule,
	      const char *path, const char *fmt, va_list ap) __attribute__((format(printf, 6, 0)));

/* Stable order: file, line, column, rule, message. */
void diags_sort(struct diags *d);
size_t diags_count(const struct diags *d, enum diag_level level);
const char *diag_level_name(enum diag_level level); /* "error", ... */

/* Turn warnings into errors (--strict). */
void diags_promote_warnings(struct diags *d);

#endif
