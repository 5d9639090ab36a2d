/*
 * k8s_toleration.c - core/v1 ToleratesTaint (see k8s_toleration.h).
 */
#include "k8s/k8s_toleration.h"

#include <string.h>

static const char *
field(const struct node *m, const char *key)
{
	const struct node *n = node_map_get(m, key);
	const char *s = node_is_null(n) ? NULL : node_text(n);

	return s ? s : "";
}

static const char *
or_empty(const char *s)
{
	return s ? s : "";
}

bool
k8s_toleration_tolerates(const struct node *t, const struct k8s_taint *taint)
{
	const char *effect, *key, *op;

	if (!t || t->kind != NODE_MAP || !taint)
		return false;
	effect = field(t, "effect");
	key = field(t, "key");
	op = field(t, "operator");
	if (*effect && strcmp(effect, or_empty(taint->effect)))
		return false;
	if (*key && strcmp(key, or_empty(taint->key)))
		return false;
	if (!*op || !strcmp(op, "Equal"))
		return !strcmp(field(t, "value"), or_empty(taint->value));
	return !strcmp(op, "Exists");
}

bool
k8s_tolerations_tolerate(const struct node *tols, const struct k8s_taint *taint)
{
	if (!tols || tols->kind != NODE_SEQ)
		return false;
	for (size_t i = 0; i < tols->seq.count; i++)
		if (k8s_toleration_tolerates(tols->seq.items[i], taint))
			return true;
	return false;
}
