/*
 * help.c - the paragraph each command's --help prints under its usage
 * line, the words of the command line in one place (cli/help.h).  The
 * option rows come from each command's table (opts.c prints both).
 */
#include "cli/help.h"
#include "inventory/inventory_labels.h"

/* diff */
const char cli_help_diff[] =
	"Show, object by object, how the rendered cluster stream differs.\n"
	"\n"
	"--live renders the sites of the cluster the context points at and GETs\n"
	"each object's live counterpart; both are normalised (status, managed\n"
	"fields, resourceVersion, uid, generation, timestamps, last-applied and\n"
	"Argo CD tracking metadata dropped; only the fields gpusite renders are\n"
	"compared, so server defaults are no difference; Secret values masked).\n"
	"Objects missing in the cluster are shown whole with '+', objects\n"
	"labelled app.kubernetes.io/managed-by=gpusite that the specs no longer\n"
	"render whole with '-'.  Only GET and LIST are sent.\n"
	"\n"
	"--base renders the specs at REV and at --head REV (default: the work\n"
	"tree; the index with --staged; HEAD of --repo) straight from the Git\n"
	"object database, no checkout, and prints a unified diff of each\n"
	"object's rendered YAML (--- a/Kind/name, +++ b/Kind/name; namespaced\n"
	"objects a/Kind/namespace/name), objects added or removed whole, and\n"
	"'N objects changed, N added, N removed'.  Invalid specs are reported\n"
	"on stderr and nothing is compared: at the head that is a finding\n"
	"(exit 1), at the base the diff cannot be done (exit 3, the findings\n"
	"labelled as the base's).  activationCode values and Secret data are\n"
	"masked on both sides.\n"
	"\n"
	"Exit 0 when nothing differs, 1 when something does or the head's specs\n"
	"are invalid, 3 when the cluster or a revision could not be read or the\n"
	"base's specs are invalid.\n";

/* drift: before the list of its findings */
const char cli_help_drift_head[] =
	"Check the live cluster against the site specs of the cluster the\n"
	"context points at, beyond the object diff (GS2xx findings):\n";

/* drift: after the list */
const char cli_help_drift_tail[] =
	"Only GET and LIST are sent.  Exit 1 on drift (errors; warnings such as\n"
	"GS206 with --strict), 0 when only notes remain.\n";

/* drill */
const char cli_help_drill[] =
	"The fallback drill of a site, in three commands:\n"
	"  plan    check the live cluster for what the drill needs (read-only),\n"
	"          then print the handout: the steps as commands, the timeline,\n"
	"          the window, when to abort, the fallback's cost\n"
	"  run     cordon and evict the site's hybrid nodes through the Eviction\n"
	"          API (a dry run unless --execute), watch, write the drill\n"
	"          record; --restore undoes what the record says it did\n"
	"  report  measure the recovery term by term against the budget, from\n"
	"          the cluster or a drill record (read-only)\n"
	"See 'gpusite drill plan --help' and the others.\n";

/* drill plan: before the list of its findings */
const char cli_help_drill_plan_head[] =
	"Check the live cluster for what a drill of SITE needs, read-only:\n";

/* drill plan: after the list */
const char cli_help_drill_plan_tail[] =
	"The drilled nodes must be on-prem hybrid nodes of SITE, never cloud\n"
	"nodes (karpenter.sh/nodepool).  Then print the handout: each step as a\n"
	"full command (grant the drill's RBAC, silence the site's alerts for the\n"
	"drill window, dry run, run, report, restore, expire and revoke), the\n"
	"expected timeline from the recovery budget, the availability and return\n"
	"conditions, the drill window, when to abort, and the fallback's cost over\n"
	"the window (built-in on-demand list prices of us-east-1, an estimate\n"
	"elsewhere).  Exit 0 ready, 1 findings, 2 usage (a node not in the\n"
	"cluster or not a hybrid node of SITE), 3 the cluster could not be read.\n";

/* drill report */
const char cli_help_drill_report[] =
	"Measure the recovery of a drill (or of a real incident) term by term,\n"
	"read-only: nodeMonitorGrace, eviction, nodeProvisioning, imagePull,\n"
	"modelLoad, each against the spec's recovery budget, and their sum\n"
	"against targetRTO.  The timeline comes from the cluster (node\n"
	"conditions and taints, pod timestamps and conditions, NodeClaims,\n"
	"events) or from --record FILE.  A term the data cannot show is\n"
	"unknown, with the reason.  Exit 1 when the total is over targetRTO\n"
	"(GS239).\n";

/* drill run */
const char cli_help_drill_run[] =
	"The node-failure drill of SITE: only its on-prem hybrid nodes\n"
	"(eks.amazonaws.com/compute-type: hybrid, with the site's label or\n"
	"named in its nodeGroups), never a cloud node (karpenter.sh/nodepool).\n"
	"Without --execute a dry run: the exact API calls (method, path,\n"
	"content type, body), one per line; only reads are sent.  With\n"
	"--execute (it needs --record FILE): a SelfSubjectAccessReview for\n"
	"every right first (nothing is changed when one is missing), then the\n"
	"nodes are cordoned (a node unschedulable already is left as it is)\n"
	"and their pods evicted through the policy/v1 Eviction API as kubectl\n"
	"drain does (DaemonSet and mirror pods stay; a PodDisruptionBudget's\n"
	"429 is retried with backoff, then named), and the run waits until\n"
	"every GPU pod that moved is Ready again.  The record keeps every\n"
	"transition and which nodes the drill cordoned; it is written before\n"
	"the first write and after each cordon.  --restore --record FILE\n"
	"uncordons only those, names the nodes it leaves cordoned, and adds\n"
	"its steps to the record.  Ctrl-C, SIGTERM or a write refused for good\n"
	"stops the run and leaves the nodes cordoned; the message names them\n"
	"and the restore command.  Exit 0: recovered within targetRTO; 1:\n"
	"recovered too late or not in time; 2: usage (--record missing, or\n"
	"the file exists); 3: could not run (nodes, rights, PDB, API error,\n"
	"interrupted).\n";

/* explain */
const char cli_help_explain[] =
	"Explain each site (or only SITE, or the sites of CLUSTER) of the specs\n"
	"under PATH (default: sites/ below the current directory if it exists,\n"
	"else the directory):\n"
	"the RTO budget term by term against recovery.targetRTO, the Kubernetes\n"
	"version the output is written for, on-prem GPUs against the fallback's\n"
	"GPU limit and the instance types that serve it, and what each rendered\n"
	"object is for.  A single argument that is an existing file or\n"
	"directory is PATH, else SITE.  SITE may name a cluster: then first\n"
	"the cluster view (the capacity of each site and of the cluster, which\n"
	"namespaces go to which site and pool, whether every GPU pool is\n"
	"reachable from exactly one site's scope), then each of its sites.\n"
	"--format json prints the same numbers\n"
	"as one JSON document (docs/explain-json.md): per cluster, per site,\n"
	"and every set of up to --fail K sites of a cluster failing together.\n";

/* generate */
const char cli_help_generate[] =
	"Argo CD config-management plugin entry point (plugin/plugin.yaml).\n"
	"Renders the sites under the working directory (its sites/ when present)\n"
	"and prints the YAML stream on stdout, the bytes `gpusite render` prints,\n"
	"except that the objects a cluster's sites share go to one Application.\n"
	"Takes no arguments: every input comes from the environment Argo CD sets.\n"
	"\n"
	"Settings, each looked up as a plugin parameter (ARGOCD_APP_PARAMETERS or\n"
	"PARAM_*), then ARGOCD_ENV_<NAME> (plugin env), then <NAME>:\n"
	"  sites         array of site names (metadata.name); default all sites\n"
	"  cluster       array of spec.cluster.name; only the sites of these clusters\n"
	"  objects       cluster = only what lives in the destination cluster (no\n"
	"                argoproj.io object); argocd = only the GPU-stack\n"
	"                Applications, one per cluster, for a hub Argo CD (their\n"
	"                destination.name defaults to spec.cluster.name); all\n"
	"                (default) = both, for an Argo CD inside the one cluster\n"
	"  strict        \"true\": warnings fail the render; default false\n"
	"  kube-version  target Kubernetes version, e.g. 1.35; default KUBE_VERSION,\n"
	"                else each site's cluster.kubernetesVersion\n"
	"  shared-objects  which Application carries the objects the sites of a\n"
	"                cluster share (the GPU stack Application): owner (default)\n"
	"                = only the cluster's site with the smallest metadata.name\n"
	"                among all its sites under the application path; all =\n"
	"                every site's; none = no Application (managed elsewhere)\n"
	"Refused, with nothing on stdout: a parameter or ARGOCD_ENV_ name that is\n"
	"no setting (ARGOCD_ENV_sites included: write ARGOCD_ENV_SITES); cluster\n"
	"objects of more than one cluster (objects cluster or all without a\n"
	"'cluster' or 'sites' that names one); an Application when\n"
	"KUBE_API_VERSIONS lacks argoproj.io/v1alpha1/Application.  Any other API\n"
	"KUBE_API_VERSIONS lacks is a warning (an error with strict).\n"
	"\n"
	"On any error stdout stays empty, stderr holds one line per problem and a\n"
	"summary last, and the exit code is not 0 (1 findings, 2 settings, 3 could\n"
	"not read the application path).\n";

/* hydrate */
const char cli_help_hydrate[] =
	"Render every cluster of the fleet at a revision (--ref, default HEAD; never\n"
	"the work tree) and commit the result to a branch of the same repository,\n"
	"without a work tree: clusters/<dir>/cluster/manifest.yaml (what\n"
	"`render --objects cluster --cluster <cluster>` prints) and\n"
	"clusters/<dir>/argocd/manifest.yaml (the GPU-stack Applications for\n"
	"the hub), each with a README.md and a cluster.json, and an index\n"
	"README.md at the top; <dir> is the cluster's name as a DNS-1123 label\n"
	"(lower case, '_' as '-'), and the index says which is which.\n"
	"The commit takes its author, committer and dates from the source commit\n"
	"and carries the trailers Gpusite-Source and Gpusite-Version: the same\n"
	"source on the same parent gives the same commit id on any machine.\n"
	"Nothing is committed when the tree is unchanged.  The branch is moved\n"
	"only if it still points where it did when the run read it: of two\n"
	"concurrent runs one wins, the other exits 3.  Invalid specs: the\n"
	"findings as validate prints them, nothing committed, exit 1.\n";

/* init */
const char cli_help_init[] =
	"Write a commented starter site spec, sites/NAME.yaml, that validates as it\n"
	"is: edit the cluster, the node groups and the fallback, then run\n"
	"'gpusite validate'.  NAME becomes metadata.name (a DNS-1123 label).\n"
	"An existing file is never overwritten.\n";

/* parameters */
const char cli_help_parameters[] =
	"Argo CD config-management plugin: print the JSON array of parameter\n"
	"announcements (plugin.yaml spec.parameters.dynamic) for the application\n"
	"path in the working directory: sites (default: every site found, in\n"
	"render order), cluster (default: none named), objects (default all),\n"
	"strict (default false), kube-version (default KUBE_VERSION) and\n"
	"shared-objects (default owner): the settings `gpusite generate` reads,\n"
	"from the same table.  Defaults set through ARGOCD_ENV_<NAME> or <NAME>\n"
	"are announced as such, the way generate applies them.\n";

/* render */
const char cli_help_render[] =
	"Render the cluster stream of the site specs under PATH (default: sites/\n"
	"below the current directory if it exists, else the directory): the\n"
	"NodeConfig ConfigMaps, fallback NodePools, GPU stack Applications,\n"
	"placement policies and PrometheusRules, sorted by kind, namespace and\n"
	"name.  Any error prints the findings on stderr and nothing on stdout.\n"
	"SSM activation codes are read from the environment variables the specs\n"
	"name, only for --nodeconfigs, and only ever written to those files.\n"
	"\n"
	"Files are written all or nothing, and never through a symlink: a link\n"
	"anywhere below the --nodeconfigs or --values DIR or at -o FILE, or a FIFO,\n"
	"socket, device or directory where a file goes, is refused (exit 3) before\n"
	"anything is written.  DIR itself, and the directories on the way to it\n"
	"or to FILE, are followed as given.  A stream that holds the objects of\n"
	"more than one cluster fits no single cluster: render says so on stderr\n"
	"(not with -q); --objects cluster --cluster NAME renders one cluster.\n";

/* report */
const char cli_help_report[] =
	"Write the fleet page of the specs under PATH (default: sites/ below the\n"
	"current directory if it exists, else the directory): per cluster its\n"
	"sites, on-prem GPUs by model, fallback limits, GPU stack, placement\n"
	"engine, provisioner and Kubernetes version; per site the RTO budget term\n"
	"by term against its target (and the last drill given); for every set of\n"
	"up to K sites of a cluster failing together the GPUs lost, what their\n"
	"fallback may launch, the shortfall and the cost per hour at the limit\n"
	"from the on-demand list prices built into gpusite.  HTML is one\n"
	"self-contained file; Markdown gives the same tables.  With --drift-json\n"
	"FILE (what `gpusite drift --format json` printed), a live section: the\n"
	"drift findings of each site and whether its fallback is active.\n";

/* schema */
const char cli_help_schema[] =
	"Print the JSON Schema (draft-07) of GPUSite, gpusite.io/v1alpha1, the\n"
	"schema this binary validates against.  Editors use it for completion\n"
	"and checks: at the top of the repository, save it with\n"
	"  gpusite schema > schemas/gpusite.v1alpha1.schema.json\n"
	"and start each site file in sites/ with the line 'gpusite init' writes:\n"
	"  # yaml-language-server: $schema=../schemas/gpusite.v1alpha1.schema.json\n"
	"(one more ../ per directory deeper).  The schema checks shapes, types,\n"
	"enums and ranges; 'gpusite validate' also runs the semantic rules.\n";

/* serve */
const char cli_help_serve[] =
	"Argo CD's ApplicationSet plugin generator.  POST /api/v1/getparams.execute\n"
	"with 'Authorization: Bearer <token>' and a body {\"applicationSetName\": ...,\n"
	"\"input\": {\"parameters\": {\"per\": \"cluster\"}}} answers {\"output\":\n"
	"{\"parameters\": [...]}}: one element per cluster (cluster, destinationName,\n"
	"project, alertsNamespace, sites, path) or, with per: site, per site (site,\n"
	"cluster, destinationName, project, alertsNamespace, file): project is the\n"
	"sites' argocd.project, alertsNamespace their alerts.namespace.  The sites\n"
	"come from the same discovery as validate and generate (--repo, --ref,\n"
	"PATH; multi-document files, .yml, nested folders), read again every\n"
	"--refresh seconds.  While the specs do not validate (or no site\n"
	"is found, or a site file holds no document) the answer is 503 with the\n"
	"diagnostics, the first in its message, so the controller keeps\n"
	"its Applications.  GET /healthz answers 200 \"ok\" without a token.  Missing\n"
	"token 401, wrong token 403, a body over 1 MiB 413, a malformed one 400.\n"
	"On start it prints 'gpusite serve: listening on ADDR:PORT' on stderr, then\n"
	"one line per request (method, path, status, duration; never a header).\n"
	"The token is checked as soon as the headers arrive: no body is read for a\n"
	"client without it.  Bodies in flight hold at most 4 MiB together (503 with\n"
	"Retry-After beyond); a client must send its headers within 10 s; one client\n"
	"address holds at most 32 connections.\n"
	"SIGHUP: read the token file and the specs again now, and go on serving.\n"
	"SIGTERM or SIGINT: no new connections, requests in flight finish, exit 0.\n";

/* validate */
const char cli_help_validate[] =
	"Check site specs: YAML, the GPUSite schema and every rule (docs/rules.md),\n"
	"all problems in one run.  Each PATH is a directory (every *.yaml and\n"
	"*.yml below it; hidden entries skipped) or a file.  Without PATH:\n"
	"sites/ below the current directory if it exists, else the directory.\n"
	"Text findings go to stderr as FILE:LINE:COL: SEVERITY: MESSAGE [RULE]\n"
	"with a summary line; the other formats go to stdout.\n"
	"\n"
	"With --rendered, FILE is a rendered stream (gpusite render, helm\n"
	"template, NodeConfig files): every object is checked against its\n"
	"upstream schema and against the rules upstream enforces beyond it\n"
	"(docs/rules.md).  The schemas come from --upstream DIR (or\n"
	"GPUSITE_UPSTREAM), --live, or both:\n"
	"  --upstream DIR  any directory of CRDs and OpenAPI v3 documents, any\n"
	"                  file names, recognised by content: a chart's crds/,\n"
	"                  `kubectl get crd -o yaml` output (a List), the JSON\n"
	"                  of /openapi/v3/apis/<group>/<version>\n"
	"  --live          the cluster's own CRDs and /openapi/v3 documents\n"
	"                  (--kubeconfig, --context), exactly what it runs;\n"
	"                  with --upstream too, the cluster's win\n"
	"An object whose schema is found nowhere gets a GS131 warning and is\n"
	"not checked against one; its kind's rules (NodePool CEL rules,\n"
	"nodeadm's NodeConfig checks, PrometheusRule expressions, policies,\n"
	"Applications) are checked all the same.\n";

/* verify-scope */
const char cli_help_verify_scope[] =
	"Place every DaemonSet of the manifests on every node of the inventory with\n"
	"Kubernetes' rules: nodeSelector, required node affinity (terms ORed,\n"
	"expressions ANDed; In, NotIn, Exists, DoesNotExist, Gt, Lt; matchFields\n"
	"on metadata.name), taints with effect NoSchedule or NoExecute against the\n"
	"pod's tolerations and the ones the DaemonSet controller adds to every\n"
	"daemon pod.  Prints the placement table (rows DaemonSets, columns nodes).\n"
	"\n"
	"A DaemonSet belongs to the GPU stack when its name, app.kubernetes.io/name\n"
	"or helm.sh/chart label names the NVIDIA device plugin, GPU Feature\n"
	"Discovery, Node Feature Discovery, DCGM or the GPU Operator, when it runs\n"
	"an image from nvcr.io/nvidia or registry.k8s.io/nfd, or when it selects\n"
	"on NVIDIA node labels.  A GPU Operator ClusterPolicy adds the operand\n"
	"DaemonSets the operator will create (with daemonsets.tolerations and their\n"
	"nvidia.com/gpu.deploy.* selector).  A node is hybrid with\n"
	"eks.amazonaws.com/compute-type=hybrid, and has a GPU with an NFD NVIDIA PCI\n"
	"label, nvidia.com/gpu capacity, nvidia.com/gpu.present=true, an NVIDIA\n"
	"instance-gpu-manufacturer label or gpusite's node-type label.  Labels the\n"
	"stack adds while it runs (NFD's PCI label where the NFD worker runs, the\n"
	"operator's deploy labels, MPS/MIG capability) are assumed as listed.\n"
	"\n"
	"\n"
	"gpusite's fallback device plugin (fallback.nodeImage: al2023) "
	"selects\n" INV_NODE_IMAGE_LABEL "=al2023: it must run on every AL2023 fallback GPU\n"
	"node (" INV_NODE_TYPE_LABEL "=" INV_NODE_TYPE_FALLBACK ", " INV_NODE_IMAGE_LABEL
	"=al2023) and on\n"
	"no other node; a Bottlerocket or Auto Mode fallback node brings its own\n"
	"plugin and gets none of gpusite's.  testdata/nodes/fallback/ holds an\n"
	"AL2023 and a Bottlerocket fallback node, labelled and tainted as the\n"
	"rendered NodePool makes them: with the reference inventory they prove one\n"
	"device plugin per GPU node, the cloud fallback included (t2220).\n"
	"\n"
	"Exit 1 when a GPU-stack DaemonSet misses a hybrid GPU node (GS160) or\n"
	"would run on a non-hybrid node (GS161), and when the fallback plugin\n"
	"misses an AL2023 fallback GPU node (GS160) or runs elsewhere (GS161).\n";
