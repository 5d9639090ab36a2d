#!/bin/sh
# t0005-lib-selftest: tests/lib.sh itself - test_must_fail, prerequisites,
# -v and --run, the build directory of an absolute or relative O - checked
# by running small scripts that use it.
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

# inner NAME BODY: a script NAME.sh that sources lib.sh and runs BODY
inner() {
	{
		echo '. "$TEST_TOP/tests/lib.sh"'
		printf '%s\n' "$2"
		echo 'test_done'
	} >"$1.sh"
}

test_expect_success 'test_must_fail accepts an ordinary failure' '
	test_must_fail false &&
	test_must_fail sh -c "exit 3"
'

test_expect_success 'test_must_fail refuses success, a signal and a missing command' '
	! test_must_fail true 2>err && grep -F "command succeeded: true" err &&
	! test_must_fail sh -c "kill -9 \$\$" 2>err && grep -F "died by signal 9" err &&
	! test_must_fail no-such-command-x 2>err && grep -F "could not run (exit 127)" err
'

test_expect_success 'a test with a missing prerequisite is a visible skip' '
	inner prereq "
test_set_prereq HAVE_A
test_expect_success HAVE_A \"needs a\" true
test_expect_success HAVE_B \"needs b\" false
test_expect_success HAVE_A,!HAVE_B \"a without b\" true
test_expect_success !HAVE_A \"without a\" false
" &&
	sh prereq.sh >out &&
	cat >want <<-\EOT &&
	ok 1 - needs a
	ok 2 - needs b # SKIP missing prerequisite HAVE_B
	ok 3 - a without b
	ok 4 - without a # SKIP missing prerequisite !HAVE_A
	1..4
	EOT
	test_cmp want out
'

test_expect_success '--run runs only the tests it names' '
	inner sel "
test_expect_success one true
test_expect_success two false
test_expect_success three true
test_expect_success four true
" &&
	sh sel.sh --run=1,3-4 >out &&
	cat >want <<-\EOT &&
	ok 1 - one
	ok 2 - two # SKIP not in --run=1,3-4
	ok 3 - three
	ok 4 - four
	1..4
	EOT
	test_cmp want out &&
	test_must_fail sh sel.sh --run=2 >out &&
	grep -Fx "not ok 2 - two" out
'

test_expect_success '-v shows the output of passing tests too' '
	inner verbose "test_expect_success loud \"echo hello-from-body\"" &&
	sh verbose.sh >out &&
	! grep -F hello-from-body out &&
	sh verbose.sh -v >out &&
	grep -Fx "#   hello-from-body" out
'

test_expect_success 'a failing test fails the script and shows its output' '
	inner fail "test_expect_success bad \"echo why-it-failed; false\"" &&
	test_must_fail sh fail.sh >out &&
	grep -Fx "not ok 1 - bad" out &&
	grep -Fx "#   why-it-failed" out
'

test_expect_success 'tests/run.sh accepts an absolute O=' '
	mkdir -p abs/tests &&
	printf "#!/bin/sh\necho ok 1 - fake\n" >abs/tests/test_fake &&
	chmod +x abs/tests/test_fake &&
	O="$SCRATCH/abs" sh "$TEST_TOP/tests/run.sh" unit >out &&
	grep -E "^unit/test_fake +1 passed +0 failed" out &&
	grep -F "logs: $SCRATCH/abs/test-logs/" out &&
	test -f "$SCRATCH/abs/test-logs/unit_test_fake.log"
'

# c has no time of its own yet: a third of the default budget (100 s) puts it first
# the pass this script runs in names run.sh's times file (as run.sh says)
if [ -n "${GPUSITE_VALGRIND:-}" ]; then
	pass=valgrind
elif [ -n "${GPUSITE_SANITIZE:-}" ]; then
	pass=sanitize
else
	pass=plain
fi

test_expect_success 'tests/run.sh prints seconds and CPU seconds, and starts the longest of the last run first' '
	grep -E "^unit/test_fake +1 passed +0 failed +0 skipped +[0-9]+ s +[0-9.]+ s CPU  ok$" out &&
	grep -E "^runners: [0-9.]+ s of CPU in all$" out &&
	grep -Ex "[0-9]+ unit/test_fake" "$SCRATCH/abs/test-times.$pass" &&
	mkdir -p ord/tests &&
	for t in a b c; do
		printf "#!/bin/sh\necho $t >>\"%s/order\"\necho ok 1 - $t\n" "$SCRATCH" >ord/tests/test_$t &&
		chmod +x ord/tests/test_$t || return 1
	done &&
	printf "3 unit/test_a\n40 unit/test_b\n" >ord/test-times.$pass &&
	O="$SCRATCH/ord" TEST_JOBS=1 sh "$TEST_TOP/tests/run.sh" unit >out &&
	# c has neither a time nor a row in tests/budgets: after the others
	printf "b\na\nc\n" >expect && test_cmp expect order &&
	grep -Ex "[0-9]+ unit/test_c" ord/test-times.$pass &&
	test "$(wc -l <ord/test-times.$pass)" -eq 3
'

test_expect_success 'lib.sh: BUILD_DIR and GPUSITE follow an absolute O as well as a relative one' '
	inner where "echo \"build=\$BUILD_DIR gpusite=\$GPUSITE\"; test_expect_success x true" &&
	(unset GPUSITE && O=/abs/out sh where.sh >out) &&
	grep -Fx "build=/abs/out gpusite=/abs/out/gpusite" out &&
	(unset GPUSITE && O=rel/out sh where.sh >out) &&
	grep -Fx "build=$TEST_TOP/rel/out gpusite=$TEST_TOP/rel/out/gpusite" out
'

test_expect_success 'the scripts find the build with an absolute O (t1102 reads its schema-check there)' '
	O="$BUILD_DIR" TEST_TOP="$TEST_TOP" sh "$TEST_TOP/tests/e2e/t1102-schema-cases.sh" --run=1 >out &&
	grep -Fx "ok 1 - schema-check is built" out &&
	! grep -rnF "\$TEST_TOP/\$O" "$TEST_TOP/tests/e2e" "$TEST_TOP/tests/golden"
'

test_done
