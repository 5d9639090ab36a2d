/*
 * serve_http.c - the HTTP server of `gpusite serve`, through
 * libmicrohttpd (the only file that includes microhttpd.h).
 *
 * libmicrohttpd is loaded (dlopen of libmicrohttpd.so.12) when `serve`
 * starts, never linked, like libcurl (kube_curl.c) and libgit2
 * (source_git2.c): no other command pays for it at start-up (t6500).
 *
 * A pool of threads answers requests; each request's body is gathered up
 * to SERVE_MAX_BODY (a larger Content-Length is refused at once, a
 * larger chunked body once it is read), then serve_handle() answers.
 * One line per request goes to stderr when it completes: method, path,
 * status, duration, with control characters escaped; never a header.
 */
#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "argocd/serve.h"
#include "base/xalloc.h"

#define SERVE_THREADS 4
#define SERVE_CONNECTIONS 256
#define SERVE_HEALTH_CONNECTIONS 32 /* the --health-listen server */
#define SERVE_HEALTH_PER_ADDRESS 4
#define SERVE_DRAIN_SECONDS 30 /* how long SIGTERM waits for requests in flight */

/* The functions of libmicrohttpd serve calls. */
static struct {
	void *lib;
	struct MHD_Daemon *(*start_daemon)(unsigned int, uint16_t, MHD_AcceptPolicyCallback, void *,
					   MHD_AccessHandlerCallback, void *, ...);
	void (*stop_daemon)(struct MHD_Daemon *);
	MHD_socket (*quiesce_daemon)(struct MHD_Daemon *);
	const union MHD_DaemonInfo *(*get_daemon_info)(struct MHD_Daemon *, enum MHD_DaemonInfoType,
						       ...);
	const union MHD_ConnectionInfo *(*get_connection_info)(struct MHD_Connection *,
							       enum MHD_ConnectionInfoType, ...);
	const char *(*lookup_connection_value)(struct MHD_Connection *, enum MHD_ValueKind,
					       const char *);
	struct MHD_Response *(*create_response_from_buffer)(size_t, void *,
							    enum MHD_ResponseMemoryMode);
	enum MHD_Result (*add_response_header)(struct MHD_Response *, const char *, const char *);
	enum MHD_Result (*queue_response)(struct MHD_Connection *, unsigned int,
					  struct MHD_Response *);
	void (*destroy_response)(struct MHD_Response *);
} mhd;

/* The soname of the libmicrohttpd ABI gpusite calls (0.9.x). */
#define MHD_SONAME "libmicrohttpd.so.12"

static void *
sym(const char *name, bool *ok)
{
	void *p = dlsym(mhd.lib, name);

	if (!p)
		*ok = false;
	return p;
}

/* POSIX: dlsym's object pointer holds the function's address. */
#define LOAD(field, name)                                                                          \
	do {                                                                                       \
		void *p_ = sym(name, &ok);                                                         \
		memcpy(&mhd.field, &p_, sizeof(mhd.field));                                        \
	} while (0)

static int
mhd_load(char *err, size_t errlen)
{
	bool ok = true;

	mhd.lib = dlopen(MHD_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!mhd.lib) {
		snprintf(err, errlen,
			 "libmicrohttpd.so.12 cannot be loaded: install"
			 " libmicrohttpd 0.9.75 or later (Debian: libmicrohttpd12)");
		return -1;
	}
	LOAD(start_daemon, "MHD_start_daemon");
	LOAD(stop_daemon, "MHD_stop_daemon");
	LOAD(quiesce_daemon, "MHD_quiesce_daemon");
	LOAD(get_daemon_info, "MHD_get_daemon_info");
	LOAD(get_connection_info, "MHD_get_connection_info");
	LOAD(lookup_connection_value, "MHD_lookup_connection_value");
	LOAD(create_response_from_buffer, "MHD_create_response_from_buffer");
	LOAD(add_response_header, "MHD_add_response_header");
	LOAD(queue_response, "MHD_queue_response");
	LOAD(destroy_response, "MHD_destroy_response");
	if (!ok) {
		snprintf(err, errlen,
			 "the libmicrohttpd found lacks a function gpusite calls;"
			 " install libmicrohttpd 0.9.75 or later");
		return -1;
	}
	return 0;
}

const char *
serve_library_version(void)
{
	void *lib = mhd.lib ? mhd.lib : dlopen(MHD_SONAME, RTLD_NOW | RTLD_LOCAL);
	const char *(*get)(void);
	void *p;

	if (!lib)
		return "(not found: " MHD_SONAME ")";
	p = dlsym(lib, "MHD_get_version");
	if (!p)
		return "(unknown: " MHD_SONAME " lacks MHD_get_version)";
	/* POSIX: dlsym's object pointer holds the function's address */
	memcpy(&get, &p, sizeof(get));
	return get();
}

/*
 * The connections, for the watchdog: a client must send a request's
 * headers within SERVE_HEADER_SECONDS of connecting or of its previous
 * answer, however slowly it trickles them (libmicrohttpd's own timeout
 * counts only idle time).  A connection over that is shut down; the
 * file descriptor stays libmicrohttpd's, which closes it after
 * MHD_CONNECTION_NOTIFY_CLOSED, and the slot is given up under the lock
 * before that, so the watchdog never touches a descriptor reused since.
 */
#define SERVE_SLOTS (SERVE_CONNECTIONS + SERVE_HEALTH_CONNECTIONS + 16)

struct conn_slot {
	bool used, in_request, shut;
	MHD_socket fd;
	struct timespec since; /* connected, or the last answer sent */
};

static struct {
	pthread_mutex_t lock;
	pthread_cond_t wake;
	bool stop;
	struct conn_slot slots[SERVE_SLOTS];
} watch = { .lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER };

static void
on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
	      enum MHD_ConnectionNotificationCode toe)
{
	struct conn_slot *sl = *socket_context;

	(void)cls;
	pthread_mutex_lock(&watch.lock);
	if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *ci =
			mhd.get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);

		sl = NULL;
		for (size_t i = 0; ci && i < SERVE_SLOTS && !sl; i++)
			if (!watch.slots[i].used)
				sl = &watch.slots[i];
		if (sl) {
			memset(sl, 0, sizeof(*sl));
			sl->used = true;
			sl->fd = ci->connect_fd;
			clock_gettime(CLOCK_MONOTONIC, &sl->since);
		}
		*socket_context = sl;
	} else if (sl) {
		sl->used = false;
		*socket_context = NULL;
	}
	pthread_mutex_unlock(&watch.lock);
}

/* The slot of connection `c`: a request started (headers in) or ended. */
static void
slot_mark(struct MHD_Connection *c, bool in_request)
{
	const union MHD_ConnectionInfo *ci =
		mhd.get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	struct conn_slot *sl = ci ? ci->socket_context : NULL;

	if (!sl)
		return;
	pthread_mutex_lock(&watch.lock);
	sl->in_request = in_request;
	clock_gettime(CLOCK_MONOTONIC, &sl->since);
	pthread_mutex_unlock(&watch.lock);
}

static void *
watch_main(void *arg)
{
	struct timespec now, until;

	(void)arg;
	pthread_mutex_lock(&watch.lock);
	while (!watch.stop) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		for (size_t i = 0; i < SERVE_SLOTS; i++) {
			struct conn_slot *sl = &watch.slots[i];

			if (sl->used && !sl->in_request && !sl->shut &&
			    now.tv_sec - sl->since.tv_sec >= SERVE_HEADER_SECONDS) {
				shutdown(sl->fd, SHUT_RDWR);
				sl->shut = true;
			}
		}
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += 1;
		pthread_cond_timedwait(&watch.wake, &watch.lock, &until);
	}
	pthread_mutex_unlock(&watch.lock);
	return NULL;
}

/* One request in progress. */
struct req {
	struct timespec start;
	char *body;
	size_t len, alloc;
	size_t reserved; /* of the body budget */
	bool too_big;
	bool busy; /* the body budget was spent: 503 */
	bool answered;
	int status;
	char method[16];
	char path[256];
};

/* What one server answers: the protocol, or only /healthz. */
struct http_ctx {
	struct serve *s;
	bool health_only;
};

static atomic_int in_flight;
static atomic_size_t body_bytes; /* reserved by the requests in flight */

/* Reserve `n` more bytes of SERVE_BODY_BUDGET for `r`: true, or false
 * when the bodies in flight would hold more. */
static bool
budget_take(struct req *r, size_t n)
{
	size_t cur = atomic_load(&body_bytes);

	do {
		if (n > SERVE_BODY_BUDGET - cur || cur > SERVE_BODY_BUDGET)
			return false;
	} while (!atomic_compare_exchange_weak(&body_bytes, &cur, cur + n));
	r->reserved += n;
	return true;
}

static void
drop_body(struct req *r)
{
	free(r->body);
	r->body = NULL;
	r->len = r->alloc = 0;
	atomic_fetch_sub(&body_bytes, r->reserved);
	r->reserved = 0;
}

static double
since_ms(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) * 1e3 + (double)(t.tv_nsec - t0->tv_nsec) / 1e6;
}

/* Copy `s` for the log: control characters, quotes, backslashes and
 * non-ASCII bytes as \xNN, cut at the size of `out`. */
static void
escape(char *out, size_t outlen, const char *s)
{
	size_t o = 0;

	for (const unsigned char *c = (const unsigned char *)s; *c && o + 5 < outlen; c++) {
		if (*c < 0x20 || *c >= 0x7f || *c == '"' || *c == '\\')
			o += (size_t)snprintf(out + o, outlen - o, "\\x%02x", *c);
		else
			out[o++] = (char)*c;
	}
	out[o] = '\0';
}

static void
log_request(const struct req *r, const char *what)
{
	char path[4 * sizeof(r->path) + 1];

	escape(path, sizeof(path), r->path);
	if (r->status)
		fprintf(stderr, "gpusite serve: %s %s %d %.1f ms\n", r->method, path, r->status,
			since_ms(&r->start));
	else
		fprintf(stderr, "gpusite serve: %s %s %s %.1f ms\n", r->method, path, what,
			since_ms(&r->start));
}

static void
on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
	     enum MHD_RequestTerminationCode why)
{
	struct req *r = *con_cls;

	(void)cls;
	if (!r)
		return;
	slot_mark(c, false);
	log_request(r, why == MHD_REQUEST_TERMINATED_TIMEOUT_REACHED ? "timed-out" : "aborted");
	drop_body(r);
	free(r);
	*con_cls = NULL;
	atomic_fetch_sub(&in_flight, 1);
}

static const char *
header(struct MHD_Connection *c, const char *name)
{
	return mhd.lookup_connection_value(c, MHD_HEADER_KIND, name);
}

/* Send `rep` (and free it); `close` when a body is left unread. */
static enum MHD_Result
send_reply(struct MHD_Connection *c, struct req *r, struct serve_reply *rep, bool close)
{
	struct MHD_Response *res;
	enum MHD_Result ok;
	char num[24];

	res = mhd.create_response_from_buffer(rep->len, rep->body, MHD_RESPMEM_MUST_COPY);
	serve_reply_free(rep);
	if (!res)
		return MHD_NO;
	mhd.add_response_header(res, MHD_HTTP_HEADER_CONTENT_TYPE, rep->type);
	mhd.add_response_header(res, "X-Content-Type-Options", "nosniff");
	mhd.add_response_header(res, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
	if (rep->allow)
		mhd.add_response_header(res, MHD_HTTP_HEADER_ALLOW, rep->allow);
	if (rep->challenge)
		mhd.add_response_header(res, MHD_HTTP_HEADER_WWW_AUTHENTICATE, "Bearer");
	if (rep->retry_after) {
		snprintf(num, sizeof(num), "%u", rep->retry_after);
		mhd.add_response_header(res, MHD_HTTP_HEADER_RETRY_AFTER, num);
	}
	if (close)
		mhd.add_response_header(res, MHD_HTTP_HEADER_CONNECTION, "close");
	r->status = rep->status;
	r->answered = true;
	ok = mhd.queue_response(c, (unsigned)rep->status, res);
	mhd.destroy_response(res);
	return ok;
}

/* The answer once the body is in. */
static enum MHD_Result
respond(struct MHD_Connection *c, struct req *r, struct serve *s)
{
	struct serve_reply rep;

	if (r->busy)
		serve_reply_busy(&rep);
	else
		serve_handle(&rep, s, r->method, r->path, header(c, MHD_HTTP_HEADER_AUTHORIZATION),
			     r->body ? r->body : "", r->len, r->too_big);
	/* a body left unread closes the connection after the answer */
	return send_reply(c, r, &rep, r->too_big || r->busy);
}

/* Whether the request announces a body. */
static bool
has_body(struct MHD_Connection *c)
{
	const char *cl = header(c, MHD_HTTP_HEADER_CONTENT_LENGTH);

	return (cl && strtoull(cl, NULL, 10) > 0) ||
	       header(c, MHD_HTTP_HEADER_TRANSFER_ENCODING) != NULL;
}

/*
 * The headers are in, no byte of the body is read yet: answer what the
 * headers decide (the token first), refuse a body over SERVE_MAX_BODY or
 * over what is left of SERVE_BODY_BUDGET, else go on reading it.
 */
static enum MHD_Result
on_headers(struct MHD_Connection *c, struct req *r, const struct http_ctx *x)
{
	struct serve_reply rep;
	const char *cl;
	unsigned long long want;

	if (x->health_only && strcmp(r->path, "/healthz")) {
		memset(&rep, 0, sizeof(rep));
		rep.status = 404;
		rep.type = "text/plain; charset=utf-8";
		rep.body = xstrdup("not found: this address answers GET /healthz only\n");
		rep.len = strlen(rep.body);
		return send_reply(c, r, &rep, has_body(c));
	}
	if (serve_answer_head(&rep, x->s, r->method, r->path,
			      header(c, MHD_HTTP_HEADER_AUTHORIZATION)))
		return send_reply(c, r, &rep, has_body(c));
	cl = header(c, MHD_HTTP_HEADER_CONTENT_LENGTH);
	if (!cl)
		return MHD_YES;
	want = strtoull(cl, NULL, 10);
	if (want > SERVE_MAX_BODY) {
		r->too_big = true;
		return respond(c, r, x->s);
	}
	if (!budget_take(r, (size_t)want + 1)) {
		serve_reply_busy(&rep);
		return send_reply(c, r, &rep, true);
	}
	return MHD_YES;
}

/* Keep a piece of the body, within SERVE_MAX_BODY and the budget. */
static void
take_upload(struct req *r, const char *data, size_t n)
{
	size_t need;

	if (r->too_big || r->busy || r->answered)
		return;
	if (r->len + n > SERVE_MAX_BODY) {
		r->too_big = true;
		drop_body(r);
		return;
	}
	need = r->len + n + 1;
	if (need > r->reserved) {
		size_t more = need * 2 > SERVE_MAX_BODY + 1 ? SERVE_MAX_BODY + 1 : need * 2;

		if (!budget_take(r, more - r->reserved) && !budget_take(r, need - r->reserved)) {
			r->busy = true;
			drop_body(r);
			return;
		}
	}
	if (need > r->alloc) {
		r->alloc = need * 2 < r->reserved ? need * 2 : r->reserved;
		r->body = xrealloc(r->body, r->alloc);
	}
	memcpy(r->body + r->len, data, n);
	r->len += n;
	r->body[r->len] = '\0';
}

static enum MHD_Result
on_request(void *cls, struct MHD_Connection *c, const char *url, const char *method,
	   const char *version, const char *upload, size_t *upload_size, void **con_cls)
{
	const struct http_ctx *x = cls;
	struct req *r = *con_cls;

	(void)version;
	if (!r) {
		r = xcalloc(1, sizeof(*r));
		clock_gettime(CLOCK_MONOTONIC, &r->start);
		escape(r->method, sizeof(r->method), method);
		/* the path as asked, for serve_handle: an escaped copy would
		 * turn a path with odd bytes into another one */
		if (strlen(url) < sizeof(r->path))
			memcpy(r->path, url, strlen(url) + 1);
		else
			memcpy(r->path, "/(too long)", 12);
		*con_cls = r;
		atomic_fetch_add(&in_flight, 1);
		slot_mark(c, true);
		return on_headers(c, r, x);
	}
	if (*upload_size) {
		take_upload(r, upload, *upload_size);
		*upload_size = 0;
		return MHD_YES;
	}
	if (r->answered)
		return MHD_YES;
	return respond(c, r, x->s);
}

/* "127.0.0.1:8080", "[::1]:0", ":8080" (every IPv4 address). */
static int
parse_listen(struct sockaddr_storage *ss, socklen_t *sl, bool *v6, const char *addr, char *err,
	     size_t errlen)
{
	char host[64];
	const char *colon, *h = addr;
	size_t hl;
	char *end;
	unsigned long port;

	memset(ss, 0, sizeof(*ss));
	colon = strrchr(addr, ':');
	if (!colon)
		goto bad;
	hl = (size_t)(colon - addr);
	if (hl && addr[0] == '[') {
		if (addr[hl - 1] != ']')
			goto bad;
		h = addr + 1;
		hl -= 2;
		*v6 = true;
	} else {
		*v6 = false;
	}
	if (hl >= sizeof(host))
		goto bad;
	memcpy(host, h, hl);
	host[hl] = '\0';
	errno = 0;
	port = strtoul(colon + 1, &end, 10);
	if (!colon[1] || *end || errno || port > 65535)
		goto bad;
	if (*v6) {
		struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)ss;

		a6->sin6_family = AF_INET6;
		a6->sin6_port = htons((uint16_t)port);
		if (inet_pton(AF_INET6, host, &a6->sin6_addr) != 1)
			goto bad;
		*sl = sizeof(*a6);
	} else {
		struct sockaddr_in *a4 = (struct sockaddr_in *)ss;

		a4->sin_family = AF_INET;
		a4->sin_port = htons((uint16_t)port);
		if (!*host)
			a4->sin_addr.s_addr = htonl(INADDR_ANY);
		else if (inet_pton(AF_INET, host, &a4->sin_addr) != 1)
			goto bad;
		*sl = sizeof(*a4);
	}
	return 0;
bad:
	snprintf(err, errlen,
		 "--listen '%.64s' is not ADDR:PORT: use 127.0.0.1:8080,"
		 " :8080 (every IPv4 address) or [::1]:8080; port 0 picks a free one",
		 addr);
	return -1;
}

static void
mhd_log(void *cls, const char *fmt, va_list ap)
{
	char line[512];
	size_t n;

	(void)cls;
	vsnprintf(line, sizeof(line), fmt, ap);
	n = strlen(line);
	while (n && line[n - 1] == '\n')
		line[--n] = '\0';
	fprintf(stderr, "gpusite serve: libmicrohttpd: %s\n", line);
}

/* Start one server on `addr`; print where it listens, as "`what` ADDR". */
static struct MHD_Daemon *
daemon_start(struct http_ctx *x, const char *addr, const char *what, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	bool v6;
	struct MHD_Daemon *d;
	const union MHD_DaemonInfo *info;
	char host[INET6_ADDRSTRLEN];
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ITC | MHD_USE_ERROR_LOG;

	if (parse_listen(&ss, &sl, &v6, addr, err, errlen) < 0)
		return NULL;
	if (v6)
		flags |= MHD_USE_IPv6;
	d = mhd.start_daemon(
		flags, 0, NULL, NULL, on_request, x, MHD_OPTION_EXTERNAL_LOGGER, mhd_log,
		(void *)NULL, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
		MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)(x->health_only ? 0 : SERVE_THREADS),
		MHD_OPTION_CONNECTION_LIMIT,
		(unsigned int)(x->health_only ? SERVE_HEALTH_CONNECTIONS : SERVE_CONNECTIONS),
		MHD_OPTION_PER_IP_CONNECTION_LIMIT,
		(unsigned int)(x->health_only ? SERVE_HEALTH_PER_ADDRESS : SERVE_PER_ADDRESS),
		MHD_OPTION_CONNECTION_TIMEOUT,
		(unsigned int)(x->health_only ? SERVE_HEADER_SECONDS : SERVE_TIMEOUT),
		MHD_OPTION_NOTIFY_COMPLETED, on_completed, (void *)NULL,
		MHD_OPTION_NOTIFY_CONNECTION, on_connection, (void *)NULL,
		MHD_OPTION_LISTENING_ADDRESS_REUSE, (unsigned int)1, MHD_OPTION_END);
	if (!d) {
		snprintf(err, errlen, "cannot listen on %.64s: %s", addr,
			 errno ? strerror(errno) : "libmicrohttpd refused to start");
		return NULL;
	}
	info = mhd.get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
	if (v6)
		inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&ss)->sin6_addr, host, sizeof(host));
	else
		inet_ntop(AF_INET, &((struct sockaddr_in *)&ss)->sin_addr, host, sizeof(host));
	fprintf(stderr, "gpusite serve: %s %s%s%s:%u\n", what, v6 ? "[" : "", host, v6 ? "]" : "",
		info ? (unsigned)info->port : 0u);
	return d;
}

/* SIGHUP reloads; SIGTERM or SIGINT returns. */
static void
wait_for_stop(struct serve *s, const sigset_t *sigs)
{
	int sig = 0;

	for (;;) {
		if (sigwait(sigs, &sig) != 0)
			continue;
		if (sig != SIGHUP)
			break;
		fprintf(stderr, "gpusite serve: SIGHUP: reading the token file and the specs"
				" again\n");
		serve_wake(s);
	}
	fprintf(stderr,
		"gpusite serve: %s: no new connections; finishing the requests"
		" in flight\n",
		sig == SIGINT ? "SIGINT" : "SIGTERM");
}

int
serve_http_run(struct serve *s, const char *addr, const char *health_addr, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	bool v6;
	struct http_ctx main_ctx = { s, false }, health_ctx = { s, true };
	struct MHD_Daemon *d, *h = NULL;
	pthread_t watcher;
	sigset_t sigs, old;
	char summary[200];
	bool watching;

	if (parse_listen(&ss, &sl, &v6, addr, err, errlen) < 0 ||
	    (health_addr && parse_listen(&ss, &sl, &v6, health_addr, err, errlen) < 0))
		return -2;
	if (mhd_load(err, errlen) < 0)
		return -1;
	/* SIGTERM, SIGINT and SIGHUP are taken by sigwait(); every thread
	 * started from here on inherits the mask */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &sigs, &old);
	signal(SIGPIPE, SIG_IGN);

	d = daemon_start(&main_ctx, addr, "listening on", err, errlen);
	if (d && health_addr &&
	    !(h = daemon_start(&health_ctx, health_addr, "health on", err, errlen))) {
		mhd.stop_daemon(d);
		d = NULL;
	}
	if (!d) {
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		return -1;
	}
	watching = pthread_create(&watcher, NULL, watch_main, NULL) == 0;
	serve_describe(s, summary, sizeof(summary));
	fprintf(stderr, "gpusite serve: specs: %s\n", summary);
	if (serve_start_refresh(s) < 0)
		fprintf(stderr, "gpusite serve: cannot start the refresh thread: the specs"
				" read at start are served until a restart\n");

	wait_for_stop(s, &sigs);
	{
		MHD_socket fd = mhd.quiesce_daemon(d);

		if (fd != MHD_INVALID_SOCKET)
			close(fd);
	}
	for (int i = 0; i < SERVE_DRAIN_SECONDS * 20 && atomic_load(&in_flight) > 0; i++)
		nanosleep(&(struct timespec){ 0, 50 * 1000 * 1000 }, NULL);
	mhd.stop_daemon(d);
	if (h)
		mhd.stop_daemon(h);
	if (watching) {
		pthread_mutex_lock(&watch.lock);
		watch.stop = true;
		pthread_cond_signal(&watch.wake);
		pthread_mutex_unlock(&watch.lock);
		pthread_join(watcher, NULL);
	}
	serve_stop_refresh(s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	fprintf(stderr, "gpusite serve: stopped\n");
	return 0;
}
