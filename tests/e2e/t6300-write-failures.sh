#!/bin/sh
# t6300: output is never lost silently.  A write that fails - a full disk
# (/dev/full, or a file-size limit for files: ulimit -f with SIGXFSZ
# ignored, so write(2) fails with EFBIG as on a full file system) or a
# closed standard output - is exit 3 with a message naming what failed,
# for every command that prints something; files written by render -o,
# --nodeconfigs and --values appear whole or not at all (t2050 covers a
# target that cannot be created; this covers the data write failing).
. "$TEST_TOP/tests/lib.sh"

FLEET="$TEST_TOP/testdata/fleet"
export SSM_ACTIVATION_CODE_RACK_B=Rb0aXw9Lq2Zt7Ke4Vn1Hs8Dc
export SSM_ACTIVATION_CODE_INCHEON=In9cH3on5Ac7Ti9Va1Ti0nCd
export SSM_ACTIVATION_CODE_INCHEON_L40S=L4s0aBcDeFgHiJkLmNoPqRs
FULL="gpusite: error: cannot write standard output: No space left on device"
CLOSED="gpusite: error: cannot write standard output: Bad file descriptor"

# the Argo CD plugin's working directory: a copy of the CMP fleet
cp -R "$TEST_TOP/testdata/cmp/fleet" "$SCRATCH/app" || exit 1

# to_full CMD...: run gpusite CMD (from the fleet) with stdout on /dev/full.
to_full() {
	(cd "$FLEET" && "$GPUSITE" "$@" >/dev/full 2>"$SCRATCH/err")
}
# closed CMD...: run gpusite CMD with stdout closed.
closed() {
	(cd "$FLEET" && "$GPUSITE" "$@" >&- 2>"$SCRATCH/err")
}
# said LINE: stderr is exactly that one line (one message, not two).
said() {
	printf '%s\n' "$1" >"$SCRATCH/want" &&
	test_cmp "$SCRATCH/want" "$SCRATCH/err"
}

if [ -w /dev/full ]; then
	for cmd in "render" "render --format json" "validate --format json" \
		"validate --format sarif" "validate --format junit" "schema" \
		"explain" "--version" "--help" "render --help"; do
		test_expect_success "gpusite $cmd >/dev/full: exit 3, one message" "
			expect_exit 3 to_full $cmd &&
			said \"\$FULL\"
		"
	done
	test_expect_success 'gpusite generate (Argo CD) >/dev/full: exit 3, one message' '
		(cd "$SCRATCH/app" && ARGOCD_ENV_CLUSTER=busan-cluster expect_exit 3 "$GPUSITE" generate >/dev/full 2>"$SCRATCH/err") &&
		grep -qx "$FULL" "$SCRATCH/err"
	'
	test_expect_success 'gpusite parameters (Argo CD) >/dev/full: exit 3, one message' '
		(cd "$SCRATCH/app" && expect_exit 3 "$GPUSITE" parameters >/dev/full 2>"$SCRATCH/err") &&
		said "$FULL"
	'
	test_expect_success 'render -o /dev/full: a device, refused before writing, exit 3 naming it' '
		(cd "$FLEET" && expect_exit 3 "$GPUSITE" render -o /dev/full >"$SCRATCH/out" 2>"$SCRATCH/err") &&
		test ! -s "$SCRATCH/out" &&
		said "gpusite render: error: '\''/dev/full'\'' is a device, not a regular file, and render writes only regular files: move it away or write elsewhere"
	'
else
	test_skip "writes to /dev/full" "/dev/full is not writable here"
fi

for cmd in "render" "render --format json" "validate --format json" "schema" "explain"; do
	test_expect_success "gpusite $cmd with stdout closed: exit 3, one message" "
		expect_exit 3 closed $cmd &&
		said \"\$CLOSED\"
	"
done
test_expect_success 'gpusite generate with stdout closed: exit 3' '
	(cd "$SCRATCH/app" && ARGOCD_ENV_CLUSTER=busan-cluster expect_exit 3 "$GPUSITE" generate >&- 2>"$SCRATCH/err") &&
	grep -qx "$CLOSED" "$SCRATCH/err"
'
test_expect_success 'validate (text) with stdout closed: findings go to stderr, nothing is lost, exit 0' '
	expect_exit 0 closed validate &&
	grep -q "^gpusite: 0 errors, 0 warnings" "$SCRATCH/err"
'

# limited FILE-BLOCKS CMD...: run gpusite CMD with files limited to
# FILE-BLOCKS blocks of 512 bytes and SIGXFSZ ignored (write fails EFBIG).
limited() {
	blocks=$1
	shift
	(trap "" XFSZ; ulimit -f "$blocks" && cd "$FLEET" && exec "$GPUSITE" "$@") \
		>"$SCRATCH/out" 2>"$SCRATCH/err"
}

test_expect_success 'render -o, --nodeconfigs, --values on a full file system: exit 3, nothing left behind' '
	mkdir "$SCRATCH/a" &&
	expect_exit 3 limited 4 render -o "$SCRATCH/a/stream.yaml" \
		--nodeconfigs "$SCRATCH/a/nc" --values "$SCRATCH/a/values" &&
	test ! -s "$SCRATCH/out" &&
	grep -q "^gpusite render: error: cannot write .*: File too large$" "$SCRATCH/err" &&
	test -z "$(ls -A "$SCRATCH/a")"
'

test_expect_success 'NodeConfigs that fit and a stream that does not: none of them is written' '
	mkdir "$SCRATCH/b" &&
	nc=$(cd "$FLEET" && "$GPUSITE" render --nodeconfigs "$SCRATCH/probe" >/dev/null && find "$SCRATCH/probe" -type f -size -2k | wc -l) &&
	test "$nc" -gt 0 &&
	expect_exit 3 limited 4 render --nodeconfigs "$SCRATCH/b/nc" -o "$SCRATCH/b/stream.yaml" &&
	test -z "$(ls -A "$SCRATCH/b")"
'

test_expect_success 'an older -o file and NodeConfig survive a full file system untouched' '
	mkdir -p "$SCRATCH/c/nc/seoul-dc1" &&
	echo "old stream" >"$SCRATCH/c/stream.yaml" &&
	echo "old node" >"$SCRATCH/c/nc/seoul-dc1/rack-b.yaml" &&
	expect_exit 3 limited 4 render -o "$SCRATCH/c/stream.yaml" --nodeconfigs "$SCRATCH/c/nc" &&
	test "$(cat "$SCRATCH/c/stream.yaml")" = "old stream" &&
	test "$(cat "$SCRATCH/c/nc/seoul-dc1/rack-b.yaml")" = "old node" &&
	test -z "$(find "$SCRATCH/c" -name ".*gpusite-*")" &&
	test "$(find "$SCRATCH/c" -type f | wc -l)" -eq 2
'

test_expect_success 'render to a file-size-limited stdout: exit 3, says so (the shell owns that file)' '
	expect_exit 3 limited 4 render &&
	grep -qx "gpusite: error: cannot write standard output: File too large" "$SCRATCH/err"
'

test_expect_success 'the same render with room enough writes everything (the limit was the cause)' '
	expect_exit 0 limited 100000 render -o "$SCRATCH/d/stream.yaml" --nodeconfigs "$SCRATCH/d/nc" &&
	test -s "$SCRATCH/d/stream.yaml" &&
	test "$(find "$SCRATCH/d/nc" -type f | wc -l)" -eq 9
'

test_done
