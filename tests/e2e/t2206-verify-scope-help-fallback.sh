#!/bin/sh
# t2206: verify-scope --help names the fallback nodes of
# testdata/nodes/fallback/ and what they prove, and the labels it names
# are the ones those nodes carry.
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

fb="$TEST_TOP/testdata/nodes/fallback"

test_expect_success 'verify-scope --help names the fallback nodes and exits 0' '
	"$GPUSITE" verify-scope --help >help.out 2>help.err &&
	! test -s help.err &&
	grep -F "testdata/nodes/fallback/ holds an" help.out &&
	grep -F "AL2023 and a Bottlerocket fallback node" help.out &&
	grep -F "device plugin per GPU node, the cloud fallback included" help.out &&
	grep -F "misses an AL2023 fallback GPU node (GS160)" help.out
'

test_expect_success 'the fallback nodes carry the labels the help names' '
	grep -F "gpusite.io/node-image: al2023" "$fb/al2023-fallback.yaml" &&
	grep -F "gpusite.io/node-image: bottlerocket" "$fb/bottlerocket-fallback.yaml" &&
	grep -F "node-type: cloud-gpu-fallback" "$fb/al2023-fallback.yaml" &&
	grep -F "node-type: cloud-gpu-fallback" "$fb/bottlerocket-fallback.yaml"
'

test_done
