#!/bin/sh
# t5010: `gpusite drift` on every scenario of testdata/live: the findings
# (golden, byte for byte), the exit code, GET only, no secret in output.
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/live.sh"

if ! live_have_python; then
	test_skip "drift scenarios" "python3 or openssl not found"
	test_done
	exit
fi
live_certs
live_applied "$LIVE/sites" seoul-dc1 >/dev/null 2>&1 || true
cp "$SCRATCH/applied.json" "$SCRATCH/applied.keep" 2>/dev/null

# drift_case SCENARIO EXIT: run drift, compare with expected/drift.txt
drift_case() {
	live_start "$1" --applied "$SCRATCH/applied.keep" &&
	(cd "$LIVE" && expect_exit "$2" "$GPUSITE" drift -v --kubeconfig "$SCRATCH/kubeconfig" \
		sites >"$SCRATCH/out" 2>"$SCRATCH/err") &&
	live_golden "$LIVE/$1/expected/drift.txt" "$SCRATCH/out" &&
	grep "cluster my-hybrid-cluster (from the EKS cluster ARN in the kubeconfig), 1 site: seoul-dc1" "$SCRATCH/err" &&
	only_gets &&
	no_leak "$SCRATCH/out" "$SCRATCH/err"
}

test_expect_success 'healthy: no finding, exit 0' '
	drift_case healthy 0 &&
	grep "0 errors, 0 warnings, 0 notes" "$SCRATCH/out"
'
test_expect_success 'node joined without the taint and labels: GS201, GS203; wrong effect: GS202' '
	drift_case no-taint 1 &&
	grep "node gpu-a-02 of site seoul-dc1 has no GPU taint nvidia.com/gpu=Exists:NoSchedule.*\[GS201\]" "$SCRATCH/out" &&
	grep "node gpu-a-02 .* lacks the labels gpu.model=h200, .*node-type=hybrid-gpu.*\[GS203\]" "$SCRATCH/out" &&
	grep "mi-0a1b2c3d4e5f60002 .*=Exists:PreferNoSchedule, not .*\[GS202\]" "$SCRATCH/out"
'
test_expect_success 'device plugin on an Auto Mode GPU node: GS207' '
	drift_case double-plugin 1 &&
	grep "nvidia-device-plugin-x9r4t runs on node i-0a1b2c3d4e5f60718, an EKS Auto Mode node.*\[GS207\]" "$SCRATCH/out"
'
test_expect_success 'NodePool limit changed by hand: GS211 names the fields' '
	drift_case nodepool-drifted 1 &&
	grep "spec.limits\[\"nvidia.com/gpu\"\] (cluster 32, rendered 16).*\[GS211\]" "$SCRATCH/out"
'
test_expect_success 'EC2NodeClass missing: GS212' '
	drift_case nodeclass-missing 1 &&
	grep "EC2NodeClass gpu-fallback, which fallback NodePool seoul-dc1-gpu-fallback .*\[GS212\]" "$SCRATCH/out"
'
test_expect_success 'fallback active is a note; pending, untolerated and unbound GPU pods are drift' '
	drift_case fallback-active 1 &&
	grep "note: fallback NodePool seoul-dc1-gpu-fallback of site seoul-dc1 is active: 2 NodeClaims.*8 of 16 GPUs" "$SCRATCH/out" &&
	grep "3 GPU pods are Pending in namespace inference.*\[GS214\]" "$SCRATCH/out" &&
	grep "embedder-0.*\[GS215\]" "$SCRATCH/out" &&
	grep "1 GPU pod in namespace inference of site seoul-dc1 lacks the node affinity .*gpusite.io/site In \[seoul-dc1\] (required) that the kyverno placement policy gpusite-seoul-dc1-placement adds: embedder-0;.*\[GS247\]" "$SCRATCH/out" &&
	grep "node gpu-a-01 of site seoul-dc1 is not Ready.*\[GS205\]" "$SCRATCH/out"
'
test_expect_success 'a hybrid node in no spec is a warning: exit 0, exit 1 with --strict' '
	drift_case unknown-node 0 &&
	grep "warning: 1 hybrid node of cluster my-hybrid-cluster is in no site spec: gpu-c-07.*\[GS206\]" "$SCRATCH/out" &&
	(cd "$LIVE" && expect_exit 1 "$GPUSITE" drift --strict --kubeconfig "$SCRATCH/kubeconfig" sites >"$SCRATCH/strict" 2>/dev/null) &&
	grep "error: 1 hybrid node .*\[GS206\]" "$SCRATCH/strict"
'
test_expect_success 'drift --format json: each finding with rule, severity and file' '
	live_start fallback-active --applied "$SCRATCH/applied.keep" &&
	cd "$LIVE" &&
	expect_exit 1 "$GPUSITE" drift --kubeconfig "$SCRATCH/kubeconfig" --format json sites >"$SCRATCH/j" &&
	python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
rules = sorted(x[\"rule\"] for x in d[\"diagnostics\"])
assert rules == [\"GS205\", \"GS205\", \"GS213\", \"GS214\", \"GS215\", \"GS247\"], rules
note = [x for x in d[\"diagnostics\"] if x[\"rule\"] == \"GS213\"][0]
assert note[\"severity\"] == \"note\", note
assert note[\"file\"] == \"sites/seoul-dc1.yaml\", note
" "$SCRATCH/j"
'
test_expect_success 'CI formats: github annotations, junit of the sites of this cluster only' '
	live_start no-taint --applied "$SCRATCH/applied.keep" &&
	cd "$LIVE" &&
	top=$(git rev-parse --show-prefix 2>/dev/null) &&
	expect_exit 1 "$GPUSITE" drift --format github --kubeconfig "$SCRATCH/kubeconfig" sites >"$SCRATCH/gh" 2>/dev/null &&
	grep "^::error file=${top}sites/seoul-dc1.yaml,line=28,col=25,title=GS201::node gpu-a-02" "$SCRATCH/gh" &&
	(cd sites && expect_exit 1 "$GPUSITE" drift --format github --kubeconfig "$SCRATCH/kubeconfig" . >"$SCRATCH/gh2" 2>/dev/null) &&
	grep "^::error file=${top}sites/seoul-dc1.yaml,line=28,col=25,title=GS201::" "$SCRATCH/gh2" &&
	expect_exit 1 "$GPUSITE" drift --format junit --kubeconfig "$SCRATCH/kubeconfig" sites >"$SCRATCH/ju" 2>/dev/null &&
	grep "<testsuites name=\"gpusite drift\" tests=\"1\" failures=\"1\"" "$SCRATCH/ju" &&
	! grep frankfurt "$SCRATCH/ju"
'
test_expect_success 'sites of other clusters are neither checked nor reported' '
	live_start healthy --applied "$SCRATCH/applied.keep" &&
	cd "$LIVE" &&
	"$GPUSITE" drift --kubeconfig "$SCRATCH/kubeconfig" sites >"$SCRATCH/out" 2>&1 &&
	! grep frankfurt "$SCRATCH/out"
'
test_expect_success '--cluster names a cluster no spec has: exit 3, says so' '
	live_start healthy &&
	cd "$LIVE" &&
	expect_exit 3 "$GPUSITE" drift --kubeconfig "$SCRATCH/kubeconfig" --cluster nowhere sites 2>"$SCRATCH/err" &&
	grep "no site spec names cluster nowhere (settled from --cluster)" "$SCRATCH/err"
'
test_expect_success 'drift --help lists every drift finding of the table, one entry each' '
	"$GPUSITE" drift --help >"$SCRATCH/h" &&
	grep -x "  GS201  a hybrid node of a site has no GPU taint (joined without it, or it" "$SCRATCH/h" &&
	grep -x "  GS206  a hybrid node is in no site spec of the cluster" "$SCRATCH/h" &&
	grep -x "  GS218  the live EC2NodeClass of the fallback boots another AMI family than" "$SCRATCH/h" &&
	grep -c "^  GS2[0-9][0-9]  " "$SCRATCH/h" >"$SCRATCH/n" &&
	grep -c "FINDING_DRIFT," "$TEST_TOP/src/base/findings.c" | test_cmp - "$SCRATCH/n" &&
	grep -- "--kubeconfig FILE" "$SCRATCH/h"
'
test_done
