#!/bin/sh
# t2213: the rendered alerts, evaluated by Prometheus' own rule engine
# (promtool test rules) on the series kube-state-metrics v2.20 exports.
# A default kube-state-metrics exports kube_node_status_condition for every
# node but no kube_node_labels series at all (those need
# --metric-labels-allowlist), so:
#   - default install: GPUSiteOnPremNodeNotReady fires for a NotReady node
#     the spec names (gpu-a-01, by name), and GPUSiteNodeLabelsMissing says
#     that the SSM group rack-b (named at activation) cannot be watched;
#   - with the allowlist: the NotReady SSM node fires too, a NotReady cloud
#     fallback node (site label, no node-group label) does not, and the
#     labels-missing alert is quiet;
#   - node names are regex-escaped: gpu.a-01 does not match gpuxa-01.
# Every expected alert is exact: labels and the expanded annotations.
. "$TEST_TOP/tests/lib.sh"

fleet="$TEST_TOP/testdata/fleet"
if ! command -v promtool >/dev/null; then
	test_skip "alerts under promtool test rules" "promtool not found (Debian package prometheus; make deps)"
	test_done
	exit
fi

# rules STREAM SITE OUT: the groups of the site's PrometheusRule as a rules file
cat >"$SCRATCH/rules.py" <<'PY'
import sys, yaml
stream, site, out = sys.argv[1:4]
pr = [d for d in yaml.safe_load_all(open(stream)) if d and d["kind"] == "PrometheusRule"
      and d["metadata"]["name"] == "gpusite-" + site]
assert len(pr) == 1, len(pr)
yaml.safe_dump({"groups": pr[0]["spec"]["groups"]}, open(out, "w"), sort_keys=False, width=1 << 20)
PY

# tests RULES SCENARIO OUT: a promtool test file; each expected alert's
# annotations are the rule's templates expanded with its labels.
cat >"$SCRATCH/tests.py" <<'PY'
import json, sys, yaml
rules_file, scenario, out = sys.argv[1:4]
sc = json.loads(scenario)
rules = {r["alert"]: r for g in yaml.safe_load(open(rules_file))["groups"] for r in g["rules"]}
def expand(s, labels):
    for k, v in labels.items():
        s = s.replace("{{ $labels.%s }}" % k, v)
    assert "{{" not in s, s
    return s
series = []
for s in sc["series"]:
    series.append({"series": s[0], "values": s[1]})
cases = []
for name, alerts in sc["expect"].items():
    exp = []
    for labels in alerts:
        r = rules[name]
        full = dict(labels, **r["labels"])
        exp.append({"exp_labels": full,
                    "exp_annotations": {k: expand(v, labels) for k, v in r["annotations"].items()}})
    cases.append({"eval_time": sc["at"], "alertname": name, "exp_alerts": exp})
yaml.safe_dump({"rule_files": [rules_file], "evaluation_interval": "1m",
                "tests": [{"interval": "1m", "input_series": series, "alert_rule_test": cases}]},
               open(out, "w"), sort_keys=False)
PY

# escaped.py RULES: the NotReady expression names gpu.a-01 as the regex gpu\.a-01
cat >"$SCRATCH/escaped.py" <<'PY'
import sys, yaml
rules = yaml.safe_load(open(sys.argv[1]))["groups"][0]["rules"]
expr = [r["expr"] for r in rules if r["alert"] == "GPUSiteOnPremNodeNotReady"][0]
print(expr)
assert 'node=~"gpu\\\\.a-01|gpu-a-02"' in expr
PY

ready() { # NODE VALUES_TRUE VALUES_FALSE: the Ready condition series of a node
	printf '["kube_node_status_condition{condition=\\"Ready\\",status=\\"true\\",node=\\"%s\\"}", "%s"],' "$1" "$2"
	printf '["kube_node_status_condition{condition=\\"Ready\\",status=\\"false\\",node=\\"%s\\"}", "%s"]' "$1" "$3"
}
notready="1 1 0x30" ready_v="1x32" zero="0x32" one="0 0 1x30"
ssm=mi-0a1b2c3d4e5f60718 cloud=ip-10-0-1-5.ec2.internal

test_expect_success "render the fleet's alerts; promtool accepts the rules" '
	"$GPUSITE" render "$fleet" >"$SCRATCH/fleet.yaml" &&
	python3 "$SCRATCH/rules.py" "$SCRATCH/fleet.yaml" seoul-dc1 "$SCRATCH/seoul.rules.yaml" &&
	promtool check rules "$SCRATCH/seoul.rules.yaml"
'
test_expect_success "an all-named site never needs kube_node_labels" '
	python3 "$SCRATCH/rules.py" "$SCRATCH/fleet.yaml" frankfurt-lab "$SCRATCH/fra.rules.yaml" &&
	grep -q "GPUSiteOnPremNodeNotReady" "$SCRATCH/fra.rules.yaml" &&
	! grep -q "kube_node_labels" "$SCRATCH/fra.rules.yaml" &&
	! grep -q "GPUSiteNodeLabelsMissing" "$SCRATCH/fra.rules.yaml"
'

series_default="$(ready gpu-a-01 "$notready" "$one"),$(ready gpu-a-02 "$ready_v" "$zero"),$(ready $ssm "$notready" "$one"),$(ready $cloud "$notready" "$one")"
test_expect_success "default kube-state-metrics: the named NotReady node fires, the SSM gap is reported" "
	python3 '$SCRATCH/tests.py' '$SCRATCH/seoul.rules.yaml' '{
		\"series\": [$series_default], \"at\": \"20m\",
		\"expect\": {
			\"GPUSiteOnPremNodeNotReady\": [{\"condition\": \"Ready\", \"status\": \"true\", \"node\": \"gpu-a-01\"}],
			\"GPUSiteNodeLabelsMissing\": [{\"label_gpusite_io_site\": \"seoul-dc1\", \"label_gpusite_io_node_group\": \"rack-b\"}]}}' \
		'$SCRATCH/default.test.yaml' &&
	promtool test rules '$SCRATCH/default.test.yaml'
"
test_expect_success "before its for: 1m nothing fires" "
	python3 '$SCRATCH/tests.py' '$SCRATCH/seoul.rules.yaml' '{
		\"series\": [$series_default], \"at\": \"2m\",
		\"expect\": {\"GPUSiteOnPremNodeNotReady\": [], \"GPUSiteNodeLabelsMissing\": []}}' \
		'$SCRATCH/early.test.yaml' &&
	promtool test rules '$SCRATCH/early.test.yaml'
"

labels="[\"kube_node_labels{node=\\\"$ssm\\\",label_gpusite_io_site=\\\"seoul-dc1\\\",label_gpusite_io_node_group=\\\"rack-b\\\"}\", \"1x32\"],[\"kube_node_labels{node=\\\"$cloud\\\",label_gpusite_io_site=\\\"seoul-dc1\\\"}\", \"1x32\"]"
test_expect_success "with the allowlist: the SSM node fires too, the cloud node does not" "
	python3 '$SCRATCH/tests.py' '$SCRATCH/seoul.rules.yaml' '{
		\"series\": [$series_default,$labels], \"at\": \"20m\",
		\"expect\": {
			\"GPUSiteOnPremNodeNotReady\": [{\"condition\": \"Ready\", \"status\": \"true\", \"node\": \"gpu-a-01\"},
				{\"condition\": \"Ready\", \"status\": \"true\", \"node\": \"$ssm\"}],
			\"GPUSiteNodeLabelsMissing\": []}}' \
		'$SCRATCH/allowlist.test.yaml' &&
	promtool test rules '$SCRATCH/allowlist.test.yaml'
"

test_expect_success "node names are regex-escaped: gpu.a-01 does not match gpuxa-01" "
	rm -rf '$SCRATCH/dots' && cp -R '$fleet' '$SCRATCH/dots' &&
	sed 's/nodes: \[gpu-a-01, gpu-a-02\]/nodes: [gpu.a-01, gpu-a-02]/' '$fleet/sites/seoul-dc1.yaml' \
		>'$SCRATCH/dots/sites/seoul-dc1.yaml' &&
	grep -q 'gpu.a-01' '$SCRATCH/dots/sites/seoul-dc1.yaml' &&
	'$GPUSITE' render '$SCRATCH/dots' >'$SCRATCH/dots.yaml' 2>/dev/null &&
	python3 '$SCRATCH/rules.py' '$SCRATCH/dots.yaml' seoul-dc1 '$SCRATCH/dots.rules.yaml' &&
	python3 '$SCRATCH/escaped.py' '$SCRATCH/dots.rules.yaml' &&
	python3 '$SCRATCH/tests.py' '$SCRATCH/dots.rules.yaml' '{
		\"series\": [$(ready gpuxa-01 "$notready" "$one"),$(ready gpu.a-01 "$notready" "$one"),$labels], \"at\": \"20m\",
		\"expect\": {\"GPUSiteOnPremNodeNotReady\": [{\"condition\": \"Ready\", \"status\": \"true\", \"node\": \"gpu.a-01\"}]}}' \
		'$SCRATCH/dots.test.yaml' &&
	promtool test rules '$SCRATCH/dots.test.yaml'
"
test_expect_success "the NotReady annotation says what it watches" '
	grep -F "Watches nodes gpu-a-01 and gpu-a-02 by name (kube_node_status_condition, no kube-state-metrics flag needed) and the SSM nodes of node group rack-b by their gpusite.io/site and gpusite.io/node-group labels (kube_node_labels, which kube-state-metrics exports only when started with --metric-labels-allowlist=nodes=[gpusite.io/site,gpusite.io/node-group])." \
		"$SCRATCH/seoul.rules.yaml"
'
# A failover timeline of one GPU pod of seoul-dc1 (nodeProvisioning 4m,
# imagePull 6m, margin 2m): unschedulable while the fallback node boots,
# Pending while its image is pulled.  GPUSitePodsPending waits 12m and
# GPUSiteFallbackLaunchFailing 6m, so a normal failover pages nobody.
pod() { # PHASE_PENDING UNSCHEDULABLE: the series of pod inference/m-0
	printf '["kube_pod_status_phase{phase=\\"Pending\\",namespace=\\"inference\\",pod=\\"m-0\\"}", "%s"],' "$1"
	printf '["kube_pod_container_resource_requests{resource=\\"nvidia_com_gpu\\",namespace=\\"inference\\",pod=\\"m-0\\",container=\\"c\\"}", "1x40"]'
	[ -z "$2" ] || printf ',["kube_pod_status_unschedulable{namespace=\\"inference\\",pod=\\"m-0\\"}", "%s"]' "$2"
}
m0='{"namespace": "inference", "pod": "m-0"}'
# expect_at SERIES AT PENDING LAUNCH NAME: at time AT, the two alerts are exactly these
expect_at() {
	python3 "$SCRATCH/tests.py" "$SCRATCH/seoul.rules.yaml" "{
		\"series\": [$1], \"at\": \"$2\",
		\"expect\": {\"GPUSitePodsPending\": [$3], \"GPUSiteFallbackLaunchFailing\": [$4]}}" \
		"$SCRATCH/$5.test.yaml" &&
	promtool test rules "$SCRATCH/$5.test.yaml"
}
normal="$(pod "1x10 0x30" "1x4 stale")"
test_expect_success "the pending alert waits for the site's own failover, and says so" '
	grep -q "^      for: 12m$" "$SCRATCH/fleet.yaml" &&
	grep -F "own failover takes (node provisioning 4m + image pull 6m + margin 2m)" \
		"$SCRATCH/seoul.rules.yaml"
'
test_expect_success "a normal failover (4m unschedulable, 10m pending) pages nobody, at any time" '
	for at in 3m 5m 7m 9m 11m 13m 20m; do
		expect_at "$normal" $at "" "" normal-$at || return 1
	done
'
failed="$(pod "1x40" "1x40")"
test_expect_success "a failed launch: launch-failing after 6m, pending after 12m" '
	expect_at "$failed" 5m "" "" failed-5m &&
	expect_at "$failed" 7m "" "$m0" failed-7m &&
	expect_at "$failed" 13m "$m0" "$m0" failed-13m
'
launched='["operator_nodeclaim_status_condition_count{type=\"Launched\",status=\"False\",karpenter_sh_nodepool=\"seoul-dc1-gpu-fallback\",name=\"nc-1\"}", "1x20"]'
test_expect_success "NodeClaims that fail to launch page for the pool, naming the causes" '
	expect_at "$launched" 8m "" "{\"karpenter_sh_nodepool\": \"seoul-dc1-gpu-fallback\"}" launched-8m &&
	expect_at "$launched" 4m "" "" launched-4m &&
	grep -F "Likely causes: no capacity" "$SCRATCH/seoul.rules.yaml" &&
	grep -F "NodeClassNotReady" "$SCRATCH/seoul.rules.yaml"
'
test_expect_success "a recovered site (the pod ran after 15m) is quiet again" '
	expect_at "$(pod "1x15 0x25" "1x15 stale")" 25m "" "" recovered
'
# A site with a burst pool (testdata/render/two-site-burst, seoul-dc1: burst
# gpuLimit 8): burst nodes are normal-time capacity, so they never say the
# fallback is active; the burst pool near its limit has its own alert.
usage() { # POOL RESOURCE VALUES: karpenter_nodepools_usage of a pool
	printf '["karpenter_nodepools_usage{nodepool=\\"%s\\",resource_type=\\"%s\\"}", "%s"]' "$1" "$2" "$3"
}
limit() { # POOL VALUES: karpenter_nodepools_limit of a pool's GPUs
	printf '["karpenter_nodepools_limit{nodepool=\\"%s\\",resource_type=\\"nvidia.com/gpu\\"}", "%s"]' "$1" "$2"
}
test_expect_success "burst pool: 7 of 8 GPUs fire GPUSiteBurstNearLimit, never GPUSiteFallbackActive" '
	"$GPUSITE" render "$TEST_TOP/testdata/render/two-site-burst/sites" >"$SCRATCH/burst.yaml" &&
	python3 "$SCRATCH/rules.py" "$SCRATCH/burst.yaml" seoul-dc1 "$SCRATCH/burst.rules.yaml" &&
	promtool check rules "$SCRATCH/burst.rules.yaml" >/dev/null &&
	series="$(usage seoul-dc1-gpu-burst nodes 2x20),$(usage seoul-dc1-gpu-burst nvidia.com/gpu 7x20),$(limit seoul-dc1-gpu-burst 8x20),$(usage seoul-dc1-gpu-fallback nodes 0x20)" &&
	python3 "$SCRATCH/tests.py" "$SCRATCH/burst.rules.yaml" "{
		\"series\": [$series], \"at\": \"10m\",
		\"expect\": {\"GPUSiteBurstNearLimit\": [{\"nodepool\": \"seoul-dc1-gpu-burst\", \"resource_type\": \"nvidia.com/gpu\"}],
		             \"GPUSiteFallbackActive\": [], \"GPUSiteFallbackNearLimit\": []}}" \
		"$SCRATCH/burst.test.yaml" &&
	promtool test rules "$SCRATCH/burst.test.yaml" &&
	grep -F "The burst NodePool seoul-dc1-gpu-burst uses more than 80% of its limit of 8 GPUs" "$SCRATCH/burst.rules.yaml"
'

# A burst pod of seoul-dc1 (namespace llm-batch) that finds no node: the
# burst scope has its own pending alert (Spot capacity missing, not a
# failover), and launch-failing watches the burst namespaces too.
bpod() { # PHASE_PENDING UNSCHEDULABLE: the series of pod llm-batch/b-0
	printf '["kube_pod_status_phase{phase=\\"Pending\\",namespace=\\"llm-batch\\",pod=\\"b-0\\"}", "%s"],' "$1"
	printf '["kube_pod_container_resource_requests{resource=\\"nvidia_com_gpu\\",namespace=\\"llm-batch\\",pod=\\"b-0\\",container=\\"c\\"}", "1x40"],'
	printf '["kube_pod_status_unschedulable{namespace=\\"llm-batch\\",pod=\\"b-0\\"}", "%s"]' "$2"
}
b0='{"namespace": "llm-batch", "pod": "b-0"}'
bexpect() { # AT BURST_PENDING PENDING LAUNCH NAME
	python3 "$SCRATCH/tests.py" "$SCRATCH/burst.rules.yaml" "{
		\"series\": [$(bpod 1x40 1x40)], \"at\": \"$1\",
		\"expect\": {\"GPUSiteBurstPodsPending\": [$2], \"GPUSitePodsPending\": [$3],
		             \"GPUSiteFallbackLaunchFailing\": [$4]}}" \
		"$SCRATCH/$5.test.yaml" &&
	promtool test rules "$SCRATCH/$5.test.yaml"
}
test_expect_success "burst pod without a node: launch-failing, then the burst pending alert, never the placement one" '
	bexpect 5m "" "" "" burst-5m &&
	bexpect 8m "" "" "$b0" burst-8m &&
	bexpect 13m "$b0" "" "$b0" burst-13m &&
	grep -F "burst GPU pods of site seoul-dc1 pending for over 12m: spot capacity missing" "$SCRATCH/burst.rules.yaml" &&
	grep -F "This is not a failover: burst work never runs on the on-demand fallback" "$SCRATCH/burst.rules.yaml" &&
	grep -F "the cloud pools (fallback and burst) launch no node" "$SCRATCH/burst.rules.yaml"
'

test_done
