/*
 * schema_pattern.c - the schemas' patterns, compiled once per process.
 *
 * One entry per distinct (pattern text, dialect), compiled through
 * src/regex/ the first time it is needed: at once for a schema that must
 * report a pattern it cannot use, on the first match for the built-in
 * schema (most of whose patterns a run never meets).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "regex/regex.h"
#include "schema/schema_int.h"

enum { PAT_TODO = 0, PAT_OK = 1, PAT_FAILED = -1 };

#define LAST_MAX 128 /* a longer value is not remembered */

struct schema_pattern {
	struct schema_pattern *next;
	char *src;
	enum regex_dialect dialect;
	int state; /* PAT_TODO, PAT_OK, PAT_FAILED */
	struct regex *re;
	/* The last value matched and its verdict: a fleet repeats values
	 * (regions, ARNs, label keys) site after site. */
	char last[LAST_MAX];
	size_t last_len; /* LAST_MAX: none */
	int last_rc;
};

#define PAT_BUCKETS 256
static struct schema_pattern *pat_table[PAT_BUCKETS];
static bool pat_atexit;
#ifdef ARENA_DEBUG
static const bool pat_free_at_exit = true;
#else
static const bool pat_free_at_exit = false;
#endif
static unsigned long pat_compiles;

static void
pat_free_all(void)
{
	size_t k;

	for (k = 0; k < PAT_BUCKETS; k++) {
		struct schema_pattern *p = pat_table[k], *next;

		for (; p; p = next) {
			next = p->next;
			regex_free(p->re);
			free(p->src);
			free(p);
		}
		pat_table[k] = NULL;
	}
}

static size_t
pat_hash(const char *s)
{
	size_t h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h % PAT_BUCKETS;
}

/* The cache entry for src, made (nothing compiled) when it is new. */
static struct schema_pattern *
pat_entry(const char *src, enum regex_dialect dialect)
{
	struct schema_pattern *p;
	size_t h = pat_hash(src);

	for (p = pat_table[h]; p; p = p->next)
		if (p->dialect == dialect && strcmp(p->src, src) == 0)
			return p;
	p = xcalloc(1, sizeof(*p));
	p->last_len = LAST_MAX;
	p->src = xstrdup(src);
	p->dialect = dialect;
	p->next = pat_table[h];
	pat_table[h] = p;
	/* A normal run leaves the compiled patterns to the exit (still
	 * reachable from pat_table); a debug build frees them for the leak
	 * checkers. */
	if (pat_free_at_exit && !pat_atexit) {
		atexit(pat_free_all);
		pat_atexit = true;
	}
	return p;
}

/* Compile p once; 0 when it is there.  On failure *err (when err is not
 * NULL) is a malloc'd message. */
static int
pat_build(struct schema_pattern *p, char **err)
{
	char why[256];

	if (p->state == PAT_TODO || (p->state == PAT_FAILED && err)) {
		regex_free(p->re);
		p->re = regex_compile(p->src, strlen(p->src), p->dialect, why, sizeof(why));
		pat_compiles++;
		p->state = p->re ? PAT_OK : PAT_FAILED;
		if (!p->re && err) {
			size_t n = strlen(p->src) + strlen(why) + 64;

			*err = xmalloc(n);
			snprintf(*err, n, "pattern '%s' is not a valid regular expression: %s",
				 p->src, why);
		}
	}
	return p->state == PAT_OK ? 0 : -1;
}

const struct schema_pattern *
schema_pattern_get(const char *src, enum regex_dialect dialect, char **err)
{
	struct schema_pattern *p = pat_entry(src, dialect);

	*err = NULL;
	return pat_build(p, err) == 0 ? p : NULL;
}

const struct schema_pattern *
schema_pattern_get_lazy(const char *src, enum regex_dialect dialect)
{
	return pat_entry(src, dialect);
}

int
schema_pattern_match(const struct schema_pattern *cp, const char *s, size_t len)
{
	/* The cache owns every entry; compiling on first use fills in an
	 * entry that callers hold as const. */
	struct schema_pattern *p = (struct schema_pattern *)cp;

	/* Only a lazy entry can fail here (schema_pattern_get() refuses
	 * the pattern); the built-in schema's all compile (its tests). */
	int rc;

	if (pat_build(p, NULL))
		return REGEX_NOMATCH;
	if (len == p->last_len && memcmp(s, p->last, len) == 0)
		return p->last_rc;
	rc = regex_match(p->re, s, len);
	if (len < LAST_MAX && (rc == REGEX_MATCH || rc == REGEX_NOMATCH)) {
		memcpy(p->last, s, len);
		p->last_len = len;
		p->last_rc = rc;
	}
	return rc;
}

unsigned long
schema_pattern_compiles(void)
{
	return pat_compiles;
}
