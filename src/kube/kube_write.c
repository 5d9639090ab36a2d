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

/* Append s as a JSON string; names come from the API or the command
 * line, so quote them properly. */
static int
json_quote(struct buf *b, const char *s)
{
	int rc = buf_addch(b, '"');

	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			rc |= buf_printf(b, "\\%c", *p);
		else if (*p < 0x20)
			rc |= buf_printf(b, "\\u%04x", *p);
		else
			rc |= buf_addch(b, (char)*p);
	}
	return rc | buf_addch(b, '"');
}

static const char *
buf_to_arena(struct arena *a, struct buf *b)
{
	const char *s = arena_strndup(a, b->data, b->len);

	buf_release(b);
	return s;
}

int
kube_call_cordon(struct kube_call *out, struct arena *a, const char *node, bool cordon)
{
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
	out->body = cordon ? "{\"spec\":{\"unschedulable\":true}}"
			   : "{\"spec\":{\"unschedulable\":null}}";
	out->pass_429 = false;
	return rc ? KUBE_EFAIL : 0;
}

int
kube_call_evict(struct kube_call *out, struct arena *a, const char *ns, const char *pod)
{
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
	/* byte for byte what kubectl drain sends (k8s.io/kubectl/pkg/drain) */
	buf_init(&b, 0);
	rc |= buf_adds(&b, "{\"kind\":\"Eviction\",\"apiVersion\":\"policy/v1\","
			   "\"metadata\":{\"name\":");
	rc |= json_quote(&b, pod);
	rc |= buf_adds(&b, ",\"namespace\":");
	rc |= json_quote(&b, ns);
	rc |= buf_adds(&b, ",\"creationTimestamp\":null},\"deleteOptions\":{}}");
	out->body = buf_to_arena(a, &b);
	out->pass_429 = true;
	return rc ? KUBE_EFAIL : 0;
}

int
kube_call_access_review(struct kube_call *out, struct arena *a, const char *verb, const char *group,
			const char *resource, const char *subresource, const char *ns)
{
	struct buf b;
	int rc;

	out->method = "POST";
	out->path = "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews";
	out->content_type = "application/json";
	/* the question only: no status (the answer's member) and no
	 * metadata, which a review has no use for */
	buf_init(&b, 0);
	rc = buf_adds(&b, "{\"kind\":\"SelfSubjectAccessReview\",\"apiVersion\":"
			  "\"authorization.k8s.io/v1\",\"spec\":{\"resourceAttributes\":{");
	if (ns && *ns) {
		rc |= buf_adds(&b, "\"namespace\":");
		rc |= json_quote(&b, ns);
		rc |= buf_addch(&b, ',');
	}
	rc |= buf_adds(&b, "\"verb\":");
	rc |= json_quote(&b, verb);
	rc |= buf_adds(&b, ",\"group\":");
	rc |= json_quote(&b, group ? group : "");
	rc |= buf_adds(&b, ",\"resource\":");
	rc |= json_quote(&b, resource);
	if (subresource && *subresource) {
		rc |= buf_adds(&b, ",\"subresource\":");
		rc |= json_quote(&b, subresource);
	}
	rc |= buf_adds(&b, "}}}");
	out->body = buf_to_arena(a, &b);
	out->pass_429 = false;
	return rc ? KUBE_EFAIL : 0;
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
		rc = diag_add(k->diags, DIAG_ERROR, (struct pos)POS_NONE, KUBE_RULE, "",
			      "malformed answer to %s %s%s: not a JSON object; is "
			      "that really an API server?",
			      c->method, k->conf.info.server, c->path);
out:
	buf_release(&r.body);
	return rc;
}
