/*
 * k8s_arn.c - an EKS cluster ARN read into its fields (k8s_arn.h).
 */
#include <string.h>

#include "base/arena.h"
#include "k8s/k8s_arn.h"

int
k8s_eks_arn_parse(struct arena *a, const char *s, struct k8s_eks_arn *out)
{
	/* arn:PARTITION:eks:REGION:ACCOUNT:cluster/NAME */
	const char *p = s, *f[6];
	int n = 0;

	if (!s || strncmp(s, "arn:", 4))
		return -1;
	f[n++] = p;
	while (*p && n < 6) {
		if (*p == ':')
			f[n++] = p + 1;
		p++;
	}
	if (n < 6 || strncmp(f[2], "eks:", 4) || strncmp(f[5], "cluster/", 8))
		return -1;
	if (!f[5][8] || strchr(f[5] + 8, '/'))
		return -1;
	out->partition = arena_strndup(a, f[1], (size_t)(f[2] - f[1] - 1));
	out->region = arena_strndup(a, f[3], (size_t)(f[4] - f[3] - 1));
	out->account = arena_strndup(a, f[4], (size_t)(f[5] - f[4] - 1));
	out->name = arena_strdup(a, f[5] + 8);
	return 0;
}
