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
	const char *(*lookup_connection_value)(struct MHD_Connection *, enum MHD_ValueKind,
					       const char *);
	struct MHD_Response *(*create_response_from_buffer)(size_t, void *,
							    enum MHD_ResponseMemoryMode);
	enum MHD_Result (*add_response_header)(struct MHD_Response *, const char *, const char *);
	enum MHD_Result (*queue_response)(struct MHD_Connection *, unsigned int,
					  struct MHD_Response *);
	void (*destroy_response)(struct MHD_Response *);
} mhd;

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

	mhd.lib = dlopen("libmicrohttpd.so.12", RTLD_NOW | RTLD_LOCAL);
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

/* One request in progress. */
struct req {
	struct timespec start;
	char *body;
	size_t len, alloc;
	bool too_big;
	bool answered;
	int status;
	char method[16];
	char path[256];
};

static atomic_int in_flight;

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
	(void)c;
	if (!r)
		return;
	log_request(r, why == MHD_REQUEST_TERMINATED_TIMEOUT_REACHED ? "timed-out" : "aborted");
	free(r->body);
	free(r);
	*con_cls = NULL;
	atomic_fetch_sub(&in_flight, 1);
}

static enum MHD_Result
respond(struct MHD_Connection *c, struct req *r, struct serve *s)
{
	struct serve_reply rep;
	struct MHD_Response *res;
	enum MHD_Result ok;
	char num[24];

	serve_handle(&rep, s, r->method, r->path,
		     mhd.lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION),
		     r->body ? r->body : "", r->len, r->too_big);
	res = mhd.create_response_from_buffer(rep.len, rep.body, MHD_RESPMEM_MUST_COPY);
	serve_reply_free(&rep);
	if (!res)
		return MHD_NO;
	mhd.add_response_header(res, MHD_HTTP_HEADER_CONTENT_TYPE, rep.type);
	mhd.add_response_header(res, "X-Content-Type-Options", "nosniff");
	mhd.add_response_header(res, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
	if (rep.allow)
		mhd.add_response_header(res, MHD_HTTP_HEADER_ALLOW, rep.allow);
	if (rep.challenge)
		mhd.add_response_header(res, MHD_HTTP_HEADER_WWW_AUTHENTICATE, "Bearer");
	if (rep.retry_after) {
		snprintf(num, sizeof(num), "%u", rep.retry_after);
		mhd.add_response_header(res, MHD_HTTP_HEADER_RETRY_AFTER, num);
	}
	/* a body left unread closes the connection after the answer */
	if (r->too_big)
		mhd.add_response_header(res, MHD_HTTP_HEADER_CONNECTION, "close");
	r->status = rep.status;
	r->answered = true;
	ok = mhd.queue_response(c, (unsigned)rep.status, res);
	mhd.destroy_response(res);
	return ok;
}

static enum MHD_Result
on_request(void *cls, struct MHD_Connection *c, const char *url, const char *method,
	   const char *version, const char *upload, size_t *upload_size, void **con_cls)
{
	struct serve *s = cls;
	struct req *r = *con_cls;

	(void)version;
	if (!r) {
		const char *cl;

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
		cl = mhd.lookup_connection_value(c, MHD_HEADER_KIND,
						 MHD_HTTP_HEADER_CONTENT_LENGTH);
		if (cl && strtoull(cl, NULL, 10) > SERVE_MAX_BODY) {
			r->too_big = true;
			return respond(c, r, s);
		}
		return MHD_YES;
	}
	if (*upload_size) {
		if (!r->too_big && !r->answered) {
			if (r->len + *upload_size > SERVE_MAX_BODY) {
				r->too_big = true;
				free(r->body);
				r->body = NULL;
				r->len = 0;
			} else {
				if (r->len + *upload_size + 1 > r->alloc) {
					r->alloc = (r->len + *upload_size + 1) * 2;
					if (r->alloc > SERVE_MAX_BODY + 1)
						r->alloc = SERVE_MAX_BODY + 1;
					r->body = xrealloc(r->body, r->alloc);
				}
				memcpy(r->body + r->len, upload, *upload_size);
				r->len += *upload_size;
				r->body[r->len] = '\0';
			}
		}
		*upload_size = 0;
		return MHD_YES;
	}
	if (r->answered)
		return MHD_YES;
	return respond(c, r, s);
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

int
serve_http_run(struct serve *s, const char *addr, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	bool v6;
	struct MHD_Daemon *d;
	const union MHD_DaemonInfo *info;
	sigset_t sigs, old;
	char summary[200], host[INET6_ADDRSTRLEN];
	unsigned flags;
	int sig = 0;

	if (parse_listen(&ss, &sl, &v6, addr, err, errlen) < 0)
		return -2;
	if (mhd_load(err, errlen) < 0)
		return -1;
	/* SIGTERM and SIGINT are taken by sigwait() below; every thread
	 * started from here on inherits the mask */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGINT);
	pthread_sigmask(SIG_BLOCK, &sigs, &old);
	signal(SIGPIPE, SIG_IGN);

	flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ITC | MHD_USE_ERROR_LOG;
	if (v6)
		flags |= MHD_USE_IPv6;
	d = mhd.start_daemon(flags, 0, NULL, NULL, on_request, s, MHD_OPTION_EXTERNAL_LOGGER,
			     mhd_log, (void *)NULL, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
			     MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)SERVE_THREADS,
			     MHD_OPTION_CONNECTION_LIMIT, (unsigned int)SERVE_CONNECTIONS,
			     MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)SERVE_TIMEOUT,
			     MHD_OPTION_NOTIFY_COMPLETED, on_completed, (void *)NULL,
			     MHD_OPTION_LISTENING_ADDRESS_REUSE, (unsigned int)1, MHD_OPTION_END);
	if (!d) {
		snprintf(err, errlen, "cannot listen on %.64s: %s", addr,
			 errno ? strerror(errno) : "libmicrohttpd refused to start");
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		return -1;
	}
	info = mhd.get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
	if (v6)
		inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&ss)->sin6_addr, host, sizeof(host));
	else
		inet_ntop(AF_INET, &((struct sockaddr_in *)&ss)->sin_addr, host, sizeof(host));
	serve_describe(s, summary, sizeof(summary));
	fprintf(stderr, "gpusite serve: listening on %s%s%s:%u\n", v6 ? "[" : "", host,
		v6 ? "]" : "", info ? (unsigned)info->port : 0u);
	fprintf(stderr, "gpusite serve: specs: %s\n", summary);
	if (serve_start_refresh(s) < 0)
		fprintf(stderr, "gpusite serve: cannot start the refresh thread: the specs"
				" read at start are served until a restart\n");

	while (sigwait(&sigs, &sig) != 0)
		;
	fprintf(stderr,
		"gpusite serve: %s: no new connections; finishing the requests"
		" in flight\n",
		sig == SIGINT ? "SIGINT" : "SIGTERM");
	{
		MHD_socket fd = mhd.quiesce_daemon(d);

		if (fd != MHD_INVALID_SOCKET)
			close(fd);
	}
	for (int i = 0; i < SERVE_DRAIN_SECONDS * 20 && atomic_load(&in_flight) > 0; i++)
		nanosleep(&(struct timespec){ 0, 50 * 1000 * 1000 }, NULL);
	mhd.stop_daemon(d);
	serve_stop_refresh(s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	fprintf(stderr, "gpusite serve: stopped\n");
	return 0;
}
