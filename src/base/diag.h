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

/* Append one diagnostic.  Returns -1 for DIAG_ERROR, 0 otherwise, so
 * callers can write `return diag_add(...)` (git's error()). */
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
