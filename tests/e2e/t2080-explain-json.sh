#!/bin/sh
# t2080-explain-json.sh - `gpusite explain --format json`: the machine form
# of explain's numbers, for the fleet, a site and a cluster; the example
# fleet's document is compared byte for byte with
# testdata/fleetpage/explain.json (GOLDEN_UPDATE=1 rewrites it).
. "$TEST_TOP/tests/lib.sh"

fleet="$TEST_TOP/testdata/fleet/sites"
golden="$TEST_TOP/testdata/fleetpage/explain.json"
cd "$SCRATCH" || exit 1

test_expect_success 'the fleet as JSON, byte for byte' '
	(cd "$TEST_TOP/testdata/fleet" && "$GPUSITE" explain --format json) >out.json &&
	if test -n "${GOLDEN_UPDATE-}"; then cp out.json "$golden"; fi &&
	test_cmp "$golden" out.json
'

test_expect_success 'the JSON agrees with the text: budget, limits, on-prem GPUs' '
	python3 -c "
import json, sys
d = json.load(open(\"out.json\"))
s = {x[\"name\"]: x for x in d[\"sites\"]}[\"seoul-dc1\"]
r = s[\"recovery\"]
assert r[\"totalSeconds\"] == 890 == sum(r[\"terms\"].values()), r
assert r[\"targetRtoSeconds\"] == 900 and r[\"withinTarget\"] is True
assert s[\"onPremGpus\"] == 32 and s[\"fallback\"][\"gpuLimit\"] == 16
assert s[\"fallback\"][\"instanceTypes\"][0][\"nodesAtLimit\"] == 4
c = {x[\"name\"]: x for x in d[\"clusters\"]}[\"my-hybrid-cluster\"]
assert c[\"gpusByModel\"] == {\"a100\": 24, \"h200\": 32, \"l40s\": 8}, c
assert c[\"sites\"] == [\"incheon-edge\", \"seoul-dc1\"]
w = [x for x in d[\"whatIf\"][\"sets\"] if len(x[\"sites\"]) == 2]
assert len(w) == 1 and w[0][\"lostGpus\"] == 64 and w[0][\"shortfallGpus\"] == 32, w
assert d[\"prices\"][\"date\"] == \"2026-07-06\"
" &&
	"$GPUSITE" explain seoul-dc1 "$fleet" >e.txt &&
	grep -q "total *14m50s" e.txt &&
	grep -q "on-prem GPUs: 32 " e.txt
'

test_expect_success 'burst pools: the limit and capacity type per cluster and site' '
	"$GPUSITE" explain --format json "$TEST_TOP/testdata/render/two-site-burst/sites" >burst.json &&
	python3 -c "
import json
d = json.load(open(\"burst.json\"))
c = d[\"clusters\"][0]
assert c[\"burstGpuLimit\"] == 12 and c[\"burstCapacityType\"] == \"varies by site\", c
assert c[\"fallbackGpuLimit\"] == 16, c
s = {x[\"name\"]: x for x in d[\"sites\"]}
b = s[\"seoul-dc1\"][\"burst\"]
assert b == {\"nodePool\": \"seoul-dc1-gpu-burst\", \"capacityTypes\": [\"spot\"], \"gpuLimit\": 8, \"failoverCapacity\": False, \"exclusive\": True, \"siteTaint\": \"gpusite.io/site=seoul-dc1:NoSchedule\"}, b
assert s[\"seoul-dc2\"][\"burst\"][\"capacityTypes\"] == [\"on-demand\"]
w = [x for x in d[\"whatIf\"][\"sets\"] if len(x[\"sites\"]) == 2][0]
assert w[\"launchableGpus\"] == 16 and w[\"shortfallGpus\"] == 0, w
" &&
	python3 -c "
import json
d = json.load(open(\"out.json\"))
assert all(c[\"burstGpuLimit\"] is None and c[\"burstCapacityType\"] is None for c in d[\"clusters\"])
assert all(s[\"burst\"] is None for s in d[\"sites\"])
"
'

test_expect_success 'SITE and CLUSTER select, text and JSON alike' '
	"$GPUSITE" explain --format json seoul-dc1 "$fleet" >one.json &&
	python3 -c "
import json
d = json.load(open(\"one.json\"))
assert [s[\"name\"] for s in d[\"sites\"]] == [\"seoul-dc1\"], d[\"sites\"]
assert [c[\"name\"] for c in d[\"clusters\"]] == [\"my-hybrid-cluster\"]
" &&
	"$GPUSITE" explain --format json my-hybrid-cluster "$fleet" >cl.json &&
	python3 -c "
import json
d = json.load(open(\"cl.json\"))
assert [s[\"name\"] for s in d[\"sites\"]] == [\"incheon-edge\", \"seoul-dc1\"]
assert len(d[\"whatIf\"][\"sets\"]) == 3
" &&
	"$GPUSITE" explain my-hybrid-cluster "$fleet" >cl.txt &&
	test "$(grep -c "^site " cl.txt)" -eq 2
'

test_expect_success 'an unknown name is an error, not an empty document' '
	expect_exit 1 "$GPUSITE" explain --format json nowhere "$fleet" >none.json 2>err &&
	test ! -s none.json &&
	grep -q "no site or cluster is named .nowhere." err
'

test_expect_success '--fail K: the what-if sets, bounded' '
	"$GPUSITE" explain --format json --fail 1 "$fleet" >k1.json &&
	python3 -c "
import json
d = json.load(open(\"k1.json\"))
assert d[\"fail\"] == 1 and len(d[\"whatIf\"][\"sets\"]) == 3, d[\"whatIf\"]
" &&
	expect_exit 2 "$GPUSITE" explain --format json --fail 5 "$fleet" 2>k5 &&
	grep -q "from 1 to 4" k5
'

test_expect_success 'a format explain has not is a usage error' '
	expect_exit 2 "$GPUSITE" explain --format sarif "$fleet" 2>err &&
	grep -q "sarif" err
'

test_expect_success 'the site taint: exclusive pools by default, shared ones with exclusive: false' '
	"$GPUSITE" explain --format json "$TEST_TOP/testdata/render/burst-al2023/sites" >excl.json &&
	"$GPUSITE" explain --format json "$TEST_TOP/testdata/render/burst-shared-pools/sites" >shared.json &&
	python3 -c "
import json
tol = {\"key\": \"gpusite.io/site\", \"operator\": \"Exists\", \"effect\": \"NoSchedule\"}
s = json.load(open(\"excl.json\"))[\"sites\"][0]
assert s[\"siteTaint\"] == {\"key\": \"gpusite.io/site\", \"value\": \"lab\", \"effect\": \"NoSchedule\", \"exclusivePools\": [\"lab-gpu-fallback\", \"lab-gpu-burst\"], \"sharedPools\": [], \"daemonSetToleration\": tol, \"everyTaintToleratorLands\": True}, s[\"siteTaint\"]
for k in (\"fallback\", \"burst\"):
    assert s[k][\"exclusive\"] is True and s[k][\"siteTaint\"] == \"gpusite.io/site=lab:NoSchedule\", s[k]
s = json.load(open(\"shared.json\"))[\"sites\"][0]
assert s[\"siteTaint\"][\"exclusivePools\"] == [] and s[\"siteTaint\"][\"sharedPools\"] == [\"lab-gpu-fallback\", \"lab-gpu-burst\"], s[\"siteTaint\"]
for k in (\"fallback\", \"burst\"):
    assert s[k][\"exclusive\"] is False and s[k][\"siteTaint\"] is None, s[k]
" &&
	"$GPUSITE" explain --format json "$TEST_TOP/testdata/render/require-onprem/sites" >off.json &&
	python3 -c "
import json
s = json.load(open(\"off.json\"))[\"sites\"][0]
assert s[\"fallback\"] == {\"enabled\": False} and s[\"siteTaint\"] is None, s
"
'

test_done
