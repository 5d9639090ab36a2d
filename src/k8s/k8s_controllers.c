/*
 * k8s_controllers.c - the controller versions the rendered constructs need
 * (see k8s_controllers.h).  The releases are those of the upstream notes
 * in docs/design/versions.md.
 */
#include "k8s/k8s_controllers.h"

#include <stdio.h>

#define R(ma, mi)                                                                                  \
	{                                                                                          \
		(ma), (mi), 0                                                                      \
	}

static const struct k8s_construct_need needs[] = {
	[K8S_NODEPOOL_V1] = { K8S_KARPENTER, "NodePool karpenter.sh/v1", R(1, 0), false, R(0, 0),
			      NULL },
	[K8S_REQ_GTE] = { K8S_KARPENTER, "a NodePool requirement with operator Gte", R(1, 9), false,
			  R(0, 0), NULL },
	[K8S_RESERVED_CAPACITY] = { K8S_KARPENTER,
				    "karpenter.sh/capacity-type reserved with"
				    " capacityReservationSelectorTerms",
				    R(1, 3), false, R(0, 0),
				    "with the ReservedCapacity feature gate" },
	[K8S_CAPACITY_BLOCK] = { K8S_KARPENTER,
				 "karpenter.k8s.aws/capacity-reservation-type capacity-block",
				 R(1, 6), false, R(0, 0),
				 "with the ReservedCapacity feature gate" },
	[K8S_MUTATING_POLICY] = { K8S_KYVERNO, "MutatingPolicy policies.kyverno.io/v1", R(1, 17),
				  false, R(0, 0), NULL },
	[K8S_KYVERNO_CLUSTERPOLICY] = { K8S_KYVERNO, "ClusterPolicy kyverno.io/v1", R(1, 0), true,
					R(1, 20), NULL },
};

const struct k8s_construct_need *
k8s_construct_need(enum k8s_construct c)
{
	return &needs[c];
}

const char *
k8s_controller_name(enum k8s_controller c)
{
	return c == K8S_KARPENTER ? "Karpenter" : "Kyverno";
}

struct k8s_release
k8s_controller_assumed(enum k8s_controller c)
{
	/* README "Versions": the releases every default rendering needs */
	return c == K8S_KARPENTER ? (struct k8s_release)R(1, 9) : (struct k8s_release)R(1, 17);
}

static int
digits(const char **p, int max_digits)
{
	int v = 0, n = 0;

	while (**p >= '0' && **p <= '9') {
		if (++n > max_digits)
			return -1;
		v = v * 10 + (**p - '0');
		(*p)++;
	}
	return n ? v : -1;
}

int
k8s_release_parse(const char *text, struct k8s_release *out)
{
	const char *p = text;
	struct k8s_release r = { 0, 0, 0 };

	if (!p || (r.major = digits(&p, 4)) < 0 || *p++ != '.' || (r.minor = digits(&p, 4)) < 0)
		return -1;
	if (*p == '.') {
		p++;
		if ((r.patch = digits(&p, 4)) < 0)
			return -1;
	}
	if (*p)
		return -1;
	*out = r;
	return 0;
}

int
k8s_release_cmp(struct k8s_release a, struct k8s_release b)
{
	if (a.major != b.major)
		return a.major < b.major ? -1 : 1;
	if (a.minor != b.minor)
		return a.minor < b.minor ? -1 : 1;
	if (a.patch != b.patch)
		return a.patch < b.patch ? -1 : 1;
	return 0;
}

bool
k8s_release_serves(struct k8s_release r, enum k8s_construct c)
{
	const struct k8s_construct_need *n = &needs[c];

	if (k8s_release_cmp(r, n->since) < 0)
		return false;
	return !n->removed || k8s_release_cmp(r, n->until) < 0;
}

const char *
k8s_release_text(struct k8s_release r, char *buf, size_t size)
{
	if (r.patch)
		snprintf(buf, size, "%d.%d.%d", r.major, r.minor, r.patch);
	else
		snprintf(buf, size, "%d.%d", r.major, r.minor);
	return buf;
}

const char *const k8s_reservation_types[K8S_RESERVATION_TYPE_COUNT] = {
	"default",
	K8S_RESERVATION_CAPACITY_BLOCK,
};
