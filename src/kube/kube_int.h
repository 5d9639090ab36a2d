/*
 * kube_int.h - inside the Kubernetes client: the resolved configuration,
 * the exec credential plugin, the client that the rooms of kube/ share and
 * the calls between them.  Only kube/ and its unit tests include this.
 *
 * The rooms: kube_config.c (kubeconfig, in-cluster), kube_exec.c (exec
 * credential plugins), kube_curl.c (libcurl, loaded on first use),
 * kube_http.c (what is read of an answer), kube_transport.c (TLS,
 * credentials, retries, the request loop: the only user of libcurl's
 * API), kube_discovery.c (which resource serves a kind, its path),
 * kube_list.c (GET and the paged LIST), kube_write.c (the drill's writes).
 */
#ifndef GS_KUBE_INT_H
#define GS_KUBE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "base/buf.h"
#include "base/diag.h"
#include "kube/kube.h"

struct arena;
struct buf;

/* users[].user.exec of a kubeconfig. */
struct kube_exec_conf {
	const char *api_version; /* client.authentication.k8s.io/v1 | v1beta1 */
	const char *command;     /* as written, or resolved against the
					 * kubeconfig's directory when it has a '/' */
	const char **args;
	size_t nargs;
	const char **env_names;
	const char **env_values;
	size_t nenv;
	const char *interactive_mode; /* Never | IfAvailable | Always */
	const char *install_hint;     /* or NULL */
	bool provide_cluster_info;
	const struct node *cluster_config; /* extensions client.authentication.k8s.io/exec */
	FILE *log;                         /* where its standard error is shown
					 * (escaped, capped); NULL: stderr */
};

/* Everything a request needs, resolved from kubeconfig or in-cluster. */
struct kube_conf {
	struct kube_info info; /* info.server without URL userinfo */
	const char *userinfo;  /* "user:pass@" of the server URL, or
					 * NULL; never in a message */
	struct pos at;         /* the context entry, for messages */
	/* cluster */
	const char *ca_file;
	const char *ca_data; /* PEM, decoded from base64 */
	size_t ca_len;
	const char *ca_data_b64; /* as written (exec cluster info) */
	bool insecure;
	const char *tls_server_name;
	const char *proxy_url;
	bool disable_compression;
	const struct node *exec_cluster_config; /* extension for exec plugins */
	/* user */
	const char *cert_file;
	const char *key_file;
	const char *cert_data; /* PEM */
	size_t cert_len;
	const char *key_data; /* PEM */
	size_t key_len;
	const char *token;
	const char *token_file; /* re-read for every request */
	const char *username;
	const char *password;
	struct kube_exec_conf *exec;
	const char *impersonate; /* as */
};

/*
 * Resolve the configuration as kubectl does (kube.h, kube_open()).
 * Returns 0 or KUBE_EFAIL after a diagnostic.
 */
int kube_config_load(struct kube_conf *out, struct arena *a, struct diags *d,
		     const struct kube_options *opt);

/*
 * Read the certificate-authority, client-certificate and client-key files
 * into their data fields (curl is never handed a path): without blocking,
 * regular files only, 1 MiB each.  0 or KUBE_EFAIL after a diagnostic.
 */
int kube_config_read_files(struct kube_conf *c, struct arena *a, struct diags *d);

/*
 * kube_incluster.c: the in-cluster configuration (service account) into
 * c; 0 or KUBE_EFAIL after a diagnostic.
 */
int kube_config_in_cluster(struct kube_conf *c, struct arena *a, struct diags *d,
			   const char *(*env)(const char *));

/* kube_base64.c: decode standard base64 (whitespace ignored) into the
 * arena; -1 when the text is not base64. */
int kube_base64_decode(struct arena *a, const char *in, const char **out, size_t *out_len);

/* A credential from an exec plugin (or a token file). */
struct kube_cred {
	char *token;    /* heap, wiped and freed on release */
	char *cert;     /* PEM, heap */
	char *key;      /* PEM, heap */
	time_t expires; /* 0: never */
};

void kube_cred_release(struct kube_cred *c);

/*
 * Run the exec plugin with KUBERNETES_EXEC_INFO set and read its
 * ExecCredential.  `deadline` is a CLOCK_MONOTONIC second count after
 * which the plugin is killed.  Returns 0, or KUBE_EFAIL after a
 * diagnostic that never includes the plugin's output.
 */
int kube_exec_run(struct kube_cred *out, struct arena *a, struct diags *d,
		  const struct kube_conf *conf, double deadline,
		  const char *(*get_env)(const char *));

/* Monotonic seconds. */
double kube_now(void);

/* Append `s` URL-encoded (query values) to b. */
int kube_url_escape(struct buf *b, const char *s);

/* True when `s` holds a C0 control character or DEL: such a value must
 * never go into an HTTP header (CR/LF would inject headers) or a path. */
bool kube_has_ctl(const char *s);

/* Why a file of the configuration could not be read, from errno after
 * buf_read_file(): "not a regular file" for a FIFO or device. */
const char *kube_file_error(int err);

/* ---------------------------------------------------------- answers
 * kube_http.c: what the client reads of an HTTP answer, outside the curl
 * callbacks so that fuzz/fuzz_http.c drives the same code. */

#define KUBE_MAX_CONTINUE (16u << 10) /* one continue token */
#define KUBE_MAX_STATUS_MSG 512       /* a Status message, in a diagnostic */

struct kube_answer_meta {
	long status;        /* from the last status line; 0 before one */
	double retry_after; /* seconds; < 0 when absent */
};

void kube_answer_init(struct kube_answer_meta *m);
/* One header line as curl hands it over (CRLF included, not NUL
 * terminated): a status line starts a new answer (1xx, proxy CONNECT). */
void kube_answer_header(struct kube_answer_meta *m, const char *line, size_t n);

/* One LIST page, shape-checked: items a sequence of mappings, metadata a
 * mapping, continue a string of at most KUBE_MAX_CONTINUE bytes. */
struct kube_page {
	const struct node *items; /* NODE_SEQ, maybe empty */
	const char *cont;         /* NULL or "" on the last page */
	size_t cont_len;
};

/*
 * Parse one LIST answer into `a`.  `where` names the URL for messages.
 * 0, or KUBE_EFAIL after one diagnostic ("malformed answer",
 * "continue token too long", or the JSON error).
 */
int kube_page_parse(struct kube_page *out, struct arena *a, struct diags *d, const char *where,
		    const char *body, size_t len);

/* A GET answer: a JSON mapping, else KUBE_EFAIL after a diagnostic. */
int kube_object_parse(struct node **out, struct arena *a, struct diags *d, const char *where,
		      const char *body, size_t len);

/* The message of a Status body, capped at KUBE_MAX_STATUS_MSG bytes (on
 * a UTF-8 boundary), or NULL. */
const char *kube_status_message(struct arena *a, const char *body, size_t len);

/* Why libcurl (loaded on first use, kube_curl.c) is not usable. */
const char *kube_curl_error(void);

/* ---------------------------------------------------------- the client */

/* What kube_transport.c alone holds: libcurl's handle and what goes with
 * it, the credential of the exec plugin. */
struct kube_transport;

/* One group version as discovery found it (kube_discovery.c). */
struct kube_gv {
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
	struct kube_transport *tr;
	struct kube_gv *gvs; /* discovery's cache */
	size_t ngv, agv;
	size_t list_max_objects; /* one whole list, all pages */
	size_t list_max_bytes;
};

/* One answer as the transport received it. */
struct kube_resp {
	long code;
	struct buf body;
	struct kube_answer_meta meta; /* status line, Retry-After */
	bool too_big;
};

/*
 * kube_transport.c: send c (c->path below the server) with retries, one
 * deadline for the whole command.  0: an HTTP answer is in r (any status
 * the caller must judge); KUBE_EFAIL after a diagnostic.  `what` says
 * what the request is for ("list nodes"), for messages.
 */
int kube_request_send(struct kube_client *k, const struct kube_call *c, struct kube_resp *r,
		      const char *what);
/* A GET of path. */
int kube_request(struct kube_client *k, const char *path, struct kube_resp *r, const char *what);

/* kube_http.c: a non-2xx answer to `verb` on a resource (and the object
 * `name` of namespace `ns`, either NULL) as one diagnostic; KUBE_EFAIL. */
int kube_status_fail(struct kube_client *k, const struct kube_resp *r, const char *verb,
		     const char *plural, const char *group, const char *ns, const char *name);

/* kube_http.c: "nodepools.karpenter.sh", "nodes" for messages. */
const char *kube_res_name(struct arena *a, const char *plural, const char *group);
/* Append the path of a resource (of namespace ns, and the object name,
 * when given) to b. */
int kube_res_path(struct buf *b, const struct kube_resource *r, const char *ns, const char *name);

/* kube_http.c: the caps of one whole LIST, from the environment; 0 or
 * KUBE_EFAIL after a diagnostic. */
int kube_list_limits(struct kube_client *k);

/* kube_config.c: getenv(), the default of kube_client_opts.getenv. */
const char *kube_std_getenv(const char *name);

#endif
