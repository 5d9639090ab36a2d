#!/bin/sh
# t5103: --restore uncordons only the nodes the drill cordoned.  In
# drill-run-maintenance an operator cordoned gpu-a-02 before the drill:
# the drill sends it no cordon (its pods are still drained), the record
# says it was unschedulable before, and --restore --record leaves it
# cordoned and says so.  A restore needs the drill's record: of this site,
# naming the nodes it restores, with nodeStates.
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/live.sh"
. "$TEST_TOP/tests/tools/live-drill.sh"

if ! live_have_python; then
	test_skip "drill restore against the simulator" "python3 or openssl not found"
	test_done
	exit
fi
cd "$SCRATCH"

test_expect_success 'the drill: no cordon for the node cordoned before it, its pods drained, the record says so' '
	live_start drill-run-maintenance &&
	rm -f rec.json &&
	[ "$(node_unschedulable gpu-a-02)" = True ] &&
	drill --group rack-a --execute --interval 0.2 --timeout 5m --record rec.json >out 2>err &&
	grep "^PATCH " "$SCRATCH/requests.log" | cut -d" " -f1,2 >got &&
	echo "PATCH /api/v1/nodes/gpu-a-01" >want &&
	test_cmp want got &&
	grep "^gpusite drill run: node gpu-a-02 is unschedulable already (cordoned before the drill): no cordon is sent, and --restore leaves it cordoned$" err &&
	grep "^POST /api/v1/namespaces/inference/pods/llm-server-6f7d9c8b5-fghij/eviction 201 " "$SCRATCH/requests.log" &&
	grep "restore them with .gpusite drill run seoul-dc1 .* --restore --nodes gpu-a-01 --record rec.json --execute.$" err &&
	python3 - rec.json <<-\PY
	import json, sys
	rec = json.load(open(sys.argv[1]))
	assert rec["nodes"] == ["gpu-a-01", "gpu-a-02"], rec["nodes"]
	assert rec["nodeStates"] == [
	    {"name": "gpu-a-01", "unschedulableBefore": False, "cordonedByDrill": True},
	    {"name": "gpu-a-02", "unschedulableBefore": True, "cordonedByDrill": False}], rec["nodeStates"]
	PY
'

test_expect_success 'dry run of the restore: one uncordon, for the node the drill cordoned' '
	before=$(writes_sent) &&
	drill --restore --record rec.json >out 2>err &&
	[ "$(writes_sent)" = "$before" ] &&
	grep "^PATCH " out >got &&
	echo "PATCH /api/v1/nodes/gpu-a-01 application/strategic-merge-patch+json {\"spec\":{\"unschedulable\":null}}" >want &&
	test_cmp want got &&
	grep "^gpusite drill run: node gpu-a-02 stays cordoned: it was unschedulable before the drill (cordoned by someone else)" err &&
	grep "dry run, nothing was changed: 1 node(s); add --execute to run the restore" err
'

test_expect_success 'the restore: gpu-a-01 uncordoned, gpu-a-02 left cordoned and named, the record completed' '
	cp rec.json drill.json &&
	drill --restore --record rec.json --execute --interval 0.2 --timeout 5m >out 2>err &&
	grep "^node/gpu-a-01 uncordoned$" out &&
	! grep "gpu-a-02 uncordoned" out &&
	grep "^gpusite drill run: node gpu-a-02 stays cordoned: it was unschedulable before the drill" err &&
	[ "$(node_unschedulable gpu-a-01)" = False ] &&
	[ "$(node_unschedulable gpu-a-02)" = True ] &&
	[ "$(grep -c "^PATCH /api/v1/nodes/gpu-a-02 " "$SCRATCH/requests.log")" = 0 ] &&
	python3 - drill.json rec.json <<-\PY
	import json, sys
	drill, back = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
	added = back["transitions"][len(drill["transitions"]):]
	assert [(t["what"], t["name"]) for t in added] == [
	    ("uncordoned", "gpu-a-01"), ("return-complete", "seoul-dc1")], added
	assert back["nodeStates"] == drill["nodeStates"] and back["outcome"] == drill["outcome"]
	PY
'

test_expect_success 'a node not in the record, a record of another site, one without nodeStates: nothing is sent (exit 3)' '
	live_start drill-run-maintenance &&
	expect_exit 3 drill --restore --record rec.json --nodes gpu-a-01,mi-0a1b2c3d4e5f60001 --execute 2>err &&
	grep "node .mi-0a1b2c3d4e5f60001. is not in the drill record rec.json: the drill did not take it down, so --restore leaves it; nothing was changed" err &&
	sed "s/\"site\": \"seoul-dc1\"/\"site\": \"frankfurt-lab\"/" rec.json >other.json &&
	expect_exit 3 drill --restore --record other.json --execute 2>err &&
	grep "other.json is a record of site frankfurt-lab, not seoul-dc1; pass the record of this site" err &&
	cp "$LIVE/drill-drain-met/record.json" old.json &&
	expect_exit 3 drill --restore --record old.json --execute 2>err &&
	grep "the record old.json does not say which nodes the drill cordoned (no nodeStates: an older gpusite wrote it): nothing was changed" err &&
	cmp "$LIVE/drill-drain-met/record.json" old.json &&
	[ "$(writes_sent)" = 0 ]
'

test_done
