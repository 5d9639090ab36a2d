#!/bin/sh
# t5086: a malicious API server and exec plugins that the client already
# withstood, kept as tests: a slow-loris answer (one byte a second) against
# --timeout, a gzip bomb (256 MiB inflated) against the 64 MiB cap, a
# redirect to another host (never followed), a 401 loop (the exec plugin
# runs twice, no more), exec plugins with endless output (also one that
# ignores SIGPIPE: killed, not waited for).
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/live.sh"

if ! live_have_python; then
	test_skip "hostile server" "python3 or openssl not found"
	test_done
	exit
fi
live_certs
live_applied "$LIVE/sites" seoul-dc1 || exit 1
cp "$SCRATCH/applied.json" "$SCRATCH/applied.keep"

drift() { (cd "$LIVE" && "$GPUSITE" drift --kubeconfig "$SCRATCH/kubeconfig" "$@" sites); }

# elapsed_ms CMD...: run CMD, exit code to $SCRATCH/rc, milliseconds to stdout
elapsed_ms() {
	t0=$(date +%s%N)
	"$@" >"$SCRATCH/out" 2>"$SCRATCH/err"
	echo $? >"$SCRATCH/rc"
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000000))
}

test_expect_success 'slow loris (one byte a second): exit 3 at --timeout 2s, not hours later' '
	live_start healthy --applied "$SCRATCH/applied.keep" --fault trickle=1@/api/v1/nodes &&
	ms=$(elapsed_ms timeout 30 sh -c "cd \"$LIVE\" && \"$GPUSITE\" drift --kubeconfig \"$SCRATCH/kubeconfig\" --timeout 2s sites") &&
	cat "$SCRATCH/err" && echo "$ms ms" &&
	[ "$(cat "$SCRATCH/rc")" -eq 3 ] &&
	grep "timed out after 2s trying to list nodes on https://127.0.0.1:$PORT" "$SCRATCH/err" &&
	[ "$ms" -lt 6000 ]
'
if [ -n "${GPUSITE_SANITIZE:-}${GPUSITE_VALGRIND:-}" ]; then
	test_skip "gzip bomb: peak memory bounded" "sanitizer or valgrind run"
else
test_expect_success 'a gzip bomb (256 MiB once inflated): exit 3 at the 64 MiB cap, memory bounded' '
	if [ ! -x /usr/bin/time ]; then echo "/usr/bin/time missing" >&2; exit 1; fi &&
	live_start healthy --applied "$SCRATCH/applied.keep" --fault gzip-bomb@/api/v1/nodes &&
	(cd "$LIVE" && timeout 60 /usr/bin/time -f "%M" -o "$SCRATCH/rss" \
		"$GPUSITE" drift --kubeconfig "$SCRATCH/kubeconfig" sites >"$SCRATCH/out" 2>"$SCRATCH/err"
	 echo $? >"$SCRATCH/rc") &&
	cat "$SCRATCH/err" &&
	[ "$(cat "$SCRATCH/rc")" -eq 3 ] &&
	grep "the answer to GET https://127.0.0.1:$PORT/api/v1/nodes?limit=500 is larger than 64 MiB; refusing it" "$SCRATCH/err" &&
	kib=$(tail -1 "$SCRATCH/rss") && echo "peak RSS $kib KiB" &&
	test "$kib" -lt 262144
'
fi
test_expect_success 'a redirect to another host is not followed: exit 3 with the 302, one request' '
	live_start healthy --applied "$SCRATCH/applied.keep" --fault "redirect=https://localhost:1@/api/v1/nodes" &&
	expect_exit 3 drift >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	cat "$SCRATCH/err" &&
	grep "cannot list nodes: the API server answered 302" "$SCRATCH/err" &&
	[ "$(grep -c "^GET /api/v1/nodes" "$SCRATCH/requests.log")" -eq 1 ] &&
	! grep -i "localhost" "$SCRATCH/err"
'
test_expect_success 'a 401 loop: the exec plugin runs twice, then exit 3 "rejected the credentials"' '
	live_start healthy --applied "$SCRATCH/applied.keep" --fault unauthorized &&
	rm -f "$SCRATCH/exec-count" &&
	cat >"$SCRATCH/aws" <<EOF &&
#!/bin/sh
echo x >>"$SCRATCH/exec-count"
printf "{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\",\"status\":{\"token\":\"$TOKEN\"}}\n"
EOF
	chmod +x "$SCRATCH/aws" &&
	live_kubeconfig "    exec: {apiVersion: client.authentication.k8s.io/v1, command: $SCRATCH/aws, interactiveMode: Never}" >"$SCRATCH/kubeconfig" &&
	expect_exit 3 drift >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	grep "rejected the credentials of user .$EKS_ARN. (exec plugin .$SCRATCH/aws.) with 401 Unauthorized" "$SCRATCH/err" &&
	[ "$(wc -l <"$SCRATCH/exec-count")" -eq 2 ] &&
	[ "$(wc -l <"$SCRATCH/requests.log")" -eq 2 ] &&
	no_leak "$SCRATCH/out" "$SCRATCH/err"
'
test_expect_success 'an exec plugin with endless output: exit 3 at 1 MiB, at once' '
	live_start healthy --applied "$SCRATCH/applied.keep" &&
	printf "#!/bin/sh\nexec yes\n" >"$SCRATCH/aws" && chmod +x "$SCRATCH/aws" &&
	live_kubeconfig "    exec: {apiVersion: client.authentication.k8s.io/v1, command: $SCRATCH/aws, interactiveMode: Never}" >"$SCRATCH/kubeconfig" &&
	ms=$(elapsed_ms timeout 30 sh -c "cd \"$LIVE\" && \"$GPUSITE\" drift --kubeconfig \"$SCRATCH/kubeconfig\" sites") &&
	[ "$(cat "$SCRATCH/rc")" -eq 3 ] &&
	grep "exec credential plugin .$SCRATCH/aws. of user .$EKS_ARN. printed more than 1 MiB; refusing it" "$SCRATCH/err" &&
	[ "$ms" -lt 5000 ] &&
	! [ -s "$SCRATCH/requests.log" ]
'
test_expect_success 'an exec plugin that ignores SIGPIPE and prints forever: killed, exit 3, no hang' '
	live_start healthy --applied "$SCRATCH/applied.keep" &&
	printf "#!/bin/sh\ntrap \"\" PIPE\nwhile :; do echo xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx 2>/dev/null; done\n" >"$SCRATCH/aws" &&
	chmod +x "$SCRATCH/aws" &&
	live_kubeconfig "    exec: {apiVersion: client.authentication.k8s.io/v1, command: $SCRATCH/aws, interactiveMode: Never}" >"$SCRATCH/kubeconfig" &&
	ms=$(elapsed_ms timeout 60 sh -c "cd \"$LIVE\" && \"$GPUSITE\" drift --kubeconfig \"$SCRATCH/kubeconfig\" --timeout 20s sites") &&
	echo "$ms ms" &&
	[ "$(cat "$SCRATCH/rc")" -eq 3 ] &&
	grep "printed more than 1 MiB; refusing it" "$SCRATCH/err" &&
	[ "$ms" -lt 15000 ]
'

test_done
