#!/bin/sh
# t5120: `gpusite drill report` measures the five recovery terms, to the
# second, from the cluster (the static drill-* scenarios of testdata/live)
# and from a drill record written by hand in the shared format; text,
# markdown and json; a term the data cannot show is unknown with the
# reason; the SVG chart is XML whose bars read back as the numbers.
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/live.sh"

if ! live_have_python; then
	test_skip "drill report scenarios" "python3 or openssl not found"
	test_done
	exit
fi
live_certs
live_applied "$LIVE/sites" seoul-dc1 >/dev/null 2>&1 || true
cp "$SCRATCH/applied.json" "$SCRATCH/applied.keep" 2>/dev/null
REC="$LIVE/drill-drain-met/record.json"

# report SCENARIO EXIT ARGS...: drill report from the cluster -> $SCRATCH/out
report() {
	scen=$1
	code=$2
	shift 2
	live_start "$scen" --applied "$SCRATCH/applied.keep" &&
	(cd "$LIVE" && expect_exit "$code" "$GPUSITE" drill report seoul-dc1 \
		--kubeconfig "$SCRATCH/kubeconfig" "$@" sites >"$SCRATCH/out" 2>"$SCRATCH/err")
}

cat >"$SCRATCH/met.json" <<'JSON'
{"site":"seoul-dc1","scenario":"node-failure","terms":[{"name":"nodeMonitorGrace","budgetSeconds":0,"measuredSeconds":0},{"name":"eviction","budgetSeconds":60,"measuredSeconds":20},{"name":"nodeProvisioning","budgetSeconds":240,"measuredSeconds":199},{"name":"imagePull","budgetSeconds":360,"measuredSeconds":290},{"name":"modelLoad","budgetSeconds":180,"measuredSeconds":150}],"totalSeconds":659,"targetSeconds":900,"withinTarget":true}
JSON

test_expect_success 'drain that met its target, from the cluster: json to the second, exit 0' '
	report drill-drain-met 0 --format json &&
	test_cmp "$SCRATCH/met.json" "$SCRATCH/out" &&
	only_gets
'
test_expect_success 'the record of the same drill gives the same terms' '
	(cd "$LIVE" && expect_exit 0 "$GPUSITE" drill report seoul-dc1 --record "$REC" \
		--format json sites >"$SCRATCH/rec.json") &&
	test_cmp "$SCRATCH/met.json" "$SCRATCH/rec.json"
'
test_expect_success 'text: each term against its budget, the total against targetRTO' '
	report drill-drain-met 0 &&
	cat >"$SCRATCH/expect" <<-\TXT &&
	drill report: site seoul-dc1, scenario node-failure (from the cluster)
	  term                   budget   measured
	  nodeMonitorGrace            -     absent  (no heartbeat is missed in a drain)
	  eviction                 1m0s        20s  OK
	  nodeProvisioning         4m0s      3m19s  OK
	  imagePull                6m0s      4m50s  OK
	  modelLoad                3m0s      2m30s  OK
	  total                   14m0s     10m59s  OK: 4m1s within targetRTO 15m0s
	TXT
	test_cmp "$SCRATCH/expect" "$SCRATCH/out"
'
test_expect_success 'markdown: the table for the drill ticket' '
	report drill-drain-met 0 --format markdown &&
	cat >"$SCRATCH/expect" <<-\MD &&
	### Drill report: `seoul-dc1` (node-failure)

	| term | budget | measured | |
	|---|---:|---:|---|
	| `nodeMonitorGrace` | - | absent | no heartbeat is missed in a drain |
	| `eviction` | 1m0s | 20s | OK |
	| `nodeProvisioning` | 4m0s | 3m19s | OK |
	| `imagePull` | 6m0s | 4m50s | OK |
	| `modelLoad` | 3m0s | 2m30s | OK |
	| **total** | 14m0s | 10m59s | OK: 4m1s within targetRTO 15m0s |
	MD
	test_cmp "$SCRATCH/expect" "$SCRATCH/out"
'
test_expect_success 'a drain that missed its target on image pull: exit 1, GS239, imagePull over' '
	report drill-drain-missed 1 &&
	grep "^  imagePull                6m0s     12m50s  OVER by 6m50s$" "$SCRATCH/out" &&
	grep "^  total                   14m0s     18m59s  OVER targetRTO 15m0s by 3m59s$" "$SCRATCH/out" &&
	grep "site seoul-dc1 recovered in 18m59s, over its targetRTO 15m0s.*\[GS239\]" "$SCRATCH/err" &&
	report drill-drain-missed 1 --format json &&
	grep "\"name\":\"imagePull\",\"budgetSeconds\":360,\"measuredSeconds\":770}" "$SCRATCH/out" &&
	grep "\"totalSeconds\":1139,\"targetSeconds\":900,\"withinTarget\":false}" "$SCRATCH/out" &&
	report drill-drain-missed 1 --format markdown &&
	grep "^| \`imagePull\` | 6m0s | 12m50s | OVER by 6m50s |$" "$SCRATCH/out"
'
test_expect_success 'a term the data cannot show is unknown, with the reason; the total too' '
	report drill-drain-unknown 0 --format json &&
	grep "{\"name\":\"eviction\",\"budgetSeconds\":60,\"measuredSeconds\":null,\"reason\":\"no pod of the drilled nodes was seen deleted\"}" "$SCRATCH/out" &&
	grep "\"name\":\"imagePull\",\"budgetSeconds\":360,\"measuredSeconds\":290}" "$SCRATCH/out" &&
	grep "\"totalSeconds\":null,\"targetSeconds\":900,\"withinTarget\":null}" "$SCRATCH/out" &&
	report drill-drain-unknown 0 &&
	grep "^  eviction                 1m0s    unknown  (no pod of the drilled nodes was seen deleted)$" "$SCRATCH/out"
'
test_expect_success 'the deleted pod gone from the API: its Killing event still dates the eviction' '
	report drill-drain-events 0 --format json &&
	test_cmp "$SCRATCH/met.json" "$SCRATCH/out"
'
test_expect_success 'a partition from the cluster: nodeMonitorGrace from the last heartbeat, eviction after the unreachable toleration' '
	report drill-partition-report 0 --scenario partition --format json &&
	echo "{\"site\":\"seoul-dc1\",\"scenario\":\"partition\",\"terms\":[{\"name\":\"nodeMonitorGrace\",\"budgetSeconds\":50,\"measuredSeconds\":40},{\"name\":\"eviction\",\"budgetSeconds\":60,\"measuredSeconds\":60},{\"name\":\"nodeProvisioning\",\"budgetSeconds\":240,\"measuredSeconds\":189},{\"name\":\"imagePull\",\"budgetSeconds\":360,\"measuredSeconds\":300},{\"name\":\"modelLoad\",\"budgetSeconds\":180,\"measuredSeconds\":100}],\"totalSeconds\":689,\"targetSeconds\":900,\"withinTarget\":true}" >"$SCRATCH/expect" &&
	test_cmp "$SCRATCH/expect" "$SCRATCH/out" &&
	report drill-partition-report 0 --scenario partition &&
	grep "^  nodeMonitorGrace          50s        40s  OK$" "$SCRATCH/out"
'
test_expect_success '--since after the drill leaves nothing: every term unknown, none guessed' '
	report drill-drain-met 0 --since 2026-03-01T09:00:00Z --format json &&
	grep "\"name\":\"eviction\",\"budgetSeconds\":60,\"measuredSeconds\":null" "$SCRATCH/out" &&
	grep "\"name\":\"modelLoad\",\"budgetSeconds\":180,\"measuredSeconds\":null,\"reason\":\"no replacement pod was seen Pending\"}" "$SCRATCH/out"
'
test_expect_success 'svg: valid XML, bars proportional, read back equal to the numbers' '
	(cd "$LIVE" && expect_exit 0 "$GPUSITE" drill report seoul-dc1 --record "$REC" \
		--svg "$SCRATCH/chart.svg" sites >/dev/null) &&
	python3 - "$SCRATCH/chart.svg" "$SCRATCH/met.json" <<-\PY
	import json, sys, xml.etree.ElementTree as ET
	ns = {"s": "http://www.w3.org/2000/svg"}
	root = ET.parse(sys.argv[1]).getroot()
	want = json.load(open(sys.argv[2]))
	scale = float(root.get("data-px-per-second"))
	assert scale > 0, scale
	bars = {r.get("id"): r for r in root.iter("{http://www.w3.org/2000/svg}rect") if r.get("id")}
	for t in want["terms"]:
	    for kind, key in (("budget", "budgetSeconds"), ("measured", "measuredSeconds")):
	        r = bars[kind + "-" + t["name"]]
	        assert int(r.get("data-seconds")) == t[key], (r.get("id"), r.get("data-seconds"))
	        w = float(r.get("width"))
	        assert abs(w - t[key] * scale) < 0.01, (r.get("id"), w, t[key] * scale)
	total = [e for e in root.iter("{http://www.w3.org/2000/svg}text") if e.get("id") == "total"][0]
	assert int(total.get("data-seconds")) == want["totalSeconds"], total.get("data-seconds")
	assert int(total.get("data-target-seconds")) == want["targetSeconds"]
	PY
'
test_expect_success 'svg of an unknown term: a text saying why, escaped, no bar' '
	report drill-drain-unknown 0 --svg "$SCRATCH/u.svg" &&
	python3 -c "
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
e = [x for x in root.iter() if x.get(\"id\") == \"measured-eviction\"][0]
assert e.tag.endswith(\"text\") and e.get(\"data-seconds\") == \"unknown\", e.tag
assert \"no pod of the drilled nodes was seen deleted\" in e.text, e.text
" "$SCRATCH/u.svg"
'
test_expect_success 'a record that is not one: exit 3, GS236 names the key' '
	printf "{\"apiVersion\": \"gpusite.io/drill-record/v1\", \"site\": \"seoul-dc1\", \"scenario\": \"flood\"}" >"$SCRATCH/bad.json" &&
	(cd "$LIVE" && expect_exit 3 "$GPUSITE" drill report seoul-dc1 --record "$SCRATCH/bad.json" sites 2>"$SCRATCH/err") &&
	grep "bad.json: scenario is not a drill record.s scenario (node-failure or partition).*\[GS236\]" "$SCRATCH/err" &&
	printf "{\"apiVersion\": \"gpusite.io/drill-record/v1\", \"site\": \"frankfurt-lab\", \"scenario\": \"partition\", \"startedAt\": \"2026-03-01T08:00:00Z\", \"transitions\": []}" >"$SCRATCH/other.json" &&
	(cd "$LIVE" && expect_exit 3 "$GPUSITE" drill report seoul-dc1 --record "$SCRATCH/other.json" sites 2>"$SCRATCH/err") &&
	grep "is a record of site frankfurt-lab, not seoul-dc1" "$SCRATCH/err" &&
	(cd "$LIVE" && expect_exit 3 "$GPUSITE" drill report seoul-dc1 --record "$SCRATCH/none.json" sites 2>"$SCRATCH/err") &&
	grep "cannot read .*none.json" "$SCRATCH/err"
'
test_expect_success 'usage: --record with --since, a bad time, a format it does not take: exit 2' '
	(cd "$LIVE" && expect_exit 2 "$GPUSITE" drill report seoul-dc1 --record "$REC" --since 2026-03-01T08:00:00Z sites 2>/dev/null) &&
	(cd "$LIVE" && expect_exit 2 "$GPUSITE" drill report seoul-dc1 --since yesterday sites 2>"$SCRATCH/err") &&
	grep "give an RFC 3339 time" "$SCRATCH/err" &&
	(cd "$LIVE" && expect_exit 2 "$GPUSITE" drill report seoul-dc1 --format sarif sites 2>/dev/null) &&
	expect_exit 2 "$GPUSITE" drill 2>/dev/null &&
	expect_exit 2 "$GPUSITE" drill report 2>/dev/null
'
test_expect_success 'the cluster cannot be read: exit 3, GS290' '
	(cd "$LIVE" && expect_exit 3 "$GPUSITE" drill report seoul-dc1 --kubeconfig "$SCRATCH/no-such-kubeconfig" \
		sites >/dev/null 2>"$SCRATCH/err") &&
	grep "cannot read kubeconfig .*\[GS290\]" "$SCRATCH/err"
'
test_done
