/*
 * catalogue.c - every diagnostic ID the program reports, in one place.
 *
 * rules_table (rules.c) holds the spec rules, which have checks.  The
 * other modules report IDs of their own: the Argo CD environment
 * (argocd/argocd_env.h, GS118-GS125, GS128; generate's GS177 from
 * pipeline/pipeline.h), the upstream checks of rendered
 * objects (check/check.h, GS130-GS159, GS164-GS170), verify-scope
 * (scope/scope.h, GS160-GS163), render (render/render.h, GS190-GS193),
 * drill plan and report (drill/drill.h, GS230-GS239), cluster access
 * (kube/kube.h, GS290).  Their rows live here, with the
 * severity they are reported at unless the summary says otherwise.  The
 * drift findings (GS201-GS2xx) keep their table in live/drift.c, which
 * drift reads its severities from; rules_find() answers for them from
 * there.  tests/unit/test_catalogue.c fails when an ID literal anywhere
 * under src/ is missing here, and when docs/rules.md disagrees.
 */
#include <stdlib.h>
#include <string.h>

#include "live/drift.h"
#include "rules/rules.h"

#define ROW(id_, level_, summary_)                                                                 \
	{                                                                                          \
		.id = (id_), .level = (level_), .summary = (summary_), .check_site = NULL,         \
		.check_fleet = NULL                                                                \
	}

/* ID order; no check function: other modules find these. */
static const struct rule catalogue_rows[] = {
	/* render: an object the API server would refuse */
	ROW("GS106", DIAG_ERROR,
	    "a site's NodeConfig ConfigMap would be over the 1 MiB the API server accepts "
	    "(render, generate)"),
	/* The Argo CD config-management plugin (generate, parameters) */
	ROW("GS118", DIAG_ERROR,
	    "generate: the stream would hold cluster objects of more than one cluster (objects "
	    "cluster or all without a cluster or sites setting that narrows to one)"),
	ROW("GS119", DIAG_ERROR,
	    "generate: the stream holds an Argo CD Application but the destination does not serve "
	    "argoproj.io/v1alpha1 Application (KUBE_API_VERSIONS): no Argo CD runs there"),
	ROW("GS120", DIAG_ERROR,
	    "ARGOCD_APP_PARAMETERS is not the JSON array of parameters Argo CD writes"),
	ROW("GS121", DIAG_ERROR,
	    "a plugin setting (parameter, ARGOCD_ENV_ variable or sidecar environment) has a value "
	    "it "
	    "cannot take"),
	ROW("GS122", DIAG_ERROR,
	    "a plugin parameter or ARGOCD_ENV_ variable that gpusite does not read: unknown, "
	    "misspelt, in another case or given twice; refused"),
	ROW("GS123", DIAG_WARNING,
	    "the target cluster (KUBE_API_VERSIONS) does not serve an API the rendered output "
	    "needs (an error with strict; an Application is GS119)"),
	ROW("GS124", DIAG_ERROR,
	    "the plugin has nothing to print: a sites name matching no site, no site under the "
	    "application path, an empty or oversized stream"),
	ROW("GS125", DIAG_ERROR, "the plugin ran out of time before Argo CD's 60 s deadline"),
	/* Reading the specs: documents that are not sites */
	ROW("GS126", DIAG_ERROR,
	    "a document with a gpusite.io apiVersion and another kind, or kind GPUSite under "
	    "another API"),
	ROW("GS127", DIAG_NOTE,
	    "a document that is not a site spec (another apiVersion, or no apiVersion, kind, "
	    "metadata or spec) was skipped"),
	/* The Argo CD plugin again: selection by cluster */
	ROW("GS128", DIAG_ERROR,
	    "generate: the cluster setting names a cluster no site is in, or a sites name lies "
	    "outside the named clusters"),
	/* Rendered objects against their upstream schemas (validate --rendered) */
	ROW("GS130", DIAG_ERROR,
	    "a rendered object does not match its upstream schema, or uses a version the CRD does "
	    "not serve"),
	ROW("GS131", DIAG_WARNING,
	    "no upstream schema checks an object (a note for a stand-in schema, an error when the "
	    "upstream directory cannot be read)"),
	ROW("GS132", DIAG_ERROR,
	    "apiVersion, kind or metadata (name, namespace, labels, annotations) of a rendered "
	    "object is not valid (a warning for a missing or meaningless namespace)"),
	ROW("GS133", DIAG_ERROR, "NodePool: a static pool (replicas) limits more than nodes"),
	ROW("GS134", DIAG_ERROR, "NodePool: a static pool (replicas) sets weight"),
	ROW("GS135", DIAG_ERROR,
	    "NodePool: a disruption budget sets schedule without duration or duration without "
	    "schedule"),
	ROW("GS136", DIAG_ERROR,
	    "NodePool: a template label or requirement key in the restricted karpenter.sh domain"),
	ROW("GS137", DIAG_ERROR,
	    "NodePool: a template label or requirement key karpenter.sh/nodepool (Karpenter sets "
	    "it)"),
	ROW("GS138", DIAG_ERROR,
	    "NodePool: a template label or requirement key kubernetes.io/hostname"),
	ROW("GS139", DIAG_ERROR,
	    "NodePool: a template label or requirement key in the restricted karpenter.k8s.aws "
	    "domain"),
	ROW("GS140", DIAG_ERROR, "NodePool: nodeClassRef group, kind or name is empty"),
	ROW("GS141", DIAG_ERROR, "NodePool: a requirement with operator In has no value"),
	ROW("GS142", DIAG_ERROR,
	    "NodePool: a Gt, Lt, Gte or Lte requirement does not have exactly one non-negative "
	    "integer value"),
	ROW("GS143", DIAG_ERROR, "NodePool: a requirement lists fewer values than its minValues"),
	ROW("GS144", DIAG_ERROR,
	    "NodePool: a label or requirement key is not a qualified name (found only at runtime "
	    "by Karpenter)"),
	ROW("GS145", DIAG_ERROR,
	    "NodePool: a label or requirement value is not a valid label value (found only at "
	    "runtime)"),
	ROW("GS146", DIAG_ERROR, "NodePool: a requirement operator Karpenter does not support"),
	ROW("GS147", DIAG_ERROR,
	    "NodePool: karpenter.sh/capacity-type In without a capacity type Karpenter knows"),
	ROW("GS148", DIAG_ERROR, "NodePool: instance tenancy In without default or dedicated"),
	ROW("GS149", DIAG_ERROR, "NodePool: a taint key is not a qualified name"),
	ROW("GS150", DIAG_ERROR,
	    "NodePool: a taint value is not a qualified name (found only at runtime)"),
	ROW("GS151", DIAG_ERROR,
	    "NodePool: a taint effect other than NoSchedule, PreferNoSchedule or NoExecute"),
	ROW("GS152", DIAG_ERROR,
	    "NodePool: the same taint key and effect twice in taints and startupTaints"),
	ROW("GS153", DIAG_ERROR, "NodeConfig: cluster.name or cluster.region is missing"),
	ROW("GS154", DIAG_ERROR,
	    "NodeConfig: not exactly one of hybrid.ssm and hybrid.iamRolesAnywhere"),
	ROW("GS155", DIAG_ERROR,
	    "NodeConfig: an SSM activation code or activation ID nodeadm rejects"),
	ROW("GS156", DIAG_ERROR,
	    "NodeConfig: IAM Roles Anywhere fields nodeadm rejects (ARNs, nodeName, certificate "
	    "and key paths)"),
	ROW("GS157", DIAG_ERROR, "NodeConfig: kubelet flags nodeadm or the kubelet rejects"),
	ROW("GS158", DIAG_ERROR, "PrometheusRule: a rule group without a name, or two with one"),
	ROW("GS159", DIAG_ERROR,
	    "PrometheusRule: a rule without alert or record, with a bad expression, duration or "
	    "label"),
	/* verify-scope */
	ROW("GS160", DIAG_ERROR, "a GPU-stack DaemonSet misses a hybrid GPU node"),
	ROW("GS161", DIAG_ERROR,
	    "a GPU-stack DaemonSet would run on a node that is not hybrid (a second device "
	    "plugin)"),
	ROW("GS162", DIAG_WARNING,
	    "verify-scope has nothing to prove: no hybrid GPU node in the inventory or no "
	    "GPU-stack "
	    "DaemonSet in the manifests"),
	ROW("GS163", DIAG_ERROR,
	    "a verify-scope input document is not what it should be (a Node, a workload)"),
	/* Rendered objects: the other kinds */
	ROW("GS164", DIAG_ERROR,
	    "ConfigMap: a data key or size the API server rejects, or an embedded NodeConfig "
	    "that is not valid"),
	ROW("GS165", DIAG_ERROR,
	    "Application: not exactly one source, a chart not pinned to one version, or a "
	    "destination without exactly one of server and name"),
	ROW("GS166", DIAG_ERROR,
	    "admission policy mutations: wrong patch type, a bad expression, an atomic list "
	    "replaced"),
	ROW("GS167", DIAG_ERROR,
	    "admission policy matching: matchConstraints operations or matchConditions not valid"),
	ROW("GS168", DIAG_ERROR,
	    "Kyverno policy: pod-controller autogen together with JSON patches (they would patch "
	    "the wrong paths)"),
	ROW("GS169", DIAG_ERROR,
	    "a MutatingAdmissionPolicyBinding names no policy of the stream (a warning for a "
	    "policy without a binding)"),
	ROW("GS170", DIAG_ERROR,
	    "Kyverno ClusterPolicy patches: not the JSON patch shape, or a strategic merge on a "
	    "list"),
	/* generate: the destination's version (KUBE_VERSION) */
	ROW("GS177", DIAG_WARNING,
	    "generate: the destination's Kubernetes version (KUBE_VERSION) differs from the "
	    "site's cluster.kubernetesVersion"),
	/* render */
	ROW("GS190", DIAG_ERROR, "--site or --cluster names nothing"),
	ROW("GS191", DIAG_ERROR,
	    "nothing to render: no site, or the selected sites produce no object"),
	ROW("GS192", DIAG_ERROR,
	    "the environment variable holding an SSM activation code is unset or not a valid code"),
	ROW("GS193", DIAG_ERROR, "a name that cannot become a label value (the cluster name)"),
	/* drill run (drill/drill_run.h) */
	ROW("GS220", DIAG_ERROR,
	    "drill run: a --nodes name is not a node of the site, or no node of the site (or "
	    "--group) is in the cluster"),
	ROW("GS221", DIAG_ERROR,
	    "drill run: a right the drill needs is missing (SelfSubjectAccessReview); nothing was "
	    "changed"),
	ROW("GS222", DIAG_ERROR,
	    "drill run: a PodDisruptionBudget kept refusing an eviction (429) through every retry"),
	ROW("GS223", DIAG_ERROR,
	    "drill run: the API server refused a cordon, uncordon or eviction"),
	ROW("GS224", DIAG_ERROR,
	    "drill run: the availability (or, with --restore, the return) condition did not hold "
	    "before --timeout"),
	ROW("GS225", DIAG_ERROR, "drill run: the site recovered, but over its recovery.targetRTO"),
	ROW("GS226", DIAG_ERROR,
	    "drill run: interrupted (SIGINT or SIGTERM); the nodes were left as they were"),
	ROW("GS227", DIAG_ERROR, "drill run: the drill record could not be written"),
	/* drill plan and drill report (drill/drill.h) */
	ROW("GS230", DIAG_ERROR,
	    "drill plan: the fallback is disabled, or its NodePool is missing from the cluster or "
	    "differs from the render"),
	ROW("GS231", DIAG_ERROR,
	    "drill plan: the fallback NodePool's node class is not in the cluster"),
	ROW("GS232", DIAG_ERROR,
	    "drill plan: al2023 fallback nodes but the fallback device plugin's DaemonSet is not "
	    "in "
	    "the cluster"),
	ROW("GS233", DIAG_ERROR,
	    "drill plan: fallback.gpuLimit is below the GPUs the pods of the drilled nodes "
	    "request"),
	ROW("GS234", DIAG_ERROR,
	    "drill plan: a PodDisruptionBudget that allows no disruption covers pods the drill "
	    "evicts"),
	ROW("GS235", DIAG_ERROR, "drill plan: the site's PrometheusRule is not in the cluster"),
	ROW("GS236", DIAG_ERROR, "drill report: the drill record cannot be read or is not one"),
	ROW("GS237", DIAG_ERROR,
	    "drill plan: GPU pods are Pending now, or the fallback is already active"),
	ROW("GS238", DIAG_ERROR,
	    "drill plan: a partition drill of a single-writer workload without fencing"),
	ROW("GS239", DIAG_WARNING, "drill report: the measured recovery is over targetRTO"),
	/* the live cluster */
	ROW("GS290", DIAG_ERROR,
	    "the cluster could not be reached or read: kubeconfig, credentials, connection, API "
	    "errors"),
};

#define N_ROWS (sizeof(catalogue_rows) / sizeof(catalogue_rows[0]))

/* The drift table in the catalogue's row type, built on first use. */
#define DRIFT_MAX 100
static struct rule drift_rows[DRIFT_MAX];
static size_t drift_count;
static int drift_ready;

static void
drift_load(void)
{
	if (drift_ready)
		return;
	drift_ready = 1;
	for (size_t i = 0; i < drift_rules_count && drift_count < DRIFT_MAX; i++) {
		struct rule *r = &drift_rows[drift_count++];

		r->id = drift_rules[i].id;
		r->level = drift_rules[i].level;
		r->summary = drift_rules[i].summary;
	}
}

const struct rule *
rules_catalogue_find(const char *id)
{
	if (!id)
		return NULL;
	for (size_t i = 0; i < N_ROWS; i++)
		if (!strcmp(catalogue_rows[i].id, id))
			return &catalogue_rows[i];
	drift_load();
	for (size_t i = 0; i < drift_count; i++)
		if (!strcmp(drift_rows[i].id, id))
			return &drift_rows[i];
	return NULL;
}

static int
row_cmp(const void *x, const void *y)
{
	const struct rule *a = *(const struct rule *const *)x;
	const struct rule *b = *(const struct rule *const *)y;

	return strcmp(a->id, b->id);
}

size_t
rules_catalogue(const struct rule **out, size_t cap)
{
	size_t n = 0, total;

	drift_load();
	total = rules_count + N_ROWS + drift_count;
	if (!out || cap < total)
		return total;
	for (size_t i = 0; i < rules_count; i++)
		out[n++] = rules_table[i];
	for (size_t i = 0; i < N_ROWS; i++)
		out[n++] = &catalogue_rows[i];
	for (size_t i = 0; i < drift_count; i++)
		out[n++] = &drift_rows[i];
	qsort(out, n, sizeof(*out), row_cmp);
	return n;
}
