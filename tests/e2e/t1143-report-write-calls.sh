#!/bin/sh
# t1143: a text diagnostic is written to stderr with one write(2), not one
# per piece (stderr is unbuffered, and the escaper writes a character at a
# time: a diagnostic once cost about 400 calls).  Counted with strace over
# a validate of 400 files with one warning each, plain and with the source
# line and caret of a terminal: at most one call per finding, plus 10 for
# the summary and the rest.
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

# under make valgrind $GPUSITE is a wrapper: count the binary's own calls
bin=${GPUSITE_BINARY:-$GPUSITE}
n=400
sh "$TEST_TOP/bench/gen-fleet.sh" --warn "$n" fleet || exit 1
export SSM_ACTIVATION_CODE_RACK_B=bench-not-a-secret
strace -f -e trace=write -o /dev/null true 2>/dev/null && test_set_prereq STRACE
# LeakSanitizer cannot run under ptrace: under the sanitizer build the
# traced runs leave leak checking to every other test (a later option wins)
traced() {
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -e trace=write -o ../trace "$bin" "$@"
}

# writes TRACE: the number of write calls strace recorded
writes() {
	grep -c "write(" "$1"
}

test_expect_success STRACE 'validate: one write per diagnostic' '
	(cd fleet && traced validate sites 2>../err) &&
	test "$(grep -c "warning: .*\[GS045\]$" err)" -eq "$n" &&
	tail -1 err | grep -Fx "gpusite: 0 errors, $n warnings ($n files, $n sites)" &&
	echo "$(writes trace) write calls for $n findings" &&
	test "$(writes trace)" -le $((n + 10))
'

test_expect_success STRACE 'validate --color always (source line and caret): one write per diagnostic' '
	(cd fleet && traced validate --color always sites 2>../err) &&
	test "$(grep -c "\^" err)" -eq "$n" &&
	test "$(grep -c "^ *[0-9][0-9]* | " err)" -eq "$n" &&
	echo "$(writes trace) write calls for $n findings" &&
	test "$(writes trace)" -le $((n + 10))
'

test_expect_success 'the stderr of a run is whole: every diagnostic line ends with its rule' '
	(cd fleet && "$bin" validate sites >../both 2>&1) &&
	test "$(wc -l <both)" -eq $((n + 1)) &&
	test "$(grep -c "\[GS045\]$" both)" -eq "$n"
'

test_done
