/*
 * drift_versions.c - GS219: the controller releases a site declares
 * (cluster.versions) against what the cluster serves: the NodePool CRD's
 * Gte operator (Karpenter 1.9), the EC2NodeClass CRD's
 * capacityReservationSelectorTerms (1.3), Kyverno's MutatingPolicy
 * (1.17) and ClusterPolicy (removed in 1.20).  The rules checked the spec
 * against the declared release; a release the cluster contradicts makes
 * those checks, and what was rendered for it, wrong
 * (docs/design/versions.md).
 */
#include "k8s/k8s_controllers.h"
#include "live/drift_int.h"
#include "spec/spec.h"

struct vcheck {
	struct diags *d;
	size_t *count;
	const struct spec_site *s;
	const char *field; /* "karpenter" */
	const struct spec_version *v;
};

/* The cluster serves `what` (`served`); the declared release says it
 * does (`declared`); report when the two disagree. */
static void
compare(struct vcheck *c, enum k8s_construct what, bool served, const char *seen)
{
	const struct k8s_construct_need *n = k8s_construct_need(what);
	bool declared = k8s_release_serves(c->v->release, what);
	char have[32], rel[32];

	if (declared == served)
		return;
	k8s_release_text(c->v->release, have, sizeof(have));
	k8s_release_text(n->removed ? n->until : n->since, rel, sizeof(rel));
	drift_finding(c->d, c->count, DRIFT_VERSION_CONTRADICTED,
		      spec_field_pos(c->s->cluster.versions_src, c->field), "spec.cluster.versions",
		      c->s->name,
		      "cluster.versions.%s declares %s, but the cluster %s %s (%s): it runs %s %s"
		      " %s, so the checks and the rendered objects assume a release it does not"
		      " run; set cluster.versions.%s to the release that runs",
		      c->field, have, served ? "serves" : "does not serve", n->construct, seen,
		      k8s_controller_name(n->controller),
		      (served != n->removed) ? "at least" : "a release before", rel, c->field);
}

/* The first site of the cluster that declares a release of `field`. */
static const struct spec_site *
declaring(const struct drift_input *in, bool karpenter)
{
	for (size_t i = 0; i < in->nsites; i++) {
		const struct spec_cluster *cl = &in->sites[i]->cluster;

		if (karpenter ? cl->karpenter_version.set && cl->provisioner == PROV_KARPENTER
			      : cl->kyverno_version.set)
			return in->sites[i];
	}
	return NULL;
}

void
drift_check_versions(struct arena *a, struct diags *d, size_t *count, const struct drift_input *in)
{
	const struct drift_served *sv = &in->served;
	const struct spec_site *s;

	(void)a;
	if (!sv->read)
		return;
	if ((s = declaring(in, true)) && sv->nodepool) {
		struct vcheck c = { d, count, s, "karpenter", &s->cluster.karpenter_version };

		compare(&c, K8S_REQ_GTE, sv->nodepool_gte, "the NodePool CRD's Gte operator");
		if (sv->nodeclass)
			compare(&c, K8S_RESERVED_CAPACITY, sv->nodeclass_reservations,
				"the EC2NodeClass CRD's capacityReservationSelectorTerms");
	}
	if ((s = declaring(in, false))) {
		struct vcheck c = { d, count, s, "kyverno", &s->cluster.kyverno_version };

		compare(&c, K8S_MUTATING_POLICY, sv->mutating_policy,
			"policies.kyverno.io/v1 in API discovery");
		compare(&c, K8S_KYVERNO_CLUSTERPOLICY, sv->cluster_policy,
			"kyverno.io/v1 in API discovery");
	}
}
