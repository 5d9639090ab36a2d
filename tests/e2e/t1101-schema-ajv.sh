#!/bin/sh
# t1101: ajv and the C validator agree, valid or invalid, on every GPUSite
# document under testdata/ (one test per file).  ajv reads YAML with
# yaml@2 (YAML 1.2 core, as the loader does); the C verdict comes from
# the library itself (schema-check, built by mk/schema.mk).  Files that a
# YAML parser refuses are listed as skips; symlinks and directories named
# *.yaml (the GS006 cases) are not files to read; nothing else is left out.
. "$TEST_TOP/tests/lib.sh"

TOOLS="$TEST_TOP/.tools"
SCHEMA="$TEST_TOP/schemas/gpusite.v1alpha1.schema.json"
CHECK="$BUILD_DIR/tests/schema-check"

if ! command -v node >/dev/null || [ ! -d "$TOOLS/node_modules/ajv" ] ||
   [ ! -d "$TOOLS/node_modules/yaml" ]; then
	test_skip 'ajv cross-check' 'node, ajv or yaml@2 missing (run make deps)'
	test_done
	exit
fi

test_expect_success 'schema-check is built' '
	test -x "$CHECK"
'

cd "$TEST_TOP" || exit 1
find testdata -name '*.yaml' -type f | LC_ALL=C sort >"$SCRATCH/files"
test_expect_success 'testdata has site specs to compare' '
	test -s "$SCRATCH/files"
'
# shellcheck disable=SC2046
node tests/tools/ajv-check.js "$TOOLS" "$SCHEMA" $(cat "$SCRATCH/files") \
	>"$SCRATCH/ajv" 2>"$SCRATCH/ajv.err"
echo $? >"$SCRATCH/ajv.rc"
# shellcheck disable=SC2046
"$CHECK" verdict $(cat "$SCRATCH/files") >"$SCRATCH/ours" 2>"$SCRATCH/ours.err"
echo $? >"$SCRATCH/ours.rc"

test_expect_success 'both validators ran' '
	test "$(cat "$SCRATCH/ajv.rc")" = 0 && test "$(cat "$SCRATCH/ours.rc")" = 0 ||
	{ cat "$SCRATCH/ajv.err" "$SCRATCH/ours.err"; false; }
'

agree=0 docs=0 files=0 skipped=0
while read -r f; do
	if grep -q "^$f	-	unparsed" "$SCRATCH/ajv"; then
		test_skip "$f" "yaml@2 does not parse it: $(grep "^$f	-	unparsed" "$SCRATCH/ajv" | cut -f4)"
		skipped=$((skipped + 1))
		continue
	fi
	if grep -q "^$f	-	unparsed" "$SCRATCH/ours"; then
		test_skip "$f" "the YAML loader refuses it: $(grep "^$f	-	unparsed" "$SCRATCH/ours" | cut -f4)"
		skipped=$((skipped + 1))
		continue
	fi
	grep -q "^$f	-	no-site" "$SCRATCH/ajv" && continue
	grep "^$f	[0-9]" "$SCRATCH/ajv" >"$SCRATCH/one.ajv"
	n=$(wc -l <"$SCRATCH/one.ajv" | tr -d ' ')
	# Ours for the same documents (ajv-check printed only GPUSite ones).
	: >"$SCRATCH/one.ours"
	while IFS='	' read -r file idx _; do
		grep "^$file	$idx	" "$SCRATCH/ours" >>"$SCRATCH/one.ours" ||
			echo "$file	$idx	(no verdict)" >>"$SCRATCH/one.ours"
	done <"$SCRATCH/one.ajv"
	files=$((files + 1)) docs=$((docs + n))
	if cmp -s "$SCRATCH/one.ajv" "$SCRATCH/one.ours"; then
		agree=$((agree + 1))
	fi
	test_expect_success "ajv and gpusite agree on $f ($n document(s))" '
		diff -u "$SCRATCH/one.ajv" "$SCRATCH/one.ours" || {
			echo "--- ajv says (left), gpusite says (right); ajv errors:"
			grep "^$f\[" "$SCRATCH/ajv.err"
			"$CHECK" diags "$f"
			false
		}
	'
done <"$SCRATCH/files"

echo "# ajv cross-check: $agree of $files files agree ($docs GPUSite documents); $skipped files skipped"
test_expect_success 'at least one site file was compared' '
	test "$files" -gt 0
'
test_done
