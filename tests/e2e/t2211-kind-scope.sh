#!/bin/sh
# t2211: which kinds validate --rendered calls namespaced (GS242), checked
# against upstream itself: the Kubernetes 1.35 OpenAPI files saved under
# kubernetes/release-1.35 (a kind is namespaced when its collection path is
# /namespaces/{namespace}/<resource>) and every CRD saved upstream
# (spec.scope).  For each kind, an object with a namespace and one without:
# a namespaced kind is warned about only without one, a cluster-scoped kind
# only with one.  Role, RoleBinding and Job (the charts' own) are checked by
# name as well.
. "$TEST_TOP/tests/lib.sh"

if ! need_upstream; then
	test_skip "kind scopes against the upstream OpenAPI and CRDs" "../shared/upstream not found"
	test_done
	exit
fi

cat >"$SCRATCH/scopes.py" <<'PY'
import glob, json, os, re, subprocess, sys
import yaml

up, gpusite, scratch = sys.argv[1:4]
kinds = {}	# (apiVersion, kind) -> namespaced
for f in glob.glob(os.path.join(up, "kubernetes", "release-1.35", "*_openapi.json")):
    doc = json.load(open(f))
    for path, item in doc.get("paths", {}).items():
        m = re.fullmatch(r"/apis?/(?:[^/]+/)?[^/]+/(namespaces/\{namespace\}/)?([a-z0-9]+)", path)
        gvk = (item.get("post") or {}).get("x-kubernetes-group-version-kind")
        if not m or not gvk:
            continue
        api = gvk["version"] if not gvk["group"] else gvk["group"] + "/" + gvk["version"]
        kinds.setdefault((api, gvk["kind"]), bool(m.group(1)))
crds = 0
for f in glob.glob(os.path.join(up, "**", "*.yaml"), recursive=True):
    try:
        docs = list(yaml.safe_load_all(open(f)))
    except yaml.YAMLError:
        continue	# chart templates
    for d in docs:
        if not isinstance(d, dict) or d.get("kind") != "CustomResourceDefinition":
            continue
        s = d["spec"]
        crds += 1
        if s["group"] == "node.eks.aws":
            continue	# NodeConfig is read by nodeadm on the host, never applied
        for v in s["versions"]:
            kinds[(s["group"] + "/" + v["name"], s["names"]["kind"])] = s["scope"] == "Namespaced"
for need in [("rbac.authorization.k8s.io/v1", "Role", True), ("rbac.authorization.k8s.io/v1", "RoleBinding", True),
             ("batch/v1", "Job", True), ("rbac.authorization.k8s.io/v1", "ClusterRole", False)]:
    kinds.setdefault(need[:2], need[2])
assert len(kinds) > 40 and crds > 10, (len(kinds), crds)

def gs132(api, kind, ns):
    f = os.path.join(scratch, "obj.yaml")
    meta = {"name": "scope-test"}
    if ns:
        meta["namespace"] = "gpu"
    with open(f, "w") as out:
        yaml.safe_dump({"apiVersion": api, "kind": kind, "metadata": meta}, out)
    r = subprocess.run([gpusite, "validate", "--rendered", "--upstream", up, "--format", "json", f],
                       capture_output=True, text=True)
    return [d["message"] for d in json.loads(r.stdout)["diagnostics"]
            if d["rule"] == "GS242" and d["path"] == "metadata.namespace"]

bad = []
for (api, kind), namespaced in sorted(kinds.items()):
    with_ns, without_ns = gs132(api, kind, True), gs132(api, kind, False)
    want_with = [] if namespaced else [f"{kind} is cluster-scoped"]
    want_without = [f"{kind} scope-test has no metadata.namespace"] if namespaced else []
    got_with = [m.split(":")[0] for m in with_ns]
    got_without = [m.split(":")[0] for m in without_ns]
    if got_with != want_with or got_without != want_without:
        bad.append(f"{api} {kind} ({'namespaced' if namespaced else 'cluster'}): with a namespace {got_with}, without {got_without}")
print(len(kinds), "kinds checked")
if bad:
    print("\n".join(bad))
    sys.exit(1)
PY

test_expect_success "every upstream kind's scope is the one GS242 assumes" '
	python3 "$SCRATCH/scopes.py" "$UPSTREAM" "$GPUSITE" "$SCRATCH"
'
test_expect_success "Role, RoleBinding and Job in a namespace: no GS242" '
	cat >"$SCRATCH/rbac.yaml" <<-YAML &&
	apiVersion: rbac.authorization.k8s.io/v1
	kind: Role
	metadata: {name: r, namespace: gpu-operator}
	rules: []
	---
	apiVersion: rbac.authorization.k8s.io/v1
	kind: RoleBinding
	metadata: {name: r, namespace: gpu-operator}
	roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: r}
	---
	apiVersion: batch/v1
	kind: Job
	metadata: {name: j, namespace: gpu-operator}
	spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}}}
	YAML
	expect_exit 0 "$GPUSITE" validate --rendered --upstream "$UPSTREAM" "$SCRATCH/rbac.yaml" 2>"$SCRATCH/rbac.err" &&
	cat "$SCRATCH/rbac.err" && ! grep -q "GS132\|GS242" "$SCRATCH/rbac.err"
'
test_expect_success "a ClusterRole with a namespace is still warned about" '
	printf "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: r, namespace: gpu}\nrules: []\n" \
		>"$SCRATCH/cr.yaml" &&
	expect_exit 0 "$GPUSITE" validate --rendered --upstream "$UPSTREAM" "$SCRATCH/cr.yaml" 2>"$SCRATCH/cr.err" &&
	grep -q "3:.*warning: ClusterRole is cluster-scoped: metadata.namespace \"gpu\" means nothing.*\[GS242\]" "$SCRATCH/cr.err"
'
test_done
