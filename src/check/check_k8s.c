/*
 * check_k8s.c - Kubernetes name syntax, as k8s.io/apimachinery's
 * validation package defines it (IsQualifiedName, IsValidLabelValue,
 * IsDNS1123Subdomain, IsDNS1123Label): the 0/-1 form the upstream checks
 * take, over k8s/k8s_names.h, where the syntax is defined.
 */
#include "check/check.h"
#include "k8s/k8s_names.h"

int
check_dns1123_label(const char *s)
{
	return k8s_is_dns1123_label(s) ? 0 : -1;
}

int
check_dns1123_subdomain(const char *s)
{
	return k8s_is_dns1123_subdomain(s) ? 0 : -1;
}

int
check_qualified_name(const char *s)
{
	return s && !k8s_qualified_name_problem(s) ? 0 : -1;
}

int
check_label_value(const char *s)
{
	return s && !k8s_label_value_problem(s) ? 0 : -1;
}
