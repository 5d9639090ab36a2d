/*
 * kube_transport.c - the connection to the API server, on libcurl: TLS
 * (certificate authority, client certificate, tls-server-name), the
 * credentials of each request (token, token file, exec plugin, basic
 * auth), the request loop with its retries and one deadline for the whole
 * command, and capped answers.  The other rooms of kube/ send through kube_request() and
 * kube_request_send(); nothing else in kube/ calls libcurl, so a change of
 * transport stays in this file.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curl/curl.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/xalloc.h"
#include "kube/kube_int.h"

#define RETRY_MAX 10     /* 429 / 5xx, as client-go */
#define DROP_RETRY_MAX 5 /* connection dropped before an answer */
#define TOKEN_FILE_MAX (1u << 20)

struct kube_transport {
	CURL *curl;
	struct kube_cred cred; /* from the exec plugin */
	bool have_cred;
	unsigned requests;
	const char *fetch_base;        /* server, or its tls-server-name form */
	struct curl_slist *connect_to; /* tls-server-name: where to connect */
	char errbuf[CURL_ERROR_SIZE];
};

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
	k->tr->fetch_base = arena_printf(k->arena, "%.*s%s%s:%s", (int)(h - server), server,
					 k->conf.userinfo ? k->conf.userinfo : "",
					 k->conf.tls_server_name, port);
	k->tr->connect_to =
		curl_slist_append(NULL, arena_printf(k->arena, "%s:%s:%s:%s",
						     k->conf.tls_server_name, port, host, port));
	return k->tr->connect_to ? 0 : -1;
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
			return diag_report(k->diags, (struct pos)POS_NONE, KUBE_RULE, "",
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

	if (!k->tr->errbuf[0])
		return curl_easy_strerror(cc);
	if (ui && *ui) {
		size_t n = strlen(ui) - 1; /* without the '@' */

		while (n && (p = strstr(k->tr->errbuf, arena_strndup(k->arena, ui, n))))
			memset(p, '*', n);
	}
	return k->tr->errbuf;
}

int
kube_open(struct kube_client **out, struct arena *a, struct diags *d,
	  const struct kube_options *opt)
{
	struct kube_client *k;
	static bool curl_ready;

	*out = NULL;
	k = arena_alloc(a, sizeof(*k));
	k->tr = arena_alloc(a, sizeof(*k->tr));
	k->arena = a;
	k->diags = d;
	k->env = opt->getenv ? opt->getenv : kube_std_getenv;
	k->log = opt->log ? opt->log : stderr;
	k->verbose = opt->verbose;
	k->timeout = opt->timeout > 0 ? opt->timeout : KUBE_DEFAULT_TIMEOUT;
	k->deadline = kube_now() + k->timeout;
	if (kube_config_load(&k->conf, a, d, opt) < 0 || kube_config_read_files(&k->conf, a, d) < 0)
		return KUBE_EFAIL;
	if (!curl_ready) {
		if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
			return diag_report(d, (struct pos)POS_NONE, KUBE_RULE, "",
					   "libcurl could not be initialised: %s",
					   kube_curl_error());
		curl_ready = true;
	}
	k->tr->curl = curl_easy_init();
	if (!k->tr->curl)
		return diag_report(d, (struct pos)POS_NONE, KUBE_RULE, "",
				   "libcurl could not be initialised");
	k->tr->fetch_base = k->conf.info.server;
	if (k->conf.userinfo) {
		/* the URL's user:pass@ goes to curl, never into a message */
		const char *h = strstr(k->conf.info.server, "://") + 3;

		k->tr->fetch_base = arena_printf(a, "%.*s%s%s", (int)(h - k->conf.info.server),
						 k->conf.info.server, k->conf.userinfo, h);
	}
	if (kube_list_limits(k) < 0 || proxy_env_check(k) < 0) {
		kube_close(k);
		return KUBE_EFAIL;
	}
	if (k->conf.exec)
		k->conf.exec->log = k->log;
	if (k->conf.tls_server_name && tls_name_route(k) < 0) {
		kube_close(k);
		return diag_report(d, k->conf.at, KUBE_RULE, "",
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
	if (k->tr->curl)
		curl_easy_cleanup(k->tr->curl);
	k->tr->curl = NULL;
	curl_slist_free_all(k->tr->connect_to);
	k->tr->connect_to = NULL;
	kube_cred_release(&k->tr->cred);
}

const struct kube_info *
kube_get_info(const struct kube_client *k)
{
	return &k->conf.info;
}

unsigned
kube_request_count(const struct kube_client *k)
{
	return k->tr->requests;
}

/* ---------------------------------------------------------- transport */

static size_t
on_body(char *ptr, size_t size, size_t nmemb, void *payload)
{
	struct kube_resp *r = payload;
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
	struct kube_resp *r = payload;
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
	return diag_report(k->diags, (struct pos)POS_NONE, KUBE_RULE, "",
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
			*err = diag_report(
				k->diags, c->at, KUBE_RULE, "",
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
			*err = diag_report(k->diags, c->at, KUBE_RULE, "",
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

		if (k->tr->have_cred && k->tr->cred.expires && now >= k->tr->cred.expires) {
			kube_cred_release(&k->tr->cred);
			k->tr->have_cred = false;
		}
		if (!k->tr->have_cred) {
			if (kube_exec_run(&k->tr->cred, k->arena, k->diags, c, k->deadline,
					  k->env) < 0) {
				*err = -1;
				return NULL;
			}
			k->tr->have_cred = true;
		}
		return k->tr->cred.token ? xstrdup(k->tr->cred.token) : NULL;
	}
	return NULL;
}

/*
 * A TLS setting from memory: the kubeconfig's data, never a path curl
 * opens.  The GnuTLS build of libcurl takes none of them
 * (CURLE_NOT_BUILT_IN): say so rather than fail the handshake later.
 */
static int
set_blob(struct kube_client *k, CURLoption opt, const char *what, const void *data, size_t len)
{
	struct curl_blob blob = { (void *)data, len, CURL_BLOB_COPY };
	const curl_version_info_data *v;

	if (curl_easy_setopt(k->tr->curl, opt, &blob) == CURLE_OK)
		return 0;
	v = curl_version_info(CURLVERSION_NOW);
	return diag_report(
		k->diags, k->conf.at, KUBE_RULE, "",
		"the libcurl gpusite loaded (%s, %s) cannot take %s from memory: install"
		" the OpenSSL build of libcurl (Debian: libcurl4), which gpusite loads first",
		v->version, v->ssl_version ? v->ssl_version : "no TLS", what);
}

static int
set_tls(struct kube_client *k)
{
	struct kube_conf *c = &k->conf;
	CURL *h = k->tr->curl;
	int rc = 0;

	if (c->insecure) {
		curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 0L);
		curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 0L);
	} else if (c->ca_data) {
		/* certificate-authority files were read into ca_data by
		 * kube_config_load(): curl never opens a path of ours */
		rc = set_blob(k, CURLOPT_CAINFO_BLOB, "the certificate authority", c->ca_data,
			      c->ca_len);
	}
	if (!rc && k->tr->have_cred && k->tr->cred.cert && k->tr->cred.key) {
		rc = set_blob(k, CURLOPT_SSLCERT_BLOB, "the client certificate", k->tr->cred.cert,
			      strlen(k->tr->cred.cert));
		if (!rc)
			rc = set_blob(k, CURLOPT_SSLKEY_BLOB, "the client key", k->tr->cred.key,
				      strlen(k->tr->cred.key));
	} else if (!rc && c->cert_data) {
		rc = set_blob(k, CURLOPT_SSLCERT_BLOB, "the client certificate", c->cert_data,
			      c->cert_len);
		if (!rc)
			rc = set_blob(k, CURLOPT_SSLKEY_BLOB, "the client key", c->key_data,
				      c->key_len);
	}
	curl_easy_setopt(h, CURLOPT_SSLCERTTYPE, "PEM");
	curl_easy_setopt(h, CURLOPT_SSLKEYTYPE, "PEM");
	return rc;
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

	if (k->tr->have_cred && k->tr->cred.cert && c->exec)
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
static CURLcode
perform(struct kube_client *k, const char *url, const struct kube_call *call, struct kube_resp *r,
	int *err)
{
	struct kube_conf *c = &k->conf;
	CURL *h = k->tr->curl;
	struct curl_slist *hdr = NULL;
	char *token;
	double left = k->deadline - kube_now();
	CURLcode cc;

	*err = 0;
	token = current_token(k, err);
	if (*err)
		return CURLE_OK;
	curl_easy_reset(h);
	k->tr->errbuf[0] = '\0';
	curl_easy_setopt(h, CURLOPT_URL, url);
	if (call->body) {
		curl_easy_setopt(h, CURLOPT_POSTFIELDS, call->body);
		curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, (long)strlen(call->body));
		curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, call->method);
	} else {
		curl_easy_setopt(h, CURLOPT_HTTPGET, 1L);
	}
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, k->tr->errbuf);
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
	if (k->tr->connect_to)
		curl_easy_setopt(h, CURLOPT_CONNECT_TO, k->tr->connect_to);
	if ((*err = set_tls(k)) != 0) {
		if (token) {
			memset(token, 0, strlen(token));
			free(token);
		}
		return CURLE_OK;
	}
	hdr = curl_slist_append(hdr, "Accept: application/json");
	if (call->body && call->content_type) {
		struct buf b;

		buf_init(&b, 0);
		if (buf_printf(&b, "Content-Type: %s", call->content_type) == 0)
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
	k->tr->requests++;
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &r->code);
	/* the header list held the token: wipe it before freeing */
	for (struct curl_slist *s = hdr; s; s = s->next)
		memset(s->data, 0, strlen(s->data));
	curl_slist_free_all(hdr);
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, NULL);
	return cc;
}

int
kube_request_send(struct kube_client *k, const struct kube_call *call, struct kube_resp *r,
		  const char *what)
{
	const char *url = arena_printf(k->arena, "%s%s", k->conf.info.server, call->path);
	const char *fetch = k->tr->fetch_base == k->conf.info.server
				    ? url
				    : arena_printf(k->arena, "%s%s", k->tr->fetch_base, call->path);
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
		cc = perform(k, fetch, call, r, &err);
		if (err)
			return KUBE_EFAIL;
		if (k->verbose > 0) {
			fprintf(k->log, "gpusite: %s %s %ld in %.0f ms%s\n", call->method, url,
				cc == CURLE_OK ? r->code : 0L, (kube_now() - t0) * 1000,
				cc == CURLE_OK ? "" : " (no answer)");
			fflush(k->log);
		}
		if (r->too_big)
			return diag_report(k->diags, (struct pos)POS_NONE, KUBE_RULE, "",
					   "the answer to %s %s is larger than %zu MiB; "
					   "refusing it (is that really an API server?)",
					   call->method, url, r->body.cap >> 20);
		if (cc == CURLE_OPERATION_TIMEDOUT || kube_now() >= k->deadline)
			return timeout_fail(k, what);
		if (cc == CURLE_SSL_CERTPROBLEM)
			return diag_report(k->diags, (struct pos)POS_NONE, KUBE_RULE, "",
					   "cannot use the client certificate for %s: %s; "
					   "check %s",
					   k->conf.info.server, curl_text(k, cc),
					   client_cert_source(k));
		if (tls_error(cc))
			return diag_report(k->diags, (struct pos)POS_NONE, KUBE_RULE, "",
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
			return diag_report(k->diags, (struct pos)POS_NONE, KUBE_RULE, "",
					   "cannot connect to the API server "
					   "%s of context '%s' (%s): is the cluster up, and the "
					   "kubeconfig's server (or proxy-url) right?",
					   k->conf.info.server,
					   k->conf.info.context ? k->conf.info.context
								: "in-cluster",
					   curl_text(k, cc));
		if (cc != CURLE_OK)
			return diag_report(k->diags, (struct pos)POS_NONE, KUBE_RULE, "",
					   "cannot %s: %s: %s%s", what, k->conf.info.server,
					   curl_text(k, cc),
					   dropped(cc) ? " (the connection was dropped "
							 "every time)"
						       : "");
		if (r->code == 401 && k->conf.exec && !reexec) {
			/* the cached credential may have been revoked: once more */
			reexec = true;
			kube_cred_release(&k->tr->cred);
			k->tr->have_cred = false;
			continue;
		}
		if (((r->code == 429 && !call->pass_429) || r->code >= 500) &&
		    ++tries < RETRY_MAX) {
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

int
kube_request(struct kube_client *k, const char *path, struct kube_resp *r, const char *what)
{
	const struct kube_call get = { "GET", path, NULL, NULL, false };

	return kube_request_send(k, &get, r, what);
}
