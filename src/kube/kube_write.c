/*
 * kube_write.c - the only writes gpusite makes, for `drill run --execute`:
 * a cordon (and uncordon) PATCH of a node, a policy/v1 Eviction of a pod,
 * and a SelfSubjectAccessReview before either; each built as the call a
 * dry run prints, then sent by kube_send() with the transport's retries
 * and its answer read back (status, Retry-After, the Status message).
 */
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "json/json.h"
#include "kube/kube_int.h"
#include "node/node.h"

static const char *
buf_to_arena(struct arena *a, struct buf *b)
{
	const char *s = arena_strndup(a, b->data, b->len);

	buf_release(b);
	return s;
}

/* The JSON text of a body built as a node tree, in the arena; NULL when
 * out of memory.  Names come from the API or the command line: the
 * writer quotes them. */
static const char *
body_text(struct arena *a, const struct node *doc)
{
	struct buf b;

	buf_init(&b, 0);
	if (json_write(&b, doc, 0) < 0) {
		buf_release(&b);
		return NULL;
	}
	return buf_to_arena(a, &b);
}

/* A mapping under `key` of map, for the nesting of a body. */
static struct node *
body_map(struct arena *a, struct node *map, const char *key)
{
	return node_map_add(a, map, key, node_new_map(a, (struct pos)POS_NONE));
}

int
kube_call_cordon(struct kube_call *out, struct arena *a, const char *node, bool cordon)
{
	struct node *doc = node_new_map(a, (struct pos)POS_NONE);
	struct node *spec = body_map(a, doc, "spec");
	struct buf b;
	int rc;

	buf_init(&b, 0);
	rc = buf_adds(&b, "/api/v1/nodes/");
	rc |= kube_url_escape(&b, node);
	out->method = "PATCH";
	out->path = buf_to_arena(a, &b);
	out->content_type = "application/strategic-merge-patch+json";
	/* kubectl cordon / uncordon: unschedulable false is omitted from
	 * the node, so the patch deletes the field */
	if (cordon)
		node_map_add_bool(a, spec, "unschedulable", true);
	else
		node_map_add(a, spec, "unschedulable", node_new_null(a, (struct pos)POS_NONE));
	out->body = body_text(a, doc);
	out->pass_429 = false;
	return rc || !out->body ? KUBE_EFAIL : 0;
}

int
kube_call_evict(struct kube_call *out, struct arena *a, const char *ns, const char *pod)
{
	struct node *doc = node_new_map(a, (struct pos)POS_NONE);
	struct node *meta;
	struct buf b;
	int rc;

	buf_init(&b, 0);
	rc = buf_adds(&b, "/api/v1/namespaces/");
	rc |= kube_url_escape(&b, ns);
	rc |= buf_adds(&b, "/pods/");
	rc |= kube_url_escape(&b, pod);
	rc |= buf_adds(&b, "/eviction");
	out->method = "POST";
	out->path = buf_to_arena(a, &b);
	out->content_type = "application/json";
	/* byte for byte what kubectl drain sends (k8s.io/kubectl/pkg/drain):
	 * its keys in its order */
	node_map_add_str(a, doc, "kind", "Eviction");
	node_map_add_str(a, doc, "apiVersion", "policy/v1");
	meta = body_map(a, doc, "metadata");
	node_map_add_str(a, meta, "name", pod);
	node_map_add_str(a, meta, "namespace", ns);
	node_map_add(a, meta, "creationTimestamp", node_new_null(a, (struct pos)POS_NONE));
	body_map(a, doc, "deleteOptions");
	out->body = body_text(a, doc);
	out->pass_429 = true;
	return rc || !out->body ? KUBE_EFAIL : 0;
}

int
kube_call_access_review(struct kube_call *out, struct arena *a, const char *verb, const char *group,
			const char *resource, const char *subresource, const char *ns)
{
	struct node *doc = node_new_map(a, (struct pos)POS_NONE);
	struct node *attrs;

	out->method = "POST";
	out->path = "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews";
	out->content_type = "application/json";
	/* the question only: no status (the answer's member) and no
	 * metadata, which a review has no use for */
	node_map_add_str(a, doc, "kind", "SelfSubjectAccessReview");
	node_map_add_str(a, doc, "apiVersion", "authorization.k8s.io/v1");
	attrs = body_map(a, body_map(a, doc, "spec"), "resourceAttributes");
	if (ns && *ns)
		node_map_add_str(a, attrs, "namespace", ns);
	node_map_add_str(a, attrs, "verb", verb);
	node_map_add_str(a, attrs, "group", group ? group : "");
	node_map_add_str(a, attrs, "resource", resource);
	if (subresource && *subresource)
		node_map_add_str(a, attrs, "subresource", subresource);
	out->body = body_text(a, doc);
	out->pass_429 = false;
	return out->body ? 0 : KUBE_EFAIL;
}

/* The first details.causes[].message of a Status body, capped. */
static const char *
status_cause(struct arena *a, const struct node *st)
{
	const struct node *causes = node_path(st, "details.causes");
	const char *msg;

	if (!causes || causes->kind != NODE_SEQ || !causes->seq.count)
		return NULL;
	msg = node_str(node_map_get(causes->seq.items[0], "message"));
	if (!msg)
		return NULL;
	if (strlen(msg) > KUBE_MAX_STATUS_MSG)
		return arena_printf(a, "%.*s...", (int)KUBE_MAX_STATUS_MSG, msg);
	return msg;
}

int
kube_send(struct kube_answer *out, struct kube_client *k, struct arena *a,
	  const struct kube_call *c, const char *what)
{
	struct kube_resp r;
	int rc;

	memset(out, 0, sizeof(*out));
	memset(&r, 0, sizeof(r));
	buf_init(&r.body, KUBE_MAX_WRITE_ANSWER);
	rc = kube_request_send(k, c, &r, what);
	if (rc < 0)
		goto out;
	out->status = r.code;
	out->retry_after = r.meta.retry_after;
	if (r.code == 401) {
		rc = kube_status_fail(k, &r, what, "", "", NULL, NULL);
		goto out;
	}
	if (r.body.len) {
		struct diags quiet;
		struct node *doc;

		diags_init(&quiet, a);
		doc = json_parse(a, &quiet, KUBE_RULE, c->path, r.body.data, r.body.len);
		if (doc && doc->kind == NODE_MAP) {
			out->body = doc;
			if (r.code >= 300) {
				out->message = kube_status_message(a, r.body.data, r.body.len);
				out->cause = status_cause(a, doc);
			}
		}
	}
	if (r.code >= 200 && r.code < 300 && !out->body)
		rc = diag_report(k->diags, (struct pos)POS_NONE, KUBE_RULE, "",
				 "malformed answer to %s %s%s: not a JSON object; is "
				 "that really an API server?",
				 c->method, k->conf.info.server, c->path);
out:
	buf_release(&r.body);
	return rc;
}
