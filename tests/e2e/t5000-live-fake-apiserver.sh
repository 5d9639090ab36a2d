#!/bin/sh
# t5000: the test API server is one kubectl accepts: discovery, LIST with
# chunks, field selectors, CRD kinds, GET, Status bodies.
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/live.sh"

KUBECTL=$(live_kubectl)
if ! live_have_python; then
	test_skip "fake API server serves kubectl" "python3 or openssl not found"
	test_done
	exit
fi

test_expect_success 'the server starts on a free port with a fresh CA' '
	live_start healthy && [ -n "$PORT" ] && [ -s "$SCRATCH/tls/ca.crt" ]
'

if [ -z "$KUBECTL" ]; then
	test_skip "kubectl get nodes -o json" "kubectl not found (run make deps)"
	test_skip "kubectl get nodepools.karpenter.sh" "kubectl not found"
	test_skip "kubectl get pods --field-selector" "kubectl not found"
else
	k() { "$KUBECTL" --kubeconfig "$SCRATCH/kubeconfig" --cache-dir "$SCRATCH/kcache" "$@"; }

	test_expect_success 'kubectl get nodes -o json lists the fixture nodes' '
		live_start healthy &&
		k get nodes -o json >"$SCRATCH/nodes.json" &&
		python3 -c "
import json, sys
got = json.load(open(sys.argv[1]))
want = json.load(open(sys.argv[2]))
names = sorted(o[\"metadata\"][\"name\"] for o in got[\"items\"])
exp = sorted(o[\"metadata\"][\"name\"] for o in want[\"objects\"] if o[\"kind\"] == \"Node\")
assert got[\"kind\"] == \"List\", got[\"kind\"]
assert names == exp, (names, exp)
gpu = [o for o in got[\"items\"] if o[\"metadata\"][\"name\"] == \"gpu-a-01\"][0]
assert gpu[\"spec\"][\"taints\"][0][\"key\"] == \"nvidia.com/gpu\"
assert gpu[\"spec\"][\"providerID\"] == \"eks-hybrid:///us-west-2/my-hybrid-cluster/gpu-a-01\"
" "$SCRATCH/nodes.json" "$LIVE/healthy/cluster.json"
	'

	test_expect_success 'kubectl pages through a list with --chunk-size' '
		live_start healthy &&
		k get pods -A -o json --chunk-size 2 >"$SCRATCH/pods.json" &&
		python3 -c "
import json, sys
got = json.load(open(sys.argv[1]))
want = json.load(open(sys.argv[2]))
exp = sorted((o[\"metadata\"][\"namespace\"], o[\"metadata\"][\"name\"]) for o in want[\"objects\"] if o[\"kind\"] == \"Pod\")
names = sorted((o[\"metadata\"][\"namespace\"], o[\"metadata\"][\"name\"]) for o in got[\"items\"])
assert names == exp, (names, exp)
" "$SCRATCH/pods.json" "$LIVE/healthy/cluster.json" &&
		grep -c "continue=" "$SCRATCH/requests.log" >"$SCRATCH/n" &&
		[ "$(cat "$SCRATCH/n")" -ge 3 ]
	'

	test_expect_success 'kubectl get nodepools.karpenter.sh shows the applied pool' '
		live_applied "$LIVE/sites" seoul-dc1 &&
		live_start healthy --applied "$SCRATCH/applied.json" &&
		k get nodepools.karpenter.sh >"$SCRATCH/np.txt" &&
		grep "^seoul-dc1-gpu-fallback " "$SCRATCH/np.txt" &&
		k get nodepool seoul-dc1-gpu-fallback -o jsonpath="{.spec.limits.nvidia\.com/gpu}" >"$SCRATCH/limit" &&
		[ "$(cat "$SCRATCH/limit")" = 16 ]
	'

	test_expect_success 'kubectl get pods -A --field-selector spec.nodeName=gpu-a-01' '
		live_start healthy &&
		k get pods -A --field-selector spec.nodeName=gpu-a-01 -o name >"$SCRATCH/p.txt" &&
		printf "%s\n" pod/llm-server-6f7d9c8b5-abcde pod/nvidia-device-plugin-7xk2q >"$SCRATCH/want" &&
		test_cmp "$SCRATCH/want" "$SCRATCH/p.txt"
	'

	test_expect_success 'kubectl sees a Status body: NotFound names the object' '
		live_start healthy &&
		! k get node no-such-node 2>"$SCRATCH/err" &&
		grep "nodes \"no-such-node\" not found" "$SCRATCH/err"
	'
fi

test_expect_success 'the server refuses a wrong token with 401 Unauthorized' '
	live_start healthy &&
	live_kubeconfig "    token: wrong" >"$SCRATCH/bad" &&
	python3 - "$SERVER" "$SCRATCH/tls/ca.crt" <<PY
import ssl, sys, urllib.request, urllib.error
ctx = ssl.create_default_context(cafile=sys.argv[2])
req = urllib.request.Request(sys.argv[1] + "/api/v1/nodes", headers={"Authorization": "Bearer wrong"})
try:
    urllib.request.urlopen(req, context=ctx)
    sys.exit("accepted a wrong token")
except urllib.error.HTTPError as e:
    assert e.code == 401, e.code
PY
'

test_expect_success 'generated scenario: 5,000 nodes without a stored fixture' '
	live_start large &&
	python3 - "$SERVER" "$SCRATCH/tls/ca.crt" "$TOKEN" <<PY
import json, ssl, sys, urllib.request
ctx = ssl.create_default_context(cafile=sys.argv[2])
n, cont = 0, ""
while True:
    url = sys.argv[1] + "/api/v1/nodes?limit=500" + ("&continue=" + cont if cont else "")
    req = urllib.request.Request(url, headers={"Authorization": "Bearer " + sys.argv[3]})
    body = json.load(urllib.request.urlopen(req, context=ctx))
    n += len(body["items"])
    cont = body["metadata"].get("continue", "")
    if not cont:
        break
assert n == 5000, n
PY
'

test_done
