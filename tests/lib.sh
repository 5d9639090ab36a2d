# lib.sh - shared by every script test (source it: `. "$TEST_TOP/tests/lib.sh"`).
# TAP output: one "ok N - title" / "not ok N - title" per test, git-style
# helpers, a private scratch directory removed at exit.
set -u
: "${TEST_TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${O:=build}"
: "${GPUSITE:=$TEST_TOP/$O/gpusite}"
export LC_ALL=C TZ=UTC
test_count=0
test_failed=0
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/gpusite-test.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT
SHARED="$TEST_TOP/../shared"
UPSTREAM="$SHARED/upstream"

# test_expect_success TITLE BODY: BODY is evaluated in a subshell.
test_expect_success() {
	test_count=$((test_count + 1))
	if (eval "$2") >"$SCRATCH/.out" 2>&1; then
		echo "ok $test_count - $1"
	else
		echo "not ok $test_count - $1"
		sed 's/^/#   /' "$SCRATCH/.out"
		test_failed=$((test_failed + 1))
	fi
}

# test_skip TITLE WHY: a visible skip.
test_skip() {
	test_count=$((test_count + 1))
	echo "ok $test_count - $1 # SKIP $2"
}

# expect_exit CODE CMD...: run CMD, fail unless it exits with CODE.
expect_exit() {
	want=$1; shift
	"$@"; got=$?
	if [ "$got" -ne "$want" ]; then
		echo "expected exit $want, got $got: $*" >&2
		return 1
	fi
}

# test_cmp EXPECTED ACTUAL: byte-for-byte, with a diff on failure.
test_cmp() {
	diff -u "$1" "$2"
}

# need_upstream: true when ../shared/upstream is beside the checkout.
need_upstream() {
	[ -d "$UPSTREAM" ]
}

test_done() {
	echo "1..$test_count"
	[ "$test_failed" -eq 0 ]
}
