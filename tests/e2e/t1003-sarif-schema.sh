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
	"$GPUSITE" init good >/dev/null &&
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

test_expect_success 'sarif with --strict (warnings as errors) validates' '
	(cd bad && expect_exit 1 "$GPUSITE" validate --strict --format sarif) >strict.sarif &&
	node check.js strict.sarif
'

test_done
