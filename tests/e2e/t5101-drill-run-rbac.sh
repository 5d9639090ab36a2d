#!/bin/sh
# t5101: examples/rbac/gpusite-drill.yaml grants exactly the drill's write
# rights (and the one read the read-only role lacks), and a whole drill -
# dry run, run, restore - sends nothing the read-only role and it do not
# allow together.
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/live.sh"

RO="$TEST_TOP/examples/rbac/gpusite-read-only.yaml"
DRILL="$TEST_TOP/examples/rbac/gpusite-drill.yaml"

if ! live_have_python; then
	test_skip "drill RBAC against the requests sent" "python3 or openssl not found"
	test_done
	exit
fi
if ! python3 -c "import yaml" 2>/dev/null; then
	test_skip "drill RBAC against the requests sent" "python3-yaml not found (make deps)"
	test_done
	exit
fi
cd "$SCRATCH"

# rules.py FILE: the ClusterRole's rules as "group resource verb" lines
cat >rules.py <<\EOF
import sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
roles = [d for d in docs if d["kind"] == "ClusterRole"]
binds = [d for d in docs if d["kind"] == "ClusterRoleBinding"]
assert len(roles) == 1 and len(binds) == 1, [d["kind"] for d in docs]
assert binds[0]["roleRef"] == {"apiGroup": "rbac.authorization.k8s.io",
                               "kind": "ClusterRole",
                               "name": roles[0]["metadata"]["name"]}, binds[0]
assert binds[0]["subjects"] == [{"kind": "ServiceAccount", "name": "gpusite",
                                 "namespace": "gpusite"}], binds[0]["subjects"]
for r in roles[0]["rules"]:
    assert set(r) == {"apiGroups", "resources", "verbs"}, r
    for g in r["apiGroups"]:
        for res in r["resources"]:
            for v in r["verbs"]:
                print(g or "core", res, v)
EOF

# needs.py LOG: the "group resource verb" each request needs (discovery
# and /version need none)
cat >needs.py <<\EOF
import sys
from urllib.parse import urlsplit
verbs = {"PATCH": "patch", "POST": "create"}
for line in open(sys.argv[1]):
    method, target = line.split()[:2]
    p = urlsplit(target).path.strip("/").split("/")
    if p[0] == "api" and len(p) > 2:
        group, rest = "core", p[2:]
    elif p[0] == "apis" and len(p) > 3:
        group, rest = p[1], p[3:]
    else:
        continue
    if rest[0] == "namespaces" and len(rest) >= 3:
        rest = rest[2:]
    res = rest[0] + ("/" + rest[2] if len(rest) == 3 else "")
    print(group, res, verbs.get(method) or ("get" if len(rest) >= 2 else "list"))
EOF

test_expect_success 'the drill role grants exactly its rights, to the read-only role'"'"'s account' '
	python3 rules.py "$DRILL" | sort >got &&
	cat >want <<-\EOF2 &&
	authorization.k8s.io selfsubjectaccessreviews create
	core events list
	core nodes patch
	core pods/eviction create
	EOF2
	test_cmp want got &&
	python3 rules.py "$RO" >ro &&
	! grep -e " patch$" -e " create$" -e " update$" -e " delete$" ro
'

test_expect_success 'a whole drill sends only what the two roles allow, and uses every drill right' '
	live_start drill-run-target &&
	d() { "$GPUSITE" drill run seoul-dc1 "$LIVE/sites" --kubeconfig "$SCRATCH/kubeconfig" --interval 0.2 --timeout 5m "$@"; } &&
	rm -f rec.json &&
	d --nodes gpu-a-01 >/dev/null 2>&1 &&
	d --nodes gpu-a-01 --execute --record rec.json >/dev/null 2>&1 &&
	d --nodes gpu-a-01 --restore --execute --record rec.json >/dev/null 2>&1 &&
	grep "\"what\": \"return-complete\"" rec.json &&
	python3 needs.py "$SCRATCH/requests.log" | sort -u >needs &&
	{ python3 rules.py "$RO" && python3 rules.py "$DRILL"; } | sort -u >allowed &&
	comm -23 needs allowed >missing &&
	test_cmp /dev/null missing &&
	python3 rules.py "$DRILL" | sort | comm -23 - needs >unused &&
	test_cmp /dev/null unused
'

test_done
