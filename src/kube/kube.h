/*
 * kube.h - the Kubernetes client: kubeconfig as kubectl reads it, libcurl
 * transport, API JSON -> node trees.  Only kube/ includes <curl/curl.h>.
 *
 * Read-only unless asked: every call sends GET, except kube_send(),
 * which only `gpusite drill run --execute` calls (a cordon PATCH, a
 * policy/v1 Eviction, a SelfSubjectAccessReview).  Every failure appends one diagnostic (rule KUBE_RULE) that says what
 * went wrong and what to do, and returns KUBE_EFAIL (exit 3 for the
 * command).  Secrets (tokens, keys, exec output) never reach a message,
 * a log line or an error.
 */
#ifndef GS_KUBE_H
#define GS_KUBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/diag.h"
#include "node/node.h"

struct arena;
struct kube_client;

#define KUBE_RULE "GS290"         /* cluster access failed */
#define KUBE_DEFAULT_TIMEOUT 30.0 /* seconds, whole command */
#define KUBE_MAX_BODY (64u << 20) /* one response body */
#define KUBE_PAGE_LIMIT 500       /* items per LIST page, as kubectl */
/* One whole LIST, all its pages together: at most this many objects and
 * this many MiB of JSON, else exit 3.  The environment raises them. */
#define KUBE_LIST_MAX_OBJECTS 100000
#define KUBE_LIST_MAX_MIB 256
#define KUBE_LIST_MAX_OBJECTS_ENV "GPUSITE_LIST_MAX_OBJECTS"
#define KUBE_LIST_MAX_MIB_ENV "GPUSITE_LIST_MAX_MIB"
#define KUBE_SA_DIR "/var/run/secrets/kubernetes.io/serviceaccount"
#define KUBE_SA_DIR_ENV "GPUSITE_SERVICEACCOUNT_DIR" /* tests point it elsewhere */

const char *kube_library_version(void); /* libcurl's */

enum kube_err {
	KUBE_OK = 0,
	KUBE_EFAIL = -1,     /* could not do the job; a diagnostic says why */
	KUBE_ENOTFOUND = -3, /* no such object, or the kind is not served;
				 * no diagnostic */
};

struct kube_options {
	const char *kubeconfig; /* --kubeconfig: this file only, no merging */
	const char *context;    /* --context, else current-context */
	double timeout;         /* --timeout for the whole command; <= 0: 30 s */
	int verbose;            /* > 0: one line per request (method, URL,
				 * status, duration) on `log` */
	FILE *log;              /* NULL: stderr */
	/* Environment lookup (KUBECONFIG, HOME, KUBERNETES_SERVICE_*,
	 * GPUSITE_SERVICEACCOUNT_DIR, GPUSITE_LIST_MAX_*, the proxy
	 * variables, checked for control characters); NULL: getenv. */
	const char *(*getenv)(const char *name);
};

/* What the configuration resolved to; strings live in the client's arena. */
struct kube_info {
	const char *origin;    /* "/home/u/.kube/config", "in-cluster", ... */
	const char *context;   /* NULL in-cluster */
	const char *cluster;   /* kubeconfig cluster entry name */
	const char *user;      /* kubeconfig user entry name */
	const char *server;    /* https://host:port, no trailing slash */
	const char *namespace; /* context namespace, else "default" */
	const char *auth;      /* "token", "token file", "client certificate",
				 * "exec plugin 'aws'", "service account",
				 * "none" */
	/* From an EKS cluster ARN (arn:aws:eks:REGION:ACCOUNT:cluster/NAME)
	 * in the cluster, user or context name, else NULL. */
	const char *eks_cluster;
	const char *eks_region;
};

/*
 * Read the configuration (--kubeconfig, else KUBECONFIG merged, else
 * ~/.kube/config, else the in-cluster service account) and prepare a
 * client.  No request is made yet.  The client keeps `a` and `d` for the
 * objects it returns and the diagnostics it appends.  kube_close() frees
 * its heap (curl handle, cached credentials).
 */
int kube_open(struct kube_client **out, struct arena *a, struct diags *d,
	      const struct kube_options *opt);
void kube_close(struct kube_client *k);
const struct kube_info *kube_get_info(const struct kube_client *k);
/* Requests sent so far (for -v summaries and tests). */
unsigned kube_request_count(const struct kube_client *k);

/* A kind as the server serves it, from discovery. */
struct kube_resource {
	const char *group; /* "" for the core group */
	const char *version;
	const char *kind;
	const char *plural; /* "nodepools" */
	bool namespaced;
};

/*
 * Map apiVersion + kind to the served resource (discovery of that group
 * version, cached per client).  KUBE_ENOTFOUND when the group version or
 * the kind is not served.
 */
int kube_resource_find(const struct kube_resource **out, struct kube_client *k,
		       const char *api_version, const char *kind);

/*
 * GET one object into arena `a`.  `ns` is ignored for cluster-scoped
 * kinds.  KUBE_ENOTFOUND (no diagnostic) when the object or its kind is
 * not there.
 */
int kube_get(struct node **out, struct kube_client *k, struct arena *a, const char *api_version,
	     const char *kind, const char *ns, const char *name);

/*
 * GET a path of the server ("/openapi/v3", or a serverRelativeURL it
 * named) as a JSON object into `a`; `what` names it in messages.  A path
 * that is not a plain absolute path of this server is refused.
 * KUBE_ENOTFOUND (no diagnostic) on 404.
 */
int kube_get_path(struct node **out, struct kube_client *k, struct arena *a, const char *path,
		  const char *what);

struct kube_list_query {
	const char *api_version;
	const char *kind;
	const char *namespace;      /* NULL or "": every namespace */
	const char *label_selector; /* NULL: none */
	const char *field_selector; /* NULL: none */
	unsigned limit;             /* page size; 0: KUBE_PAGE_LIMIT */
};

/*
 * LIST callbacks.  `item` sees each object of a page; the page (and the
 * item) is freed when the page is done, so copy what you keep.  A
 * non-zero return stops the list and is returned.  `restart` is called
 * when the list starts over from the first page (410 Expired): drop what
 * was collected.
 */
struct kube_list_cb {
	int (*item)(void *payload, const struct node *item);
	void (*restart)(void *payload);
	void *payload;
};

/*
 * LIST page by page (limit/continue), restarting on 410 Expired, so a
 * 5,000-node list never sits in memory whole.  KUBE_ENOTFOUND when the
 * kind is not served.
 */
int kube_list(struct kube_client *k, const struct kube_list_query *q,
	      const struct kube_list_cb *cb);

/* The whole list as a NODE_SEQ of items cloned into `a`. */
int kube_list_all(struct node **out, struct kube_client *k, struct arena *a,
		  const struct kube_list_query *q);
/* Every Node; every DaemonSet (of `ns`, or all namespaces when NULL). */
int kube_list_nodes(struct node **out, struct kube_client *k, struct arena *a);
int kube_list_daemonsets(struct node **out, struct kube_client *k, struct arena *a, const char *ns);

/*
 * Which EKS cluster the client talks to: the ARN in the kubeconfig
 * names, else the providerID of a hybrid node
 * (eks-hybrid:///REGION/CLUSTER/NODE).  *how says which ("kubeconfig
 * ARN", "hybrid node providerID").  NULL (no diagnostic) when neither
 * tells.
 */
const char *kube_cluster_name(struct kube_client *k, const char **how);

/* ---------------------------------------------------------- writes */

#define KUBE_MAX_WRITE_ANSWER (4u << 20) /* one answer to a write */

/* One write, as sent: what a dry run prints and kube_send() sends. */
struct kube_call {
	const char *method; /* "PATCH", "POST"; "GET" inside kube/ */
	const char *path;   /* "/api/v1/nodes/gpu-a-01" */
	const char *content_type;
	const char *body; /* JSON text */
	bool pass_429;    /* a 429 is the caller's (PDB) */
};

/* The three builders return 0, or KUBE_EFAIL when out of memory. */
/* `kubectl cordon` / `uncordon`: a strategic-merge patch of
 * spec.unschedulable (true, or null to delete it). */
int kube_call_cordon(struct kube_call *out, struct arena *a, const char *node, bool cordon);
/* `kubectl drain`'s eviction: a policy/v1 Eviction POSTed to
 * pods/NAME/eviction, the same bytes kubectl sends. */
int kube_call_evict(struct kube_call *out, struct arena *a, const char *ns, const char *pod);
/* A SelfSubjectAccessReview of one verb on one resource (`ns` NULL or
 * "": every namespace). */
int kube_call_access_review(struct kube_call *out, struct arena *a, const char *verb,
			    const char *group, const char *resource, const char *subresource,
			    const char *ns);

struct kube_answer {
	long status;         /* HTTP status */
	double retry_after;  /* seconds, < 0 when absent */
	struct node *body;   /* the JSON object answered, or NULL */
	const char *message; /* of a Status body (>= 300), capped */
	const char *cause;   /* its first details.causes[].message */
};

/*
 * Send one write: retries on 5xx (and 429 unless pass_429), one deadline
 * with the reads, the answer capped at KUBE_MAX_WRITE_ANSWER.  Returns 0
 * with any HTTP answer in *out (the caller judges the status), or
 * KUBE_EFAIL after a diagnostic (no answer, 401, a 2xx that is not JSON).
 */
int kube_send(struct kube_answer *out, struct kube_client *k, struct arena *a,
	      const struct kube_call *c, const char *what);

#endif
