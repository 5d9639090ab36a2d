/*
 * kube_int.h - inside the Kubernetes client: the resolved configuration,
 * the exec credential plugin and the transport.  Only kube/ and its unit
 * tests include this.
 */
#ifndef GS_KUBE_INT_H
#define GS_KUBE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "base/diag.h"
#include "kube/kube.h"

struct arena;
struct buf;

/* users[].user.exec of a kubeconfig. */
struct kube_exec_conf {
	const char *api_version;	/* client.authentication.k8s.io/v1 | v1beta1 */
	const char *command;		/* as written, or resolved against the
					 * kubeconfig's directory when it has a '/' */
	const char **args;
	size_t nargs;
	const char **env_names;
	const char **env_values;
	size_t nenv;
	const char *interactive_mode;	/* Never | IfAvailable | Always */
	const char *install_hint;	/* or NULL */
	bool provide_cluster_info;
	const struct node *cluster_config;	/* extensions client.authentication.k8s.io/exec */
};

/* Everything a request needs, resolved from kubeconfig or in-cluster. */
struct kube_conf {
	struct kube_info info;
	struct pos at;			/* the context entry, for messages */
	/* cluster */
	const char *ca_file;
	const char *ca_data;		/* PEM, decoded from base64 */
	size_t ca_len;
	const char *ca_data_b64;	/* as written (exec cluster info) */
	bool insecure;
	const char *tls_server_name;
	const char *proxy_url;
	bool disable_compression;
	const struct node *exec_cluster_config;	/* extension for exec plugins */
	/* user */
	const char *cert_file;
	const char *key_file;
	const char *cert_data;		/* PEM */
	size_t cert_len;
	const char *key_data;		/* PEM */
	size_t key_len;
	const char *token;
	const char *token_file;		/* re-read for every request */
	const char *username;
	const char *password;
	struct kube_exec_conf *exec;
	const char *impersonate;	/* as */
};

/*
 * Resolve the configuration as kubectl does (kube.h, kube_open()).
 * Returns 0 or KUBE_EFAIL after a diagnostic.
 */
int kube_config_load(struct kube_conf *out, struct arena *a, struct diags *d,
		     const struct kube_options *opt);

/* Cluster name and region from an EKS ARN in `s`; 0 when it is one. */
int kube_parse_eks_arn(struct arena *a, const char *s, const char **cluster,
		       const char **region);

/* Decode standard base64 (whitespace ignored) into the arena; -1 when
 * the text is not base64. */
int kube_base64_decode(struct arena *a, const char *in, const char **out,
		       size_t *out_len);

/* A credential from an exec plugin (or a token file). */
struct kube_cred {
	char *token;			/* heap, wiped and freed on release */
	char *cert;			/* PEM, heap */
	char *key;			/* PEM, heap */
	time_t expires;			/* 0: never */
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

/* RFC 3339 time ("2025-06-01T08:14:00Z", offsets, fractions) to time_t;
 * -1 on a malformed value. */
int kube_parse_time(const char *s, time_t *out);

/* Monotonic seconds. */
double kube_now(void);

/* Append `s` URL-encoded (query values) to b. */
int kube_url_escape(struct buf *b, const char *s);

/* Why libcurl (loaded on first use, kube_curl.c) is not usable. */
const char *kube_curl_error(void);

#endif
