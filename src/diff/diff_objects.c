/*
 * diff_objects.c - normalising Kubernetes objects and printing their
 * differences.  The text diff itself is diff_unified() (libgit2's).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/strlist.h"
#include "base/arena.h"
#include "base/buf.h"
#include "base/secret.h"
#include "diff/diff.h"
#include "k8s/k8s_quantity.h"
#include "node/node.h"
#include "yamlio/yamlio.h"

static const char *const drop_meta[] = {
	"managedFields",
	"resourceVersion",
	"uid",
	"generation",
	"creationTimestamp",
	"selfLink",
	"deletionGracePeriodSeconds",
};

static const char *const drop_annotations[] = {
	"kubectl.kubernetes.io/last-applied-configuration",
	"argocd.argoproj.io/tracking-id",
	"argocd.argoproj.io/instance",
	"deployment.kubernetes.io/revision",
};

static const char *const drop_labels[] = {
	"argocd.argoproj.io/instance",
};

#define N(x) (sizeof(x) / sizeof((x)[0]))

/* A copy of map without the keys in list; NULL when nothing is left and
 * `drop_empty`. */
static struct node *
map_without(struct arena *a, const struct node *map, const char *const *list, size_t n,
	    bool drop_empty)
{
	struct node *out = node_new_map(a, map->at);

	for (size_t i = 0; i < map->map.count; i++) {
		const char *k = node_text(map->map.pairs[i].key);

		if (k && str_listed(k, list, n))
			continue;
		node_map_add(a, out, k ? k : "", node_clone(a, map->map.pairs[i].value));
	}
	return drop_empty && out->map.count == 0 ? NULL : out;
}

struct node *
diff_normalize(struct arena *a, const struct node *obj)
{
	struct node *out;

	if (!obj || obj->kind != NODE_MAP)
		return obj ? node_clone(a, obj) : NULL;
	out = node_new_map(a, obj->at);
	for (size_t i = 0; i < obj->map.count; i++) {
		const char *k = node_text(obj->map.pairs[i].key);
		const struct node *v = obj->map.pairs[i].value;

		if (!k)
			continue;
		if (!strcmp(k, "status"))
			continue;
		if (!strcmp(k, "metadata") && v->kind == NODE_MAP) {
			struct node *md = node_new_map(a, v->at);

			for (size_t j = 0; j < v->map.count; j++) {
				const char *mk = node_text(v->map.pairs[j].key);
				const struct node *mv = v->map.pairs[j].value;
				struct node *nv;

				if (!mk || str_listed(mk, drop_meta, N(drop_meta)))
					continue;
				if (!strcmp(mk, "annotations") && mv->kind == NODE_MAP)
					nv = map_without(a, mv, drop_annotations,
							 N(drop_annotations), true);
				else if (!strcmp(mk, "labels") && mv->kind == NODE_MAP)
					nv = map_without(a, mv, drop_labels, N(drop_labels), true);
				else
					nv = node_clone(a, mv);
				if (nv)
					node_map_add(a, md, mk, nv);
			}
			node_map_add(a, out, k, md);
			continue;
		}
		node_map_add(a, out, k, node_clone(a, v));
	}
	return out;
}

/* ------------------------------------------------------------ quantities */

/* A Kubernetes quantity as a double (k8s/k8s_quantity.h); -1 when it is not one. */
static int
quantity(const char *s, double *out)
{
	return s ? k8s_quantity_parse(s, strlen(s), out) : -1;
}

bool
diff_quantity_equal(const char *a, const char *b)
{
	double x, y;

	if (!a || !b)
		return false;
	if (!strcmp(a, b))
		return true;
	if (quantity(a, &x) < 0 || quantity(b, &y) < 0)
		return false;
	return fabs(x - y) <= 1e-9 * fmax(1.0, fmax(fabs(x), fabs(y)));
}

/* ------------------------------------------------------------ subset */

static bool
is_empty(const struct node *n)
{
	if (!n || node_is_null(n))
		return true;
	if (n->kind == NODE_MAP)
		return n->map.count == 0;
	if (n->kind == NODE_SEQ)
		return n->seq.count == 0;
	return false;
}

static bool
scalars_same(const struct node *l, const struct node *r)
{
	const char *lt, *rt;

	if (node_equal(l, r))
		return true;
	lt = node_text(l);
	rt = node_text(r);
	if (!lt || !rt)
		return false;
	/* int-or-string: 16 and "16" */
	if (!strcmp(lt, rt) && l->type != NODE_NULL && r->type != NODE_NULL &&
	    l->type != NODE_BOOL && r->type != NODE_BOOL)
		return true;
	return (l->type == NODE_STR || l->type == NODE_INT || l->type == NODE_FLOAT) &&
	       (r->type == NODE_STR || r->type == NODE_INT || r->type == NODE_FLOAT) &&
	       diff_quantity_equal(lt, rt);
}

struct node *
diff_live_subset(struct arena *a, const struct node *live, const struct node *rendered)
{
	if (!live)
		return NULL;
	if (!rendered)
		return node_clone(a, live);
	if (live->kind == NODE_MAP && rendered->kind == NODE_MAP) {
		struct node *out = node_new_map(a, live->at);

		for (size_t i = 0; i < rendered->map.count; i++) {
			const char *k = node_text(rendered->map.pairs[i].key);
			const struct node *rv = rendered->map.pairs[i].value;
			const struct node *lv = k ? node_map_get(live, k) : NULL;

			if (!k)
				continue;
			if (!lv) {
				/* omitempty on the server: absent == empty */
				if (is_empty(rv))
					node_map_add(a, out, k, node_clone(a, rv));
				continue;
			}
			node_map_add(a, out, k, diff_live_subset(a, lv, rv));
		}
		return out;
	}
	if (live->kind == NODE_SEQ && rendered->kind == NODE_SEQ) {
		struct node *out = node_new_seq(a, live->at);

		for (size_t i = 0; i < live->seq.count; i++) {
			const struct node *rv =
				i < rendered->seq.count ? rendered->seq.items[i] : NULL;

			node_seq_push(a, out, diff_live_subset(a, live->seq.items[i], rv));
		}
		return out;
	}
	if (live->kind == NODE_SCALAR && rendered->kind == NODE_SCALAR &&
	    scalars_same(live, rendered))
		return node_clone(a, rendered);
	if (is_empty(live) && is_empty(rendered))
		return node_clone(a, rendered);
	return node_clone(a, live);
}

/* ------------------------------------------------------------ secrets */

static void
mask_map(struct arena *a, struct node *mine, const struct node *other, const char *changed)
{
	if (!mine || mine->kind != NODE_MAP)
		return;
	for (size_t i = 0; i < mine->map.count; i++) {
		const char *k = node_text(mine->map.pairs[i].key);
		const struct node *o = other && k ? node_map_get(other, k) : NULL;
		const char *mask = SECRET_MASK;

		if (o && !node_equal(o, mine->map.pairs[i].value))
			mask = changed;
		mine->map.pairs[i].value = node_new_str(a, mine->map.pairs[i].value->at, mask);
	}
}

static bool
is_secret(const struct node *obj)
{
	const char *kind = node_str(node_map_get(obj, "kind"));

	return kind && !strcmp(kind, "Secret");
}

void
diff_mask_secrets(struct arena *a, struct node *left, struct node *right)
{
	static const char *const keys[] = { "data", "stringData" };

	if (!(left && is_secret(left)) && !(right && is_secret(right)))
		return;
	for (size_t i = 0; i < N(keys); i++) {
		struct node *l = left ? node_map_get(left, keys[i]) : NULL;
		struct node *r = right ? node_map_get(right, keys[i]) : NULL;
		/* compare before masking either side */
		struct node *lc = l ? node_clone(a, l) : NULL;

		mask_map(a, l, r, SECRET_MASK " (before)");
		mask_map(a, r, lc, SECRET_MASK " (after)");
	}
}

/* ------------------------------------------------------------ printing */

int
diff_objects(struct buf *out, const struct node *left, const struct node *right,
	     const char *left_label, const char *right_label)
{
	struct buf lt, rt;
	int rc = -1;

	buf_init(&lt, 0);
	buf_init(&rt, 0);
	if (left && yamlio_emit(&lt, left, 0) < 0)
		goto out;
	if (right && yamlio_emit(&rt, right, 0) < 0)
		goto out;
	rc = diff_unified(out, lt.data, lt.len, left_label, rt.data, rt.len, right_label);
out:
	buf_release(&lt);
	buf_release(&rt);
	return rc;
}

static void
paths_walk(struct arena *a, const struct node *l, const struct node *r, const char *base,
	   const char **out, size_t max, size_t *n)
{
	if (l && r && l->kind == NODE_MAP && r->kind == NODE_MAP) {
		for (size_t i = 0; i < r->map.count; i++) {
			const char *k = node_text(r->map.pairs[i].key);

			if (k)
				paths_walk(a, node_map_get(l, k), r->map.pairs[i].value,
					   node_path_join(a, base, k), out, max, n);
		}
		for (size_t i = 0; i < l->map.count; i++) {
			const char *k = node_text(l->map.pairs[i].key);

			if (k && !node_map_get(r, k))
				paths_walk(a, l->map.pairs[i].value, NULL,
					   node_path_join(a, base, k), out, max, n);
		}
		return;
	}
	if (l && r && l->kind == NODE_SEQ && r->kind == NODE_SEQ && l->seq.count == r->seq.count) {
		for (size_t i = 0; i < r->seq.count; i++)
			paths_walk(a, l->seq.items[i], r->seq.items[i], node_path_index(a, base, i),
				   out, max, n);
		return;
	}
	if (l && r && node_equal(l, r))
		return;
	if (*n < max)
		out[*n] = base;
	(*n)++;
}

size_t
diff_paths(struct arena *a, const struct node *left, const struct node *right, const char **out,
	   size_t max)
{
	size_t n = 0;

	paths_walk(a, left, right, "", out, max, &n);
	return n;
}
