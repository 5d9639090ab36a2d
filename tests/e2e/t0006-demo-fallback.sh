#!/bin/sh
# t0006: the tour `make demo` runs (mk/demo.sh) passes every step and
# shows the fallback stack of the example fleet (testdata/fleet): the
# AL2023 fallback nodes' own device plugin Application (incheon-edge) and
# seoul-dc1's Bottlerocket EC2NodeClass with the image cache.
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

test_expect_success 'mk/demo.sh passes every step' '
	{ sh "$TEST_TOP/mk/demo.sh" "$GPUSITE" >demo.out 2>&1 ||
	  { tail -20 demo.out; false; }; } &&
	grep "^demo: every step passed (run from testdata/fleet)$" demo.out
'
test_expect_success 'the demo shows the fallback device plugin Application' '
	sed -n "/^== the fallback stack/,/^== /p" demo.out >fb.out &&
	grep "^  Application my-hybrid-cluster-nvidia-device-plugin-fallback$" fb.out &&
	grep "^  NodePool incheon-edge-gpu-fallback$" fb.out &&
	grep "^incheon-edge (nodeImage: al2023)" fb.out
'
test_expect_success 'the demo shows the EC2NodeClass: pinned image, snapshot, IMDSv2' '
	grep "^seoul-dc1 (nodeImage: bottlerocket, nodeClass with imageCache)" fb.out &&
	grep "^kind: EC2NodeClass$" fb.out &&
	grep "^  - alias: bottlerocket@v1.26.0$" fb.out &&
	grep "^      snapshotID: snap-0123456789abcdef0$" fb.out &&
	grep "^    httpTokens: required$" fb.out &&
	test "$(wc -l <fb.out)" -le 20
'

test_done
