/*
 * kube_http.c - what the client reads of an HTTP answer: header lines
 * (status line, Retry-After), LIST pages and single objects with their
 * shape checked, Status messages, the caps of one whole LIST (from the
 * environment) and the one diagnostic for an answer that is not a
 * success.  The lowest room of kube/: it calls no other, so transport,
 * discovery and list all read it and none of them reads another back.  The curl callbacks and the request
 * loop of kube_transport.c call these; fuzz/fuzz_http.c drives them directly.
 *
 * An answer of the wrong shape is "malformed", never an empty list: a
 * NodeList whose items are a mapping must not read as a cluster without
 * nodes.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/arena.h"
#include "json/json.h"
#include "kube/kube_int.h"
#include "node/node.h"

bool
kube_has_ctl(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; p && *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return true;
	return false;
}

void
kube_answer_init(struct kube_answer_meta *m)
{
	m->status = 0;
	m->retry_after = -1;
}

/* "HTTP/1.1 200 OK", "HTTP/2 429": the code, or -1. */
static long
status_code(const char *line, size_t n)
{
	size_t i = 5;
	long code = 0;
	int digits = 0;

	if (n < 5 || strncmp(line, "HTTP/", 5))
		return -1;
	while (i < n && line[i] != ' ')
		i++;
	while (i < n && line[i] == ' ')
		i++;
	for (; i < n && line[i] >= '0' && line[i] <= '9' && digits < 3; i++, digits++)
		code = code * 10 + (line[i] - '0');
	if (digits != 3 || (i < n && line[i] != ' ' && line[i] != '\r' && line[i] != '\n'))
		return -1;
	return code;
}

void
kube_answer_header(struct kube_answer_meta *m, const char *line, size_t n)
{
	long code = status_code(line, n);

	if (code >= 0) {
		/* a new answer: what an interim one said does not carry over */
		kube_answer_init(m);
		m->status = code;
		return;
	}
	if (n > 12 && !strncasecmp(line, "Retry-After:", 12)) {
		char tmp[32];
		size_t k = n - 12 < sizeof(tmp) - 1 ? n - 12 : sizeof(tmp) - 1;
		char *end;
		double v;

		memcpy(tmp, line + 12, k);
		tmp[k] = '\0';
		v = strtod(tmp, &end);
		/* seconds only (an HTTP date is ignored); a day at most */
		if (end != tmp && v >= 0 && v <= 86400)
			m->retry_after = v;
	}
}

static int
malformed(struct diags *d, const char *where, const char *what)
{
	return diag_report(d, (struct pos)POS_NONE, KUBE_RULE, "",
			   "malformed answer to GET %s: %s; is that really an API "
			   "server?",
			   where, what);
}

int
kube_page_parse(struct kube_page *out, struct arena *a, struct diags *d, const char *where,
		const char *body, size_t len)
{
	const struct node *root, *items, *meta, *cont, *kind;

	memset(out, 0, sizeof(*out));
	root = json_parse(a, d, KUBE_RULE, where, body, len);
	if (!root)
		return KUBE_EFAIL;
	if (root->kind != NODE_MAP)
		return malformed(d, where, "the list is not a JSON object");
	kind = node_map_get(root, "kind");
	if (kind && !node_is_null(kind) &&
	    (!node_is_str(kind) || kind->scalar.len < 4 ||
	     strcmp(kind->scalar.text + kind->scalar.len - 4, "List")))
		return malformed(d, where, "'kind' is not the kind of a list");
	items = node_map_get(root, "items");
	if (!items)
		return malformed(d, where, "the list has no 'items'");
	if (node_is_null(items)) {
		items = node_new_seq(a, items->at); /* Go's empty slice */
	} else if (items->kind != NODE_SEQ) {
		return malformed(d, where, "'items' is not a list");
	}
	for (size_t i = 0; i < items->seq.count; i++)
		if (items->seq.items[i]->kind != NODE_MAP)
			return malformed(d, where, arena_printf(a, "item %zu is not an object", i));
	meta = node_map_get(root, "metadata");
	if (meta && !node_is_null(meta) && meta->kind != NODE_MAP)
		return malformed(d, where, "'metadata' is not an object");
	cont = meta && meta->kind == NODE_MAP ? node_map_get(meta, "continue") : NULL;
	if (cont && !node_is_null(cont)) {
		if (!node_is_str(cont))
			return malformed(d, where, "'metadata.continue' is not a string");
		if (cont->scalar.len > KUBE_MAX_CONTINUE)
			return diag_report(d, (struct pos)POS_NONE, KUBE_RULE, "",
					   "continue token too long in the answer to GET %s: "
					   "%zu bytes, the limit is %u; is that really an API "
					   "server?",
					   where, cont->scalar.len, KUBE_MAX_CONTINUE);
		if (strlen(cont->scalar.text) != cont->scalar.len)
			return malformed(d, where, "'metadata.continue' holds a NUL");
		out->cont = cont->scalar.text;
		out->cont_len = cont->scalar.len;
	}
	out->items = items;
	return 0;
}

int
kube_object_parse(struct node **out, struct arena *a, struct diags *d, const char *where,
		  const char *body, size_t len)
{
	struct node *root = json_parse(a, d, KUBE_RULE, where, body, len);

	*out = NULL;
	if (!root)
		return KUBE_EFAIL;
	if (root->kind != NODE_MAP)
		return malformed(d, where, "the object is not a JSON object");
	if (node_map_get(root, "metadata") && node_map_get(root, "metadata")->kind != NODE_MAP)
		return malformed(d, where, "'metadata' is not an object");
	*out = root;
	return 0;
}

const char *
kube_status_message(struct arena *a, const char *body, size_t len)
{
	struct diags quiet;
	const struct node *st;
	const char *kind, *msg;
	size_t n;

	diags_init(&quiet, a);
	st = json_parse(a, &quiet, KUBE_RULE, "response", body, len);
	if (!st || st->kind != NODE_MAP)
		return NULL;
	kind = node_str(node_map_get(st, "kind"));
	if (!kind || strcmp(kind, "Status"))
		return NULL;
	msg = node_str(node_map_get(st, "message"));
	if (!msg)
		return NULL;
	n = strlen(msg);
	if (n <= KUBE_MAX_STATUS_MSG)
		return msg;
	n = KUBE_MAX_STATUS_MSG;
	while (n && ((unsigned char)msg[n] & 0xc0) == 0x80)
		n--; /* not inside a UTF-8 sequence */
	return arena_printf(a, "%.*s...", (int)n, msg);
}

/* ------------------------------------------- caps of a whole LIST */

/* A positive whole number from the environment, or `def` when unset. */
static int
env_count(struct kube_client *k, const char *name, size_t def, size_t *out)
{
	const char *v = k->env(name);
	char *end;
	unsigned long long n;

	*out = def;
	if (!v || !*v)
		return 0;
	errno = 0;
	n = strtoull(v, &end, 10);
	if (*end || errno || n == 0 || v[0] == '-' || n > SIZE_MAX / 2)
		return diag_report(k->diags, (struct pos)POS_NONE, KUBE_RULE, "",
				   "%s='%s' is not a positive whole number", name, v);
	*out = (size_t)n;
	return 0;
}

int
kube_list_limits(struct kube_client *k)
{
	size_t mib;

	if (env_count(k, KUBE_LIST_MAX_OBJECTS_ENV, KUBE_LIST_MAX_OBJECTS, &k->list_max_objects) <
		    0 ||
	    env_count(k, KUBE_LIST_MAX_MIB_ENV, KUBE_LIST_MAX_MIB, &mib) < 0)
		return -1;
	k->list_max_bytes = mib > SIZE_MAX >> 21 ? SIZE_MAX : mib << 20;
	return 0;
}

/* ------------------------------------------ answers that failed */

const char *
kube_res_name(struct arena *a, const char *plural, const char *group)
{
	return *group ? arena_printf(a, "%s.%s", plural, group) : plural;
}

int
kube_status_fail(struct kube_client *k, const struct kube_resp *r, const char *verb,
		 const char *plural, const char *group, const char *ns, const char *name)
{
	struct arena *a = k->arena;
	const char *res = kube_res_name(a, plural, group);
	const char *obj = name ? arena_printf(a, "%s '%s'", res, name) : res;
	const char *msg = kube_status_message(a, r->body.data, r->body.len);

	switch (r->code) {
	case 401:
		return diag_report(k->diags, k->conf.at, KUBE_RULE, "",
				   "the API server %s rejected the credentials of user "
				   "'%s' (%s) with 401 Unauthorized: they are missing, "
				   "expired or for another cluster",
				   k->conf.info.server,
				   k->conf.info.user ? k->conf.info.user : "(service account)",
				   k->conf.info.auth);
	case 403:
		if (ns && *ns)
			return diag_report(k->diags, (struct pos)POS_NONE, KUBE_RULE, "",
					   "cannot %s %s in namespace '%s': RBAC needs '%s' on "
					   "'%s' in namespace '%s' for the user of context '%s'",
					   verb, obj, ns, verb, res, ns,
					   k->conf.info.context ? k->conf.info.context
								: "in-cluster");
		return diag_report(k->diags, (struct pos)POS_NONE, KUBE_RULE, "",
				   "cannot %s %s at the cluster scope: RBAC needs '%s' on "
				   "'%s' for the user of context '%s'",
				   verb, obj, verb, res,
				   k->conf.info.context ? k->conf.info.context : "in-cluster");
	default:
		return diag_report(k->diags, (struct pos)POS_NONE, KUBE_RULE, "",
				   "cannot %s %s: the API server answered %ld%s%s", verb, obj,
				   r->code, msg ? ": " : "", msg ? msg : "");
	}
}
