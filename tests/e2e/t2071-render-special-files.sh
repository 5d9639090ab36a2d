#!/bin/sh
# t2071-render-special-files.sh - an output path that is not a regular
# file - a FIFO (which would hang the run forever without a reader), a
# socket, a device other than standard output, a directory where a file
# goes, or a FIFO where a directory goes - is refused at once: exit 3, one
# line naming the path, nothing written, no hang (each run is bounded by
# timeout).  -o -, -o /dev/stdout and -o /dev/fd/1 are standard output
# (t2020).
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

fleet="$TEST_TOP/testdata/fleet/sites"
export SSM_ACTIVATION_CODE_RACK_B=Rb0aXw9Lq2Zt7Ke4Vn1Hs8Dc
export SSM_ACTIVATION_CODE_INCHEON=In9cH3on5Ac7Ti9Va1Ti0nCd
export SSM_ACTIVATION_CODE_INCHEON_L40S=L4s0aBcDeFgHiJkLmNoPqRs
NOT_FILE="not a regular file, and render writes only regular files: move it away or write elsewhere"

tree() {	# tree DIR: every entry below DIR with its type, mode and size
	(cd "$1" && find . -printf '%p %y %m %s\n' | sort)
}

# refused LINE CMD...: CMD exits 3 within 20 s, stdout empty, stderr
# exactly LINE.
refused() {
	r_line=$1
	shift
	expect_exit 3 timeout 20 "$@" >out 2>err </dev/null &&
	test ! -s out &&
	printf 'gpusite render: error: %s\n' "$r_line" >want &&
	test_cmp want err
}

test_expect_success '-o a FIFO without a reader: refused at once, never opened' '
	mkdir 1 && mkfifo 1/fifo &&
	refused "'\''1/fifo'\'' is a FIFO, $NOT_FILE" "$GPUSITE" render -o 1/fifo "$fleet" &&
	test -p 1/fifo && test "$(ls -A 1)" = fifo
'

test_expect_success 'a FIFO at an SSM NodeConfig: refused at once, no other file written' '
	mkdir -p 2/nc/seoul-dc1 && mkfifo 2/nc/seoul-dc1/rack-b.yaml &&
	tree 2 >before &&
	refused "'\''2/nc/seoul-dc1/rack-b.yaml'\'' is a FIFO, $NOT_FILE" \
		"$GPUSITE" render -o 2/stream.yaml --nodeconfigs 2/nc "$fleet" &&
	tree 2 >after && test_cmp before after
'

test_expect_success 'a socket at a values file: refused before any NodeConfig is written' '
	mkdir -p 3/values/my-hybrid-cluster &&
	python3 -c "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])" \
		3/values/my-hybrid-cluster/values.yaml &&
	test -S 3/values/my-hybrid-cluster/values.yaml &&
	tree 3 >before &&
	refused "'\''3/values/my-hybrid-cluster/values.yaml'\'' is a socket, $NOT_FILE" \
		"$GPUSITE" render --nodeconfigs 3/nc --values 3/values "$fleet" &&
	tree 3 >after && test_cmp before after
'

test_expect_success '-o a device other than standard output or /dev/null (/dev/zero): refused' '
	refused "'\''/dev/zero'\'' is a device, $NOT_FILE" "$GPUSITE" render -o /dev/zero "$fleet"
'

test_expect_success '-o /dev/null renders and checks, writes nothing, keeps the exit code' '
	"$GPUSITE" render -o /dev/null "$fleet" >out 2>err &&
	test ! -s out &&
	printf "%s\n" "apiVersion: gpusite.io/v1alpha1" "kind: GPUSite" "metadata: {name: x}" \
		"spec: {}" >bad.yaml &&
	expect_exit 1 "$GPUSITE" render -o /dev/null bad.yaml >out 2>err &&
	test ! -s out && grep -q "error: " err
'

test_expect_success 'a directory where a NodeConfig goes: refused, nothing written' '
	mkdir -p 5/nc/seoul-dc1/rack-b.yaml &&
	tree 5 >before &&
	refused "'\''5/nc/seoul-dc1/rack-b.yaml'\'' is a directory, $NOT_FILE" \
		"$GPUSITE" render -o 5/stream.yaml --nodeconfigs 5/nc "$fleet" &&
	tree 5 >after && test_cmp before after
'

test_expect_success 'a FIFO or a file where a directory goes: refused, nothing written' '
	mkdir -p 6/nc 6/values && mkfifo 6/nc/seoul-dc1 && : >6/values/inference-eu &&
	tree 6 >before &&
	refused "'\''6/nc/seoul-dc1'\'' is a FIFO, not a directory: move it away or write elsewhere" \
		"$GPUSITE" render --nodeconfigs 6/nc "$fleet" &&
	refused "'\''6/values/inference-eu'\'' is a regular file, not a directory: move it away or write elsewhere" \
		"$GPUSITE" render --values 6/values "$fleet" &&
	tree 6 >after && test_cmp before after
'

test_expect_success '-o a directory, or a name ending in /: refused' '
	mkdir -p 7/adir &&
	refused "'\''7/adir'\'' is a directory, $NOT_FILE" "$GPUSITE" render -o 7/adir "$fleet" &&
	refused "'\''7/adir/'\'' names a directory, not a file: give a file name" \
		"$GPUSITE" render -o 7/adir/ "$fleet" &&
	test -z "$(ls -A 7/adir)"
'

test_done
