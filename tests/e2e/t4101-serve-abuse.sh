#!/bin/sh
# t4101-serve-abuse.sh - `gpusite serve` under clients that misbehave, over
# loopback (tests/tools/serve-abuse.py): the token is checked before any
# byte of a body is read (256 unauthenticated 1 MiB uploads leave the
# memory as it was), the bodies in flight share one budget (503 beyond),
# slowly trickled headers are cut off while /healthz answers on
# --health-listen, one address holds at most 32 connections, and SIGHUP
# reads the specs again without stopping.
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

ABUSE="python3 $TEST_TOP/tests/tools/serve-abuse.py"
CLIENT="python3 $TEST_TOP/tests/tools/appset-client.py"
TOKEN=abuse-token-0123456789
printf '%s\n' "$TOKEN" >token
cp -R "$TEST_TOP/testdata/serve/fleet/sites" sites

# start_serve LOG ARGS...: as in t4100; sets PID, ADDR and HEALTH.
start_serve() {
	log=$1; shift
	"$GPUSITE" serve --listen 127.0.0.1:0 --health-listen 127.0.0.1:0 \
		--token-file "$SCRATCH/token" "$@" 2>"$log" &
	PID=$!
	i=0
	while ! grep -q "specs:" "$log" 2>/dev/null; do
		i=$((i + 1))
		[ $i -lt 200 ] || { cat "$log"; return 1; }
		kill -0 $PID 2>/dev/null || { cat "$log"; return 1; }
		sleep 0.05
	done
	ADDR=$(sed -n 's/^gpusite serve: listening on //p' "$log")
	HEALTH=$(sed -n 's/^gpusite serve: health on //p' "$log")
}

# hwm_kib: the most memory the server has held (VmHWM, KiB)
hwm_kib() {
	sed -n 's/^VmHWM:[^0-9]*\([0-9]*\) kB$/\1/p' /proc/$PID/status
}

start_serve serve.log --refresh 3600 sites || exit 1
echo $PID >serve.pid

test_expect_success 'no token: 401 before the body is sent (with and without Expect: 100-continue)' '
	$ABUSE early "$ADDR" >out &&
	printf "HTTP/1.1 401 Unauthorized\nHTTP/1.1 401 Unauthorized\n" >expect &&
	test_cmp expect out
'

test_expect_success '256 unauthenticated 1 MiB uploads at once: all 401, memory stays bounded' '
	before=$(hwm_kib) &&
	$ABUSE flood "$ADDR" 256 >out &&
	echo "statuses {'"'"'401'"'"': 256}" >expect && test_cmp expect out &&
	after=$(hwm_kib) &&
	echo "VmHWM $before kB -> $after kB" &&
	test $((after - before)) -lt 16384
'

test_expect_success 'authenticated bodies in flight share a 4 MiB budget: the rest get 503 at once' '
	before=$(hwm_kib) &&
	$ABUSE flood "$ADDR" 16 --token "$TOKEN" --hold 2 >out &&
	cat out && grep -q "'"'"'503'"'"': 1[0-9]" out && grep -q "'"'"'400'"'"': [1-4]" out &&
	after=$(hwm_kib) && echo "VmHWM $before kB -> $after kB" &&
	test $((after - before)) -lt 16384 &&
	grep -q "^gpusite serve: POST /api/v1/getparams.execute 503 " serve.log
'

test_expect_success 'the 33rd connection from one address is refused' '
	$ABUSE per-address "$ADDR" 33 >out &&
	echo "open 32, refused 1" >expect && test_cmp expect out
'

test_expect_success 'slow headers on 270 connections: /healthz answers at once on --health-listen, and they are cut off' '
	$ABUSE slow "$ADDR" 270 "$HEALTH" >out && cat out &&
	grep -qx "opened 270" out &&
	ms=$(sed -n "s/^healthz 200 in \([0-9]*\) ms$/\1/p" out) && test -n "$ms" && test "$ms" -lt 2000 &&
	closed=$(sed -n "s/^closed by the server: \([0-9]*\) of 270 within 16 s$/\1/p" out) &&
	test "$closed" -ge 250 &&
	$CLIENT "http://$HEALTH" --no-token --method GET --path /healthz >out &&
	printf "200\nok\n" >expect && test_cmp expect out &&
	$CLIENT "http://$HEALTH" --token-file token >out && head -n 1 out | grep -qx 404 &&
	$CLIENT "http://$ADDR" --token-file token >out && head -n 1 out | grep -qx 200
'

test_expect_success '80,000 parameters: 400 at once, not minutes of CPU' '
	python3 -c "import json, sys
print(json.dumps({\"input\": {\"parameters\": {str(i): 0 for i in range(80000)}}}))" >many.json &&
	test $(wc -c <many.json) -lt 1048576 &&
	start=$(date +%s) &&
	$CLIENT "http://$ADDR" --token-file token --body-file many.json >out &&
	end=$(date +%s) && test $((end - start)) -lt 5 &&
	head -n 1 out | grep -qx 400 &&
	grep -q "\"input.parameters\\\\\" has 80000 keys: gpusite serve takes at most 1" out
'

test_expect_success 'a key given twice anywhere, a \u0000 in a string: 400 naming it' '
	printf "{\"applicationSetName\": \"a\", \"applicationSetName\": \"b\"}" >dup.json &&
	$CLIENT "http://$ADDR" --token-file token --body-file dup.json >out &&
	head -n 1 out | grep -qx 400 && grep -q "the key '"'"'applicationSetName'"'"' is given twice" out &&
	printf "{\"input\": {\"parameters\": {\"per\": \"site\\\\u0000x\"}}}" >nul.json &&
	grep -q "u0000" nul.json &&
	$CLIENT "http://$ADDR" --token-file token --body-file nul.json >out &&
	head -n 1 out | grep -qx 400 && grep -q "(NUL)" out
'

test_expect_success 'SIGHUP reads the specs again at once and keeps serving' '
	sed -e "s/beta-dc1/beta-dc7/g" -e "s/namespaces: \[inference\]/namespaces: [inference-dc7]/" sites/beta-dc1.yml >sites/beta-dc7.yml &&
	$CLIENT "http://$ADDR" --token-file token --param per=\"site\" >out &&
	! grep -q beta-dc7 out &&
	kill -HUP $PID &&
	i=0 && while ! grep -q "specs: 5 sites" serve.log; do
		i=$((i + 1)) && test $i -lt 100 && sleep 0.1 || return 1
	done &&
	kill -0 $PID &&
	grep -q "^gpusite serve: SIGHUP: reading the token file and the specs again$" serve.log &&
	$CLIENT "http://$ADDR" --token-file token --param per=\"site\" >out &&
	head -n 1 out | grep -qx 200 && grep -q "\"site\":\"beta-dc7\"" out
'

kill -TERM $PID && wait $PID; echo $? >serve.rc
test_expect_success 'SIGTERM after all that: exit 0, never the token in the log' '
	echo 0 >expect && test_cmp expect serve.rc &&
	grep -q "^gpusite serve: stopped$" serve.log && ! grep -q "$TOKEN" serve.log
'

test_done
