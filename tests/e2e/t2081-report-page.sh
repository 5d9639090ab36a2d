#!/bin/sh
# t2081-report-page.sh - `gpusite report`: the fleet page.  The example
# fleet's Markdown (with the last drill of seoul-dc1) is compared byte for
# byte with testdata/fleetpage/fleet.md (GOLDEN_UPDATE=1 rewrites it); the
# HTML is well-formed with unique ids, self-contained and accessible, and
# its figures are those of `explain --format json`; hostile names are
# escaped; the file is written whole, never through a link; --fail and
# --drill-record are bounded.
. "$TEST_TOP/tests/lib.sh"

fleet="$TEST_TOP/testdata/fleet/sites"
golden="$TEST_TOP/testdata/fleetpage/fleet.md"
rec="$TEST_TOP/testdata/live/drill-drain-met/record.json"
check="$TEST_TOP/tests/e2e/fleetpage_check.py"
cd "$SCRATCH" || exit 1

# the page says when it was made: SOURCE_DATE_EPOCH fixes that time
test_expect_success 'Markdown of the example fleet, byte for byte' '
	(cd "$fleet/.." && SOURCE_DATE_EPOCH=1780000000 \
		"$GPUSITE" report --format markdown -o "$SCRATCH/page.md" --drill-record "$rec" sites) &&
	if test -n "${GOLDEN_UPDATE-}"; then cp page.md "$golden"; fi &&
	test_cmp "$golden" page.md &&
	grep -q "^| seoul-dc1 | 50s | 1m0s / 20s | 4m0s / 3m19s |" page.md &&
	grep -q "node-failure drill: " page.md
'

test_expect_success 'each cost shows its unit price, each set the sum of its parts' '
	grep -F "| \$20.99/h (2 x g6e.12xlarge at \$10.49/h, estimate) |" page.md &&
	grep -F "| \$18.41/h (4 x g6.12xlarge at \$4.60/h, estimate) + a fallback whose price is not known |" page.md
'

test_expect_success 'made by which gpusite, from which specs, when: the version, the path, SOURCE_DATE_EPOCH' '
	version=$("$GPUSITE" --version | sed -n "1s/^gpusite //p") &&
	grep -x "Made by gpusite $version on 2026-05-28T20:26:40Z from sites." page.md &&
	SOURCE_DATE_EPOCH=1780000000 "$GPUSITE" report --format html -o made.html "$fleet" &&
	grep -F "<p id=\"made\">Made by gpusite $version on 2026-05-28T20:26:40Z from $fleet.</p>" made.html &&
	"$GPUSITE" report --format markdown -o now.md "$fleet" &&
	grep "^Made by gpusite $version on 20[0-9-]*T[0-9:]*Z from " now.md &&
	! grep -q "2026-05-28T20:26:40Z" now.md &&
	expect_exit 3 env SOURCE_DATE_EPOCH=yesterday "$GPUSITE" report --format markdown -o bad.md "$fleet" 2>err &&
	grep -x "gpusite report: SOURCE_DATE_EPOCH is not a whole number of seconds since 1970" err &&
	test ! -e bad.md
'

test_expect_success 'from a Git revision the page names its commit' '
	git init -q repo && cp -R "$fleet" repo/sites &&
	git -C repo add . &&
	git -C repo -c user.name=t -c user.email=t@example.com commit -q -m specs &&
	head=$(git -C repo rev-parse HEAD) &&
	SOURCE_DATE_EPOCH=0 "$GPUSITE" report --format markdown -o git.md --repo repo --ref HEAD &&
	grep -x "Made by gpusite .* on 1970-01-01T00:00:00Z from .* at commit $head\." git.md
'

test_expect_success 'HTML: well-formed, unique ids, self-contained, accessible' '
	"$GPUSITE" report --format html -o page.html --drill-record "$rec" "$fleet" &&
	python3 "$check" structure page.html
'

test_expect_success 'the page says what explain --format json says' '
	"$GPUSITE" explain --format json "$fleet" >explain.json &&
	python3 "$check" numbers page.html explain.json
'

test_expect_success 'a generated fleet: the same figures, K 3' '
	sh "$TEST_TOP/bench/gen-fleet.sh" --per-cluster 4 12 gen >/dev/null &&
	"$GPUSITE" report --format html --fail 3 -o gen.html gen &&
	"$GPUSITE" explain --format json --fail 3 gen >gen.json &&
	python3 "$check" structure gen.html &&
	python3 "$check" numbers gen.html gen.json
'

test_expect_success 'cluster.quotas: the what-if says which sets exceed them, validate warns' '
	mkdir -p quota &&
	for s in seoul-dc1 incheon-edge; do
		sed "s/^    region: us-west-2$/&\\
    quotas: {onDemand: {G: 160}, spot: {G: 400}}/" "$fleet/$s.yaml" >quota/$s.yaml || return 1
	done &&
	grep -q "quotas: {onDemand: {G: 160}" quota/seoul-dc1.yaml &&
	"$GPUSITE" validate quota >v.out 2>&1 &&
	grep -q "seoul-dc1.yaml:.*needs at least 192 vCPUs of the G and VT instance families (4 x g6.12xlarge), above the onDemand quota of 160 .*\[GS196\]" v.out &&
	test "$(grep -c GS196 v.out)" -eq 1 &&
	"$GPUSITE" explain seoul-dc1 quota >e.out 2>/dev/null &&
	grep -q "fallback vCPU quota: at least 192 onDemand G vCPUs at gpuLimit (4 x g6.12xlarge) of the 160 cluster.quotas allows: OVER (GS196)" e.out &&
	"$GPUSITE" explain incheon-edge quota >e2.out 2>/dev/null &&
	grep -q "fallback vCPU quota: at least 192 spot G vCPUs at gpuLimit (4 x g6e.12xlarge) of the 400 cluster.quotas allows: within" e2.out &&
	"$GPUSITE" report --format markdown -o q.md quota &&
	grep -q "^| seoul-dc1 | 32 | 16 | 16 short | .* | OVER the quota: onDemand G: 192 of 160 vCPUs |" q.md &&
	grep -q "^| incheon-edge | 32 | 16 | 16 short | .* | within: spot G: 192 of 400 vCPUs |" q.md &&
	"$GPUSITE" report --format html -o q.html quota &&
	"$GPUSITE" explain --format json quota >q.json &&
	python3 "$check" numbers q.html q.json &&
	grep -q "data-sites=\"incheon-edge seoul-dc1\" .* data-quota-over=\"true\"" q.html
'

test_expect_success 'burst pools: shown per cluster and site, not counted as failover capacity' '
	burst="$TEST_TOP/testdata/render/two-site-burst/sites" &&
	"$GPUSITE" report --format markdown -o burst.md "$burst" &&
	grep -q "^| shared-cluster | us-west-2 | seoul-dc1, seoul-dc2 | 16 (16 l40s) | 16 | 12 (varies by site) |" burst.md &&
	grep -q "^| seoul-dc1 | 8 | on-demand | 8 | g6e.12xlarge | .* | 8 GPUs, spot |\$" burst.md &&
	grep -q "^| seoul-dc2 | 8 | on-demand | 8 | g6e.12xlarge | .* | 4 GPUs, on-demand |\$" burst.md &&
	grep -q "^Burst pools are not counted here: burst capacity is Spot .*it is not failover capacity\.\$" burst.md &&
	grep -q "^| seoul-dc1 + seoul-dc2 | 16 | 16 | 0 |" burst.md &&
	"$GPUSITE" report --format html -o burst.html "$burst" &&
	python3 "$check" structure burst.html &&
	"$GPUSITE" explain --format json "$burst" >burst.json &&
	python3 "$check" numbers burst.html burst.json &&
	grep -q "data-cluster=\"shared-cluster\" .* data-burst-limit=\"12\"" burst.html &&
	! grep -q "Burst pools are not counted" page.md
'

test_expect_success 'hostile names are escaped in HTML and Markdown' '
	mkdir -p evil &&
	sed -e "s/version: 0.20.0/version: \"0.20.0<\/td><script>alert(1)<\/script>|x\"/" \
		"$fleet/seoul-dc1.yaml" >evil/s.yaml &&
	"$GPUSITE" report --format html -o evil.html evil 2>/dev/null ||
		test $? -eq 1 &&
	test -s evil.html &&
	! grep -q "<script>" evil.html &&
	grep -q "&lt;script&gt;" evil.html &&
	python3 "$check" structure evil.html &&
	{ "$GPUSITE" report --format markdown -o evil.md evil 2>/dev/null || test $? -eq 1; } &&
	! grep -q "<script>" evil.md &&
	grep -q "&lt;/td&gt;&lt;script&gt;alert(1)&lt;/script&gt;\\\\|x" evil.md
'

test_expect_success 'the page is never written through a link, and whole' '
	ln -s "$SCRATCH/target.html" link.html &&
	expect_exit 3 "$GPUSITE" report --format html -o link.html "$fleet" 2>err &&
	test ! -e target.html &&
	grep -q "link.html" err &&
	mkdir -p ro && chmod 555 ro &&
	{ test "$(id -u)" -eq 0 ||
		{ expect_exit 3 "$GPUSITE" report --format html -o ro/p.html "$fleet" 2>/dev/null &&
		  test ! -e ro/p.html; }; } &&
	"$GPUSITE" report --format markdown -o - "$fleet" >stdout.md &&
	grep -q "^# GPU fleet" stdout.md &&
	expect_exit 3 "$GPUSITE" report --format markdown -o - "$fleet" >/dev/full 2>full.err &&
	grep -q "cannot write the page to standard output" full.err &&
	expect_exit 3 "$GPUSITE" report --format html -o /dev/full "$fleet" 2>dev.err &&
	test "$(wc -l <dev.err)" -eq 1
'

test_expect_success 'usage: --format, -o, --fail bounds' '
	expect_exit 2 "$GPUSITE" report -o x.html "$fleet" 2>e1 &&
	grep -q "format html" e1 &&
	expect_exit 2 "$GPUSITE" report --format pdf -o x "$fleet" 2>e2 &&
	expect_exit 2 "$GPUSITE" report --format html -o x --fail 0 "$fleet" 2>e3 &&
	expect_exit 2 "$GPUSITE" report --format html -o x --fail 5 "$fleet" 2>e4 &&
	grep -q "from 1 to 4" e4 &&
	expect_exit 2 "$GPUSITE" report --format html -o x --fail 2x "$fleet" &&
	test ! -e x
'

test_expect_success 'combinations are bounded: K at most 4, at most 20,000 sets' '
	sh "$TEST_TOP/bench/gen-fleet.sh" --per-cluster 50 50 one >/dev/null &&
	"$GPUSITE" report --format markdown --fail 4 -o big.md one &&
	grep -q "^\*\*Only the first 20000 sets are listed: lower --fail.\*\*$" big.md &&
	test "$(grep -c "^| site-" big.md)" -eq $((20000 + 50 + 50)) &&
	"$GPUSITE" explain --format json --fail 4 one >big.json &&
	python3 -c "
import json
d = json.load(open(\"big.json\"))
assert d[\"whatIf\"][\"truncated\"] is True and len(d[\"whatIf\"][\"sets\"]) == 20000
"
'

test_expect_success '--drift-json: the live section, per site, escaped' '
	cat >drift.json <<-\EOF &&
	{"diagnostics": [
	 {"file": "sites/seoul-dc1.yaml", "line": 20, "column": 9, "severity": "error", "rule": "GS201",
	  "path": "", "message": "node gpu-a-01 has no GPU taint <b>|</b>"},
	 {"file": "/elsewhere/sites/seoul-dc1.yaml", "line": 1, "column": 1, "severity": "note",
	  "rule": "GS213", "path": "", "message": "the fallback is active: 2 nodes"},
	 {"file": "", "line": 0, "column": 0, "severity": "warning", "rule": "GS206", "path": "",
	  "message": "a finding of no site"}],
	 "summary": {"files": 3, "sites": 3, "errors": 1, "warnings": 1}}
	EOF
	(cd "$TEST_TOP/testdata/fleet" &&
	 "$GPUSITE" report --format markdown -o - --drift-json "$SCRATCH/drift.json" sites) >live.md &&
	grep -q "^## Live: drift and fallback$" live.md &&
	grep -q "^| seoul-dc1 | 1 | 0 | YES: the fallback is active: 2 nodes | error GS201: node gpu-a-01 has no GPU taint &lt;b&gt;\\|&lt;/b&gt; |$" live.md &&
	grep -q "^| incheon-edge | 0 | 0 | no | none |$" live.md &&
	grep -q "^| (no site.s file) | 0 | 1 | no | warning GS206: a finding of no site |$" live.md &&
	(cd "$TEST_TOP/testdata/fleet" &&
	 "$GPUSITE" report --format html -o "$SCRATCH/live.html" --drift-json "$SCRATCH/drift.json" sites) &&
	python3 "$check" structure live.html &&
	grep -q "data-live-site=\"seoul-dc1\" data-errors=\"1\" data-fallback-active=\"true\"" live.html &&
	! grep -q "<b>" live.html &&
	"$GPUSITE" report --format markdown -o plain.md "$fleet" &&
	! grep -q "Live" plain.md
'

test_expect_success '--drift-json that is not drift output, or not a file' '
	echo "{\"diagnostics\": 3}" >bad.json &&
	expect_exit 3 "$GPUSITE" report --format html -o l.html --drift-json bad.json "$fleet" 2>e7 &&
	grep -q "cannot read the drift findings bad.json: not the output of gpusite drift" e7 &&
	expect_exit 3 "$GPUSITE" report --format html -o l.html --drift-json . "$fleet" 2>e8 &&
	grep -q "drift findings .: a directory" e8 &&
	test ! -e l.html
'

test_expect_success 'a drill record that cannot be read, or of another site' '
	expect_exit 3 "$GPUSITE" report --format html -o r.html --drill-record nosuch.json "$fleet" 2>e5 &&
	grep -q "cannot read the drill record nosuch.json" e5 &&
	test ! -e r.html &&
	sed "s/\"site\": \"seoul-dc1\"/\"site\": \"elsewhere\"/" "$rec" >other.json &&
	expect_exit 3 "$GPUSITE" report --format html -o r.html --drill-record other.json "$fleet" 2>e6 &&
	grep -q "record of site elsewhere, which the specs read do not hold" e6
'

test_done
