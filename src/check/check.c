/*
 * check.c - the dispatcher: one rendered stream through the upstream checks: each object's
 * metadata as the API server validates it (ObjectMeta), its upstream
 * schema, its kind's rules, and the rules across objects (a
 * MutatingAdmissionPolicyBinding names a policy of the stream).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "check/check_int.h"
#include "render/render.h"
#include "source/source.h"

/*
 * The scope of each kind this tool may meet, by API group and kind.  The
 * built-in kinds are those of Kubernetes 1.35 (`kubectl api-resources`;
 * for the groups saved under kubernetes/release-1.35, the OpenAPI paths
 * say the same: /namespaces/{namespace}/<resource> or not), the custom
 * resources those of their CRDs' spec.scope.  The kinds gpusite renders
 * are not listed: their descriptors say (struct render_kind, namespaced).
 * A kind known to neither has no known scope, and its namespace is not
 * judged.
 */
struct kind_scope {
	const char *group; /* "" for the core group */
	const char *kind;
	bool namespaced;
};

static const struct kind_scope kind_scopes[] = {
	/* core */
	{ "", "Binding", true },
	{ "", "ComponentStatus", false },
	{ "", "Endpoints", true },
	{ "", "Event", true },
	{ "", "LimitRange", true },
	{ "", "Namespace", false },
	{ "", "Node", false },
	{ "", "PersistentVolume", false },
	{ "", "PersistentVolumeClaim", true },
	{ "", "Pod", true },
	{ "", "PodTemplate", true },
	{ "", "ReplicationController", true },
	{ "", "ResourceQuota", true },
	{ "", "Secret", true },
	{ "", "Service", true },
	{ "", "ServiceAccount", true },
	{ "admissionregistration.k8s.io", "MutatingWebhookConfiguration", false },
	{ "admissionregistration.k8s.io", "ValidatingAdmissionPolicy", false },
	{ "admissionregistration.k8s.io", "ValidatingAdmissionPolicyBinding", false },
	{ "admissionregistration.k8s.io", "ValidatingWebhookConfiguration", false },
	{ "apiextensions.k8s.io", "CustomResourceDefinition", false },
	{ "apiregistration.k8s.io", "APIService", false },
	{ "apps", "ControllerRevision", true },
	{ "apps", "DaemonSet", true },
	{ "apps", "Deployment", true },
	{ "apps", "ReplicaSet", true },
	{ "apps", "StatefulSet", true },
	{ "authentication.k8s.io", "SelfSubjectReview", false },
	{ "authentication.k8s.io", "TokenReview", false },
	{ "authorization.k8s.io", "LocalSubjectAccessReview", true },
	{ "authorization.k8s.io", "SelfSubjectAccessReview", false },
	{ "authorization.k8s.io", "SelfSubjectRulesReview", false },
	{ "authorization.k8s.io", "SubjectAccessReview", false },
	{ "autoscaling", "HorizontalPodAutoscaler", true },
	{ "batch", "CronJob", true },
	{ "batch", "Job", true },
	{ "certificates.k8s.io", "CertificateSigningRequest", false },
	{ "certificates.k8s.io", "ClusterTrustBundle", false },
	{ "coordination.k8s.io", "Lease", true },
	{ "coordination.k8s.io", "LeaseCandidate", true },
	{ "discovery.k8s.io", "EndpointSlice", true },
	{ "events.k8s.io", "Event", true },
	{ "flowcontrol.apiserver.k8s.io", "FlowSchema", false },
	{ "flowcontrol.apiserver.k8s.io", "PriorityLevelConfiguration", false },
	{ "networking.k8s.io", "IPAddress", false },
	{ "networking.k8s.io", "Ingress", true },
	{ "networking.k8s.io", "IngressClass", false },
	{ "networking.k8s.io", "NetworkPolicy", true },
	{ "networking.k8s.io", "ServiceCIDR", false },
	{ "node.k8s.io", "RuntimeClass", false },
	{ "policy", "PodDisruptionBudget", true },
	{ "rbac.authorization.k8s.io", "ClusterRole", false },
	{ "rbac.authorization.k8s.io", "ClusterRoleBinding", false },
	{ "rbac.authorization.k8s.io", "Role", true },
	{ "rbac.authorization.k8s.io", "RoleBinding", true },
	{ "resource.k8s.io", "DeviceClass", false },
	{ "resource.k8s.io", "DeviceTaintRule", false },
	{ "resource.k8s.io", "ResourceClaim", true },
	{ "resource.k8s.io", "ResourceClaimTemplate", true },
	{ "resource.k8s.io", "ResourceSlice", false },
	{ "scheduling.k8s.io", "PriorityClass", false },
	{ "storage.k8s.io", "CSIDriver", false },
	{ "storage.k8s.io", "CSINode", false },
	{ "storage.k8s.io", "CSIStorageCapacity", true },
	{ "storage.k8s.io", "StorageClass", false },
	{ "storage.k8s.io", "VolumeAttachment", false },
	{ "storage.k8s.io", "VolumeAttributesClass", false },
	/* custom resources (the CRDs saved upstream, and the charts' own) */
	{ "argoproj.io", "AppProject", true },
	{ "argoproj.io", "ApplicationSet", true },
	{ "eks.amazonaws.com", "NodeClass", false },
	{ "karpenter.sh", "NodeClaim", false },
	{ "kyverno.io", "Policy", true },
	{ "monitoring.coreos.com", "PodMonitor", true },
	{ "monitoring.coreos.com", "ServiceMonitor", true },
	{ "nfd.k8s-sigs.io", "NodeFeature", true },
	{ "nfd.k8s-sigs.io", "NodeFeatureGroup", true },
	{ "nfd.k8s-sigs.io", "NodeFeatureRule", false },
	{ "nvidia.com", "ClusterPolicy", false },
	{ "nvidia.com", "GPUCluster", false },
	{ "nvidia.com", "NVIDIADriver", false },
	{ "policies.kyverno.io", "NamespacedMutatingPolicy", true },
	{ "resource.nvidia.com", "ComputeDomain", true },
	{ "resource.nvidia.com", "ComputeDomainClique", true },
};

/* 1 namespaced, 0 cluster-scoped, -1 not known (apiVersion "group/v" or "v"). */
static int
kind_scope(const char *api, const char *kind)
{
	const char *slash = strchr(api, '/');
	size_t glen = slash ? (size_t)(slash - api) : 0;
	char group[256];
	const struct render_api *r;

	if (glen < sizeof(group)) {
		memcpy(group, api, glen);
		group[glen] = '\0';
		if ((r = render_api_find(group, kind)))
			return r->namespaced;
	}
	for (size_t i = 0; i < sizeof(kind_scopes) / sizeof(kind_scopes[0]); i++)
		if (strlen(kind_scopes[i].group) == glen &&
		    !strncmp(api, kind_scopes[i].group, glen) && !strcmp(kind, kind_scopes[i].kind))
			return kind_scopes[i].namespaced;
	return -1;
}

/* ObjectMeta as the API server validates it (ValidateObjectMeta). */
static void
check_metadata(struct check_ctx *c, const char *api, const char *kind)
{
	int scope = kind_scope(api, kind);
	const struct node *meta = node_map_get(c->obj, "metadata");
	const struct node *name = node_map_get(meta, "name");
	const struct node *ns = node_map_get(meta, "namespace");
	const struct node *labels = node_map_get(meta, "labels");
	const struct node *ann = node_map_get(meta, "annotations");
	const char *n = node_str(name);

	if (!meta || meta->kind != NODE_MAP || !n || !*n) {
		check_report(c, CHECK_OBJECT, meta, "metadata.name",
			     "%s has no metadata.name: the API server rejects it; name it", kind);
	} else if (check_dns1123_subdomain(n) < 0) {
		check_report(
			c, CHECK_OBJECT, name, "metadata.name",
			"%s name \"%s\" is not a DNS-1123 subdomain (lower-case letters, digits, "
			"'-' and '.', at most 253 characters): the API server rejects it",
			kind, n);
	}
	if (ns && !node_is_null(ns)) {
		const char *s = node_str(ns);

		if (scope == 0)
			check_report(c, CHECK_NAMESPACE, ns, "metadata.namespace",
				     "%s is cluster-scoped: metadata.namespace \"%s\" means "
				     "nothing and confuses tools that compare objects; drop it",
				     kind, s ? s : "");
		else if (!s || check_dns1123_label(s) < 0)
			check_report(c, CHECK_OBJECT, ns, "metadata.namespace",
				     "namespace \"%s\" is not a DNS-1123 label (lower-case "
				     "letters, digits and '-', at most 63 characters)",
				     s ? s : "");
	} else if (scope == 1) {
		check_report(c, CHECK_NAMESPACE, meta, "metadata.namespace",
			     "%s %s has no metadata.namespace: it lands in whatever namespace the "
			     "tool applying it uses; set it",
			     kind, n ? n : "");
	}
	for (size_t i = 0; labels && labels->kind == NODE_MAP && i < labels->map.count; i++) {
		const struct node_pair *p = &labels->map.pairs[i];
		const char *k = node_text(p->key), *v = check_text(p->value);
		const char *path = check_path(c, "metadata.labels", k);

		if (check_qualified_name(k) < 0)
			check_report(c, CHECK_OBJECT, p->key, path,
				     "label key \"%s\" is not a qualified name ([prefix/]name, "
				     "name at most 63 characters of [A-Za-z0-9_.-] starting and "
				     "ending alphanumeric)",
				     k);
		if (!node_is_str(p->value) && !node_is_null(p->value))
			check_report(c, CHECK_OBJECT, p->value, path,
				     "label \"%s\" has a non-string value: quote it", k);
		else if (check_label_value(v ? v : "") < 0)
			check_report(
				c, CHECK_OBJECT, p->value, path,
				"label \"%s\" value \"%s\" is not a valid label value (at most 63 "
				"characters of [A-Za-z0-9_.-], starting and ending alphanumeric)",
				k, v ? v : "");
	}
	for (size_t i = 0; ann && ann->kind == NODE_MAP && i < ann->map.count; i++) {
		const struct node_pair *p = &ann->map.pairs[i];
		const char *k = node_text(p->key);

		if (check_qualified_name(k) < 0)
			check_report(c, CHECK_OBJECT, p->key,
				     check_path(c, "metadata.annotations", k),
				     "annotation key \"%s\" is not a qualified name", k);
		if (!node_is_str(p->value) && !node_is_null(p->value))
			check_report(c, CHECK_OBJECT, p->value,
				     check_path(c, "metadata.annotations", k),
				     "annotation \"%s\" has a non-string value: quote it", k);
	}
}

struct dispatch {
	const char *group; /* apiVersion up to the '/' ("" for core) */
	const char *kind;
	void (*fn)(struct check_ctx *c);
};

static const struct dispatch checkers[] = {
	{ "karpenter.sh", "NodePool", check_nodepool },
	{ "node.eks.aws", "NodeConfig", check_nodeconfig },
	{ "monitoring.coreos.com", "PrometheusRule", check_prometheusrule },
	{ "", "ConfigMap", check_configmap },
	{ "argoproj.io", "Application", check_application },
	{ "policies.kyverno.io", "MutatingPolicy", check_mutatingpolicy },
	{ "policies.kyverno.io", "NamespacedMutatingPolicy", check_mutatingpolicy },
	{ "admissionregistration.k8s.io", "MutatingAdmissionPolicy", check_admissionpolicy },
	{ "kyverno.io", "ClusterPolicy", check_clusterpolicy },
};

bool
check_kind_checked(const char *group, const char *kind)
{
	for (size_t i = 0; i < sizeof(checkers) / sizeof(checkers[0]); i++)
		if (!strcmp(kind, checkers[i].kind) && !strcmp(group, checkers[i].group))
			return true;
	return false;
}

int
check_object(struct arena *a, struct diags *d, const struct node *obj)
{
	struct check_ctx c = { a, d, obj, "", false, 0 };
	const char *api = node_str(node_map_get(obj, "apiVersion"));
	const char *kind = node_str(node_map_get(obj, "kind"));
	const char *name = node_str(node_path(obj, "metadata.name"));

	if (!obj || obj->kind != NODE_MAP || !api || !*api || !kind || !*kind) {
		check_report(
			&c, CHECK_OBJECT, obj, "",
			"this document is not a Kubernetes object (it needs apiVersion and kind)");
		return -1;
	}
	c.what = arena_printf(a, "%s %s", kind, name ? name : "(unnamed)");
	/* NodeConfig is read by nodeadm from a file, never stored by an API server */
	if (strcmp(kind, "NodeConfig"))
		check_metadata(&c, api, kind);
	for (size_t i = 0; i < sizeof(checkers) / sizeof(checkers[0]); i++)
		if (!strcmp(kind, checkers[i].kind) && check_group_is(api, checkers[i].group))
			checkers[i].fn(&c);
	return c.rc;
}

/* Every MutatingAdmissionPolicyBinding names a policy of the stream, and
 * every policy has a binding (a policy without one never runs). */
static int
check_bindings(struct arena *a, struct diags *d, struct node *const *docs, size_t count)
{
	int rc = 0;

	for (size_t i = 0; i < count; i++) {
		const char *kind = node_str(node_map_get(docs[i], "kind"));
		const char *want, *api = node_str(node_map_get(docs[i], "apiVersion"));
		bool found = false;
		struct check_ctx c = { a, d, docs[i], "", false, 0 };

		if (!kind || !api || !check_group_is(api, "admissionregistration.k8s.io"))
			continue;
		if (!strcmp(kind, "MutatingAdmissionPolicyBinding")) {
			const struct node *pn = node_path(docs[i], "spec.policyName");

			want = node_str(pn);
			for (size_t k = 0; want && k < count && !found; k++) {
				const char *kk = node_str(node_map_get(docs[k], "kind"));
				const char *n = node_str(node_path(docs[k], "metadata.name"));

				found = kk && n && !strcmp(kk, "MutatingAdmissionPolicy") &&
					!strcmp(n, want);
			}
			if (!found)
				check_report(&c, CHECK_POL_BINDING, pn, "spec.policyName",
					     "binding names MutatingAdmissionPolicy \"%s\", which "
					     "is not in the stream: the binding does nothing; "
					     "render the policy with it",
					     want ? want : "");
		} else if (!strcmp(kind, "MutatingAdmissionPolicy")) {
			const char *name = node_str(node_path(docs[i], "metadata.name"));

			for (size_t k = 0; name && k < count && !found; k++) {
				const char *kk = node_str(node_map_get(docs[k], "kind"));
				const char *p = node_str(node_path(docs[k], "spec.policyName"));

				found = kk && p && !strcmp(kk, "MutatingAdmissionPolicyBinding") &&
					!strcmp(p, name);
			}
			if (!found)
				check_report(&c, CHECK_POL_UNBOUND, docs[i], "",
					     "MutatingAdmissionPolicy \"%s\" has no binding in the "
					     "stream: a policy without a "
					     "MutatingAdmissionPolicyBinding never runs",
					     name ? name : "");
		}
		if (c.rc < 0)
			rc = -1;
	}
	return rc;
}

int
check_rendered(struct arena *a, struct diags *d, struct check_upstream *u, struct node *const *docs,
	       size_t count)
{
	int rc = 0;

	for (size_t i = 0; i < count; i++) {
		const struct node *obj = docs[i];
		const char *kind = node_str(node_map_get(obj, "kind"));
		int r;

		if (node_is_null(obj))
			continue;
		if (check_object(a, d, obj) < 0)
			rc = rc == -3 ? rc : -1;
		if (u) {
			r = check_upstream_validate(u, a, d, obj);
			if (r == -3)
				rc = -3;
			else if (r < 0 && rc == 0)
				rc = -1;
		}
		if (kind && !strcmp(kind, "ConfigMap")) {
			struct check_ctx c = { a, d, obj, "", false, 0 };

			check_configmap_nodeconfigs(&c, u);
			if (c.rc == -3)
				rc = -3;
			else if (c.rc < 0 && rc == 0)
				rc = -1;
		}
	}
	if (check_bindings(a, d, docs, count) < 0 && rc == 0)
		rc = -1;
	return rc;
}

int
check_rendered_files(struct arena *a, struct diags *d, struct source_set *files,
		     struct check_upstream *u, const char *const *paths, size_t npaths)
{
	static const char *const stdin_only[] = { "-" };
	struct node **all = NULL;
	size_t count = 0;
	int worst = 0;

	if (!npaths) {
		paths = stdin_only;
		npaths = 1;
	}
	for (size_t i = 0; i < npaths; i++) {
		struct yamlio_docs docs;
		const char *data = NULL;
		size_t len = 0;
		int rc = check_read_docs(&docs, a, d, paths[i], &data, &len);

		if (rc == -3)
			return -3;
		if (rc < 0)
			worst = -1;
		if (data)
			source_set_add(a, files, strcmp(paths[i], "-") ? paths[i] : "<stdin>", data,
				       len);
		if (!docs.count)
			continue;
		all = arena_realloc(a, all, count * sizeof(*all),
				    (count + docs.count) * sizeof(*all));
		memcpy(all + count, docs.docs, docs.count * sizeof(*all));
		count += docs.count;
	}
	source_set_sort(files);
	if (!count) {
		diag_report(
			d, (struct pos){ files->count ? files->files[0].path : NULL, 0, 0 },
			CHECK_OBJECT, "",
			"the rendered stream holds no object: an empty render is an error, not a "
			"success");
		return -1;
	}
	switch (check_rendered(a, d, u, all, count)) {
	case -3: return -3;
	case -1: return -1;
	}
	return worst;
}
