/*
 * k8s_names.h - Kubernetes name syntax, as k8s.io/apimachinery's
 * validation package defines it:
 *   IsDNS1123Label      [a-z0-9]([-a-z0-9]*[a-z0-9])?, at most 63
 *   IsDNS1123Subdomain  such labels joined by '.', at most 253 in all
 *                       (the regex caps no label of its own)
 *   IsQualifiedName     [prefix/]name: prefix a DNS-1123 subdomain,
 *                       name ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9],
 *                       at most 63 (label keys, taint keys)
 *   IsValidLabelValue   empty, or a name as above
 */
#ifndef GS_K8S_NAMES_H
#define GS_K8S_NAMES_H

#include <stdbool.h>

/* Each returns NULL when valid, else why not, as a message fragment
 * ("the name part is longer than 63 characters"); NULL input: invalid
 * for a qualified name, valid (absent) for a label value. */
const char *k8s_qualified_name_problem(const char *key);
const char *k8s_label_value_problem(const char *value);
/* False for NULL. */
bool k8s_is_dns1123_subdomain(const char *s);
bool k8s_is_dns1123_label(const char *s);

#endif
