#!/bin/sh
# t2050-render-atomic.sh - output files are all or nothing: a write that
# fails (here: a target below a regular file) is exit 3, and neither the -o
# file, nor any NodeConfig or values file, nor a temporary file, nor a
# directory the run created is left behind; an older -o file is kept as it
# was.
. "$TEST_TOP/tests/lib.sh"

fleet="$TEST_TOP/testdata/fleet/sites"
export SSM_ACTIVATION_CODE_RACK_B=Rb0aXw9Lq2Zt7Ke4Vn1Hs8Dc
export SSM_ACTIVATION_CODE_INCHEON=In9cH3on5Ac7Ti9Va1Ti0nCd
export SSM_ACTIVATION_CODE_INCHEON_L40S=L4s0aBcDeFgHiJkLmNoPqRs

test_expect_success 'a failing --values target: exit 3, nothing left behind' '
	mkdir -p "$SCRATCH/a" && : >"$SCRATCH/a/blocker" &&
	expect_exit 3 "$GPUSITE" render -o "$SCRATCH/a/stream.yaml" \
		--nodeconfigs "$SCRATCH/a/nc" --values "$SCRATCH/a/blocker/values" \
		"$fleet" >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	test ! -s "$SCRATCH/out" &&
	grep -q "blocker" "$SCRATCH/err" &&
	test "$(ls -A "$SCRATCH/a")" = blocker
'

test_expect_success 'an older -o file survives a failed run untouched' '
	mkdir -p "$SCRATCH/b" && echo "old stream" >"$SCRATCH/b/stream.yaml" &&
	: >"$SCRATCH/b/blocker" &&
	expect_exit 3 "$GPUSITE" render -o "$SCRATCH/b/stream.yaml" \
		--values "$SCRATCH/b/blocker/v" "$fleet" >/dev/null 2>&1 &&
	test "$(cat "$SCRATCH/b/stream.yaml")" = "old stream" &&
	test "$(ls -A "$SCRATCH/b" | sort | tr "\n" " ")" = "blocker stream.yaml "
'

test_expect_success 'an existing target directory is kept, only new files removed' '
	mkdir -p "$SCRATCH/c/nc/seoul-dc1" && echo keep >"$SCRATCH/c/nc/seoul-dc1/mine.txt" &&
	: >"$SCRATCH/c/blocker" &&
	expect_exit 3 "$GPUSITE" render -o "$SCRATCH/c/s.yaml" --nodeconfigs "$SCRATCH/c/nc" \
		--values "$SCRATCH/c/blocker/v" "$fleet" >/dev/null 2>&1 &&
	test "$(find "$SCRATCH/c/nc" -type f)" = "$SCRATCH/c/nc/seoul-dc1/mine.txt" &&
	test "$(find "$SCRATCH/c/nc" -type d | wc -l)" -eq 2 &&
	test ! -e "$SCRATCH/c/s.yaml"
'

test_expect_success 'the same run without the blocker writes everything' '
	"$GPUSITE" render -o "$SCRATCH/d/stream.yaml" --nodeconfigs "$SCRATCH/d/nc" \
		--values "$SCRATCH/d/values" "$fleet" >"$SCRATCH/out" &&
	test ! -s "$SCRATCH/out" &&
	test "$(find "$SCRATCH/d/nc" -type f | wc -l)" -eq 9 &&
	test "$(find "$SCRATCH/d/values" -type f | wc -l)" -eq 3 &&
	test -s "$SCRATCH/d/stream.yaml" &&
	test -z "$(find "$SCRATCH/d" -name ".*gpusite-*")"
'

test_expect_success 'a second run replaces the files in place' '
	echo stale >"$SCRATCH/d/nc/seoul-dc1/rack-b.yaml" &&
	"$GPUSITE" render -o "$SCRATCH/d/stream.yaml" --nodeconfigs "$SCRATCH/d/nc" "$fleet" &&
	grep -q "activationCode: Rb0aXw9Lq2Zt7Ke4Vn1Hs8Dc" "$SCRATCH/d/nc/seoul-dc1/rack-b.yaml" &&
	test "$(stat -c %a "$SCRATCH/d/nc/seoul-dc1/rack-b.yaml")" = 600
'

test_done
