#!/bin/sh
# t5080: a credential or setting that would go into an HTTP header (or a
# file path) with a CR, LF or other control character in it: a kubeconfig
# token, a tokenFile's contents, an exec plugin's status.token,
# impersonation, basic auth, proxy-url, tls-server-name, the server URL and
# the certificate paths.  Each is exit 3 with one line naming where the
# value is (never the value), and the fake API server's header echo shows
# that no injected header reached it.
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/live.sh"

if ! live_have_python; then
	test_skip "header injection" "python3 or openssl not found"
	test_done
	exit
fi
live_certs
live_applied "$LIVE/sites" seoul-dc1 || exit 1
cp "$SCRATCH/applied.json" "$SCRATCH/applied.keep"
HDRS="$SCRATCH/headers.log"

drift() { (cd "$LIVE" && "$GPUSITE" drift --kubeconfig "$SCRATCH/kubeconfig" "$@" sites); }

start() {
	rm -f "$HDRS"
	live_start healthy --applied "$SCRATCH/applied.keep" --header-log "$HDRS"
}

# refused MESSAGE: exit 3, one error line with MESSAGE, no injected header
# at the server, nothing of the value printed
refused() {
	expect_exit 3 drift >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	cat "$SCRATCH/err" &&
	grep -F "$1" "$SCRATCH/err" &&
	[ "$(grep -c "error:" "$SCRATCH/err")" -eq 1 ] &&
	! grep -i "injected" "$SCRATCH/err" "$SCRATCH/out" &&
	! grep -i "^X-Injected" "$HDRS" 2>/dev/null &&
	no_leak "$SCRATCH/out" "$SCRATCH/err"
}

test_expect_success 'the header echo works: a good run shows the headers that arrived' '
	start &&
	drift >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	grep "^Authorization: Bearer " "$HDRS" &&
	grep "^User-Agent: gpusite/" "$HDRS" &&
	! grep -i "^X-Injected" "$HDRS"
'
test_expect_success 'a kubeconfig token with CR LF: exit 3, names the token of the user, no header injected' '
	start &&
	live_kubeconfig "    token: \"$TOKEN\\r\\nX-Injected: yes\"" >"$SCRATCH/kubeconfig" &&
	refused "the token of user '"'"'$EKS_ARN'"'"' holds a control character (CR, LF or another)" &&
	grep -F "$SCRATCH/kubeconfig:" "$SCRATCH/err" &&
	! [ -s "$HDRS" ]
'
test_expect_success 'a token with a lone LF or a TAB-free control byte (ESC) is refused too' '
	start &&
	live_kubeconfig "    token: \"$TOKEN\\nX-Injected: yes\"" >"$SCRATCH/kubeconfig" &&
	refused "holds a control character" &&
	live_kubeconfig "    token: \"$TOKEN\\e[2J\"" >"$SCRATCH/kubeconfig" &&
	refused "holds a control character"
'
test_expect_success 'a tokenFile holding CR LF: exit 3, names the token file, no request carries it' '
	start &&
	printf "%s\r\nX-Injected: yes\n" "$TOKEN" >"$SCRATCH/token" &&
	live_kubeconfig "    tokenFile: $SCRATCH/token" >"$SCRATCH/kubeconfig" &&
	refused "the token file $SCRATCH/token of user" &&
	! grep "^Authorization" "$HDRS"
'
test_expect_success 'a tokenFile with only a final newline still works' '
	start &&
	printf "%s\r\n" "$TOKEN" >"$SCRATCH/token" &&
	live_kubeconfig "    tokenFile: $SCRATCH/token" >"$SCRATCH/kubeconfig" &&
	drift >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	grep "0 errors" "$SCRATCH/out"
'
test_expect_success 'an exec plugin status.token with CR LF: exit 3, names the plugin, no header injected' '
	start &&
	cat >"$SCRATCH/aws" <<EOF &&
#!/bin/sh
printf "{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\",\"status\":{\"token\":\"%s\\\\r\\\\nX-Injected: yes\"}}\n" "$TOKEN"
EOF
	chmod +x "$SCRATCH/aws" &&
	live_kubeconfig "    exec: {apiVersion: client.authentication.k8s.io/v1, command: $SCRATCH/aws, interactiveMode: Never}" >"$SCRATCH/kubeconfig" &&
	refused "exec credential plugin '"'"'$SCRATCH/aws'"'"' of user '"'"'$EKS_ARN'"'"' answered with a status.token that holds a control character" &&
	! [ -s "$HDRS" ]
'
test_expect_success 'impersonation (as) with CR LF: exit 3' '
	start &&
	live_kubeconfig "    token: $TOKEN
    as: \"system:admin\\r\\nX-Injected: yes\"" >"$SCRATCH/kubeconfig" &&
	refused "the impersonated user (as) of user" &&
	! [ -s "$HDRS" ]
'
test_expect_success 'basic auth username and password with CR LF: exit 3 each' '
	start &&
	live_kubeconfig "    username: \"admin\\r\\nX-Injected: yes\"
    password: secret" >"$SCRATCH/kubeconfig" &&
	refused "the username of user" &&
	live_kubeconfig "    username: admin
    password: \"secret\\r\\nX-Injected: yes\"" >"$SCRATCH/kubeconfig" &&
	refused "the password of user"
'
test_expect_success 'proxy-url, tls-server-name and the server URL with CR LF: exit 3 each' '
	start &&
	live_kubeconfig >"$SCRATCH/kubeconfig" &&
	sed "s|^    server: .*|&\n    proxy-url: \"http://127.0.0.1:1\\\\r\\\\nX-Injected: yes\"|" "$SCRATCH/kubeconfig" >"$SCRATCH/k2" &&
	mv "$SCRATCH/k2" "$SCRATCH/kubeconfig" &&
	refused "proxy-url of cluster" &&
	live_kubeconfig >"$SCRATCH/kubeconfig" &&
	sed "s|^    server: .*|&\n    tls-server-name: \"localhost\\\\r\\\\nX-Injected: yes\"|" "$SCRATCH/kubeconfig" >"$SCRATCH/k2" &&
	mv "$SCRATCH/k2" "$SCRATCH/kubeconfig" &&
	refused "tls-server-name of cluster" &&
	live_kubeconfig >"$SCRATCH/kubeconfig" &&
	sed "s|^    server: \(.*\)|    server: \"\1/\\\\r\\\\nX-Injected: yes\"|" "$SCRATCH/kubeconfig" >"$SCRATCH/k2" &&
	mv "$SCRATCH/k2" "$SCRATCH/kubeconfig" &&
	refused "the server URL of cluster" &&
	! [ -s "$HDRS" ]
'
test_expect_success 'certificate paths with a newline: exit 3, the path is not opened' '
	start &&
	live_kubeconfig "    client-certificate: \"$SCRATCH/tls/client.crt\\nx\"
    client-key: $SCRATCH/tls/client.key" >"$SCRATCH/kubeconfig" &&
	refused "client-certificate of user" &&
	live_kubeconfig "    client-certificate: $SCRATCH/tls/client.crt
    client-key: \"$SCRATCH/tls/client.key\\r\"" >"$SCRATCH/kubeconfig" &&
	refused "client-key of user" &&
	live_kubeconfig >"$SCRATCH/kubeconfig" &&
	sed "s|^    certificate-authority: \(.*\)|    certificate-authority: \"\1\\\\n\"|" "$SCRATCH/kubeconfig" >"$SCRATCH/k2" &&
	mv "$SCRATCH/k2" "$SCRATCH/kubeconfig" &&
	refused "certificate-authority of cluster" &&
	! [ -s "$HDRS" ]
'
test_expect_success 'a proxy variable with CR LF (HTTPS_PROXY, no_proxy): exit 3 naming the variable' '
	start &&
	live_kubeconfig >"$SCRATCH/kubeconfig" &&
	HTTPS_PROXY=$(printf "http://127.0.0.1:1\r\nX-Injected: yes") &&
	export HTTPS_PROXY &&
	refused "the environment variable HTTPS_PROXY holds a control character (CR, LF or another)" &&
	unset HTTPS_PROXY &&
	no_proxy=$(printf "localhost\nX-Injected: yes") &&
	export no_proxy &&
	refused "the environment variable no_proxy holds a control character" &&
	! [ -s "$HDRS" ]
'
test_expect_success 'in-cluster: KUBERNETES_SERVICE_HOST with CR LF is refused' '
	mkdir -p "$SCRATCH/sa" && echo "$TOKEN" >"$SCRATCH/sa/token" &&
	(cd "$LIVE" && HOME="$SCRATCH/nohome" KUBECONFIG= GPUSITE_SERVICEACCOUNT_DIR="$SCRATCH/sa" \
		KUBERNETES_SERVICE_HOST="$(printf "127.0.0.1\r\nX-Injected: yes")" KUBERNETES_SERVICE_PORT=1 \
		expect_exit 3 "$GPUSITE" drift sites) >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	grep "KUBERNETES_SERVICE_HOST or KUBERNETES_SERVICE_PORT holds a control character" "$SCRATCH/err" &&
	! grep -i injected "$SCRATCH/err"
'

test_done
