#!/bin/sh
# t1102: the schema cases under testdata/schema/: every valid/*.yaml is
# accepted without a diagnostic; every invalid/*.yaml gives exactly the
# diagnostics in invalid/NAME.expected (FILE:LINE:COL: PATH: MESSAGE),
# byte for byte.  GOLDEN_UPDATE=1 rewrites the expected files instead
# (review the diff before committing it).
. "$TEST_TOP/tests/lib.sh"

CHECK="$BUILD_DIR/tests/schema-check"
cd "$TEST_TOP" || exit 1

test_expect_success 'schema-check is built' '
	test -x "$CHECK"
'

for f in testdata/schema/valid/*.yaml; do
	test_expect_success "valid: $f" '
		"$CHECK" verdict "$f" >"$SCRATCH/v" &&
		test -s "$SCRATCH/v" &&
		! grep -v "	valid\$" "$SCRATCH/v" &&
		"$CHECK" diags "$f" >"$SCRATCH/d" &&
		test_cmp /dev/null "$SCRATCH/d"
	'
done

# What only a semantic rule reports must get through the schema, or the
# rule's own ID would never fire.
test_expect_success 'rules-not-schema.yaml: every rule fires, GS003 never' '
	expect_exit 1 "$GPUSITE" validate --format json \
		testdata/schema/valid/rules-not-schema.yaml >"$SCRATCH/rules.json" &&
	python3 - "$SCRATCH/rules.json" <<-\PY
	import json, sys
	got = {d["rule"] for d in json.load(open(sys.argv[1]))["diagnostics"]}
	want = {"GS005", "GS011", "GS013", "GS020", "GS021", "GS022", "GS023",
	        "GS030", "GS040", "GS052"}
	assert "GS003" not in got, got
	assert want <= got, sorted(want - got)
	PY
'

for f in testdata/schema/invalid/*.yaml; do
	exp=${f%.yaml}.expected
	if [ "${GOLDEN_UPDATE:-}" = 1 ]; then
		"$CHECK" diags "$f" >"$exp"
	fi
	test_expect_success "invalid: $f" '
		test -f "$exp" &&
		"$CHECK" diags "$f" >"$SCRATCH/d" &&
		test -s "$SCRATCH/d" &&
		test_cmp "$exp" "$SCRATCH/d"
	'
done
test_done
