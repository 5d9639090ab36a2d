#!/bin/sh
# t2222: one device plugin per GPU node holds for burst nodes.  With a
# burst pool (testdata/render/burst-al2023), the fallback device plugin of
# the AL2023 nodes covers every pool of the site: helm (offline) renders the
# saved NVIDIA chart with the values gpusite renders, and verify-scope
# places every DaemonSet on the reference inventory, the fallback nodes and
# the burst node of testdata/nodes/burst/ (labelled and tainted as the
# rendered burst NodePool makes it):
#   AL2023 burst node  -> the fallback plugin, nothing else
# and the values of a site without a burst pool miss that node (GS160).
. "$TEST_TOP/tests/lib.sh"

helm="$TEST_TOP/.tools/bin/helm"
nodes="$TEST_TOP/testdata/nodes"
cases="$TEST_TOP/testdata/render"
burst_node=ip-10-0-91-23.us-west-2.compute.internal

if ! need_upstream; then
	test_skip "burst nodes in the device plugin scope with the real charts" "../shared/upstream not found"
	test_done
	exit
fi
if ! [ -x "$helm" ]; then
	test_skip "burst nodes in the device plugin scope with the real charts" "helm not found in .tools/bin (run make deps)"
	test_done
	exit
fi
export HOME="$SCRATCH/home"
mkdir -p "$HOME"

test_expect_success "the burst node carries exactly the labels and taints of the rendered burst NodePool" '
	"$GPUSITE" render --format json "$cases/burst-al2023/sites" >"$SCRATCH/burst.json" &&
	python3 - "$SCRATCH/burst.json" "$nodes/burst/al2023-burst.yaml" <<-\EOF
	import json, sys, yaml
	objs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
	pool = [o for o in objs if o["kind"] == "NodePool" and o["metadata"]["name"] == "lab-gpu-burst"][0]
	t = pool["spec"]["template"]
	n = yaml.safe_load(open(sys.argv[2]))
	labels = n["metadata"]["labels"]
	for k, v in t["metadata"]["labels"].items():
	    assert labels.get(k) == v, (k, v, labels.get(k))
	assert labels["gpusite.io/pool"] == "burst", labels
	assert labels["karpenter.sh/nodepool"] == "lab-gpu-burst", labels
	assert n["spec"]["taints"] == t["spec"]["taints"], (n["spec"]["taints"], t["spec"]["taints"])
	assert {"key": "gpusite.io/burst", "value": "true", "effect": "NoSchedule"} in t["spec"]["taints"]
	print("labels and taints agree")
	EOF
'

test_expect_success "render the values and the charts: with and without a burst pool" '
	"$GPUSITE" render "$cases/burst-al2023/sites" --values "$SCRATCH/b" >/dev/null &&
	"$GPUSITE" render "$cases/fallback-al2023/sites" --values "$SCRATCH/f" >/dev/null &&
	cp -R "$UPSTREAM/nvidia-device-plugin/chart" "$SCRATCH/nvdp-chart" &&
	"$helm" template nvidia-device-plugin "$SCRATCH/nvdp-chart" -n nvidia-device-plugin \
		-f "$SCRATCH/b/lab-cluster/values.yaml" >"$SCRATCH/hybrid.yaml" &&
	"$helm" template nvidia-device-plugin-fallback "$SCRATCH/nvdp-chart" -n nvidia-device-plugin \
		-f "$SCRATCH/b/lab-cluster/values-fallback.yaml" >"$SCRATCH/fallback-burst.yaml" &&
	"$helm" template nvidia-device-plugin-fallback "$SCRATCH/nvdp-chart" -n nvidia-device-plugin \
		-f "$SCRATCH/f/lab-cluster/values-fallback.yaml" >"$SCRATCH/fallback-only.yaml" &&
	grep -q "gpusite.io/burst" "$SCRATCH/fallback-burst.yaml" &&
	! grep -q "gpusite.io/burst" "$SCRATCH/fallback-only.yaml"
'

test_expect_success "with the burst pool: no miss, no leak, exactly one plugin on every GPU node, the fallback plugin on the burst node" '
	"$GPUSITE" verify-scope --nodes "$nodes" --nodes "$nodes/fallback" --nodes "$nodes/burst" \
		--manifests "$SCRATCH/hybrid.yaml" --manifests "$SCRATCH/fallback-burst.yaml" \
		--format json >"$SCRATCH/b.json" 2>"$SCRATCH/b.err" &&
	! test -s "$SCRATCH/b.err" &&
	python3 -c "import json, sys; s = json.load(open(sys.argv[1]))[\"summary\"]; sys.exit(s[\"misses\"] or s[\"leaks\"])" "$SCRATCH/b.json" &&
	python3 "$TEST_TOP/tests/tools/one-plugin-each.py" "$SCRATCH/b.json" "$burst_node=nvidia-device-plugin-fallback"
'

test_expect_success "the values of a site without a burst pool miss the burst node (GS160, exit 1)" '
	expect_exit 1 "$GPUSITE" verify-scope --nodes "$nodes/burst" \
		--manifests "$SCRATCH/fallback-only.yaml" >/dev/null 2>"$SCRATCH/miss.err" &&
	grep -q "fallback device plugin DaemonSet nvidia-device-plugin/nvidia-device-plugin-fallback does not run on AL2023 fallback GPU node $burst_node: .*\[GS160\]" "$SCRATCH/miss.err" ||
	{ cat "$SCRATCH/miss.err"; false; }
'

test_done
