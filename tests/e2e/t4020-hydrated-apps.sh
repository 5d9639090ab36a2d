#!/bin/sh
# t4020-hydrated-apps: Argo CD without a plugin.  plugin/hydrated/'s
# ApplicationSets (git directory generator over the hydrated branch) and
# plain Applications validate against Argo CD's CRDs, name no plugin, and
# the Applications the generator makes from a real hydrated branch point at
# directories that hold manifest.yaml.  argocd.destinationServer takes an
# EKS cluster ARN: the GPU-stack Application on the branch is addressed by
# it and passes the Application CRD; a malformed ARN is GS003.
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/git.sh"
. "$TEST_TOP/tests/tools/crd.sh"
cd "$SCRATCH" || exit 1

HYDRATED="$TEST_TOP/plugin/hydrated"
AJV_TOOLS="$TEST_TOP/.tools"
ARN="arn:aws:eks:eu-central-1:111122223333:cluster/inference-eu"

# a third cluster named as EKS allows and Kubernetes does not: My_Cluster
git init -q work && (
	cd work &&
	mkdir sites &&
	cp "$GIT_FIXTURES/sites/frankfurt-lab.yaml" "$GIT_FIXTURES/sites/incheon-edge.yaml" sites/ &&
	sed -i "s|^    project: gpu-platform$|&\n    destinationServer: $ARN|" sites/frankfurt-lab.yaml &&
	sed -e "s/^  name: incheon-edge$/  name: seoul-edge/" -e "s/^    name: my-hybrid-cluster$/    name: My_Cluster/" \
		-e "s/- name: a100-racks$/- name: a100-seoul/" -e "s/- name: l40s-racks$/- name: l40s-seoul/" \
		sites/incheon-edge.yaml >sites/seoul-edge.yaml &&
	git_commit one &&
	"$GPUSITE" hydrate --branch hydrated
) >/dev/null

test_expect_success 'an EKS cluster ARN is a destinationServer: the stack Application on the branch is addressed by it' '
	grep -q "destinationServer: $ARN" work/sites/frankfurt-lab.yaml &&
	git -C work show hydrated:clusters/inference-eu/argocd/manifest.yaml >stack.yaml &&
	grep -x "    server: $ARN" stack.yaml &&
	git -C work show hydrated:clusters/my-hybrid-cluster/argocd/manifest.yaml >other.yaml &&
	grep -x "    name: my-hybrid-cluster" other.yaml
'

test_expect_success 'a cluster named My_Cluster: its directory is my-cluster, and the index says so' '
	grep -x "    name: My_Cluster" work/sites/seoul-edge.yaml &&
	git -C work ls-tree -r --name-only hydrated >files &&
	grep -x "clusters/my-cluster/cluster/manifest.yaml" files &&
	! grep -i "My_Cluster" files &&
	git -C work show hydrated:README.md >index &&
	grep -F "| \`My_Cluster\` | \`clusters/my-cluster/\` | \`seoul-edge\` |" index &&
	git -C work show hydrated:clusters/my-cluster/cluster/cluster.json >cj &&
	echo "{\"cluster\": \"My_Cluster\", \"directory\": \"my-cluster\", \"destinationName\": \"My_Cluster\"}" >want &&
	test_cmp want cj
'

test_expect_success 'two clusters on one name (My_Cluster, my-cluster): GS194, exit 1, nothing committed' '
	git clone -q work two &&
	(cd two && git branch -q hydrated origin/hydrated &&
		sed -e "s/^  name: seoul-edge$/  name: busan-edge/" -e "s/^    name: My_Cluster$/    name: my-cluster/" \
			-e "s/-seoul$/-busan/" sites/seoul-edge.yaml >sites/busan-edge.yaml && git_commit two) &&
	before=$(git -C two rev-parse hydrated) &&
	(cd two && expect_exit 1 "$GPUSITE" hydrate --branch hydrated >../out 2>../err) &&
	cat err &&
	grep -x "sites/busan-edge.yaml:13:11: error: cluster .my-cluster. becomes the directory and Application name .my-cluster., as cluster .My_Cluster. does: rename one of them \[GS194\]" err &&
	test "$(git -C two rev-parse hydrated)" = "$before"
'

test_expect_success 'plugin/fleet names Applications the same way (lower case, _ as -)' '
	for f in applicationset-spokes.yaml applicationset-hub.yaml; do
		grep "^      name: .gpusite-\(stack-\)\?{{ .cluster | lower | replace \"_\" \"-\" }}.$" "$TEST_TOP/plugin/fleet/$f" || return 1
	done
'

test_expect_success 'a malformed ARN is refused by the schema (GS003), naming both forms' '
	mkdir bad && cp work/sites/frankfurt-lab.yaml bad/ &&
	sed -i "s|:cluster/inference-eu|:clusters/inference-eu|" bad/frankfurt-lab.yaml &&
	expect_exit 1 "$GPUSITE" validate bad 2>err &&
	grep "error: spec.argocd.destinationServer .* is not a valid API server URL or EKS cluster ARN: .*\[GS003\]" err
'

# the Applications the git directory generator makes from the branch
cat >expand.py <<\EOF
import json, re, subprocess, sys, yaml
repo, files = sys.argv[1], sys.argv[2:]
def git(*args):
    return subprocess.run(["git", "-C", repo] + list(args), check=True,
                          capture_output=True, text=True).stdout
tree = git("ls-tree", "-r", "--name-only", "hydrated").split()
apps = []
for f in files:
    a = yaml.safe_load(open(f))
    gen = a["spec"]["generators"][0]["git"]
    assert gen["revision"] == "hydrated", gen
    # the git files generator: every JSON file the path matches gives its
    # keys, path.path (the file's directory) and path.segments
    pat = gen["files"][0]["path"].replace("*", "[^/]+")
    found = sorted(p for p in tree if re.fullmatch(pat, p))
    assert found, "no file matches " + pat
    for p in found:
        params = json.loads(git("show", "hydrated:" + p))
        d = p.rsplit("/", 1)[0]
        params["path"] = {"path": d, "segments": d.split("/")}
        def value(expr):
            m = re.fullmatch(r" *index \.path\.segments (\d+) *", expr)
            if m:
                return params["path"]["segments"][int(m.group(1))]
            m = re.fullmatch(r" *\.(\w+)(?:\.(\w+))? *", expr)
            assert m, "unsupported template " + expr
            v = params[m.group(1)]
            return v[m.group(2)] if m.group(2) else v
        def fill(n):
            if isinstance(n, dict):
                return {k: fill(v) for k, v in n.items()}
            if isinstance(n, list):
                return [fill(v) for v in n]
            if isinstance(n, str):
                return re.sub(r"\{\{(.*?)\}\}", lambda m: value(m.group(1)), n)
            return n
        t = fill(a["spec"]["template"])
        t["metadata"]["namespace"] = "argocd"
        apps.append({"apiVersion": "argoproj.io/v1alpha1", "kind": "Application", **t})
json.dump(apps, sys.stdout)
EOF

test_expect_success 'the generator makes a spoke and a hub Application per cluster, each reading manifest.yaml on the branch' '
	python3 expand.py work "$HYDRATED/applicationset-spokes.yaml" "$HYDRATED/applicationset-hub.yaml" >apps.json &&
	python3 - apps.json work <<-\EOF
	import json, subprocess, sys
	apps = json.load(open(sys.argv[1]))
	names = sorted(a["metadata"]["name"] for a in apps)
	assert names == ["gpusite-inference-eu", "gpusite-my-cluster", "gpusite-my-hybrid-cluster",
	                 "gpusite-stack-inference-eu", "gpusite-stack-my-cluster",
	                 "gpusite-stack-my-hybrid-cluster"], names
	for a in apps:
	    s = a["spec"]
	    assert "plugin" not in s["source"], a
	    assert s["source"]["targetRevision"] == "hydrated"
	    assert s["source"]["directory"] == {"include": "manifest.yaml"}
	    subprocess.run(["git", "-C", sys.argv[2], "cat-file", "-e",
	                    "hydrated:" + s["source"]["path"] + "/manifest.yaml"], check=True)
	    c = a["metadata"]["labels"]["gpusite.io/cluster"]
	    d = c.lower().replace("_", "-")
	    assert a["metadata"]["name"].endswith("-" + d), a
	    if a["metadata"]["labels"]["gpusite.io/role"] == "spoke":
	        # the destination is the cluster as the specs name it
	        assert s["destination"] == {"name": c}, s
	        assert s["source"]["path"] == "clusters/%s/cluster" % d
	    else:
	        assert s["destination"] == {"server": "https://kubernetes.default.svc", "namespace": "argocd"}
	        assert s["source"]["path"] == "clusters/%s/argocd" % d
	EOF
'

test_expect_success 'the plain Applications read the branch, with no plugin' '
	python3 - "$HYDRATED/applications.yaml" <<-\EOF
	import sys, yaml
	apps = list(yaml.safe_load_all(open(sys.argv[1])))
	assert [a["kind"] for a in apps] == ["Application", "Application"]
	for a in apps:
	    assert "plugin" not in a["spec"]["source"]
	    assert a["spec"]["source"]["targetRevision"] == "hydrated"
	    assert a["spec"]["source"]["path"].startswith("clusters/my-hybrid-cluster/")
	EOF
'

if need_upstream && [ -d "$AJV_TOOLS/node_modules/ajv" ]; then
	test_expect_success 'the ApplicationSets, the Applications they make, the plain ones and the stack ones on the branch pass the CRDs' '
		crd_schema "$UPSTREAM/argocd/applicationset-crd.yaml" appset.schema.json &&
		crd_schema "$UPSTREAM/argocd/application-crd.yaml" app.schema.json &&
		for f in "$HYDRATED"/applicationset-*.yaml; do
			yaml2json "$f" one.json &&
			node "$CRD_VALIDATE" "$AJV_TOOLS" crd appset.schema.json - one.json || return 1
		done &&
		node "$CRD_VALIDATE" "$AJV_TOOLS" crd app.schema.json - apps.json >apps.out &&
		test "$(grep -c ": valid$" apps.out)" = 6 &&
		yaml2json "$HYDRATED/applications.yaml" plain.json &&
		node "$CRD_VALIDATE" "$AJV_TOOLS" crd app.schema.json - plain.json &&
		yaml2json stack.yaml stack.json &&
		node "$CRD_VALIDATE" "$AJV_TOOLS" crd app.schema.json - stack.json &&
		python3 -c "import json
d = json.load(open(\"apps.json\"))
d[0][\"spec\"][\"source\"][\"directory\"][\"include\"] = [\"manifest.yaml\"]
json.dump(d[:1], open(\"bad.json\", \"w\"))" &&
		! node "$CRD_VALIDATE" "$AJV_TOOLS" crd app.schema.json - bad.json >bad.out &&
		grep -q "/spec/source/directory/include must be string" bad.out
	'

	test_expect_success 'the stack Application addressed by ARN passes validate --rendered' '
		"$GPUSITE" validate --rendered --upstream "$UPSTREAM" stack.yaml
	'
else
	test_skip 'the manifests pass the Argo CD CRDs' \
		"../shared/upstream not found (or .tools/node_modules/ajv missing: make deps)"
fi

test_expect_success 'kustomization.yaml lists both ApplicationSets' '
	grep -x "  - applicationset-spokes.yaml" "$HYDRATED/kustomization.yaml" &&
	grep -x "  - applicationset-hub.yaml" "$HYDRATED/kustomization.yaml"
'

test_done
