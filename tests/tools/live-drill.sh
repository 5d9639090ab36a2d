# live-drill.sh - helpers for the drill tests against the simulator
# (source after live.sh): `drill` runs `gpusite drill run seoul-dc1` on the
# live sites with the test kubeconfig, `node_unschedulable NODE` prints
# spec.unschedulable of NODE as the server has it now (True or False; the
# server of live_start, also from an earlier test), `writes_sent` the
# number of requests other than GET the server has had, `plan SCENARIO
# SITES EXIT ARGS...` runs `gpusite drill plan seoul-dc1` on SITES (a
# directory of testdata/live, or an absolute path) against SCENARIO with
# what Argo CD would have synced from SITES, expects exit EXIT, and leaves
# $SCRATCH/out and $SCRATCH/err.
drill() {
	"$GPUSITE" drill run seoul-dc1 "$LIVE/sites" --kubeconfig "$SCRATCH/kubeconfig" "$@"
}

node_unschedulable() {
	python3 - "https://127.0.0.1:$(cat "$SCRATCH/port")" "$SCRATCH/tls/ca.crt" "$TOKEN" "$1" <<'PY'
import json, ssl, sys, urllib.request
ctx = ssl.create_default_context(cafile=sys.argv[2])
req = urllib.request.Request(sys.argv[1] + "/api/v1/nodes/" + sys.argv[4],
                             headers={"Authorization": "Bearer " + sys.argv[3]})
print(json.load(urllib.request.urlopen(req, context=ctx))["spec"].get("unschedulable", False))
PY
}

writes_sent() {
	if [ -f "$SCRATCH/requests.log" ]; then
		grep -c -v "^GET " "$SCRATCH/requests.log"
	else
		echo 0
	fi
}

plan() {
	scen=$1
	sites=$2
	code=$3
	shift 3
	case $sites in
	/*) live_applied "$sites" seoul-dc1 >/dev/null 2>&1 ;;
	*) live_applied "$LIVE/$sites" seoul-dc1 >/dev/null 2>&1 ;;
	esac &&
	live_start "$scen" --applied "$SCRATCH/applied.json" &&
	(cd "$LIVE" && expect_exit "$code" "$GPUSITE" drill plan seoul-dc1 \
		--kubeconfig "$SCRATCH/kubeconfig" "$@" "$sites" >"$SCRATCH/out" 2>"$SCRATCH/err") &&
	only_gets &&
	no_leak "$SCRATCH/out" "$SCRATCH/err"
}
