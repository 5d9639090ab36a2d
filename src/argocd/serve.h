/*
 * serve.h - `gpusite serve`: Argo CD's ApplicationSet plugin generator.
 *
 * The controller POSTs {"applicationSetName": ..., "input": {"parameters":
 * {...}}} to /api/v1/getparams.execute with "Authorization: Bearer
 * <token>" and takes {"output": {"parameters": [...]}} back, one element
 * per Application it should create.  Any other status keeps the
 * Applications it already has, so a repository whose specs do not validate
 * answers 503 with the diagnostics, never a shorter list.
 *
 * serve.c is the protocol: the token, the request body, the elements and
 * the snapshot of the fleet they come from (rebuilt every --refresh
 * seconds by a thread of its own and swapped under a lock; a request keeps
 * the snapshot it started with).  serve_http.c is the HTTP server
 * (libmicrohttpd, loaded when `serve` starts).
 */
#ifndef GS_SERVE_H
#define GS_SERVE_H

#include <stdbool.h>
#include <stddef.h>

#include "pipeline/pipeline.h"

struct arena;
struct node;

#define SERVE_MAX_BODY ((size_t)1 << 20)    /* request body; 413 beyond */
#define SERVE_MAX_TOKEN 4096                /* bytes of the token file */
#define SERVE_REFRESH_DEFAULT 60            /* seconds between reloads */
#define SERVE_TIMEOUT 30                    /* seconds a connection may idle */
#define SERVE_BODY_BUDGET ((size_t)4 << 20) /* bodies of all requests in flight; 503 beyond */
#define SERVE_HEADER_SECONDS 10             /* to send a request's headers */
#define SERVE_PER_ADDRESS 32                /* connections from one client address */

struct serve_config {
	struct pipeline_source src; /* --repo, --ref, PATH */
	const char *token_file;     /* --token-file */
	unsigned refresh;           /* --refresh seconds, >= 1 */
};

/* One input parameter of a request: its name and its JSON value. */
struct serve_param {
	const char *name;
	const struct node *value;
};

struct serve_request {
	const char *appset;         /* applicationSetName, or NULL */
	struct serve_param *params; /* in the order of the body */
	size_t nparams;
};

/*
 * Parse a request body.  Returns 0, or -1 with *why saying what is wrong
 * (the text of a 400 answer): not JSON, a key given twice in any object
 * or a \u0000 in any string (the JSON is read strictly: Argo CD's Go
 * decoder would keep the last of two keys), not an object, "input" or
 * "input.parameters" not an object, more parameters than serve takes.  Keys the
 * protocol does not name are ignored; "input" and its "parameters" may
 * be absent or null (no parameters).  Everything lives in `a`.
 */
int serve_parse_request(struct serve_request *out, struct arena *a, const char *body, size_t len,
			const char **why);

struct serve;

/* Read the token and build the first snapshot (whatever the specs say:
 * invalid specs are answered with 503).  Returns 0, or -1 with the reason
 * in err (the token file cannot be read or is empty). */
int serve_open(struct serve **out, const struct serve_config *cfg, char *err, size_t errlen);

/* Start / stop the thread that reloads the token and the specs. */
int serve_start_refresh(struct serve *s);
void serve_stop_refresh(struct serve *s);

void serve_close(struct serve *s);

/* A one-line summary of the current snapshot, for the log. */
void serve_describe(const struct serve *s, char *out, size_t outlen);

/* Reload now (the refresh thread calls this every --refresh seconds). */
void serve_reload(struct serve *s);

/* Have the refresh thread reload now instead of at the end of its period
 * (SIGHUP).  Safe from any thread but a signal handler. */
void serve_wake(struct serve *s);

struct serve_reply {
	int status;
	char *body; /* malloc'd */
	size_t len;
	const char *type;     /* Content-Type */
	const char *allow;    /* Allow header of a 405, else NULL */
	bool challenge;       /* WWW-Authenticate: Bearer (401) */
	unsigned retry_after; /* Retry-After seconds, 0 for none */
};

/*
 * Answer what the request line and the headers decide alone: /healthz,
 * an unknown path (404), another method (405), a missing or wrong token
 * (401, 403).  Returns true with `out` filled, or false when the answer
 * needs the body (serve_handle).  The HTTP server calls it as soon as the
 * headers arrive, so no body of a client without the token is ever read.
 */
bool serve_answer_head(struct serve_reply *out, struct serve *s, const char *method,
		       const char *url, const char *auth);

/* 503 with Retry-After: 1, when the bodies in flight already hold
 * SERVE_BODY_BUDGET bytes. */
void serve_reply_busy(struct serve_reply *out);

/*
 * Answer one request.  `auth` is the Authorization header or NULL;
 * `too_big` says the body was over SERVE_MAX_BODY (and `body` is not
 * all of it).  Safe to call from many threads at once.
 */
void serve_handle(struct serve_reply *out, struct serve *s, const char *method, const char *url,
		  const char *auth, const char *body, size_t len, bool too_big);
void serve_reply_free(struct serve_reply *r);

/* Whether the Authorization header `auth` carries the token `token`
 * (length `len`): 1 yes, 0 a wrong token, -1 none / not Bearer.  The
 * comparison takes the same time wherever the two differ. */
int serve_auth_check(const char *auth, const char *token, size_t len);

/*
 * The HTTP server (serve_http.c): listen on `addr` ("127.0.0.1:8080",
 * "[::1]:0", ":8080"), and on `health_addr` (NULL for none) with a small
 * server of its own that answers only GET /healthz, print the bound
 * addresses on stderr, answer with serve_handle() until SIGTERM or
 * SIGINT, then stop accepting, let the requests in flight finish and
 * return 0.  SIGHUP reads the token and the specs again (serve_wake).
 * Returns -2 with the reason in err for an address that is not one, -1
 * when it cannot listen.
 */
int serve_http_run(struct serve *s, const char *addr, const char *health_addr, char *err,
		   size_t errlen);

/* The version of libmicrohttpd (loaded for it, as `serve` loads it), or
 * "(not found: libmicrohttpd.so.12)", for --version. */
const char *serve_library_version(void);

#endif
