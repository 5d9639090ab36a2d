/*
 * k8s_int.h - integers as Kubernetes reads them from text.
 */
#ifndef GS_K8S_INT_H
#define GS_K8S_INT_H

#include <stdbool.h>

/*
 * Go's strconv.ParseInt(s, 10, 64), which node-selector Gt/Lt and the
 * API's integer strings use: an optional '+' or '-', then one or more
 * ASCII digits, nothing else (no spaces, "0x", "_"), within int64.
 * True with *out set, else false (*out untouched).  s may be NULL.
 */
bool k8s_parse_int64(const char *s, long long *out);

#endif
