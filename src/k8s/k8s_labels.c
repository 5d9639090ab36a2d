/*
 * k8s_labels.c - the node labels a kubelet may set (k8s_labels.h).
 */
#include <string.h>

#include "k8s/k8s_labels.h"

/* kubeletLabels (docs/design/upstream.md, "Kubelet labels") */
static const char *const kubelet_labels[] = {
	"kubernetes.io/hostname",
	"kubernetes.io/os",
	"kubernetes.io/arch",
	"beta.kubernetes.io/os",
	"beta.kubernetes.io/arch",
	"beta.kubernetes.io/instance-type",
	"node.kubernetes.io/instance-type",
	"topology.kubernetes.io/zone",
	"topology.kubernetes.io/region",
	"failure-domain.beta.kubernetes.io/zone",
	"failure-domain.beta.kubernetes.io/region",
};

/* the namespace of key (before '/') is domain or ends in "." domain; a
 * key without '/' has none and is in no domain */
static bool
in_domain(const char *key, const char *domain)
{
	const char *slash = strchr(key, '/');
	size_t n = slash ? (size_t)(slash - key) : 0, m = strlen(domain);

	return (n == m && !strncmp(key, domain, m)) ||
	       (n > m && key[n - m - 1] == '.' && !strncmp(key + n - m, domain, m));
}

bool
k8s_is_kubelet_label(const char *key)
{
	if (!key)
		return false;
	for (size_t i = 0; i < sizeof(kubelet_labels) / sizeof(kubelet_labels[0]); i++)
		if (!strcmp(key, kubelet_labels[i]))
			return true;
	return in_domain(key, "kubelet.kubernetes.io") || in_domain(key, "node.kubernetes.io");
}

bool
k8s_kubelet_refuses_label(const char *key)
{
	if (!key)
		return false;
	return (in_domain(key, "kubernetes.io") || in_domain(key, "k8s.io")) &&
	       !k8s_is_kubelet_label(key);
}

bool
k8s_node_restriction_forbids(const char *key)
{
	if (!key)
		return false;
	return in_domain(key, "node-restriction.kubernetes.io") || k8s_kubelet_refuses_label(key);
}
