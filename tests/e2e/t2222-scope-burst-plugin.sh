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
# The fallback and burst nodes carry the site taint (gpusite.io/site=lab):
# values without its toleration miss both, GS160 naming the taint.  With
# exclusive: false (testdata/render/burst-shared-pools) the nodes carry no
# site taint, the values no toleration, and verify-scope says the pools
# are shared.
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
	grep -q "fallback device plugin DaemonSet nvidia-device-plugin/nvidia-device-plugin-fallback does not run on AL2023 burst GPU node $burst_node: .*\[GS160\]" "$SCRATCH/miss.err" ||
	{ cat "$SCRATCH/miss.err"; false; }
'

test_expect_success "the site taint: the fallback and burst nodes are the site's, verify-scope says so" '
	"$GPUSITE" verify-scope --nodes "$nodes/fallback" --nodes "$nodes/burst" \
		--manifests "$SCRATCH/fallback-burst.yaml" >"$SCRATCH/excl.txt" 2>/dev/null &&
	grep -q "^  ip-10-0-81-15.us-west-2.compute.internal: fallback of site lab, tainted gpusite.io/site=lab:NoSchedule: exclusive" "$SCRATCH/excl.txt" &&
	grep -q "^  $burst_node: burst of site lab, tainted gpusite.io/site=lab:NoSchedule: exclusive" "$SCRATCH/excl.txt" &&
	! grep -q "the pool is shared" "$SCRATCH/excl.txt"
'

test_expect_success "values without the site toleration miss the AL2023 fallback node and the burst node (GS160 naming the site taint, exit 1)" '
	python3 - "$SCRATCH/b/lab-cluster/values-fallback.yaml" >"$SCRATCH/nosite.yaml" <<-\EOF &&
	import sys, yaml
	v = yaml.safe_load(open(sys.argv[1]))
	n = len(v["tolerations"])
	v["tolerations"] = [t for t in v["tolerations"] if t.get("key") != "gpusite.io/site"]
	assert len(v["tolerations"]) == n - 1, v["tolerations"]
	print(yaml.safe_dump(v))
	EOF
	"$helm" template nvidia-device-plugin-fallback "$SCRATCH/nvdp-chart" -n nvidia-device-plugin \
		-f "$SCRATCH/nosite.yaml" >"$SCRATCH/nosite-dp.yaml" &&
	expect_exit 1 "$GPUSITE" verify-scope --nodes "$nodes" --nodes "$nodes/fallback" --nodes "$nodes/burst" \
		--manifests "$SCRATCH/hybrid.yaml" --manifests "$SCRATCH/nosite-dp.yaml" \
		>/dev/null 2>"$SCRATCH/nosite.err" &&
	for n in "fallback GPU node ip-10-0-81-15.us-west-2.compute.internal" "burst GPU node $burst_node"; do
		grep -q "error: fallback device plugin DaemonSet nvidia-device-plugin/nvidia-device-plugin-fallback does not run on AL2023 $n: taint gpusite.io/site=lab:NoSchedule; GPU pods there stay Pending: tolerate the site taint of gpusite.s exclusive pools: key gpusite.io/site, operator Exists, effect NoSchedule \[GS160\]" "$SCRATCH/nosite.err" || return 1
	done &&
	test "$(grep -c "\[GS160\]" "$SCRATCH/nosite.err")" -eq 4 ||
	{ cat "$SCRATCH/nosite.err"; false; }
'

test_expect_success "exclusive: false (burst-shared-pools): no site taint on the nodes, none in the values, verify-scope says the pools are shared" '
	"$GPUSITE" render --format json "$cases/burst-shared-pools/sites" >"$SCRATCH/shared.json" &&
	"$GPUSITE" render "$cases/burst-shared-pools/sites" --values "$SCRATCH/s" >/dev/null &&
	python3 - "$SCRATCH/shared.json" "$nodes" "$SCRATCH" <<-\EOF &&
	import json, sys, yaml
	objs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
	for pool, src in (("lab-gpu-fallback", "fallback/al2023-fallback.yaml"), ("lab-gpu-burst", "burst/al2023-burst.yaml")):
	    t = [o for o in objs if o["kind"] == "NodePool" and o["metadata"]["name"] == pool][0]["spec"]["template"]
	    n = yaml.safe_load(open("%s/%s" % (sys.argv[2], src)))
	    n["spec"]["taints"] = [x for x in n["spec"]["taints"] if x["key"] != "gpusite.io/site"]
	    assert n["spec"]["taints"] == t["spec"]["taints"], (n["spec"]["taints"], t["spec"]["taints"])
	    for k, v in t["metadata"]["labels"].items():
	        assert n["metadata"]["labels"].get(k) == v, (k, v)
	    yaml.safe_dump(n, open("%s/shared-%s" % (sys.argv[3], src.split("/")[1]), "w"))
	print("shared nodes as the NodePools make them")
	EOF
	! grep -q "gpusite.io/site" "$SCRATCH/s/lab-cluster/values-fallback.yaml" &&
	"$helm" template nvidia-device-plugin-fallback "$SCRATCH/nvdp-chart" -n nvidia-device-plugin \
		-f "$SCRATCH/s/lab-cluster/values-fallback.yaml" >"$SCRATCH/shared-dp.yaml" &&
	"$GPUSITE" verify-scope --nodes "$SCRATCH/shared-al2023-fallback.yaml" --nodes "$SCRATCH/shared-al2023-burst.yaml" \
		--manifests "$SCRATCH/shared-dp.yaml" >"$SCRATCH/shared.txt" 2>"$SCRATCH/shared.err" &&
	! grep -q GS16[01] "$SCRATCH/shared.err" &&
	grep -q "^  ip-10-0-81-15.us-west-2.compute.internal: fallback of site lab, no gpusite.io/site taint: the pool is shared (exclusive: false)" "$SCRATCH/shared.txt" &&
	grep -q "^  $burst_node: burst of site lab, no gpusite.io/site taint: the pool is shared (exclusive: false)" "$SCRATCH/shared.txt" &&
	"$GPUSITE" verify-scope --nodes "$SCRATCH/shared-al2023-fallback.yaml" --nodes "$SCRATCH/shared-al2023-burst.yaml" \
		--manifests "$SCRATCH/shared-dp.yaml" --format json >"$SCRATCH/shared-v.json" 2>/dev/null &&
	python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))
assert [n[\"pool\"] for n in r[\"nodes\"]] == [{\"name\": \"fallback\", \"site\": \"lab\", \"shared\": True}, {\"name\": \"burst\", \"site\": \"lab\", \"shared\": True}], r[\"nodes\"]
assert r[\"summary\"][\"poolNodes\"] == 2 and r[\"summary\"][\"sharedPoolNodes\"] == 2, r[\"summary\"]
" "$SCRATCH/shared-v.json"
'

test_done
