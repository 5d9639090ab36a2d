#!/bin/sh
# t5060: `gpusite verify-scope --live`: the placement table of the live
# DaemonSets on the live nodes (GET and LIST only).
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/live.sh"

if ! live_have_python; then
	test_skip "verify-scope --live" "python3 or openssl not found"
	test_done
	exit
fi

test_expect_success 'healthy: the device plugin on every hybrid GPU node, nowhere else' '
	live_start healthy &&
	"$GPUSITE" verify-scope --live --kubeconfig "$SCRATCH/kubeconfig" >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	grep "^nvidia-device-plugin/nvidia-device-plugin " "$SCRATCH/out" &&
	grep "on 7 nodes (4 hybrid GPU): 0 misses, 0 leaks" "$SCRATCH/out" &&
	only_gets && no_leak "$SCRATCH/out" "$SCRATCH/err"
'
test_expect_success 'a DaemonSet that lost its nodeSelector leaks to a cloud GPU node: GS161, exit 1' '
	live_start double-plugin &&
	expect_exit 1 "$GPUSITE" verify-scope --live --kubeconfig "$SCRATCH/kubeconfig" >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	grep "1 leaks" "$SCRATCH/out" &&
	grep "would run on non-hybrid cloud GPU node ip-10-0-12-34.us-west-2.compute.internal.*\[GS161\]" "$SCRATCH/err" &&
	grep "^https://127.0.0.1:$PORT/apis/apps/v1/daemonsets: error:" "$SCRATCH/err"
'
test_expect_success '--live with --manifests: given manifests on the live nodes' '
	live_start healthy &&
	printf "%s\n" "apiVersion: apps/v1" "kind: DaemonSet" "metadata: {name: dp, namespace: x}" \
		"spec: {template: {spec: {nodeSelector: {eks.amazonaws.com/compute-type: hybrid}," \
		"  tolerations: [{operator: Exists}], containers: [{name: c, image: nvcr.io/nvidia/k8s-device-plugin:v0.20.0}]}}}" \
		>"$SCRATCH/ds.yaml" &&
	"$GPUSITE" verify-scope --live --manifests "$SCRATCH/ds.yaml" --kubeconfig "$SCRATCH/kubeconfig" >"$SCRATCH/out" 2>&1 &&
	grep "^x/dp " "$SCRATCH/out" &&
	! grep "DaemonSet/daemonsets" "$SCRATCH/requests.log" &&
	! grep "/apis/apps/v1/daemonsets" "$SCRATCH/requests.log"
'
test_expect_success 'verify-scope without inputs or --live is a usage error' '
	expect_exit 2 "$GPUSITE" verify-scope 2>"$SCRATCH/err" &&
	grep "or --live" "$SCRATCH/err" &&
	expect_exit 2 "$GPUSITE" verify-scope --nodes x --manifests y --context c 2>"$SCRATCH/err" &&
	grep "go with --live" "$SCRATCH/err"
'
test_expect_success 'an unreachable cluster: exit 3' '
	live_start healthy && live_stop &&
	expect_exit 3 "$GPUSITE" verify-scope --live --kubeconfig "$SCRATCH/kubeconfig" 2>"$SCRATCH/err" &&
	grep "cannot connect to the API server https://127.0.0.1:$PORT of context" "$SCRATCH/err"
'
test_done
