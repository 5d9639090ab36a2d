#!/bin/sh
# t5040: a cluster that answers badly: 401 then a fresh exec credential,
# 403 naming the verb and resource, 429 and 5xx retried (Retry-After
# honoured), a dropped connection, a slow server against --timeout, an
# expired continue token, an endless body.  Each with its exit code, a
# clear message and nothing leaked.
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/live.sh"

if ! live_have_python; then
	test_skip "fault handling" "python3 or openssl not found"
	test_done
	exit
fi
live_certs
live_applied "$LIVE/sites" seoul-dc1 || exit 1
cp "$SCRATCH/applied.json" "$SCRATCH/applied.keep"

drift() { (cd "$LIVE" && "$GPUSITE" drift --kubeconfig "$SCRATCH/kubeconfig" "$@" sites); }

# fault_case EXIT FAULT...: start healthy with the faults, run drift
fault_case() {
	want=$1
	shift
	args=
	for f in "$@"; do
		args="$args --fault $f"
	done
	# shellcheck disable=SC2086
	live_start healthy --applied "$SCRATCH/applied.keep" $args &&
	expect_exit "$want" drift >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	no_leak "$SCRATCH/out" "$SCRATCH/err"
}

test_expect_success '401 once: the exec plugin runs again and the run succeeds' '
	cat >"$SCRATCH/aws" <<EOF &&
#!/bin/sh
echo x >>"$SCRATCH/exec-count"
if [ "\$(wc -l <"$SCRATCH/exec-count")" -eq 1 ]; then tok=revoked-token; else tok=$TOKEN; fi
printf "{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\",\"status\":{\"token\":\"%s\",\"expirationTimestamp\":\"2099-01-01T00:00:00Z\"}}\n" "\$tok"
EOF
	chmod +x "$SCRATCH/aws" &&
	live_start healthy --applied "$SCRATCH/applied.keep" &&
	live_kubeconfig "    exec: {apiVersion: client.authentication.k8s.io/v1, command: $SCRATCH/aws, interactiveMode: Never}" >"$SCRATCH/kubeconfig" &&
	drift >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	[ "$(wc -l <"$SCRATCH/exec-count")" -eq 2 ] &&
	grep " 401 none$" "$SCRATCH/requests.log" &&
	grep "0 errors" "$SCRATCH/out" &&
	no_leak "$SCRATCH/out" "$SCRATCH/err"
'
test_expect_success '401 with a static token: exit 3, the credentials were rejected' '
	live_start healthy --applied "$SCRATCH/applied.keep" &&
	live_kubeconfig "    token: not-the-token" >"$SCRATCH/kubeconfig" &&
	expect_exit 3 drift 2>"$SCRATCH/err" &&
	grep "rejected the credentials of user .arn:aws:eks:us-west-2:111122223333:cluster/my-hybrid-cluster. (token) with 401 Unauthorized" "$SCRATCH/err" &&
	! grep not-the-token "$SCRATCH/err"
'
test_expect_success '403 on nodes: exit 3 naming the verb and the resource RBAC needs' '
	fault_case 3 forbidden@/api/v1/nodes &&
	grep "cannot list nodes at the cluster scope: RBAC needs .list. on .nodes." "$SCRATCH/err"
'
test_expect_success '403 on a namespaced list names the namespace' '
	fault_case 3 forbidden@/api/v1/namespaces/inference/pods &&
	grep "cannot list pods in namespace .inference.: RBAC needs .list. on .pods. in namespace .inference." "$SCRATCH/err"
'
test_expect_success '429 with Retry-After: retried, then the run succeeds' '
	fault_case 0 throttle=2:1@/api/v1/nodes &&
	[ "$(grep -c "^GET /api/v1/nodes?limit=500 429 " "$SCRATCH/requests.log")" -eq 2 ] &&
	[ "$(grep -c "^GET /api/v1/nodes?limit=500 200 " "$SCRATCH/requests.log")" -eq 1 ]
'
test_expect_success '500 and 503: retried with backoff, then the run succeeds' '
	fault_case 0 error=2@/apis/karpenter.sh/v1/nodepools unavailable=1:1@/api/v1/namespaces &&
	grep " 500 " "$SCRATCH/requests.log" && grep " 503 " "$SCRATCH/requests.log" &&
	grep "0 errors" "$SCRATCH/out"
'
test_expect_success 'a dropped connection is retried' '
	fault_case 0 drop=2@/api/v1/nodes &&
	[ "$(grep -c " 0 dropped$" "$SCRATCH/requests.log")" -eq 2 ] &&
	grep "0 errors" "$SCRATCH/out"
'
test_expect_success 'a server that never answers in time: exit 3 after --timeout' '
	live_start healthy --applied "$SCRATCH/applied.keep" --fault slow=30@/api/v1/nodes &&
	start=$(date +%s) &&
	expect_exit 3 drift --timeout 2s 2>"$SCRATCH/err" &&
	end=$(date +%s) &&
	[ $((end - start)) -lt 10 ] &&
	grep "timed out after 2s trying to list nodes" "$SCRATCH/err"
'
test_expect_success 'throttled for longer than --timeout: exit 3, not an endless wait' '
	live_start healthy --applied "$SCRATCH/applied.keep" --fault throttle=100:5@/api/v1/nodes &&
	expect_exit 3 drift --timeout 3 2>"$SCRATCH/err" &&
	grep "timed out after 3s" "$SCRATCH/err"
'
test_expect_success 'an expired continue token: the list starts over, the result is whole' '
	live_applied "$LIVE/large/sites" &&
	live_start large --applied "$SCRATCH/applied.json" --fault expire-continue=1@/api/v1/nodes &&
	(cd "$LIVE/large" && expect_exit 1 "$GPUSITE" drift --kubeconfig "$SCRATCH/kubeconfig" \
		--cluster big-hybrid-cluster sites >"$SCRATCH/out" 2>"$SCRATCH/err") &&
	[ "$(grep -c "^GET /api/v1/nodes?limit=500 200 " "$SCRATCH/requests.log")" -eq 2 ] &&
	grep " 410 " "$SCRATCH/requests.log" &&
	grep "(1 site, 5000 nodes, 400 pods checked)" "$SCRATCH/out"
'
test_expect_success 'an endless body: exit 3 at the size cap, not out of memory' '
	fault_case 3 endless@/api/v1/nodes &&
	grep "is larger than 64 MiB" "$SCRATCH/err"
'
test_expect_success 'the connection refused: exit 3, says which server' '
	live_start healthy &&
	live_stop &&
	expect_exit 3 drift 2>"$SCRATCH/err" &&
	grep "cannot connect to the API server https://127.0.0.1:$PORT" "$SCRATCH/err"
'
test_done
