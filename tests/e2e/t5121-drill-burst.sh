#!/bin/sh
# t5121: a drill of a site with a burst pool says whether burst work stayed
# off the fallback.  The specs of testdata/live/sites with a burst block on
# seoul-dc1 (namespace batch); the drill-drain-met drill, plus Pods of the
# burst scope:
#   drill-burst        batch-job-a on hybrid gpu-a-02, batch-job-b on the
#                      fallback node ip-10-0-77-12: NOT off the fallback
#   drill-burst-clean  only batch-job-a: stayed off the fallback
# The terms are those of the same drill without a burst pool (t5120).
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/live.sh"

if ! live_have_python; then
	test_skip "drill report with a burst pool" "python3 or openssl not found"
	test_done
	exit
fi
live_certs
live_burst_spec >/dev/null 2>&1 || true

# report SCENARIO ARGS...: drill report from the cluster -> $SCRATCH/out
report() {
	scen=$1
	shift
	live_start "$scen" --applied "$SCRATCH/applied.keep" &&
	(cd "$SCRATCH/spec" && expect_exit 0 "$GPUSITE" drill report seoul-dc1 \
		--kubeconfig "$SCRATCH/kubeconfig" "$@" sites >"$SCRATCH/out" 2>"$SCRATCH/err") &&
	only_gets
}

test_expect_success 'a burst Pod on a fallback node: the report says burst work did not stay off the fallback' '
	report drill-burst &&
	grep -q "^  total                   14m0s     10m59s  OK" "$SCRATCH/out" &&
	tail -n 1 "$SCRATCH/out" >"$SCRATCH/last" &&
	echo "  burst work did NOT stay off the fallback: 1 of 2 Pods of the burst scope on fallback nodes (batch/batch-job-b on ip-10-0-77-12.us-west-2.compute.internal)" >"$SCRATCH/want" &&
	test_cmp "$SCRATCH/want" "$SCRATCH/last"
'
test_expect_success 'json: burstPods and burstOnFallback' '
	report drill-burst --format json &&
	grep -q ",\"withinTarget\":true,\"burstPods\":2,\"burstOnFallback\":1}$" "$SCRATCH/out"
'
test_expect_success 'burst Pods only on the site'"'"'s own nodes: stayed off the fallback' '
	report drill-burst-clean &&
	tail -n 1 "$SCRATCH/out" >"$SCRATCH/last" &&
	echo "  burst work stayed off the fallback: none of the 1 running Pods of the burst scope is on a fallback node" >"$SCRATCH/want" &&
	test_cmp "$SCRATCH/want" "$SCRATCH/last" &&
	report drill-burst-clean --format markdown &&
	grep -q "^burst work stayed off the fallback" "$SCRATCH/out"
'
test_expect_success 'a site without a burst pool: no burst line (the same cluster, the plain specs)' '
	live_start drill-burst --applied "$SCRATCH/applied.keep" &&
	(cd "$LIVE" && expect_exit 0 "$GPUSITE" drill report seoul-dc1 \
		--kubeconfig "$SCRATCH/kubeconfig" sites >"$SCRATCH/out" 2>"$SCRATCH/err") &&
	! grep -q "burst" "$SCRATCH/out"
'
test_done
