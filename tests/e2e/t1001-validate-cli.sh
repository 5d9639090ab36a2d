#!/bin/sh
# t1001-validate-cli: `gpusite validate` end to end - exit codes 0/1/2/3,
# the default path, -q, --strict, --color, and every format on the
# example fleet and on an invalid tree.
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

FLEET="$TEST_TOP/testdata/fleet"
nfleet=$(ls "$FLEET"/sites/*.yaml 2>/dev/null | wc -l | tr -d ' ')

# An invalid tree: a valid starter spec, the same with a fallback limit
# below one instance (GS041, plus the GS045 warning; its own namespace, or
# GS171 would join them), a document that is
# not a mapping (GS001) and a symlink leading out of the tree (GS006) -
# out of bad/, that is: run from the scratch directory, which holds the
# target, the link stays inside.
mkdir -p bad && (
	cd bad &&
	init_filled good &&
	sed -e "s/name: good/name: low-limit/" -e "s/gpuLimit: 8 /gpuLimit: 2 /" \
		-e "s/namespaces: \[good\]/namespaces: [low-limit]/" \
		sites/good.yaml >sites/low.yaml &&
	printf -- "- just\n- a list\n" >sites/list.yaml &&
	echo "kind: Secret" >../outside.yaml &&
	ln -s ../../outside.yaml sites/out.yaml
)
limit_line=$(grep -n "gpuLimit: 2 " bad/sites/low.yaml | cut -d: -f1)

# A tree that is valid but warns: tolerations above 300 s (GS061).
mkdir -p warn && (
	cd warn &&
	init_filled slow &&
	sed -i "s/notReadyTolerationSeconds: 300/notReadyTolerationSeconds: 600/" sites/slow.yaml
)

test_expect_success 'the example fleet is there' '
	test "$nfleet" -ge 3
'

test_expect_success 'valid fleet: exit 0, summary on stderr, nothing on stdout' '
	"$GPUSITE" validate "$FLEET" >out 2>err &&
	test ! -s out &&
	echo "gpusite: 0 errors, 0 warnings ($nfleet files, $nfleet sites)" >expect &&
	test_cmp expect err
'

test_expect_success '-q: nothing at all when clean' '
	"$GPUSITE" validate -q "$FLEET" >out 2>err &&
	test ! -s out && test ! -s err
'

test_expect_success 'no argument: sites/ below the current directory' '
	(cd "$FLEET" && "$GPUSITE" validate) 2>err &&
	echo "gpusite: 0 errors, 0 warnings ($nfleet files, $nfleet sites)" >expect &&
	test_cmp expect err &&
	(cd bad && expect_exit 1 "$GPUSITE" validate) 2>err &&
	grep "^sites/list.yaml:1:1: error: document is not a mapping" err
'

test_expect_success 'no argument and no sites/: the current directory' '
	(cd bad/sites && expect_exit 1 "$GPUSITE" validate) 2>err &&
	grep "^list.yaml:1:1: error: document is not a mapping" err &&
	grep "^low.yaml:$limit_line:" err
'

test_expect_success 'invalid tree: exit 1, one sorted line per finding, summary' '
	(cd bad && expect_exit 1 "$GPUSITE" validate sites) >out 2>err &&
	test ! -s out &&
	grep -E "^sites/low.yaml:$limit_line:[0-9]+: error: .* \[GS041\]$" err &&
	grep -E "^sites/low.yaml:$limit_line:[0-9]+: warning: .* \[GS045\]$" err &&
	grep -x "sites/list.yaml:1:1: error: document is not a mapping: a site spec starts with '"'"'apiVersion: gpusite.io/v1alpha1'"'"' and '"'"'kind: GPUSite'"'"' \[GS001\]" err &&
	grep -x "sites/out.yaml: error: symlink leads outside the repository; spec files must be regular files inside it \[GS006\]" err &&
	sed "\$d" err >lines &&
	sort -t: -k1,1 -k2,2n -k3,3n lines >sorted &&
	test_cmp sorted lines &&
	tail -n 1 err >last &&
	echo "gpusite: 3 errors, 1 warning (3 files, 3 sites)" >expect &&
	test_cmp expect last
'

test_expect_success 'the valid site among invalid ones is not reported' '
	(cd bad && expect_exit 1 "$GPUSITE" validate sites) 2>err &&
	! grep "^sites/good.yaml" err
'

test_expect_success 'warnings alone: exit 0; --strict: exit 1' '
	"$GPUSITE" validate warn/sites 2>err &&
	grep -E "^warn/sites/slow.yaml:[0-9]+:[0-9]+: warning: .*\[GS061\]$" err &&
	tail -n 1 err | grep -x "gpusite: 0 errors, 1 warning (1 file, 1 site)" &&
	expect_exit 1 "$GPUSITE" validate --strict warn/sites 2>err &&
	grep -E "^warn/sites/slow.yaml:[0-9]+:[0-9]+: error: .*\[GS061\]$" err &&
	tail -n 1 err | grep -x "gpusite: 1 error, 0 warnings (1 file, 1 site)"
'

test_expect_success '-q still reports findings and the summary' '
	(cd bad && expect_exit 1 "$GPUSITE" validate -q sites) 2>err &&
	grep "GS041" err &&
	tail -n 1 err | grep "^gpusite: 3 errors"
'

test_expect_success 'usage errors are exit 2 and name the problem' '
	expect_exit 2 "$GPUSITE" validate --format yaml "$FLEET" 2>err &&
	grep "unknown format '"'"'yaml'"'"'" err &&
	expect_exit 2 "$GPUSITE" validate --color sometimes "$FLEET" 2>err &&
	grep "unknown --color value" err &&
	expect_exit 2 "$GPUSITE" validate --strict=yes "$FLEET" 2>err &&
	grep "takes no value" err &&
	expect_exit 2 "$GPUSITE" validate --staged --repo . 2>err &&
	grep "cannot be combined" err
'

test_expect_success 'a missing path is exit 3 with the reason' '
	expect_exit 3 "$GPUSITE" validate nope >out 2>err &&
	test ! -s out &&
	echo "gpusite: error: cannot read '"'"'nope'"'"': No such file or directory [GS007]" >expect &&
	test_cmp expect err
'

test_expect_success 'a missing path in a structured format is still exit 3 and no report' '
	expect_exit 3 "$GPUSITE" validate --format json nope >out 2>err &&
	test ! -s out &&
	grep "cannot read" err
'

test_expect_success 'no spec files at all is exit 3, never an empty success' '
	mkdir -p empty/sites &&
	echo "not a spec" >empty/sites/README.md &&
	expect_exit 3 "$GPUSITE" validate empty 2>err &&
	echo "gpusite: error: no spec files found under '"'"'empty'"'"' [GS007]" >expect &&
	test_cmp expect err &&
	(cd empty && expect_exit 3 "$GPUSITE" validate) 2>err &&
	echo "gpusite: error: no spec files found under '"'"'sites'"'"' [GS007]" >expect &&
	test_cmp expect err
'

test_expect_success 'a file is taken whatever its name' '
	cp "$(ls "$FLEET"/sites/*.yaml | head -n 1)" spec.txt &&
	"$GPUSITE" validate spec.txt 2>err &&
	grep -x "gpusite: 0 errors, 0 warnings (1 file, 1 site)" err
'

test_expect_success '--color always: colours and a caret line under the column' '
	expect_exit 1 "$GPUSITE" validate --color always bad/sites/list.yaml 2>err &&
	printf "\033[1mbad/sites/list.yaml:1:1:\033[0m \033[1;31merror:\033[0m" >expect &&
	head -c "$(wc -c <expect)" err | cmp - expect &&
	sed -n 2p err | grep -x "    1 | - just" &&
	sed -n 3p err | grep -F "      | " &&
	sed -n 3p err | grep -F "^"
'

test_expect_success '--color never and NO_COLOR: no escape sequences' '
	expect_exit 1 "$GPUSITE" validate --color never bad/sites 2>err &&
	! grep -q "$(printf "\033")" err &&
	NO_COLOR=1 expect_exit 1 "$GPUSITE" validate --color auto bad/sites 2>err &&
	! grep -q "$(printf "\033")" err
'

test_expect_success '--staged checks the index, --ref a revision, not the work tree' '
	if ! command -v git >/dev/null; then exit 0; fi &&
	mkdir repo && cd repo &&
	git init -q &&
	init_filled one &&
	git add sites/one.yaml &&
	git -c user.name=t -c user.email=t@example.com commit -q -m one &&
	sed -i "s/gpuLimit: 8 /gpuLimit: 2 /" sites/one.yaml &&
	expect_exit 1 "$GPUSITE" validate 2>err &&
	grep "GS041" err &&
	"$GPUSITE" validate --staged 2>err &&
	grep -x "gpusite: 0 errors, 0 warnings (1 file, 1 site)" err &&
	"$GPUSITE" validate --ref HEAD 2>err &&
	grep -x "gpusite: 0 errors, 0 warnings (1 file, 1 site)" err &&
	git add sites/one.yaml &&
	expect_exit 1 "$GPUSITE" validate --staged 2>err &&
	grep "^sites/one.yaml:[0-9]*:[0-9]*: error: .*\[GS041\]" err &&
	expect_exit 3 "$GPUSITE" validate --ref no-such-rev 2>err &&
	grep "no-such-rev" err
'

# ---- formats ----

test_expect_success 'json on the fleet: an empty list and the counts' '
	"$GPUSITE" validate --format json "$FLEET" >out 2>err &&
	test ! -s err &&
	test $(wc -l <out) -eq 1 &&
	python3 -c "
import json, sys
d = json.load(open(\"out\"))
assert d[\"diagnostics\"] == [], d
assert d[\"summary\"] == {\"files\": $nfleet, \"sites\": $nfleet, \"errors\": 0, \"warnings\": 0}, d
"
'

test_expect_success 'json on the invalid tree: every finding with every field' '
	(cd bad && expect_exit 1 "$GPUSITE" validate --format json sites) >out 2>err &&
	test ! -s err &&
	python3 -c "
import json
d = json.load(open(\"out\"))
keys = [\"file\", \"line\", \"column\", \"severity\", \"rule\", \"path\", \"message\"]
for x in d[\"diagnostics\"]:
    assert list(x) == keys, x
got = [(x[\"file\"], x[\"line\"], x[\"severity\"], x[\"rule\"]) for x in d[\"diagnostics\"]]
want = [(\"sites/list.yaml\", 1, \"error\", \"GS001\"),
        (\"sites/low.yaml\", $limit_line, \"error\", \"GS041\"),
        (\"sites/low.yaml\", $limit_line, \"warning\", \"GS045\"),
        (\"sites/out.yaml\", 0, \"error\", \"GS006\")]
assert got == want, got
lim = [x for x in d[\"diagnostics\"] if x[\"rule\"] == \"GS041\"][0]
assert lim[\"path\"] == \"spec.fallback.gpuLimit\", lim
assert d[\"summary\"] == {\"files\": 3, \"sites\": 3, \"errors\": 3, \"warnings\": 1}, d
"
'

test_expect_success 'github: one annotation per finding, nothing when clean' '
	"$GPUSITE" validate --format github "$FLEET" >out 2>err &&
	test ! -s out && test ! -s err &&
	(cd bad && expect_exit 1 "$GPUSITE" validate --format github sites) >out &&
	test $(wc -l <out) -eq 4 &&
	grep -x "::error file=sites/list.yaml,line=1,col=1,title=GS001::document is not a mapping: a site spec starts with '"'"'apiVersion: gpusite.io/v1alpha1'"'"' and '"'"'kind: GPUSite'"'"'" out &&
	grep -E "^::error file=sites/low.yaml,line=$limit_line,col=[0-9]+,title=GS041::" out &&
	grep -E "^::warning file=sites/low.yaml,line=$limit_line,col=[0-9]+,title=GS045::" out &&
	grep -x "::error file=sites/out.yaml,title=GS006::symlink leads outside the repository; spec files must be regular files inside it" out
'

test_expect_success 'github: the job summary is appended to GITHUB_STEP_SUMMARY' '
	echo "# earlier step" >summary.md &&
	(cd bad && GITHUB_STEP_SUMMARY=../summary.md expect_exit 1 "$GPUSITE" validate --format github sites) >out &&
	head -n 1 summary.md | grep -x "# earlier step" &&
	grep -x "| | File | Line | Rule | Message |" summary.md &&
	test $(grep -c "^| .* | sites/" summary.md) -eq 4 &&
	tail -n 1 summary.md | grep -x "gpusite: 3 errors, 1 warning (3 files, 3 sites)"
'

test_expect_success 'sarif: 2.1.0, rules for the IDs that occur, regions' '
	(cd bad && expect_exit 1 "$GPUSITE" validate --format sarif sites) >out &&
	python3 -c "
import json
d = json.load(open(\"out\"))
assert d[\"version\"] == \"2.1.0\" and \"\$schema\" in d
run = d[\"runs\"][0]
ids = [r[\"id\"] for r in run[\"tool\"][\"driver\"][\"rules\"]]
assert ids == [\"GS001\", \"GS006\", \"GS041\", \"GS045\"], ids
assert all(r[\"shortDescription\"][\"text\"] for r in run[\"tool\"][\"driver\"][\"rules\"])
res = run[\"results\"]
assert len(res) == 4
for r in res:
    assert ids[r[\"ruleIndex\"]] == r[\"ruleId\"]
loc = {r[\"ruleId\"]: r[\"locations\"][0][\"physicalLocation\"] for r in res}
assert loc[\"GS041\"][\"region\"][\"startLine\"] == $limit_line
assert loc[\"GS001\"][\"region\"] == {\"startLine\": 1, \"startColumn\": 1}
assert \"region\" not in loc[\"GS006\"], loc[\"GS006\"]
assert loc[\"GS006\"][\"artifactLocation\"][\"uri\"] == \"sites/out.yaml\"
levels = sorted(r[\"level\"] for r in res)
assert levels == [\"error\", \"error\", \"error\", \"warning\"], levels
"
'

test_expect_success 'junit: a suite per file, a case per site, failures for errors' '
	(cd bad && expect_exit 1 "$GPUSITE" validate --format junit sites) >out &&
	python3 -c "
import xml.etree.ElementTree as ET
root = ET.parse(\"out\").getroot()
assert root.tag == \"testsuites\"
suites = {s.get(\"name\"): s for s in root.findall(\"testsuite\")}
assert sorted(suites) == [\"sites/good.yaml\", \"sites/list.yaml\", \"sites/low.yaml\", \"sites/out.yaml\"], sorted(suites)
cases = {s: [c.get(\"name\") for c in suites[s].findall(\"testcase\")] for s in suites}
assert cases[\"sites/good.yaml\"] == [\"good\"], cases
assert cases[\"sites/low.yaml\"] == [\"low-limit\"], cases
assert cases[\"sites/list.yaml\"] == [\"sites/list.yaml\"], cases
assert suites[\"sites/good.yaml\"].find(\"testcase/failure\") is None
f = suites[\"sites/low.yaml\"].find(\"testcase/failure\")
assert f is not None and f.get(\"type\") == \"GS041\" and \"[GS041]\" in f.text
assert \"[GS045]\" in suites[\"sites/low.yaml\"].find(\"testcase/system-out\").text
assert root.get(\"failures\") == \"3\" and root.get(\"tests\") == \"4\", root.attrib
"
'

test_expect_success 'junit on the fleet: every site passes' '
	"$GPUSITE" validate --format junit "$FLEET" >out &&
	python3 -c "
import xml.etree.ElementTree as ET
root = ET.parse(\"out\").getroot()
assert root.get(\"tests\") == \"$nfleet\" and root.get(\"failures\") == \"0\", root.attrib
assert len(root.findall(\"testsuite/testcase/failure\")) == 0
"
'

test_expect_success 'markdown: a table row per finding and the summary' '
	(cd bad && expect_exit 1 "$GPUSITE" validate --format markdown sites) >out 2>err &&
	test ! -s err &&
	grep -x "| | File | Line | Rule | Message |" out &&
	grep -E "^\| .+ \| sites/low.yaml \| $limit_line:[0-9]+ \| GS041 \| " out &&
	grep -E "^\| .+ \| sites/out.yaml \|  \| GS006 \| " out &&
	tail -n 1 out | grep -x "gpusite: 3 errors, 1 warning (3 files, 3 sites)" &&
	"$GPUSITE" validate --format markdown "$FLEET" >out &&
	grep -x "No problems found." out
'

test_expect_success 'every format exits as text does' '
	for f in text json github sarif junit markdown; do
		"$GPUSITE" validate --format $f "$FLEET" >/dev/null 2>&1 || exit 1
		expect_exit 1 "$GPUSITE" validate --format $f bad/sites >/dev/null 2>&1 || exit 1
		expect_exit 1 "$GPUSITE" validate --strict --format $f warn/sites >/dev/null 2>&1 || exit 1
	done
'

test_expect_success 'a closed stdout is exit 3, not a silent success' '
	if [ -w /dev/full ]; then
		expect_exit 3 "$GPUSITE" validate --format json "$FLEET" >/dev/full 2>err &&
		grep "cannot write" err
	fi
'

test_done
