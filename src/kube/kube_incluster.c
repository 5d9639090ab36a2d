/*
 * kube_incluster.c - the configuration of a gpusite that runs in a Pod
 * (an Argo CD plugin, `serve`): the API server from
 * KUBERNETES_SERVICE_HOST and _PORT, the service account's token,
 * certificate authority and namespace from its mounted directory, as
 * client-go's rest.InClusterConfig reads them.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "kube/kube_int.h"

static int
read_small(struct arena *a, const char *path, const char **out)
{
	struct buf b;
	size_t n;

	buf_init(&b, 1u << 20);
	if (buf_read_file(&b, path) < 0) {
		buf_release(&b);
		return -1;
	}
	n = b.len;
	while (n && (b.data[n - 1] == '\n' || b.data[n - 1] == ' '))
		n--;
	*out = arena_strndup(a, b.data, n);
	buf_release(&b);
	return 0;
}

int
kube_config_in_cluster(struct kube_conf *c, struct arena *a, struct diags *d,
		       const char *(*env)(const char *))
{
	const char *host = env("KUBERNETES_SERVICE_HOST");
	const char *port = env("KUBERNETES_SERVICE_PORT");
	const char *dir = env(KUBE_SA_DIR_ENV);
	const char *ns;
	struct stat st;

	if (!dir || !*dir)
		dir = KUBE_SA_DIR;
	if (kube_has_ctl(host) || kube_has_ctl(port))
		return diag_report(d, (struct pos)POS_NONE, KUBE_RULE, "",
				   "KUBERNETES_SERVICE_HOST or KUBERNETES_SERVICE_PORT "
				   "holds a control character (CR, LF or another): "
				   "refusing it, it would reach an HTTP request");
	c->info.origin = "in-cluster";
	c->info.server = arena_printf(a, strchr(host, ':') ? "https://[%s]:%s" : "https://%s:%s",
				      host, port);
	c->token_file = arena_printf(a, "%s/token", dir);
	c->ca_file = arena_printf(a, "%s/ca.crt", dir);
	if (stat(c->token_file, &st) < 0)
		return diag_report(d, (struct pos)POS_NONE, KUBE_RULE, "",
				   "running in a cluster (KUBERNETES_SERVICE_HOST is set) "
				   "but the service account token %s cannot be read: %s; "
				   "mount a service account token or pass --kubeconfig",
				   c->token_file, strerror(errno));
	if (stat(c->ca_file, &st) < 0)
		c->ca_file = NULL; /* system roots then */
	if (read_small(a, arena_printf(a, "%s/namespace", dir), &ns) == 0 && *ns)
		c->info.namespace = ns;
	else
		c->info.namespace = "default";
	c->info.auth = "service account";
	return 0;
}
