#!/bin/sh
# t5014: `gpusite drift` on what keeps a site's pools and its GPU Pods to
# each other (goldens byte for byte):
#   pool-untainted  the fallback node lost the site taint (GS246)
#   unbound-pods    GPU Pods of namespace inference without the node
#                   affinity the placement policy adds: one admitted while
#                   the policy was down (GS215 and GS247), one with the
#                   hybrid preference only (GS247, the site term); one bound
#                   by its nodeSelector and a finished one are not named
#   burst-unbound   with a burst block (namespace batch): a burst Pod
#                   without the gpusite.io/pool exclusion, a burst node
#                   without the site taint (GS247, GS246)
# and healthy, whose Pods carry what the policy adds, stays exit 0.
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/live.sh"

if ! live_have_python; then
	test_skip "pool taint and Pod binding drift scenarios" "python3 or openssl not found"
	test_done
	exit
fi
live_certs
mkdir -p "$SCRATCH/plain" &&
cp -R "$LIVE/sites" "$SCRATCH/plain/"
live_applied "$SCRATCH/plain/sites" seoul-dc1 >/dev/null 2>&1 || true
cp "$SCRATCH/applied.json" "$SCRATCH/applied.plain" 2>/dev/null
live_burst_spec >/dev/null 2>&1 || true

# bound_case SCENARIO SPECS EXIT [FORMAT]: run drift on the specs of
# $SCRATCH/SPECS, synced as rendered; output in $SCRATCH/out
bound_case() {
	applied=$SCRATCH/applied.keep &&
	if test "$2" = plain; then applied=$SCRATCH/applied.plain; fi &&
	live_start "$1" --applied "$applied" &&
	(cd "$SCRATCH/$2" && expect_exit "$3" "$GPUSITE" drift --format "${4:-text}" \
		--kubeconfig "$SCRATCH/kubeconfig" sites >"$SCRATCH/out" 2>"$SCRATCH/err") &&
	only_gets &&
	no_leak "$SCRATCH/out" "$SCRATCH/err"
}

# rules FILE: the rules of a JSON report, sorted, one line
rules() {
	python3 -c "
import json, sys
print(\" \".join(sorted(x[\"rule\"] for x in json.load(open(sys.argv[1]))[\"diagnostics\"])))
" "$1"
}

test_expect_success 'the burst specs render the burst placement policy' '
	test -s "$SCRATCH/applied.plain" &&
	grep -q "\"name\":\"gpusite-seoul-dc1-burst-placement\"" "$SCRATCH/applied.keep"
'
test_expect_success 'healthy: its GPU Pods carry the binding, no GS246 or GS247, exit 0' '
	bound_case healthy plain 0 &&
	grep "0 errors, 0 warnings, 0 notes" "$SCRATCH/out" &&
	bound_case healthy spec 0 &&
	grep "0 errors, 0 warnings, 0 notes" "$SCRATCH/out"
'
test_expect_success 'fallback node without the site taint: GS246 (golden)' '
	bound_case pool-untainted plain 1 &&
	live_golden "$LIVE/pool-untainted/expected/drift.txt" "$SCRATCH/out" &&
	grep "error: fallback node ip-10-0-77-12.us-west-2.compute.internal of NodePool seoul-dc1-gpu-fallback (site seoul-dc1) lacks the taint gpusite.io/site=seoul-dc1:NoSchedule: any Pod that tolerates nvidia.com/gpu=Exists:NoSchedule can land on it; the NodePool was changed by hand or the node predates the taint; Karpenter.s drift replaces.*\[GS246\]" "$SCRATCH/out" &&
	test "$(grep -c "\[GS24[67]\]" "$SCRATCH/out")" = 1
'
test_expect_success 'GPU Pods without the site affinity: GS247 names them and what they lack (golden)' '
	bound_case unbound-pods plain 1 &&
	live_golden "$LIVE/unbound-pods/expected/drift.txt" "$SCRATCH/out" &&
	grep "error: 1 GPU pod in namespace inference of site seoul-dc1 lacks the node affinity gpusite.io/site In \[seoul-dc1\] (required) that the kyverno placement policy gpusite-seoul-dc1-placement adds: embedder-7c9d8f6b5-r2d2x; it was admitted while the policy was not acting.*kubectl rollout restart.*\[GS247\]" "$SCRATCH/out" &&
	grep "lacks the node affinity eks.amazonaws.com/compute-type In \[hybrid\] (preferred, weight 100) and gpusite.io/site In \[seoul-dc1\] (required) .*: llm-server-6f7d9c8b5-n0pol;.*\[GS247\]" "$SCRATCH/out" &&
	grep "llm-server-6f7d9c8b5-n0pol.*\[GS215\]" "$SCRATCH/out" &&
	! grep "k9s8p" "$SCRATCH/out" &&
	! grep "eval-job" "$SCRATCH/out"
'
test_expect_success 'burst Pod without the pool exclusion, burst node without the site taint (golden)' '
	bound_case burst-unbound spec 1 &&
	live_golden "$LIVE/burst-unbound/expected/drift.txt" "$SCRATCH/out" &&
	grep "error: 1 burst GPU pod in namespace batch of site seoul-dc1 lacks the node affinity gpusite.io/pool NotIn \[fallback\] (required) that the kyverno burst placement policy gpusite-seoul-dc1-burst-placement adds: batch-train-5b8c7d9f4-w6e2r;.*\[GS247\]" "$SCRATCH/out" &&
	grep "error: burst node ip-10-0-93-21.us-west-2.compute.internal of NodePool seoul-dc1-gpu-burst (site seoul-dc1) lacks the taint gpusite.io/site=seoul-dc1:NoSchedule.*\[GS246\]" "$SCRATCH/out" &&
	! grep "\[GS215\]" "$SCRATCH/out"
'
test_expect_success 'drift --format json names GS246 and GS247' '
	bound_case pool-untainted plain 1 json &&
	test "$(rules "$SCRATCH/out")" = "GS213 GS246" &&
	bound_case unbound-pods plain 1 json &&
	test "$(rules "$SCRATCH/out")" = "GS215 GS247 GS247" &&
	bound_case burst-unbound spec 1 json &&
	test "$(rules "$SCRATCH/out")" = "GS213 GS246 GS247" &&
	python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
x = [x for x in d[\"diagnostics\"] if x[\"rule\"] == \"GS247\"][0]
assert x[\"severity\"] == \"error\", x
assert x[\"file\"] == \"sites/seoul-dc1.yaml\", x
" "$SCRATCH/out"
'
test_done
