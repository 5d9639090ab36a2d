#!/bin/sh
# t5070: the read-only RBAC of examples/rbac/gpusite-read-only.yaml (and
# the README's table of it) against what the live commands really send.
# `diff --live`, `drift` and `verify-scope --live` run on the test API
# server with every placement engine and both provisioners; each request
# in the server's log is mapped to the RBAC verb and resource it needs.
# Every request must be a GET the role allows, and every rule of the role
# must be used by some request: no missing and no needless permission.
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/live.sh"

RBAC="$TEST_TOP/examples/rbac/gpusite-read-only.yaml"

if ! live_have_python; then
	test_skip "read-only RBAC against the requests sent" "python3 or openssl not found"
	test_done
	exit
fi
if ! python3 -c "import yaml" 2>/dev/null; then
	test_skip "read-only RBAC against the requests sent" "python3-yaml not found (make deps)"
	test_done
	exit
fi

# role.py FILE: the ClusterRole's rules as "group resource verb" lines,
# after checking that the file binds it to its ServiceAccount
cat >"$SCRATCH/role.py" <<\EOF
import sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
kind = lambda k: [d for d in docs if d["kind"] == k]
roles, binds, sas = kind("ClusterRole"), kind("ClusterRoleBinding"), kind("ServiceAccount")
assert len(roles) == 1 and len(binds) == 1 and len(sas) == 1, [d["kind"] for d in docs]
ref, subj, sa = binds[0]["roleRef"], binds[0]["subjects"], sas[0]["metadata"]
assert ref == {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole",
               "name": roles[0]["metadata"]["name"]}, ref
assert subj == [{"kind": "ServiceAccount", "name": sa["name"], "namespace": sa["namespace"]}], subj
assert [d for d in kind("Namespace") if d["metadata"]["name"] == sa["namespace"]], "no namespace"
for r in roles[0]["rules"]:
    assert set(r) == {"apiGroups", "resources", "verbs"}, r
    for g in r["apiGroups"]:
        for res in r["resources"]:
            for v in r["verbs"]:
                print(g or "core", res, v)
EOF

# needs.py LOG...: the "group resource verb" each logged request needs;
# discovery paths need none (system:discovery); anything but GET fails
cat >"$SCRATCH/needs.py" <<\EOF
import sys
from urllib.parse import urlsplit, parse_qs
for log in sys.argv[1:]:
    for line in open(log):
        method, target = line.split()[:2]
        if method != "GET":
            sys.exit("not a GET: " + line.strip())
        url = urlsplit(target)
        p = url.path.strip("/").split("/")
        if p[0] == "api":
            group, rest = "core", p[2:]
        elif p[0] == "apis":
            group, rest = p[1] if len(p) > 1 else "", p[3:]
        else:
            group, rest = "", []
        if not rest:
            continue    # /version, /api, /api/v1, /apis, /apis/G/V: discovery
        if rest[0] == "namespaces" and len(rest) >= 3:
            rest = rest[2:]
        if len(rest) > 2:
            sys.exit("a subresource: " + line.strip())
        q = parse_qs(url.query)
        verb = "get" if len(rest) == 2 else "watch" if q.get("watch") else "list"
        print(group, rest[0], verb)
EOF

sites_variant() {	# sites_variant NAME SED-SCRIPT: a copy of seoul-dc1
	mkdir -p "$SCRATCH/$1/sites" &&
	sed -e "$2" "$LIVE/sites/seoul-dc1.yaml" >"$SCRATCH/$1/sites/seoul-dc1.yaml" &&
	! cmp -s "$LIVE/sites/seoul-dc1.yaml" "$SCRATCH/$1/sites/seoul-dc1.yaml" &&
	"$GPUSITE" validate -q "$SCRATCH/$1/sites"
}

# read_ok CMD...: exit 0 or 1, the cluster was read whatever it found
read_ok() {
	"$@" >/dev/null 2>"$SCRATCH/err"
	rc=$?
	[ "$rc" -le 1 ] || { cat "$SCRATCH/err" >&2; return 1; }
}

# run_all SITES-DIR LOG: the three live commands on the healthy cluster
run_all() {
	live_start healthy --applied "$SCRATCH/applied.json" &&
	read_ok "$GPUSITE" verify-scope --live --kubeconfig "$SCRATCH/kubeconfig" &&
	read_ok "$GPUSITE" drift --kubeconfig "$SCRATCH/kubeconfig" "$1" &&
	read_ok "$GPUSITE" diff --live --kubeconfig "$SCRATCH/kubeconfig" "$1" &&
	cp "$SCRATCH/requests.log" "$2"
}

test_expect_success 'the ClusterRole is bound to the ServiceAccount and grants only get and list' '
	python3 "$SCRATCH/role.py" "$RBAC" >"$SCRATCH/role" &&
	test -s "$SCRATCH/role" &&
	! grep -v " get$" "$SCRATCH/role" | grep -v " list$"
'

test_expect_success 'the live commands on every engine and provisioner (request logs)' '
	live_applied "$LIVE/sites" seoul-dc1 &&
	run_all "$LIVE/sites" "$SCRATCH/log.kyverno" &&
	sites_variant cpol "s/engine: kyverno\$/engine: kyverno-clusterpolicy/;s/^    region: us-west-2\$/&\n    versions: {karpenter: \"1.9\"}/" &&
	run_all "$SCRATCH/cpol/sites" "$SCRATCH/log.cpol" &&
	sites_variant map "s/engine: kyverno\$/engine: mutating-admission-policy/;s/\"1.35\"/\"1.36\"/" &&
	run_all "$SCRATCH/map/sites" "$SCRATCH/log.map" &&
	sites_variant auto "s/provisioner: karpenter/provisioner: auto-mode/;s/expireAfter: 720h/expireAfter: 336h/;/^    nodeImage: /d" &&
	run_all "$SCRATCH/auto/sites" "$SCRATCH/log.auto" &&
	grep "/apis/kyverno.io/v1/clusterpolicies/" "$SCRATCH/log.cpol" &&
	grep "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/nodepools.karpenter.sh" "$SCRATCH/log.cpol" &&
	grep "/apis/admissionregistration.k8s.io/v1/mutatingadmissionpolicies/" "$SCRATCH/log.map" &&
	grep "/apis/eks.amazonaws.com/v1/nodeclasses/" "$SCRATCH/log.auto"
'

test_expect_success 'every request is a GET the ClusterRole allows' '
	python3 "$SCRATCH/role.py" "$RBAC" | sort -u >"$SCRATCH/role" &&
	python3 "$SCRATCH/needs.py" "$SCRATCH"/log.* | sort -u >"$SCRATCH/needs" &&
	test -s "$SCRATCH/needs" &&
	comm -23 "$SCRATCH/needs" "$SCRATCH/role" >"$SCRATCH/missing" &&
	test_cmp /dev/null "$SCRATCH/missing"
'

test_expect_success 'every rule of the ClusterRole is used by some request' '
	comm -13 "$SCRATCH/needs" "$SCRATCH/role" >"$SCRATCH/needless" &&
	test_cmp /dev/null "$SCRATCH/needless"
'

test_expect_success 'the README table lists the same rules' '
	awk "/^#### Read-only RBAC/ { on = 1; next } on && /^#/ { exit } on" \
		"$TEST_TOP/README.md" >"$SCRATCH/section" &&
	python3 - "$SCRATCH/section" >"$SCRATCH/readme" <<-\EOF &&
	import re, sys
	for line in open(sys.argv[1]):
	    cells = [c.strip() for c in line.strip().strip("|").split("|")]
	    if len(cells) < 3 or not cells[0].startswith("`"):
	        continue
	    group = cells[0].strip("`")
	    for res in re.findall(r"`([^`]+)`", cells[1]):
	        for verb in re.findall(r"`([^`]+)`", cells[2]):
	            print(group if group != "\"\"" else "core", res, verb)
	EOF
	sort -u "$SCRATCH/readme" >"$SCRATCH/readme.sorted" &&
	test -s "$SCRATCH/readme.sorted" &&
	test_cmp "$SCRATCH/role" "$SCRATCH/readme.sorted"
'

test_done
