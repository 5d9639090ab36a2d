/*
 * argocd_api.c - KUBE_API_VERSIONS ("group/version" and
 * "group/version/Kind" entries, comma-joined, as Argo CD sets it) and the
 * check of a rendered stream against it: which part of a site makes each
 * kind, and what to do when the destination cannot take it.
 */
#include <stdlib.h>
#include <string.h>

#include "argocd/argocd_api.h"
#include "base/arena.h"
#include "node/node.h"
#include "render/render.h"
#include "spec/spec.h"

static bool
is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int
cmp_str(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

void
argocd_api_versions_parse(struct argocd_api_versions *out, struct arena *a, const char *text)
{
	size_t max = 1, n = 0;
	const char **items;

	memset(out, 0, sizeof(*out));
	if (!text)
		return;
	for (const char *q = text; *q; q++)
		max += *q == ',';
	items = arena_alloc(a, (max + 1) * sizeof(*items));
	for (const char *p = text; *p;) {
		const char *b, *end;

		while (*p && (is_blank(*p) || *p == ','))
			p++;
		b = p;
		while (*p && *p != ',')
			p++;
		end = p;
		while (end > b && is_blank(end[-1]))
			end--;
		if (end > b)
			items[n++] = arena_strndup(a, b, (size_t)(end - b));
	}
	qsort(items, n, sizeof(*items), cmp_str);
	out->count = 0;
	for (size_t i = 0; i < n; i++) {
		if (!out->count || strcmp(items[out->count - 1], items[i]))
			items[out->count++] = items[i];
	}
	out->items = items;
}

static bool
api_has(const struct argocd_api_versions *v, const char *entry)
{
	return bsearch(&entry, v->items, v->count, sizeof(*v->items), cmp_str) != NULL;
}

bool
argocd_api_versions_serves(const struct argocd_api_versions *v, const char *api_version,
			   const char *kind)
{
	size_t n = strlen(api_version), lo = 0, hi = v->count;

	if (!v->count)
		return true;
	/* First entry >= "<gv>/": kinds of this group/version sort there. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strncmp(v->items[mid], api_version, n);

		if (c < 0 || (c == 0 && v->items[mid][n] < '/'))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < v->count; i++) {
		const char *it = v->items[i];

		if (strncmp(it, api_version, n) || it[n] != '/')
			break;
		/* A kind entry: one more segment, starting upper-case. */
		if (it[n + 1] >= 'A' && it[n + 1] <= 'Z' && !strchr(it + n + 1, '/')) {
			for (size_t j = i; j < v->count; j++) {
				const char *k = v->items[j];

				if (strncmp(k, api_version, n) || k[n] != '/')
					break;
				if (kind && !strcmp(k + n + 1, kind))
					return true;
			}
			return false;
		}
	}
	return api_has(v, api_version);
}

/* Which part of a site makes an object of this kind, and what to do when
 * the cluster cannot take it. */
struct api_need {
	const char *kind;
	const char *field;
	const char *advice;
};

static const struct api_need api_needs[] = {
	{ "ConfigMap", "nodeGroups", "the core API always serves it: check KUBE_API_VERSIONS" },
	{ "NodePool", "fallback",
	  "install Karpenter v1 on the cluster, or set fallback.enabled: false" },
	{ "Application", "gpuStack",
	  "no Argo CD runs there: render this cluster's objects with the setting objects: cluster, "
	  "and its GPU stack from the hub Argo CD with an Application of objects: argocd" },
	{ "MutatingPolicy", "placement",
	  "install Kyverno 1.17 or newer, or set placement.engine: kyverno-clusterpolicy for an "
	  "older Kyverno" },
	{ "ClusterPolicy", "placement", "install Kyverno, or choose another placement.engine" },
	{ "MutatingAdmissionPolicy", "placement",
	  "set kube-version to the cluster's version (v1 needs 1.36, v1beta1 1.34-1.35 with the "
	  "feature gate), or choose another placement.engine" },
	{ "MutatingAdmissionPolicyBinding", "placement",
	  "set kube-version to the cluster's version (v1 needs 1.36, v1beta1 1.34-1.35 with the "
	  "feature gate), or choose another placement.engine" },
	{ "EC2NodeClass", "fallback",
	  "install Karpenter's AWS provider and create the EC2NodeClass, or on an EKS Auto Mode "
	  "cluster set cluster.provisioner: auto-mode" },
	{ "NodeClass", "cluster",
	  "the cluster does not run EKS Auto Mode: set cluster.provisioner: karpenter, or enable "
	  "Auto Mode" },
	{ "PrometheusRule", "alerts",
	  "install the Prometheus Operator CRDs, or set alerts.enabled: false" },
};

/* The cluster may serve the policy under the other version: say which. */
static const char *
advice(struct arena *a, const struct argocd_api_versions *have, const char *api_version,
       const char *kind, const struct api_need *need)
{
	static const char *const map_versions[] = { "admissionregistration.k8s.io/v1",
						    "admissionregistration.k8s.io/v1beta1" };

	for (size_t i = 0; i < 2; i++) {
		const char *other = map_versions[1 - i];

		if (strcmp(api_version, map_versions[i]) ||
		    !argocd_api_versions_serves(have, other, kind))
			continue;
		return arena_printf(
			a, "it serves %s %s: set kube-version to the cluster's version (%s)", other,
			kind, i == 0 ? "1.34 or 1.35" : "1.36 or later");
	}
	return need ? need->advice : "install what serves it";
}

static const struct spec_site *
owner_site(const struct spec_fleet *fleet, const struct render_object *o,
	   const struct argocd_settings *g)
{
	if (o->site)
		return spec_fleet_find(fleet, o->site);
	/* Shared per cluster: name the first selected site of that cluster. */
	for (size_t i = 0; i < fleet->count; i++) {
		const struct spec_site *s = fleet->sites[i];
		bool selected = !g->site_count;

		for (size_t j = 0; j < g->site_count; j++)
			selected |= !strcmp(g->sites[j], s->name);
		if (selected && o->cluster && s->cluster.name &&
		    !strcmp(o->cluster, s->cluster.name))
			return s;
	}
	return NULL;
}

struct api_check {
	struct arena *a;
	struct diags *d;
	struct argocd_api_versions have;
	const struct spec_fleet *fleet;
	const struct argocd_settings *g;
	const char **said; /* "<api>/<kind>@<site>" already warned about */
	size_t nsaid;
	size_t errors;
};

/* Warn once per site when the cluster does not serve `kind` of `api`,
 * which object `o` is (`via` NULL) or refers to (`via` says how). */
static void
api_require(struct api_check *c, const struct render_object *o, const char *api, const char *kind,
	    const char *via)
{
	const struct spec_site *s;
	const struct api_need *need = NULL;
	struct pos at = POS_NONE;
	const char *key, *who;

	if (argocd_api_versions_serves(&c->have, api, kind))
		return;
	s = owner_site(c->fleet, o, c->g);
	who = s ? s->name : o->cluster ? o->cluster : "?";
	key = arena_printf(c->a, "%s/%s@%s", api, kind, s ? s->name : "");
	for (size_t j = 0; j < c->nsaid; j++) {
		if (!strcmp(c->said[j], key))
			return;
	}
	c->said[c->nsaid++] = key;
	for (size_t j = 0; j < sizeof(api_needs) / sizeof(api_needs[0]); j++) {
		if (!strcmp(api_needs[j].kind, kind))
			need = &api_needs[j];
	}
	if (s) {
		const struct node *spec = node_map_get(s->doc, "spec");

		at = spec ? spec_field_pos(spec, need ? need->field : "cluster")
			  : (struct pos){ s->file, 0, 0 };
		if (!at.file)
			at.file = s->file;
	}
	if (!strcmp(kind, "Application") && !strncmp(api, "argoproj.io/", 12)) {
		/* Argo CD would apply it where no controller reads it: the
		 * GPU stack would never be installed. */
		c->errors++;
		diag_report(c->d, at, ARGOCD_RULE_HUB, "",
			    "the stream holds the Argo CD Application %s/%s of %s, but the "
			    "destination does not serve %s %s (KUBE_API_VERSIONS): %s",
			    o->namespace, o->name, who, api, kind,
			    advice(c->a, &c->have, api, kind, need));
		return;
	}
	diag_report(c->d, at, ARGOCD_RULE_API, "",
		    "site %s needs %s %s%s, which the target cluster does not serve "
		    "(KUBE_API_VERSIONS): %s",
		    who, api, kind, via ? via : "", advice(c->a, &c->have, api, kind, need));
}

int
argocd_check_apis(struct arena *a, struct diags *d, const struct argocd_env *e,
		  const struct argocd_settings *g, const struct spec_fleet *fleet,
		  const struct render_result *r)
{
	struct api_check c = { a, d, { NULL, 0 }, fleet, g, NULL, 0, 0 };

	argocd_api_versions_parse(&c.have, a, argocd_env_get(e, "KUBE_API_VERSIONS"));
	if (!c.have.count)
		return 0; /* unknown cluster: nothing to check against */
	c.said = arena_alloc(a, (2 * r->count + 1) * sizeof(*c.said));
	for (size_t i = 0; i < r->count; i++) {
		const struct render_object *o = &r->objects[i];
		const char *group, *kind;

		api_require(&c, o, o->api_version, o->kind, NULL);
		if (strcmp(o->kind, "NodePool"))
			continue;
		/* A NodePool is useless without the node class it points at
		 * (Karpenter v1: karpenter.k8s.aws/v1, eks.amazonaws.com/v1). */
		group = node_str(node_path(o->obj, "spec.template.spec.nodeClassRef.group"));
		kind = node_str(node_path(o->obj, "spec.template.spec.nodeClassRef.kind"));
		if (group && kind)
			api_require(&c, o, arena_printf(a, "%s/v1", group), kind,
				    " (its NodePool's nodeClassRef)");
	}
	return c.errors ? -1 : 0;
}
