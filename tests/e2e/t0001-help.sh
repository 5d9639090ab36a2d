#!/bin/sh
# t0001-help: every command in the table answers -h and --help on stdout
# with exit 0 and a usage line; unknown commands and flags are exit 2.
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

test_expect_success 'gpusite --help lists the commands, exit 0' '
	"$GPUSITE" --help >out 2>err &&
	grep "^usage: gpusite <command>" out &&
	grep "^commands:" out &&
	test ! -s err
'

# The command names, read from the help output itself.
"$GPUSITE" --help 2>/dev/null |
	awk '/^commands:/ { f = 1; next } f && /^  [a-z]/ { print $1 } f && /^$/ { exit }' \
	>"$SCRATCH/commands"

test_expect_success 'the help lists at least validate, init and schema' '
	grep -x validate "$SCRATCH/commands" &&
	grep -x init "$SCRATCH/commands" &&
	grep -x schema "$SCRATCH/commands"
'

for cmd in $(cat "$SCRATCH/commands"); do
	for flag in --help -h; do
		test_expect_success "gpusite $cmd $flag: usage on stdout, exit 0" "
			\"\$GPUSITE\" $cmd $flag >out 2>err &&
			head -n 1 out | grep '^usage: gpusite $cmd' &&
			test ! -s err
		"
	done
done

test_expect_success 'every command help ends with the common options footer' '
	for cmd in $(cat "$SCRATCH/commands"); do
		"$GPUSITE" $cmd --help >out &&
		grep -q "^options:\$" out &&
		grep -q -- "^  -h, --help  *show this help and exit\$" out &&
		tail -n 1 out | grep -x "exit codes: 0 ok, 1 findings, 2 usage error, 3 could not do the job" ||
		{ echo "gpusite $cmd --help: no common footer"; return 1; }
	done
'

test_expect_success 'generate and parameters: the common parser (unknown flags, arguments: exit 2)' '
	for cmd in generate parameters; do
		expect_exit 2 "$GPUSITE" $cmd --bogus >out 2>err &&
		test ! -s out &&
		grep -x "gpusite $cmd: unknown option '"'"'--bogus'"'"'" err &&
		grep -x "see '"'"'gpusite $cmd --help'"'"'" err &&
		expect_exit 2 "$GPUSITE" $cmd extra >out 2>err &&
		grep -x "gpusite $cmd: takes no arguments (got '"'"'extra'"'"')" err || return 1
	done
'

test_expect_success '--format help lists what each command takes, and parsing agrees' '
	"$GPUSITE" verify-scope --help >out &&
	grep -x "      --format FMT          findings as text (default) or json" out &&
	head -n 1 out | grep -q "\[--format text|json\]" &&
	for f in github sarif junit markdown; do
		expect_exit 2 "$GPUSITE" verify-scope --format $f 2>err &&
		grep -x "gpusite verify-scope: unknown format '"'"'$f'"'"': use text or json" err || return 1
	done &&
	"$GPUSITE" validate --help >out &&
	grep -x "      --format FMT          findings as text (default), json, github, sarif, junit or markdown" out &&
	expect_exit 2 "$GPUSITE" validate --format yaml 2>err &&
	grep -x "gpusite validate: unknown format '"'"'yaml'"'"': use text, json, github, sarif, junit or markdown" err
'

test_expect_success 'gpusite help validate is gpusite validate --help' '
	"$GPUSITE" help validate >a &&
	"$GPUSITE" validate --help >b &&
	test_cmp a b
'

test_expect_success 'an unknown command is exit 2 and says so on stderr' '
	expect_exit 2 "$GPUSITE" frobnicate >out 2>err &&
	test ! -s out &&
	grep "'"'"'frobnicate'"'"' is not a gpusite command" err &&
	grep -- "--help" err
'

test_expect_success 'no command at all is exit 2 with the usage on stderr' '
	expect_exit 2 "$GPUSITE" >out 2>err &&
	test ! -s out &&
	grep "^usage: gpusite" err
'

test_expect_success 'an unknown flag is exit 2, names the flag, points at --help' '
	expect_exit 2 "$GPUSITE" validate --bogus >out 2>err &&
	test ! -s out &&
	grep "unknown option '"'"'--bogus'"'"'" err &&
	grep "gpusite validate --help" err
'

test_expect_success 'an unknown short flag is exit 2 too' '
	expect_exit 2 "$GPUSITE" validate -Z 2>err &&
	grep "unknown option '"'"'-Z'"'"'" err
'

test_expect_success 'a flag without its value is exit 2' '
	expect_exit 2 "$GPUSITE" validate --format 2>err &&
	grep "needs a value" err
'

test_done
