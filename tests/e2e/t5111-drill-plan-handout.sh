#!/bin/sh
# t5111: `gpusite drill plan` as a handout: the silence names exactly the
# alerts gpusite renders for the site (and its label); the cost of the
# fallback for the drill window comes from the built-in on-demand price
# table, which equals Karpenter v1.14.1's us-east-1 prices in ../shared;
# spot and types without a price say "price not known"; a node cordoned
# before the drill is named and left out of the restore; a partition
# needs no rights; no alerts, nothing to silence.
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/live.sh"
. "$TEST_TOP/tests/tools/live-drill.sh"

if ! live_have_python; then
	test_skip "drill plan handout" "python3 or openssl not found"
	test_done
	exit
fi
live_certs
cd "$SCRATCH"

# variant NAME SED-SCRIPT: the live seoul-dc1 spec changed -> NAME/
variant() {
	mkdir -p "$1" && sed -e "$2" "$LIVE/sites/seoul-dc1.yaml" >"$1/seoul-dc1.yaml"
}

test_expect_success 'the silence: every alert of the rendered PrometheusRule, the site label, the window' '
	plan drill-ready sites 0 &&
	grep "^       SILENCE=\$(amtool silence add" out >silence &&
	python3 - applied.json silence <<-\PY
	import json, re, sys
	objs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
	rule = [o for o in objs if o["kind"] == "PrometheusRule"]
	assert len(rule) == 1, rule
	rules = [r for g in rule[0]["spec"]["groups"] for r in g["rules"]]
	names = [r["alert"] for r in rules]
	assert all(r["labels"]["gpusite_site"] == "seoul-dc1" for r in rules), rules
	line = open(sys.argv[2]).read()
	m = re.search(r"\x27alertname=~\"([^\"]*)\"\x27 \x27gpusite_site=\"seoul-dc1\"\x27\)$", line)
	assert m, line
	assert m.group(1).split("|") == names, (m.group(1), names)
	assert "--duration=25m " in line, line
	PY
'

if need_upstream && [ -f "$UPSTREAM/karpenter/gpu-on-demand-prices.csv" ]; then
	test_set_prereq PRICES
fi
test_expect_success PRICES 'the cost: nodes for the GPUs that move, within gpuLimit, x the price in ../shared x the window' '
	variant priced "s/instanceTypes: \[g6.12xlarge, g6e.12xlarge\]/instanceTypes: [g6.48xlarge, g6e.48xlarge, g7.48xlarge]/" &&
	plan drill-ready "$SCRATCH/priced" 0 &&
	sed -n "/^cost of the fallback/,/^gpusite drill plan/p" out >cost &&
	python3 - "$UPSTREAM/karpenter/gpu-on-demand-prices.csv" cost <<-\PY
	import csv, math, sys
	price = {r["instance_type"]: float(r["usd_per_hour"])
	         for r in csv.DictReader(open(sys.argv[1], newline=""))
	         if r["region"] == "us-east-1"}
	got = open(sys.argv[2]).read().splitlines()
	assert got[0] == ("cost of the fallback for the drill window 25m0s (us-east-1 on-demand"
	                  " list prices of 2026-07-06, Karpenter v1.14.1"
	                  " pkg/providers/pricing/zz_generated.pricing_aws.go;"
	                  " only an estimate in us-west-2):"), got[0]
	assert got[1] == "  8 GPUs to replace (the GPUs of the pods that move, within gpuLimit 16)", got[1]
	window = 25 * 60
	want, best = [], None
	for t in ("g6.48xlarge", "g6e.48xlarge"):
	    nodes = math.ceil(8 / 8)
	    cost = nodes * price[t] * window / 3600
	    best = cost if best is None else min(best, cost)
	    want.append("  %-18s %d node%s x $%.4f/h = $%.2f/h: $%.2f for the window"
	                % (t, nodes, "" if nodes == 1 else "s", price[t], nodes * price[t], cost))
	assert "g7.48xlarge" not in price
	want.append("  %-18s 1 node: price not known (Karpenter v1.14.1"
	            " pkg/providers/pricing/zz_generated.pricing_aws.go ships none)" % "g7.48xlarge")
	want.append("  Karpenter launches the cheapest type that fits: expect about $%.2f" % best)
	assert got[2:6] == want, (got[2:6], want)
	assert best > 5.5 and best < 6, best
	PY
'

test_expect_success 'spot capacity: price not known; in us-east-1 the list price is not an estimate' '
	variant spot "s/capacityType: on-demand/capacityType: spot/" &&
	plan drill-ready "$SCRATCH/spot" 0 &&
	grep "^cost: price not known (capacityType spot: gpusite knows on-demand list prices only)$" out &&
	variant east "s/region: us-west-2/region: us-east-1/" &&
	plan drill-ready "$SCRATCH/east" 0 &&
	grep "^cost of the fallback for the drill window 25m0s (us-east-1 on-demand list prices of 2026-07-06, Karpenter v1.14.1 pkg/providers/pricing/zz_generated.pricing_aws.go):$" out
'

test_expect_success 'every capacity type listed: reserved first and prepaid, on-demand the ceiling' '
	variant resod "s/capacityType: on-demand/capacityType: [reserved, on-demand]\n    nodeClassSelectsReservations: true/" &&
	plan drill-ready "$SCRATCH/resod" 0 &&
	grep "^  capacityType \[reserved, on-demand\]: Karpenter launches reserved first (billed whether the drill uses it or not); the prices below are on-demand.s, the most the window costs$" out &&
	grep "^cost of the fallback for the drill window" out &&
	variant spotod "s/capacityType: on-demand/capacityType: [spot, on-demand]/" &&
	plan drill-ready "$SCRATCH/spotod" 0 &&
	grep "^  capacityType \[spot, on-demand\]: Karpenter launches spot first; the prices below" out &&
	variant res "s/capacityType: on-demand/capacityType: [reserved]\n    nodeClassSelectsReservations: true/" &&
	plan drill-ready "$SCRATCH/res" 0 &&
	grep "^cost: price not known (capacityType reserved: gpusite knows on-demand list prices only; a reservation is billed whether the drill uses it or not)$" out
'

test_expect_success 'a node cordoned before the drill: named, and left out of the restore command' '
	plan drill-run-maintenance sites 0 &&
	grep "^  node gpu-a-02 is unschedulable now (cordoned before the drill): the drill drains it but sends no cordon, and the restore leaves it cordoned$" out &&
	grep "^       gpusite drill run seoul-dc1 .* --nodes gpu-a-01,gpu-a-02 --record drill.json --execute$" out &&
	grep "^       gpusite drill run seoul-dc1 .* --restore --nodes gpu-a-01 --record drill.json --execute$" out
'

test_expect_success 'partition: no rights to grant, the silence still; no alerts rendered: nothing to silence' '
	plan drill-ready sites 0 --scenario partition &&
	grep "^  1. gpusite sends no write in a partition drill: no drill rights are needed$" out &&
	grep "^  2. silence the notifications" out &&
	! grep "gpusite-drill.yaml" out &&
	variant quiet "/^  alerts:/,/^  argocd:/s/enabled: true/enabled: false/" &&
	plan drill-ready "$SCRATCH/quiet" 0 &&
	grep "^  2. no alerts are rendered for the site (alerts.enabled is false): none of gpusite.s to silence$" out &&
	! grep amtool out
'

test_done
