#!/bin/sh
# t2220: one device plugin per GPU node, fallback nodes included.  helm
# (offline) renders the saved NVIDIA charts twice - the hybrid stack and
# gpusite's fallback device plugin (fallback.nodeImage: al2023) - with the
# values gpusite renders; verify-scope places every DaemonSet on the
# reference inventory plus the two fallback nodes of testdata/nodes/fallback/
# (labelled and tainted as the rendered NodePools make them):
#   hybrid GPU node            -> the hybrid stack's plugin
#   AL2023 fallback node       -> the fallback plugin
#   Bottlerocket / Auto Mode   -> their own plugin, none of gpusite's
#   CPU node                   -> none
# The older al2023-nvidia-fallback node comes from a NodePool without
# nodeImage: it gets no plugin, the trap nodeImage closes.
. "$TEST_TOP/tests/lib.sh"

helm="$TEST_TOP/.tools/bin/helm"
nodes="$TEST_TOP/testdata/nodes"
cases="$TEST_TOP/testdata/render"

if ! need_upstream; then
	test_skip "fallback device plugin scope with the real charts" "../shared/upstream not found"
	test_done
	exit
fi
if ! [ -x "$helm" ]; then
	test_skip "fallback device plugin scope with the real charts" "helm not found in .tools/bin (run make deps)"
	test_done
	exit
fi
export HOME="$SCRATCH/home"
mkdir -p "$HOME"

# one_plugin_each JSON: exactly one device plugin on every GPU node (the
# DaemonSets of the manifests plus the plugin Bottlerocket and Auto Mode
# bring), none on the CPU node, none on the node of a NodePool without
# nodeImage.
one_plugin_each() {
	python3 "$TEST_TOP/tests/tools/one-plugin-each.py" "$1" \
		ip-10-0-81-15.us-west-2.compute.internal=nvidia-device-plugin-fallback
}

test_expect_success "the fallback nodes carry exactly the labels and taints of the rendered NodePools" '
	for img in al2023 bottlerocket; do
		"$GPUSITE" render --format json "$cases/fallback-$img/sites" >"$SCRATCH/$img.json" || exit 1
	done &&
	python3 - "$SCRATCH" "$nodes/fallback" <<-\EOF
	import json, sys, yaml
	for img, node in (("al2023", "al2023-fallback.yaml"), ("bottlerocket", "bottlerocket-fallback.yaml")):
	    objs = [json.loads(l) for l in open("%s/%s.json" % (sys.argv[1], img)) if l.strip()]
	    pool = [o for o in objs if o["kind"] == "NodePool"][0]
	    t = pool["spec"]["template"]
	    n = yaml.safe_load(open("%s/%s" % (sys.argv[2], node)))
	    labels = n["metadata"]["labels"]
	    for k, v in t["metadata"]["labels"].items():
	        assert labels.get(k) == v, (node, k, v, labels.get(k))
	    assert labels["gpusite.io/node-image"] == img, labels
	    assert labels["karpenter.sh/nodepool"] == pool["metadata"]["name"], labels
	    assert n["spec"]["taints"] == t["spec"]["taints"], (n["spec"]["taints"], t["spec"]["taints"])
	print("labels and taints agree")
	EOF
'

test_expect_success "render the values: the hybrid stack and the fallback plugin" '
	"$GPUSITE" render "$cases/fallback-al2023/sites" --values "$SCRATCH/dp" >/dev/null &&
	"$GPUSITE" render "$cases/fallback-al2023-gpu-operator/sites" --values "$SCRATCH/op" >/dev/null &&
	test -s "$SCRATCH/dp/lab-cluster/values-fallback.yaml" &&
	test -s "$SCRATCH/op/lab-cluster/values-fallback.yaml" &&
	cp -R "$UPSTREAM/nvidia-device-plugin/chart" "$SCRATCH/nvdp-chart" &&
	cp -R "$UPSTREAM/gpu-operator/chart" "$SCRATCH/gpuop-chart" &&
	"$helm" template nvidia-device-plugin "$SCRATCH/nvdp-chart" -n nvidia-device-plugin \
		-f "$SCRATCH/dp/lab-cluster/values.yaml" >"$SCRATCH/dp-hybrid.yaml" &&
	"$helm" template nvidia-device-plugin-fallback "$SCRATCH/nvdp-chart" -n nvidia-device-plugin \
		-f "$SCRATCH/dp/lab-cluster/values-fallback.yaml" >"$SCRATCH/dp-fallback.yaml" &&
	"$helm" template gpu-operator "$SCRATCH/gpuop-chart" -n gpu-operator \
		--set operator.version=v26.7.0,validator.version=v26.7.0,nodeStatusExporter.version=v26.7.0 \
		-f "$SCRATCH/op/lab-cluster/values.yaml" >"$SCRATCH/op-hybrid.yaml" &&
	"$helm" template nvidia-device-plugin-fallback "$SCRATCH/nvdp-chart" -n nvidia-device-plugin \
		-f "$SCRATCH/op/lab-cluster/values-fallback.yaml" >"$SCRATCH/op-fallback.yaml" &&
	grep -q "^  name: nvidia-device-plugin-fallback$" "$SCRATCH/dp-fallback.yaml" &&
	! grep -q "node-feature-discovery" "$SCRATCH/dp-fallback.yaml"
'

test_expect_success "device-plugin stack + fallback plugin: no miss, no leak (exit 0)" '
	"$GPUSITE" verify-scope --nodes "$nodes" --nodes "$nodes/fallback" \
		--manifests "$SCRATCH/dp-hybrid.yaml" --manifests "$SCRATCH/dp-fallback.yaml" \
		>"$SCRATCH/dp.txt" 2>"$SCRATCH/dp.err" &&
	! test -s "$SCRATCH/dp.err" &&
	grep -q "0 misses, 0 leaks" "$SCRATCH/dp.txt" &&
	"$GPUSITE" verify-scope --nodes "$nodes" --nodes "$nodes/fallback" \
		--manifests "$SCRATCH/dp-hybrid.yaml" --manifests "$SCRATCH/dp-fallback.yaml" \
		--format json >"$SCRATCH/dp.json" &&
	python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))
fb = sorted(d[\"name\"] for d in r[\"daemonsets\"] if d.get(\"fallback\"))
assert fb == [\"nvidia-device-plugin-fallback\", \"nvidia-device-plugin-fallback-mps-control-daemon\"], fb
" "$SCRATCH/dp.json"
'
test_expect_success "device-plugin stack: exactly one device plugin per GPU node, none on the CPU node" '
	one_plugin_each "$SCRATCH/dp.json"
'

test_expect_success "GPU Operator stack + fallback plugin: no miss, no leak, one plugin per GPU node" '
	"$GPUSITE" verify-scope --nodes "$nodes" --nodes "$nodes/fallback" \
		--manifests "$SCRATCH/op-hybrid.yaml" --manifests "$SCRATCH/op-fallback.yaml" \
		--format json >"$SCRATCH/op.json" 2>"$SCRATCH/op.err" &&
	! test -s "$SCRATCH/op.err" &&
	one_plugin_each "$SCRATCH/op.json"
'

test_expect_success "a fallback plugin without the GPU toleration misses the AL2023 fallback node (GS160, exit 1)" '
	python3 - "$SCRATCH/dp/lab-cluster/values-fallback.yaml" >"$SCRATCH/notol.yaml" <<-\EOF &&
	import sys, yaml
	v = yaml.safe_load(open(sys.argv[1]))
	v["tolerations"] = [t for t in v["tolerations"] if t["key"] != "nvidia.com/gpu"]
	print(yaml.safe_dump(v))
	EOF
	"$helm" template nvidia-device-plugin-fallback "$SCRATCH/nvdp-chart" -n nvidia-device-plugin \
		-f "$SCRATCH/notol.yaml" >"$SCRATCH/notol-dp.yaml" &&
	expect_exit 1 "$GPUSITE" verify-scope --nodes "$nodes" --nodes "$nodes/fallback" \
		--manifests "$SCRATCH/dp-hybrid.yaml" --manifests "$SCRATCH/notol-dp.yaml" \
		>/dev/null 2>"$SCRATCH/notol.err" &&
	grep -q "error: fallback device plugin DaemonSet nvidia-device-plugin/nvidia-device-plugin-fallback does not run on AL2023 fallback GPU node ip-10-0-81-15.us-west-2.compute.internal: taint nvidia.com/gpu=Exists:NoSchedule; GPU pods there stay Pending.*\[GS160\]" "$SCRATCH/notol.err" ||
	{ cat "$SCRATCH/notol.err"; false; }
'

test_expect_success "a fallback plugin that does not exclude hybrid nodes leaks onto one labelled like a fallback node (GS161)" '
	sed -e "s/^    gpusite.io\/site: lab$/    gpusite.io\/site: lab\n    eks.amazonaws.com\/compute-type: hybrid/" \
		-e "s/ip-10-0-81-15/ip-10-0-81-16/g" "$nodes/fallback/al2023-fallback.yaml" >"$SCRATCH/hybrid-labelled.yaml" &&
	python3 - "$SCRATCH/dp/lab-cluster/values-fallback.yaml" >"$SCRATCH/nohyb.yaml" <<-\EOF &&
	import sys, yaml
	v = yaml.safe_load(open(sys.argv[1]))
	t = v["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"][0]
	t["matchExpressions"] = [e for e in t["matchExpressions"] if e["key"] != "eks.amazonaws.com/compute-type"]
	print(yaml.safe_dump(v))
	EOF
	"$helm" template nvidia-device-plugin-fallback "$SCRATCH/nvdp-chart" -n nvidia-device-plugin \
		-f "$SCRATCH/nohyb.yaml" >"$SCRATCH/nohyb-dp.yaml" &&
	"$GPUSITE" verify-scope --nodes "$SCRATCH/hybrid-labelled.yaml" \
		--manifests "$SCRATCH/dp-fallback.yaml" >/dev/null 2>"$SCRATCH/ok.err" &&
	! grep -q GS161 "$SCRATCH/ok.err" &&
	expect_exit 1 "$GPUSITE" verify-scope --nodes "$SCRATCH/hybrid-labelled.yaml" \
		--manifests "$SCRATCH/nohyb-dp.yaml" >/dev/null 2>"$SCRATCH/nohyb.err" &&
	grep -q "fallback device plugin DaemonSet nvidia-device-plugin/nvidia-device-plugin-fallback would run on hybrid GPU node ip-10-0-81-16.us-west-2.compute.internal, .*\[GS161\]" "$SCRATCH/nohyb.err" ||
	{ cat "$SCRATCH/nohyb.err"; false; }
'

test_done
