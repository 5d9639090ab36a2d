#!/bin/sh
# t5081: a kubeconfig server URL with userinfo (https://admin:pass@host):
# the password appears in no message, no -v line and no error, for a run
# that works, a server that cannot be reached, an error answer and an
# answer that is not JSON.
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/live.sh"

if ! live_have_python; then
	test_skip "URL userinfo" "python3 or openssl not found"
	test_done
	exit
fi
live_certs
live_applied "$LIVE/sites" seoul-dc1 || exit 1
cp "$SCRATCH/applied.json" "$SCRATCH/applied.keep"
PASS="userinfo-pass-$$"

drift() { (cd "$LIVE" && "$GPUSITE" drift --kubeconfig "$SCRATCH/kubeconfig" "$@" sites); }

# with_userinfo URL: the kubeconfig with server URL
with_userinfo() {
	live_kubeconfig | sed "s|^    server: .*|    server: $1|" >"$SCRATCH/kubeconfig"
}

scrubbed() {
	cat "$SCRATCH/err" &&
	! grep -e "$PASS" -e "admin:" "$SCRATCH/out" "$SCRATCH/err" &&
	no_leak "$SCRATCH/out" "$SCRATCH/err"
}

test_expect_success 'a working run with -v: every request line shows the host without user:pass@' '
	live_start healthy --applied "$SCRATCH/applied.keep" &&
	with_userinfo "https://admin:$PASS@127.0.0.1:$PORT" &&
	drift -v >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	grep "^gpusite: GET https://127.0.0.1:$PORT/api/v1/nodes?limit=500 200 in " "$SCRATCH/err" &&
	grep "0 errors" "$SCRATCH/out" &&
	scrubbed
'
test_expect_success 'cannot connect: the error names the host, not the password' '
	live_stop && SERVER=unused &&
	with_userinfo "https://admin:$PASS@127.0.0.1:1" &&
	expect_exit 3 drift --timeout 5s >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	grep "cannot connect to the API server https://127.0.0.1:1 of context" "$SCRATCH/err" &&
	scrubbed
'
test_expect_success 'an error answer (403) and a list that is not JSON: no password in either message' '
	live_start healthy --applied "$SCRATCH/applied.keep" --fault forbidden@/api/v1/nodes &&
	with_userinfo "https://admin:$PASS@127.0.0.1:$PORT/" &&
	expect_exit 3 drift -v >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	grep "cannot list nodes at the cluster scope" "$SCRATCH/err" &&
	scrubbed &&
	live_start healthy --applied "$SCRATCH/applied.keep" --fault wrong-shape=root-array@/api/v1/nodes &&
	with_userinfo "https://admin:$PASS@127.0.0.1:$PORT" &&
	expect_exit 3 drift -v >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	grep "malformed answer to GET https://127.0.0.1:$PORT/api/v1/nodes" "$SCRATCH/err" &&
	scrubbed
'
test_expect_success 'with tls-server-name the userinfo still stays out of messages' '
	live_start healthy --applied "$SCRATCH/applied.keep" --fault forbidden@/api/v1/nodes &&
	live_kubeconfig | sed "s|^    server: .*|    server: https://admin:$PASS@127.0.0.1:$PORT\n    tls-server-name: localhost|" >"$SCRATCH/kubeconfig" &&
	expect_exit 3 drift -v >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	grep "GET https://127.0.0.1:$PORT/api/v1/nodes?limit=500 403" "$SCRATCH/err" &&
	scrubbed
'

test_done
