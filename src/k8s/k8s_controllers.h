/*
 * k8s_controllers.h - the controller versions the rendered constructs need.
 *
 * One row per construct gpusite renders that a controller serves only
 * from (or until) a release: the table the rules (GS186), the renderer
 * (Gte or Gt), explain and drift read; README "Versions" lists the same
 * rows for people (docs/design/versions.md).
 */
#ifndef GS_K8S_CONTROLLERS_H
#define GS_K8S_CONTROLLERS_H

#include <stdbool.h>
#include <stddef.h>

/* A controller release, MAJOR.MINOR[.PATCH] ("1.9", "1.17.2"). */
struct k8s_release {
	int major, minor, patch;
};

enum k8s_controller { K8S_KARPENTER, K8S_KYVERNO };

enum k8s_construct {
	K8S_NODEPOOL_V1,          /* karpenter.sh/v1 NodePool */
	K8S_REQ_GTE,              /* a requirement with operator Gte or Lte */
	K8S_RESERVED_CAPACITY,    /* capacity-type reserved + selector terms */
	K8S_CAPACITY_BLOCK,       /* capacity-reservation-type capacity-block */
	K8S_MUTATING_POLICY,      /* policies.kyverno.io/v1 MutatingPolicy */
	K8S_KYVERNO_CLUSTERPOLICY /* kyverno.io/v1 ClusterPolicy (removed) */
};

struct k8s_construct_need {
	enum k8s_controller controller;
	const char *construct;    /* for messages: what gpusite renders */
	struct k8s_release since; /* first release that serves it */
	bool removed;             /* true: `until` is the release that removed it */
	struct k8s_release until;
	const char *note; /* "with the ReservedCapacity feature gate" or NULL */
};

const struct k8s_construct_need *k8s_construct_need(enum k8s_construct c);

/* The reservation types Karpenter offers: the values of the label
 * karpenter.k8s.aws/capacity-reservation-type on a reserved offering
 * (docs/design/artifacts.md, "Fallback NodePool"). */
#define K8S_RESERVATION_TYPE_COUNT 2
#define K8S_RESERVATION_CAPACITY_BLOCK "capacity-block"
extern const char *const k8s_reservation_types[K8S_RESERVATION_TYPE_COUNT];
/* "Karpenter", "Kyverno" */
const char *k8s_controller_name(enum k8s_controller c);
/* The release assumed when the spec declares none (README "Versions"). */
struct k8s_release k8s_controller_assumed(enum k8s_controller c);

/* "1.9", "1.17.2" (digits only, MINOR and PATCH 1 to 4 digits) -> 0; else -1. */
int k8s_release_parse(const char *text, struct k8s_release *out);
/* <0, 0, >0 as a is older, equal, newer than b */
int k8s_release_cmp(struct k8s_release a, struct k8s_release b);
/* Is `r` a release that serves construct c? */
bool k8s_release_serves(struct k8s_release r, enum k8s_construct c);
/* "1.9" or "1.17.2" into buf (at least 32 bytes) */
const char *k8s_release_text(struct k8s_release r, char *buf, size_t size);

#endif
