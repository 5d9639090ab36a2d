#!/bin/sh
# t5100: `gpusite drill run` against the cluster simulator of
# tests/tools/fake-apiserver.py: the dry run, the requests kubectl drain
# sends, a drill that meets its target (the record's transitions match the
# scenario's script to the second) and its restore from the record, one
# that misses it on image pull, a PodDisruptionBudget that blocks, a fallback without GPUs,
# missing write rights, SIGTERM mid-run.
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/live.sh"
. "$TEST_TOP/tests/tools/live-drill.sh"

if ! live_have_python; then
	test_skip "drill run against the simulator" "python3 or openssl not found"
	test_done
	exit
fi
KUBECTL=$(live_kubectl)
cd "$SCRATCH"

# writes: the PATCH and POST lines of the log, without the status columns
writes() {
	awk '$1 != "GET" { $3 = ""; $4 = ""; print }' "$SCRATCH/requests.log"
}

test_expect_success 'dry run: the exact calls, one per line; only GETs are sent' '
	live_start drill-run-target &&
	drill --nodes gpu-a-01 >out 2>err &&
	cat >want <<-\EOF2 &&
	POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews application/json {"kind":"SelfSubjectAccessReview","apiVersion":"authorization.k8s.io/v1","spec":{"resourceAttributes":{"verb":"list","group":"","resource":"nodes"}}}
	POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews application/json {"kind":"SelfSubjectAccessReview","apiVersion":"authorization.k8s.io/v1","spec":{"resourceAttributes":{"verb":"list","group":"","resource":"pods"}}}
	POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews application/json {"kind":"SelfSubjectAccessReview","apiVersion":"authorization.k8s.io/v1","spec":{"resourceAttributes":{"verb":"list","group":"","resource":"events"}}}
	POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews application/json {"kind":"SelfSubjectAccessReview","apiVersion":"authorization.k8s.io/v1","spec":{"resourceAttributes":{"verb":"list","group":"karpenter.sh","resource":"nodeclaims"}}}
	POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews application/json {"kind":"SelfSubjectAccessReview","apiVersion":"authorization.k8s.io/v1","spec":{"resourceAttributes":{"verb":"patch","group":"","resource":"nodes"}}}
	POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews application/json {"kind":"SelfSubjectAccessReview","apiVersion":"authorization.k8s.io/v1","spec":{"resourceAttributes":{"verb":"create","group":"","resource":"pods","subresource":"eviction"}}}
	PATCH /api/v1/nodes/gpu-a-01 application/strategic-merge-patch+json {"spec":{"unschedulable":true}}
	POST /api/v1/namespaces/inference/pods/llm-server-6f7d9c8b5-abcde/eviction application/json {"kind":"Eviction","apiVersion":"policy/v1","metadata":{"name":"llm-server-6f7d9c8b5-abcde","namespace":"inference","creationTimestamp":null},"deleteOptions":{}}
	EOF2
	test_cmp want out &&
	grep "dry run, nothing was changed: 1 node(s); add --execute" err &&
	only_gets &&
	[ "$(node_unschedulable gpu-a-01)" = False ]
'

test_expect_success 'a node named twice (a,a or --nodes again) is drilled once: one PATCH, one eviction' '
	live_start drill-run-target &&
	drill --nodes gpu-a-01,gpu-a-01 --nodes gpu-a-01 >out 2>err &&
	grep -c "^PATCH /api/v1/nodes/gpu-a-01 " out >n && [ "$(cat n)" = 1 ] &&
	grep -c "/eviction " out >n && [ "$(cat n)" = 1 ] &&
	grep "dry run, nothing was changed: 1 node(s)" err &&
	only_gets
'

test_expect_success 'dry run of the whole site: its four nodes, DaemonSet and mirror pods left out' '
	live_start drill-run-target &&
	drill >out 2>err &&
	grep -c "^PATCH /api/v1/nodes/" out >n && [ "$(cat n)" = 4 ] &&
	grep -c "/eviction " out >n && [ "$(cat n)" = 4 ] &&
	! grep -e nvidia-device-plugin -e node-exporter out &&
	only_gets
'

if [ -n "$KUBECTL" ]; then
	test_expect_success 'the cordon and eviction requests are the ones kubectl drain sends' '
		live_start drill-run-target &&
		"$KUBECTL" --kubeconfig "$SCRATCH/kubeconfig" --cache-dir "$SCRATCH/kcache" \
			drain gpu-a-01 --ignore-daemonsets --timeout 60s >drain.out 2>&1 &&
		grep "node/gpu-a-01 drained" drain.out &&
		writes >kubectl.writes &&
		grep -c . kubectl.writes >n && [ "$(cat n)" = 2 ] &&
		live_start drill-run-target &&
		rm -f rec.json &&
		drill --nodes gpu-a-01 --execute --interval 0.2 --timeout 5m --record rec.json >out 2>err &&
		writes | grep -v selfsubjectaccessreviews >gpusite.writes &&
		test_cmp kubectl.writes gpusite.writes
	'
else
	test_skip "the requests kubectl drain sends" "kubectl not found (run make deps)"
fi

test_expect_success 'a drain drill that meets its target: record, transitions to the second' '
	live_start drill-run-target &&
	rm -f rec.json &&
	drill --nodes gpu-a-01 --execute --interval 0.2 --timeout 5m --record rec.json >out 2>err &&
	grep "recovered in .*within its targetRTO of 900s" err &&
	grep "^gpusite drill run: the nodes the drill cordoned stay cordoned; restore them with .gpusite drill run seoul-dc1 $LIVE/sites --kubeconfig $SCRATCH/kubeconfig --restore --nodes gpu-a-01 --record rec.json --execute.$" err &&
	grep "^node/gpu-a-01 cordoned$" out &&
	grep "^pod/llm-server-6f7d9c8b5-abcde evicted (namespace inference)$" out &&
	python3 - rec.json "$LIVE/drill-run-target/cluster.json" <<-\PY &&
	import json, sys
	from datetime import datetime
	rec = json.load(open(sys.argv[1]))
	script = json.load(open(sys.argv[2]))["drill"]["script"]
	assert list(rec) == ["apiVersion", "site", "cluster", "scenario", "nodes", "nodeStates",
	                     "startedAt", "endedAt", "outcome", "transitions"], list(rec)
	assert rec["nodeStates"] == [{"name": "gpu-a-01", "unschedulableBefore": False,
	                              "cordonedByDrill": True}], rec["nodeStates"]
	assert rec["apiVersion"] == "gpusite.io/drill-record/v1"
	assert (rec["site"], rec["cluster"], rec["scenario"]) == ("seoul-dc1", "my-hybrid-cluster", "node-failure")
	assert rec["nodes"] == ["gpu-a-01"] and rec["outcome"] == "available", rec
	ts = lambda s: int(datetime.strptime(s, "%Y-%m-%dT%H:%M:%SZ").timestamp())
	got = {}
	for t in rec["transitions"]:
	    assert list(t) == ["time", "object", "namespace", "name", "what", "node", "detail"], t
	    got.setdefault((t["object"], t["what"]), ts(t["time"]))
	old = [t for t in rec["transitions"] if t["what"] == "deleted" and t["object"] == "Pod"]
	assert len(old) == 1 and old[0]["name"] == "llm-server-6f7d9c8b5-abcde", old
	t0 = ts(old[0]["time"]) - script["deleted"]
	want = {("Pod", "Pending"): "pending", ("NodeClaim", "Launched"): "launched",
	        ("NodeClaim", "Registered"): "registered", ("NodeClaim", "Initialized"): "initialized",
	        ("Node", "Ready"): "nodeReady", ("Pod", "Scheduled"): "scheduled",
	        ("Event", "Pulling"): "pulling", ("Event", "Pulled"): "pulled",
	        ("Pod", "Started"): "started", ("Pod", "ContainersReady"): "ready",
	        ("Pod", "Ready"): "ready"}
	for k, v in want.items():
	    assert got[k] - t0 == script[v], (k, got[k] - t0, script[v])
	for k in (("Drill", "drain-start"), ("Pod", "evicted"), ("Node", "cordoned")):
	    assert abs(got[k] - t0) <= 1, (k, got[k] - t0)
	assert ("Drill", "available") in got
	ready = [t for t in rec["transitions"] if t["what"] == "Ready" and t["object"] == "Pod"]
	assert ready[0]["node"] == "i-0f00000000000fa11", ready
	PY
	[ "$(node_unschedulable gpu-a-01)" = True ] &&
	cp rec.json drill.json &&
	drill --nodes gpu-a-01 --restore --execute --interval 0.2 --timeout 5m --record rec.json >out 2>err &&
	grep "^node/gpu-a-01 uncordoned$" out &&
	[ "$(node_unschedulable gpu-a-01)" = False ] &&
	grep "\"what\": \"return-complete\"" rec.json &&
	grep "\"what\": \"uncordoned\"" rec.json &&
	python3 - drill.json rec.json <<-\PY &&
	import json, sys
	drill, back = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
	# the restore adds its steps; the drill stays as it was recorded
	for k in ("nodes", "nodeStates", "startedAt", "endedAt", "outcome"):
	    assert drill[k] == back[k], k
	assert back["transitions"][:len(drill["transitions"])] == drill["transitions"]
	assert [t["what"] for t in back["transitions"][len(drill["transitions"]):]] == \
	    ["uncordoned", "return-complete"], back["transitions"]
	PY
	grep "PATCH /api/v1/nodes/gpu-a-01 .* {\"spec\":{\"unschedulable\":null}}" "$SCRATCH/requests.log"
'

test_expect_success 'a drill that misses its target on image pull: exit 1, GS225' '
	live_start drill-run-image-pull &&
	rm -f rec.json &&
	expect_exit 1 drill --nodes gpu-a-01 --execute --interval 0.2 --timeout 5m --record rec.json >out 2>err &&
	grep "error: site .seoul-dc1. recovered in [0-9]*s, over its targetRTO of 900s" err &&
	grep "\"outcome\": \"available\"" rec.json &&
	grep "\"what\": \"Pulled\"" rec.json
'

test_expect_success 'a PodDisruptionBudget that blocks: bounded retries, the budget named, exit 3' '
	live_start drill-run-pdb &&
	rm -f rec.json &&
	expect_exit 3 drill --nodes gpu-a-01 --execute --interval 0.05 --timeout 5m --record rec.json >out 2>err &&
	grep "pod .llm-server-6f7d9c8b5-abcde. in namespace .inference. cannot be evicted: The disruption budget llm-server needs 4 healthy pods and has 4 currently (still refused after 6 tries): scale the workload up or relax that PodDisruptionBudget, then run the drill again; the drill cordoned gpu-a-01, and they stay cordoned: restore them with .gpusite drill run seoul-dc1 $LIVE/sites --kubeconfig $SCRATCH/kubeconfig --restore --nodes gpu-a-01 --record rec.json --execute." err &&
	grep -c "^POST /api/v1/namespaces/inference/pods/llm-server-6f7d9c8b5-abcde/eviction 429 " "$SCRATCH/requests.log" >n &&
	[ "$(cat n)" = 6 ] &&
	[ "$(node_unschedulable gpu-a-01)" = True ] &&
	grep "\"outcome\": \"failed\"" rec.json
'

test_expect_success 'a fallback that never gets GPUs: the replacement stays Pending, timeout, exit 1' '
	live_start drill-run-no-gpus &&
	rm -f rec.json &&
	expect_exit 1 drill --nodes gpu-a-01 --execute --interval 0.2 --timeout 6s --record rec.json >out 2>err &&
	grep "controller .llm-server-6f7d9c8b5. in namespace .inference. has 3 of its 4 GPU pods Ready after 6s.*device plugin" err &&
	grep "\"outcome\": \"timeout\"" rec.json &&
	grep "\"what\": \"Pending\"" rec.json &&
	! grep "\"what\": \"Scheduled\"" rec.json
'

test_expect_success 'missing write rights: named, and nothing is written (exit 3)' '
	live_start drill-run-no-rights &&
	rm -f rec.json &&
	expect_exit 3 drill --nodes gpu-a-01 --execute --interval 0.2 --record rec.json >out 2>err &&
	grep "the drill needs .patch nodes., .create pods/eviction. at the cluster scope and the user of this context lacks them; nothing was changed: bind the role of examples/rbac/gpusite-drill.yaml" err &&
	! grep "^PATCH " "$SCRATCH/requests.log" &&
	grep "^POST " "$SCRATCH/requests.log" >posts &&
	[ "$(grep -c "^POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews 201 " posts)" = 6 ] &&
	[ "$(grep -c . posts)" = 6 ] &&
	[ "$(node_unschedulable gpu-a-01)" = False ] &&
	[ ! -e rec.json ]
'

test_expect_success 'SIGTERM mid-run: the node stays cordoned, the record says interrupted' '
	live_start drill-run-slow || exit 1
	rm -f rec.json || exit 1
	"$GPUSITE" drill run seoul-dc1 "$LIVE/sites" --kubeconfig "$SCRATCH/kubeconfig" \
		--nodes gpu-a-01 --execute --interval 0.2 --timeout 30m --record rec.json >out 2>err &
	pid=$! &&
	i=0 &&
	while ! grep -q "/eviction 201 " "$SCRATCH/requests.log" 2>/dev/null; do
		i=$((i + 1)); [ $i -lt 300 ] || { kill $pid; false; } || return 1; sleep 0.1
	done &&
	kill -TERM $pid &&
	{ wait $pid; echo $? >rc; } &&
	[ "$(cat rc)" = 3 ] &&
	grep "the drill of site .seoul-dc1. was interrupted: the nodes stay as they are; the drill cordoned gpu-a-01 (1 pod evicted already), and they stay cordoned: restore them with .gpusite drill run seoul-dc1 $LIVE/sites --kubeconfig $SCRATCH/kubeconfig --restore --nodes gpu-a-01 --record rec.json --execute." err &&
	grep "\"outcome\": \"interrupted\"" rec.json &&
	grep "\"endedAt\": \"20" rec.json &&
	[ "$(node_unschedulable gpu-a-01)" = True ] &&
	! ls rec.json.tmp.* 2>/dev/null
'

test_expect_success 'drill report on the record gives the terms drill report reads from the simulator' '
	live_start drill-run-target &&
	rm -f rec.json &&
	drill --nodes gpu-a-01 --execute --interval 0.2 --timeout 5m --record rec.json >out 2>err &&
	"$GPUSITE" drill report seoul-dc1 "$LIVE/sites" --record rec.json --format json >from-record.json &&
	since=$(python3 -c "import json, sys; print(json.load(open(sys.argv[1]))[\"startedAt\"])" rec.json) &&
	"$GPUSITE" drill report seoul-dc1 "$LIVE/sites" --kubeconfig "$SCRATCH/kubeconfig" \
		--since "$since" --format json >from-cluster.json 2>err &&
	python3 - from-record.json from-cluster.json "$LIVE/drill-run-target/cluster.json" <<-\PY
	import json, sys
	rec, live = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
	script = json.load(open(sys.argv[3]))["drill"]["script"]
	names = ["nodeMonitorGrace", "eviction", "nodeProvisioning", "imagePull", "modelLoad"]
	assert [t["name"] for t in rec["terms"]] == names, rec
	assert all(t["measuredSeconds"] is not None for t in rec["terms"]), rec
	# the evicted pod is gone from the API; its Killing event still dates
	# it.  The eviction starts at drain-start in the record (local clock) and
	# at the timeAdded of the cordon taint in the cluster: a second apart at most
	for r, l in zip(rec["terms"], live["terms"]):
	    assert set(r) == set(l) and l["measuredSeconds"] is not None, (r, l)
	    slack = 1 if r["name"] == "eviction" else 0
	    assert abs(r["measuredSeconds"] - l["measuredSeconds"]) <= slack, (r, l)
	    assert r["budgetSeconds"] == l["budgetSeconds"], (r, l)
	assert abs(rec["totalSeconds"] - live["totalSeconds"]) <= 1, (rec, live)
	m = {t["name"]: t["measuredSeconds"] for t in rec["terms"]}
	assert m["nodeProvisioning"] == script["nodeReady"] - script["pending"], m
	assert m["imagePull"] == script["started"] - script["scheduled"], m
	assert m["modelLoad"] == script["ready"] - script["started"], m
	assert rec["withinTarget"] is True and rec["targetSeconds"] == 900, rec
	PY
'

test_expect_success 'usage: no SITE, --nodes with --group, a bad --timeout or --interval: exit 2' '
	expect_exit 2 "$GPUSITE" drill run 2>err &&
	grep "missing argument" err &&
	expect_exit 2 "$GPUSITE" drill run seoul-dc1 --nodes a --group b 2>err &&
	grep "^gpusite drill run: --nodes and --group exclude each other$" err &&
	expect_exit 2 "$GPUSITE" drill run seoul-dc1 --timeout 5q 2>err &&
	grep "^gpusite drill run: --timeout .5q. is not a duration such as 15m or 90s$" err &&
	expect_exit 2 "$GPUSITE" drill run seoul-dc1 --interval 0 2>err &&
	grep "^gpusite drill run: --interval .0. is not a number of seconds from 0 to 600$" err &&
	expect_exit 2 "$GPUSITE" drill run seoul-dc1 --execute 2>err &&
	grep "^gpusite drill run: --execute needs --record FILE: the record says which nodes the drill cordoned, and --restore reads it$" err &&
	expect_exit 2 "$GPUSITE" drill run seoul-dc1 --restore 2>err &&
	grep "^gpusite drill run: --restore needs --record FILE, the record the drill wrote" err &&
	expect_exit 2 "$GPUSITE" drill run seoul-dc1 --restore --group rack-a --record r.json 2>err &&
	grep "^gpusite drill run: --restore takes the nodes from the record; narrow them with --nodes, not --group$" err &&
	echo "{}" >old.json &&
	expect_exit 2 "$GPUSITE" drill run seoul-dc1 --execute --record old.json 2>err &&
	grep "^gpusite drill run: --record old.json exists: a drill never overwrites a record" err &&
	[ "$(cat old.json)" = "{}" ]
'

test_expect_success 'nodes: --group picks its nodes; a node not hybrid or of no cluster is GS220 (exit 3)' '
	live_start drill-run-target &&
	drill --group rack-b >out 2>err &&
	grep "^PATCH " out | cut -d" " -f2 >got &&
	printf "%s\n" /api/v1/nodes/mi-0a1b2c3d4e5f60001 /api/v1/nodes/mi-0a1b2c3d4e5f60002 >want &&
	test_cmp want got &&
	expect_exit 3 drill --nodes ip-10-0-40-7.us-west-2.compute.internal 2>err &&
	grep "node .ip-10-0-40-7.us-west-2.compute.internal. is not a hybrid node (label eks.amazonaws.com/compute-type is absent): a drill takes down only the on-prem hybrid nodes of site .seoul-dc1.; name them with --nodes" err &&
	expect_exit 3 drill --nodes gpu-z-99 2>err &&
	grep "node .gpu-z-99. is not in the cluster" err &&
	only_gets
'

test_done
