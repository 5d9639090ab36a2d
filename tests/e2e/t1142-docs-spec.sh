#!/bin/sh
# t1142-docs-spec: docs/spec.md, the field reference, holds exactly what
# `gpusite schema --reference` generates from the embedded schema (make
# docs-spec-update rewrites it), every field of the schema has its row,
# and the host prerequisites name the drift rule that notices GPUs that
# are not advertised.
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

DOC="$TEST_TOP/docs/spec.md"

test_expect_success 'the table in docs/spec.md is what the schema generates (make docs-spec-update)' '
	"$GPUSITE" schema --reference >want &&
	sed -n "/^<!-- fields: begin -->\$/,/^<!-- fields: end -->\$/p" "$DOC" | sed "1d;\$d" >have &&
	test -s have &&
	test_cmp want have || { echo "docs/spec.md is stale: run make docs-spec-update"; false; }
'

test_expect_success 'every field of the schema has one row, with its type and default' '
	"$GPUSITE" schema >schema.json &&
	python3 - schema.json want <<-\EOF
	import json, sys
	root = json.load(open(sys.argv[1]))
	rows = {}
	for line in open(sys.argv[2]):
	    if line.startswith("| `"):
	        cells = line.split(" | ")
	        rows[cells[0][3:-1]] = cells
	def resolve(n):
	    if "$ref" in n:
	        return root["definitions"][n["$ref"].split("/")[-1]]
	    return n
	def props(n):
	    n = resolve(n)
	    out = dict()
	    for s in n.get("allOf", []):
	        out.update({k: v for k, v in resolve(s).get("properties", {}).items()})
	    out.update(n.get("properties", {}))
	    return out
	want = []
	def walk(n, path):
	    for k, v in props(n).items():
	        p = path + "." + k if path else k
	        want.append(p)
	        r = resolve(v)
	        if r.get("type") == "object" or "properties" in r or "allOf" in r:
	            walk(v, p)
	        if r.get("type") == "array" and "items" in r:
	            it = resolve(r["items"])
	            if "properties" in it or "allOf" in it:
	                walk(r["items"], p + "[]")
	walk(root, "")
	missing = [p for p in want if p not in rows]
	assert not missing, missing
	assert len(rows) == len(want), (len(rows), len(want))
	assert "integer, 0.." in rows["spec.fallback.gpuLimit"][1], rows["spec.fallback.gpuLimit"]
	assert "GS041" in rows["spec.fallback.gpuLimit"][4], rows["spec.fallback.gpuLimit"]
	assert rows["spec.cluster.provisioner"][3] == "`\"karpenter\"`", rows["spec.cluster.provisioner"]
	assert rows["metadata.name"][2] == "yes"
	EOF
'

test_expect_success 'docs-spec-update rewrites only the table' '
	cp "$DOC" spec.md &&
	sed -i "/^<!-- fields: begin -->\$/,/^<!-- fields: end -->\$/{/^| \`spec.fallback.gpuLimit\`/d}" spec.md &&
	! grep -q "^| \`spec.fallback.gpuLimit\`" spec.md &&
	"$GPUSITE" schema --reference >fields.md &&
	awk -v fields=fields.md "/^<!-- fields: end -->/ { skip = 0 } !skip { print } /^<!-- fields: begin -->/ { while ((getline l < fields) > 0) print l; skip = 1 }" \
		spec.md >spec2.md &&
	test_cmp "$DOC" spec2.md &&
	grep -q "awk -v fields=" "$TEST_TOP/mk/docs.mk"
'

test_expect_success 'host prerequisites: driver and toolkit on the hosts, and GS209 in drift' '
	grep -q "^## Host prerequisites" "$DOC" &&
	grep -q "driver.enabled: false" "$DOC" &&
	grep -q "toolkit.enabled: false" "$DOC" &&
	grep -q "\[GS209\]" "$DOC" &&
	grep -q "^| GS209 | error | a hybrid GPU node advertises no nvidia.com/gpu capacity |" "$TEST_TOP/docs/rules.md"
'

test_done
