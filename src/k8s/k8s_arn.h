/*
 * k8s_arn.h - an EKS cluster ARN, arn:PARTITION:eks:REGION:ACCOUNT:
 * cluster/NAME: the name `aws eks update-kubeconfig` gives a cluster, user
 * and context, and the destination the EKS Capability for Argo CD takes.
 * Read once here for the kubeconfig (src/kube/) and the rules (GS188).
 */
#ifndef GS_K8S_ARN_H
#define GS_K8S_ARN_H

struct arena;

struct k8s_eks_arn {
	const char *partition; /* "aws", "aws-cn", "aws-us-gov" */
	const char *region;
	const char *account;
	const char *name; /* the cluster's name */
};

/* 0 with *out filled (arena strings) when s is an EKS cluster ARN; -1 for
 * anything else (NULL, a URL, another service's or resource's ARN). */
int k8s_eks_arn_parse(struct arena *a, const char *s, struct k8s_eks_arn *out);

#endif
