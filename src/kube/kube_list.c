/*
 * kube_list.c - the reads: GET of one object, and LIST page by page
 * (limit and continue, started over on 410 Expired) with the caps of one
 * whole list (objects and bytes over its pages, from the environment) and
 * a refusal of a continue token seen before; the lists the commands use
 * (nodes, DaemonSets) and the cluster's name from its hybrid nodes.
 * A page is freed when its items have been seen, so a 5,000-node list
 * never sits in memory whole.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/xalloc.h"
#include "kube/kube_int.h"
#include "node/node.h"

#define RESTART_MAX 3 /* LIST restarted after 410 Expired */

/*
 * GET `path` into *out: 0, KUBE_ENOTFOUND on 404 (no diagnostic), 1 for
 * another status (in r, for the caller's message), KUBE_EFAIL after a
 * diagnostic.  r->body is the caller's to release.
 */
static int
get_json(struct node **out, struct kube_client *k, struct arena *a, const char *path,
	 const char *what, struct kube_resp *r)
{
	int rc;

	memset(r, 0, sizeof(*r));
	buf_init(&r->body, KUBE_MAX_BODY);
	rc = kube_request(k, path, r, what);
	if (rc < 0)
		return rc;
	if (r->code == 404)
		return KUBE_ENOTFOUND;
	if (r->code != 200)
		return 1;
	return kube_object_parse(out, a, k->diags,
				 arena_printf(k->arena, "%s%s", k->conf.info.server, path),
				 r->body.data, r->body.len);
}

int
kube_get(struct node **out, struct kube_client *k, struct arena *a, const char *api_version,
	 const char *kind, const char *ns, const char *name)
{
	const struct kube_resource *res;
	struct buf path;
	struct kube_resp r;
	int rc;

	*out = NULL;
	rc = kube_resource_find(&res, k, api_version, kind);
	if (rc < 0)
		return rc;
	buf_init(&path, 0);
	if (kube_res_path(&path, res, ns, name) < 0) {
		buf_release(&path);
		return KUBE_EFAIL;
	}
	rc = get_json(out, k, a, path.data,
		      arena_printf(k->arena, "get %s '%s'",
				   kube_res_name(k->arena, res->plural, res->group), name),
		      &r);
	if (rc == 1)
		rc = kube_status_fail(k, &r, "get", res->plural, res->group,
				      res->namespaced ? ns : NULL, name);
	buf_release(&path);
	buf_release(&r.body);
	return rc;
}

int
kube_get_path(struct node **out, struct kube_client *k, struct arena *a, const char *path,
	      const char *what)
{
	struct kube_resp r;
	int rc;

	*out = NULL;
	/* a path the server named (serverRelativeURL): this server's, plain */
	if (!path || path[0] != '/' || path[1] == '/' || kube_has_ctl(path) || strchr(path, ' ') ||
	    strchr(path, '#'))
		return diag_report(k->diags, (struct pos)POS_NONE, KUBE_RULE, "",
				   "the API server named %s at a path that is not one of its own: "
				   "refusing to follow it",
				   what);
	rc = get_json(out, k, a, path, arena_printf(k->arena, "get %s", what), &r);
	if (rc == 1) {
		const char *msg = kube_status_message(k->arena, r.body.data, r.body.len);

		rc = diag_report(k->diags, (struct pos)POS_NONE, KUBE_RULE, "",
				 "cannot get %s: the API server answered %ld%s%s", what, r.code,
				 msg ? ": " : "", msg ? msg : "");
	}
	buf_release(&r.body);
	return rc;
}

static int
list_query(struct buf *b, const struct kube_resource *res, const struct kube_list_query *q,
	   const char *cont)
{
	if (kube_res_path(b, res, q->namespace, NULL) < 0 ||
	    buf_printf(b, "?limit=%u", q->limit ? q->limit : KUBE_PAGE_LIMIT) < 0)
		return -1;
	if (q->label_selector && *q->label_selector &&
	    (buf_adds(b, "&labelSelector=") < 0 || kube_url_escape(b, q->label_selector) < 0))
		return -1;
	if (q->field_selector && *q->field_selector &&
	    (buf_adds(b, "&fieldSelector=") < 0 || kube_url_escape(b, q->field_selector) < 0))
		return -1;
	if (cont && (buf_adds(b, "&continue=") < 0 || kube_url_escape(b, cont) < 0))
		return -1;
	return 0;
}

/* FNV-1a of a continue token: the tokens of one list, to refuse a repeat. */
static uint64_t
token_hash(const char *s, size_t n)
{
	uint64_t h = 14695981039346656037ull;

	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ull;
	}
	return h;
}

struct seen_tokens {
	uint64_t *h;
	size_t count, alloc;
};

/* true when `tok` was seen before in this list (else it is recorded) */
static bool
token_seen(struct seen_tokens *t, const char *tok, size_t n)
{
	uint64_t h = token_hash(tok, n);

	for (size_t i = 0; i < t->count; i++)
		if (t->h[i] == h)
			return true;
	if (t->count == t->alloc) {
		t->alloc = t->alloc ? t->alloc * 2 : 64;
		t->h = xrealloc(t->h, t->alloc * sizeof(*t->h));
	}
	t->h[t->count++] = h;
	return false;
}

/* One LIST as it goes page by page. */
struct list_walk {
	struct kube_client *k;
	const struct kube_resource *res;
	const char *origin; /* where the items came from, for messages about them */
	struct seen_tokens seen;
	size_t objects, bytes; /* over the pages so far */
};

/* The page in r (a 200): its items to cb, and in *cont the token of the
 * next page, or NULL after the last.  On a refusal *cont is left as it is. */
static int
list_page(char **cont, struct list_walk *w, struct kube_resp *r, const struct kube_list_cb *cb)
{
	struct kube_client *k = w->k;
	const struct kube_resource *res = w->res;
	struct arena page;
	struct kube_page pg;
	int rc = 0;

	/* the whole list is bounded, not only each page */
	w->bytes += r->body.len;
	if (w->bytes > k->list_max_bytes)
		return diag_report(k->diags, (struct pos)POS_NONE, KUBE_RULE, "",
				   "the list of %s from %s is larger than %zu MiB "
				   "over its pages; refusing to read on (raise %s "
				   "if the cluster really is that large)",
				   kube_res_name(k->arena, res->plural, res->group), w->origin,
				   k->list_max_bytes >> 20, KUBE_LIST_MAX_MIB_ENV);
	arena_init(&page);
	if (kube_page_parse(&pg, &page, k->diags, w->origin, r->body.data, r->body.len) < 0) {
		arena_release(&page);
		return KUBE_EFAIL;
	}
	buf_reset(&r->body);
	w->objects += pg.items->seq.count;
	if (w->objects > k->list_max_objects) {
		arena_release(&page);
		return diag_report(k->diags, (struct pos)POS_NONE, KUBE_RULE, "",
				   "the list of %s from %s has more than %zu "
				   "objects over its pages; refusing to read on (raise "
				   "%s if the cluster really is that large)",
				   kube_res_name(k->arena, res->plural, res->group), w->origin,
				   k->list_max_objects, KUBE_LIST_MAX_OBJECTS_ENV);
	}
	if (pg.cont && *pg.cont && token_seen(&w->seen, pg.cont, pg.cont_len)) {
		arena_release(&page);
		return diag_report(k->diags, (struct pos)POS_NONE, KUBE_RULE, "",
				   "the API server sent the same continue token "
				   "twice in the list of %s from %s (after %zu "
				   "objects): the list would never end; is that "
				   "really an API server?",
				   kube_res_name(k->arena, res->plural, res->group), w->origin,
				   w->objects);
	}
	for (size_t i = 0; i < pg.items->seq.count && rc == 0; i++)
		rc = cb->item(cb->payload, pg.items->seq.items[i]);
	free(*cont);
	*cont = pg.cont && *pg.cont ? xstrdup(pg.cont) : NULL;
	arena_release(&page);
	return rc;
}

int
kube_list(struct kube_client *k, const struct kube_list_query *q, const struct kube_list_cb *cb)
{
	struct list_walk w = { k, NULL, NULL, { NULL, 0, 0 }, 0, 0 };
	struct buf path;
	struct kube_resp r;
	char *cont = NULL;
	int rc, restarts = 0;
	const char *what;

	rc = kube_resource_find(&w.res, k, q->api_version, q->kind);
	if (rc < 0)
		return rc;
	what = arena_printf(k->arena, "list %s",
			    kube_res_name(k->arena, w.res->plural, w.res->group));
	buf_init(&path, 0);
	/* where the items came from, for messages about them; in the
	 * client's arena, since items may be cloned out of the page */
	if (kube_res_path(&path, w.res, q->namespace, NULL) < 0) {
		buf_release(&path);
		return KUBE_EFAIL;
	}
	w.origin = arena_printf(k->arena, "%s%s", k->conf.info.server, path.data);
	memset(&r, 0, sizeof(r));
	buf_init(&r.body, KUBE_MAX_BODY);
	for (;;) {
		buf_reset(&path);
		if (list_query(&path, w.res, q, cont) < 0) {
			rc = KUBE_EFAIL;
			break;
		}
		rc = kube_request(k, path.data, &r, what);
		if (rc < 0)
			break;
		if (r.code == 410 && cont && restarts < RESTART_MAX) {
			/* continue token expired: start over for a consistent list */
			restarts++;
			free(cont);
			cont = NULL;
			w.seen.count = 0;
			w.objects = w.bytes = 0;
			if (cb->restart)
				cb->restart(cb->payload);
			continue;
		}
		if (r.code == 404) {
			rc = KUBE_ENOTFOUND;
			break;
		}
		if (r.code != 200) {
			rc = kube_status_fail(k, &r, "list", w.res->plural, w.res->group,
					      w.res->namespaced ? q->namespace : NULL, NULL);
			break;
		}
		rc = list_page(&cont, &w, &r, cb);
		if (rc != 0 || !cont)
			break;
	}
	free(cont);
	free(w.seen.h);
	buf_release(&path);
	buf_release(&r.body);
	return rc;
}

struct collect {
	struct arena *a;
	struct node *seq;
};

static int
collect_item(void *payload, const struct node *item)
{
	struct collect *c = payload;

	node_seq_push(c->a, c->seq, node_clone(c->a, item));
	return 0;
}

static void
collect_restart(void *payload)
{
	struct collect *c = payload;

	c->seq->seq.count = 0;
}

int
kube_list_all(struct node **out, struct kube_client *k, struct arena *a,
	      const struct kube_list_query *q)
{
	struct collect c = { a, node_new_seq(a, (struct pos)POS_NONE) };
	struct kube_list_cb cb = { collect_item, collect_restart, &c };
	int rc = kube_list(k, q, &cb);

	*out = rc == 0 ? c.seq : NULL;
	return rc;
}

int
kube_list_nodes(struct node **out, struct kube_client *k, struct arena *a)
{
	struct kube_list_query q = { "v1", "Node", NULL, NULL, NULL, 0 };

	return kube_list_all(out, k, a, &q);
}

int
kube_list_daemonsets(struct node **out, struct kube_client *k, struct arena *a, const char *ns)
{
	struct kube_list_query q = { "apps/v1", "DaemonSet", ns, NULL, NULL, 0 };

	return kube_list_all(out, k, a, &q);
}

/* ---------------------------------------------------------- cluster */

static int
first_provider(void *payload, const struct node *item)
{
	const char **pid = payload;
	const char *s = node_str(node_path(item, "spec.providerID"));

	if (s && !strncmp(s, "eks-hybrid:///", 14)) {
		*pid = s;
		return 1; /* stop: one is enough */
	}
	return 0;
}

struct first_ctx {
	struct arena *a;
	const char *pid;
};

static int
first_provider_copy(void *payload, const struct node *item)
{
	struct first_ctx *f = payload;
	const char *pid = NULL;

	if (first_provider(&pid, item)) {
		f->pid = arena_strdup(f->a, pid);
		return 1;
	}
	return 0;
}

const char *
kube_cluster_name(struct kube_client *k, const char **how)
{
	struct kube_list_query q = { "v1", "Node", NULL, "eks.amazonaws.com/compute-type=hybrid",
				     NULL, 50 };
	struct first_ctx f = { k->arena, NULL };
	struct kube_list_cb cb = { first_provider_copy, NULL, &f };
	const char *p, *slash;

	if (k->conf.info.eks_cluster) {
		*how = "the EKS cluster ARN in the kubeconfig";
		return k->conf.info.eks_cluster;
	}
	if (kube_list(k, &q, &cb) < 0 || !f.pid)
		return NULL;
	/* eks-hybrid:///REGION/CLUSTER/NODE */
	p = f.pid + 14;
	p = strchr(p, '/');
	if (!p)
		return NULL;
	p++;
	slash = strchr(p, '/');
	if (!slash || slash == p)
		return NULL;
	*how = "the providerID of hybrid nodes";
	return arena_strndup(k->arena, p, (size_t)(slash - p));
}
