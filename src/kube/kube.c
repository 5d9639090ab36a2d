/*
 * kube.c - requests to the API server on libcurl: credentials, retries,
 * one deadline for the whole command, capped bodies, Status messages,
 * discovery, GET and paged LIST; the few writes of `drill run` (kube_send:
 * a cordon PATCH, a policy/v1 Eviction, a SelfSubjectAccessReview).
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/xalloc.h"
#include "json/json.h"
#include "kube/kube_int.h"
#include "node/node.h"

#define RETRY_MAX 10     /* 429 / 5xx, as client-go */
#define DROP_RETRY_MAX 5 /* connection dropped before an answer */
#define RESTART_MAX 3    /* LIST restarted after 410 Expired */
#define TOKEN_FILE_MAX (1u << 20)

struct gv_cache {
	const char *gv; /* "v1", "karpenter.sh/v1" */
	bool served;
	struct kube_resource *res;
	size_t count;
};

struct kube_client {
	struct arena *arena;
	struct diags *diags;
	struct kube_conf conf;
	const char *(*env)(const char *);
	FILE *log;
	int verbose;
	double timeout;
	double deadline; /* kube_now() seconds */
	CURL *curl;
	struct kube_cred cred; /* from the exec plugin */
	bool have_cred;
	unsigned requests;
	const char *fetch_base;        /* server, or its tls-server-name form */
	struct curl_slist *connect_to; /* tls-server-name: where to connect */
	struct gv_cache *gvs;
	size_t ngv, agv;
	size_t list_max_objects; /* one whole list, all pages */
	size_t list_max_bytes;
	char errbuf[CURL_ERROR_SIZE];
};

struct resp {
	long code;
	struct buf body;
	struct kube_answer_meta meta; /* status line, Retry-After */
	bool too_big;
};

static const char *
std_getenv(const char *name)
{
	return getenv(name);
}

const char *
kube_library_version(void)
{
	return curl_version_info(CURLVERSION_NOW)->version;
}

int
kube_url_escape(struct buf *b, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";

	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || *p == '-' || *p == '_' || *p == '.' || *p == '~') {
			if (buf_addch(b, (char)*p) < 0)
				return -1;
		} else if (buf_printf(b, "%%%c%c", hex[*p >> 4], hex[*p & 15]) < 0) {
			return -1;
		}
	}
	return 0;
}

/*
 * tls-server-name: TLS must name (SNI) and verify another host than the
 * one connected to.  curl does both with the URL's host, so the URL says
 * the TLS name and CONNECT_TO sends the connection to the real server.
 */
static int
tls_name_route(struct kube_client *k)
{
	const char *server = k->conf.info.server, *h, *end, *port = NULL;
	const char *scheme_end = strstr(server, "://");
	char *host;

	if (!scheme_end)
		return -1;
	h = scheme_end + 3;
	if (*h == '[') {
		end = strchr(h, ']');
		if (!end)
			return -1;
		end++;
	} else {
		end = h + strcspn(h, ":/");
	}
	host = arena_strndup(k->arena, h, (size_t)(end - h));
	if (*end == ':')
		port = arena_strndup(k->arena, end + 1, strcspn(end + 1, "/"));
	if (!port || !*port)
		port = strncmp(server, "https", 5) ? "80" : "443";
	k->fetch_base = arena_printf(k->arena, "%.*s%s%s:%s", (int)(h - server), server,
				     k->conf.userinfo ? k->conf.userinfo : "",
				     k->conf.tls_server_name, port);
	k->connect_to =
		curl_slist_append(NULL, arena_printf(k->arena, "%s:%s:%s:%s",
						     k->conf.tls_server_name, port, host, port));
	return k->connect_to ? 0 : -1;
}

/* A positive whole number from the environment, or `def` when unset. */
static int
env_count(struct kube_client *k, const char *name, size_t def, size_t *out)
{
	const char *v = k->env(name);
	char *end;
	unsigned long long n;

	*out = def;
	if (!v || !*v)
		return 0;
	errno = 0;
	n = strtoull(v, &end, 10);
	if (*end || errno || n == 0 || v[0] == '-' || n > SIZE_MAX / 2)
		return diag_add(k->diags, DIAG_ERROR, (struct pos)POS_NONE, KUBE_RULE, "",
				"%s='%s' is not a positive whole number", name, v);
	*out = (size_t)n;
	return 0;
}

/* The proxy variables curl reads itself: no control characters either. */
static int
proxy_env_check(struct kube_client *k)
{
	static const char *const names[] = {
		"HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy",
		"ALL_PROXY",   "all_proxy",   "NO_PROXY",   "no_proxy",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *v = k->env(names[i]);

		if (v && kube_has_ctl(v))
			return diag_add(k->diags, DIAG_ERROR, (struct pos)POS_NONE, KUBE_RULE, "",
					"the environment variable %s "
					"holds a control character (CR, LF or another): "
					"refusing it, it would reach an HTTP request; fix "
					"or unset it",
					names[i]);
	}
	return 0;
}

/* curl's error text, without the server URL's userinfo should curl have
 * quoted the URL */
static const char *
curl_text(struct kube_client *k, CURLcode cc)
{
	const char *ui = k->conf.userinfo;
	char *p;

	if (!k->errbuf[0])
		return curl_easy_strerror(cc);
	if (ui && *ui) {
		size_t n = strlen(ui) - 1; /* without the '@' */

		while (n && (p = strstr(k->errbuf, arena_strndup(k->arena, ui, n))))
			memset(p, '*', n);
	}
	return k->errbuf;
}

static int
list_limits(struct kube_client *k)
{
	size_t mib;

	if (env_count(k, KUBE_LIST_MAX_OBJECTS_ENV, KUBE_LIST_MAX_OBJECTS, &k->list_max_objects) <
		    0 ||
	    env_count(k, KUBE_LIST_MAX_MIB_ENV, KUBE_LIST_MAX_MIB, &mib) < 0)
		return -1;
	k->list_max_bytes = mib > SIZE_MAX >> 21 ? SIZE_MAX : mib << 20;
	return 0;
}

int
kube_open(struct kube_client **out, struct arena *a, struct diags *d,
	  const struct kube_options *opt)
{
	struct kube_client *k;
	static bool curl_ready;

	*out = NULL;
	k = arena_alloc(a, sizeof(*k));
	k->arena = a;
	k->diags = d;
	k->env = opt->getenv ? opt->getenv : std_getenv;
	k->log = opt->log ? opt->log : stderr;
	k->verbose = opt->verbose;
	k->timeout = opt->timeout > 0 ? opt->timeout : KUBE_DEFAULT_TIMEOUT;
	k->deadline = kube_now() + k->timeout;
	if (kube_config_load(&k->conf, a, d, opt) < 0 || kube_config_read_files(&k->conf, a, d) < 0)
		return KUBE_EFAIL;
	if (!curl_ready) {
		if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
			return diag_add(d, DIAG_ERROR, (struct pos)POS_NONE, KUBE_RULE, "",
					"libcurl could not be initialised: %s", kube_curl_error());
		curl_ready = true;
	}
	k->curl = curl_easy_init();
	if (!k->curl)
		return diag_add(d, DIAG_ERROR, (struct pos)POS_NONE, KUBE_RULE, "",
				"libcurl could not be initialised");
	k->fetch_base = k->conf.info.server;
	if (k->conf.userinfo) {
		/* the URL's user:pass@ goes to curl, never into a message */
		const char *h = strstr(k->conf.info.server, "://") + 3;

		k->fetch_base = arena_printf(a, "%.*s%s%s", (int)(h - k->conf.info.server),
					     k->conf.info.server, k->conf.userinfo, h);
	}
	if (list_limits(k) < 0 || proxy_env_check(k) < 0) {
		kube_close(k);
		return KUBE_EFAIL;
	}
	if (k->conf.exec)
		k->conf.exec->log = k->log;
	if (k->conf.tls_server_name && tls_name_route(k) < 0) {
		kube_close(k);
		return diag_add(d, DIAG_ERROR, k->conf.at, KUBE_RULE, "",
				"cannot use tls-server-name '%s' with server %s",
				k->conf.tls_server_name, k->conf.info.server);
	}
	*out = k;
	return 0;
}

void
kube_close(struct kube_client *k)
{
	if (!k)
		return;
	if (k->curl)
		curl_easy_cleanup(k->curl);
	k->curl = NULL;
	curl_slist_free_all(k->connect_to);
	k->connect_to = NULL;
	kube_cred_release(&k->cred);
}

const struct kube_info *
kube_get_info(const struct kube_client *k)
{
	return &k->conf.info;
}

unsigned
kube_request_count(const struct kube_client *k)
{
	return k->requests;
}

/* ---------------------------------------------------------- transport */

static size_t
on_body(char *ptr, size_t size, size_t nmemb, void *payload)
{
	struct resp *r = payload;
	size_t n = size * nmemb;

	if (buf_add(&r->body, ptr, n) < 0) {
		r->too_big = true;
		return 0; /* curl aborts with CURLE_WRITE_ERROR */
	}
	return n;
}

static size_t
on_header(char *ptr, size_t size, size_t nmemb, void *payload)
{
	struct resp *r = payload;
	size_t n = size * nmemb;

	kube_answer_header(&r->meta, ptr, n);
	return n;
}

static void
sleep_for(double secs)
{
	struct timespec ts;

	if (secs <= 0)
		return;
	ts.tv_sec = (time_t)secs;
	ts.tv_nsec = (long)((secs - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) < 0)
		;
}

static int
timeout_fail(struct kube_client *k, const char *what)
{
	return diag_add(k->diags, DIAG_ERROR, (struct pos)POS_NONE, KUBE_RULE, "",
			"timed out after %gs trying to %s on %s: the cluster is "
			"slow or unreachable; raise --timeout or retry later",
			k->timeout, what, k->conf.info.server);
}

/* The bearer token for this request (heap, wiped by the caller), or NULL. */
static char *
current_token(struct kube_client *k, int *err)
{
	struct kube_conf *c = &k->conf;

	*err = 0;
	if (c->token)
		return xstrdup(c->token);
	if (c->token_file) {
		struct buf b;
		size_t n;
		char *t;
		int rc;

		/* re-read each time: projected tokens rotate; never blocks
		 * (O_NONBLOCK, regular files only) */
		buf_init(&b, TOKEN_FILE_MAX);
		rc = buf_read_file(&b, c->token_file);
		if (rc < 0) {
			int e = errno;

			buf_release(&b);
			*err = diag_add(
				k->diags, DIAG_ERROR, c->at, KUBE_RULE, "",
				"cannot read the token file %s of user '%s': %s", c->token_file,
				c->info.user ? c->info.user : "(service account)",
				rc == BUF_ETOOBIG ? "larger than 1 MiB" : kube_file_error(e));
			return NULL;
		}
		n = b.len;
		while (n &&
		       (b.data[n - 1] == '\n' || b.data[n - 1] == '\r' || b.data[n - 1] == ' '))
			n--;
		t = xstrndup(b.data, n);
		memset(b.data, 0, b.len);
		buf_release(&b);
		if (kube_has_ctl(t) || strlen(t) != n) {
			memset(t, 0, n);
			free(t);
			*err = diag_add(k->diags, DIAG_ERROR, c->at, KUBE_RULE, "",
					"the token file %s of user '%s' holds a control "
					"character (CR, LF or another): refusing to send it "
					"in an HTTP header",
					c->token_file,
					c->info.user ? c->info.user : "(service account)");
			return NULL;
		}
		return t;
	}
	if (c->exec) {
		time_t now = time(NULL);

		if (k->have_cred && k->cred.expires && now >= k->cred.expires) {
			kube_cred_release(&k->cred);
			k->have_cred = false;
		}
		if (!k->have_cred) {
			if (kube_exec_run(&k->cred, k->arena, k->diags, c, k->deadline, k->env) <
			    0) {
				*err = -1;
				return NULL;
			}
			k->have_cred = true;
		}
		return k->cred.token ? xstrdup(k->cred.token) : NULL;
	}
	return NULL;
}

static void
set_tls(struct kube_client *k)
{
	struct kube_conf *c = &k->conf;
	CURL *h = k->curl;

	if (c->insecure) {
		curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 0L);
		curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 0L);
	} else if (c->ca_data) {
		/* certificate-authority files were read into ca_data by
		 * kube_config_load(): curl never opens a path of ours */
		struct curl_blob blob = { (void *)c->ca_data, c->ca_len, CURL_BLOB_COPY };

		curl_easy_setopt(h, CURLOPT_CAINFO_BLOB, &blob);
	}
	if (k->have_cred && k->cred.cert && k->cred.key) {
		struct curl_blob cb = { k->cred.cert, strlen(k->cred.cert), CURL_BLOB_COPY };
		struct curl_blob kb = { k->cred.key, strlen(k->cred.key), CURL_BLOB_COPY };

		curl_easy_setopt(h, CURLOPT_SSLCERT_BLOB, &cb);
		curl_easy_setopt(h, CURLOPT_SSLKEY_BLOB, &kb);
	} else if (c->cert_data) {
		struct curl_blob cb = { (void *)c->cert_data, c->cert_len, CURL_BLOB_COPY };
		struct curl_blob kb = { (void *)c->key_data, c->key_len, CURL_BLOB_COPY };

		curl_easy_setopt(h, CURLOPT_SSLCERT_BLOB, &cb);
		curl_easy_setopt(h, CURLOPT_SSLKEY_BLOB, &kb);
	}
	curl_easy_setopt(h, CURLOPT_SSLCERTTYPE, "PEM");
	curl_easy_setopt(h, CURLOPT_SSLKEYTYPE, "PEM");
}

static bool
tls_error(CURLcode cc)
{
	return cc == CURLE_PEER_FAILED_VERIFICATION || cc == CURLE_SSL_CACERT_BADFILE ||
	       cc == CURLE_SSL_CONNECT_ERROR || cc == CURLE_SSL_ISSUER_ERROR ||
	       cc == CURLE_SSL_CIPHER || cc == CURLE_SSL_INVALIDCERTSTATUS ||
	       cc == CURLE_SSL_PINNEDPUBKEYNOTMATCH;
}

static bool
dropped(CURLcode cc)
{
	return cc == CURLE_GOT_NOTHING || cc == CURLE_RECV_ERROR || cc == CURLE_SEND_ERROR ||
	       cc == CURLE_PARTIAL_FILE;
}

/* Where the client certificate and key came from, for messages. */
static const char *
client_cert_source(struct kube_client *k)
{
	struct kube_conf *c = &k->conf;
	const char *user = c->info.user ? c->info.user : "(service account)";

	if (k->have_cred && k->cred.cert && c->exec)
		return arena_printf(k->arena,
				    "the clientCertificateData and "
				    "clientKeyData that the exec credential plugin "
				    "'%s' of user '%s' answered with",
				    c->exec->command, user);
	if (c->cert_file || c->key_file)
		return arena_printf(k->arena,
				    "client-certificate%s and client-key%s "
				    "of user '%s' in %s",
				    c->cert_file ? "" : "-data", c->key_file ? "" : "-data", user,
				    c->info.origin);
	return arena_printf(k->arena,
			    "client-certificate-data and "
			    "client-key-data of user '%s' in %s",
			    user, c->info.origin);
}

/* One attempt.  Returns the curl result; r holds the answer. */
/* What is sent: GET without a body, or a write. */
struct send {
	const char *method;       /* "GET", "PATCH", "POST" */
	const char *content_type; /* of body, or NULL */
	const char *body;         /* NULL for a GET */
	bool pass_429;            /* 429 goes back to the caller (PDB) */
};

static const struct send send_get = { "GET", NULL, NULL, false };

static CURLcode
perform(struct kube_client *k, const char *url, const struct send *sd, struct resp *r, int *err)
{
	struct kube_conf *c = &k->conf;
	CURL *h = k->curl;
	struct curl_slist *hdr = NULL;
	char *token;
	double left = k->deadline - kube_now();
	CURLcode cc;

	*err = 0;
	token = current_token(k, err);
	if (*err)
		return CURLE_OK;
	curl_easy_reset(h);
	k->errbuf[0] = '\0';
	curl_easy_setopt(h, CURLOPT_URL, url);
	if (sd->body) {
		curl_easy_setopt(h, CURLOPT_POSTFIELDS, sd->body);
		curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, (long)strlen(sd->body));
		curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, sd->method);
	} else {
		curl_easy_setopt(h, CURLOPT_HTTPGET, 1L);
	}
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, k->errbuf);
	curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, (long)(left * 1000) + 1);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, (long)(left * 1000) + 1);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, r);
	curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(h, CURLOPT_HEADERDATA, r);
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "https,http");
	curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
	if (!c->disable_compression)
		curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");
	if (c->proxy_url)
		curl_easy_setopt(h, CURLOPT_PROXY, c->proxy_url);
	if (k->connect_to)
		curl_easy_setopt(h, CURLOPT_CONNECT_TO, k->connect_to);
	set_tls(k);
	hdr = curl_slist_append(hdr, "Accept: application/json");
	if (sd->body && sd->content_type) {
		struct buf b;

		buf_init(&b, 0);
		if (buf_printf(&b, "Content-Type: %s", sd->content_type) == 0)
			hdr = curl_slist_append(hdr, b.data);
		buf_release(&b);
	}
	hdr = curl_slist_append(hdr, "User-Agent: gpusite/" GPUSITE_VERSION " (linux)");
	/* a bearer token only ever goes over TLS */
	if (token && !strncmp(c->info.server, "https://", 8)) {
		struct buf b;

		buf_init(&b, 0);
		if (buf_printf(&b, "Authorization: Bearer %s", token) == 0)
			hdr = curl_slist_append(hdr, b.data);
		memset(b.data, 0, b.len);
		buf_release(&b);
	} else if (c->username && c->password && !strncmp(c->info.server, "https://", 8)) {
		curl_easy_setopt(h, CURLOPT_USERNAME, c->username);
		curl_easy_setopt(h, CURLOPT_PASSWORD, c->password);
	}
	if (c->impersonate) {
		struct buf b;

		buf_init(&b, 0);
		if (buf_printf(&b, "Impersonate-User: %s", c->impersonate) == 0)
			hdr = curl_slist_append(hdr, b.data);
		buf_release(&b);
	}
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdr);
	if (token) {
		memset(token, 0, strlen(token));
		free(token);
	}
	cc = curl_easy_perform(h);
	k->requests++;
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &r->code);
	/* the header list held the token: wipe it before freeing */
	for (struct curl_slist *s = hdr; s; s = s->next)
		memset(s->data, 0, strlen(s->data));
	curl_slist_free_all(hdr);
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, NULL);
	return cc;
}

/*
 * GET server+path with retries.  0: an HTTP answer is in r (any status
 * the caller must judge); KUBE_EFAIL after a diagnostic.
 */
static int
request_send(struct kube_client *k, const char *path, const struct send *sd, struct resp *r,
	     const char *what)
{
	const char *url = arena_printf(k->arena, "%s%s", k->conf.info.server, path);
	const char *fetch = k->fetch_base == k->conf.info.server
				    ? url
				    : arena_printf(k->arena, "%s%s", k->fetch_base, path);
	int tries = 0, drops = 0, err;
	bool reexec = false;

	for (;;) {
		double t0 = kube_now(), wait;
		CURLcode cc;

		if (t0 >= k->deadline)
			return timeout_fail(k, what);
		buf_reset(&r->body);
		r->code = 0;
		kube_answer_init(&r->meta);
		r->too_big = false;
		cc = perform(k, fetch, sd, r, &err);
		if (err)
			return KUBE_EFAIL;
		if (k->verbose > 0) {
			fprintf(k->log, "gpusite: %s %s %ld in %.0f ms%s\n", sd->method, url,
				cc == CURLE_OK ? r->code : 0L, (kube_now() - t0) * 1000,
				cc == CURLE_OK ? "" : " (no answer)");
			fflush(k->log);
		}
		if (r->too_big)
			return diag_add(k->diags, DIAG_ERROR, (struct pos)POS_NONE, KUBE_RULE, "",
					"the answer to %s %s is larger than %zu MiB; "
					"refusing it (is that really an API server?)",
					sd->method, url, r->body.cap >> 20);
		if (cc == CURLE_OPERATION_TIMEDOUT || kube_now() >= k->deadline)
			return timeout_fail(k, what);
		if (cc == CURLE_SSL_CERTPROBLEM)
			return diag_add(k->diags, DIAG_ERROR, (struct pos)POS_NONE, KUBE_RULE, "",
					"cannot use the client certificate for %s: %s; "
					"check %s",
					k->conf.info.server, curl_text(k, cc),
					client_cert_source(k));
		if (tls_error(cc))
			return diag_add(k->diags, DIAG_ERROR, (struct pos)POS_NONE, KUBE_RULE, "",
					"cannot verify the TLS certificate of %s: %s; "
					"check certificate-authority(-data) of cluster '%s' "
					"in %s",
					k->conf.info.server, curl_text(k, cc),
					k->conf.info.cluster ? k->conf.info.cluster : "",
					k->conf.info.origin);
		if (dropped(cc) && ++drops <= DROP_RETRY_MAX) {
			sleep_for(fmin(0.2 * drops, k->deadline - kube_now()));
			continue;
		}
		if (cc == CURLE_COULDNT_CONNECT || cc == CURLE_COULDNT_RESOLVE_HOST ||
		    cc == CURLE_COULDNT_RESOLVE_PROXY)
			return diag_add(k->diags, DIAG_ERROR, (struct pos)POS_NONE, KUBE_RULE, "",
					"cannot connect to the API server "
					"%s of context '%s' (%s): is the cluster up, and the "
					"kubeconfig's server (or proxy-url) right?",
					k->conf.info.server,
					k->conf.info.context ? k->conf.info.context : "in-cluster",
					curl_text(k, cc));
		if (cc != CURLE_OK)
			return diag_add(k->diags, DIAG_ERROR, (struct pos)POS_NONE, KUBE_RULE, "",
					"cannot %s: %s: %s%s", what, k->conf.info.server,
					curl_text(k, cc),
					dropped(cc) ? " (the connection was dropped "
						      "every time)"
						    : "");
		if (r->code == 401 && k->conf.exec && !reexec) {
			/* the cached credential may have been revoked: once more */
			reexec = true;
			kube_cred_release(&k->cred);
			k->have_cred = false;
			continue;
		}
		if (((r->code == 429 && !sd->pass_429) || r->code >= 500) && ++tries < RETRY_MAX) {
			wait = r->meta.retry_after >= 0 ? r->meta.retry_after
							: fmin(0.25 * pow(2, tries - 1), 4.0);
			if (kube_now() + wait >= k->deadline)
				return timeout_fail(k, what);
			sleep_for(wait);
			continue;
		}
		return 0;
	}
}

static int
request(struct kube_client *k, const char *path, struct resp *r, const char *what)
{
	return request_send(k, path, &send_get, r, what);
}

/* ---------------------------------------------------------- errors */

static const char *
res_name(struct arena *a, const char *plural, const char *group)
{
	return *group ? arena_printf(a, "%s.%s", plural, group) : plural;
}

/* Turn a non-2xx answer into one diagnostic. */
static int
status_fail(struct kube_client *k, const struct resp *r, const char *verb, const char *plural,
	    const char *group, const char *ns, const char *name)
{
	struct arena *a = k->arena;
	const char *res = res_name(a, plural, group);
	const char *obj = name ? arena_printf(a, "%s '%s'", res, name) : res;
	const char *msg = kube_status_message(a, r->body.data, r->body.len);

	switch (r->code) {
	case 401:
		return diag_add(k->diags, DIAG_ERROR, k->conf.at, KUBE_RULE, "",
				"the API server %s rejected the credentials of user "
				"'%s' (%s) with 401 Unauthorized: they are missing, "
				"expired or for another cluster",
				k->conf.info.server,
				k->conf.info.user ? k->conf.info.user : "(service account)",
				k->conf.info.auth);
	case 403:
		if (ns && *ns)
			return diag_add(k->diags, DIAG_ERROR, (struct pos)POS_NONE, KUBE_RULE, "",
					"cannot %s %s in namespace '%s': RBAC needs '%s' on "
					"'%s' in namespace '%s' for the user of context '%s'",
					verb, obj, ns, verb, res, ns,
					k->conf.info.context ? k->conf.info.context : "in-cluster");
		return diag_add(k->diags, DIAG_ERROR, (struct pos)POS_NONE, KUBE_RULE, "",
				"cannot %s %s at the cluster scope: RBAC needs '%s' on "
				"'%s' for the user of context '%s'",
				verb, obj, verb, res,
				k->conf.info.context ? k->conf.info.context : "in-cluster");
	default:
		return diag_add(k->diags, DIAG_ERROR, (struct pos)POS_NONE, KUBE_RULE, "",
				"cannot %s %s: the API server answered %ld%s%s", verb, obj, r->code,
				msg ? ": " : "", msg ? msg : "");
	}
}

/* ---------------------------------------------------------- discovery */

static void
split_api_version(struct arena *a, const char *api_version, const char **group,
		  const char **version)
{
	const char *slash = strchr(api_version, '/');

	if (!slash) {
		*group = "";
		*version = api_version;
	} else {
		*group = arena_strndup(a, api_version, (size_t)(slash - api_version));
		*version = slash + 1;
	}
}

static int
discover(struct gv_cache **out, struct kube_client *k, const char *group, const char *version)
{
	struct arena *a = k->arena;
	const char *gv = *group ? arena_printf(a, "%s/%s", group, version) : version;
	const char *path =
		*group ? arena_printf(a, "/apis/%s", gv) : arena_printf(a, "/api/%s", gv);
	struct gv_cache *c = NULL;
	struct resp r;
	const struct node *root, *list;
	int rc;

	for (size_t i = 0; i < k->ngv; i++)
		if (!strcmp(k->gvs[i].gv, gv)) {
			*out = &k->gvs[i];
			return 0;
		}
	memset(&r, 0, sizeof(r));
	buf_init(&r.body, KUBE_MAX_BODY);
	rc = request(k, path, &r, arena_printf(a, "discover the API group %s", gv));
	if (rc < 0)
		goto out;
	ARENA_GROW(a, k->gvs, k->ngv, k->agv, 16);
	c = &k->gvs[k->ngv];
	memset(c, 0, sizeof(*c));
	c->gv = gv;
	if (r.code == 404) {
		k->ngv++;
		*out = c;
		goto out;
	}
	if (r.code != 200) {
		rc = status_fail(k, &r, "discover", gv, "", NULL, NULL);
		goto out;
	}
	{
		const char *where = arena_printf(a, "%s%s", k->conf.info.server, path);
		struct node *doc;

		if (kube_object_parse(&doc, a, k->diags, where, r.body.data, r.body.len) < 0) {
			rc = KUBE_EFAIL;
			goto out;
		}
		root = doc;
		list = node_map_get(root, "resources");
		if (list && !node_is_null(list) && list->kind != NODE_SEQ) {
			rc = diag_add(k->diags, DIAG_ERROR, (struct pos)POS_NONE, KUBE_RULE, "",
				      "malformed answer to GET %s: 'resources' "
				      "is not a list; is that really an API server?",
				      where);
			goto out;
		}
	}
	c->served = true;
	if (list && list->kind == NODE_SEQ) {
		c->res = arena_alloc(a, (list->seq.count + 1) * sizeof(*c->res));
		for (size_t i = 0; i < list->seq.count; i++) {
			const struct node *e = list->seq.items[i];
			const char *name = node_str(node_map_get(e, "name"));
			const char *kind = node_str(node_map_get(e, "kind"));
			struct kube_resource *kr;

			if (!name || !kind || strchr(name, '/'))
				continue; /* subresources */
			kr = &c->res[c->count++];
			kr->group = group;
			kr->version = version;
			kr->kind = kind;
			kr->plural = name;
			kr->namespaced = node_is_bool(node_map_get(e, "namespaced")) &&
					 node_map_get(e, "namespaced")->scalar.i;
		}
	}
	k->ngv++;
	*out = c;
out:
	buf_release(&r.body);
	return rc;
}

int
kube_resource_find(const struct kube_resource **out, struct kube_client *k, const char *api_version,
		   const char *kind)
{
	const char *group, *version;
	struct gv_cache *c = NULL;

	*out = NULL;
	split_api_version(k->arena, api_version, &group, &version);
	if (discover(&c, k, group, version) < 0)
		return KUBE_EFAIL;
	if (!c->served)
		return KUBE_ENOTFOUND;
	for (size_t i = 0; i < c->count; i++)
		if (!strcmp(c->res[i].kind, kind)) {
			*out = &c->res[i];
			return 0;
		}
	return KUBE_ENOTFOUND;
}

static int
res_path(struct buf *b, const struct kube_resource *r, const char *ns, const char *name)
{
	int rc = *r->group ? buf_printf(b, "/apis/%s/%s", r->group, r->version)
			   : buf_printf(b, "/api/%s", r->version);

	if (rc == 0 && r->namespaced && ns && *ns) {
		rc = buf_adds(b, "/namespaces/");
		if (rc == 0)
			rc = kube_url_escape(b, ns);
	}
	if (rc == 0)
		rc = buf_printf(b, "/%s", r->plural);
	if (rc == 0 && name) {
		rc = buf_addch(b, '/');
		if (rc == 0)
			rc = kube_url_escape(b, name);
	}
	return rc;
}

/* ---------------------------------------------------------- GET, LIST */

int
kube_get(struct node **out, struct kube_client *k, struct arena *a, const char *api_version,
	 const char *kind, const char *ns, const char *name)
{
	const struct kube_resource *res;
	struct buf path;
	struct resp r;
	int rc;

	*out = NULL;
	rc = kube_resource_find(&res, k, api_version, kind);
	if (rc < 0)
		return rc;
	buf_init(&path, 0);
	memset(&r, 0, sizeof(r));
	buf_init(&r.body, KUBE_MAX_BODY);
	if (res_path(&path, res, ns, name) < 0) {
		rc = KUBE_EFAIL;
		goto out;
	}
	rc = request(k, path.data, &r,
		     arena_printf(k->arena, "get %s '%s'",
				  res_name(k->arena, res->plural, res->group), name));
	if (rc < 0)
		goto out;
	if (r.code == 404) {
		rc = KUBE_ENOTFOUND;
		goto out;
	}
	if (r.code != 200) {
		rc = status_fail(k, &r, "get", res->plural, res->group, res->namespaced ? ns : NULL,
				 name);
		goto out;
	}
	rc = kube_object_parse(out, a, k->diags,
			       arena_printf(k->arena, "%s%s", k->conf.info.server, path.data),
			       r.body.data, r.body.len);
out:
	buf_release(&path);
	buf_release(&r.body);
	return rc;
}

static int
list_query(struct buf *b, const struct kube_resource *res, const struct kube_list_query *q,
	   const char *cont)
{
	if (res_path(b, res, q->namespace, NULL) < 0 ||
	    buf_printf(b, "?limit=%u", q->limit ? q->limit : KUBE_PAGE_LIMIT) < 0)
		return -1;
	if (q->label_selector && *q->label_selector &&
	    (buf_adds(b, "&labelSelector=") < 0 || kube_url_escape(b, q->label_selector) < 0))
		return -1;
	if (q->field_selector && *q->field_selector &&
	    (buf_adds(b, "&fieldSelector=") < 0 || kube_url_escape(b, q->field_selector) < 0))
		return -1;
	if (cont && (buf_adds(b, "&continue=") < 0 || kube_url_escape(b, cont) < 0))
		return -1;
	return 0;
}

/* FNV-1a of a continue token: the tokens of one list, to refuse a repeat. */
static uint64_t
token_hash(const char *s, size_t n)
{
	uint64_t h = 14695981039346656037ull;

	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ull;
	}
	return h;
}

struct seen_tokens {
	uint64_t *h;
	size_t count, alloc;
};

/* true when `tok` was seen before in this list (else it is recorded) */
static bool
token_seen(struct seen_tokens *t, const char *tok, size_t n)
{
	uint64_t h = token_hash(tok, n);

	for (size_t i = 0; i < t->count; i++)
		if (t->h[i] == h)
			return true;
	if (t->count == t->alloc) {
		t->alloc = t->alloc ? t->alloc * 2 : 64;
		t->h = xrealloc(t->h, t->alloc * sizeof(*t->h));
	}
	t->h[t->count++] = h;
	return false;
}

/* One LIST as it goes page by page. */
struct list_walk {
	struct kube_client *k;
	const struct kube_resource *res;
	const char *origin; /* where the items came from, for messages about them */
	struct seen_tokens seen;
	size_t objects, bytes; /* over the pages so far */
};

/* The page in r (a 200): its items to cb, and in *cont the token of the
 * next page, or NULL after the last.  On a refusal *cont is left as it is. */
static int
list_page(char **cont, struct list_walk *w, struct resp *r, const struct kube_list_cb *cb)
{
	struct kube_client *k = w->k;
	const struct kube_resource *res = w->res;
	struct arena page;
	struct kube_page pg;
	int rc = 0;

	/* the whole list is bounded, not only each page */
	w->bytes += r->body.len;
	if (w->bytes > k->list_max_bytes)
		return diag_add(k->diags, DIAG_ERROR, (struct pos)POS_NONE, KUBE_RULE, "",
				"the list of %s from %s is larger than %zu MiB "
				"over its pages; refusing to read on (raise %s "
				"if the cluster really is that large)",
				res_name(k->arena, res->plural, res->group), w->origin,
				k->list_max_bytes >> 20, KUBE_LIST_MAX_MIB_ENV);
	arena_init(&page);
	if (kube_page_parse(&pg, &page, k->diags, w->origin, r->body.data, r->body.len) < 0) {
		arena_release(&page);
		return KUBE_EFAIL;
	}
	buf_reset(&r->body);
	w->objects += pg.items->seq.count;
	if (w->objects > k->list_max_objects) {
		arena_release(&page);
		return diag_add(k->diags, DIAG_ERROR, (struct pos)POS_NONE, KUBE_RULE, "",
				"the list of %s from %s has more than %zu "
				"objects over its pages; refusing to read on (raise "
				"%s if the cluster really is that large)",
				res_name(k->arena, res->plural, res->group), w->origin,
				k->list_max_objects, KUBE_LIST_MAX_OBJECTS_ENV);
	}
	if (pg.cont && *pg.cont && token_seen(&w->seen, pg.cont, pg.cont_len)) {
		arena_release(&page);
		return diag_add(k->diags, DIAG_ERROR, (struct pos)POS_NONE, KUBE_RULE, "",
				"the API server sent the same continue token "
				"twice in the list of %s from %s (after %zu "
				"objects): the list would never end; is that "
				"really an API server?",
				res_name(k->arena, res->plural, res->group), w->origin, w->objects);
	}
	for (size_t i = 0; i < pg.items->seq.count && rc == 0; i++)
		rc = cb->item(cb->payload, pg.items->seq.items[i]);
	free(*cont);
	*cont = pg.cont && *pg.cont ? xstrdup(pg.cont) : NULL;
	arena_release(&page);
	return rc;
}

int
kube_list(struct kube_client *k, const struct kube_list_query *q, const struct kube_list_cb *cb)
{
	struct list_walk w = { k, NULL, NULL, { NULL, 0, 0 }, 0, 0 };
	struct buf path;
	struct resp r;
	char *cont = NULL;
	int rc, restarts = 0;
	const char *what;

	rc = kube_resource_find(&w.res, k, q->api_version, q->kind);
	if (rc < 0)
		return rc;
	what = arena_printf(k->arena, "list %s", res_name(k->arena, w.res->plural, w.res->group));
	buf_init(&path, 0);
	/* where the items came from, for messages about them; in the
	 * client's arena, since items may be cloned out of the page */
	if (res_path(&path, w.res, q->namespace, NULL) < 0) {
		buf_release(&path);
		return KUBE_EFAIL;
	}
	w.origin = arena_printf(k->arena, "%s%s", k->conf.info.server, path.data);
	memset(&r, 0, sizeof(r));
	buf_init(&r.body, KUBE_MAX_BODY);
	for (;;) {
		buf_reset(&path);
		if (list_query(&path, w.res, q, cont) < 0) {
			rc = KUBE_EFAIL;
			break;
		}
		rc = request(k, path.data, &r, what);
		if (rc < 0)
			break;
		if (r.code == 410 && cont && restarts < RESTART_MAX) {
			/* continue token expired: start over for a consistent list */
			restarts++;
			free(cont);
			cont = NULL;
			w.seen.count = 0;
			w.objects = w.bytes = 0;
			if (cb->restart)
				cb->restart(cb->payload);
			continue;
		}
		if (r.code == 404) {
			rc = KUBE_ENOTFOUND;
			break;
		}
		if (r.code != 200) {
			rc = status_fail(k, &r, "list", w.res->plural, w.res->group,
					 w.res->namespaced ? q->namespace : NULL, NULL);
			break;
		}
		rc = list_page(&cont, &w, &r, cb);
		if (rc != 0 || !cont)
			break;
	}
	free(cont);
	free(w.seen.h);
	buf_release(&path);
	buf_release(&r.body);
	return rc;
}

struct collect {
	struct arena *a;
	struct node *seq;
};

static int
collect_item(void *payload, const struct node *item)
{
	struct collect *c = payload;

	node_seq_push(c->a, c->seq, node_clone(c->a, item));
	return 0;
}

static void
collect_restart(void *payload)
{
	struct collect *c = payload;

	c->seq->seq.count = 0;
}

int
kube_list_all(struct node **out, struct kube_client *k, struct arena *a,
	      const struct kube_list_query *q)
{
	struct collect c = { a, node_new_seq(a, (struct pos)POS_NONE) };
	struct kube_list_cb cb = { collect_item, collect_restart, &c };
	int rc = kube_list(k, q, &cb);

	*out = rc == 0 ? c.seq : NULL;
	return rc;
}

int
kube_list_nodes(struct node **out, struct kube_client *k, struct arena *a)
{
	struct kube_list_query q = { "v1", "Node", NULL, NULL, NULL, 0 };

	return kube_list_all(out, k, a, &q);
}

int
kube_list_daemonsets(struct node **out, struct kube_client *k, struct arena *a, const char *ns)
{
	struct kube_list_query q = { "apps/v1", "DaemonSet", ns, NULL, NULL, 0 };

	return kube_list_all(out, k, a, &q);
}

/* ---------------------------------------------------------- cluster */

static int
first_provider(void *payload, const struct node *item)
{
	const char **pid = payload;
	const char *s = node_str(node_path(item, "spec.providerID"));

	if (s && !strncmp(s, "eks-hybrid:///", 14)) {
		*pid = s;
		return 1; /* stop: one is enough */
	}
	return 0;
}

struct first_ctx {
	struct arena *a;
	const char *pid;
};

static int
first_provider_copy(void *payload, const struct node *item)
{
	struct first_ctx *f = payload;
	const char *pid = NULL;

	if (first_provider(&pid, item)) {
		f->pid = arena_strdup(f->a, pid);
		return 1;
	}
	return 0;
}

const char *
kube_cluster_name(struct kube_client *k, const char **how)
{
	struct kube_list_query q = { "v1", "Node", NULL, "eks.amazonaws.com/compute-type=hybrid",
				     NULL, 50 };
	struct first_ctx f = { k->arena, NULL };
	struct kube_list_cb cb = { first_provider_copy, NULL, &f };
	const char *p, *slash;

	if (k->conf.info.eks_cluster) {
		*how = "the EKS cluster ARN in the kubeconfig";
		return k->conf.info.eks_cluster;
	}
	if (kube_list(k, &q, &cb) < 0 || !f.pid)
		return NULL;
	/* eks-hybrid:///REGION/CLUSTER/NODE */
	p = f.pid + 14;
	p = strchr(p, '/');
	if (!p)
		return NULL;
	p++;
	slash = strchr(p, '/');
	if (!slash || slash == p)
		return NULL;
	*how = "the providerID of hybrid nodes";
	return arena_strndup(k->arena, p, (size_t)(slash - p));
}

/* ---------------------------------------------------------- writes */

/* Append s as a JSON string; names come from the API or the command
 * line, so quote them properly. */
static int
json_quote(struct buf *b, const char *s)
{
	int rc = buf_addch(b, '"');

	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			rc |= buf_printf(b, "\\%c", *p);
		else if (*p < 0x20)
			rc |= buf_printf(b, "\\u%04x", *p);
		else
			rc |= buf_addch(b, (char)*p);
	}
	return rc | buf_addch(b, '"');
}

static const char *
buf_to_arena(struct arena *a, struct buf *b)
{
	const char *s = arena_strndup(a, b->data, b->len);

	buf_release(b);
	return s;
}

int
kube_call_cordon(struct kube_call *out, struct arena *a, const char *node, bool cordon)
{
	struct buf b;
	int rc;

	buf_init(&b, 0);
	rc = buf_adds(&b, "/api/v1/nodes/");
	rc |= kube_url_escape(&b, node);
	out->method = "PATCH";
	out->path = buf_to_arena(a, &b);
	out->content_type = "application/strategic-merge-patch+json";
	/* kubectl cordon / uncordon: unschedulable false is omitted from
	 * the node, so the patch deletes the field */
	out->body = cordon ? "{\"spec\":{\"unschedulable\":true}}"
			   : "{\"spec\":{\"unschedulable\":null}}";
	out->pass_429 = false;
	return rc ? KUBE_EFAIL : 0;
}

int
kube_call_evict(struct kube_call *out, struct arena *a, const char *ns, const char *pod)
{
	struct buf b;
	int rc;

	buf_init(&b, 0);
	rc = buf_adds(&b, "/api/v1/namespaces/");
	rc |= kube_url_escape(&b, ns);
	rc |= buf_adds(&b, "/pods/");
	rc |= kube_url_escape(&b, pod);
	rc |= buf_adds(&b, "/eviction");
	out->method = "POST";
	out->path = buf_to_arena(a, &b);
	out->content_type = "application/json";
	/* byte for byte what kubectl drain sends (k8s.io/kubectl/pkg/drain) */
	buf_init(&b, 0);
	rc |= buf_adds(&b, "{\"kind\":\"Eviction\",\"apiVersion\":\"policy/v1\","
			   "\"metadata\":{\"name\":");
	rc |= json_quote(&b, pod);
	rc |= buf_adds(&b, ",\"namespace\":");
	rc |= json_quote(&b, ns);
	rc |= buf_adds(&b, ",\"creationTimestamp\":null},\"deleteOptions\":{}}");
	out->body = buf_to_arena(a, &b);
	out->pass_429 = true;
	return rc ? KUBE_EFAIL : 0;
}

int
kube_call_access_review(struct kube_call *out, struct arena *a, const char *verb, const char *group,
			const char *resource, const char *subresource, const char *ns)
{
	struct buf b;
	int rc;

	out->method = "POST";
	out->path = "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews";
	out->content_type = "application/json";
	/* the question only: no status (the answer's member) and no
	 * metadata, which a review has no use for */
	buf_init(&b, 0);
	rc = buf_adds(&b, "{\"kind\":\"SelfSubjectAccessReview\",\"apiVersion\":"
			  "\"authorization.k8s.io/v1\",\"spec\":{\"resourceAttributes\":{");
	if (ns && *ns) {
		rc |= buf_adds(&b, "\"namespace\":");
		rc |= json_quote(&b, ns);
		rc |= buf_addch(&b, ',');
	}
	rc |= buf_adds(&b, "\"verb\":");
	rc |= json_quote(&b, verb);
	rc |= buf_adds(&b, ",\"group\":");
	rc |= json_quote(&b, group ? group : "");
	rc |= buf_adds(&b, ",\"resource\":");
	rc |= json_quote(&b, resource);
	if (subresource && *subresource) {
		rc |= buf_adds(&b, ",\"subresource\":");
		rc |= json_quote(&b, subresource);
	}
	rc |= buf_adds(&b, "}}}");
	out->body = buf_to_arena(a, &b);
	out->pass_429 = false;
	return rc ? KUBE_EFAIL : 0;
}

/* The first details.causes[].message of a Status body, capped. */
static const char *
status_cause(struct arena *a, const struct node *st)
{
	const struct node *causes = node_path(st, "details.causes");
	const char *msg;

	if (!causes || causes->kind != NODE_SEQ || !causes->seq.count)
		return NULL;
	msg = node_str(node_map_get(causes->seq.items[0], "message"));
	if (!msg)
		return NULL;
	if (strlen(msg) > KUBE_MAX_STATUS_MSG)
		return arena_printf(a, "%.*s...", (int)KUBE_MAX_STATUS_MSG, msg);
	return msg;
}

int
kube_send(struct kube_answer *out, struct kube_client *k, struct arena *a,
	  const struct kube_call *c, const char *what)
{
	struct send sd = { c->method, c->content_type, c->body, c->pass_429 };
	struct resp r;
	int rc;

	memset(out, 0, sizeof(*out));
	memset(&r, 0, sizeof(r));
	buf_init(&r.body, KUBE_MAX_WRITE_ANSWER);
	rc = request_send(k, c->path, &sd, &r, what);
	if (rc < 0)
		goto out;
	out->status = r.code;
	out->retry_after = r.meta.retry_after;
	if (r.code == 401) {
		rc = status_fail(k, &r, what, "", "", NULL, NULL);
		goto out;
	}
	if (r.body.len) {
		struct diags quiet;
		struct node *doc;

		diags_init(&quiet, a);
		doc = json_parse(a, &quiet, KUBE_RULE, c->path, r.body.data, r.body.len);
		if (doc && doc->kind == NODE_MAP) {
			out->body = doc;
			if (r.code >= 300) {
				out->message = kube_status_message(a, r.body.data, r.body.len);
				out->cause = status_cause(a, doc);
			}
		}
	}
	if (r.code >= 200 && r.code < 300 && !out->body)
		rc = diag_add(k->diags, DIAG_ERROR, (struct pos)POS_NONE, KUBE_RULE, "",
			      "malformed answer to %s %s%s: not a JSON object; is "
			      "that really an API server?",
			      c->method, k->conf.info.server, c->path);
out:
	buf_release(&r.body);
	return rc;
}
