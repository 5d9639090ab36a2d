#!/bin/sh
# t5104: a write that fails for good half-way stops the drill and says
# what it leaves behind: every node already cordoned and the full command
# that restores them; the record lists only the nodes actually touched.
# drill-run-patch-fails answers every PATCH of gpu-a-02 with 500 (retried,
# then given up), drill-run-evict-forbidden the eviction of its pod with
# 403 (an admission webhook).
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/live.sh"
. "$TEST_TOP/tests/tools/live-drill.sh"

if ! live_have_python; then
	test_skip "drill failures against the simulator" "python3 or openssl not found"
	test_done
	exit
fi
cd "$SCRATCH"

RESTORE="gpusite drill run seoul-dc1 $LIVE/sites --kubeconfig $SCRATCH/kubeconfig --restore --nodes gpu-a-01 --record rec.json --execute"

test_expect_success 'the PATCH of the second node fails (500): the first named, the restore command, exit 3' '
	live_start drill-run-patch-fails &&
	rm -f rec.json &&
	expect_exit 3 drill --group rack-a --execute --interval 0.2 --timeout 5m --record rec.json >out 2>err &&
	grep "^node/gpu-a-01 cordoned$" out &&
	grep -F "error: cannot cordon node '"'"'gpu-a-02'"'"': the API server answered 500: Internal error occurred: etcdserver: request timed out; the drill cordoned gpu-a-01, and they stay cordoned: restore them with \`$RESTORE\`" err &&
	[ "$(grep -c "^PATCH /api/v1/nodes/gpu-a-02 500 " "$SCRATCH/requests.log")" -gt 1 ] &&
	! grep "/eviction" "$SCRATCH/requests.log" &&
	[ "$(node_unschedulable gpu-a-01)" = True ] &&
	[ "$(node_unschedulable gpu-a-02)" = False ] &&
	python3 - rec.json <<-\PY
	import json, sys
	rec = json.load(open(sys.argv[1]))
	assert rec["nodes"] == ["gpu-a-01"], rec["nodes"]
	assert rec["nodeStates"] == [{"name": "gpu-a-01", "unschedulableBefore": False,
	                              "cordonedByDrill": True}], rec["nodeStates"]
	assert rec["outcome"] == "failed" and rec["endedAt"], rec
	PY
'

test_expect_success 'the printed restore command restores exactly that node' '
	cmd=$(sed -n "s/.*restore them with \`gpusite \(.*\)\`\$/\1/p" err) &&
	[ -n "$cmd" ] &&
	eval "\"\$GPUSITE\" $cmd --interval 0.2 --timeout 5m" >out 2>err2 &&
	grep "^node/gpu-a-01 uncordoned$" out &&
	[ "$(node_unschedulable gpu-a-01)" = False ] &&
	[ "$(grep -c "^PATCH /api/v1/nodes/gpu-a-01 " "$SCRATCH/requests.log")" = 2 ]
'

test_expect_success 'an eviction refused for good (403): both cordoned nodes named, the pod evicted counted, exit 3' '
	live_start drill-run-evict-forbidden &&
	rm -f rec.json &&
	expect_exit 3 drill --group rack-a --execute --interval 0.2 --timeout 5m --record rec.json >out 2>err &&
	grep -F "error: cannot evict pod '"'"'llm-server-6f7d9c8b5-fghij'"'"' in namespace '"'"'inference'"'"': the API server answered 403: admission webhook" err &&
	grep -F "; the drill cordoned gpu-a-01, gpu-a-02 (1 pod evicted already), and they stay cordoned: restore them with \`gpusite drill run seoul-dc1 $LIVE/sites --kubeconfig $SCRATCH/kubeconfig --restore --nodes gpu-a-01,gpu-a-02 --record rec.json --execute\`" err &&
	python3 - rec.json <<-\PY
	import json, sys
	rec = json.load(open(sys.argv[1]))
	assert rec["nodes"] == ["gpu-a-01", "gpu-a-02"], rec["nodes"]
	assert [s["cordonedByDrill"] for s in rec["nodeStates"]] == [True, True], rec
	assert rec["outcome"] == "failed", rec["outcome"]
	PY
'

test_expect_success 'nothing written yet when the first PATCH fails: "nothing was changed", no restore command' '
	live_start drill-run-patch-fails &&
	rm -f rec.json &&
	expect_exit 3 drill --nodes gpu-a-02 --execute --interval 0.2 --timeout 5m --record rec.json >out 2>err &&
	grep "cannot cordon node .gpu-a-02.: the API server answered 500: .*; no node was cordoned: nothing was changed$" err &&
	! grep "restore them" err &&
	grep "\"nodes\": \[\]" rec.json
'

test_done
