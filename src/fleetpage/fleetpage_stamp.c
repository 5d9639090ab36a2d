/*
 * fleetpage_stamp.c - what the page says of itself: the gpusite that made
 * it, from which specs (a path, a repository and revision, the index) and
 * at which commit when they came from Git, and when.  The time is
 * SOURCE_DATE_EPOCH when it is set (reproducible-builds.org: a page made
 * twice from the same specs is the same bytes), else the clock.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/arena.h"
#include "fleetpage/fleetpage.h"

#ifndef GPUSITE_VERSION
#define GPUSITE_VERSION "0.0.0"
#endif

/* SOURCE_DATE_EPOCH: decimal seconds since 1970, nothing else (the
 * specification asks a malformed value to fail, not to be guessed at). */
static int
epoch_from_env(time_t *out, const char *v)
{
	long long n = 0;

	if (!*v || strlen(v) > 12)
		return -1;
	for (const char *c = v; *c; c++) {
		if (*c < '0' || *c > '9')
			return -1;
		n = n * 10 + (*c - '0');
	}
	*out = (time_t)n;
	return 0;
}

int
fleetpage_stamp(struct fleetpage *fp, struct arena *a, const char *from, const char *commit,
		const char **why)
{
	const char *env = getenv("SOURCE_DATE_EPOCH");
	time_t t = time(NULL);
	struct tm tm;
	char at[32];

	if (env && epoch_from_env(&t, env) < 0) {
		*why = "SOURCE_DATE_EPOCH is not a whole number of seconds since 1970";
		return -1;
	}
	if (!gmtime_r(&t, &tm) || !strftime(at, sizeof(at), "%Y-%m-%dT%H:%M:%SZ", &tm)) {
		*why = "cannot format the time the page was made";
		return -1;
	}
	fp->made_version = GPUSITE_VERSION;
	fp->made_from = from ? arena_strdup(a, from) : NULL;
	fp->made_commit = commit && *commit ? arena_strdup(a, commit) : NULL;
	fp->made_at = arena_strdup(a, at);
	return 0;
}
