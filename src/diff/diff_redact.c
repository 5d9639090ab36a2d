/*
 * diff_redact.c - activation codes hidden in a rendered object before it
 * is compared, by the one secret policy (base/secret.h).
 */
#include <string.h>

#include "base/secret.h"
#include "diff/diff.h"
#include "node/node.h"

void
diff_revisions_redact(struct arena *a, struct node *n)
{
	if (!n)
		return;
	if (n->kind == NODE_MAP) {
		for (size_t i = 0; i < n->map.count; i++) {
			struct node_pair *pr = &n->map.pairs[i];
			const char *k = node_text(pr->key);

			if (k && !strcmp(k, SECRET_SSM_FIELD) && pr->value &&
			    pr->value->kind == NODE_SCALAR && !node_is_null(pr->value))
				pr->value = node_new_str(a, pr->value->at, SECRET_REDACTED);
			else
				diff_revisions_redact(a, pr->value);
		}
	} else if (n->kind == NODE_SEQ) {
		for (size_t i = 0; i < n->seq.count; i++)
			diff_revisions_redact(a, n->seq.items[i]);
	} else if (n->type == NODE_STR && n->scalar.text) {
		const char *t = secret_redact_text(a, n->scalar.text);

		if (t != n->scalar.text) {
			n->scalar.text = t;
			n->scalar.len = strlen(t);
		}
	}
}
