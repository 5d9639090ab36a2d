/*
 * k8s_names.c - Kubernetes name syntax, as k8s.io/apimachinery's
 * validation package defines it (IsQualifiedName, IsValidLabelValue,
 * IsDNS1123Subdomain, IsDNS1123Label).
 */
#include <string.h>

#include "k8s/k8s_names.h"

static bool
is_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static bool
is_lower_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/* ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9] over s[0..n) */
static bool
is_name_part(const char *s, size_t n)
{
	size_t i;

	if (!n || !is_alnum(s[0]) || !is_alnum(s[n - 1]))
		return false;
	for (i = 1; i + 1 < n; i++)
		if (!is_alnum(s[i]) && s[i] != '-' && s[i] != '_' && s[i] != '.')
			return false;
	return true;
}

/* [a-z0-9]([-a-z0-9]*[a-z0-9])? over s[0..n) */
static bool
is_dns_label_n(const char *s, size_t n)
{
	size_t i;

	if (!n || n > 63 || !is_lower_alnum(s[0]) || !is_lower_alnum(s[n - 1]))
		return false;
	for (i = 1; i + 1 < n; i++)
		if (!is_lower_alnum(s[i]) && s[i] != '-')
			return false;
	return true;
}

static bool
is_subdomain_n(const char *s, size_t n)
{
	size_t start = 0, i;

	if (!n || n > 253)
		return false;
	for (i = 0; i <= n; i++) {
		if (i == n || s[i] == '.') {
			/* labels of a subdomain have no 63 limit of their own
			 * in the regex; only the whole is capped at 253 */
			size_t len = i - start, j;

			if (!len || !is_lower_alnum(s[start]) || !is_lower_alnum(s[i - 1]))
				return false;
			for (j = start; j < i; j++)
				if (!is_lower_alnum(s[j]) && s[j] != '-')
					return false;
			start = i + 1;
		}
	}
	return true;
}

bool
k8s_is_dns1123_subdomain(const char *s)
{
	return s && is_subdomain_n(s, strlen(s));
}

bool
k8s_is_dns1123_label(const char *s)
{
	return s && is_dns_label_n(s, strlen(s));
}

const char *
k8s_qualified_name_problem(const char *key)
{
	const char *slash, *name;
	size_t n;

	if (!key || !*key)
		return "it is empty";
	slash = strchr(key, '/');
	name = key;
	if (slash) {
		if (strchr(slash + 1, '/'))
			return "it has more than one '/'";
		if (slash == key)
			return "the prefix before '/' is empty";
		if (!is_subdomain_n(key, (size_t)(slash - key)))
			return "the prefix before '/' must be a lower-case DNS "
			       "subdomain (letters, digits, '-' and '.', at most "
			       "253 characters)";
		name = slash + 1;
	}
	n = strlen(name);
	if (!n)
		return "the name after '/' is empty";
	if (n > 63)
		return "the name part is longer than 63 characters";
	if (!is_name_part(name, n))
		return "the name part must be letters, digits, '-', '_' or '.', "
		       "and start and end with a letter or digit";
	return NULL;
}

const char *
k8s_label_value_problem(const char *value)
{
	size_t n;

	if (!value)
		return NULL;
	n = strlen(value);
	if (!n)
		return NULL;
	if (n > 63)
		return "it is longer than 63 characters";
	if (!is_name_part(value, n))
		return "it must be empty or letters, digits, '-', '_' or '.', "
		       "and start and end with a letter or digit";
	return NULL;
}
