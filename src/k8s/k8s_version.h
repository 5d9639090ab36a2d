/*
 * k8s_version.h - a Kubernetes version as clusters and Argo CD write it.
 *
 * Argo CD's KUBE_VERSION is the cluster's Major.Minor, with the "+" some
 * distributions add ("1.29+" on EKS); a spec or a flag may give the
 * longer forms kubectl prints.  Accepted, with an optional "v" or "V":
 *   MAJOR.MINOR              "1.35"
 *   MAJOR.MINOR+             "1.35+"
 *   MAJOR.MINOR.PATCH        "1.35.2"
 *   any of them, then "-pre" or "+build" ("v1.35.0-eks-4096722",
 *   "1.31.2+eks"): one or more of [0-9A-Za-z.+-] after the sign
 * MAJOR and MINOR are 1 to 4 digits, PATCH 1 to 9.  Nothing else: no
 * spaces, no "1", no "1.x", no "1.35." and no empty pre-release.
 */
#ifndef GS_K8S_VERSION_H
#define GS_K8S_VERSION_H

#include <stddef.h>

/* "1.35", "v1.35", "1.35.2", "v1.35.0-eks-4096722", "1.35+" -> 1, 35; else -1 */
int k8s_version_parse(const char *text, size_t len, int *major, int *minor);

#endif
