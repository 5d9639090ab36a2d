#!/bin/sh
# t4004-fleet-objects.sh - hub and spoke: the `objects` and `cluster`
# settings over a two-cluster fleet (testdata/cmp/fleet2: seoul-cluster
# with seoul-dc1 and seoul-dc5, busan-cluster with busan-dc2), run the way
# argocd-cmp-server runs generate (tests/tools/cmp-server.py: parameters
# through ARGOCD_APP_PARAMETERS and PARAM_*, plugin env as ARGOCD_ENV_*).
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

FLEET="$TEST_TOP/testdata/cmp/fleet2"
APP="$TEST_TOP/testdata/cmp/apps/fleet.yaml"
TMPDIR="$SCRATCH"
export TMPDIR

cmp_run() {
	out=$1
	shift
	python3 "$TEST_TOP/tests/tools/cmp-server.py" run \
		--plugin "$TEST_TOP/plugin/plugin.yaml" --repo "${REPO:-$FLEET}" \
		--app "$APP" --gpusite "$GPUSITE" --out "$out" "$@"
}

rc_is() {
	test "$(cat "$1/rc")" = "$2" || { echo "exit $(cat "$1/rc"), want $2"; cat "$1/stderr"; return 1; }
}

# objs DIR: "kind namespace/name" of each object Argo CD reads, sorted.
objs() {
	python3 -c 'import json,sys
for o in sorted(json.load(open(sys.argv[1])), key=lambda o: (o["kind"], o["metadata"].get("namespace", ""), o["metadata"]["name"])):
    print(o["kind"], "%s/%s" % (o["metadata"].get("namespace", ""), o["metadata"]["name"]))' "$1/manifests.json"
}

# sorted_docs FILE...: every object of the streams, one canonical JSON
# line each, sorted (order-free comparison of streams).
sorted_docs() {
	for f in "$@"; do
		python3 "$TEST_TOP/tests/tools/cmp-server.py" split "$f"
	done | python3 -c 'import json,sys
docs = []
dec = json.JSONDecoder()
text = sys.stdin.read()
i = 0
while i < len(text):
    while i < len(text) and text[i].isspace():
        i += 1
    if i >= len(text):
        break
    v, i = dec.raw_decode(text, i)
    docs += v
for line in sorted(json.dumps(d, sort_keys=True) for d in docs):
    print(line)'
}

test_expect_success 'objects cluster, cluster seoul-cluster: only its two sites, no argoproj.io object' '
	cmp_run spoke --param objects=cluster --param-array cluster=seoul-cluster --dump-env spoke.env &&
	rc_is spoke 0 &&
	grep -qx "ARGOCD_APP_PARAMETERS=\[{\"name\":\"objects\",\"string\":\"cluster\"},{\"array\":\[\"seoul-cluster\"\],\"name\":\"cluster\"}\]" spoke.env &&
	grep -qx "PARAM_CLUSTER_0=seoul-cluster" spoke.env &&
	objs spoke >got &&
	cat >want <<-\EOT &&
	ConfigMap kube-system/gpusite-nodeconfig-seoul-dc1
	ConfigMap kube-system/gpusite-nodeconfig-seoul-dc5
	MutatingPolicy /gpusite-seoul-dc1-placement
	MutatingPolicy /gpusite-seoul-dc5-placement
	NodePool /seoul-dc1-gpu-fallback
	NodePool /seoul-dc5-gpu-fallback
	PrometheusRule monitoring/gpusite-seoul-dc1
	PrometheusRule monitoring/gpusite-seoul-dc5
	EOT
	test_cmp want got &&
	! grep -q "argoproj.io" spoke/stdout &&
	! grep -q busan spoke/stdout
'

test_expect_success 'the spoke stream is render of the cluster minus the Argo CD objects, byte for byte' '
	(cd "$FLEET" && "$GPUSITE" render --site seoul-dc1 --site seoul-dc5) >render.yaml &&
	sorted_docs render.yaml | grep -v "\"apiVersion\": \"argoproj.io/" >want &&
	sorted_docs spoke/stdout >got &&
	test_cmp want got &&
	test "$(wc -l <got)" = 8
'

test_expect_success 'cluster as a comma string (plugin env) selects the same sites' '
	cmp_run spoke2 --param objects=cluster --plugin-env CLUSTER=seoul-cluster --dump-env spoke2.env &&
	rc_is spoke2 0 &&
	grep -qx "ARGOCD_ENV_CLUSTER=seoul-cluster" spoke2.env &&
	test_cmp spoke/stdout spoke2/stdout
'

test_expect_success 'objects argocd over the fleet: one Application per cluster, destination.name honoured or defaulted' '
	cmp_run hub --param objects=argocd &&
	rc_is hub 0 &&
	objs hub >got &&
	cat >want <<-\EOT &&
	Application argocd/busan-cluster-nvidia-device-plugin
	Application argocd/seoul-cluster-nvidia-device-plugin
	EOT
	test_cmp want got &&
	python3 -c "import json
d = {o[\"metadata\"][\"name\"]: o[\"spec\"][\"destination\"] for o in json.load(open(\"hub/manifests.json\"))}
assert d[\"seoul-cluster-nvidia-device-plugin\"] == {\"name\": \"seoul-prod\", \"namespace\": \"nvidia-device-plugin\"}, d
assert d[\"busan-cluster-nvidia-device-plugin\"] == {\"name\": \"busan-cluster\", \"namespace\": \"nvidia-device-plugin\"}, d"
'

test_expect_success 'objects argocd: destinationServer is honoured as well' '
	cp -R "$FLEET" withserver &&
	printf "  argocd:\n    destinationServer: https://busan.eks.example.com\n" >>withserver/sites/busan-dc2.yaml &&
	REPO=withserver cmp_run hub2 --param objects=argocd &&
	rc_is hub2 0 &&
	python3 -c "import json
d = {o[\"metadata\"][\"name\"]: o[\"spec\"][\"destination\"] for o in json.load(open(\"hub2/manifests.json\"))}
assert d[\"busan-cluster-nvidia-device-plugin\"] == {\"server\": \"https://busan.eks.example.com\", \"namespace\": \"nvidia-device-plugin\"}, d
assert d[\"seoul-cluster-nvidia-device-plugin\"][\"name\"] == \"seoul-prod\", d"
'

test_expect_success 'objects all for one cluster is the union of cluster and argocd (sorted, byte for byte)' '
	cmp_run all --param-array cluster=seoul-cluster &&
	rc_is all 0 &&
	cmp_run hubseoul --param objects=argocd --param-array cluster=seoul-cluster &&
	rc_is hubseoul 0 &&
	sorted_docs spoke/stdout hubseoul/stdout >union &&
	sorted_docs all/stdout >got &&
	test_cmp union got &&
	test "$(wc -l <got)" = 9 &&
	(cd "$FLEET" && "$GPUSITE" render --site seoul-dc1 --site seoul-dc5) >expect &&
	test_cmp expect all/stdout
'

test_expect_success 'without destinationName or destinationServer, all keeps the in-cluster server' '
	cmp_run allbusan --param objects=all --param-array cluster=busan-cluster &&
	rc_is allbusan 0 &&
	grep -A2 "^  destination:" allbusan/stdout >dst &&
	printf "  destination:\n    server: https://kubernetes.default.svc\n    namespace: nvidia-device-plugin\n" >want &&
	test_cmp want dst &&
	(cd "$FLEET" && "$GPUSITE" render --site busan-dc2) >expect &&
	test_cmp expect allbusan/stdout
'

test_expect_success 'sites of one cluster need no cluster setting' '
	cmp_run two --param-array sites=seoul-dc5,seoul-dc1 --param objects=cluster &&
	rc_is two 0 &&
	test_cmp spoke/stdout two/stdout
'

test_expect_success 'destinationName and destinationServer together are refused by the schema' '
	cp -R "$FLEET" both &&
	printf "    destinationServer: https://seoul.eks.example.com\n" >>both/sites/seoul-dc5.yaml &&
	REPO=both cmp_run both --param objects=argocd &&
	rc_is both 1 &&
	test ! -s both/stdout &&
	grep -Eq "^sites/seoul-dc5\.yaml:[0-9]+:5: error: field .destinationServer. is not allowed in spec\.argocd \[GS003\]$" both/stderr
'

test_expect_success 'sites of one cluster naming different destinationName: GS047' '
	cp -R "$FLEET" differ &&
	sed "s/seoul-prod/seoul-other/" "$FLEET/sites/seoul-dc5.yaml" >differ/sites/seoul-dc5.yaml &&
	REPO=differ cmp_run differ --param objects=argocd &&
	rc_is differ 1 &&
	test ! -s differ/stdout &&
	grep -q "argocd.destinationName .*seoul-other.* differs from .*seoul-prod.*\[GS047\]$" differ/stderr
'

test_expect_success 'render --objects makes the same split as generate, byte for byte' '
	(cd "$FLEET" && "$GPUSITE" render --objects cluster --site seoul-dc1,seoul-dc5) >r-cluster &&
	test_cmp spoke/stdout r-cluster &&
	(cd "$FLEET" && "$GPUSITE" render --objects argocd) >r-argocd &&
	test_cmp hub/stdout r-argocd &&
	(cd "$FLEET" && "$GPUSITE" render --objects all --site busan-dc2) >r-all &&
	test_cmp allbusan/stdout r-all &&
	(cd "$FLEET" && expect_exit 2 "$GPUSITE" render --objects hub) 2>r-bad &&
	grep -qx "gpusite render: unknown --objects .hub.: use cluster, argocd or all" r-bad
'

test_done
