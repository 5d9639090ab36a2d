/*
 * k8s_labels.h - which node labels the kubelet may set on its own Node,
 * as the kubelet and the NodeRestriction admission plugin decide
 * (docs/design/upstream.md, "Kubelet labels").
 *
 * A label's namespace is its prefix before '/'; "in domain D" means the
 * namespace is D or ends in ".D".  The kubelet's own labels are the
 * kubeletLabels list (kubernetes.io/hostname, the os, arch, instance-type,
 * zone and region keys, their beta forms) and every key in domain
 * kubelet.kubernetes.io or node.kubernetes.io.
 */
#ifndef GS_K8S_LABELS_H
#define GS_K8S_LABELS_H

#include <stdbool.h>

/* IsKubeletLabel: a key the kubelet sets or may set on its Node */
bool k8s_is_kubelet_label(const char *key);
/* The kubelet refuses --node-labels KEY at startup: KEY is in domain
 * kubernetes.io or k8s.io and not a kubelet label. */
bool k8s_kubelet_refuses_label(const char *key);
/* NodeRestriction refuses KEY from a kubelet: what the kubelet refuses,
 * and every key in domain node-restriction.kubernetes.io. */
bool k8s_node_restriction_forbids(const char *key);

#endif
