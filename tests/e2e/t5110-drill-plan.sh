#!/bin/sh
# t5110: `gpusite drill plan` against the static drill-* scenarios of
# testdata/live: a ready cluster (exit 0, the steps and the timeline), and
# one finding per precondition the drill needs (exit 1); GET only.
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/live.sh"
. "$TEST_TOP/tests/tools/live-drill.sh"

if ! live_have_python; then
	test_skip "drill plan scenarios" "python3 or openssl not found"
	test_done
	exit
fi
live_certs

test_expect_success 'a ready cluster: exit 0, the handout: steps as commands, timeline, conditions, window, abort, cost' '
	plan drill-ready sites 0 &&
	cat >"$SCRATCH/expect" <<-\TXT &&
	drill plan: site seoul-dc1, scenario node-failure, 2 nodes: gpu-a-01 gpu-a-02
	  2 GPU pods (8 GPUs) will move to fallback NodePool seoul-dc1-gpu-fallback (gpuLimit 16)
	steps:
	  1. grant the drill'"'"'s write rights, for the drill only (on top of gpusite-read-only.yaml; bind them to whoever runs the drill):
	       kubectl apply -f examples/rbac/gpusite-drill.yaml
	  2. silence the notifications of the site'"'"'s alerts for the drill window 25m0s (they still fire in Prometheus: check there that they do):
	       SILENCE=$(amtool silence add --alertmanager.url="$ALERTMANAGER_URL" --duration=25m --comment='"'"'gpusite drill of site seoul-dc1'"'"' '"'"'alertname=~"GPUSiteFallbackActive|GPUSiteFallbackNearLimit|GPUSiteFallbackLaunchFailing|GPUSitePodsPending|GPUSiteOnPremNodeNotReady|GPUSiteNodeLabelsMissing"'"'"' '"'"'gpusite_site="seoul-dc1"'"'"')
	  3. the dry run (the exact API calls, nothing changed), then the drill (cordon, then evict through the Eviction API; cordoning alone moves nothing):
	       gpusite drill run seoul-dc1 sites --kubeconfig SCRATCH/kubeconfig --nodes gpu-a-01,gpu-a-02
	       gpusite drill run seoul-dc1 sites --kubeconfig SCRATCH/kubeconfig --nodes gpu-a-01,gpu-a-02 --record drill.json --execute
	  4. watch until the availability condition holds, then measure:
	       gpusite drill report seoul-dc1 sites --kubeconfig SCRATCH/kubeconfig --record drill.json
	  5. restore (it uncordons only the nodes the drill cordoned), and wait for the return condition:
	       gpusite drill run seoul-dc1 sites --kubeconfig SCRATCH/kubeconfig --restore --nodes gpu-a-01,gpu-a-02 --record drill.json --execute
	  6. expire the silence and revoke the rights:
	       amtool silence expire --alertmanager.url="$ALERTMANAGER_URL" "$SILENCE"
	       kubectl delete -f examples/rbac/gpusite-drill.yaml
	expected timeline (recovery budget):
	  nodeMonitorGrace          -  (absent in a drain)
	  eviction               1m0s  (at +1m0s)
	  nodeProvisioning       4m0s  (at +5m0s)
	  imagePull              6m0s  (at +11m0s)
	  modelLoad              3m0s  (at +14m0s)
	  total                 14m0s  targetRTO 15m0s
	availability: every GPU pod of namespace inference Ready again, on nodes of NodePool seoul-dc1-gpu-fallback
	return: the drilled nodes schedulable and Ready, the pods back on-prem, NodePool seoul-dc1-gpu-fallback at zero nodes within consolidateAfter 5m0s plus a margin
	drill window: 25m0s = targetRTO 15m0s (the longest the drill runs before it is aborted) + the return (consolidateAfter 5m0s + a 5m0s margin, the restore'"'"'s default wait)
	abort (restore at once) when:
	  - drill run stops with exit 3 (a write refused, a PodDisruptionBudget, interrupted): it names the nodes it cordoned and the restore command
	  - the availability condition does not hold 15m0s after the start (drill run waits until its --timeout, 30m0s by default: stop it with Ctrl-C)
	  - GPU pods the drill does not move go Pending, or the fallback nears gpuLimit 16 (GPUSiteFallbackNearLimit fires in Prometheus)
	  - an incident anywhere needs the site'"'"'s GPUs back
	cost of the fallback for the drill window 25m0s (us-east-1 on-demand list prices of 2026-07-06, Karpenter v1.14.1 pkg/providers/pricing/zz_generated.pricing_aws.go; only an estimate in us-west-2):
	  8 GPUs to replace (the GPUs of the pods that move, within gpuLimit 16)
	  g6.12xlarge        2 nodes x PRICE
	  g6e.12xlarge       2 nodes x PRICE
	  Karpenter launches the cheapest type that fits: expect about PRICE
	gpusite drill plan: site seoul-dc1 is ready for the drill
	TXT
	# the prices come from the upstream table: t5111 checks them against it
	sed -e "s,$SCRATCH,SCRATCH,g" -e "s/ nodes x \$.*/ nodes x PRICE/" \
		-e "s/expect about \$[0-9.]*$/expect about PRICE/" "$SCRATCH/out" >"$SCRATCH/out.1" &&
	test_cmp "$SCRATCH/expect" "$SCRATCH/out.1"
'
test_expect_success 'a PodDisruptionBudget that blocks the evictions is named: GS234' '
	plan drill-pdb-blocks sites 1 &&
	grep "^sites/seoul-dc1.yaml:77:17: error: PodDisruptionBudget inference/llm-server allows no disruption now and covers GPU pods of the drilled nodes: their eviction would be refused (429).*\[GS234\]$" "$SCRATCH/out" &&
	! grep "inference/coredns" "$SCRATCH/out" &&
	grep "is not ready for the drill: 1 finding$" "$SCRATCH/out"
'
test_expect_success 'the fallback already active: GS237' '
	plan drill-fallback-active sites 1 &&
	grep "error: the fallback is already active: NodePool seoul-dc1-gpu-fallback has 1 node (first ip-10-0-77-12.us-west-2.compute.internal).*\[GS237\]$" "$SCRATCH/out"
'
test_expect_success 'GPU pods Pending now: GS237' '
	plan drill-pending sites 1 &&
	grep "error: 1 GPU pod is Pending now (first inference/llm-batch-0).*\[GS237\]$" "$SCRATCH/out"
'
test_expect_success 'no PrometheusRule: GS235' '
	plan drill-no-promrule sites 1 &&
	grep "^sites/seoul-dc1.yaml:92:14: error: PrometheusRule monitoring/gpusite-seoul-dc1 is not in the cluster.*\[GS235\]$" "$SCRATCH/out"
'
test_expect_success 'the fallback NodePool changed by hand (the diff --live compare): GS230' '
	plan nodepool-drifted sites 1 &&
	grep "error: fallback NodePool seoul-dc1-gpu-fallback differs from the render at spec.disruption.consolidateAfter, spec.limits\[\"nvidia.com/gpu\"\]: the drill would measure another pool.*\[GS230\]$" "$SCRATCH/out"
'
test_expect_success 'its node class missing: GS231' '
	plan nodeclass-missing sites 1 &&
	grep "error: EC2NodeClass gpu-fallback, the fallback pool.s node class, is not in the cluster.*\[GS231\]$" "$SCRATCH/out"
'
test_expect_success 'al2023 fallback nodes without the fallback device plugin: GS232' '
	plan drill-al2023 drill-al2023/sites 1 &&
	grep "error: fallback.nodeImage is al2023 but the fallback device plugin.s DaemonSet (nvidia-device-plugin-fallback) is not in the cluster.*\[GS232\]$" "$SCRATCH/out" &&
	grep "sync the my-hybrid-cluster-nvidia-device-plugin-fallback Application \[GS232\]$" "$SCRATCH/out" &&
	! grep -q "<cluster>" "$SCRATCH/out"
'

test_expect_success 'GS232 names the Application render makes for the site' '
	"$GPUSITE" render "$LIVE/drill-al2023/sites" >"$SCRATCH/al2023.yaml" &&
	app=$(sed -n "s/.*sync the \(.*\) Application \[GS232\]$/\1/p" "$SCRATCH/out") &&
	test -n "$app" &&
	grep -A3 "^kind: Application$" "$SCRATCH/al2023.yaml" | grep -x "  name: $app"
'
test_expect_success 'more GPUs move than gpuLimit: GS233; --nodes picks the nodes' '
	mkdir -p "$SCRATCH/low" &&
	sed -e "s/^    gpuLimit: 16 /    gpuLimit: 12 /" "$LIVE/sites/seoul-dc1.yaml" >"$SCRATCH/low/seoul-dc1.yaml" &&
	plan drill-ready "$SCRATCH/low" 1 --nodes gpu-a-01,gpu-a-02 --nodes mi-0a1b2c3d4e5f60001 --nodes mi-0a1b2c3d4e5f60002 &&
	grep "error: fallback.gpuLimit 12 is below the 16 GPUs that the 4 GPU pods of the drilled nodes request.*\[GS233\]$" "$SCRATCH/out" &&
	grep "^drill plan: site seoul-dc1, scenario node-failure, 4 nodes: gpu-a-01 gpu-a-02 mi-0a1b2c3d4e5f60001 mi-0a1b2c3d4e5f60002$" "$SCRATCH/out"
'
test_expect_success 'a pod larger than every fallback instance type: GS233 names the pod size and the largest type' '
	mkdir -p "$SCRATCH/small" &&
	sed -e "s/instanceTypes: \[g6.12xlarge, g6e.12xlarge\]/instanceTypes: [g6.4xlarge, g6e.2xlarge]/" \
		-e "s/^    gpuLimit: 16 /    gpuLimit: 4 /" -e "/^    minGpuMemoryMiB:/d" \
		"$LIVE/sites/seoul-dc1.yaml" >"$SCRATCH/small/seoul-dc1.yaml" &&
	plan drill-ready "$SCRATCH/small" 1 --nodes gpu-a-01 &&
	grep "error: a GPU pod of the drilled nodes requests 4 GPUs, but the largest fallback instance type, g6.4xlarge, has 1: it would stay Pending on the fallback, in the drill and in an outage; list a type with 4 GPUs or more in fallback.instanceTypes \[GS233\]$" "$SCRATCH/out"
'
test_expect_success '--group: the nodes of one group; a node not in the cluster is a usage error' '
	plan drill-ready sites 0 --group rack-a &&
	grep "^drill plan: site seoul-dc1, scenario node-failure, 2 nodes: gpu-a-01 gpu-a-02$" "$SCRATCH/out" &&
	plan drill-ready sites 2 --nodes gpu-a-01,gpu-a-09 &&
	grep "^gpusite drill plan: node gpu-a-09 is not in cluster my-hybrid-cluster; name nodes of site seoul-dc1" "$SCRATCH/err" &&
	plan drill-ready sites 2 --group rack-z &&
	grep "node group rack-z is not in the spec and names no nodes; pass --nodes" "$SCRATCH/err"
'
test_expect_success 'partition: what to block and what to expect; unfenced single writers are an error (GS238)' '
	plan drill-partition drill-partition/sites 1 --scenario partition &&
	grep "^drill-partition/sites/seoul-dc1.yaml:84:14: error: placement.singleWriter is true with fencing statefulset, but 2 GPU pods of the drilled nodes are not of a StatefulSet (first inference/llm-server-6f7d9c8b5-abcde (owned by ReplicaSet)).*\[GS238\]$" "$SCRATCH/out" &&
	grep "^  1. gpusite sends no write in a partition drill: no drill rights are needed$" "$SCRATCH/out" &&
	grep "^  3. block the path between the site and the VPC (Direct Connect or VPN) for the drilled nodes; gpusite never touches the network$" "$SCRATCH/out" &&
	grep "^  4. expect the nodes NotReady after nodeMonitorGracePeriod 50s, the pods evicted after unreachableTolerationSeconds 60s; the old pods may keep running on the cut-off nodes$" "$SCRATCH/out" &&
	! grep -e "kubectl apply" -e "--execute" "$SCRATCH/out" &&
	grep "^  nodeMonitorGrace        50s  (at +50s)$" "$SCRATCH/out" &&
	grep "^  total                14m50s  targetRTO 15m0s$" "$SCRATCH/out"
'
test_expect_success 'a single writer without any fencing never reaches the plan: the spec is invalid (GS051)' '
	mkdir -p "$SCRATCH/nofence" &&
	sed "s/fencing: statefulset/fencing: none/" "$LIVE/drill-partition/sites/seoul-dc1.yaml" >"$SCRATCH/nofence/seoul-dc1.yaml" &&
	live_start drill-ready &&
	expect_exit 1 "$GPUSITE" drill plan seoul-dc1 --scenario partition --kubeconfig "$SCRATCH/kubeconfig" \
		"$SCRATCH/nofence" >/dev/null 2>"$SCRATCH/err" &&
	grep "GS051" "$SCRATCH/err"
'
test_expect_success 'usage and access errors: exit 2 and 3' '
	live_start drill-ready &&
	(cd "$LIVE" && expect_exit 2 "$GPUSITE" drill plan seoul-dc1 --scenario flood sites 2>"$SCRATCH/err") &&
	grep "scenario flood: say node-failure or partition" "$SCRATCH/err" &&
	(cd "$LIVE" && expect_exit 2 "$GPUSITE" drill plan seoul-dc1 --nodes a --group rack-a sites 2>/dev/null) &&
	(cd "$LIVE" && expect_exit 2 "$GPUSITE" drill plan frankfurt-lab --kubeconfig "$SCRATCH/kubeconfig" sites 2>"$SCRATCH/err") &&
	grep "site frankfurt-lab is not a site of cluster my-hybrid-cluster" "$SCRATCH/err" &&
	(cd "$LIVE" && expect_exit 3 "$GPUSITE" drill plan seoul-dc1 --kubeconfig "$SCRATCH/none" sites 2>"$SCRATCH/err") &&
	grep "GS290" "$SCRATCH/err"
'
test_done
