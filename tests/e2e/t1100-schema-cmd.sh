#!/bin/sh
# t1100: `gpusite schema` prints the embedded schema byte for byte; it is
# JSON, a valid draft-07 schema (ajv, strict), and says how editors use it.
. "$TEST_TOP/tests/lib.sh"

SCHEMA="$TEST_TOP/schemas/gpusite.v1alpha1.schema.json"
TOOLS="$TEST_TOP/.tools"

test_expect_success 'gpusite schema prints the schema file byte for byte' '
	"$GPUSITE" schema >"$SCRATCH/out" &&
	cmp "$SCHEMA" "$SCRATCH/out"
'
test_expect_success 'gpusite schema --help and -h exit 0 with usage' '
	"$GPUSITE" schema --help >"$SCRATCH/help" &&
	grep -q "usage: gpusite schema" "$SCRATCH/help" &&
	"$GPUSITE" schema -h >"$SCRATCH/h" &&
	test_cmp "$SCRATCH/help" "$SCRATCH/h"
'
test_expect_success 'gpusite schema refuses arguments and unknown flags (exit 2)' '
	expect_exit 2 "$GPUSITE" schema extra 2>"$SCRATCH/err" &&
	test -s "$SCRATCH/err" &&
	expect_exit 2 "$GPUSITE" schema --bogus 2>/dev/null
'
test_expect_success 'gpusite schema output is JSON with draft-07 $schema and an $id' '
	"$GPUSITE" schema | python3 -c "
import json, sys
s = json.load(sys.stdin)
assert s[\"\$schema\"] == \"http://json-schema.org/draft-07/schema#\", s[\"\$schema\"]
assert s[\"\$id\"].endswith(\"gpusite.v1alpha1.schema.json\")
assert \"yaml-language-server\" in s[\"description\"]
assert s[\"properties\"][\"apiVersion\"][\"const\"] == \"gpusite.io/v1alpha1\"
assert s[\"properties\"][\"kind\"][\"const\"] == \"GPUSite\"
"
'
test_expect_success 'every property in the schema has a description' '
	python3 - "$SCHEMA" <<-\PY
	import json, sys
	s = json.load(open(sys.argv[1]))
	missing, seen = [], 0
	# Field definitions; if/then/else only restate fields as conditions,
	# and a bare {"default": ...} annotates a field described elsewhere.
	def walk(node, path):
	    global seen
	    if isinstance(node, dict):
	        for name, sub in node.get("properties", {}).items():
	            seen += 1
	            if set(sub) - {"default"} and "description" not in sub:
	                missing.append(path + "/properties/" + name)
	        for k, v in node.items():
	            if k not in ("if", "then", "else"):
	                walk(v, path + "/" + k)
	    elif isinstance(node, list):
	        for i, v in enumerate(node):
	            walk(v, path + "/" + str(i))
	walk(s, "#")
	assert not missing, missing
	assert seen > 60, seen
	PY
'
test_expect_success 'the schema uses only draft-07 keywords (a typo would be ignored)' '
	python3 - "$SCHEMA" <<-\PY
	import json, sys
	known = {"$schema", "$id", "$ref", "$comment", "title", "description",
	         "default", "examples", "type", "enum", "const", "properties",
	         "patternProperties", "additionalProperties", "required",
	         "propertyNames", "dependencies", "minProperties", "maxProperties",
	         "items", "additionalItems", "contains", "minItems", "maxItems",
	         "uniqueItems", "minLength", "maxLength", "pattern", "format",
	         "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
	         "multipleOf", "allOf", "anyOf", "oneOf", "not", "if", "then",
	         "else", "definitions"}
	bad, used = [], set()
	def schema(node, path):
	    if not isinstance(node, dict):
	        return
	    for k, v in node.items():
	        used.add(k)
	        if k not in known:
	            bad.append(path + "/" + k)
	        if k in ("properties", "patternProperties", "definitions", "dependencies"):
	            for name, sub in v.items():
	                schema(sub, path + "/" + k + "/" + name)
	        elif k in ("allOf", "anyOf", "oneOf") or (k == "items" and isinstance(v, list)):
	            for i, sub in enumerate(v):
	                schema(sub, path + "/" + k + "/" + str(i))
	        elif k in ("items", "additionalItems", "additionalProperties", "contains",
	                   "propertyNames", "not", "if", "then", "else"):
	            schema(v, path + "/" + k)
	schema(json.load(open(sys.argv[1])), "#")
	assert not bad, bad
	print(sorted(used))
	PY
'
if command -v node >/dev/null && [ -d "$TOOLS/node_modules/ajv" ]; then
	test_expect_success 'ajv compiles the schema in strict mode' '
		node -e "
const Ajv = require(process.argv[1] + \"/node_modules/ajv\");
const addFormats = require(process.argv[1] + \"/node_modules/ajv-formats\");
const ajv = new Ajv({ strict: true, strictRequired: false, allErrors: true });
addFormats(ajv);
ajv.compile(require(process.argv[2]));
" "$TOOLS" "$SCHEMA"
	'
	test_expect_success 'the schema is valid against the draft-07 meta-schema (ajv)' '
		node -e "
const Ajv = require(process.argv[1] + \"/node_modules/ajv\");
const ajv = new Ajv({ strict: false });
if (!ajv.validateSchema(require(process.argv[2]))) {
	console.error(ajv.errors); process.exit(1);
}
" "$TOOLS" "$SCHEMA"
	'
else
	test_skip 'ajv compiles the schema in strict mode' 'node or .tools/ajv missing (run make deps)'
	test_skip 'the schema is valid against the draft-07 meta-schema (ajv)' 'node or .tools/ajv missing (run make deps)'
fi
test_done
