#!/bin/sh
# t5012: `gpusite drift` and `diff --live` know the burst pool.  The specs of
# testdata/live/sites with a burst block on seoul-dc1 (namespace batch,
# gpuLimit 8), synced as rendered: the burst NodePool and its placement
# policy are gpusite's objects like the others.
#   healthy        nothing to report (exit 0), diff --live empty
#   burst-drifted  the burst NodePool's GPU limit changed by hand (GS211, in
#                  the burst pool's words), a burst node in use (GS213 note),
#                  diff --live shows the -/+ lines of the burst pool
#   burst-missing  the burst NodePool deleted: GS212-like "missing" finding
#   burst-pods     in the burst namespace, a GPU pod Pending (GS214: Spot
#                  capacity missing, not a failover) and one without the
#                  burst toleration (GS215 names the burst taint)
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/live.sh"

if ! live_have_python; then
	test_skip "burst pool drift scenarios" "python3 or openssl not found"
	test_done
	exit
fi
live_certs
live_burst_spec >/dev/null 2>&1 || true

# run SCENARIO EXIT CMD...: run a command against the scenario
run() {
	scen=$1 want=$2
	shift 2
	live_start "$scen" --applied "$SCRATCH/applied.keep" &&
	(cd "$SCRATCH/spec" && expect_exit "$want" "$GPUSITE" "$@" --kubeconfig "$SCRATCH/kubeconfig" \
		sites >"$SCRATCH/out" 2>"$SCRATCH/err") &&
	only_gets &&
	no_leak "$SCRATCH/out" "$SCRATCH/err"
}

test_expect_success 'the synced objects hold the burst NodePool and the burst placement policy' '
	grep -q "\"name\":\"seoul-dc1-gpu-burst\"" "$SCRATCH/applied.keep" &&
	grep -q "\"name\":\"gpusite-seoul-dc1-burst-placement\"" "$SCRATCH/applied.keep"
'
test_expect_success 'healthy with a burst pool: drift exit 0, diff --live exit 0' '
	run healthy 0 drift &&
	grep "0 errors, 0 warnings, 0 notes" "$SCRATCH/out" &&
	run healthy 0 diff --live &&
	! grep -q "seoul-dc1-gpu-burst" "$SCRATCH/out"
'
test_expect_success 'burst NodePool changed by hand: GS211 in the burst pool'"'"'s words, the burst node in use' '
	run burst-drifted 1 drift &&
	grep "sites/seoul-dc1.yaml:[0-9]*:[0-9]*: error: burst NodePool seoul-dc1-gpu-burst of site seoul-dc1 differs from the rendered one at spec.limits\[\"nvidia.com/gpu\"\] (cluster 32, rendered 8).*\[GS211\]" "$SCRATCH/out" &&
	grep "note: burst NodePool seoul-dc1-gpu-burst of site seoul-dc1 is active: 0 NodeClaims, 1 node (ip-10-0-93-21.us-west-2.compute.internal), 4 of 8 GPUs in use (50%)" "$SCRATCH/out" &&
	! grep "fallback NodePool seoul-dc1-gpu-fallback of site seoul-dc1 differs" "$SCRATCH/out"
'
test_expect_success 'burst NodePool changed by hand: diff --live shows its -/+ lines' '
	run burst-drifted 1 diff --live &&
	grep -q "^--- live/NodePool/seoul-dc1-gpu-burst$" "$SCRATCH/out" &&
	grep -q "^-    nvidia.com/gpu: 32$" "$SCRATCH/out" &&
	grep -q "^+    nvidia.com/gpu: 8$" "$SCRATCH/out"
'
test_expect_success 'burst NodePool deleted: drift says burst work waits for the on-prem nodes' '
	run burst-missing 1 drift &&
	grep "error: burst NodePool seoul-dc1-gpu-burst of site seoul-dc1 is missing from cluster my-hybrid-cluster: burst work waits for the on-prem nodes" "$SCRATCH/out"
'
test_expect_success 'burst pods: pending is Spot capacity missing, a pod without the burst toleration is named' '
	run burst-pods 1 drift &&
	grep "sites/seoul-dc1.yaml:[0-9]*:[0-9]*: error: 1 burst GPU pod is Pending in namespace batch of site seoul-dc1: burst-job-0; the on-prem GPUs are full and the burst pool has no spot capacity for it or is at burst.gpuLimit (burst work never uses the fallback, so this is not a failover.*\[GS214\]" "$SCRATCH/out" &&
	grep "error: 1 burst GPU pod in namespace batch of site seoul-dc1 lacks a toleration for nvidia.com/gpu=Exists:NoSchedule and gpusite.io/burst=true:NoSchedule and gpusite.io/site=seoul-dc1:NoSchedule: burst-job-1; the kyverno burst placement policy did not mutate it.*\[GS215\]" "$SCRATCH/out" &&
	! grep "burst-job-0.*GS215" "$SCRATCH/out" &&
	! grep "the fallback has not placed" "$SCRATCH/out"
'
test_done
