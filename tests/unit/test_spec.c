/*
 * test_spec.c - the typed model: every default the schema states (docs/spec.md), Go
 * durations, counts from node names, sorted labels, positions, fleet.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "base/arena.h"
#include "spec/spec.h"
#include "yamlio/yamlio.h"

#include "testutil.h"

/* Only what the schema requires; everything else must come from defaults. */
#define MINIMAL                                                                                    \
	"apiVersion: gpusite.io/v1alpha1\n"                                                        \
	"kind: GPUSite\n"                                                                          \
	"metadata:\n"                                                                              \
	"  name: lab\n"                                                                            \
	"spec:\n"                                                                                  \
	"  cluster: {name: lab-cluster, region: us-west-2}\n"                                      \
	"  nodeGroups:\n"                                                                          \
	"  - name: rack-a\n"                                                                       \
	"    gpu: {model: h200, perNode: 8}\n"                                                     \
	"    nodes: [gpu-02, gpu-01, gpu-03]\n"                                                    \
	"    credentials:\n"                                                                       \
	"      iamRolesAnywhere: {trustAnchorArn: ta, profileArn: pa, roleArn: ra}\n"              \
	"    labels: {zeta: z, alpha: a, mid.example.com/m: m}\n"                                  \
	"  gpuStack: {chart: {version: 0.20.0}}\n"                                                 \
	"  fallback: {instanceTypes: [g6e.12xlarge], gpuLimit: 8}\n"

static struct node *
doc_of(const char *file, const char *yaml)
{
	struct yamlio_docs docs = testutil_yaml_docs(file, yaml, &yamlio_default_limits);

	assert_int_equal(docs.count, 1);
	return docs.docs[0];
}

static struct spec_site *
site_of(const char *yaml)
{
	struct spec_site *s = spec_load(&A, &D, doc_of("sites/lab.yaml", yaml));

	assert_non_null(s);
	return s;
}

static void
test_spec__defaults_applied(void **state)
{
	struct spec_site *s;
	const struct spec_node_group *g;

	(void)state;
	s = site_of(MINIMAL);
	assert_int_equal(D.count, 0);
	assert_string_equal(s->name, "lab");
	assert_string_equal(s->file, "sites/lab.yaml");
	/* cluster */
	assert_int_equal(s->cluster.provisioner, PROV_KARPENTER);
	assert_null(s->cluster.kubernetes_version);
	assert_int_equal(s->cluster.kube_minor, 36);
	assert_true(s->cluster.kube_version_assumed);
	/* gpuTaint */
	assert_string_equal(s->gpu_taint.key, "nvidia.com/gpu");
	assert_string_equal(s->gpu_taint.value, "Exists");
	assert_string_equal(s->gpu_taint.effect, "NoSchedule");
	/* node group and IAM Roles Anywhere paths */
	assert_int_equal(s->group_count, 1);
	g = &s->groups[0];
	assert_int_equal(g->credentials, CRED_IAMRA);
	assert_string_equal(g->iamra.certificate_path, "/etc/iam/pki/server.pem");
	assert_string_equal(g->iamra.private_key_path, "/etc/iam/pki/server.key");
	assert_string_equal(g->iamra.role_arn, "ra");
	assert_int_equal(g->gpus_per_node, 8);
	assert_string_equal(g->gpu_model, "h200");
	assert_int_equal(g->taint_count, 0);
	assert_int_equal(g->kubelet_flag_count, 0);
	assert_null(g->kubelet_config);
	/* gpuStack: device-plugin */
	assert_int_equal(s->gpu_stack.type, STACK_DEVICE_PLUGIN);
	assert_string_equal(s->gpu_stack.chart.repo_url,
			    "https://nvidia.github.io/k8s-device-plugin");
	assert_string_equal(s->gpu_stack.chart.name, "nvidia-device-plugin");
	assert_string_equal(s->gpu_stack.chart.namespace, "nvidia-device-plugin");
	assert_string_equal(s->gpu_stack.chart.version, "0.20.0");
	assert_true(s->gpu_stack.gfd);
	assert_false(s->gpu_stack.dcgm_exporter);
	assert_false(s->gpu_stack.dcgm_exporter_set);
	assert_false(s->gpu_stack.toolkit);
	assert_null(s->gpu_stack.values);
	/* fallback: karpenter */
	assert_true(s->fallback.enabled);
	/* names not written stay NULL: the inventory derives them */
	assert_null(s->fallback.node_pool_name);
	assert_null(s->fallback.node_class_name);
	assert_int_equal(s->fallback.capacity_type, CAP_ON_DEMAND);
	assert_true(s->fallback.gpu_limit_set);
	assert_int_equal(s->fallback.gpu_limit, 8);
	assert_int_equal(s->fallback.min_gpu_memory_mib, 0);
	assert_int_equal(s->fallback.expire_after.seconds, 720 * 3600);
	assert_string_equal(s->fallback.expire_after.text, "720h");
	assert_false(s->fallback.expire_after.set);
	assert_false(s->fallback.expire_after.never);
	assert_string_equal(s->fallback.consolidation_policy, "WhenEmptyOrUnderutilized");
	assert_int_equal(s->fallback.consolidate_after.seconds, 300);
	assert_false(s->fallback.consolidate_after.set);
	assert_int_equal(s->fallback.zone_count, 0);
	assert_int_equal(s->fallback.instance_type_count, 1);
	assert_string_equal(s->fallback.instance_types[0], "g6e.12xlarge");
	/* placement */
	assert_int_equal(s->placement.mode, PLACE_PREFER_ONPREM);
	assert_int_equal(s->placement.weight, 100);
	assert_int_equal(s->placement.engine, ENGINE_KYVERNO);
	assert_int_equal(s->placement.namespace_count, 0);
	assert_null(s->placement.pod_selector);
	assert_int_equal(s->placement.not_ready_toleration_seconds, 300);
	assert_int_equal(s->placement.unreachable_toleration_seconds, 300);
	assert_false(s->placement.single_writer);
	assert_int_equal(s->placement.fencing, FENCE_NONE);
	/* recovery: block absent, grace period still defaulted */
	assert_false(s->recovery.set);
	assert_false(s->recovery.target_rto.set);
	assert_int_equal(s->recovery.node_monitor_grace_period.seconds, 50);
	assert_int_equal(s->recovery.node_provisioning.seconds, 0);
	/* alerts, argocd */
	assert_true(s->alerts.enabled);
	assert_string_equal(s->alerts.namespace, "monitoring");
	assert_int_equal(s->alerts.label_count, 0);
	assert_string_equal(s->argocd.namespace, "argocd");
	assert_string_equal(s->argocd.project, "default");
	assert_string_equal(s->argocd.destination_server, "https://kubernetes.default.svc");
}

static void
test_spec__defaults_follow_provisioner_and_stack(void **state)
{
	struct spec_site *s;

	(void)state;
	s = site_of("apiVersion: gpusite.io/v1alpha1\nkind: GPUSite\n"
		    "metadata: {name: fra}\n"
		    "spec:\n"
		    "  cluster: {name: c, region: eu-central-1, provisioner: auto-mode,"
		    " kubernetesVersion: \"1.34\"}\n"
		    "  nodeGroups:\n"
		    "  - name: g\n"
		    "    gpu: {model: l40s, perNode: 4}\n"
		    "    count: 2\n"
		    "    credentials: {ssm: {activationId: id, activationCodeEnv: CODE}}\n"
		    "  gpuStack: {type: gpu-operator, chart: {version: v26.7.0}}\n"
		    "  fallback: {instanceTypes: [g6e.12xlarge], gpuLimit: 8}\n"
		    "  recovery: {targetRTO: 15m}\n");
	assert_int_equal(s->cluster.provisioner, PROV_AUTO_MODE);
	assert_int_equal(s->cluster.kube_minor, 34);
	assert_false(s->cluster.kube_version_assumed);
	assert_null(s->fallback.node_class_name);
	assert_int_equal(s->fallback.expire_after.seconds, 336 * 3600);
	assert_string_equal(s->fallback.expire_after.text, "336h");
	assert_null(s->fallback.node_pool_name);
	assert_int_equal(s->gpu_stack.type, STACK_GPU_OPERATOR);
	assert_string_equal(s->gpu_stack.chart.repo_url, "https://helm.ngc.nvidia.com/nvidia");
	assert_string_equal(s->gpu_stack.chart.name, "gpu-operator");
	assert_string_equal(s->gpu_stack.chart.namespace, "gpu-operator");
	assert_true(s->gpu_stack.dcgm_exporter); /* default with the operator */
	assert_false(s->gpu_stack.dcgm_exporter_set);
	assert_false(s->gpu_stack.toolkit);
	assert_int_equal(s->groups[0].credentials, CRED_SSM);
	assert_string_equal(s->groups[0].ssm.activation_code_env, "CODE");
	assert_int_equal(s->groups[0].count, 2);
	assert_true(s->groups[0].count_set);
	assert_true(s->recovery.set);
	assert_true(s->recovery.target_rto.set);
	assert_int_equal(s->recovery.target_rto.seconds, 900);
	assert_int_equal(s->recovery.node_monitor_grace_period.seconds, 50);
	assert_false(s->recovery.node_monitor_grace_period.set);
}

static void
test_spec__written_values_win(void **state)
{
	struct spec_site *s;

	(void)state;
	s = site_of("apiVersion: gpusite.io/v1alpha1\nkind: GPUSite\n"
		    "metadata: {name: w}\n"
		    "spec:\n"
		    "  cluster: {name: c, region: us-west-2}\n"
		    "  gpuTaint: {key: example.com/gpu, value: \"\", effect: NoExecute}\n"
		    "  nodeGroups:\n"
		    "  - name: g\n"
		    "    gpu: {model: h100, perNode: 8}\n"
		    "    count: 1\n"
		    "    credentials: {ssm: {activationId: id, activationCodeEnv: CODE},"
		    " iamRolesAnywhere: {roleArn: r}}\n"
		    "    taints: [{key: a, value: b, effect: NoSchedule}]\n"
		    "    kubelet: {flags: [--max-pods=110], config: {maxPods: 110}}\n"
		    "  gpuStack: {gfd: false, dcgmExporter: false, toolkit: true,"
		    " chart: {version: 1.0.0, repoURL: oci://r, name: n, namespace: ns},"
		    " values: {a: 1}}\n"
		    "  fallback: {enabled: false, nodePoolName: p, nodeClassName: k,"
		    " capacityType: reserved, minGpuMemoryMiB: 40000, expireAfter: Never,"
		    " consolidationPolicy: WhenEmpty, consolidateAfter: 1h30m,"
		    " zones: [z1, z2]}\n"
		    "  placement: {mode: require-onprem, weight: 7, engine: none,"
		    " namespaces: [x, y], podSelector: {matchLabels: {a: b}},"
		    " notReadyTolerationSeconds: 10, unreachableTolerationSeconds: 20,"
		    " singleWriter: true, fencing: statefulset}\n"
		    "  alerts: {enabled: false, namespace: obs, labels: {b: 2, a: 1}}\n"
		    "  argocd: {namespace: cd, project: p, destinationServer: https://x}\n");
	assert_string_equal(s->gpu_taint.key, "example.com/gpu");
	assert_string_equal(s->gpu_taint.value, "");
	assert_string_equal(s->gpu_taint.effect, "NoExecute");
	assert_int_equal(s->groups[0].credentials, CRED_BOTH);
	assert_int_equal(s->groups[0].taint_count, 1);
	assert_string_equal(s->groups[0].taints[0].value, "b");
	assert_int_equal(s->groups[0].kubelet_flag_count, 1);
	assert_string_equal(s->groups[0].kubelet_flags[0], "--max-pods=110");
	assert_non_null(s->groups[0].kubelet_config);
	assert_false(s->gpu_stack.gfd);
	assert_false(s->gpu_stack.dcgm_exporter);
	assert_true(s->gpu_stack.dcgm_exporter_set);
	assert_true(s->gpu_stack.toolkit);
	assert_string_equal(s->gpu_stack.chart.repo_url, "oci://r");
	assert_string_equal(s->gpu_stack.chart.name, "n");
	assert_string_equal(s->gpu_stack.chart.namespace, "ns");
	assert_non_null(s->gpu_stack.values);
	assert_false(s->fallback.enabled);
	assert_string_equal(s->fallback.node_pool_name, "p");
	assert_string_equal(s->fallback.node_class_name, "k");
	assert_int_equal(s->fallback.capacity_type, CAP_RESERVED);
	assert_false(s->fallback.gpu_limit_set);
	assert_int_equal(s->fallback.min_gpu_memory_mib, 40000);
	assert_true(s->fallback.expire_after.never);
	assert_true(s->fallback.expire_after.set);
	assert_string_equal(s->fallback.consolidation_policy, "WhenEmpty");
	assert_int_equal(s->fallback.consolidate_after.seconds, 5400);
	assert_int_equal(s->fallback.zone_count, 2);
	assert_int_equal(s->placement.mode, PLACE_REQUIRE_ONPREM);
	assert_int_equal(s->placement.weight, 7);
	assert_int_equal(s->placement.engine, ENGINE_NONE);
	assert_int_equal(s->placement.namespace_count, 2);
	assert_non_null(s->placement.pod_selector);
	assert_int_equal(s->placement.not_ready_toleration_seconds, 10);
	assert_int_equal(s->placement.unreachable_toleration_seconds, 20);
	assert_true(s->placement.single_writer);
	assert_int_equal(s->placement.fencing, FENCE_STATEFULSET);
	assert_false(s->alerts.enabled);
	assert_string_equal(s->alerts.namespace, "obs");
	assert_int_equal(s->alerts.label_count, 2);
	assert_string_equal(s->alerts.labels[0].key, "a");
	assert_string_equal(s->alerts.labels[0].value, "1");
	assert_string_equal(s->argocd.namespace, "cd");
	assert_string_equal(s->argocd.project, "p");
	assert_string_equal(s->argocd.destination_server, "https://x");
}

static void
test_spec__count_from_nodes(void **state)
{
	struct spec_site *s;

	(void)state;
	s = site_of(MINIMAL);
	assert_int_equal(s->groups[0].node_count, 3);
	assert_int_equal(s->groups[0].count, 3);
	assert_false(s->groups[0].count_set);
	/* names keep spec order and their source positions */
	assert_string_equal(s->groups[0].nodes[0], "gpu-02");
	assert_string_equal(s->groups[0].nodes[2], "gpu-03");
	assert_int_equal(s->groups[0].node_srcs[0]->at.line, 10);
	assert_int_equal(s->groups[0].node_srcs[0]->at.col, 13);
	assert_int_equal(s->groups[0].node_srcs[1]->at.col, 21);
	assert_int_equal(spec_site_onprem_gpus(s), 24);
}

static void
test_spec__labels_sorted_by_key(void **state)
{
	struct spec_site *s;
	const struct spec_node_group *g;

	(void)state;
	s = site_of(MINIMAL);
	g = &s->groups[0];
	assert_int_equal(g->label_count, 3);
	assert_string_equal(g->labels[0].key, "alpha");
	assert_string_equal(g->labels[1].key, "mid.example.com/m");
	assert_string_equal(g->labels[2].key, "zeta");
	assert_string_equal(g->labels[2].value, "z");
	/* src is the value node: line 13 "    labels: {zeta: z, ..." */
	assert_int_equal(g->labels[2].src->at.line, 13);
	assert_int_equal(g->labels[2].src->at.col, 20);
}

static void
test_spec__field_pos(void **state)
{
	struct spec_site *s;
	struct pos p;

	(void)state;
	s = site_of(MINIMAL);
	p = spec_field_pos(s->fallback.src, "gpuLimit");
	assert_string_equal(p.file, "sites/lab.yaml");
	assert_int_equal(p.line, 15);
	assert_int_equal(p.col, 55);
	/* absent key: the mapping itself */
	p = spec_field_pos(s->fallback.src, "zones");
	assert_int_equal(p.line, s->fallback.src->at.line);
	assert_int_equal(p.col, s->fallback.src->at.col);
	/* no mapping at all */
	p = spec_field_pos(NULL, "x");
	assert_int_equal(p.line, 0);
}

struct duration_case {
	const char *text;
	bool never_ok;
	int ret;
	int64_t seconds;
	bool never;
};

static void
test_spec__durations_parse_table(void **state)
{
	static const struct duration_case cases[] = {
		{ "90s", false, 0, 90, false },
		{ "5m", false, 0, 300, false },
		{ "1h30m", false, 0, 5400, false },
		{ "720h", false, 0, 2592000, false },
		{ "1h1m1s", false, 0, 3661, false },
		{ "2m30s", false, 0, 150, false },
		{ "1.5h", false, 0, 5400, false },
		{ ".5m", false, 0, 30, false },
		{ "1500ms", false, 0, 2, false }, /* rounded up */
		{ "1ns", false, 0, 1, false },
		{ "999us", false, 0, 1, false },
		{ "1\xc2\xb5s", false, 0, 1, false },
		{ "0", false, 0, 0, false },
		{ "0s", false, 0, 0, false },
		{ "+5m", false, 0, 300, false },
		{ "1m1m", false, 0, 120, false }, /* Go sums repeated units */
		{ "Never", true, 0, 0, true },
		{ "Never", false, -1, 0, false },
		{ "never", true, -1, 0, false },
		{ "", false, -1, 0, false },
		{ "5", false, -1, 0, false },  /* missing unit */
		{ "5d", false, -1, 0, false }, /* unknown unit */
		{ "m", false, -1, 0, false },
		{ ".s", false, -1, 0, false },
		{ "-5m", false, -1, 0, false }, /* no negative durations */
		{ "5m ", false, -1, 0, false },
		{ " 5m", false, -1, 0, false },
		{ "5 m", false, -1, 0, false },
		{ "1h-5m", false, -1, 0, false },
		{ "3000000h", false, -1, 0, false }, /* past Go's 292 years */
		{ "99999999999999999999s", false, -1, 0, false },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct spec_duration d;
		int r = spec_parse_duration(cases[i].text, cases[i].never_ok, &d);

		if (r != cases[i].ret)
			fail_msg("'%s': returned %d, want %d", cases[i].text, r, cases[i].ret);
		if (r)
			continue;
		if (d.seconds != cases[i].seconds || d.never != cases[i].never)
			fail_msg("'%s': %lld s never=%d, want %lld never=%d", cases[i].text,
				 (long long)d.seconds, d.never, (long long)cases[i].seconds,
				 cases[i].never);
		assert_true(d.set);
		assert_string_equal(d.text, cases[i].text);
	}
}

static void
test_spec__duration_format_like_go(void **state)
{
	static const struct {
		int64_t s;
		const char *want;
	} cases[] = {
		{ 0, "0s" },         { 50, "50s" },           { 60, "1m0s" },
		{ 300, "5m0s" },     { 1010, "16m50s" },      { 3600, "1h0m0s" },
		{ 5400, "1h30m0s" }, { 2592000, "720h0m0s" }, { 3661, "1h1m1s" },
	};
	char buf[SPEC_DURATION_BUFSZ];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		spec_duration_format(buf, sizeof(buf), cases[i].s);
		assert_string_equal(buf, cases[i].want);
	}
}

static void
test_spec__bad_duration_is_reported(void **state)
{
	struct spec_site *s;

	(void)state;
	/* the schema pattern lets this through; the digits overflow */
	s = site_of("apiVersion: gpusite.io/v1alpha1\nkind: GPUSite\n"
		    "metadata: {name: x}\n"
		    "spec:\n"
		    "  cluster: {name: c, region: us-west-2}\n"
		    "  nodeGroups: []\n"
		    "  gpuStack: {chart: {version: 1.0.0}}\n"
		    "  fallback: {expireAfter: 99999999999h}\n");
	assert_int_equal(D.count, 1);
	assert_string_equal(D.items[0].rule, "GS003");
	assert_int_equal(D.items[0].at.line, 8);
	assert_int_equal(D.items[0].at.col, 27);
	assert_string_equal(D.items[0].path, "spec.fallback.expireAfter");
	/* the default stands in */
	assert_int_equal(s->fallback.expire_after.seconds, 720 * 3600);
	assert_false(s->fallback.expire_after.set);
}

static void
test_spec__not_a_gpusite(void **state)
{
	(void)state;
	assert_null(spec_load(
		&A, &D,
		doc_of("sites/x.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n")));
	assert_int_equal(D.count, 1);
	assert_string_equal(D.items[0].rule, "GS003");
	assert_null(spec_load(&A, &D, doc_of("sites/y.yaml", "- a\n- b\n")));
	assert_null(spec_load(&A, &D, NULL));
}

static void
test_spec__fleet_sort_and_find(void **state)
{
	struct spec_fleet f = { NULL, 0, 0 };
	const char *names[] = { "zeta", "alpha", "mid", "alpha" };
	const char *files[] = { "sites/a.yaml", "sites/z.yaml", "sites/m.yaml", "sites/b.yaml" };
	size_t i;

	(void)state;
	for (i = 0; i < 4; i++) {
		char *y = arena_printf(&A,
				       "apiVersion: gpusite.io/v1alpha1\n"
				       "kind: GPUSite\nmetadata: {name: %s}\n"
				       "spec: {cluster: {name: c}}\n",
				       names[i]);

		spec_fleet_add(&A, &f, spec_load(&A, &D, doc_of(files[i], y)));
	}
	assert_int_equal(f.count, 4);
	spec_fleet_sort(&f);
	assert_string_equal(f.sites[0]->name, "alpha");
	assert_string_equal(f.sites[0]->file, "sites/b.yaml");
	assert_string_equal(f.sites[1]->file, "sites/z.yaml");
	assert_string_equal(f.sites[2]->name, "mid");
	assert_string_equal(f.sites[3]->name, "zeta");
	assert_ptr_equal(spec_fleet_find(&f, "mid"), f.sites[2]);
	assert_null(spec_fleet_find(&f, "nope"));
}

static void
test_spec__names(void **state)
{
	(void)state;
	assert_string_equal(spec_engine_name(ENGINE_MAP), "mutating-admission-policy");
	assert_string_equal(spec_engine_name(ENGINE_KYVERNO_CLUSTERPOLICY),
			    "kyverno-clusterpolicy");
	assert_string_equal(spec_stack_type_name(STACK_DEVICE_PLUGIN), "device-plugin");
	assert_string_equal(spec_provisioner_name(PROV_AUTO_MODE), "auto-mode");
	assert_string_equal(spec_capacity_name(CAP_SPOT), "spot");
	assert_string_equal(spec_placement_mode_name(PLACE_REQUIRE_ONPREM), "require-onprem");
	assert_string_equal(spec_fencing_name(FENCE_LEASE), "lease");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		TESTUTIL_CASE(test_spec__defaults_applied),
		TESTUTIL_CASE(test_spec__defaults_follow_provisioner_and_stack),
		TESTUTIL_CASE(test_spec__written_values_win),
		TESTUTIL_CASE(test_spec__count_from_nodes),
		TESTUTIL_CASE(test_spec__labels_sorted_by_key),
		TESTUTIL_CASE(test_spec__field_pos),
		TESTUTIL_CASE(test_spec__durations_parse_table),
		TESTUTIL_CASE(test_spec__duration_format_like_go),
		TESTUTIL_CASE(test_spec__bad_duration_is_reported),
		TESTUTIL_CASE(test_spec__not_a_gpusite),
		TESTUTIL_CASE(test_spec__fleet_sort_and_find),
		TESTUTIL_CASE(test_spec__names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
