/*
 * check_k8s.c - Kubernetes name syntax, as k8s.io/apimachinery's
 * validation package defines it (IsQualifiedName, IsValidLabelValue,
 * IsDNS1123Subdomain, IsDNS1123Label).  Hand-written: each is a short
 * regular language and the API server's messages are copied alongside.
 */
#include <string.h>

#include "check/check.h"

static int
alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static int
lower_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/* ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9], n bytes, 1..63 */
static int
name_part(const char *s, size_t n)
{
	if (n == 0 || n > 63 || !alnum(s[0]) || !alnum(s[n - 1]))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!alnum(s[i]) && s[i] != '-' && s[i] != '_' && s[i] != '.')
			return -1;
	return 0;
}

static int
dns1123_label_n(const char *s, size_t n)
{
	if (n == 0 || n > 63 || !lower_alnum(s[0]) || !lower_alnum(s[n - 1]))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!lower_alnum(s[i]) && s[i] != '-')
			return -1;
	return 0;
}

static int
dns1123_subdomain_n(const char *s, size_t n)
{
	size_t start = 0;

	if (n == 0 || n > 253)
		return -1;
	for (size_t i = 0; i <= n; i++) {
		if (i == n || s[i] == '.') {
			if (dns1123_label_n(s + start, i - start) < 0)
				return -1;
			start = i + 1;
		}
	}
	return 0;
}

int
check_dns1123_label(const char *s)
{
	return s ? dns1123_label_n(s, strlen(s)) : -1;
}

int
check_dns1123_subdomain(const char *s)
{
	return s ? dns1123_subdomain_n(s, strlen(s)) : -1;
}

int
check_qualified_name(const char *s)
{
	const char *slash;

	if (!s)
		return -1;
	slash = strchr(s, '/');
	if (!slash)
		return name_part(s, strlen(s));
	if (strchr(slash + 1, '/'))
		return -1;
	if (dns1123_subdomain_n(s, (size_t)(slash - s)) < 0)
		return -1;
	return name_part(slash + 1, strlen(slash + 1));
}

int
check_label_value(const char *s)
{
	size_t n;

	if (!s)
		return -1;
	n = strlen(s);
	return n == 0 ? 0 : name_part(s, n);
}
