/*
 * findings.c - the one table of findings (findings.h): every diagnostic ID
 * the program reports, in ID order, with its severity, who reports it and
 * what it means.  A module that reports an ID names it (a #define in its
 * header, or a rule descriptor's .id) and takes the severity from here.
 *
 * tests/unit/test_catalogue.c fails when an ID literal anywhere under src/
 * has no row, and when docs/rules.md disagrees; t1144 fails when a table
 * or list generated from here is stale (make docs-rules-update).
 */
#include <string.h>

#include "base/findings.h"

#define ROW(id_, level_, source_, summary_)                                                        \
	{                                                                                          \
		.id = (id_), .level = (level_), .source = (source_), .summary = (summary_)         \
	}

const struct finding findings_table[] = {
	ROW("GS001", DIAG_ERROR, FINDING_READ, "YAML is malformed, or a document is not a mapping"),
	ROW("GS002", DIAG_ERROR, FINDING_READ, "duplicate mapping key"),
	ROW("GS003", DIAG_ERROR, FINDING_READ,
	    "schema violation: unknown field, wrong type, missing required field, value out of "
	    "range or not matching the pattern"),
	ROW("GS004", DIAG_ERROR, FINDING_RULE, "two sites share a metadata.name in the repository"),
	ROW("GS005", DIAG_ERROR, FINDING_RULE,
	    "two node groups in a site share a name, or a node name appears twice in the "
	    "repository"),
	ROW("GS006", DIAG_ERROR, FINDING_READ,
	    "a spec path is a symlink that leads outside the repository root, or not a regular "
	    "file"),
	ROW("GS007", DIAG_ERROR, FINDING_READ,
	    "the specs cannot be read: a path, a Git revision, the index or a repository URL "
	    "that cannot be read or fetched, or holds no spec file"),
	ROW("GS010", DIAG_ERROR, FINDING_RULE,
	    "a literal secret in the spec: an SSM activation code, an AWS secret key or session "
	    "token pattern, a private key block"),
	ROW("GS011", DIAG_ERROR, FINDING_RULE, "ssm and iamRolesAnywhere both set, or neither"),
	ROW("GS012", DIAG_ERROR, FINDING_RULE,
	    "iamRolesAnywhere without nodes, or ssm without count; count and nodes disagree"),
	ROW("GS013", DIAG_ERROR, FINDING_RULE,
	    "node name not a valid Node name for IAM Roles Anywhere (lower-case DNS-1123 "
	    "subdomain, at most 64 characters)"),
	ROW("GS020", DIAG_ERROR, FINDING_RULE,
	    "node label key in the kubernetes.io / k8s.io namespaces that a kubelet may not set on "
	    "itself (NodeRestriction)"),
	ROW("GS021", DIAG_ERROR, FINDING_RULE,
	    "a label, taint or kubelet flag sets eks.amazonaws.com/compute-type or "
	    "--hostname-override"),
	ROW("GS022", DIAG_ERROR, FINDING_RULE,
	    "kubelet flags --node-labels / --register-with-taints given by hand"),
	ROW("GS023", DIAG_ERROR, FINDING_RULE,
	    "invalid label key or value, taint key, value or effect (Kubernetes syntax)"),
	ROW("GS030", DIAG_ERROR, FINDING_RULE, "GPU stack chart version is not one exact version"),
	ROW("GS031", DIAG_ERROR, FINDING_RULE, "gpuStack.values tries to set a key the tool owns"),
	ROW("GS032", DIAG_WARNING, FINDING_RULE,
	    "type device-plugin with gfd: false: the plugin will not schedule unless something "
	    "else labels the nodes"),
	ROW("GS033", DIAG_WARNING, FINDING_RULE,
	    "dcgmExporter: true written explicitly with type device-plugin"),
	ROW("GS040", DIAG_ERROR, FINDING_RULE,
	    "fallback.instanceTypes names an unknown type or one without whole NVIDIA GPUs"),
	ROW("GS041", DIAG_ERROR, FINDING_RULE,
	    "fallback.gpuLimit is below the GPU count of the smallest listed instance type"),
	ROW("GS042", DIAG_ERROR, FINDING_RULE,
	    "an instance type has less GPU memory per GPU than minGpuMemoryMiB"),
	ROW("GS043", DIAG_WARNING, FINDING_RULE,
	    "no minGpuMemoryMiB and a fallback GPU has less memory than the on-prem GPU model"),
	ROW("GS044", DIAG_ERROR, FINDING_RULE,
	    "provisioner auto-mode with an instance type Auto Mode does not offer, or expireAfter "
	    "over 21 days"),
	ROW("GS045", DIAG_WARNING, FINDING_RULE,
	    "fallback gpuLimit covers less than half of the on-prem GPUs"),
	ROW("GS046", DIAG_ERROR, FINDING_RULE,
	    "two sites in the same cluster use the same nodePoolName"),
	ROW("GS047", DIAG_ERROR, FINDING_RULE,
	    "two sites in the same cluster render different GPU stacks or name different argocd "
	    "settings"),
	ROW("GS050", DIAG_ERROR, FINDING_RULE,
	    "placement.mode require-onprem with fallback.enabled true"),
	ROW("GS051", DIAG_ERROR, FINDING_RULE,
	    "singleWriter: true with fencing: none while a fallback exists"),
	ROW("GS052", DIAG_ERROR, FINDING_RULE, "engine is not none and namespaces is empty"),
	ROW("GS060", DIAG_ERROR, FINDING_RULE, "the RTO budget exceeds targetRTO"),
	ROW("GS061", DIAG_WARNING, FINDING_RULE,
	    "notReadyTolerationSeconds or unreachableTolerationSeconds above 300 makes failover "
	    "slower than the Kubernetes default"),
	ROW("GS062", DIAG_ERROR, FINDING_RULE,
	    "engine mutating-admission-policy with a Kubernetes version below 1.34"),
	ROW("GS063", DIAG_WARNING, FINDING_RULE,
	    "engine mutating-admission-policy on Kubernetes 1.34-1.35 (beta, off by default)"),
	ROW("GS100", DIAG_ERROR, FINDING_RULE,
	    "two sites in the same cluster name different regions, Kubernetes versions or "
	    "controller "
	    "releases (cluster.versions)"),
	ROW("GS101", DIAG_ERROR, FINDING_RULE,
	    "two taints of a node group (the GPU taint included) share a key and effect"),
	ROW("GS102", DIAG_ERROR, FINDING_RULE,
	    "a node group label that gpusite writes itself (node-type, gpu.model, gpusite.io/*)"),
	ROW("GS103", DIAG_ERROR, FINDING_RULE,
	    "activationCodeEnv names a variable that does not say it holds an SSM activation code "
	    "(SSM and ACTIVATION), or a credential variable (AWS_*, GPUSITE_*, GIT_*, KUBECONFIG, "
	    "...)"),
	ROW("GS104", DIAG_ERROR, FINDING_RULE,
	    "a node group has more than 1000 nodes, or a site more than 5000"),
	ROW("GS105", DIAG_ERROR, FINDING_RULE,
	    "fallback.zones names something that is not an AWS zone name, or a zone of another "
	    "region than the cluster's"),
	ROW("GS106", DIAG_ERROR, FINDING_RENDER,
	    "a site's NodeConfig ConfigMap would be over the 1 MiB the API server accepts (render, "
	    "generate)"),
	ROW("GS107", DIAG_ERROR, FINDING_RULE,
	    "two sites in the same cluster use different provisioners (karpenter and auto-mode)"),
	ROW("GS108", DIAG_ERROR, FINDING_RULE,
	    "a node group label in the karpenter.sh, karpenter.k8s.aws or eks.amazonaws.com "
	    "domains"),
	ROW("GS109", DIAG_WARNING, FINDING_RULE,
	    "gpuStack.chart names a version or chart of the other stack (a gpu-operator version "
	    "with type device-plugin, or the reverse)"),
	ROW("GS110", DIAG_WARNING, FINDING_RULE,
	    "provisioner karpenter with the fallback enabled and no fallback.nodeImage: no device "
	    "plugin on AL2023 nodes, or a second one on Bottlerocket"),
	ROW("GS111", DIAG_ERROR, FINDING_RULE,
	    "fallback.nodeImage, devicePluginVersion or nodeClass with provisioner auto-mode, "
	    "which manages its own image, device plugin and node class"),
	ROW("GS112", DIAG_ERROR, FINDING_RULE,
	    "fallback.nodeClass without fallback.nodeImage: the EC2NodeClass needs the AMI family"),
	ROW("GS113", DIAG_ERROR, FINDING_RULE,
	    "fallback.nodeClass.imageCache with nodeImage al2023, which has no data volume for "
	    "pre-pulled images"),
	ROW("GS114", DIAG_WARNING, FINDING_RULE,
	    "fallback.nodeClass.amiVersion absent or latest: the fallback nodes boot an AMI the "
	    "failover was not tested with"),
	ROW("GS115", DIAG_ERROR, FINDING_RULE,
	    "fallback.nodeClass sets both or neither of role and instanceProfile"),
	ROW("GS116", DIAG_ERROR, FINDING_RULE,
	    "two sites of one cluster render the same EC2NodeClass (fallback.nodeClass with one "
	    "nodeClassName)"),
	ROW("GS117", DIAG_ERROR, FINDING_RULE,
	    "fallback.nodeClass.tags sets a tag key Karpenter reserves"),
	ROW("GS118", DIAG_ERROR, FINDING_PLUGIN,
	    "generate: the stream would hold cluster objects of more than one cluster (objects "
	    "cluster or all without a cluster or sites setting that narrows to one)"),
	ROW("GS119", DIAG_ERROR, FINDING_PLUGIN,
	    "generate: the stream holds an Argo CD Application but the destination does not serve "
	    "argoproj.io/v1alpha1 Application (KUBE_API_VERSIONS): no Argo CD runs there"),
	ROW("GS120", DIAG_ERROR, FINDING_PLUGIN,
	    "ARGOCD_APP_PARAMETERS is not the JSON array of parameters Argo CD writes"),
	ROW("GS121", DIAG_ERROR, FINDING_PLUGIN,
	    "a plugin setting (parameter, ARGOCD_ENV_ variable or sidecar environment) has a value "
	    "it cannot take"),
	ROW("GS122", DIAG_ERROR, FINDING_PLUGIN,
	    "a plugin parameter or ARGOCD_ENV_ variable that gpusite does not read: unknown, "
	    "misspelt, in another case or given twice; refused"),
	ROW("GS123", DIAG_WARNING, FINDING_PLUGIN,
	    "the target cluster (KUBE_API_VERSIONS) does not serve an API the rendered output "
	    "needs (an error with strict; an Application is GS119)"),
	ROW("GS124", DIAG_ERROR, FINDING_PLUGIN,
	    "the plugin has nothing to print: a sites name matching no site, no site under the "
	    "application path, an empty or oversized stream"),
	ROW("GS125", DIAG_ERROR, FINDING_PLUGIN,
	    "the plugin ran out of time before Argo CD's 60 s deadline"),
	ROW("GS126", DIAG_ERROR, FINDING_READ,
	    "a document with a gpusite.io apiVersion and another kind, or kind GPUSite under "
	    "another API"),
	ROW("GS127", DIAG_NOTE, FINDING_READ,
	    "a document that is not a site spec (another apiVersion, or no apiVersion, kind, "
	    "metadata or spec) was skipped"),
	ROW("GS128", DIAG_ERROR, FINDING_PLUGIN,
	    "generate: the cluster setting names a cluster no site is in, or a sites name lies "
	    "outside the named clusters"),
	ROW("GS130", DIAG_ERROR, FINDING_CHECK,
	    "a rendered object does not match its upstream schema, or uses a version the CRD does "
	    "not serve"),
	ROW("GS131", DIAG_WARNING, FINDING_CHECK,
	    "no upstream schema checks an object: none was found for its kind and version"),
	ROW("GS132", DIAG_ERROR, FINDING_CHECK,
	    "apiVersion, kind or metadata (name, namespace, labels, annotations) of a rendered "
	    "object is not valid"),
	ROW("GS133", DIAG_ERROR, FINDING_CHECK,
	    "NodePool: a static pool (replicas) limits more than nodes"),
	ROW("GS134", DIAG_ERROR, FINDING_CHECK, "NodePool: a static pool (replicas) sets weight"),
	ROW("GS135", DIAG_ERROR, FINDING_CHECK,
	    "NodePool: a disruption budget sets schedule without duration or duration without "
	    "schedule"),
	ROW("GS136", DIAG_ERROR, FINDING_CHECK,
	    "NodePool: a template label or requirement key in the restricted karpenter.sh domain"),
	ROW("GS137", DIAG_ERROR, FINDING_CHECK,
	    "NodePool: a template label or requirement key karpenter.sh/nodepool (Karpenter sets "
	    "it)"),
	ROW("GS138", DIAG_ERROR, FINDING_CHECK,
	    "NodePool: a template label or requirement key kubernetes.io/hostname"),
	ROW("GS139", DIAG_ERROR, FINDING_CHECK,
	    "NodePool: a template label or requirement key in the restricted karpenter.k8s.aws "
	    "domain"),
	ROW("GS140", DIAG_ERROR, FINDING_CHECK,
	    "NodePool: nodeClassRef group, kind or name is empty"),
	ROW("GS141", DIAG_ERROR, FINDING_CHECK,
	    "NodePool: a requirement with operator In has no value"),
	ROW("GS142", DIAG_ERROR, FINDING_CHECK,
	    "NodePool: a Gt, Lt, Gte or Lte requirement does not have exactly one non-negative "
	    "integer value"),
	ROW("GS143", DIAG_ERROR, FINDING_CHECK,
	    "NodePool: a requirement lists fewer values than its minValues"),
	ROW("GS144", DIAG_ERROR, FINDING_CHECK,
	    "NodePool: a label or requirement key is not a qualified name (found only at runtime "
	    "by Karpenter)"),
	ROW("GS145", DIAG_ERROR, FINDING_CHECK,
	    "NodePool: a label or requirement value is not a valid label value (found only at "
	    "runtime)"),
	ROW("GS146", DIAG_ERROR, FINDING_CHECK,
	    "NodePool: a requirement operator Karpenter does not support"),
	ROW("GS147", DIAG_ERROR, FINDING_CHECK,
	    "NodePool: karpenter.sh/capacity-type In without a capacity type Karpenter knows"),
	ROW("GS148", DIAG_ERROR, FINDING_CHECK,
	    "NodePool: instance tenancy In without default or dedicated"),
	ROW("GS149", DIAG_ERROR, FINDING_CHECK, "NodePool: a taint key is not a qualified name"),
	ROW("GS150", DIAG_ERROR, FINDING_CHECK,
	    "NodePool: a taint value is not a qualified name (found only at runtime)"),
	ROW("GS151", DIAG_ERROR, FINDING_CHECK,
	    "NodePool: a taint effect other than NoSchedule, PreferNoSchedule or NoExecute"),
	ROW("GS152", DIAG_ERROR, FINDING_CHECK,
	    "NodePool: the same taint key and effect twice in taints and startupTaints"),
	ROW("GS153", DIAG_ERROR, FINDING_CHECK,
	    "NodeConfig: cluster.name or cluster.region is missing"),
	ROW("GS154", DIAG_ERROR, FINDING_CHECK,
	    "NodeConfig: not exactly one of hybrid.ssm and hybrid.iamRolesAnywhere"),
	ROW("GS155", DIAG_ERROR, FINDING_CHECK,
	    "NodeConfig: an SSM activation code or activation ID nodeadm rejects"),
	ROW("GS156", DIAG_ERROR, FINDING_CHECK,
	    "NodeConfig: IAM Roles Anywhere fields nodeadm rejects (ARNs, nodeName, certificate "
	    "and key paths)"),
	ROW("GS157", DIAG_ERROR, FINDING_CHECK,
	    "NodeConfig: kubelet flags nodeadm or the kubelet rejects"),
	ROW("GS158", DIAG_ERROR, FINDING_CHECK,
	    "PrometheusRule: a rule group without a name, or two with one"),
	ROW("GS159", DIAG_ERROR, FINDING_CHECK,
	    "PrometheusRule: a rule without alert or record, with a bad expression, duration or "
	    "label"),
	ROW("GS160", DIAG_ERROR, FINDING_SCOPE,
	    "a GPU-stack DaemonSet misses a hybrid GPU node, or one meant for a pool's nodes "
	    "misses one"),
	ROW("GS161", DIAG_ERROR, FINDING_SCOPE,
	    "a GPU-stack DaemonSet would run on a node that is not hybrid (a second device "
	    "plugin)"),
	ROW("GS162", DIAG_WARNING, FINDING_SCOPE,
	    "verify-scope has nothing to prove: no hybrid GPU node in the inventory or no "
	    "GPU-stack DaemonSet in the manifests"),
	ROW("GS163", DIAG_ERROR, FINDING_SCOPE,
	    "a verify-scope input document is not what it should be (a Node, a workload)"),
	ROW("GS164", DIAG_ERROR, FINDING_CHECK,
	    "ConfigMap: a data key or size the API server rejects, or an embedded NodeConfig that "
	    "is not valid"),
	ROW("GS165", DIAG_ERROR, FINDING_CHECK,
	    "Application: not exactly one source, a chart not pinned to one version, or a "
	    "destination without exactly one of server and name"),
	ROW("GS166", DIAG_ERROR, FINDING_CHECK,
	    "admission policy mutations: wrong patch type, a bad expression, an atomic list "
	    "replaced"),
	ROW("GS167", DIAG_ERROR, FINDING_CHECK,
	    "admission policy matching: matchConstraints operations or matchConditions not valid"),
	ROW("GS168", DIAG_ERROR, FINDING_CHECK,
	    "Kyverno policy: pod-controller autogen together with JSON patches (they would patch "
	    "the wrong paths)"),
	ROW("GS169", DIAG_ERROR, FINDING_CHECK,
	    "a MutatingAdmissionPolicyBinding names no policy of the stream"),
	ROW("GS170", DIAG_ERROR, FINDING_CHECK,
	    "Kyverno ClusterPolicy patches: not the JSON patch shape, or a strategic merge on a "
	    "list"),
	ROW("GS171", DIAG_ERROR, FINDING_RULE,
	    "two sites of one cluster whose placement scopes can select the same Pod (same "
	    "namespace, pod selectors not provably disjoint)"),
	ROW("GS172", DIAG_ERROR, FINDING_RULE,
	    "a site's burst scope and placement scope overlap (burst work must never use the "
	    "on-demand fallback)"),
	ROW("GS173", DIAG_WARNING, FINDING_READ,
	    "a site file holds no document (empty, or only comments); generate and serve refuse "
	    "the specs while it is there"),
	ROW("GS174", DIAG_ERROR, FINDING_RULE,
	    "two clusters send their GPU-stack Applications to one Argo CD destination "
	    "(argocd.destinationName or destinationServer)"),
	ROW("GS176", DIAG_WARNING, FINDING_RULE,
	    "notReadyTolerationSeconds or unreachableTolerationSeconds under 30 evicts GPU pods on "
	    "a short blip"),
	ROW("GS177", DIAG_WARNING, FINDING_PLUGIN,
	    "generate: the destination's Kubernetes version (KUBE_VERSION) differs from the site's "
	    "cluster.kubernetesVersion"),
	ROW("GS178", DIAG_WARNING, FINDING_RULE,
	    "a placeholder gpusite init writes (cluster your-eks-cluster, an all-zero activation "
	    "ID, account or resource ID) is still in the spec"),
	ROW("GS179", DIAG_ERROR, FINDING_RULE,
	    "fallback.instanceTypes of more than one CPU architecture"),
	ROW("GS180", DIAG_WARNING, FINDING_RULE,
	    "the fallback (or burst) instance types are of another architecture than a node "
	    "group (nodeGroups[].arch): the images must be multi-arch"),
	ROW("GS181", DIAG_ERROR, FINDING_RULE,
	    "fallback.capacityType lists reserved but nothing selects a capacity reservation "
	    "(nodeClass.capacityReservationSelectorTerms, or nodeClassSelectsReservations for a "
	    "node class gpusite does not render)"),
	ROW("GS182", DIAG_WARNING, FINDING_RULE,
	    "the volume that holds the fallback nodes' images (nodeClass.imageVolume, or "
	    "Karpenter's 20 GiB default) is below 100 GiB"),
	ROW("GS183", DIAG_WARNING, FINDING_RULE,
	    "capacityReservationType or capacityReservationSelectorTerms without reserved in "
	    "fallback.capacityType (Karpenter never uses them), or capacityReservationType with "
	    "EKS Auto Mode (not rendered)"),
	ROW("GS184", DIAG_ERROR, FINDING_RULE,
	    "a fallback disruption budget with schedule but no duration, or duration but no "
	    "schedule"),
	ROW("GS186", DIAG_ERROR, FINDING_RULE,
	    "the controller release a site declares (cluster.versions) does not serve a construct "
	    "gpusite renders for it (reserved capacity before Karpenter 1.3, MutatingPolicy before "
	    "Kyverno 1.17, ClusterPolicy from Kyverno 1.20, ...)"),
	ROW("GS187", DIAG_WARNING, FINDING_RULE,
	    "cluster.versions.karpenter with EKS Auto Mode, whose Karpenter AWS runs (not read)"),
	ROW("GS188", DIAG_ERROR, FINDING_RULE,
	    "argocd.destinationServer is the ARN of an EKS cluster of another name or region than "
	    "the site's cluster"),
	ROW("GS189", DIAG_ERROR, FINDING_RULE,
	    "a cloud pool lists a capacity type that no offering of its instance types can "
	    "satisfy"),
	ROW("GS190", DIAG_ERROR, FINDING_RENDER, "--site or --cluster names nothing"),
	ROW("GS191", DIAG_ERROR, FINDING_RENDER,
	    "nothing to render: no site, or the selected sites produce no object"),
	ROW("GS192", DIAG_ERROR, FINDING_RENDER,
	    "the environment variable holding an SSM activation code is unset or not a valid code"),
	ROW("GS193", DIAG_ERROR, FINDING_RENDER,
	    "a name that cannot become a label value (the cluster name)"),
	ROW("GS194", DIAG_ERROR, FINDING_RENDER,
	    "hydrate: two clusters on one directory and Application name, or a cluster name that"
	    " maps to no DNS-1123 label"),
	ROW("GS196", DIAG_WARNING, FINDING_RULE,
	    "the fallback of one site at its gpuLimit needs more vCPUs than the cluster's EC2 "
	    "quota (cluster.quotas)"),
	ROW("GS201", DIAG_ERROR, FINDING_DRIFT,
	    "a hybrid node of a site has no GPU taint (joined without it, or it was removed)"),
	ROW("GS202", DIAG_ERROR, FINDING_DRIFT,
	    "a hybrid node of a site carries the GPU taint key with another value or effect"),
	ROW("GS203", DIAG_ERROR, FINDING_DRIFT,
	    "a hybrid node of a site lacks the site's labels or has other values"),
	ROW("GS204", DIAG_ERROR, FINDING_DRIFT,
	    "a node the spec names (or counts) is not registered in the cluster"),
	ROW("GS205", DIAG_ERROR, FINDING_DRIFT, "a node of a site is not Ready"),
	ROW("GS206", DIAG_WARNING, FINDING_DRIFT,
	    "a hybrid node is in no site spec of the cluster"),
	ROW("GS207", DIAG_ERROR, FINDING_DRIFT,
	    "a GPU stack DaemonSet pod runs on a non-hybrid node (double device plugin)"),
	ROW("GS208", DIAG_ERROR, FINDING_DRIFT,
	    "a hybrid GPU node has no running device plugin pod"),
	ROW("GS209", DIAG_ERROR, FINDING_DRIFT,
	    "a hybrid GPU node advertises no nvidia.com/gpu capacity"),
	ROW("GS210", DIAG_ERROR, FINDING_DRIFT,
	    "the fallback NodePool is missing from the cluster"),
	ROW("GS211", DIAG_ERROR, FINDING_DRIFT,
	    "the fallback NodePool differs from the rendered one"),
	ROW("GS212", DIAG_ERROR, FINDING_DRIFT,
	    "the EC2NodeClass / NodeClass of the fallback NodePool does not exist"),
	ROW("GS213", DIAG_NOTE, FINDING_DRIFT,
	    "the fallback is active: NodeClaims or nodes of the pool, GPUs in use against gpuLimit "
	    "(state, not drift)"),
	ROW("GS214", DIAG_ERROR, FINDING_DRIFT,
	    "GPU pods are Pending in a placement or burst namespace"),
	ROW("GS215", DIAG_ERROR, FINDING_DRIFT,
	    "GPU pods in a placement or burst namespace lack the GPU (or burst) toleration (the "
	    "admission policy is not working)"),
	ROW("GS216", DIAG_ERROR, FINDING_DRIFT,
	    "a Ready fallback node advertises no allocatable nvidia.com/gpu (no device plugin runs "
	    "there)"),
	ROW("GS217", DIAG_ERROR, FINDING_DRIFT,
	    "a fallback node runs two or more device plugin pods"),
	ROW("GS218", DIAG_ERROR, FINDING_DRIFT,
	    "the live EC2NodeClass of the fallback boots another AMI family than "
	    "fallback.nodeImage"),
	ROW("GS219", DIAG_ERROR, FINDING_DRIFT,
	    "a controller release the spec declares (cluster.versions) that the cluster "
	    "contradicts: "
	    "what it serves (the NodePool CRD's Gte, the EC2NodeClass CRD's reservations, "
	    "Kyverno's "
	    "MutatingPolicy or ClusterPolicy) belongs to another release"),
	ROW("GS220", DIAG_ERROR, FINDING_DRILL_RUN,
	    "drill run: a --nodes name is not a node of the site, or no node of the site (or "
	    "--group) is in the cluster"),
	ROW("GS221", DIAG_ERROR, FINDING_DRILL_RUN,
	    "drill run: a right the drill needs is missing (SelfSubjectAccessReview); nothing was "
	    "changed"),
	ROW("GS222", DIAG_ERROR, FINDING_DRILL_RUN,
	    "drill run: a PodDisruptionBudget kept refusing an eviction (429) through every retry"),
	ROW("GS223", DIAG_ERROR, FINDING_DRILL_RUN,
	    "drill run: the API server refused a cordon, uncordon or eviction"),
	ROW("GS224", DIAG_ERROR, FINDING_DRILL_RUN,
	    "drill run: the availability (or, with --restore, the return) condition did not hold "
	    "before --timeout"),
	ROW("GS225", DIAG_ERROR, FINDING_DRILL_RUN,
	    "drill run: the site recovered, but over its recovery.targetRTO"),
	ROW("GS226", DIAG_ERROR, FINDING_DRILL_RUN,
	    "drill run: interrupted (SIGINT or SIGTERM); the nodes were left as they were"),
	ROW("GS227", DIAG_ERROR, FINDING_DRILL_RUN,
	    "drill run: the drill record could not be written"),
	ROW("GS230", DIAG_ERROR, FINDING_DRILL_PLAN,
	    "drill plan: the fallback is disabled, or its NodePool is missing from the cluster or "
	    "differs from the render"),
	ROW("GS231", DIAG_ERROR, FINDING_DRILL_PLAN,
	    "drill plan: the fallback NodePool's node class is not in the cluster"),
	ROW("GS232", DIAG_ERROR, FINDING_DRILL_PLAN,
	    "drill plan: al2023 fallback nodes but the fallback device plugin's DaemonSet is not "
	    "in the cluster"),
	ROW("GS233", DIAG_ERROR, FINDING_DRILL_PLAN,
	    "drill plan: the fallback cannot hold the pods of the drilled nodes: gpuLimit below "
	    "their GPUs, or a pod larger than every fallback instance type"),
	ROW("GS234", DIAG_ERROR, FINDING_DRILL_PLAN,
	    "drill plan: a PodDisruptionBudget that allows no disruption covers pods the drill "
	    "evicts"),
	ROW("GS235", DIAG_ERROR, FINDING_DRILL_PLAN,
	    "drill plan: the site's PrometheusRule is not in the cluster"),
	ROW("GS236", DIAG_ERROR, FINDING_DRILL_REPORT,
	    "drill report: the drill record cannot be read or is not one"),
	ROW("GS237", DIAG_ERROR, FINDING_DRILL_PLAN,
	    "drill plan: GPU pods are Pending now, or the fallback is already active"),
	ROW("GS238", DIAG_ERROR, FINDING_DRILL_PLAN,
	    "drill plan: a partition drill of a single-writer workload without fencing"),
	ROW("GS239", DIAG_WARNING, FINDING_DRILL_REPORT,
	    "drill report: the measured recovery is over targetRTO"),
	ROW("GS240", DIAG_NOTE, FINDING_CHECK,
	    "an object checked against a stand-in schema (none of its own version was found), or "
	    "a kind that several upstream files define: the one used is named"),
	ROW("GS241", DIAG_ERROR, FINDING_CHECK,
	    "objects not checked: the upstream schemas cannot be read, or an object's evaluation "
	    "passes its bounds"),
	ROW("GS242", DIAG_WARNING, FINDING_CHECK,
	    "a rendered object's namespace is missing (a namespaced kind) or means nothing (a "
	    "cluster-scoped kind)"),
	ROW("GS243", DIAG_WARNING, FINDING_CHECK,
	    "Kyverno policy: a strategic-merge patch of Pods with pod-controller autogen on (Argo "
	    "CD shows the controllers as changed)"),
	ROW("GS244", DIAG_WARNING, FINDING_CHECK,
	    "a MutatingAdmissionPolicy without a binding in the stream: it never runs"),
	ROW("GS245", DIAG_WARNING, FINDING_CHECK,
	    "Kyverno ClusterPolicy: a +(tolerations) anchor that never fires (the list is always "
	    "there by then)"),
	ROW("GS246", DIAG_ERROR, FINDING_DRIFT,
	    "a node of a site's fallback or burst pool lacks a taint of the pool's NodePool (the "
	    "site taint, the burst taint, the GPU taint)"),
	ROW("GS247", DIAG_ERROR, FINDING_DRIFT,
	    "a GPU pod of a placement or burst scope lacks the node affinity its placement policy "
	    "adds (site binding, pool exclusion): admitted while the policy was not acting"),
	ROW("GS290", DIAG_ERROR, FINDING_KUBE,
	    "the cluster could not be reached or read: kubeconfig, credentials, connection, API "
	    "errors"),
};

const size_t findings_count = sizeof(findings_table) / sizeof(findings_table[0]);

const struct finding *
findings_find(const char *id)
{
	size_t lo = 0, hi = findings_count;

	/* ID order: a binary search */
	while (id && lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int r = strcmp(id, findings_table[mid].id);

		if (!r)
			return &findings_table[mid];
		if (r < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}
