#!/bin/sh
# t5020: `gpusite diff --live`: normalised unified diffs per object against
# the test API server (golden, byte for byte), '+' whole for objects not in
# the cluster, '-' whole for gpusite objects the specs no longer render,
# exit codes, JSON, and nothing but GET and LIST sent.
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/live.sh"

if ! live_have_python; then
	test_skip "diff --live scenarios" "python3 or openssl not found"
	test_done
	exit
fi
live_certs
live_applied "$LIVE/sites" seoul-dc1 >/dev/null 2>&1 || true
cp "$SCRATCH/applied.json" "$SCRATCH/applied.keep" 2>/dev/null

# diff_case SCENARIO EXIT GOLDEN [server options]
diff_case() {
	scen=$1 want=$2 golden=$3
	shift 3
	live_start "$scen" "$@" &&
	(cd "$LIVE" && expect_exit "$want" "$GPUSITE" diff --live -v \
		--kubeconfig "$SCRATCH/kubeconfig" sites >"$SCRATCH/out" 2>"$SCRATCH/err") &&
	live_golden "$LIVE/$scen/expected/$golden" "$SCRATCH/out" &&
	only_gets &&
	no_leak "$SCRATCH/out" "$SCRATCH/err"
}

test_expect_success 'healthy: server fields and defaults are no difference, exit 0' '
	diff_case healthy 0 diff-live.txt --applied "$SCRATCH/applied.keep" &&
	echo "0 objects changed, 0 added, 0 removed" >"$SCRATCH/want" &&
	test_cmp "$SCRATCH/want" "$SCRATCH/out"
'
test_expect_success 'the live objects do carry server fields (so the test means something)' '
	live_start healthy --applied "$SCRATCH/applied.keep" &&
	python3 "$FAKE" dump --scenario "$LIVE/healthy" --applied "$SCRATCH/applied.keep" >"$SCRATCH/dump" &&
	grep "\"managedFields\"" "$SCRATCH/dump" &&
	grep "\"budgets\"" "$SCRATCH/dump" &&
	grep "last-applied-configuration" "$SCRATCH/dump" &&
	grep "argocd.argoproj.io/tracking-id" "$SCRATCH/dump"
'
test_expect_success 'nothing synced yet: every rendered object shown whole with +' '
	diff_case healthy 1 diff-live-unsynced.txt &&
	grep "^+++ rendered/NodePool/seoul-dc1-gpu-fallback$" "$SCRATCH/out" &&
	grep "^@@ -0,0 +1," "$SCRATCH/out" &&
	tail -1 "$SCRATCH/out" | grep "^0 objects changed, 6 added, 0 removed$"
'
test_expect_success 'NodePool changed by hand and a stale gpusite object: diff and - whole' '
	diff_case nodepool-drifted 1 diff-live.txt --applied "$SCRATCH/applied.keep" &&
	grep "^-    nvidia.com/gpu: 32$" "$SCRATCH/out" &&
	grep "^+    nvidia.com/gpu: 16$" "$SCRATCH/out" &&
	grep "^--- live/PrometheusRule/monitoring/gpusite-busan-dc9$" "$SCRATCH/out" &&
	! grep "managedFields\|tracking-id\|generation" "$SCRATCH/out" &&
	tail -1 "$SCRATCH/out" | grep "^1 objects changed, 0 added, 1 removed$"
'
test_expect_success 'diff --live --format json: status per object and a summary' '
	live_start nodepool-drifted --applied "$SCRATCH/applied.keep" &&
	cd "$LIVE" &&
	expect_exit 1 "$GPUSITE" diff --live --format json --kubeconfig "$SCRATCH/kubeconfig" sites >"$SCRATCH/j" 2>/dev/null &&
	python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
st = {(o[\"kind\"], o[\"name\"]): o[\"status\"] for o in d[\"objects\"]}
assert st[(\"NodePool\", \"seoul-dc1-gpu-fallback\")] == \"changed\", st
assert st[(\"PrometheusRule\", \"gpusite-busan-dc9\")] == \"removed\", st
assert st[(\"ConfigMap\", \"gpusite-nodeconfig-seoul-dc1\")] == \"unchanged\", st
assert d[\"summary\"] == {\"changed\": 1, \"added\": 0, \"removed\": 1, \"unchanged\": 5}, d[\"summary\"]
assert d[\"cluster\"] == \"my-hybrid-cluster\"
" "$SCRATCH/j"
'
test_expect_success 'objects of a site of another cluster are never called removed' '
	"$GPUSITE" render --format json --site frankfurt-lab "$LIVE/sites" >"$SCRATCH/other.json" &&
	cat "$SCRATCH/applied.keep" "$SCRATCH/other.json" >"$SCRATCH/both.json" &&
	live_start healthy --applied "$SCRATCH/both.json" &&
	cd "$LIVE" &&
	expect_exit 0 "$GPUSITE" diff --live --kubeconfig "$SCRATCH/kubeconfig" sites >"$SCRATCH/out" 2>/dev/null &&
	! grep frankfurt "$SCRATCH/out"
'
test_expect_success 'diff without --live or --base is a usage error' '
	expect_exit 2 "$GPUSITE" diff 2>"$SCRATCH/err" &&
	grep "say what to compare" "$SCRATCH/err" &&
	expect_exit 2 "$GPUSITE" diff --context x 2>"$SCRATCH/err" &&
	grep "go with --live" "$SCRATCH/err"
'
test_done
