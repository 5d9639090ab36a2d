/*
 * kube_discovery.c - which resource serves a kind: apiVersion + kind to
 * the group, version, plural and scope the server announces (GET
 * /api/VERSION or /apis/GROUP/VERSION, once per group version and
 * client), and the path and name of a resource for requests and messages.
 * GET and LIST (kube_list.c) and the messages of the transport ask here;
 * nothing here sends anything but discovery's own GETs.
 */
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "kube/kube_int.h"
#include "node/node.h"

static void
split_api_version(struct arena *a, const char *api_version, const char **group,
		  const char **version)
{
	const char *slash = strchr(api_version, '/');

	if (!slash) {
		*group = "";
		*version = api_version;
	} else {
		*group = arena_strndup(a, api_version, (size_t)(slash - api_version));
		*version = slash + 1;
	}
}

static int
discover(struct kube_gv **out, struct kube_client *k, const char *group, const char *version)
{
	struct arena *a = k->arena;
	const char *gv = *group ? arena_printf(a, "%s/%s", group, version) : version;
	const char *path =
		*group ? arena_printf(a, "/apis/%s", gv) : arena_printf(a, "/api/%s", gv);
	struct kube_gv *c = NULL;
	struct kube_resp r;
	const struct node *root, *list;
	int rc;

	for (size_t i = 0; i < k->ngv; i++)
		if (!strcmp(k->gvs[i].gv, gv)) {
			*out = &k->gvs[i];
			return 0;
		}
	memset(&r, 0, sizeof(r));
	buf_init(&r.body, KUBE_MAX_BODY);
	rc = kube_request(k, path, &r, arena_printf(a, "discover the API group %s", gv));
	if (rc < 0)
		goto out;
	ARENA_GROW(a, k->gvs, k->ngv, k->agv, 16);
	c = &k->gvs[k->ngv];
	memset(c, 0, sizeof(*c));
	c->gv = gv;
	if (r.code == 404) {
		k->ngv++;
		*out = c;
		goto out;
	}
	if (r.code != 200) {
		rc = kube_status_fail(k, &r, "discover", gv, "", NULL, NULL);
		goto out;
	}
	{
		const char *where = arena_printf(a, "%s%s", k->conf.info.server, path);
		struct node *doc;

		if (kube_object_parse(&doc, a, k->diags, where, r.body.data, r.body.len) < 0) {
			rc = KUBE_EFAIL;
			goto out;
		}
		root = doc;
		list = node_map_get(root, "resources");
		if (list && !node_is_null(list) && list->kind != NODE_SEQ) {
			rc = diag_report(k->diags, (struct pos)POS_NONE, KUBE_RULE, "",
					 "malformed answer to GET %s: 'resources' "
					 "is not a list; is that really an API server?",
					 where);
			goto out;
		}
	}
	c->served = true;
	if (list && list->kind == NODE_SEQ) {
		c->res = arena_alloc(a, (list->seq.count + 1) * sizeof(*c->res));
		for (size_t i = 0; i < list->seq.count; i++) {
			const struct node *e = list->seq.items[i];
			const char *name = node_str(node_map_get(e, "name"));
			const char *kind = node_str(node_map_get(e, "kind"));
			struct kube_resource *kr;

			if (!name || !kind || strchr(name, '/'))
				continue; /* subresources */
			kr = &c->res[c->count++];
			kr->group = group;
			kr->version = version;
			kr->kind = kind;
			kr->plural = name;
			kr->namespaced = node_is_bool(node_map_get(e, "namespaced")) &&
					 node_map_get(e, "namespaced")->scalar.i;
		}
	}
	k->ngv++;
	*out = c;
out:
	buf_release(&r.body);
	return rc;
}

int
kube_resource_find(const struct kube_resource **out, struct kube_client *k, const char *api_version,
		   const char *kind)
{
	const char *group, *version;
	struct kube_gv *c = NULL;

	*out = NULL;
	split_api_version(k->arena, api_version, &group, &version);
	if (discover(&c, k, group, version) < 0)
		return KUBE_EFAIL;
	if (!c->served)
		return KUBE_ENOTFOUND;
	for (size_t i = 0; i < c->count; i++)
		if (!strcmp(c->res[i].kind, kind)) {
			*out = &c->res[i];
			return 0;
		}
	return KUBE_ENOTFOUND;
}

int
kube_res_path(struct buf *b, const struct kube_resource *r, const char *ns, const char *name)
{
	int rc = *r->group ? buf_printf(b, "/apis/%s/%s", r->group, r->version)
			   : buf_printf(b, "/api/%s", r->version);

	if (rc == 0 && r->namespaced && ns && *ns) {
		rc = buf_adds(b, "/namespaces/");
		if (rc == 0)
			rc = kube_url_escape(b, ns);
	}
	if (rc == 0)
		rc = buf_printf(b, "/%s", r->plural);
	if (rc == 0 && name) {
		rc = buf_addch(b, '/');
		if (rc == 0)
			rc = kube_url_escape(b, name);
	}
	return rc;
}
