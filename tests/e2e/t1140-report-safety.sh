#!/bin/sh
# t1140-report-safety: what the findings report must never do.  The source
# excerpt under a GS010 finding (shown on a terminal or with --color
# always) masks the secret, under every finding of that line; bidi
# formatting characters in a diagnostic are escaped like C0 controls;
# a $GITHUB_STEP_SUMMARY that is a FIFO or not a regular file is refused
# with one warning line instead of blocking.
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

INV="$TEST_TOP/testdata/invalid"
CODE="Fjz3/sZfSvv78EXAMPLE"

test_expect_success 'the excerpt under GS010 masks the activation code (--color always)' '
	cp -R "$INV/GS010-activation-code-field/sites" . &&
	grep -q "$CODE" sites/lab.yaml &&
	expect_exit 1 "$GPUSITE" validate --color always sites 2>err &&
	grep -q "\[GS010\]" err &&
	grep -q "\[GS003\]" err &&
	! grep -q "$CODE" err &&
	test "$(grep -c "^   19 | .*activationCode: <redacted>\$" err)" = 0 &&
	test "$(grep -c "^   19 |           <redacted>\$" err)" = 2
'

test_expect_success 'the excerpt shows the lines without a secret as they are' '
	cp -R "$INV/GS041-limit-below-smallest/sites" gs041 &&
	expect_exit 1 "$GPUSITE" validate --color always gs041 2>err &&
	grep -q "gpuLimit: 2" err &&
	! grep -q "<redacted>" err
'

test_expect_success 'a secret in a flow value: masked from its column on' '
	mkdir -p flow &&
	sed "s|^          activationCode: $CODE|          extra: {activationCode: $CODE}|" \
		sites/lab.yaml >flow/lab.yaml &&
	grep -q "{activationCode: $CODE}" flow/lab.yaml &&
	expect_exit 1 "$GPUSITE" validate --color never flow 2>plain &&
	! grep -q "<redacted>" plain &&
	expect_exit 1 "$GPUSITE" validate --color always flow 2>err &&
	grep -q "\[GS010\]" err &&
	! grep -q "$CODE" err &&
	grep -q "^   19 |           extra: {<redacted>\$" err
'

test_expect_success 'bidi controls in a diagnostic are escaped, as C0 controls are' '
	mkdir -p bidi &&
	printf "apiVersion: gpusite.io/v1alpha1\nkind: GPUSite\nmetadata:\n  name: lab\nspec:\n  x\342\200\256y\342\201\246z\342\200\217w\330\234v: 1\n  \"b\\\\ac\": 2\n" >bidi/lab.yaml &&
	grep -q "\"b.ac\": 2" bidi/lab.yaml &&
	expect_exit 1 "$GPUSITE" validate --color always bidi 2>err &&
	grep -F "x\\u202ey\\u2066z\\u200fw\\u061cv" err &&
	grep -F "b\\x07c" err &&
	! grep -q "$(printf "\342\200\256")" err &&
	! grep -q "$(printf "\342\201\246")" err &&
	! grep -q "$(printf "\342\200\217")" err &&
	! grep -q "$(printf "\330\234")" err &&
	expect_exit 1 "$GPUSITE" validate --format github bidi >gh &&
	grep -F "x\\u202ey\\u2066z\\u200fw\\u061cv" gh &&
	! grep -q "$(printf "\342\200\256")" gh &&
	expect_exit 1 "$GPUSITE" validate --format markdown bidi >md &&
	! grep -q "$(printf "\342\200\256")" md
'

test_expect_success 'GITHUB_STEP_SUMMARY on a FIFO: one warning line, no hang' '
	mkfifo fifo &&
	expect_exit 1 timeout 10 env GITHUB_STEP_SUMMARY="$SCRATCH/fifo" \
		"$GPUSITE" validate --format github gs041 >out 2>err &&
	grep -q "^::error file=gs041/lab.yaml," out &&
	test "$(wc -l <err)" = 1 &&
	grep -x "gpusite: warning: cannot append the job summary to .*fifo.*" err
'

test_expect_success 'GITHUB_STEP_SUMMARY on a FIFO with a reader: refused, not a regular file' '
	(sleep 5 <fifo &) && sleep 0.2 &&
	expect_exit 1 timeout 10 env GITHUB_STEP_SUMMARY="$SCRATCH/fifo" \
		"$GPUSITE" validate --format github gs041 >out 2>err &&
	test "$(wc -l <err)" = 1 &&
	grep -x "gpusite: warning: the job summary .*fifo.* is not a regular file; nothing was appended (GITHUB_STEP_SUMMARY should name the runner.s summary file)" err
'

test_expect_success 'GITHUB_STEP_SUMMARY naming a directory or /dev/null: refused with one line' '
	mkdir sumdir &&
	expect_exit 1 env GITHUB_STEP_SUMMARY="$SCRATCH/sumdir" \
		"$GPUSITE" validate --format github gs041 >out 2>err &&
	test "$(wc -l <err)" = 1 && grep -q "^gpusite: warning: " err &&
	expect_exit 1 env GITHUB_STEP_SUMMARY=/dev/null \
		"$GPUSITE" validate --format github gs041 >out 2>err &&
	test "$(wc -l <err)" = 1 &&
	grep -q "^gpusite: warning: the job summary ./dev/null. is not a regular file" err
'

test_expect_success 'a regular GITHUB_STEP_SUMMARY still gets the table appended' '
	echo "earlier" >summary.md &&
	expect_exit 1 env GITHUB_STEP_SUMMARY="$SCRATCH/summary.md" \
		"$GPUSITE" validate --format github gs041 >out 2>err &&
	test ! -s err &&
	head -1 summary.md | grep -x earlier &&
	grep -q "| GS041 |" summary.md
'

test_expect_success 'diff --format github: a FIFO summary is refused the same way' '
	git init -q repo && mkdir repo/sites &&
	cp "$TEST_TOP/testdata/git/sites/frankfurt-lab.yaml" repo/sites/ &&
	(cd repo && git add -A && git -c user.name=t -c user.email=t@e commit -qm base &&
	 sed -i "s/gpuLimit: 8 /gpuLimit: 12 /" sites/frankfurt-lab.yaml) &&
	(cd repo && expect_exit 1 timeout 10 env GITHUB_STEP_SUMMARY="$SCRATCH/fifo" \
		"$GPUSITE" diff --base HEAD --format github >../out 2>../err) &&
	test "$(wc -l <err)" = 1 &&
	grep -q "^gpusite diff: warning: .*job summary .*fifo" err
'

test_done
