#!/bin/sh
# t5011: `gpusite drift` on the fallback's own nodes and EC2NodeClass
# (fallback.nodeImage: al2023): a Ready fallback node without allocatable
# GPUs (GS216), two device plugin pods on one fallback node (GS217), an
# EC2NodeClass of the other AMI family (GS218), and a clean fallback.
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/live.sh"

if ! live_have_python; then
	test_skip "fallback drift scenarios" "python3 or openssl not found"
	test_done
	exit
fi
live_certs
# the specs of testdata/live/sites (fallback.nodeImage: al2023, as the
# example cluster's EC2NodeClass boots al2023@latest)
mkdir -p "$SCRATCH/spec" &&
cp -R "$LIVE/sites" "$SCRATCH/spec/"
live_applied "$SCRATCH/spec/sites" seoul-dc1 >/dev/null 2>&1 || true
cp "$SCRATCH/applied.json" "$SCRATCH/applied.keep" 2>/dev/null

# fallback_case SCENARIO EXIT: run drift, compare with expected/drift.txt
fallback_case() {
	live_start "$1" --applied "$SCRATCH/applied.keep" &&
	(cd "$SCRATCH/spec" && expect_exit "$2" "$GPUSITE" drift --kubeconfig "$SCRATCH/kubeconfig" \
		sites >"$SCRATCH/out" 2>"$SCRATCH/err") &&
	live_golden "$LIVE/$1/expected/drift.txt" "$SCRATCH/out" &&
	only_gets &&
	no_leak "$SCRATCH/out" "$SCRATCH/err"
}

test_expect_success 'the spec sets nodeImage: al2023' '
	test "$(grep -c "^    nodeImage: al2023$" "$SCRATCH/spec/sites/seoul-dc1.yaml")" = 1 &&
	test -s "$SCRATCH/applied.keep"
'
test_expect_success 'clean fallback node (GPUs, one plugin, AL2023 AMI): no GS216-GS218, exit 0' '
	fallback_case fallback-healthy 0 &&
	! grep -E "GS21[678]" "$SCRATCH/out" &&
	grep "fallback NodePool seoul-dc1-gpu-fallback of site seoul-dc1 is active.*\[GS213\]" "$SCRATCH/out"
'
test_expect_success 'Ready fallback node without allocatable nvidia.com/gpu: GS216' '
	fallback_case fallback-no-gpu 1 &&
	grep "sites/seoul-dc1.yaml:[0-9]*:[0-9]*: error: fallback node ip-10-0-77-12.us-west-2.compute.internal of NodePool seoul-dc1-gpu-fallback (site seoul-dc1) is Ready but advertises no allocatable nvidia.com/gpu (absent).*\[GS216\]" "$SCRATCH/out" &&
	test "$(grep -c "\[GS216\]" "$SCRATCH/out")" = 1
'
test_expect_success 'two device plugin pods on one fallback node: GS217' '
	fallback_case fallback-two-plugins 1 &&
	grep "fallback node ip-10-0-77-12.us-west-2.compute.internal of NodePool seoul-dc1-gpu-fallback (site seoul-dc1) runs 2 device plugin pods: nvidia-device-plugin/nvidia-device-plugin-daemonset-5rqzt, nvidia-device-plugin/nvidia-device-plugin-fallback-h7k2p;.*\[GS217\]" "$SCRATCH/out" &&
	! grep "\[GS216\]" "$SCRATCH/out"
'
test_expect_success 'EC2NodeClass selecting bottlerocket@latest for nodeImage al2023: GS218' '
	fallback_case nodeclass-bottlerocket 1 &&
	grep "sites/seoul-dc1.yaml:[0-9]*:[0-9]*: error: EC2NodeClass gpu-fallback of fallback NodePool seoul-dc1-gpu-fallback (site seoul-dc1) selects AMI alias bottlerocket@latest, but fallback.nodeImage is al2023.*\[GS218\]" "$SCRATCH/out"
'
test_expect_success 'EC2NodeClass alias al2023 but a Bottlerocket AMI in status.amis: GS218' '
	fallback_case nodeclass-ami-bottlerocket 1 &&
	grep "EC2NodeClass gpu-fallback of fallback NodePool seoul-dc1-gpu-fallback (site seoul-dc1) resolved AMI bottlerocket-aws-k8s-1.35-nvidia-x86_64-v1.30.0-4f1e2d3c (ami-0b1c2d3e4f5a60001), a bottlerocket image, but fallback.nodeImage is al2023.*\[GS218\]" "$SCRATCH/out"
'
test_expect_success 'without nodeImage the EC2NodeClass family is not judged' '
	mkdir -p "$SCRATCH/noimage/sites" &&
	sed "/^    nodeImage: /d" "$LIVE/sites/seoul-dc1.yaml" >"$SCRATCH/noimage/sites/seoul-dc1.yaml" &&
	! grep -q nodeImage "$SCRATCH/noimage/sites/seoul-dc1.yaml" &&
	live_applied "$SCRATCH/noimage/sites" seoul-dc1 >/dev/null 2>&1 &&
	live_start nodeclass-bottlerocket --applied "$SCRATCH/applied.json" &&
	(cd "$SCRATCH/noimage" && "$GPUSITE" drift --kubeconfig "$SCRATCH/kubeconfig" sites >"$SCRATCH/out" 2>&1) &&
	! grep "\[GS218\]" "$SCRATCH/out"
'
test_done
