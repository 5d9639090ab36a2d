#!/bin/sh
# t2201: the scope proof with the real charts.  helm (offline) renders the
# saved NVIDIA charts with the values gpusite renders; verify-scope places
# every DaemonSet on the reference inventory (testdata/nodes/): the GPU
# stack lands on every hybrid GPU node and on no cloud node.  With the
# device-plugin chart's default NFD tolerations the trap of docs/design/artifacts.md, "GPU stack"
# is caught, and so is an unscoped GPU Operator NFD worker.
#
# What a chart render cannot show: the GPU Operator creates its operand
# DaemonSets at run time.  verify-scope models them from the rendered
# ClusterPolicy (enabled operands, daemonsets.tolerations, one
# nvidia.com/gpu.deploy.<operand> selector each, deploy labels only where
# NFD found an NVIDIA PCI device), so what is proven is: the NFD worker's
# scope, the ClusterPolicy's tolerations and driver.enabled=false, and the
# chain NFD -> operator labels -> operands under that model.
. "$TEST_TOP/tests/lib.sh"

helm="$TEST_TOP/.tools/bin/helm"
nodes="$TEST_TOP/testdata/nodes"
hybrid_gpu="gpu-a-01 mi-0a1b2c3d4e5f60718"

if ! need_upstream; then
	test_skip "GPU stack scope with the real charts" "../shared/upstream not found"
	test_done
	exit
fi
if ! [ -x "$helm" ]; then
	test_skip "GPU stack scope with the real charts" "helm not found in .tools/bin (run make deps)"
	test_done
	exit
fi
export HOME="$SCRATCH/home"
mkdir -p "$HOME"

# json_check FILE PYTHON: run PYTHON with `r` = the verify-scope JSON.
json_check() {
	f=$1 code=$2
	shift 2
	python3 -c "import json,sys
r = json.load(open(sys.argv[1]))
$code" "$f" "$@"
}

# Every GPU-stack DaemonSet runs on exactly the hybrid GPU nodes.
exact_scope='
want = set(sys.argv[2].split())
stack = [d for d in r["daemonsets"] if d["gpuStack"]]
assert stack, "no GPU-stack DaemonSet"
for d in stack:
    on = {p["node"] for p in d["placement"] if p["runs"]}
    assert on == want, (d["name"], sorted(on))
print(len(stack), "GPU-stack DaemonSets on", sorted(want))
'

# drop_block FILE PARENT CHILD: the values without PARENT.CHILD (the
# renderer writes two-space indents, lists at the key's indent).
drop_block() {
	awk -v parent="$2:" -v child="$3:" '
		/^[^ ]/ { inp = ($0 == parent) }
		inp && $0 ~ "^    " child "$" { skip = 1; next }
		skip && /^(    -|      )/ { next }
		{ skip = 0; print }
	' "$1"
}

test_expect_success "render the GPU stack values of the fleet" '
	"$GPUSITE" render "$TEST_TOP/testdata/fleet" --values "$SCRATCH/values" >/dev/null &&
	test -s "$SCRATCH/values/my-hybrid-cluster/values.yaml" &&
	test -s "$SCRATCH/values/inference-eu/values.yaml"
'
test_expect_success "the inventory: two hybrid GPU nodes, three cloud GPU nodes, one CPU node" '
	cp -R "$UPSTREAM/nvidia-device-plugin/chart" "$SCRATCH/nvdp-chart" &&
	cp -R "$UPSTREAM/gpu-operator/chart" "$SCRATCH/gpuop-chart" &&
	"$helm" template nvidia-device-plugin "$SCRATCH/nvdp-chart" -n nvidia-device-plugin \
		-f "$SCRATCH/values/my-hybrid-cluster/values.yaml" >"$SCRATCH/dp.yaml" &&
	"$GPUSITE" verify-scope --nodes "$nodes" --manifests "$SCRATCH/dp.yaml" --format json >"$SCRATCH/dp.json" &&
	json_check "$SCRATCH/dp.json" "
classes = sorted(n[\"class\"] for n in r[\"nodes\"])
assert classes == [\"cloud\", \"cloud GPU\", \"cloud GPU\", \"cloud GPU\", \"hybrid GPU\", \"hybrid GPU\"], classes
"
'
test_expect_success "device plugin chart: NFD worker, plugin, GFD and MPS daemon are judged" '
	json_check "$SCRATCH/dp.json" "
names = sorted(d[\"name\"] for d in r[\"daemonsets\"] if d[\"gpuStack\"])
assert names == [\"nvidia-device-plugin\", \"nvidia-device-plugin-gpu-feature-discovery\",
                 \"nvidia-device-plugin-mps-control-daemon\",
                 \"nvidia-device-plugin-node-feature-discovery-worker\"], names
"
'
test_expect_success "device plugin chart with gpusite values: every hybrid GPU node, no cloud node (exit 0)" '
	"$GPUSITE" verify-scope --nodes "$nodes" --manifests "$SCRATCH/dp.yaml" >"$SCRATCH/dp.txt" 2>"$SCRATCH/dp.err" &&
	! test -s "$SCRATCH/dp.err" &&
	grep -q "0 misses, 0 leaks" "$SCRATCH/dp.txt" &&
	json_check "$SCRATCH/dp.json" "$exact_scope" "$hybrid_gpu"
'
test_expect_success "the freshly joined node gets the plugin once the scoped NFD worker labels it" '
	json_check "$SCRATCH/dp.json" "
n = [n for n in r[\"nodes\"] if n[\"name\"] == \"mi-0a1b2c3d4e5f60718\"][0]
lab = [l for l in n[\"runtimeLabels\"] if l[\"key\"] == \"feature.node.kubernetes.io/pci-10de.present\"]
assert lab and \"node-feature-discovery-worker\" in lab[0][\"by\"], n
"
'
test_expect_success "the trap: the chart default NFD toleration (Equal present) misses the hybrid GPU nodes (exit 1)" '
	drop_block "$SCRATCH/values/my-hybrid-cluster/values.yaml" nfd tolerations >"$SCRATCH/trap.yaml" &&
	! grep -A3 "^nfd:" "$SCRATCH/trap.yaml" | grep -q tolerations &&
	grep -q "^  worker:" "$SCRATCH/trap.yaml" &&
	"$helm" template nvidia-device-plugin "$SCRATCH/nvdp-chart" -n nvidia-device-plugin \
		-f "$SCRATCH/trap.yaml" >"$SCRATCH/trap-dp.yaml" &&
	grep -q "value: present" "$SCRATCH/trap-dp.yaml" &&
	expect_exit 1 "$GPUSITE" verify-scope --nodes "$nodes" --manifests "$SCRATCH/trap-dp.yaml" \
		>"$SCRATCH/trap.txt" 2>"$SCRATCH/trap.err" &&
	for n in $hybrid_gpu; do
		grep -q "DaemonSet nvidia-device-plugin/nvidia-device-plugin-node-feature-discovery-worker does not run on hybrid GPU node $n: taint nvidia.com/gpu=Exists:NoSchedule; add a toleration for that taint with operator Exists \[GS160\]" "$SCRATCH/trap.err" ||
		{ cat "$SCRATCH/trap.err"; exit 1; }
	done
'
test_expect_success "the trap, continued: without the NFD label the plugin never reaches the fresh node" '
	grep -q "DaemonSet nvidia-device-plugin/nvidia-device-plugin does not run on hybrid GPU node mi-0a1b2c3d4e5f60718: affinity: none of 3 nodeSelectorTerms matches" "$SCRATCH/trap.err" &&
	grep -q "nvidia-device-plugin/nvidia-device-plugin-node-feature-discovery-worker .*no (taint nvidia.com/gpu=Exists:NoSchedule)" "$SCRATCH/trap.txt"
'
test_expect_success "an unscoped NFD worker (no nodeSelector) runs on the CPU node: a leak (exit 1)" '
	drop_block "$SCRATCH/values/my-hybrid-cluster/values.yaml" nfd nodeSelector >"$SCRATCH/unscoped.yaml" &&
	"$helm" template nvidia-device-plugin "$SCRATCH/nvdp-chart" -n nvidia-device-plugin \
		-f "$SCRATCH/unscoped.yaml" >"$SCRATCH/unscoped-dp.yaml" &&
	expect_exit 1 "$GPUSITE" verify-scope --nodes "$nodes" --manifests "$SCRATCH/unscoped-dp.yaml" \
		>/dev/null 2>"$SCRATCH/unscoped.err" &&
	grep -q "node-feature-discovery-worker would run on non-hybrid cloud node ip-10-0-12-88.us-west-2.compute.internal; .*\[GS161\]" "$SCRATCH/unscoped.err"
'
test_expect_success "GPU Operator chart with gpusite values: NFD worker and operands only on hybrid GPU nodes (exit 0)" '
	"$helm" template gpu-operator "$SCRATCH/gpuop-chart" -n gpu-operator \
		-f "$SCRATCH/values/inference-eu/values.yaml" >"$SCRATCH/op.yaml" &&
	"$GPUSITE" verify-scope --nodes "$nodes" --manifests "$SCRATCH/op.yaml" >"$SCRATCH/op.txt" &&
	"$GPUSITE" verify-scope --nodes "$nodes" --manifests "$SCRATCH/op.yaml" --format json >"$SCRATCH/op.json" &&
	json_check "$SCRATCH/op.json" "$exact_scope" "$hybrid_gpu"
'
test_expect_success "the rendered ClusterPolicy: driver off, operands tolerate the GPU taint, pinned images" '
	json_check "$SCRATCH/op.json" "
ops = {d[\"name\"]: d for d in r[\"daemonsets\"] if d.get(\"origin\") == \"ClusterPolicy/cluster-policy\"}
assert \"nvidia-driver-daemonset\" not in ops, sorted(ops)
for want in (\"nvidia-device-plugin-daemonset\", \"gpu-feature-discovery\", \"nvidia-dcgm-exporter\", \"nvidia-operator-validator\"):
    assert want in ops, (want, sorted(ops))
    assert ops[want][\"namespace\"] == \"gpu-operator\", ops[want]
" &&
	awk "/^kind: ClusterPolicy/,/^---/" "$SCRATCH/op.yaml" >"$SCRATCH/cp.yaml" &&
	grep -A1 "^  driver:" "$SCRATCH/cp.yaml" | grep -q "enabled: false" &&
	grep -A8 "^  daemonsets:" "$SCRATCH/cp.yaml" | grep -A2 "key: nvidia.com/gpu" | grep -q "operator: Exists" &&
	grep -q "image: \"\\?nvcr.io/nvidia/gpu-operator:v26.7.0" "$SCRATCH/op.yaml"
'
test_expect_success "GPU Operator with an unscoped NFD worker: operands follow NFD onto cloud GPU nodes (exit 1)" '
	drop_block "$SCRATCH/values/inference-eu/values.yaml" node-feature-discovery nodeSelector >"$SCRATCH/op-unscoped.yaml" &&
	"$helm" template gpu-operator "$SCRATCH/gpuop-chart" -n gpu-operator \
		-f "$SCRATCH/op-unscoped.yaml" >"$SCRATCH/op-unscoped-m.yaml" &&
	expect_exit 1 "$GPUSITE" verify-scope --nodes "$nodes" --manifests "$SCRATCH/op-unscoped-m.yaml" \
		>/dev/null 2>"$SCRATCH/op-unscoped.err" &&
	grep -q "DaemonSet gpu-operator/nvidia-device-plugin-daemonset of ClusterPolicy/cluster-policy would run on non-hybrid cloud GPU node ip-10-0-77-204.us-west-2.compute.internal" "$SCRATCH/op-unscoped.err"
'
test_done
