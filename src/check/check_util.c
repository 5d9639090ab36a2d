/*
 * check_util.c - the helpers every checker of check/ uses: reporting at
 * a node, scalar text, diagnostic paths, the API group of an apiVersion.
 */
#include <stdarg.h>
#include <string.h>

#include "check/check_int.h"

void
check_report(struct check_ctx *c, const char *rule, const struct node *at, const char *path,
	     const char *fmt, ...)
{
	va_list ap;
	struct pos where =
		at && at->at.file ? at->at : (c->obj ? c->obj->at : (struct pos)POS_NONE);

	va_start(ap, fmt);
	if (diag_vreport(c->d, where, rule, path ? path : "", fmt, ap) < 0)
		c->rc = -1;
	va_end(ap);
}

const char *
check_text(const struct node *n)
{
	return node_is_null(n) ? NULL : node_text(n);
}

size_t
check_seq_count(const struct node *n)
{
	return n && n->kind == NODE_SEQ ? n->seq.count : 0;
}

const char *
check_path(struct check_ctx *c, const char *base, const char *key)
{
	return node_path_join(c->a, base, key);
}

const char *
check_index(struct check_ctx *c, const char *base, size_t i)
{
	return node_path_index(c->a, base, i);
}

bool
check_group_is(const char *api, const char *group)
{
	const char *slash = strchr(api, '/');

	if (!*group)
		return !slash;
	return slash && (size_t)(slash - api) == strlen(group) &&
	       !strncmp(api, group, strlen(group));
}
