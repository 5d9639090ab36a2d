#!/bin/sh
# t1003-sarif-schema: the sarif format validates against the SARIF 2.1.0
# JSON Schema (../shared/upstream/sarif) with ajv, clean and with findings.
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

SCHEMA="$UPSTREAM/sarif/sarif-schema-2.1.0.json"
AJV="$TEST_TOP/.tools/node_modules/ajv"

# The schema is written for draft-04 ("id", draft-04 $schema); its
# keywords are read the same by draft-07, so ajv (draft-07 mode) checks it
# once the two header fields are renamed.
cat >check.js <<'JS'
const fs = require('fs');
const Ajv = require(process.env.AJV);
const addFormats = require(process.env.AJV + '-formats');
const schema = JSON.parse(fs.readFileSync(process.env.SCHEMA, 'utf8'));
schema.$id = schema.id;
delete schema.id;
delete schema.$schema;
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
const validate = ajv.compile(schema);
let bad = 0;
for (const f of process.argv.slice(2)) {
	const doc = JSON.parse(fs.readFileSync(f, 'utf8'));
	if (validate(doc)) {
		console.log('valid ' + f);
	} else {
		bad++;
		console.log('INVALID ' + f + ': ' + ajv.errorsText(validate.errors));
	}
}
process.exit(bad ? 1 : 0);
JS

if ! need_upstream || [ ! -f "$SCHEMA" ]; then
	test_skip "sarif output validates against the SARIF 2.1.0 schema" \
		"../shared/upstream not found"
	test_done
	exit 0
fi
if ! command -v node >/dev/null || [ ! -d "$AJV" ]; then
	test_skip "sarif output validates against the SARIF 2.1.0 schema" \
		"node or .tools/node_modules/ajv missing (run make deps)"
	test_done
	exit 0
fi
export AJV SCHEMA

# findings of every kind: a YAML error, a line-0 finding, a warning, a
# message with characters JSON and URIs must escape
mkdir -p bad && (
	cd bad &&
	init_filled good &&
	sed -e "s/name: good/name: low/" -e "s/gpuLimit: 8 /gpuLimit: 2 /" \
		sites/good.yaml >"sites/low limit #1.yaml" &&
	printf "a: [1\n" >sites/broken.yaml &&
	printf "\"quote\\\\\": 1\n" >sites/quote.yaml &&
	mkfifo sites/fifo.yaml
)

test_expect_success 'the checker rejects what is not SARIF' '
	echo "{\"version\":\"2.1.0\",\"runs\":[{\"results\":[]}]}" >not.sarif &&
	expect_exit 1 node check.js not.sarif >out &&
	grep INVALID out
'

test_expect_success 'sarif on the example fleet validates' '
	"$GPUSITE" validate --format sarif "$TEST_TOP/testdata/fleet" >fleet.sarif &&
	node check.js fleet.sarif
'

test_expect_success 'sarif with findings validates' '
	(cd bad && expect_exit 1 "$GPUSITE" validate --format sarif) >bad.sarif &&
	python3 -c "
import json
d = json.load(open(\"bad.sarif\"))
assert len(d[\"runs\"][0][\"results\"]) >= 5, d
" &&
	node check.js bad.sarif
'

test_expect_success 'sarif rules: fullDescription, help and helpUri from docs/rules.md' '
	python3 - bad.sarif "$TEST_TOP/docs/rules.md" "$(cat "$TEST_TOP/VERSION")" <<-\EOF
	import json, re, sys
	d = json.load(open(sys.argv[1]))
	docs = open(sys.argv[2]).read()
	version = sys.argv[3]
	drv = d["runs"][0]["tool"]["driver"]
	info = drv["informationUri"]
	assert info.startswith("https://") and "gpusite.io" not in info, info
	rows = {}
	for line in docs.split("<!-- catalogue: begin -->")[1].splitlines():
	    if line.startswith("| GS"):
	        c = line[2:-2].split(" | ")
	        rows[c[0]] = c
	assert len(drv["rules"]) >= 3, drv["rules"]
	for r in drv["rules"]:
	    rid = r["id"]
	    meaning, fix = rows[rid][2], rows[rid][3]
	    anchor = rid.lower()
	    assert fix.startswith("<a id=\"%s\"></a>" % anchor), (rid, fix)
	    fix = fix[len("<a id=\"%s\"></a>" % anchor):]
	    plain = re.sub(r"`|\*\*", "", fix)
	    assert r["help"]["text"] == plain, (rid, r["help"])
	    assert "**How to fix:** " + fix in r["help"]["markdown"], (rid, r["help"])
	    assert r["fullDescription"]["text"].startswith(re.sub(r"`", "", meaning) + ". "), r
	    assert r["helpUri"] == "%s/blob/v%s/docs/rules.md#%s" % (info, version, anchor), r
	EOF
'

test_expect_success 'every catalogue row of docs/rules.md has its anchor' '
	sed -n "/<!-- catalogue: begin -->/,/<!-- catalogue: end -->/p" "$TEST_TOP/docs/rules.md" |
		grep "^| GS[0-9]* | " >rows &&
	test -s rows &&
	if grep -v "^| \(GS[0-9]*\) | [^|]* | .* | <a id=\"gs[0-9]*\"></a>" rows; then
		echo "rows without their anchor: run make docs-rules-update"; return 1
	fi &&
	while read -r bar id rest; do
		grep -q "^| $id | .*<a id=\"$(echo "$id" | tr A-Z a-z)\"></a>" rows || return 1
	done <rows
'

test_expect_success 'sarif with --strict (warnings as errors) validates' '
	(cd bad && expect_exit 1 "$GPUSITE" validate --strict --format sarif) >strict.sarif &&
	node check.js strict.sarif
'

test_done
