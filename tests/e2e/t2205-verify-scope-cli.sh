#!/bin/sh
# t2205: verify-scope as a command: inputs (directories, List/NodeList,
# standard input), formats, exit codes 0/1/2/3, and findings that point at
# the DaemonSet in the manifest.
. "$TEST_TOP/tests/lib.sh"

nodes="$TEST_TOP/testdata/nodes"

cat >"$SCRATCH/plugin.yaml" <<'YAML'
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: nvidia-device-plugin
  namespace: kube-system
spec:
  template:
    spec:
      nodeSelector: {eks.amazonaws.com/compute-type: hybrid}
      tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
      containers: [{name: plugin, image: nvcr.io/nvidia/k8s-device-plugin:v0.20.0}]
---
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: fluent-bit
  namespace: logging
spec:
  template:
    spec:
      tolerations: [{operator: Exists}]
      containers: [{name: fb, image: cr.fluentbit.io/fluent/fluent-bit:4.0}]
YAML

test_expect_success "--help explains the rules and the exit codes" '
	"$GPUSITE" verify-scope --help >"$SCRATCH/help" &&
	grep -q "GS160" "$SCRATCH/help" && grep -q -- "--manifests FILE" "$SCRATCH/help"
'
test_expect_success "usage errors exit 2" '
	expect_exit 2 "$GPUSITE" verify-scope 2>/dev/null &&
	expect_exit 2 "$GPUSITE" verify-scope --nodes "$nodes" 2>/dev/null &&
	expect_exit 2 "$GPUSITE" verify-scope --nodes "$nodes" --manifests "$SCRATCH/plugin.yaml" --format sarif 2>/dev/null &&
	expect_exit 2 "$GPUSITE" verify-scope --nodes "$nodes" --manifests "$SCRATCH/plugin.yaml" extra 2>/dev/null
'
test_expect_success "an unreadable or malformed input exits 3" '
	expect_exit 3 "$GPUSITE" verify-scope --nodes "$SCRATCH/none.yaml" --manifests "$SCRATCH/plugin.yaml" 2>"$SCRATCH/e1" &&
	grep -q "cannot read" "$SCRATCH/e1" &&
	printf "kind: Node\nmetadata: {name: [unclosed\n" >"$SCRATCH/broken.yaml" &&
	expect_exit 3 "$GPUSITE" verify-scope --nodes "$SCRATCH/broken.yaml" --manifests "$SCRATCH/plugin.yaml" 2>"$SCRATCH/e2" &&
	grep -q "broken.yaml:[0-9]*:[0-9]*: error: .*\[GS001\]" "$SCRATCH/e2"
'
test_expect_success "a scoped plugin: exit 0, the table shows yes and no with reasons" '
	"$GPUSITE" verify-scope --nodes "$nodes" --manifests "$SCRATCH/plugin.yaml" >"$SCRATCH/ok.txt" &&
	grep "^kube-system/nvidia-device-plugin " "$SCRATCH/ok.txt" >"$SCRATCH/row" &&
	test "$(grep -o "no (nodeSelector eks.amazonaws.com/compute-type=hybrid)" "$SCRATCH/row" | wc -l)" -eq 4 &&
	test "$(grep -o " yes " "$SCRATCH/row" | wc -l)" -eq 2 &&
	grep -q "^logging/fluent-bit  *-  " "$SCRATCH/ok.txt" &&
	grep -q "0 misses, 0 leaks" "$SCRATCH/ok.txt"
'
test_expect_success "a List of Nodes and manifests from standard input work" '
	{ echo "apiVersion: v1" && echo "kind: List" && echo "items:" &&
	  for f in "$nodes"/*.yaml; do grep -v "^#" "$f" | sed "1s/^/- /; 2,\$s/^/  /" || return 1; done; } >"$SCRATCH/list.yaml" &&
	"$GPUSITE" verify-scope --nodes "$SCRATCH/list.yaml" --manifests - <"$SCRATCH/plugin.yaml" >"$SCRATCH/list.txt" &&
	cmp "$SCRATCH/ok.txt" "$SCRATCH/list.txt"
'
test_expect_success "--format json: placement, findings and summary" '
	"$GPUSITE" verify-scope --nodes "$nodes" --manifests "$SCRATCH/plugin.yaml" --format json >"$SCRATCH/ok.json" &&
	python3 -c "import json,sys
r = json.load(open(sys.argv[1]))
assert r[\"summary\"] == {\"daemonsets\": 2, \"gpuStack\": 1, \"nodes\": 6, \"hybridGpuNodes\": 2, \"misses\": 0, \"leaks\": 0, \"poolNodes\": 1, \"sharedPoolNodes\": 1}, r[\"summary\"]
p = [n for n in r[\"nodes\"] if \"pool\" in n]
assert p == [{**p[0], \"pool\": {\"name\": \"fallback\", \"site\": \"seoul-dc1\", \"shared\": True}}], p
d = [d for d in r[\"daemonsets\"] if d[\"name\"] == \"nvidia-device-plugin\"][0]
assert d[\"why\"].startswith(\"name contains\"), d
assert r[\"findings\"] == []
" "$SCRATCH/ok.json"
'
test_expect_success "without the GPU toleration: GS160 at the DaemonSet, exit 1" '
	sed "/name: nvidia-device-plugin/,/containers/ s/tolerations: .*/tolerations: []/" "$SCRATCH/plugin.yaml" >"$SCRATCH/notol.yaml" &&
	expect_exit 1 "$GPUSITE" verify-scope --nodes "$nodes" --manifests "$SCRATCH/notol.yaml" >/dev/null 2>"$SCRATCH/notol.err" &&
	test "$(grep -c "\[GS160\]" "$SCRATCH/notol.err")" -eq 2 &&
	grep -q "^$SCRATCH/notol.yaml:1:1: error: GPU-stack DaemonSet kube-system/nvidia-device-plugin does not run on hybrid GPU node gpu-a-01: taint nvidia.com/gpu=Exists:NoSchedule" "$SCRATCH/notol.err"
'
test_expect_success "without the hybrid nodeSelector: GS161 for each cloud GPU node it reaches, exit 1" '
	sed "/nodeSelector/d" "$SCRATCH/plugin.yaml" >"$SCRATCH/nosel.yaml" &&
	expect_exit 1 "$GPUSITE" verify-scope --nodes "$nodes" --manifests "$SCRATCH/nosel.yaml" >/dev/null 2>"$SCRATCH/nosel.err" &&
	test "$(grep -c "\[GS161\]" "$SCRATCH/nosel.err")" -eq 4
'
test_expect_success "a cordoned hybrid node still runs daemon pods (the controller tolerates unschedulable)" '
	sed "s/^  taints:/  unschedulable: true\n  taints:\n    - {key: node.kubernetes.io\/unschedulable, effect: NoSchedule}/" \
		"$nodes/hybrid-h200-gpu-a-01.yaml" >"$SCRATCH/cordoned.yaml" &&
	grep -q unschedulable "$SCRATCH/cordoned.yaml" &&
	"$GPUSITE" verify-scope --nodes "$SCRATCH/cordoned.yaml" --manifests "$SCRATCH/plugin.yaml" >"$SCRATCH/cordoned.txt" &&
	grep -q "0 misses, 0 leaks" "$SCRATCH/cordoned.txt"
'
test_expect_success "nothing to judge is a warning (GS162), not a pass in silence" '
	sed -n "/fluent-bit/,\$p" "$SCRATCH/plugin.yaml" | sed "1s/^/apiVersion: apps\/v1\nkind: DaemonSet\nmetadata:\n/" >"$SCRATCH/nogpu.yaml" &&
	"$GPUSITE" verify-scope --nodes "$nodes/cpu.yaml" --manifests "$SCRATCH/nogpu.yaml" >/dev/null 2>"$SCRATCH/nogpu.err" &&
	test "$(grep -c "warning: .*\[GS162\]" "$SCRATCH/nogpu.err")" -eq 2
'
test_expect_success "a document that is not a Node in the inventory: GS163, exit 1" '
	"$GPUSITE" verify-scope --nodes "$SCRATCH/plugin.yaml" --manifests "$SCRATCH/plugin.yaml" >/dev/null 2>"$SCRATCH/notnode.err";
	test $? -eq 1 && grep -q "the node inventory holds a DaemonSet.*\[GS163\]" "$SCRATCH/notnode.err"
'
cat >"$SCRATCH/pool-agent.yaml" <<'YAML'
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: pool-exporter
  namespace: monitoring
spec:
  template:
    spec:
      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms:
              - matchExpressions: [{key: gpusite.io/pool, operator: Exists}]
      tolerations:
        - {key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}
        - {key: gpusite.io/burst, operator: Exists, effect: NoSchedule}
      containers: [{name: exporter, image: quay.io/prometheus/node-exporter:v1.9.1}]
YAML
test_expect_success "a DaemonSet meant for the pool nodes without the site toleration: GS160 naming the site taint on each, exit 1" '
	expect_exit 1 "$GPUSITE" verify-scope --nodes "$nodes" --nodes "$nodes/fallback" --nodes "$nodes/burst" \
		--manifests "$SCRATCH/plugin.yaml" --manifests "$SCRATCH/pool-agent.yaml" >"$SCRATCH/agent.txt" 2>"$SCRATCH/agent.err" &&
	test "$(grep -c "\[GS160\]" "$SCRATCH/agent.err")" -eq 3 &&
	for n in fallback:ip-10-0-81-15 fallback:ip-10-0-82-31 burst:ip-10-0-91-23; do
		grep -q "error: DaemonSet monitoring/pool-exporter selects gpusite.s pool nodes (gpusite.io/pool) but does not run on ${n%%:*} node ${n#*:}.us-west-2.compute.internal: taint gpusite.io/site=lab:NoSchedule; tolerate the site taint of gpusite.s exclusive pools: key gpusite.io/site, operator Exists, effect NoSchedule \[GS160\]" "$SCRATCH/agent.err" || return 1
	done &&
	grep -q "^  ip-10-0-77-204.us-west-2.compute.internal: fallback of site seoul-dc1, no gpusite.io/site taint: the pool is shared (exclusive: false)" "$SCRATCH/agent.txt" &&
	grep -q "^  ip-10-0-91-23.us-west-2.compute.internal: burst of site lab, tainted gpusite.io/site=lab:NoSchedule: exclusive" "$SCRATCH/agent.txt" &&
	! grep -q "ip-10-0-77-204.*\[GS160\]" "$SCRATCH/agent.err"
'
test_expect_success "with the site toleration by key, or tolerating every taint, it runs on every pool node: exit 0" '
	sed "s/^        - {key: gpusite.io\/burst, .*/&\n        - {key: gpusite.io\/site, operator: Exists, effect: NoSchedule}/" \
		"$SCRATCH/pool-agent.yaml" >"$SCRATCH/pool-agent-site.yaml" &&
	grep -q "key: gpusite.io/site" "$SCRATCH/pool-agent-site.yaml" &&
	sed "/^        - {key:/d; s/^      tolerations:/      tolerations: [{operator: Exists}]/" \
		"$SCRATCH/pool-agent.yaml" >"$SCRATCH/pool-agent-all.yaml" &&
	for f in pool-agent-site pool-agent-all; do
		"$GPUSITE" verify-scope --nodes "$nodes" --nodes "$nodes/fallback" --nodes "$nodes/burst" \
			--manifests "$SCRATCH/plugin.yaml" --manifests "$SCRATCH/$f.yaml" >"$SCRATCH/$f.txt" 2>"$SCRATCH/$f.err" &&
		! grep -q GS160 "$SCRATCH/$f.err" &&
		grep "^monitoring/pool-exporter " "$SCRATCH/$f.txt" >"$SCRATCH/$f.row" &&
		test "$(grep -o " yes" "$SCRATCH/$f.row" | wc -l)" -eq 4 || return 1
	done
'
test_done
