/*
 * test_check.c - the upstream checks without the upstream files: name
 * syntax as apimachinery defines it, and each kind's rules on small
 * objects (the rule fires with its ID where it should and stays quiet on a
 * correct object).  Schema conformance needs ../shared/upstream and is
 * covered by t2202/t2203.
 */
#include <glob.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "base/arena.h"
#include "check/check.h"
#include "render/render.h"
#include "yamlio/yamlio.h"

#include "testutil.h"

static struct yamlio_docs
docs_of(const char *text)
{
	return testutil_yaml_docs("t.yaml", text, NULL);
}

/* Run the C checks over a stream; returns the diagnostics added. */
static size_t
run(const char *text)
{
	struct yamlio_docs docs = docs_of(text);
	size_t before = D.count;

	check_rendered(&A, &D, NULL, docs.docs, docs.count);
	return D.count - before;
}

/* How many diagnostics with `rule` (and `text` in the message, if given). */
static size_t
count(const char *rule, const char *text)
{
	size_t n = 0;

	for (size_t i = 0; i < D.count; i++)
		if (!strcmp(D.items[i].rule, rule) && (!text || strstr(D.items[i].msg, text)))
			n++;
	return n;
}

/* The level of the first diagnostic with `rule` and `text` (-1: none). */
static int
level_of(const char *rule, const char *text)
{
	for (size_t i = 0; i < D.count; i++)
		if (!strcmp(D.items[i].rule, rule) && strstr(D.items[i].msg, text))
			return (int)D.items[i].level;
	return -1;
}

static void
test_check__qualified_names_and_label_values(void **state)
{
	char long63[64], long64[65];

	(void)state;
	memset(long63, 'a', 63);
	long63[63] = '\0';
	memset(long64, 'a', 64);
	long64[64] = '\0';
	assert_int_equal(check_qualified_name("nvidia.com/gpu"), 0);
	assert_int_equal(check_qualified_name("node-type"), 0);
	assert_int_equal(check_qualified_name("A_b.c-D"), 0);
	assert_int_equal(check_qualified_name(long63), 0);
	assert_int_equal(check_qualified_name(long64), -1);
	assert_int_equal(check_qualified_name("-x"), -1);
	assert_int_equal(check_qualified_name("x-"), -1);
	assert_int_equal(check_qualified_name("a b"), -1);
	assert_int_equal(check_qualified_name("Example.com/x"), -1); /* prefix is lower-case DNS */
	assert_int_equal(check_qualified_name("a/b/c"), -1);
	assert_int_equal(check_qualified_name("/x"), -1);
	assert_int_equal(check_qualified_name(""), -1);
	assert_int_equal(check_label_value(""), 0);
	assert_int_equal(check_label_value("Exists"), 0);
	assert_int_equal(check_label_value("a/b"), -1);
	assert_int_equal(check_label_value(long64), -1);
	assert_int_equal(check_dns1123_subdomain("gpu-fallback.a"), 0);
	assert_int_equal(check_dns1123_subdomain("GPU"), -1);
	assert_int_equal(check_dns1123_subdomain("a..b"), -1);
	assert_int_equal(check_dns1123_label("kube-system"), 0);
	assert_int_equal(check_dns1123_label("a.b"), -1);
}

static const char good_nodepool[] =
	"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: gpu-fallback}\n"
	"spec:\n  template:\n    metadata: {labels: {node-type: cloud-gpu-fallback}}\n"
	"    spec:\n"
	"      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: gpu-fallback}\n"
	"      requirements:\n"
	"        - {key: karpenter.k8s.aws/instance-gpu-manufacturer, operator: In, values: "
	"[nvidia]}\n"
	"        - {key: karpenter.k8s.aws/instance-gpu-memory, operator: Gte, values: "
	"[\"40000\"]}\n"
	"        - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand, spot]}\n"
	"      taints: [{key: nvidia.com/gpu, value: Exists, effect: NoSchedule}]\n"
	"  disruption: {consolidateAfter: 5m}\n  limits: {nvidia.com/gpu: 16}\n";

static void
test_check__a_correct_nodepool_is_quiet(void **state)
{
	(void)state;
	assert_int_equal(run(good_nodepool), 0);
}

static void
test_check__nodepool_label_domains_follow_cel_find_endswith(void **state)
{
	(void)state;
	run("apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: p}\nspec:\n  template:\n"
	    "    metadata:\n      labels:\n"
	    "        notkarpenter.sh/x: a\n"                  /* endsWith: rejected */
	    "        karpenter.sh: a\n"                       /* no '/': the whole key */
	    "        karpenter.sh/capacity-type: on-demand\n" /* allowed */
	    "        karpenter.k8s.aws/instance-family: g6\n" /* allowed */
	    "        sub.karpenter.k8s.aws/x: a\n"
	    "    spec: {nodeClassRef: {group: g, kind: k, name: n}, requirements: []}\n");
	assert_int_equal(count("GS136", "\"notkarpenter.sh/x\""), 1);
	assert_int_equal(count("GS136", "template label \"karpenter.sh\" makes"), 1);
	assert_int_equal(count("GS136", "capacity-type"), 0);
	assert_int_equal(count("GS139", "instance-family"), 0);
	assert_int_equal(count("GS139", "sub.karpenter.k8s.aws/x"), 1);
	assert_int_equal(count("GS137", NULL), 0);
}

static void
test_check__nodepool_requirement_rules(void **state)
{
	(void)state;
	run("apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: p}\nspec:\n  "
	    "template:\n    spec:\n"
	    "      nodeClassRef: {group: g, kind: k, name: n}\n"
	    "      requirements:\n"
	    "        - {key: a, operator: Lt, values: [\"-1\"]}\n" /* negative */
	    "        - {key: b, operator: Gt, values: [\"+3\"]}\n" /* ParseInt takes the sign */
	    "        - {key: c, operator: Gte}\n"                  /* no value */
	    "        - {key: d, operator: In, values: [x, y], minValues: 2}\n"
	    "        - {key: e, operator: In, values: [x], minValues: 3}\n"
	    "        - {key: karpenter.sh/capacity-type, operator: In, values: [spot, "
	    "preemptible]}\n"
	    "        - {key: karpenter.k8s.aws/instance-tenancy, operator: NotIn, values: "
	    "[host]}\n");
	assert_int_equal(count("GS142", "a Lt"), 1);
	assert_int_equal(count("GS142", "b Gt"), 0);
	assert_int_equal(count("GS142", "c Gte has 0 values"), 1);
	assert_int_equal(count("GS143", NULL), 1);
	assert_int_equal(count("GS143", "e has minValues 3 but 1 value"), 1);
	assert_int_equal(count("GS147", NULL), 0); /* spot is known */
	assert_int_equal(count("GS148", NULL), 0); /* only In is judged */
}

static void
test_check__nodepool_taints_are_qualified_and_unique(void **state)
{
	(void)state;
	run("apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: p}\nspec:\n  "
	    "template:\n    spec:\n"
	    "      nodeClassRef: {group: g, kind: k, name: n}\n      requirements: []\n"
	    "      taints:\n"
	    "        - {key: nvidia.com/gpu, value: \"true\", effect: NoSchedule}\n"
	    "        - {key: a, value: \"a b\", effect: NoExecute}\n"
	    "        - {key: nvidia.com/gpu, value: other, effect: NoExecute}\n"
	    "      startupTaints:\n"
	    "        - {key: nvidia.com/gpu, effect: NoSchedule}\n");
	assert_int_equal(count("GS150", "\"a b\""), 1);
	assert_int_equal(count("GS150", "\"true\""), 0);
	/* same key, other effect: fine; same key and effect across lists: not */
	assert_int_equal(count("GS152", NULL), 1);
	assert_int_equal(count("GS152", "first at spec.template.spec.taints[0]"), 1);
}

static void
test_check__nodeconfig_ssm_and_iamra(void **state)
{
	(void)state;
	run("apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n"
	    "  cluster: {name: c, region: us-west-2}\n"
	    "  hybrid: {ssm: {activationCode: \"aaaaaaaaaaaaaaaaaaaa\", activationId: "
	    "4b2c1a3e-5d6f-4a7b-8c9d-0e1f2a3b4c5d}}\n"
	    "  kubelet: {flags: "
	    "[\"--node-labels=topology.kubernetes.io/zone=a,node.kubernetes.io/"
	    "x=y,gpu.model=h200\", "
	    "\"--register-with-taints=nvidia.com/gpu=Exists:NoSchedule,dedicated:NoExecute\"]}\n");
	assert_int_equal(D.count, 0);
	run("apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n"
	    "  cluster: {name: c, region: us-west-2}\n"
	    "  hybrid: {iamRolesAnywhere: {nodeName: gpu-a-01, trustAnchorArn: t, profileArn: p, "
	    "roleArn: r}}\n"
	    "  kubelet: {flags: [--hostname-override, gpu-a-01]}\n");
	assert_int_equal(count("GS156", "certificatePath is missing"), 1);
	assert_int_equal(count("GS156", "privateKeyPath is missing"), 1);
	assert_int_equal(count("GS157", "--hostname-override"), 1);
	assert_int_equal(count("GS154", NULL), 0);
	run("apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  cluster: {name: c, "
	    "region: r}\n  hybrid: {}\n");
	assert_int_equal(count("GS154", "Either IAMRolesAnywhere or SSM"), 1);
}

static void
test_check__activation_code_only_outside_the_configmap(void **state)
{
	(void)state;
	/* in the ConfigMap copy the code must be absent, and absent is right */
	run("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: gpusite-nodeconfig-s, namespace: "
	    "kube-system}\n"
	    "data:\n  g.yaml: |\n    apiVersion: node.eks.aws/v1alpha1\n    kind: NodeConfig\n"
	    "    spec:\n      cluster: {name: c, region: r}\n"
	    "      hybrid: {ssm: {activationId: 4b2c1a3e-5d6f-4a7b-8c9d-0e1f2a3b4c5d}}\n");
	assert_int_equal(D.count, 0);
	run("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: gpusite-nodeconfig-s, namespace: "
	    "kube-system}\n"
	    "data:\n  g.yaml: |\n    apiVersion: node.eks.aws/v1alpha1\n    kind: NodeConfig\n"
	    "    spec:\n      cluster: {name: c, region: r}\n"
	    "      hybrid: {ssm: {activationCode: aaaaaaaaaaaaaaaaaaaaaa, activationId: "
	    "4b2c1a3e-5d6f-4a7b-8c9d-0e1f2a3b4c5d}}\n");
	assert_int_equal(count("GS155", "published in the cluster stream"), 1);
	/* the diagnostic points at the data value and names the key */
	assert_int_equal(D.items[D.count - 1].at.line, 5);
	assert_non_null(strstr(D.items[D.count - 1].path, "g.yaml"));
	assert_non_null(strstr(D.items[D.count - 1].path, "spec.hybrid.ssm.activationCode"));
	/* a file given to the node needs it */
	run("apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  cluster: {name: c, "
	    "region: r}\n"
	    "  hybrid: {ssm: {activationId: 4b2c1a3e-5d6f-4a7b-8c9d-0e1f2a3b4c5d}}\n");
	assert_int_equal(count("GS155", "the SSM activation code is missing"), 1);
}

static void
test_check__prometheus_durations_and_groups(void **state)
{
	(void)state;
	run("apiVersion: monitoring.coreos.com/v1\nkind: PrometheusRule\nmetadata: {name: r, "
	    "namespace: m}\n"
	    "spec:\n  groups:\n"
	    "    - name: a\n      interval: 1h30m\n      rules:\n"
	    "        - {alert: A, expr: 'up == 0', for: 0}\n"
	    "        - {alert: B, expr: 'rate(x[5m]) > 0', for: 1m30s500ms}\n"
	    "        - {alert: C, expr: 'up', for: 5ms}\n"
	    "        - {alert: D, expr: 'up', for: 1m1h}\n"
	    "        - {record: 'job:up:sum', expr: 'sum(up) by (job)', for: 5m}\n"
	    "    - name: a\n      rules: []\n");
	assert_int_equal(count("GS159", "for \"1m1h\""), 1); /* units out of order */
	assert_int_equal(count("GS159", "for \"0\""), 0);
	assert_int_equal(count("GS159", "for \"5ms\""), 0);
	assert_int_equal(count("GS159", "for \"1m30s500ms\""), 0);
	assert_int_equal(count("GS159", "invalid field 'for' in recording rule"), 1);
	assert_int_equal(count("GS158", "used twice"), 1);
}

static void
test_check__application_pin(void **state)
{
	static const char *const bad[] = { "",         "HEAD", "latest", "^0.20.0",     "~0.20",
					   ">=0.20.0", "0.x",  "1.2.X",  "0.20 || 0.19" };
	static const char *const good[] = { "0.20.0", "v26.7.0", "1.0.0-rc.1", "2.1.0+build.5" };

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		size_t before = count("GS165", "targetRevision");

		run(arena_printf(&A,
				 "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: "
				 "{name: a, namespace: argocd}\n"
				 "spec:\n  project: default\n  source: {repoURL: r, chart: c, "
				 "targetRevision: \"%s\"}\n"
				 "  destination: {server: s, namespace: n}\n",
				 bad[i]));
		assert_int_equal(count("GS165", "targetRevision"), before + 1);
	}
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		size_t before = D.count;

		run(arena_printf(&A,
				 "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: "
				 "{name: a, namespace: argocd}\n"
				 "spec:\n  project: default\n  source: {repoURL: r, chart: c, "
				 "targetRevision: \"%s\"}\n"
				 "  destination: {server: s, namespace: n}\n",
				 good[i]));
		assert_int_equal(D.count, before);
	}
}

static void
test_check__policies(void **state)
{
	(void)state;
	/* a correct JSON patch pod policy: autogen off, CREATE only */
	assert_int_equal(
		run("apiVersion: policies.kyverno.io/v1\nkind: MutatingPolicy\nmetadata: {name: "
		    "p}\nspec:\n"
		    "  autogen: {podControllers: {controllers: []}}\n"
		    "  matchConstraints:\n    resourceRules: [{apiGroups: [\"\"], apiVersions: "
		    "[v1], operations: [CREATE], resources: [pods]}]\n"
		    "  matchConditions: [{name: gpu, expression: 'true'}]\n"
		    "  mutations:\n    - patchType: JSONPatch\n      jsonPatch: {expression: "
		    "'[JSONPatch{op: \"add\", path: \"/spec/affinity\", value: {}}]'}\n"),
		0);
	/* the same matching UPDATE too */
	run("apiVersion: policies.kyverno.io/v1\nkind: MutatingPolicy\nmetadata: {name: p}\nspec:\n"
	    "  autogen: {podControllers: {controllers: []}}\n"
	    "  matchConstraints:\n    resourceRules: [{apiGroups: [\"\"], apiVersions: [v1], "
	    "operations: [\"*\"], resources: [pods]}]\n"
	    "  matchConditions: [{name: gpu, expression: 'true'}, {name: gpu, expression: ''}]\n"
	    "  mutations:\n    - patchType: JSONPatch\n      jsonPatch: {expression: "
	    "'[JSONPatch{op: \"add\", path: \"/spec/affinity\", value: {}}]'}\n");
	assert_int_equal(count("GS167", "immutable"), 1);
	assert_int_equal(count("GS167", "used twice"), 1);
	assert_int_equal(count("GS167", "has no expression"), 1);
	/* ClusterPolicy: anchored affinity is fine, list overlay is not */
	run("apiVersion: kyverno.io/v1\nkind: ClusterPolicy\nmetadata: {name: c, annotations: "
	    "{pod-policies.kyverno.io/autogen-controllers: none}}\n"
	    "spec:\n  rules:\n    - name: a\n      match: {any: [{resources: {kinds: [Pod], "
	    "operations: [CREATE]}}]}\n"
	    "      mutate:\n        patchStrategicMerge:\n          spec:\n            affinity:\n "
	    "             nodeAffinity:\n"
	    "                +(preferredDuringSchedulingIgnoredDuringExecution): [{weight: 1}]\n"
	    "    - name: b\n      match: {any: [{resources: {kinds: [Pod], operations: "
	    "[CREATE]}}]}\n"
	    "      mutate:\n        patchStrategicMerge:\n          spec:\n            affinity:\n "
	    "             nodeAffinity:\n"
	    "                requiredDuringSchedulingIgnoredDuringExecution:\n                  "
	    "nodeSelectorTerms: [{}]\n");
	assert_int_equal(count("GS170", "preferredDuringScheduling"), 0);
	assert_int_equal(count("GS170", "nodeSelectorTerms"), 1);
	assert_int_equal(count("GS168", NULL), 0);
}

static void
test_check__bindings_name_policies_of_the_stream(void **state)
{
	(void)state;
	assert_int_equal(
		run("apiVersion: admissionregistration.k8s.io/v1\nkind: "
		    "MutatingAdmissionPolicy\nmetadata: {name: p}\n"
		    "spec:\n  reinvocationPolicy: IfNeeded\n"
		    "  matchConstraints: {resourceRules: [{apiGroups: [\"\"], apiVersions: [v1], "
		    "operations: [CREATE], resources: [pods]}]}\n"
		    "  mutations: [{patchType: JSONPatch, jsonPatch: {expression: '[]'}}]\n"
		    "---\napiVersion: admissionregistration.k8s.io/v1\nkind: "
		    "MutatingAdmissionPolicyBinding\nmetadata: {name: p}\n"
		    "spec: {policyName: p}\n"),
		0);
	run("apiVersion: admissionregistration.k8s.io/v1\nkind: "
	    "MutatingAdmissionPolicyBinding\nmetadata: {name: b}\n"
	    "spec: {policyName: nowhere}\n");
	assert_int_equal(count("GS169", "\"nowhere\""), 1);
}

static void
test_check__not_an_object(void **state)
{
	(void)state;
	run("just: a map\n");
	assert_int_equal(count("GS132", "not a Kubernetes object"), 1);
}

static void
test_check__kind_scope_by_group_and_kind(void **state)
{
	size_t before = count("GS242", NULL);

	(void)state;
	/* namespaced: Role, RoleBinding, Job (the NVIDIA charts' own) */
	run("apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: r, namespace: "
	    "gpu}\n"
	    "---\napiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: r, "
	    "namespace: gpu}\n"
	    "---\napiVersion: batch/v1\nkind: Job\nmetadata: {name: j, namespace: gpu}\n");
	assert_int_equal(count("GS242", NULL), before);
	run("apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\n");
	assert_int_equal(count("GS242", "Job j has no metadata.namespace"), 1);
	/* a level of its own: the table's warning, the object's other errors GS132 */
	assert_int_equal(level_of("GS242", "Job j has no metadata.namespace"), DIAG_WARNING);
	/* cluster-scoped, by group: both ClusterPolicy kinds */
	run("apiVersion: nvidia.com/v1\nkind: ClusterPolicy\nmetadata: {name: c, namespace: gpu}\n"
	    "---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: c, "
	    "namespace: gpu}\n");
	assert_int_equal(count("GS242", "ClusterPolicy is cluster-scoped"), 1);
	assert_int_equal(count("GS242", "ClusterRole is cluster-scoped"), 1);
	/* a Deployment outside apps, and a kind nobody knows: no opinion */
	before = count("GS242", NULL);
	run("apiVersion: example.com/v1\nkind: Deployment\nmetadata: {name: d}\n"
	    "---\napiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: gpu}\n");
	assert_int_equal(count("GS242", NULL), before);
}

/* A whole file into A (NULL when it cannot be read). */
static char *
slurp(const char *path)
{
	FILE *fp = fopen(path, "rb");
	char *text;
	long n;

	if (!fp)
		return NULL;
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	rewind(fp);
	text = arena_alloc(&A, (size_t)n + 1);
	if (fread(text, 1, (size_t)n, fp) != (size_t)n)
		text = NULL;
	else
		text[n] = '\0';
	fclose(fp);
	return text;
}

/* The kinds of Kubernetes itself ("" and *.k8s.io) have no CRD. */
static bool
builtin_group(const char *g)
{
	size_t n = strlen(g);

	return !n || (n > 7 && !strcmp(g + n - 7, ".k8s.io"));
}

/*
 * Every kind descriptor carries every fact the other modules read: the
 * API (group/version matching api_version, plural), a rank of the
 * stream, the upstream CRD of a custom resource (present under
 * ../shared/upstream, its spec.scope agreeing with `namespaced`), and a
 * checker in check/ or the reason there is none (never both).
 */
static void
test_check__every_kind_descriptor_is_complete(void **state)
{
	const struct render_api *const *apis;
	size_t n = render_apis(&apis);
	const char *top = getenv("TEST_TOP");
	const char *upstream = arena_printf(&A, "%s/../shared/upstream", top && *top ? top : ".");
	struct stat st;

	(void)state;
	/* the CRDs are read in place; without them that part is a visible skip
	 * (cmocka's skip() would be counted as a failure) */
	if (stat(upstream, &st) != 0) {
		upstream = NULL;
		printf("ok - every kind's CRD is upstream # SKIP ../shared/upstream not found\n");
	}
	assert_true(render_kinds_count > 0);
	for (size_t k = 0; k < render_kinds_count; k++) {
		const struct render_kind *rk = render_kinds[k];
		const char *want;

		assert_non_null(rk->kind);
		assert_non_null(rk->group);
		assert_non_null(rk->version);
		assert_non_null(rk->plural);
		want = *rk->group ? arena_printf(&A, "%s/%s", rk->group, rk->version) : rk->version;
		assert_string_equal(rk->api_version, want);
		assert_true(rk->rank >= RENDER_RANK_CONFIGMAP &&
			    rk->rank <= RENDER_RANK_PROMETHEUSRULE);
		assert_true(rk->render_site || rk->render_cluster);
		assert_true(!rk->more_count || rk->more);
	}
	assert_true(n >= render_kinds_count - 1); /* two descriptors share Application */
	for (size_t i = 0; i < n; i++) {
		const struct render_api *r = apis[i];
		bool checked = check_kind_checked(r->group, r->kind);

		assert_non_null(r->plural);
		assert_true(*r->plural &&
			    strspn(r->plural, "abcdefghijklmnopqrstuvwxyz0123456789") ==
				    strlen(r->plural));
		assert_true(r->live);
		/* a checker, or why not; a reason next to a checker is stale */
		assert_true(checked != (r->unchecked != NULL));
		if (builtin_group(r->group)) {
			assert_null(r->crd);
		} else {
			assert_non_null(r->crd);
		}
		if (r->crd && upstream) {
			const char *text = slurp(arena_printf(&A, "%s/%s", upstream, r->crd));

			assert_non_null(text);
			assert_non_null(strstr(text, arena_printf(&A, "kind: %s\n", r->kind)));
			assert_non_null(strstr(text, arena_printf(&A, "plural: %s\n", r->plural)));
			assert_non_null(strstr(text, r->namespaced ? "scope: Namespaced"
								   : "scope: Cluster"));
		}
		assert_ptr_equal(render_api_find(r->group, r->kind) != NULL, true);
	}
}

/* Every object of every render golden is of an API some descriptor lists. */
static void
test_check__every_rendered_golden_kind_has_a_descriptor(void **state)
{
	const struct render_api *const *apis;
	size_t n = render_apis(&apis), objects = 0;
	glob_t g;

	(void)state;
	assert_int_equal(glob("testdata/render/*/expected/stream.yaml", 0, NULL, &g), 0);
	assert_true(g.gl_pathc >= 10);
	for (size_t f = 0; f < g.gl_pathc; f++) {
		char *text = slurp(g.gl_pathv[f]);
		struct yamlio_docs docs;

		assert_non_null(text);
		docs = testutil_yaml_docs(g.gl_pathv[f], text, NULL);
		for (size_t i = 0; i < docs.count; i++) {
			const char *api = node_str(node_map_get(docs.docs[i], "apiVersion"));
			const char *kind = node_str(node_map_get(docs.docs[i], "kind"));
			bool found = false;

			if (!api || !kind)
				continue;
			for (size_t j = 0; j < n && !found; j++) {
				const char *av = *apis[j]->group
							 ? arena_printf(&A, "%s/%s", apis[j]->group,
									apis[j]->version)
							 : apis[j]->version;

				found = !strcmp(av, api) && !strcmp(apis[j]->kind, kind);
			}
			if (!found)
				print_error("%s: %s %s has no kind descriptor (render_kinds[])\n",
					    g.gl_pathv[f], api, kind);
			assert_true(found);
			objects++;
		}
	}
	globfree(&g);
	assert_true(objects > 50);
}

/* A CRD of example.com Widget whose spec takes the one field `field`. */
static const struct node *
widget_crd(const char *field)
{
	char text[1024];

	snprintf(text, sizeof(text),
		 "apiVersion: apiextensions.k8s.io/v1\n"
		 "kind: CustomResourceDefinition\n"
		 "spec:\n"
		 "  group: example.com\n"
		 "  names: {kind: Widget}\n"
		 "  versions:\n"
		 "  - name: v1\n"
		 "    schema:\n"
		 "      openAPIV3Schema:\n"
		 "        type: object\n"
		 "        properties:\n"
		 "          apiVersion: {type: string}\n"
		 "          kind: {type: string}\n"
		 "          metadata: {type: object}\n"
		 "          spec: {type: object, properties: {%s: {type: string}}}\n",
		 field);
	return docs_of(text).docs[0];
}

/* Two files defining one kind: the last wins, as kubectl apply -f DIR
 * would leave the cluster, and one note names both and the one used. */
static void
test_check__the_last_of_two_crds_wins(void **state)
{
	struct check_upstream *u = check_upstream_new(&A, "DIR");
	struct yamlio_docs obj = docs_of("apiVersion: example.com/v1\n"
					 "kind: Widget\n"
					 "metadata: {name: w}\n"
					 "spec: {second: x}\n"
					 "---\n"
					 "apiVersion: example.com/v1\n"
					 "kind: Widget\n"
					 "metadata: {name: w2}\n"
					 "spec: {first: x}\n");
	size_t before = D.count;

	(void)state;
	check_upstream_add_doc(u, &A, "DIR/a.yaml", widget_crd("first"));
	check_upstream_add_doc(u, &A, "DIR/b.yaml", widget_crd("second"));
	assert_int_equal(check_rendered(&A, &D, u, obj.docs, obj.count), -1);
	assert_int_equal(count("GS130", "unknown field 'first'"), 1);
	assert_int_equal(count("GS130", "unknown field 'second'"), 0);
	assert_int_equal(count("GS240", "example.com/v1 Widget is defined by 2 files of DIR "
					"(DIR/a.yaml, DIR/b.yaml): the last in file-name order, "
					"DIR/b.yaml, is used"),
			 1);
	assert_int_equal(level_of("GS240", "Widget is defined by 2 files"), DIAG_NOTE);
	assert_int_equal(D.count - before, 2);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		TESTUTIL_CASE(test_check__qualified_names_and_label_values),
		TESTUTIL_CASE(test_check__the_last_of_two_crds_wins),
		TESTUTIL_CASE(test_check__a_correct_nodepool_is_quiet),
		TESTUTIL_CASE(test_check__nodepool_label_domains_follow_cel_find_endswith),
		TESTUTIL_CASE(test_check__nodepool_requirement_rules),
		TESTUTIL_CASE(test_check__nodepool_taints_are_qualified_and_unique),
		TESTUTIL_CASE(test_check__nodeconfig_ssm_and_iamra),
		TESTUTIL_CASE(test_check__activation_code_only_outside_the_configmap),
		TESTUTIL_CASE(test_check__prometheus_durations_and_groups),
		TESTUTIL_CASE(test_check__application_pin),
		TESTUTIL_CASE(test_check__policies),
		TESTUTIL_CASE(test_check__bindings_name_policies_of_the_stream),
		TESTUTIL_CASE(test_check__not_an_object),
		TESTUTIL_CASE(test_check__kind_scope_by_group_and_kind),
		TESTUTIL_CASE(test_check__every_kind_descriptor_is_complete),
		TESTUTIL_CASE(test_check__every_rendered_golden_kind_has_a_descriptor),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
