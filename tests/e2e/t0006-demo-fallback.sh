#!/bin/sh
# t0006: the tour `make demo` runs (mk/demo.sh) passes every step and
# shows the fallback stack: the AL2023 fallback nodes' own device plugin
# Application and a Bottlerocket EC2NodeClass with the image cache.
. "$TEST_TOP/tests/lib.sh"

test_expect_success 'mk/demo.sh passes every step' '
	{ sh "$TEST_TOP/mk/demo.sh" "$GPUSITE" >demo.out 2>&1 ||
	  { tail -20 demo.out; false; }; } &&
	grep "^demo: every step passed (run from testdata/fleet)$" demo.out
'
test_expect_success 'the demo shows the fallback device plugin Application' '
	sed -n "/^== the fallback stack/,/^== /p" demo.out >fb.out &&
	grep "^  Application lab-cluster-nvidia-device-plugin-fallback$" fb.out &&
	grep "^  NodePool lab-gpu-fallback$" fb.out
'
test_expect_success 'the demo shows the EC2NodeClass: pinned image, snapshot, IMDSv2' '
	grep "^kind: EC2NodeClass$" fb.out &&
	grep "^  - alias: bottlerocket@v1.26.0$" fb.out &&
	grep "^      snapshotID: snap-0123456789abcdef0$" fb.out &&
	grep "^    httpTokens: required$" fb.out &&
	test "$(wc -l <fb.out)" -le 20
'

test_done
