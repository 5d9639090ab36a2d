# lib.sh - shared by every script test (source it: `. "$TEST_TOP/tests/lib.sh"`).
# TAP output: one "ok N - title" / "not ok N - title" per test, git-style
# helpers, a private scratch directory removed at exit.
set -u
: "${TEST_TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${O:=build}"
# BUILD_DIR: the build directory $O, absolute (O is relative to the top of
# the tree or absolute); never write "$TEST_TOP/$O"
BUILD_DIR=$(case $O in /*) echo "$O" ;; *) echo "$TEST_TOP/$O" ;; esac)
: "${GPUSITE:=$BUILD_DIR/gpusite}"
# exported: helpers and hooks a test starts run the same binary
export GPUSITE
export LC_ALL=C TZ=UTC
test_count=0
test_failed=0
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/gpusite-test.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT
SHARED="$TEST_TOP/../shared"
UPSTREAM="$SHARED/upstream"

# Options, from the test script's own arguments (others are the script's):
#   -v, --verbose      show each test's output, not only a failure's
#   --run=<n,m-k>      run only the tests numbered n and m to k (the
#                      others print as skips)
test_verbose=
test_run=
for test_arg in "$@"; do
	case $test_arg in
	-v | --verbose) test_verbose=1 ;;
	--run=*) test_run=${test_arg#--run=} ;;
	esac
done
unset test_arg
test_prereqs=" "

# test_set_prereq NAME: the prerequisite NAME holds (a tool is installed,
# ../shared/upstream is there, ...); test_have_prereq NAME[,NAME...]:
# true when each holds.  A leading "!" asks that one does not.
test_set_prereq() {
	test_prereqs="$test_prereqs$1 "
}

test_have_prereq() {
	for tp_p in $(echo "$1" | tr ',' ' '); do
		case $tp_p in
		!*) case $test_prereqs in *" ${tp_p#!} "*) return 1 ;; esac ;;
		*) case $test_prereqs in *" $tp_p "*) ;; *) return 1 ;; esac ;;
		esac
	done
	return 0
}

# test_selected N: true when --run names test N (or there is no --run).
test_selected() {
	[ -z "$test_run" ] && return 0
	for ts_r in $(echo "$test_run" | tr ',' ' '); do
		case $ts_r in
		*-*) [ "$1" -ge "${ts_r%-*}" ] && [ "$1" -le "${ts_r#*-}" ] && return 0 ;;
		*) [ "$1" -eq "$ts_r" ] && return 0 ;;
		esac
	done
	return 1
}

# test_expect_success [PREREQ] TITLE BODY: BODY is evaluated in a
# subshell; with PREREQ (comma-separated names, see test_set_prereq) the
# test is a visible skip unless each holds.
test_expect_success() {
	te_prereq=
	if [ $# -eq 3 ]; then
		te_prereq=$1
		shift
	fi
	test_count=$((test_count + 1))
	if ! test_selected "$test_count"; then
		echo "ok $test_count - $1 # SKIP not in --run=$test_run"
		return 0
	fi
	if [ -n "$te_prereq" ] && ! test_have_prereq "$te_prereq"; then
		echo "ok $test_count - $1 # SKIP missing prerequisite $te_prereq"
		return 0
	fi
	if (eval "$2") >"$SCRATCH/.out" 2>&1; then
		echo "ok $test_count - $1"
		[ -n "$test_verbose" ] && sed 's/^/#   /' "$SCRATCH/.out"
	else
		echo "not ok $test_count - $1"
		sed 's/^/#   /' "$SCRATCH/.out"
		test_failed=$((test_failed + 1))
	fi
	return 0
}

# test_must_fail CMD...: CMD must fail in an orderly way: an exit code of
# 1 to 125.  Success, a crash (a signal: above 128) and a command that
# could not run (126, 127) are all failures of the test.
test_must_fail() {
	"$@"
	tm_rc=$?
	if [ "$tm_rc" -eq 0 ]; then
		echo "test_must_fail: command succeeded: $*" >&2
		return 1
	elif [ "$tm_rc" -gt 128 ]; then
		echo "test_must_fail: died by signal $((tm_rc - 128)): $*" >&2
		return 1
	elif [ "$tm_rc" -eq 126 ] || [ "$tm_rc" -eq 127 ]; then
		echo "test_must_fail: could not run (exit $tm_rc): $*" >&2
		return 1
	fi
	return 0
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

# starter_fill_in FILE: replace the placeholders `gpusite init` writes
# (GS178: the cluster name, the all-zero activation ID) as a user would.
starter_fill_in() {
	sed -i -e "s/your-eks-cluster/seoul-cluster/" \
		-e "s/00000000-0000-4000-8000-000000000000/8f7c1a2e-3b4d-4c5e-9f60-718293a4b5c6/" \
		"$1"
}

# init_filled NAME: `gpusite init NAME`, placeholders filled in: a starter
# spec without findings in sites/NAME.yaml.
init_filled() {
	"$GPUSITE" init "$1" >/dev/null && starter_fill_in "sites/$1.yaml"
}

# copy_tree DIR: the source tree (what git tracks or would, of src, schemas,
# mk, docs, tests/tools and the Makefile) into DIR, with the objects of the
# build under test in DIR/build-toy, so `make O=build-toy` there compiles
# only what a test changes (t0004, t0008).  Not what other scripts keep in
# the build directory meanwhile (e2e-cache/, test-shared/, their tNNNN/
# work directories).
copy_tree() {
	mkdir "$1" &&
	(cd "$TEST_TOP" && git ls-files -co --exclude-standard -- src schemas mk docs tests/tools Makefile VERSION) |
	while IFS= read -r f; do
		[ -e "$TEST_TOP/$f" ] || continue
		mkdir -p "$1/$(dirname "$f")" && cp -p "$TEST_TOP/$f" "$1/$f" || exit 1
	done &&
	mkdir -p "$1/build-toy" &&
	(cd "$(dirname "$GPUSITE")" && tar cf - --exclude=./tests --exclude=./test-logs \
		--exclude=./e2e-cache --exclude=./test-shared --exclude="./t[0-9][0-9][0-9][0-9]*" .) |
	(cd "$1/build-toy" && tar xf -)
}

# run_in_case DIR SUBCOMMAND ARGS...: gpusite on a golden render case
# (testdata/render/<case>/: its input, sites/ or the file `path` names, its
# `args` line and its `env` NAME=value lines), run in the case directory so
# paths in the output are relative and stable (t2000, t2225).
run_in_case() {
	dir=$1; shift
	input=sites
	[ -f "$dir/path" ] && input=$(cat "$dir/path")
	extra=
	[ -f "$dir/args" ] && extra=$(cat "$dir/args")
	(
		cd "$dir" || exit 3
		if [ -f env ]; then
			while IFS= read -r kv; do
				[ -n "$kv" ] && export "${kv?}"
			done <env
		fi
		# shellcheck disable=SC2086
		"$GPUSITE" "$@" $extra "$input"
	)
}

# need_upstream: true when ../shared/upstream is beside the checkout.
need_upstream() {
	[ -d "$UPSTREAM" ]
}

test_done() {
	echo "1..$test_count"
	[ "$test_failed" -eq 0 ]
}
