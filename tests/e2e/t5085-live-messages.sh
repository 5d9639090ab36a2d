#!/bin/sh
# t5085: answers and files the client refuses, each with a message that
# says what is really wrong: a 2 MB or 10 MB continue token ("continue
# token too long", not "Out of memory" or "No URL set"), an empty
# kubeconfig (names that file, not ~/.kube/config), a bad client key from
# an exec plugin (its clientKeyData, not certificate-authority), a long
# Status message (capped).  The exec plugin's standard error reaches the
# user as kubectl passes it, but capped, escaped and prefixed.
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/live.sh"

if ! live_have_python; then
	test_skip "messages" "python3 or openssl not found"
	test_done
	exit
fi
live_certs
live_applied "$LIVE/sites" seoul-dc1 || exit 1
cp "$SCRATCH/applied.json" "$SCRATCH/applied.keep"
unset KUBECONFIG

drift() { (cd "$LIVE" && "$GPUSITE" drift --kubeconfig "$SCRATCH/kubeconfig" "$@" sites); }

# exec_plugin STATUS-PYTHON [STDERR-SH]: $SCRATCH/aws prints an
# ExecCredential whose status is the Python expression STATUS-PYTHON
exec_plugin() {
	cat >"$SCRATCH/aws" <<EOF &&
#!/bin/sh
${2:-:}
python3 -c '
import json
cert = open("$SCRATCH/tls/client.crt").read()
key = open("$SCRATCH/tls/client.key").read()
print(json.dumps({"apiVersion": "client.authentication.k8s.io/v1",
                  "kind": "ExecCredential", "status": $1}))'
EOF
	chmod +x "$SCRATCH/aws" &&
	live_kubeconfig "    exec: {apiVersion: client.authentication.k8s.io/v1, command: $SCRATCH/aws, interactiveMode: Never}" >"$SCRATCH/kubeconfig"
}

test_expect_success 'a 2 MB continue token: exit 3 "continue token too long"' '
	live_start healthy --applied "$SCRATCH/applied.keep" --fault continue-long=2000000@/api/v1/nodes &&
	expect_exit 3 drift >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	cat "$SCRATCH/err" &&
	grep -F "gpusite drift: error: continue token too long in the answer to GET https://127.0.0.1:$PORT/api/v1/nodes: 2000000 bytes, the limit is 16384; is that really an API server?" "$SCRATCH/err" &&
	! grep -i -e "out of memory" -e "no url set" "$SCRATCH/err" &&
	[ "$(grep -c "^GET /api/v1/nodes?" "$SCRATCH/requests.log")" -eq 1 ]
'
test_expect_success 'a 10 MB continue token: the same line' '
	live_start healthy --applied "$SCRATCH/applied.keep" --fault continue-long=10000000@/api/v1/nodes &&
	expect_exit 3 drift >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	grep -F "continue token too long in the answer to GET https://127.0.0.1:$PORT/api/v1/nodes: 10000000 bytes" "$SCRATCH/err" &&
	! grep -i -e "out of memory" -e "no url set" "$SCRATCH/err"
'
test_expect_success 'a continue token at the limit (16 KiB) is still followed' '
	live_start healthy --applied "$SCRATCH/applied.keep" --fault continue-long=16384@/api/v1/nodes &&
	expect_exit 3 drift >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	! grep "continue token too long" "$SCRATCH/err" &&
	grep "continue=AAAA" "$SCRATCH/requests.log"
'
test_expect_success 'an empty --kubeconfig: names that file, not ~/.kube/config' '
	: >"$SCRATCH/empty" &&
	(cd "$LIVE" && HOME="$SCRATCH/nohome" expect_exit 3 "$GPUSITE" drift --kubeconfig "$SCRATCH/empty" sites) 2>"$SCRATCH/err" &&
	cat "$SCRATCH/err" &&
	grep -F "gpusite drift: error: kubeconfig $SCRATCH/empty is empty: no current-context, cluster or user; write one with '"'"'aws eks update-kubeconfig'"'"' or pass another --kubeconfig" "$SCRATCH/err" &&
	! grep "kube/config" "$SCRATCH/err"
'
test_expect_success 'an empty file (comments only) in KUBECONFIG: names it too' '
	echo "# nothing yet" >"$SCRATCH/empty2" &&
	(cd "$LIVE" && HOME="$SCRATCH/nohome" KUBECONFIG="$SCRATCH/empty2" expect_exit 3 "$GPUSITE" drift sites) 2>"$SCRATCH/err" &&
	cat "$SCRATCH/err" &&
	grep -F "kubeconfig $SCRATCH/empty2 is empty" "$SCRATCH/err" &&
	! grep "none of KUBECONFIG" "$SCRATCH/err"
'
test_expect_success 'a bad client key from an exec plugin: names its clientKeyData, not certificate-authority' '
	live_start healthy --applied "$SCRATCH/applied.keep" &&
	exec_plugin "{\"clientCertificateData\": cert, \"clientKeyData\": \"-----BEGIN PRIVATE KEY-----\\nAAAA\\n-----END PRIVATE KEY-----\\n\"}" &&
	expect_exit 3 drift >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	cat "$SCRATCH/err" &&
	grep -F "error: cannot use the client certificate for https://127.0.0.1:$PORT: " "$SCRATCH/err" &&
	grep -F "; check the clientCertificateData and clientKeyData that the exec credential plugin '"'"'$SCRATCH/aws'"'"' of user '"'"'$EKS_ARN'"'"' answered with" "$SCRATCH/err" &&
	! grep "certificate-authority" "$SCRATCH/err" &&
	! grep "cannot verify the TLS certificate" "$SCRATCH/err" &&
	no_leak "$SCRATCH/out" "$SCRATCH/err"
'
test_expect_success 'a good client certificate from an exec plugin works' '
	live_start healthy --applied "$SCRATCH/applied.keep" &&
	exec_plugin "{\"clientCertificateData\": cert, \"clientKeyData\": key}" &&
	drift >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	grep "0 errors" "$SCRATCH/out" &&
	grep " cert$" "$SCRATCH/requests.log"
'
test_expect_success 'exec plugin stderr: shown prefixed, terminal controls and bidi characters escaped' '
	live_start healthy --applied "$SCRATCH/applied.keep" &&
	exec_plugin "{\"token\": \"$TOKEN\"}" \
		"printf \"warning: \\033]0;pwned\\007\\033[2J cleared\\n\\342\\200\\256reversed\\r\\nno newline\" >&2" &&
	drift >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	cat "$SCRATCH/err" &&
	grep -F "gpusite: exec plugin '"'"'aws'"'"': warning: \\x1b]0;pwned\\x07\\x1b[2J cleared" "$SCRATCH/err" &&
	grep "^gpusite: exec plugin .aws.: \\\\xe2\\\\x80\\\\xaereversed$" "$SCRATCH/err" &&
	grep -F "gpusite: exec plugin '"'"'aws'"'"': no newline" "$SCRATCH/err" &&
	! LC_ALL=C grep -q "$(printf "[\001-\010\013-\037\177]")" "$SCRATCH/err" &&
	! grep -q "$(printf "\342\200\256")" "$SCRATCH/err" &&
	grep "0 errors" "$SCRATCH/out"
'
test_expect_success 'exec plugin with endless stderr: the first 4 KiB shown, the rest counted, the run works' '
	live_start healthy --applied "$SCRATCH/applied.keep" &&
	exec_plugin "{\"token\": \"$TOKEN\"}" \
		"head -c 3000000 /dev/zero | tr \"\\\\000\" x >&2" &&
	drift >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	grep -F "gpusite: exec plugin '"'"'aws'"'"': ... 2995904 more bytes of standard error not shown" "$SCRATCH/err" &&
	[ "$(wc -c <"$SCRATCH/err")" -lt 8192 ] &&
	grep "0 errors" "$SCRATCH/out"
'
test_expect_success 'a failing exec plugin: its stderr is shown, then the error' '
	live_start healthy --applied "$SCRATCH/applied.keep" &&
	cat >"$SCRATCH/aws" <<-EOF &&
	#!/bin/sh
	echo "Unable to locate credentials. You can configure credentials by running \"aws configure\"." >&2
	exit 255
	EOF
	chmod +x "$SCRATCH/aws" &&
	live_kubeconfig "    exec: {apiVersion: client.authentication.k8s.io/v1, command: $SCRATCH/aws, interactiveMode: Never}" >"$SCRATCH/kubeconfig" &&
	expect_exit 3 drift >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	grep -F "gpusite: exec plugin '"'"'aws'"'"': Unable to locate credentials." "$SCRATCH/err" &&
	grep "failed with exit code 255" "$SCRATCH/err"
'
test_expect_success 'a 1 MB Status message is capped in the error line' '
	live_start healthy --applied "$SCRATCH/applied.keep" --fault status-long=1000000@/api/v1/nodes &&
	expect_exit 3 drift >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	grep "cannot list nodes: the API server answered 400: xxxx*\.\.\.$" "$SCRATCH/err" &&
	[ "$(wc -c <"$SCRATCH/err")" -lt 2048 ]
'

test_done
