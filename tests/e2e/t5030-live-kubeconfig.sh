#!/bin/sh
# t5030: the kubeconfig as kubectl reads it: KUBECONFIG lists merged
# (first definition wins, current-context from the first file that sets
# it, relative paths against the defining file), exec plugins v1 and
# v1beta1 with KUBERNETES_EXEC_INFO, client certificates (files and data),
# token files, the in-cluster service account, TLS verification.
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/live.sh"

if ! live_have_python; then
	test_skip "kubeconfig variants" "python3 or openssl not found"
	test_done
	exit
fi
live_certs
live_applied "$LIVE/sites" seoul-dc1 || exit 1
live_start healthy --applied "$SCRATCH/applied.json" || exit 1
# one server for the whole file: the tests reach it through port.keep
printf '%s\n' "$PORT" >"$SCRATCH/port.keep"

drift() { (cd "$LIVE" && "$GPUSITE" drift "$@" sites); }
srv() { SERVER="https://127.0.0.1:$(cat "$SCRATCH/port.keep")"; }

# user_exec API [INTERACTIVE]: an exec user block running $SCRATCH/aws
user_exec() {
	printf '    exec:\n'
	printf '      apiVersion: client.authentication.k8s.io/%s\n' "$1"
	printf '      command: %s/aws\n' "$SCRATCH"
	printf '      args: [--region, us-west-2, eks, get-token, --cluster-name, my-hybrid-cluster]\n'
	printf '      env:\n      - {name: AWS_PROFILE, value: hybrid-ops}\n'
	[ -n "${2:-}" ] && printf '      interactiveMode: %s\n' "$2"
	return 0
}

# A fake `aws eks get-token`: records its input and echoes the apiVersion
# it was asked for (v1beta1 when KUBERNETES_EXEC_INFO is missing, as aws
# does).
cat >"$SCRATCH/aws" <<EOF
#!/bin/sh
printf '%s\n' "\$KUBERNETES_EXEC_INFO" >"$SCRATCH/exec-info"
printf '%s\n' "\$AWS_PROFILE" >"$SCRATCH/exec-env"
echo x >>"$SCRATCH/exec-count"
api=\$(printf '%s' "\$KUBERNETES_EXEC_INFO" | python3 -c 'import json,sys; print(json.load(sys.stdin)["apiVersion"])' 2>/dev/null)
[ -n "\$api" ] || api=client.authentication.k8s.io/v1beta1
printf '{"kind":"ExecCredential","apiVersion":"%s","spec":{},"status":{"expirationTimestamp":"2099-01-01T00:00:00Z","token":"%s"}}\n' "\$api" "$TOKEN"
EOF
chmod +x "$SCRATCH/aws"

test_expect_success 'KUBECONFIG list: first definition wins, current-context from the first that sets it, paths relative to the defining file' '
	srv &&
	mkdir -p "$SCRATCH/a" "$SCRATCH/b" &&
	cp "$SCRATCH/tls/ca.crt" "$SCRATCH/a/cluster-ca.crt" &&
	printf "%s" "$TOKEN" >"$SCRATCH/a/token" &&
	{
		echo "apiVersion: v1" &&
		echo "kind: Config" &&
		echo "clusters:" &&
		echo "- name: shared" &&
		echo "  cluster: {server: \"$SERVER\", certificate-authority: cluster-ca.crt}" &&
		echo "users:" &&
		echo "- name: ops" &&
		echo "  user: {tokenFile: token}" &&
		echo "contexts:" &&
		echo "- name: $EKS_ARN" &&
		echo "  context: {cluster: shared, user: ops}"
	} >"$SCRATCH/a/config" &&
	{
		echo "apiVersion: v1" &&
		echo "kind: Config" &&
		echo "clusters:" &&
		echo "- name: shared" &&
		echo "  cluster: {server: \"https://127.0.0.1:1\", certificate-authority: nowhere.crt}" &&
		echo "users:" &&
		echo "- name: ops" &&
		echo "  user: {token: wrong}" &&
		echo "contexts:" &&
		echo "- name: $EKS_ARN" &&
		echo "  context: {cluster: shared, user: nobody}" &&
		echo "current-context: $EKS_ARN"
	} >"$SCRATCH/b/config" &&
	KUBECONFIG="$SCRATCH/missing:$SCRATCH/a/config:$SCRATCH/b/config" drift >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	grep "0 errors" "$SCRATCH/out" &&
	no_leak "$SCRATCH/out" "$SCRATCH/err"
'
test_expect_success '--kubeconfig reads one file only and it must exist' '
	expect_exit 3 drift --kubeconfig "$SCRATCH/none.yaml" 2>"$SCRATCH/err" &&
	grep "cannot read kubeconfig .*none.yaml" "$SCRATCH/err"
'
test_expect_success 'exec plugin v1: KUBERNETES_EXEC_INFO, env, interactive false, run once; -v logs no token' '
	srv &&
	live_kubeconfig "$(user_exec v1 Never)" >"$SCRATCH/kc" &&
	rm -f "$SCRATCH/exec-count" &&
	drift --kubeconfig "$SCRATCH/kc" -v >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	grep "\"apiVersion\":\"client.authentication.k8s.io/v1\"" "$SCRATCH/exec-info" &&
	grep "\"kind\":\"ExecCredential\"" "$SCRATCH/exec-info" &&
	grep "\"interactive\":false" "$SCRATCH/exec-info" &&
	grep "^hybrid-ops$" "$SCRATCH/exec-env" &&
	[ "$(wc -l <"$SCRATCH/exec-count")" -eq 1 ] &&
	grep "gpusite: GET https://127.0.0.1:[0-9]*/api/v1/nodes?limit=500 200 in [0-9]* ms" "$SCRATCH/err" &&
	no_leak "$SCRATCH/out" "$SCRATCH/err"
'
test_expect_success 'exec plugin v1beta1: the same apiVersion is sent and expected back' '
	srv &&
	live_kubeconfig "$(user_exec v1beta1)" >"$SCRATCH/kc" &&
	drift --kubeconfig "$SCRATCH/kc" >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	grep "\"apiVersion\":\"client.authentication.k8s.io/v1beta1\"" "$SCRATCH/exec-info" &&
	no_leak "$SCRATCH/out" "$SCRATCH/err"
'
test_expect_success 'exec plugin v1 without interactiveMode: exit 3, says so' '
	srv &&
	live_kubeconfig "$(user_exec v1)" >"$SCRATCH/kc" &&
	expect_exit 3 drift --kubeconfig "$SCRATCH/kc" 2>"$SCRATCH/err" &&
	grep "interactiveMode must be specified" "$SCRATCH/err"
'
test_expect_success 'a missing exec binary: exit 3 naming the command and the install hint' '
	srv &&
	live_kubeconfig "    exec: {apiVersion: client.authentication.k8s.io/v1, command: aws-not-installed, interactiveMode: Never, installHint: install the AWS CLI v2}" >"$SCRATCH/kc" &&
	expect_exit 3 drift --kubeconfig "$SCRATCH/kc" 2>"$SCRATCH/err" &&
	grep "executable .aws-not-installed. not found" "$SCRATCH/err" &&
	grep "install the AWS CLI v2" "$SCRATCH/err"
'
test_expect_success 'an exec plugin that fails: exit 3 with its exit code' '
	printf "#!/bin/sh\necho denied >&2\nexit 255\n" >"$SCRATCH/aws-fail" &&
	chmod +x "$SCRATCH/aws-fail" &&
	srv &&
	live_kubeconfig "    exec: {apiVersion: client.authentication.k8s.io/v1, command: $SCRATCH/aws-fail, interactiveMode: Never}" >"$SCRATCH/kc" &&
	expect_exit 3 drift --kubeconfig "$SCRATCH/kc" 2>"$SCRATCH/err" &&
	grep "failed with exit code 255" "$SCRATCH/err"
'
test_expect_success 'client certificate and key files' '
	srv &&
	live_kubeconfig "    client-certificate: $SCRATCH/tls/client.crt
    client-key: $SCRATCH/tls/client.key" >"$SCRATCH/kc" &&
	drift --kubeconfig "$SCRATCH/kc" >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	grep "0 errors" "$SCRATCH/out" &&
	grep " cert$" "$SCRATCH/requests.log" &&
	no_leak "$SCRATCH/out" "$SCRATCH/err"
'
test_expect_success 'client-certificate-data, client-key-data and certificate-authority-data' '
	srv &&
	cert=$(base64 -w0 "$SCRATCH/tls/client.crt") &&
	key=$(base64 -w0 "$SCRATCH/tls/client.key") &&
	ca=$(base64 -w0 "$SCRATCH/tls/ca.crt") &&
	live_kubeconfig "    client-certificate-data: $cert
    client-key-data: $key" | sed "s|certificate-authority: .*|certificate-authority-data: $ca|" >"$SCRATCH/kc" &&
	drift --kubeconfig "$SCRATCH/kc" >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	grep "0 errors" "$SCRATCH/out" &&
	no_leak "$SCRATCH/out" "$SCRATCH/err"
'
test_expect_success 'a certificate without its key is refused' '
	srv &&
	live_kubeconfig "    client-certificate: $SCRATCH/tls/client.crt" >"$SCRATCH/kc" &&
	expect_exit 3 drift --kubeconfig "$SCRATCH/kc" 2>"$SCRATCH/err" &&
	grep "client certificate without its key" "$SCRATCH/err"
'
test_expect_success 'the wrong CA: exit 3, the certificate cannot be verified' '
	srv &&
	live_kubeconfig | sed "s|tls/ca.crt|tls/wrong-ca.crt|" >"$SCRATCH/kc" &&
	expect_exit 3 drift --kubeconfig "$SCRATCH/kc" 2>"$SCRATCH/err" &&
	grep "cannot verify the TLS certificate of https://127.0.0.1" "$SCRATCH/err" &&
	no_leak "$SCRATCH/err"
'
test_expect_success 'insecure-skip-tls-verify only when the kubeconfig says so' '
	srv &&
	live_kubeconfig | sed "s|certificate-authority: .*|insecure-skip-tls-verify: true|" >"$SCRATCH/kc" &&
	drift --kubeconfig "$SCRATCH/kc" >"$SCRATCH/out" 2>&1 &&
	live_kubeconfig | sed "/certificate-authority: /d" >"$SCRATCH/kc2" &&
	expect_exit 3 drift --kubeconfig "$SCRATCH/kc2" 2>"$SCRATCH/err" &&
	grep "cannot verify the TLS certificate" "$SCRATCH/err"
'
test_expect_success 'tls-server-name: TLS names and verifies that host, the connection goes to the server' '
	srv &&
	live_kubeconfig | sed "s|^    certificate-authority: \(.*\)|    certificate-authority: \1\n    tls-server-name: localhost|" >"$SCRATCH/kc" &&
	grep "tls-server-name: localhost" "$SCRATCH/kc" &&
	drift --kubeconfig "$SCRATCH/kc" >"$SCRATCH/out" 2>&1 &&
	grep "0 errors" "$SCRATCH/out" &&
	sed "s|tls-server-name: localhost|tls-server-name: api.other.example|" "$SCRATCH/kc" >"$SCRATCH/kc2" &&
	expect_exit 3 drift --kubeconfig "$SCRATCH/kc2" 2>"$SCRATCH/err" &&
	grep "cannot verify the TLS certificate of https://127.0.0.1" "$SCRATCH/err"
'
test_expect_success '--context picks a context; an unknown one is exit 3' '
	srv &&
	live_kubeconfig | sed "s|^current-context: .*|current-context: gone|" >"$SCRATCH/kc" &&
	expect_exit 3 drift --kubeconfig "$SCRATCH/kc" 2>"$SCRATCH/err" &&
	grep "context .gone. is not defined in" "$SCRATCH/err" &&
	drift --kubeconfig "$SCRATCH/kc" --context "$EKS_ARN" >"$SCRATCH/out" 2>&1 &&
	grep "0 errors" "$SCRATCH/out"
'
test_expect_success 'in-cluster: service account token and CA; cluster from providerIDs' '
	mkdir -p "$SCRATCH/sa" "$SCRATCH/nohome" &&
	printf "%s" "$TOKEN" >"$SCRATCH/sa/token" &&
	cp "$SCRATCH/tls/ca.crt" "$SCRATCH/sa/ca.crt" &&
	echo gpu-platform >"$SCRATCH/sa/namespace" &&
	(unset KUBECONFIG && HOME="$SCRATCH/nohome" KUBERNETES_SERVICE_HOST=127.0.0.1 \
	 KUBERNETES_SERVICE_PORT="$(cat "$SCRATCH/port.keep")" \
	 GPUSITE_SERVICEACCOUNT_DIR="$SCRATCH/sa" drift >"$SCRATCH/out" 2>"$SCRATCH/err") &&
	grep "cluster my-hybrid-cluster (from the providerID of hybrid nodes)" "$SCRATCH/err" &&
	grep "0 errors" "$SCRATCH/out" &&
	no_leak "$SCRATCH/out" "$SCRATCH/err"
'
test_expect_success 'no kubeconfig and not in a cluster: exit 3, says what to do' '
	(unset KUBECONFIG KUBERNETES_SERVICE_HOST && HOME="$SCRATCH/nohome" \
	 expect_exit 3 drift 2>"$SCRATCH/err") &&
	grep "no kubeconfig found" "$SCRATCH/err" &&
	grep -- "--kubeconfig" "$SCRATCH/err"
'
test_expect_success 'a kubeconfig with an auth-provider: unsupported, use exec' '
	srv &&
	live_kubeconfig "    auth-provider: {name: gcp}" >"$SCRATCH/kc" &&
	expect_exit 3 drift --kubeconfig "$SCRATCH/kc" 2>"$SCRATCH/err" &&
	grep "auth-provider.*not supported.*exec credential plugin" "$SCRATCH/err"
'
test_done
