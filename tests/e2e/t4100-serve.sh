#!/bin/sh
# t4100-serve.sh - `gpusite serve`, the ApplicationSet plugin generator,
# against tests/tools/appset-client.py, which sends what Argo CD's
# ApplicationSet controller sends: the token (401 without, 403 wrong),
# bounded and malformed bodies, per cluster and per site over a fleet of a
# multi-document file, a .yml file and a nested folder, a broken spec
# (503, the controller keeps its Applications), 50 requests at once, a
# new commit seen after --refresh, the shipped ApplicationSets' template
# keys in every element, a clean SIGTERM, and a log without the token.
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

CLIENT="python3 $TEST_TOP/tests/tools/appset-client.py"
FLEET="$TEST_TOP/testdata/serve/fleet"
TOKEN=s3cr3t-token-0123456789abcdef
printf '%s\n' "$TOKEN" >token

# start_serve LOG ARGS...: serve in the background on a free port; sets
# PID and BASE once it prints the address it listens on.
start_serve() {
	log=$1; shift
	"$GPUSITE" serve --listen 127.0.0.1:0 --token-file "$SCRATCH/token" "$@" 2>"$log" &
	PID=$!
	i=0
	while ! grep -q "listening on" "$log" 2>/dev/null; do
		i=$((i + 1))
		[ $i -lt 200 ] || { cat "$log"; return 1; }
		kill -0 $PID 2>/dev/null || { cat "$log"; return 1; }
		sleep 0.05
	done
	BASE="http://$(sed -n 's/^gpusite serve: listening on //p' "$log")"
}

# stop_serve: SIGTERM, and the exit code must be 0.
stop_serve() {
	kill -TERM $PID && wait $PID
}

# wait_for PATTERN CLIENT-ARGS...: ask until the answer (status line and
# body, in w.out) matches PATTERN, for up to 6 s.
wait_for() {
	pat=$1; shift
	i=0
	while :; do
		$CLIENT "$BASE" "$@" >w.out 2>&1 && grep -q "$pat" w.out && return 0
		i=$((i + 1))
		[ $i -lt 60 ] || { cat w.out; return 1; }
		sleep 0.1
	done
}

# a Git repository holding the fleet, for --repo
git init -q repo && cp -R "$FLEET/sites" repo/ &&
	git -C repo add . && git -C repo -c user.name=t -c user.email=t@example.com commit -qm fleet

start_serve serve.log --repo "$SCRATCH/repo" --refresh 1 || exit 1

test_expect_success 'the bound address is printed; /healthz answers ok without a token' '
	case $BASE in http://127.0.0.1:[1-9]*) ;; *) echo "$BASE"; exit 1 ;; esac &&
	$CLIENT "$BASE" --no-token --method GET --path /healthz >out &&
	printf "200\nok\n" >expect && test_cmp expect out
'

test_expect_success 'no token: 401 with a message; a wrong token: 403' '
	$CLIENT "$BASE" --no-token >out && head -n 1 out >status && echo 401 >expect &&
	test_cmp expect status && grep -q "no bearer token" out &&
	$CLIENT "$BASE" --token wrong >out && head -n 1 out >status && echo 403 >expect &&
	test_cmp expect status && grep -q "wrong bearer token" out &&
	$CLIENT "$BASE" --token "${TOKEN}x" >out && head -n 1 out | grep -qx 403 &&
	$CLIENT "$BASE" --token "$(printf %s "$TOKEN" | cut -c2-)" >out && head -n 1 out | grep -qx 403
'

test_expect_success 'per cluster (the default): one element per cluster, sorted, every site found' '
	$CLIENT "$BASE" --token-file token >out &&
	cat >expect <<-\EOF &&
	200
	{"output":{"parameters":[{"cluster":"cluster-a","destinationName":"cluster-a","project":"default","alertsNamespace":"monitoring","sites":["alpha-dc1","alpha-dc2"],"path":"sites"},{"cluster":"cluster-b","destinationName":"busan-spoke","project":"default","alertsNamespace":"monitoring","sites":["beta-dc1","gamma-dc1"],"path":"sites"}]}}
	EOF
	test_cmp expect out &&
	$CLIENT "$BASE" --token-file token --param per=\"cluster\" >out2 && test_cmp expect out2
'

test_expect_success 'per site: one element per site with its file (multi-document, .yml, nested)' '
	$CLIENT "$BASE" --token-file token --param per=\"site\" >out &&
	cat >expect <<-\EOF &&
	200
	{"output":{"parameters":[{"site":"alpha-dc1","cluster":"cluster-a","destinationName":"cluster-a","project":"default","alertsNamespace":"monitoring","file":"sites/alpha.yaml"},{"site":"alpha-dc2","cluster":"cluster-a","destinationName":"cluster-a","project":"default","alertsNamespace":"monitoring","file":"sites/alpha.yaml"},{"site":"beta-dc1","cluster":"cluster-b","destinationName":"busan-spoke","project":"default","alertsNamespace":"monitoring","file":"sites/beta-dc1.yml"},{"site":"gamma-dc1","cluster":"cluster-b","destinationName":"busan-spoke","project":"default","alertsNamespace":"monitoring","file":"sites/eu/gamma-dc1.yaml"}]}}
	EOF
	test_cmp expect out
'

test_expect_success 'an unknown per, an unknown parameter: 400 saying what to send' '
	$CLIENT "$BASE" --token-file token --param per=\"node\" >out &&
	printf "400\n{\"message\":\"input parameter '"'"'per'"'"' is '"'"'node'"'"': use \\\\\"cluster\\\\\" (one element per cluster) or \\\\\"site\\\\\"\"}\n" >expect &&
	test_cmp expect out &&
	$CLIENT "$BASE" --token-file token --param pre=\"site\" >out &&
	head -n 1 out | grep -qx 400 && grep -q "unknown input parameter '"'"'pre'"'"'" out &&
	$CLIENT "$BASE" --token-file token --param per=3 >out &&
	head -n 1 out | grep -qx 400 && grep -q "not a string" out
'

test_expect_success 'malformed bodies: 400; an oversized one: 413 (by length or chunked)' '
	printf "{\"input\": {\"parameters\": " >bad1 &&
	$CLIENT "$BASE" --token-file token --body-file bad1 >out &&
	head -n 1 out | grep -qx 400 && grep -q "not JSON" out &&
	printf "[1,2]" >bad2 &&
	$CLIENT "$BASE" --token-file token --body-file bad2 >out &&
	head -n 1 out | grep -qx 400 && grep -q "not a JSON object" out &&
	printf "{\"input\": {\"parameters\": [\"per\"]}}" >bad3 &&
	$CLIENT "$BASE" --token-file token --body-file bad3 >out &&
	head -n 1 out | grep -qx 400 && grep -q "input.parameters" out &&
	printf "{\"input\": {\"parameters\": {\"per\": \"site\", \"per\": \"cluster\"}}}" >bad4 &&
	$CLIENT "$BASE" --token-file token --body-file bad4 >out &&
	head -n 1 out | grep -qx 400 && grep -q "given twice" out &&
	$CLIENT "$BASE" --token-file token --body-bytes 1048577 >out &&
	head -n 1 out | grep -qx 413 &&
	$CLIENT "$BASE" --token-file token --body-bytes 2000000 --chunked >out &&
	head -n 1 out | grep -qx 413 &&
	$CLIENT "$BASE" --token-file token --body-bytes 2000000 --no-token >out &&
	head -n 1 out | grep -qx 401
'

test_expect_success 'other paths 404, other methods 405' '
	$CLIENT "$BASE" --token-file token --path /api/v1/other >out && head -n 1 out | grep -qx 404 &&
	$CLIENT "$BASE" --token-file token --method GET >out && head -n 1 out | grep -qx 405 &&
	$CLIENT "$BASE" --no-token --method POST --path /healthz >out && head -n 1 out | grep -qx 405
'

test_expect_success '50 requests at once: all 200, the same bytes' '
	$CLIENT "$BASE" --token-file token --concurrent 50 >out &&
	head -n 1 out >got && echo "statuses [200], 1 distinct bodies" >expect && test_cmp expect got
'

test_expect_success 'a new commit is served after --refresh; a broken spec answers 503 with the diagnostics' '
	sed -e "s/beta-dc1/beta-dc9/g" -e "s/namespaces: \[inference\]/namespaces: [inference-dc9]/" repo/sites/beta-dc1.yml >repo/sites/beta-dc9.yml &&
	git -C repo add . && git -C repo -c user.name=t -c user.email=t@example.com commit -qm more &&
	wait_for beta-dc9 --token-file token &&
	printf "  bogusField: 1\n" >>repo/sites/beta-dc9.yml &&
	git -C repo add . && git -C repo -c user.name=t -c user.email=t@example.com commit -qm broken &&
	wait_for "^503$" --token-file token && cp w.out out &&
	grep -q "do not validate" out && grep -q "sites/beta-dc9.yml:[0-9]*:[0-9]*: error: .*\[GS003\]" out &&
	$CLIENT "$BASE" --token-file token --param per=\"site\" >out && head -n 1 out | grep -qx 503 &&
	git -C repo rm -q sites/beta-dc9.yml &&
	git -C repo -c user.name=t -c user.email=t@example.com commit -qm fixed &&
	wait_for "^200$" --token-file token &&
	! grep -q beta-dc9 w.out
'

test_expect_success 'a rotated token file: the new token works, the old one no longer' '
	printf "rotated-token-42\n" >token.new && mv token.new token &&
	wait_for "^200$" --token rotated-token-42 &&
	$CLIENT "$BASE" --token "$TOKEN" >out && head -n 1 out | grep -qx 403 &&
	printf "%s\n" "$TOKEN" >token.new && mv token.new token &&
	wait_for "^200$" --token "$TOKEN"
'

for f in "$TEST_TOP"/plugin/fleet/applicationset-*.yaml; do
	[ -f "$f" ] || continue
	n=$(basename "$f")
	test_expect_success "every key the template of plugin/fleet/$n uses is in every element" '
		$CLIENT "$BASE" --token-file token --check-template "$f" >out &&
		grep -q ": 2 elements, keys \[.*cluster.*\]" out
	'
done

# the server was started by this shell: only this shell can wait for it
stop_serve; echo $? >serve.rc
test_expect_success 'SIGTERM: exit 0; one line per request; never the token' '
	echo 0 >expect && test_cmp expect serve.rc &&
	grep -q "^gpusite serve: POST /api/v1/getparams.execute 200 [0-9.]* ms$" serve.log &&
	grep -q "^gpusite serve: GET /healthz 200 " serve.log &&
	grep -q "^gpusite serve: POST /api/v1/getparams.execute 401 " serve.log &&
	grep -q "^gpusite serve: stopped$" serve.log &&
	! grep -q "$TOKEN" serve.log && ! grep -q rotated-token serve.log &&
	! grep -qi "authorization\|bearer " serve.log
'

test_expect_success 'control characters in a logged path are escaped' '
	start_serve esc.log "$FLEET" &&
	python3 -c "import socket,sys
s = socket.create_connection((\"127.0.0.1\", int(sys.argv[1].rsplit(\":\", 1)[1])))
s.sendall(b\"GET /a%1b[31mx HTTP/1.1\\r\\nHost: x\\r\\nConnection: close\\r\\n\\r\\n\")
s.recv(4096)" "$BASE" &&
	stop_serve &&
	grep -q "^gpusite serve: GET /a\\\\x1b\\[31mx 404 " esc.log &&
	! grep -q "$(printf "\\033")" esc.log
'

test_expect_success 'a work-tree PATH is served the same; a broken spec there starts with 503' '
	start_serve wt.log "$FLEET/sites" &&
	$CLIENT "$BASE" --token-file token --param per=\"site\" >out &&
	head -n 1 out | grep -qx 200 && test "$(grep -o "\"site\":" out | wc -l)" -eq 4 &&
	stop_serve &&
	mkdir -p broken && cp "$FLEET/sites/beta-dc1.yml" broken/ && printf "  nope: 1\n" >>broken/beta-dc1.yml &&
	start_serve br.log broken &&
	$CLIENT "$BASE" --token-file token >out && stop_serve &&
	head -n 1 out | grep -qx 503 && grep -q "GS003" out
'

test_expect_success 'a 503 names files from the top, never a directory of the server; every finding has its rule, the message the first' '
	start_serve abs.log "$SCRATCH/broken" &&
	$CLIENT "$BASE" --token-file token >out && stop_serve &&
	head -n 1 out | grep -qx 503 &&
	! grep -q "$SCRATCH" out && ! grep -q "\[\]" out &&
	grep -q "\"message\":\"the site specs do not validate (1 error), the first: broken/beta-dc1.yml:[0-9]*:[0-9]*: error: .*\[GS003\]; the ApplicationSet keeps" out &&
	grep -q "\"diagnostics\":\[\"broken/beta-dc1.yml:" out &&
	start_serve fetch.log --repo "http://127.0.0.1:1/fleet.git" &&
	$CLIENT "$BASE" --token-file token >out && stop_serve &&
	head -n 1 out | grep -qx 503 && ! grep -q "\[\]" out &&
	grep -q "\"message\":\"cannot read the site specs, the first: error: cannot fetch http://127.0.0.1:1/fleet.git: .* \[GS007\]; " out &&
	start_serve gone.log --repo "file://$SCRATCH/gone.git" &&
	$CLIENT "$BASE" --token-file token >out && stop_serve &&
	head -n 1 out | grep -qx 503 && grep -q "cannot fetch gone.git: .*\[GS007\]" out &&
	! grep -q "$SCRATCH" out && ! grep -q "$SCRATCH" gone.log
'

test_expect_success 'argocd.project and alerts.namespace of the sites reach every element (the ApplicationSets use them)' '
	mkdir -p proj && cp -R "$FLEET/sites" proj/ &&
	for f in proj/sites/beta-dc1.yml proj/sites/eu/gamma-dc1.yaml; do
		sed "s/^  argocd:$/  alerts:\n    namespace: gpu-alerts\n  argocd:\n    project: gpu/" "$f" >f.tmp && mv f.tmp "$f" || return 1
	done &&
	grep -q "project: gpu" proj/sites/eu/gamma-dc1.yaml &&
	start_serve proj.log proj/sites &&
	$CLIENT "$BASE" --token-file token >cl.out &&
	$CLIENT "$BASE" --token-file token --param per=\"site\" >site.out &&
	$CLIENT "$BASE" --token-file token --check-template "$TEST_TOP/plugin/fleet/applicationset-hub.yaml" >hub.out &&
	$CLIENT "$BASE" --token-file token --check-template "$TEST_TOP/plugin/fleet/applicationset-spokes.yaml" >spokes.out &&
	stop_serve &&
	grep -q "{\"cluster\":\"cluster-a\",\"destinationName\":\"cluster-a\",\"project\":\"default\",\"alertsNamespace\":\"monitoring\"," cl.out &&
	grep -q "{\"cluster\":\"cluster-b\",\"destinationName\":\"busan-spoke\",\"project\":\"gpu\",\"alertsNamespace\":\"gpu-alerts\"," cl.out &&
	grep -q "{\"site\":\"gamma-dc1\",\"cluster\":\"cluster-b\",\"destinationName\":\"busan-spoke\",\"project\":\"gpu\",\"alertsNamespace\":\"gpu-alerts\"," site.out &&
	grep -q "^gpusite-hub: 2 elements, keys \[.*'"'"'project'"'"'.*\]" hub.out &&
	grep -q "^gpusite-spokes: 2 elements, keys \['"'"'alertsNamespace'"'"',.*'"'"'project'"'"'\]" spokes.out
'

test_expect_success 'a site file with no document (empty or only comments): 503 naming it until it is removed' '
	mkdir -p holed && cp -R "$FLEET/sites" holed/ &&
	printf "# emptied by mistake\n" >holed/sites/beta-dc1.yml &&
	start_serve holed.log --refresh 1 holed/sites &&
	$CLIENT "$BASE" --token-file token >out &&
	head -n 1 out | grep -qx 503 &&
	grep -q "\"message\":\"1 site file holds no document, the first: holed/sites/beta-dc1.yml: warning: the file holds no document .*\[GS173\]; the ApplicationSet keeps its Applications until the file is fixed or removed\"" out &&
	rm holed/sites/beta-dc1.yml &&
	wait_for "^200$" --token-file token && stop_serve &&
	grep -q "\"cluster\":\"cluster-a\"" w.out
'

test_expect_success 'a --repo URL (the libgit2 cache) is fetched again at each refresh' '
	git init -q --bare origin.git && git -C repo push -q "$SCRATCH/origin.git" HEAD:refs/heads/main &&
	git -C origin.git symbolic-ref HEAD refs/heads/main &&
	XDG_CACHE_HOME="$SCRATCH/cache" && export XDG_CACHE_HOME &&
	start_serve url.log --repo "file://$SCRATCH/origin.git" --refresh 1 &&
	$CLIENT "$BASE" --token-file token --param per=\"site\" >out &&
	head -n 1 out >status && echo 200 >expect && test_cmp expect status &&
	! grep -q delta-dc1 out &&
	sed -e "s/beta-dc1/delta-dc1/g" -e "s/namespaces: \[inference\]/namespaces: [inference-delta]/" repo/sites/beta-dc1.yml >repo/sites/delta-dc1.yml &&
	git -C repo add . && git -C repo -c user.name=t -c user.email=t@example.com commit -qm delta &&
	git -C repo push -q "$SCRATCH/origin.git" HEAD:refs/heads/main &&
	wait_for "\"site\":\"delta-dc1\",\"cluster\":\"cluster-b\",\"destinationName\":\"busan-spoke\",\"project\":\"default\",\"alertsNamespace\":\"monitoring\",\"file\":\"sites/delta-dc1.yml\"" \
		--token-file token --param per=\"site\" &&
	stop_serve
'

test_expect_success 'usage errors exit 2; an unusable token file exits 3' '
	expect_exit 2 "$GPUSITE" serve --token-file token 2>err && grep -q "listen ADDR:PORT is required" err &&
	expect_exit 2 "$GPUSITE" serve --listen 127.0.0.1:0 2>err && grep -q "token-file FILE is required" err &&
	expect_exit 2 "$GPUSITE" serve --listen nope --token-file token 2>err && grep -q "is not ADDR:PORT" err &&
	expect_exit 2 "$GPUSITE" serve --listen 127.0.0.1:0 --token-file token --refresh 0 2>err &&
	: >empty && expect_exit 3 "$GPUSITE" serve --listen 127.0.0.1:0 --token-file empty 2>err &&
	grep -q "token file .*empty.*: it is empty" err &&
	expect_exit 3 "$GPUSITE" serve --listen 127.0.0.1:0 --token-file missing 2>err
'

test_done
