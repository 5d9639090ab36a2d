/*
 * schema_uri.c - the URIs of $id and $ref: resolving a reference against
 * a base URI and splitting off its fragment.
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "base/num.h"
#include "base/secret.h"
#include "base/strdist.h"
#include "base/utf8.h"
#include "json/json.h"
#include "schema/schema.h"
#include "schema/schema_int.h"

/* ------------------------------------------------------------------ */
/* URIs: just enough of RFC 3986 for $id and $ref */

const char *const schema_draft07_uri = "http://json-schema.org/draft-07/schema";

static size_t
scheme_len(const char *u)
{
	size_t i = 0;

	if (!((u[0] >= 'a' && u[0] <= 'z') || (u[0] >= 'A' && u[0] <= 'Z')))
		return 0;
	while (u[i] && u[i] != ':' && u[i] != '/' && u[i] != '?' && u[i] != '#')
		i++;
	return u[i] == ':' ? i + 1 : 0;
}

/* Remove "." and ".." segments of an absolute path in place. */
static void
remove_dots(char *path)
{
	char *in = path, *out = path;

	while (*in) {
		if (in[0] == '.' && (in[1] == '/' || in[1] == '\0') &&
		    (in == path || in[-1] == '/')) {
			in += in[1] ? 2 : 1;
			continue;
		}
		if (in[0] == '.' && in[1] == '.' && (in[2] == '/' || in[2] == '\0') &&
		    (in == path || in[-1] == '/')) {
			in += in[2] ? 3 : 2;
			/* drop the last output segment */
			if (out > path && out[-1] == '/')
				out--;
			while (out > path && out[-1] != '/')
				out--;
			continue;
		}
		*out++ = *in++;
	}
	*out = '\0';
}

char *
schema_uri_resolve(struct arena *a, const char *base, const char *ref)
{
	size_t sl, auth_end, path_end, k;
	const char *b;
	char *r;

	if (scheme_len(ref) || !base || !*base)
		return arena_strdup(a, ref);
	if (ref[0] == '#' || ref[0] == '\0') {
		const char *hash = strchr(base, '#');
		size_t n = hash ? (size_t)(hash - base) : strlen(base);

		return arena_printf(a, "%.*s%s", (int)n, base, ref);
	}
	sl = scheme_len(base);
	b = base + sl;
	auth_end = sl;
	if (b[0] == '/' && b[1] == '/') {
		auth_end = sl + 2;
		while (base[auth_end] && base[auth_end] != '/' && base[auth_end] != '?' &&
		       base[auth_end] != '#')
			auth_end++;
	}
	if (ref[0] == '/' && ref[1] == '/')
		return arena_printf(a, "%.*s%s", (int)sl, base, ref);
	if (ref[0] == '/') {
		r = arena_printf(a, "%.*s%s", (int)auth_end, base, ref);
		remove_dots(r + auth_end);
		return r;
	}
	/* Merge: the base path up to its last '/', then ref. */
	path_end = auth_end;
	while (base[path_end] && base[path_end] != '?' && base[path_end] != '#')
		path_end++;
	k = path_end;
	while (k > auth_end && base[k - 1] != '/')
		k--;
	if (k == auth_end && auth_end > sl)
		r = arena_printf(a, "%.*s/%s", (int)auth_end, base, ref);
	else
		r = arena_printf(a, "%.*s%s", (int)k, base, ref);
	remove_dots(r + auth_end);
	return r;
}

/* "doc#frag" -> doc (new string) and frag (NULL when there is none). */
char *
schema_uri_split(struct arena *a, const char *uri, const char **frag)
{
	const char *hash = strchr(uri, '#');

	if (!hash) {
		*frag = NULL;
		return arena_strdup(a, uri);
	}
	*frag = hash + 1;
	return arena_strndup(a, uri, (size_t)(hash - uri));
}
