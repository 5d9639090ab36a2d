/*
 * check.h - are the rendered objects right as the cluster will judge them?
 *
 * Every object of a rendered stream is validated against its upstream
 * schema (the CRD's openAPIV3Schema, or the Kubernetes OpenAPI v3 with its
 * #/components/schemas references resolved), read at run time from an
 * upstream directory (docs/design/upstream.md), with unknown
 * fields rejected as a strict decoder (nodeadm) or the API server with
 * fieldValidation=Strict does.  Then the rules that upstream enforces
 * outside the schema run as C checks: every CEL rule (x-kubernetes-
 * validations) and runtime check of the Karpenter NodePool, nodeadm's
 * validator for NodeConfig (also inside the nodeconfig ConfigMap), the
 * PrometheusRule, ConfigMap, Application, Kyverno and
 * MutatingAdmissionPolicy rules the references list.
 *
 * Not checked (they need the object already in the cluster): the
 * NodePool transition rules S1 (static <-> dynamic) and N1/N2
 * (nodeClassRef group/kind immutable), which use oldSelf.
 */
#ifndef GS_CHECK_H
#define GS_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "node/node.h"
#include "yamlio/yamlio.h"

struct arena;

/* The IDs of the upstream checks; each one's severity and summary are its
 * row of the table of findings (base/findings.c, FINDING_CHECK).  General: */
#define CHECK_SCHEMA "GS130"   /* object does not match its upstream schema */
#define CHECK_COVERAGE "GS131" /* no upstream schema for the kind */
#define CHECK_OBJECT "GS132"   /* apiVersion/kind/metadata: name, namespace, labels */
/* NodePool: CEL rules of the AWS-provider CRD (docs/design/upstream.md, "Karpenter") */
#define CHECK_NP_STATIC_LIMITS "GS133" /* S2 */
#define CHECK_NP_STATIC_WEIGHT "GS134" /* S3 */
#define CHECK_NP_BUDGET "GS135"        /* B1 */
#define CHECK_NP_DOMAIN_SH "GS136"     /* L1 / K1 */
#define CHECK_NP_NODEPOOL "GS137"      /* L2 / K2 */
#define CHECK_NP_HOSTNAME "GS138"      /* L3 / K3 */
#define CHECK_NP_DOMAIN_AWS "GS139"    /* L4 / K4 */
#define CHECK_NP_CLASSREF "GS140"      /* nodeClassRef group/kind/name != '' */
#define CHECK_NP_IN_VALUES "GS141"     /* R1 */
#define CHECK_NP_INT_OP "GS142"        /* R2 */
#define CHECK_NP_MIN_VALUES "GS143"    /* R3 */
/* NodePool: RuntimeValidate (§4) */
#define CHECK_NP_LABEL_KEY "GS144"    /* label / requirement key not a qualified name */
#define CHECK_NP_LABEL_VALUE "GS145"  /* label / requirement value not a label value */
#define CHECK_NP_OPERATOR "GS146"     /* requirement operator not supported */
#define CHECK_NP_CAPACITY "GS147"     /* karpenter.sh/capacity-type In without a known type */
#define CHECK_NP_TENANCY "GS148"      /* instance-tenancy In without default/dedicated */
#define CHECK_NP_TAINT_KEY "GS149"    /* taint key not a qualified name */
#define CHECK_NP_TAINT_VALUE "GS150"  /* taint value not a qualified name */
#define CHECK_NP_TAINT_EFFECT "GS151" /* taint effect not in the enum */
#define CHECK_NP_TAINT_DUP "GS152"    /* same key+effect twice in taints+startupTaints */
/* NodeConfig: nodeadm's validator (docs/design/upstream.md, "nodeadm and EKS Hybrid Nodes") */
#define CHECK_NC_CLUSTER "GS153"     /* cluster.name / cluster.region missing */
#define CHECK_NC_CREDENTIALS "GS154" /* exactly one of ssm / iamRolesAnywhere */
#define CHECK_NC_SSM "GS155"         /* activationCode / activationId format */
#define CHECK_NC_IAMRA "GS156"       /* IAM Roles Anywhere fields, nodeName, paths */
#define CHECK_NC_FLAGS "GS157"       /* kubelet flags nodeadm or kubelet reject */
/* PrometheusRule */
#define CHECK_PR_GROUPS "GS158" /* group names unique and set */
#define CHECK_PR_RULE "GS159"   /* alert/record, expr, durations, labels */
/* GS160-GS163: verify-scope (scope/scope.h) */
#define CHECK_CM_DATA "GS164"       /* ConfigMap keys, size, embedded NodeConfig */
#define CHECK_APP "GS165"           /* Application source pin, destination */
#define CHECK_POL_MUTATION "GS166"  /* mutations: patch type, expression, atomic lists */
#define CHECK_POL_MATCH "GS167"     /* matchConstraints operations, matchConditions */
#define CHECK_POL_AUTOGEN "GS168"   /* pod-controller autogen with JSON patches */
#define CHECK_POL_BINDING "GS169"   /* binding names no policy of the stream */
#define CHECK_POL_JSONPATCH "GS170" /* ClusterPolicy patches: JSON patch shape, SMP on lists */
/* the second level of a condition above: its own ID (the table's level) */
#define CHECK_STANDIN "GS240"         /* a stand-in schema, or several files of one kind */
#define CHECK_UNCHECKED "GS241"       /* upstream unreadable, or evaluation out of bounds */
#define CHECK_NAMESPACE "GS242"       /* namespace missing, or set on a cluster-scoped kind */
#define CHECK_POL_AUTOGEN_SMP "GS243" /* strategic merge of Pods with autogen on */
#define CHECK_POL_UNBOUND "GS244"     /* MutatingAdmissionPolicy without a binding */
#define CHECK_POL_ANCHOR "GS245"      /* +(tolerations) that never fires */

/* What an object of the stream is checked against. */
struct check_upstream;

/*
 * Open the upstream directory (schemas are compiled lazily, once per
 * kind): any directory of CRDs and OpenAPI v3 documents, under any file
 * names, recognised by content (a chart's crds/, `kubectl get crd -o
 * yaml`, the JSON of /openapi/v3/...).  Returns NULL after a diagnostic
 * when `dir` is not a directory.
 */
struct check_upstream *check_upstream_open(struct arena *a, struct diags *d, const char *dir);

/* Schemas without a directory: only the documents added (`where` names
 * them in messages, "the cluster"). */
struct check_upstream *check_upstream_new(struct arena *a, const char *where);

/* Add a document: a CRD, a List of CRDs or an OpenAPI v3 document. */
void check_upstream_add_doc(struct check_upstream *u, struct arena *a, const char *source,
			    const struct node *doc);

/*
 * Asked once per group/version whose built-in kind is not known yet:
 * adds the OpenAPI v3 document of group ("" for core) and version with
 * check_upstream_add_doc; returns 0, or -3 after a diagnostic.
 */
/*
 * Bound the schema evaluation of the run: the deadline `seconds` from now
 * (--timeout; 0: none), and the steps (schema.h) one object and the run
 * may take.  An object whose evaluation passes a bound is not passed: a
 * GS131 error names it and its schema, and the run answers -3.
 */
void check_upstream_set_timeout(struct check_upstream *u, double seconds);
void check_upstream_set_steps(struct check_upstream *u, unsigned long per_object,
			      unsigned long per_run);

typedef int check_upstream_fetch_fn(void *ctx, struct check_upstream *u, struct arena *a,
				    struct diags *d, const char *group, const char *version);
void check_upstream_set_fetch(struct check_upstream *u, check_upstream_fetch_fn *fn, void *ctx);

/*
 * Check a whole rendered stream: each object against its upstream schema
 * (`u` may be NULL: then only the C checks run) and its kind's rules, and
 * the rules across objects (bindings name policies of the stream).
 * Returns 0, -1 when an error diagnostic was added, -3 when an upstream
 * file could not be read or compiled (the job could not be done).
 */
int check_rendered(struct arena *a, struct diags *d, struct check_upstream *u,
		   struct node *const *docs, size_t count);

struct source_set;

/*
 * `validate --rendered`: read each path ("-": standard input) into
 * `files` (for caret lines) and check every document against `u` (NULL:
 * only the C checks).  Returns 0, -1 when an error was found, -3 when a
 * file or the upstream schemas could not be read.
 */
int check_rendered_files(struct arena *a, struct diags *d, struct source_set *files,
			 struct check_upstream *u, const char *const *paths, size_t npaths);

/*
 * Whether check_object() has a checker for the kind of API group `group`
 * ("" for core).  The rendered kinds' descriptors (struct render_kind)
 * either have one or say why not; test_check walks them.
 */
bool check_kind_checked(const char *group, const char *kind);

/* The C checks of one object (no schema); what check_rendered runs. */
int check_object(struct arena *a, struct diags *d, const struct node *obj);

/*
 * Read a YAML (or JSON) file, or standard input for "-", into documents,
 * with limits sized for generated manifests and node inventories.
 * `file_out` gets the name used in positions (arena).  Returns 0, -1 after
 * GS001/GS002 diagnostics, or -3 after a diagnostic when unreadable.
 */
int check_read_docs(struct yamlio_docs *out, struct arena *a, struct diags *d, const char *path,
		    const char **data_out, size_t *len_out);

/* Kubernetes name syntax (apimachinery validation), for the checks and tests. */
int check_qualified_name(const char *s);    /* 0 when valid */
int check_label_value(const char *s);       /* 0 when valid */
int check_dns1123_subdomain(const char *s); /* 0 when valid */
int check_dns1123_label(const char *s);     /* 0 when valid */

#endif
