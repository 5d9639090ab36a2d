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
