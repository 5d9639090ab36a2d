#!/bin/sh
# t5102: a drill takes down only the site's on-prem hybrid nodes.  The
# cloud fallback nodes carry the site label too (the NodePool template sets
# gpusite.io/site), and karpenter.sh/nodepool: with two of them in the
# cluster (drill-run-fallback-nodes, one running a GPU pod), neither the
# plan, the dry run nor the drill itself counts, cordons or drains them,
# and naming one (or another non-hybrid node) with --nodes is an error.
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/live.sh"
. "$TEST_TOP/tests/tools/live-drill.sh"

if ! live_have_python; then
	test_skip "drill nodes against the simulator" "python3 or openssl not found"
	test_done
	exit
fi
cd "$SCRATCH"

FB1=ip-10-0-77-12.us-west-2.compute.internal
FB2=ip-10-0-91-40.us-west-2.compute.internal

test_expect_success 'dry run of the whole site: the four hybrid nodes, no fallback node, its pod not evicted' '
	live_start drill-run-fallback-nodes &&
	drill >out 2>err &&
	grep "^PATCH " out | cut -d" " -f2 >got &&
	printf "/api/v1/nodes/%s\n" gpu-a-01 gpu-a-02 mi-0a1b2c3d4e5f60001 mi-0a1b2c3d4e5f60002 >want &&
	test_cmp want got &&
	grep -c "/eviction " out >n && [ "$(cat n)" = 4 ] &&
	! grep -e "$FB1" -e "$FB2" -e embedder out &&
	grep "dry run, nothing was changed: 4 node(s)" err &&
	only_gets
'

test_expect_success 'the drill itself: writes to the hybrid nodes only; the record names them only' '
	live_start drill-run-fallback-nodes &&
	rm -f rec.json &&
	drill --execute --interval 0.2 --timeout 5m --record rec.json >out 2>err &&
	grep "^PATCH " "$SCRATCH/requests.log" | cut -d" " -f1,2 | sort >got &&
	printf "PATCH /api/v1/nodes/%s\n" gpu-a-01 gpu-a-02 mi-0a1b2c3d4e5f60001 mi-0a1b2c3d4e5f60002 >want &&
	test_cmp want got &&
	! grep "^POST .*embedder.*/eviction" "$SCRATCH/requests.log" &&
	[ "$(node_unschedulable "$FB1")" = False ] &&
	[ "$(node_unschedulable "$FB2")" = False ] &&
	[ "$(node_unschedulable i-0f00000000000fa11)" = False ] &&
	python3 - rec.json <<-\PY
	import json, sys
	rec = json.load(open(sys.argv[1]))
	hybrid = ["gpu-a-01", "gpu-a-02", "mi-0a1b2c3d4e5f60001", "mi-0a1b2c3d4e5f60002"]
	assert rec["nodes"] == hybrid, rec["nodes"]
	assert [s["name"] for s in rec["nodeStates"]] == hybrid, rec["nodeStates"]
	for t in rec["transitions"]:
	    if t["object"] == "Node" and t["what"] in ("cordoned", "NotReady"):
	        assert t["name"] in hybrid, t
	assert rec["outcome"] == "available", rec["outcome"]
	PY
'

test_expect_success 'drill run --nodes naming a cloud node or another non-hybrid node: GS220, exit 3, nothing sent' '
	live_start drill-run-fallback-nodes &&
	expect_exit 3 drill --nodes gpu-a-01,$FB1 >out 2>err &&
	grep "error: node .$FB1. is a cloud node of Karpenter NodePool .seoul-dc1-gpu-fallback. (label karpenter.sh/nodepool), not an on-prem hybrid node: a drill takes down only the on-prem hybrid nodes of site .seoul-dc1.; name them with --nodes (kubectl get nodes -l gpusite.io/site=seoul-dc1,eks.amazonaws.com/compute-type=hybrid)$" err &&
	test_cmp /dev/null out &&
	expect_exit 3 drill --nodes i-0a1b2c3d4e5f60718 2>err &&
	grep "node .i-0a1b2c3d4e5f60718. is a cloud node of Karpenter NodePool .gpu." err &&
	expect_exit 3 drill --nodes ip-10-0-12-34.us-west-2.compute.internal 2>err &&
	grep "node .ip-10-0-12-34.us-west-2.compute.internal. is not a hybrid node (label eks.amazonaws.com/compute-type is absent)" err &&
	rm -f rec.json &&
	expect_exit 3 drill --nodes "$FB2" --execute --record rec.json 2>err &&
	grep "node .$FB2. is a cloud node" err &&
	! grep -v "^GET " "$SCRATCH/requests.log" &&
	[ ! -e rec.json ]
'

test_expect_success 'drill plan --nodes naming a cloud node: a usage error (exit 2), as a node not in the cluster' '
	live_certs &&
	live_applied "$LIVE/sites" seoul-dc1 >/dev/null 2>&1 &&
	live_start drill-run-fallback-nodes --applied "$SCRATCH/applied.json" &&
	expect_exit 2 "$GPUSITE" drill plan seoul-dc1 "$LIVE/sites" --kubeconfig "$SCRATCH/kubeconfig" \
		--nodes gpu-a-01,$FB1 >out 2>err &&
	grep "^gpusite drill plan: node .$FB1. is a cloud node of Karpenter NodePool .seoul-dc1-gpu-fallback. (label karpenter.sh/nodepool), not an on-prem hybrid node: a drill takes down only the on-prem hybrid nodes of site seoul-dc1; name them with --nodes" err &&
	test_cmp /dev/null out &&
	only_gets
'

test_expect_success 'drill plan with the fallback nodes present: they are not drilled nor their pod counted' '
	live_start drill-run-fallback-nodes --applied "$SCRATCH/applied.json" &&
	expect_exit 1 "$GPUSITE" drill plan seoul-dc1 "$LIVE/sites" --kubeconfig "$SCRATCH/kubeconfig" >out 2>err &&
	grep "^drill plan: site seoul-dc1, scenario node-failure, 2 nodes: gpu-a-01 gpu-a-02$" out &&
	grep "^  2 GPU pods (8 GPUs) will move" out &&
	grep "the fallback is already active: NodePool seoul-dc1-gpu-fallback has 2 nodes.*\[GS237\]$" out &&
	only_gets
'

test_done
