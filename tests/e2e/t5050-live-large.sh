#!/bin/sh
# t5050: drift on a generated 5,000-node cluster (400 hybrid nodes, two of
# them untainted): the findings (golden), the cluster settled from the
# hybrid nodes' providerIDs, bounded memory (pages, not the whole list).
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/live.sh"

if ! live_have_python; then
	test_skip "5,000-node drift" "python3 or openssl not found"
	test_done
	exit
fi
live_certs
live_applied "$LIVE/large/sites" || exit 1

test_expect_success 'drift on 5,000 nodes: the two untainted nodes, exit 1' '
	EKS_ARN=big &&
	live_start large --applied "$SCRATCH/applied.json" &&
	(cd "$LIVE/large" && expect_exit 1 "$GPUSITE" drift --kubeconfig "$SCRATCH/kubeconfig" \
		sites >"$SCRATCH/out" 2>"$SCRATCH/err") &&
	live_golden "$LIVE/large/expected/drift.txt" "$SCRATCH/out" &&
	grep "cluster big-hybrid-cluster (from the providerID of hybrid nodes)" "$SCRATCH/err" &&
	[ "$(grep -c "\[GS201\]" "$SCRATCH/out")" -eq 2 ] &&
	only_gets
'
test_expect_success 'nodes are read in pages of 500 (the run above)' '
	[ "$(grep -c "^GET /api/v1/nodes?limit=500" "$SCRATCH/requests.log")" -eq 10 ]
'
if [ -n "${GPUSITE_SANITIZE:-}${GPUSITE_VALGRIND:-}" ]; then
	# make asan / make valgrind: the figure would be the tool's shadow
	# memory and quarantine, not gpusite's
	test_skip "peak memory stays under 100 MB" "sanitizer or valgrind run"
elif [ -x /usr/bin/time ]; then
	test_expect_success 'peak memory stays under 100 MB' '
		EKS_ARN=big &&
		live_start large --applied "$SCRATCH/applied.json" &&
		(cd "$LIVE/large" && expect_exit 1 /usr/bin/time -f "%M" -o "$SCRATCH/rss" "$GPUSITE" drift \
			--kubeconfig "$SCRATCH/kubeconfig" sites >/dev/null 2>&1) &&
		kb=$(tail -1 "$SCRATCH/rss") &&
		echo "peak RSS ${kb} KiB" &&
		[ "$kb" -lt 102400 ]
	'
else
	test_skip "peak memory stays under 100 MB" "/usr/bin/time not found"
fi
test_done
