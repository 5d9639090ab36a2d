/*
 * kube.h - the Kubernetes client: kubeconfig as kubectl reads it, libcurl
 * transport, API JSON -> node trees.  Only kube/ includes <curl/curl.h>.
 */
#ifndef GS_KUBE_H
#define GS_KUBE_H

const char *kube_library_version(void);	/* libcurl's */

#endif
