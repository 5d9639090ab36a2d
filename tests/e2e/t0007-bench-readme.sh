#!/bin/sh
# t0007-bench-readme: the README's Performance table is the output of
# `make bench-readme` (bench/run.sh, put in by bench/readme.sh between two
# markers): it has the markers and exactly the rows and goals a run of
# bench/run.sh makes (BENCH_DRY=1: the rows without measuring anything),
# from a binary of a commit without local changes.  The benchmark's fleets
# are what they claim: bench/gen-fleet.sh's sites validate with no
# finding, and with --warn with one GS045 each.  No timing here.
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

readme=$TEST_TOP/README.md
begin='<!-- bench: begin -->'
end='<!-- bench: end -->'
export SSM_ACTIVATION_CODE_RACK_B=bench-not-a-secret

test_expect_success 'the README marks its benchmark table, once' '
	test "$(grep -cxF "$begin" "$readme")" -eq 1 &&
	test "$(grep -cxF "$end" "$readme")" -eq 1 &&
	b=$(grep -nxF "$begin" "$readme" | cut -d: -f1) &&
	e=$(grep -nxF "$end" "$readme" | cut -d: -f1) &&
	test "$b" -lt "$e" &&
	sed -n "${b},${e}p" "$readme" >section &&
	grep -q "^Latest run: gpusite " section &&
	! grep -q "with local changes" section &&
	grep -q "^Machine load (1-minute load average): " section
'

test_expect_success 'the README table has every row and goal bench/run.sh makes, no other' '
	BENCH_DRY=1 O="$BUILD_DIR" sh "$TEST_TOP/bench/run.sh" >dry.md &&
	sh "$TEST_TOP/bench/readme.sh" --rows dry.md >want &&
	test "$(grep -c "^row " want)" -ge 30 &&
	test "$(grep -c "^goal " want)" -ge 6 &&
	grep -Fx "row | validate, one warning in every file | 10000" want &&
	sh "$TEST_TOP/bench/readme.sh" --rows "$readme" >got &&
	test_cmp want got
'

test_expect_success 'readme.sh replaces the marked section only, and refuses a partial run' '
	printf "%s\n" "# Top" "before" "$begin" "old table" "$end" "after" >R.md &&
	sh "$TEST_TOP/bench/readme.sh" dry.md R.md &&
	test "$(sed -n 1,3p R.md)" = "$(printf "%s\n" "# Top" before "$begin")" &&
	test "$(tail -2 R.md)" = "$(printf "%s\n" "$end" after)" &&
	! grep -q "old table" R.md &&
	sh "$TEST_TOP/bench/readme.sh" --rows R.md >spliced &&
	test_cmp want spliced &&
	cp R.md keep.md &&
	head -5 dry.md >partial.md &&
	expect_exit 1 sh "$TEST_TOP/bench/readme.sh" partial.md R.md 2>err &&
	grep -F "is not a whole run of bench/run.sh" err &&
	test_cmp keep.md R.md &&
	printf "no markers\n" >N.md &&
	expect_exit 1 sh "$TEST_TOP/bench/readme.sh" dry.md N.md 2>err &&
	grep -F "needs one line" err
'

test_expect_success 'the bench fleet validates with no finding; --warn gives one GS045 per file' '
	sh "$TEST_TOP/bench/gen-fleet.sh" 40 clean &&
	(cd clean && "$GPUSITE" validate sites 2>../err) &&
	echo "gpusite: 0 errors, 0 warnings (40 files, 40 sites)" >want.err &&
	test_cmp want.err err &&
	sh "$TEST_TOP/bench/gen-fleet.sh" --warn 40 warn &&
	(cd warn && "$GPUSITE" validate sites 2>../err) &&
	test "$(grep -c ": warning: .*\[GS045\]$" err)" -eq 40 &&
	test "$(wc -l <err)" -eq 41 &&
	tail -1 err | grep -Fx "gpusite: 0 errors, 40 warnings (40 files, 40 sites)"
'

test_done
