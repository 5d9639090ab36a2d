#!/bin/sh
# t6000: hostile YAML is refused cleanly by `gpusite validate`: the exact
# diagnostic, exit code 1, and quickly (every run is bounded by timeout 10),
# never a crash, a hang or unbounded memory.
. "$TEST_TOP/tests/lib.sh"

HOSTILE="$TEST_TOP/testdata/hostile"

# run_validate DIR FILE: validate FILE from DIR (so diagnostics name it
# relatively); stderr in $SCRATCH/err, exit code in $SCRATCH/rc.
run_validate() {
	(cd "$1" && timeout 10 "$GPUSITE" validate "$2" >"$SCRATCH/out" 2>"$SCRATCH/err")
	echo $? >"$SCRATCH/rc"
}

# expect_rc CODE: the last run exited with CODE (124 means it timed out).
expect_rc() {
	got=$(cat "$SCRATCH/rc")
	if [ "$got" -ne "$1" ]; then
		echo "expected exit $1, got $got; stderr:" >&2
		cat "$SCRATCH/err" >&2
		return 1
	fi
}

# expect_line LINE: stderr of the last run has exactly this line.
expect_line() {
	if ! grep -Fxq -- "$1" "$SCRATCH/err"; then
		echo "missing line: $1" >&2
		echo "stderr was:" >&2
		cat "$SCRATCH/err" >&2
		return 1
	fi
}

# Every stored case: NAME.yaml with its expected lines in NAME.err.
for y in "$HOSTILE"/*.yaml; do
	name=$(basename "$y" .yaml)
	test_expect_success "hostile $name: refused with its diagnostic" '
		test -f "$HOSTILE/$name.err" &&
		run_validate "$HOSTILE" "$name.yaml" &&
		expect_rc 1 &&
		while IFS= read -r line; do
			expect_line "$line" || exit 1
		done <"$HOSTILE/$name.err"
	'
done

test_expect_success 'every stored case has its expectation' '
	for e in "$HOSTILE"/*.err; do
		test -f "${e%.err}.yaml" || { echo "orphan $e" >&2; exit 1; }
	done
'

test_expect_success '100,000-deep flow sequences fail at level 65' '
	awk "BEGIN { for (i = 0; i < 100000; i++) printf \"[\"; for (i = 0; i < 100000; i++) printf \"]\"; print \"\" }" >"$SCRATCH/deep.yaml" &&
	test $(wc -c <"$SCRATCH/deep.yaml") -eq 200001 &&
	run_validate "$SCRATCH" deep.yaml &&
	expect_rc 1 &&
	expect_line "deep.yaml:1:65: error: nesting is deeper than 64 levels [GS001]"
'

test_expect_success '100,000-deep flow mappings fail at level 65' '
	awk "BEGIN { printf \"spec: \"; for (i = 0; i < 100000; i++) printf \"{a: \"; for (i = 0; i < 100000; i++) printf \"}\"; print \"\" }" >"$SCRATCH/deepmap.yaml" &&
	run_validate "$SCRATCH" deepmap.yaml &&
	expect_rc 1 &&
	expect_line "deepmap.yaml:1:259: error: nesting is deeper than 64 levels [GS001]"
'

test_expect_success 'a 1 GiB file is refused by its size, without reading it' '
	truncate -s 1G "$SCRATCH/huge.yaml" &&
	start=$(date +%s) &&
	run_validate "$SCRATCH" huge.yaml &&
	end=$(date +%s) &&
	rm -f "$SCRATCH/huge.yaml" &&
	expect_rc 1 &&
	grep -q "^huge.yaml: error: file is 1073741824 bytes.* \[GS001\]$" "$SCRATCH/err" &&
	test $((end - start)) -le 2
'

test_expect_success 'a file one byte over 4 MiB is refused' '
	awk "BEGIN { for (i = 0; i < 65536; i++) printf \"#%062d\n\", 0 }" >"$SCRATCH/big.yaml" &&
	printf "x" >>"$SCRATCH/big.yaml" &&
	test $(wc -c <"$SCRATCH/big.yaml") -eq 4194305 &&
	run_validate "$SCRATCH" big.yaml &&
	expect_rc 1 &&
	grep -q "^big.yaml:.*error: file is 4194305 bytes.* \[GS001\]$" "$SCRATCH/err"
'

test_expect_success '10,001 documents in one file are refused' '
	awk "BEGIN { for (i = 0; i < 10001; i++) print \"---\" }" >"$SCRATCH/docs.yaml" &&
	run_validate "$SCRATCH" docs.yaml &&
	expect_rc 1 &&
	expect_line "docs.yaml:10001:1: error: more than 10000 documents in one file; split the file [GS001]"
'

# Numbers beyond 64 bits load as floats (never wrap around) and the schema
# refuses them where an integer is due.  The spec is the example fleet's
# own, so only the number is wrong.
SPEC="$TEST_TOP/testdata/fleet/sites/seoul-dc1.yaml"
for num in 123456789012345678901234567890 -99999999999999999999 18446744073709551617; do
	test_expect_success "a number beyond 64 bits ($num) is not taken for another" '
		test -f "$SPEC" &&
		sed "0,/perNode: 8\$/s//perNode: $num/" "$SPEC" >"$SCRATCH/num.yaml" &&
		where=$(grep -n "perNode: $num" "$SCRATCH/num.yaml" | cut -d: -f1) &&
		test -n "$where" &&
		run_validate "$SCRATCH" num.yaml &&
		expect_rc 1 &&
		grep -q "^num.yaml:$where:18: error: .*$num.* \[GS003\]$" "$SCRATCH/err"
	'
done

test_done
