#!/bin/sh
# t6999: the last script of the suite.  Under `make asan` (mk/asan.mk)
# every AddressSanitizer, UndefinedBehaviorSanitizer or LeakSanitizer
# report of any process the tests ran is a file $O/test-logs/sanitizer.PID;
# under `make valgrind` (mk/valgrind.mk) every memcheck report is a file
# $O/test-logs/valgrind.PID.  There must be no report.  Plain builds have
# nothing to check and say so.
. "$TEST_TOP/tests/lib.sh"

logs="$BUILD_DIR/test-logs"

if [ -z "${GPUSITE_SANITIZE:-}" ] && [ -z "${GPUSITE_VALGRIND:-}" ]; then
	test_skip "no sanitizer or valgrind report from any test" \
		"not a sanitizer or valgrind run (make asan, make valgrind)"
	test_done
	exit
fi

# show FILE...: the reports, enough of each to act on.
show() {
	for f in "$@"; do
		echo "== $f"
		head -80 "$f"
	done
}

if [ -n "${GPUSITE_SANITIZE:-}" ]; then
	test_expect_success "the binary under test is instrumented ($GPUSITE_SANITIZE)" '
		# gcc links the runtimes dynamically, clang statically: both
		# leave the instrumentation hooks in the binary
		grep -aq "__asan_\|__ubsan_" "$GPUSITE"
	'
	test_expect_success 'no sanitizer report from any test' '
		found=$(find "$logs" -maxdepth 1 -type f -name "sanitizer.*" | sort) &&
		if [ -n "$found" ]; then show $found; exit 1; fi
	'
fi

if [ -n "${GPUSITE_VALGRIND:-}" ]; then
	test_expect_success 'the binary under test runs under valgrind' '
		grep -q "exec valgrind" "$GPUSITE" &&
		test -n "$(find "$logs" -maxdepth 1 -type f -name "valgrind.*" | head -1)"
	'
	# memcheck writes a log file for every process; -q leaves it empty
	# unless there is something to report
	test_expect_success 'no memcheck report from any test (invalid access, definite leak)' '
		found=$(find "$logs" -maxdepth 1 -type f -name "valgrind.*" -size +0 | sort) &&
		if [ -n "$found" ]; then show $found; exit 1; fi
	'
fi

test_done
