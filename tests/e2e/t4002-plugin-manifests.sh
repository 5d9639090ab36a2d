#!/bin/sh
# t4002-plugin-manifests.sh - the files users install: plugin.yaml is a
# ConfigManagementPlugin argocd-cmp-server accepts, the repo-server patch
# and kustomize Component produce a valid Deployment with the sidecar as the
# CMP docs require, the ApplicationSet and the Applications it makes
# validate against Argo CD's CRDs (unknown fields rejected), and the
# Dockerfile's packages and paths match what the binary needs.
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/crd.sh"
cd "$SCRATCH" || exit 1

PLUGIN="$TEST_TOP/plugin"
KUBECTL=$(command -v kubectl || echo "$TEST_TOP/.tools/bin/kubectl-layer")
AJV_TOOLS="$TEST_TOP/.tools"
K8S="$UPSTREAM/kubernetes/release-1.35"

# The validator compiles its schema once for every file it is given (the
# compile is most of a node run): crd_check OUT MODE SCHEMA REF FILE...
# writes its lines, "FILE: N Kind/name: valid" or the errors, to OUT and
# exits 1 when any file has an invalid document.  valid_in OUT FILE: every
# document of FILE is valid (at least one, and no other line for FILE).
crd_check() {
	cc_out=$1
	shift
	node "$CRD_VALIDATE" "$AJV_TOOLS" "$@" >"$cc_out"
}
valid_in() {
	grep -q "^$2: [0-9][0-9]* .*: valid\$" "$1" &&
		! grep "^$2: " "$1" | grep -v ": valid\$"
}

test_expect_success 'plugin.yaml is a named, versioned ConfigManagementPlugin with no discover rule' '
	python3 - "$PLUGIN/plugin.yaml" <<-\EOF
	import sys, yaml
	p = yaml.safe_load(open(sys.argv[1]))
	s = p["spec"]
	assert p["kind"] == "ConfigManagementPlugin", p["kind"]
	assert p["metadata"]["name"] == "gpusite-v0.1" and "version" not in s, p   # Argo CD 4.0 refuses spec.version
	assert s["generate"]["command"] == ["gpusite", "generate"], s["generate"]
	assert not s["generate"].get("args"), "argv only"
	assert s["parameters"]["dynamic"]["command"] == ["gpusite", "parameters"]
	assert "discover" not in s, "a discover rule captures other apps"
	assert "init" not in s
	assert s["preserveFileMode"] is False
	keys = {"name", "title", "tooltip", "required", "itemType", "collectionType", "string", "array", "map"}
	for a in s["parameters"]["static"]:
	    assert set(a) <= keys, a
	    assert a["collectionType"] in ("string", "array", "map"), a
	    assert a["collectionType"] in a, a   # the default is of the announced kind
	    assert a["name"] != "sites", "static entries would hide the dynamic site list"
	for cmd in (s["generate"]["command"], s["parameters"]["dynamic"]["command"]):
	    assert "sh" not in cmd[0], cmd
	EOF
'

test_expect_success 'static announcements say what gpusite parameters announces' '
	mkdir -p empty/sites &&
	cp "$TEST_TOP/testdata/cmp/fleet/sites/seoul-dc1.yaml" empty/sites/ &&
	(cd empty && env -i PATH="$PATH" "$GPUSITE" parameters) >dyn.json &&
	python3 - "$PLUGIN/plugin.yaml" dyn.json <<-\EOF
	import json, sys, yaml
	static = yaml.safe_load(open(sys.argv[1]))["spec"]["parameters"]["static"]
	dyn = {a["name"]: a for a in json.load(open(sys.argv[2]))}
	assert dyn["sites"]["array"] == ["seoul-dc1"], dyn["sites"]
	for a in static:
	    assert a == dyn[a["name"]], (a, dyn[a["name"]])
	EOF
'

if [ -x "$KUBECTL" ]; then
test_expect_success 'kustomize Component: ConfigMap from plugin.yaml and the sidecar on the repo-server' '
	mkdir -p kz/base &&
	cp "$TEST_TOP/testdata/cmp/argocd-repo-server.yaml" kz/base/ &&
	cp -R "$PLUGIN" kz/plugin &&
	printf "namespace: argocd\nresources: [base/argocd-repo-server.yaml]\ncomponents: [plugin]\n" >kz/kustomization.yaml &&
	"$KUBECTL" kustomize kz >kz.yaml &&
	python3 - kz.yaml "$PLUGIN/plugin.yaml" <<-\EOF
	import sys, yaml
	docs = {d["kind"]: d for d in yaml.safe_load_all(open(sys.argv[1]))}
	cm, dep = docs["ConfigMap"], docs["Deployment"]
	assert cm["data"]["plugin.yaml"] == open(sys.argv[2]).read(), "ConfigMap differs from plugin.yaml"
	assert cm["metadata"]["name"].startswith("gpusite-plugin-"), cm["metadata"]
	pod = dep["spec"]["template"]["spec"]
	vols = {v["name"]: v for v in pod["volumes"]}
	assert vols["gpusite-plugin-config"]["configMap"]["name"] == cm["metadata"]["name"]
	assert vols["gpusite-tmp"] == {"name": "gpusite-tmp", "emptyDir": {}}
	for v in ("var-files", "plugins", "tmp", "ssh-known-hosts"):
	    assert v in vols, v            # the repo-server keeps its volumes
	cs = {c["name"]: c for c in pod["containers"]}
	side = cs["gpusite"]
	assert side["command"] == ["/var/run/argocd/argocd-cmp-server"], side
	sc = side["securityContext"]
	assert sc["runAsUser"] == 999 and sc["runAsNonRoot"] is True, sc
	assert sc["readOnlyRootFilesystem"] is True and sc["allowPrivilegeEscalation"] is False, sc
	mounts = {m["mountPath"]: m for m in side["volumeMounts"]}
	assert mounts["/var/run/argocd"]["name"] == "var-files"
	assert mounts["/home/argocd/cmp-server/plugins"]["name"] == "plugins"
	cfg = mounts["/home/argocd/cmp-server/config/plugin.yaml"]
	assert cfg["name"] == "gpusite-plugin-config" and cfg["subPath"] == "plugin.yaml", cfg
	assert mounts["/tmp"]["name"] == "gpusite-tmp"
	# A private /tmp: no other container mounts it, the sidecar not theirs.
	for c in pod["containers"] + pod.get("initContainers", []):
	    if c["name"] != "gpusite":
	        assert all(m["name"] != "gpusite-tmp" for m in c.get("volumeMounts", [])), c["name"]
	assert cs["argocd-repo-server"]["args"] == ["/usr/local/bin/argocd-repo-server"]
	assert pod["initContainers"][0]["command"][-1] == "/var/run/argocd/argocd-cmp-server"
	EOF
'

test_expect_success 'kubectl patch --local with the patch file: same sidecar, no field dropped' '
	"$KUBECTL" patch --local -f "$TEST_TOP/testdata/cmp/argocd-repo-server.yaml" \
		--type strategic --patch-file "$PLUGIN/argocd-repo-server-patch.yaml" -o json >merged.json &&
	python3 - merged.json "$PLUGIN/argocd-repo-server-patch.yaml" kz.yaml <<-\EOF
	import json, sys, yaml
	merged = json.load(open(sys.argv[1]))["spec"]["template"]["spec"]
	patch = yaml.safe_load(open(sys.argv[2]))["spec"]["template"]["spec"]
	side = [c for c in merged["containers"] if c["name"] == "gpusite"][0]
	assert side == patch["containers"][0], "kubectl changed or dropped fields of the sidecar"
	for v in patch["volumes"]:
	    assert v in merged["volumes"], v
	kz = [d for d in yaml.safe_load_all(open(sys.argv[3])) if d["kind"] == "Deployment"][0]
	kside = [c for c in kz["spec"]["template"]["spec"]["containers"] if c["name"] == "gpusite"][0]
	assert kside == side, "kustomize and kubectl patch disagree"
	EOF
'
else
test_skip 'kustomize Component: ConfigMap from plugin.yaml and the sidecar on the repo-server' \
	"no kubectl on PATH nor .tools/bin/kubectl-layer (make deps)"
test_skip 'kubectl patch --local with the patch file: same sidecar, no field dropped' \
	"no kubectl on PATH nor .tools/bin/kubectl-layer (make deps)"
fi

if [ -x "$KUBECTL" ] && need_upstream && [ -d "$K8S" ] && [ -d "$AJV_TOOLS/node_modules/ajv" ]; then
test_expect_success 'the patched Deployment and the ConfigMap validate against the Kubernetes 1.35 OpenAPI' '
	python3 -c "import json,sys,yaml
d = [x for x in yaml.safe_load_all(open(\"kz.yaml\"))]
json.dump([x for x in d if x[\"kind\"] == \"Deployment\"] + [json.load(open(\"merged.json\"))], open(\"dep.json\", \"w\"))
json.dump([x for x in d if x[\"kind\"] == \"ConfigMap\"], open(\"cm.json\", \"w\"))" &&
	node "$CRD_VALIDATE" "$AJV_TOOLS" k8s "$K8S/api__v1_openapi.json" io.k8s.api.core.v1.ConfigMap cm.json &&
	python3 -c "import json
d = json.load(open(\"dep.json\"))
d[0][\"spec\"][\"template\"][\"spec\"][\"containers\"][0][\"securityContxt\"] = {}
json.dump(d[:1], open(\"dep-bad.json\", \"w\"))" &&
	expect_exit 1 crd_check dep.out k8s "$K8S/apis__apps__v1_openapi.json" io.k8s.api.apps.v1.Deployment \
		dep.json dep-bad.json &&
	valid_in dep.out dep.json &&
	grep -q "^dep-bad.json: .*must NOT have additional properties" dep.out
'
else
test_skip 'the patched Deployment and the ConfigMap validate against the Kubernetes 1.35 OpenAPI' \
	"needs ../shared/upstream, kubectl and .tools/node_modules/ajv (make deps)"
fi

if need_upstream && [ -d "$AJV_TOOLS/node_modules/ajv" ]; then
test_expect_success 'the ApplicationSet validates against Argo CD ApplicationSet CRD; a broken one does not' '
	crd_schema "$UPSTREAM/argocd/applicationset-crd.yaml" appset.schema.json &&
	yaml2json "$PLUGIN/applicationset.yaml" appset.json &&
	python3 -c "import json
d = json.load(open(\"appset.json\"))
d[0][\"spec\"][\"template\"][\"spec\"][\"source\"][\"plugin\"][\"parameter\"] = []
json.dump(d, open(\"appset-bad.json\", \"w\"))" &&
	expect_exit 1 crd_check appset.out crd appset.schema.json - appset.json appset-bad.json &&
	valid_in appset.out appset.json &&
	grep -q "^appset-bad.json: .*/spec/template/spec/source/plugin must NOT have additional properties" appset.out
'

test_expect_success 'the Applications the ApplicationSet makes, and the test Applications, validate against the Application CRD' '
	crd_schema "$UPSTREAM/argocd/application-crd.yaml" app.schema.json &&
	python3 "$TEST_TOP/tests/tools/cmp-server.py" expand \
		--appset "$PLUGIN/applicationset.yaml" --repo "$TEST_TOP/testdata/cmp/fleet" >apps.json &&
	test "$(python3 -c "import json; print(len(json.load(open(\"apps.json\"))))")" = 3 &&
	mkdir -p testapps &&
	for f in "$TEST_TOP"/testdata/cmp/apps/*.yaml; do
		yaml2json "$f" "testapps/$(basename "$f" .yaml).json" || exit 1
	done &&
	python3 -c "import json
d = json.load(open(\"apps.json\"))
d[0][\"spec\"][\"source\"][\"plugin\"][\"parameters\"][0][\"array\"] = \"busan-dc2\"
json.dump(d[:1], open(\"app-bad.json\", \"w\"))" &&
	expect_exit 1 crd_check apps.out crd app.schema.json - apps.json testapps/*.json app-bad.json &&
	valid_in apps.out apps.json &&
	test "$(grep -c "^apps.json: [0-9]* .*: valid$" apps.out)" = 3 &&
	for f in testapps/*.json; do
		valid_in apps.out "$f" || exit 1
	done &&
	grep -q "^app-bad.json: .*/spec/source/plugin/parameters/0/array must be array" apps.out
'
else
test_skip 'the ApplicationSet validates against Argo CD ApplicationSet CRD; a broken one does not' \
	"../shared/upstream not found (or .tools/node_modules/ajv missing: make deps)"
test_skip 'the Applications the ApplicationSet makes, and the test Applications, validate against the Application CRD' \
	"../shared/upstream not found (or .tools/node_modules/ajv missing: make deps)"
fi

test_expect_success 'the ApplicationSet names the plugin as plugin.yaml defines it and passes the site' '
	python3 - "$PLUGIN/applicationset.yaml" "$PLUGIN/plugin.yaml" <<-\EOF
	import sys, yaml
	a = yaml.safe_load(open(sys.argv[1]))
	p = yaml.safe_load(open(sys.argv[2]))
	s = a["spec"]
	assert s["goTemplate"] is True and "missingkey=error" in s["goTemplateOptions"], s
	assert s["generators"][0]["git"]["files"] == [{"path": "sites/*.yaml"}]
	src = s["template"]["spec"]["source"]
	assert src["plugin"]["name"] == p["metadata"]["name"]
	assert src["plugin"]["parameters"] == [{"name": "sites", "array": ["{{ .metadata.name }}"]}]
	assert src["path"] == "sites"
	assert s["template"]["metadata"]["annotations"]["argocd.argoproj.io/manifest-generate-paths"] == "."
	assert src["repoURL"] == s["generators"][0]["git"]["repoURL"]
	t = s["template"]["spec"]
	assert t["project"] == "{{ dig \"spec\" \"argocd\" \"project\" \"default\" . }}", t["project"]
	assert t["destination"]["namespace"] == \
	    "{{ dig \"spec\" \"alerts\" \"namespace\" \"monitoring\" . }}", t["destination"]
	assert t["syncPolicy"]["syncOptions"] == ["CreateNamespace=true"]
	EOF
'

test_expect_success 'Dockerfile: builds with make, installs gpusite on PATH, runs as uid 999' '
	df="$PLUGIN/Dockerfile" &&
	grep -q "^FROM debian:12 AS build$" "$df" &&
	grep -q "^FROM debian:12-slim$" "$df" &&
	grep -q "make O=/out" "$df" &&
	grep -q "^COPY --from=build /out/gpusite /usr/local/bin/gpusite$" "$df" &&
	test "$(grep "^USER " "$df" | tail -n 1)" = "USER 999" &&
	python3 -c "import yaml,sys; c=yaml.safe_load(open(sys.argv[1]))[\"spec\"][\"generate\"][\"command\"][0]; assert c == \"gpusite\", c" "$PLUGIN/plugin.yaml"
'

# apt_list STAGE: the packages `apt-get install` names in Dockerfile stage
# 1 (build) or 2 (runtime).
apt_list() {
	awk -v want="$1" '/^FROM /{stage++} stage==want' "$PLUGIN/Dockerfile" |
		sed -n "/apt-get install/,/rm -rf/p" | tr " \\\\" "\n\n" |
		grep -E "^[a-z0-9][a-z0-9.+-]+$" | grep -vxE "apt-get|install|rm|rf|-y|--no-install-recommends" | sort -u
}

if command -v apt-cache >/dev/null && grep -q "bookworm" /etc/os-release 2>/dev/null; then
test_expect_success 'Dockerfile: every apt package exists in Debian 12' '
	apt_list 1 >build.pkgs && apt_list 2 >run.pkgs &&
	grep -qx libgit2-1.5 run.pkgs && grep -qx libgit2-dev build.pkgs &&
	# one apt-cache for all (it reads the whole package cache each time):
	# a section "NAME:" per package it knows, with its Candidate line
	apt-cache policy $(cat build.pkgs run.pkgs) >policy 2>/dev/null &&
	for p in $(cat build.pkgs run.pkgs); do
		awk -v p="$p" "\$0 == p \":\" { s = 1; next } /^[^ ]/ { s = 0 }
			s && /^  Candidate: [0-9]/ { f = 1 } END { exit !f }" policy ||
		{ echo "no Debian 12 package $p"; exit 1; }
	done
'

test_expect_success 'Dockerfile: the runtime stage has every library the binary loads, the build stage every -dev' '
	apt_list 1 >build.pkgs && apt_list 2 >run.pkgs &&
	bin=${GPUSITE_BINARY:-$GPUSITE} &&	# make valgrind: $GPUSITE is a wrapper
	readelf -d "$bin" | sed -n "s/.*NEEDED.*\[\(.*\)\]/\1/p" >needed &&
	test -s needed &&
	while read -r so; do
		case $so in libc.so.*|libm.so.*) continue ;; esac &&
		# the runtimes of `make asan` builds are never shipped
		case $so in libasan.so.*|libubsan.so.*|liblsan.so.*) continue ;; esac &&
		lib=$(ldd "$bin" | awk -v so="$so" "\$1 == so { print \$3 }") &&
		pkg=$(dpkg -S "$lib" 2>/dev/null || dpkg -S "$(readlink -f "$lib")" 2>/dev/null || dpkg -S "/usr$lib") &&
		pkg=${pkg%%:*} &&
		grep -qx "$pkg" run.pkgs || { echo "$so comes from $pkg, not in the runtime stage"; exit 1; }
	done <needed &&
	for m in $(sed -n "s/^PKGS *:= *//p" "$TEST_TOP/Makefile"); do
		pc="$(pkg-config --variable=pcfiledir "$m")/$m.pc" &&
		pkg=$(dpkg -S "$pc" 2>/dev/null || dpkg -S "$(readlink -f "$pc")") &&
		pkg=${pkg%%:*} &&
		grep -qx "$pkg" build.pkgs || { echo "$m.pc comes from $pkg, not in the build stage"; exit 1; }
	done
'
else
test_skip 'Dockerfile: every apt package exists in Debian 12' "no apt-cache or not Debian 12 here"
test_skip 'Dockerfile: the runtime stage has every library the binary loads, the build stage every -dev' \
	"no apt-cache or not Debian 12 here"
fi

# --- hub and spokes: plugin/fleet (gpusite serve and its ApplicationSets) ---
FLEETDIR="$PLUGIN/fleet"

if [ -x "$KUBECTL" ]; then
test_expect_success 'kubectl kustomize plugin/fleet: serve Deployment locked down, token Secret mounted as a directory, ConfigMap names it' '
	"$KUBECTL" kustomize "$FLEETDIR" >fleet.yaml &&
	python3 - fleet.yaml <<-\EOF
	import sys, yaml
	docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
	by = {(d["kind"], d["metadata"]["name"]): d for d in docs}
	assert sorted(by) == [("ApplicationSet", "gpusite-hub"), ("ApplicationSet", "gpusite-spokes"),
	                      ("ConfigMap", "gpusite-serve-plugin"), ("Deployment", "gpusite-serve"),
	                      ("Service", "gpusite-serve")], sorted(by)
	assert all(d["metadata"]["namespace"] == "argocd" for d in docs)
	dep = by[("Deployment", "gpusite-serve")]
	pod = dep["spec"]["template"]["spec"]
	assert pod["securityContext"]["runAsNonRoot"] is True and pod["securityContext"]["runAsUser"] != 0
	assert pod["automountServiceAccountToken"] is False
	(c,) = pod["containers"]
	sc = c["securityContext"]
	assert sc["readOnlyRootFilesystem"] is True and sc["allowPrivilegeEscalation"] is False, sc
	assert sc["capabilities"]["drop"] == ["ALL"] and not sc.get("privileged"), sc
	assert c["resources"]["requests"] and c["resources"]["limits"]["memory"], c["resources"]
	assert c["command"] == ["gpusite", "serve"], c["command"]
	args = c["args"]
	opt = {args[i]: args[i + 1] for i in range(len(args) - 1) if args[i].startswith("--")}
	assert set(opt) == {"--listen", "--health-listen", "--token-file", "--repo", "--refresh"}, opt
	port = int(opt["--listen"].rsplit(":", 1)[1])
	assert [p["containerPort"] for p in c["ports"] if p["name"] == "http"] == [port]
	# the probes go to the health server of its own, which the Service does not expose
	hport = int(opt["--health-listen"].rsplit(":", 1)[1])
	assert hport != port
	assert [p["containerPort"] for p in c["ports"] if p["name"] == "health"] == [hport]
	for probe in ("readinessProbe", "livenessProbe"):
	    assert c[probe]["httpGet"]["path"] == "/healthz", c[probe]
	    assert c[probe]["httpGet"]["port"] == "health"
	svc = by[("Service", "gpusite-serve")]
	assert [p["targetPort"] for p in svc["spec"]["ports"]] == ["http"], svc["spec"]["ports"]
	vols = {v["name"]: v for v in pod["volumes"]}
	mounts = {m["name"]: m for m in c["volumeMounts"]}
	tok = [n for n, v in vols.items() if "secret" in v]
	assert len(tok) == 1, tok
	tv, tm = vols[tok[0]]["secret"], mounts[tok[0]]
	assert "subPath" not in tm, "a subPath mount never sees a rotated Secret"
	(item,) = tv["items"]
	assert opt["--token-file"] == tm["mountPath"] + "/" + item["path"], (opt, tm, item)
	for m in c["volumeMounts"]:
	    if m["name"] != tok[0]:
	        assert "emptyDir" in vols[m["name"]], m   # the only writable places
	env = {e["name"]: e for e in c["env"]}
	assert env["XDG_CACHE_HOME"]["value"] in [m["mountPath"] for m in c["volumeMounts"]]
	assert "value" not in env["GPUSITE_GIT_TOKEN"], "a token value in a manifest"
	cm = by[("ConfigMap", "gpusite-serve-plugin")]["data"]
	assert cm["token"] == "$%s:%s" % (tv["secretName"], item["key"]), (cm, tv)
	svc = by[("Service", "gpusite-serve")]
	assert svc["spec"]["selector"] == dep["spec"]["selector"]["matchLabels"]
	(sp,) = svc["spec"]["ports"]
	assert cm["baseUrl"] == "http://%s.argocd.svc:%d" % (svc["metadata"]["name"], sp["port"]), cm
	assert sp["targetPort"] == "http"
	assert int(cm["requestTimeout"]) >= 1
	for n in ("gpusite-spokes", "gpusite-hub"):
	    g = by[("ApplicationSet", n)]["spec"]["generators"][0]["plugin"]
	    assert g["configMapRef"]["name"] == "gpusite-serve-plugin", g
	EOF
'
else
test_skip 'kubectl kustomize plugin/fleet: serve Deployment locked down, token Secret mounted as a directory, ConfigMap names it' \
	"no kubectl on PATH nor .tools/bin/kubectl-layer (make deps)"
fi

if [ -x "$KUBECTL" ] && need_upstream && [ -d "$K8S" ] && [ -d "$AJV_TOOLS/node_modules/ajv" ]; then
test_expect_success 'plugin/fleet: Deployment, Service and ConfigMap validate against the Kubernetes 1.35 OpenAPI' '
	python3 -c "import json,yaml
d = [x for x in yaml.safe_load_all(open(\"fleet.yaml\")) if x]
for k in (\"Deployment\", \"Service\", \"ConfigMap\"):
    json.dump([x for x in d if x[\"kind\"] == k], open(\"fleet-%s.json\" % k, \"w\"))" &&
	node "$CRD_VALIDATE" "$AJV_TOOLS" k8s "$K8S/apis__apps__v1_openapi.json" io.k8s.api.apps.v1.Deployment fleet-Deployment.json &&
	node "$CRD_VALIDATE" "$AJV_TOOLS" k8s "$K8S/api__v1_openapi.json" io.k8s.api.core.v1.Service fleet-Service.json &&
	node "$CRD_VALIDATE" "$AJV_TOOLS" k8s "$K8S/api__v1_openapi.json" io.k8s.api.core.v1.ConfigMap fleet-ConfigMap.json
'
else
test_skip 'plugin/fleet: Deployment, Service and ConfigMap validate against the Kubernetes 1.35 OpenAPI' \
	"needs ../shared/upstream, kubectl and .tools/node_modules/ajv (make deps)"
fi

if need_upstream && [ -d "$AJV_TOOLS/node_modules/ajv" ]; then
test_expect_success 'plugin/fleet: both ApplicationSets validate against the CRD; the Applications they make against the Application CRD' '
	crd_schema "$UPSTREAM/argocd/applicationset-crd.yaml" appset.schema.json &&
	crd_schema "$UPSTREAM/argocd/application-crd.yaml" app.schema.json &&
	for f in "$FLEETDIR"/applicationset-*.yaml; do
		yaml2json "$f" "fleet-$(basename "$f" .yaml).json" || exit 1
	done &&
	crd_check fleet-appsets.out crd appset.schema.json - fleet-applicationset-*.json &&
	for f in fleet-applicationset-*.json; do
		valid_in fleet-appsets.out "$f" || exit 1
	done &&
	python3 - "$FLEETDIR" >fleet-apps.json <<-\EOF &&
	import glob, json, re, sys, yaml
	# the elements gpusite serve answers per cluster (t4100 checks the keys)
	elems = [{"cluster": "seoul-cluster", "destinationName": "seoul-cluster",
	          "project": "default", "alertsNamespace": "monitoring",
	          "sites": ["seoul-dc1"], "path": "sites"},
	         {"cluster": "busan-cluster", "destinationName": "busan-spoke",
	          "project": "gpu", "alertsNamespace": "gpu-alerts",
	          "sites": ["busan-dc2", "busan-dc3"], "path": "sites"}]
	def fill(n, e):
	    if isinstance(n, dict):
	        return {k: fill(v, e) for k, v in n.items()}
	    if isinstance(n, list):
	        return [fill(v, e) for v in n]
	    if isinstance(n, str):
	        return re.sub(r"\{\{ *\.(\w+) *\}\}", lambda m: str(e[m.group(1)]), n)
	    return n
	apps = []
	for f in sorted(glob.glob(sys.argv[1] + "/applicationset-*.yaml")):
	    a = yaml.safe_load(open(f))
	    for e in elems:
	        t = fill(a["spec"]["template"], e)
	        t["metadata"]["namespace"] = "argocd"
	        apps.append({"apiVersion": "argoproj.io/v1alpha1", "kind": "Application", **t})
	# the project and the alerts namespace come from the element
	assert [a["spec"]["project"] for a in apps] == ["default", "gpu"] * 2, apps
	spokes = [a for a in apps if a["metadata"]["labels"]["gpusite.io/role"] == "spoke"]
	assert [a["spec"]["destination"]["namespace"] for a in spokes] == ["monitoring", "gpu-alerts"]
	assert all("CreateNamespace=true" in a["spec"]["syncPolicy"]["syncOptions"] for a in spokes)
	json.dump(apps, sys.stdout)
	EOF
	node "$CRD_VALIDATE" "$AJV_TOOLS" crd app.schema.json - fleet-apps.json >fleet-apps.out &&
	test "$(grep -c ": valid$" fleet-apps.out)" = 4
'
else
test_skip 'plugin/fleet: both ApplicationSets validate against the CRD; the Applications they make against the Application CRD' \
	"../shared/upstream not found (or .tools/node_modules/ajv missing: make deps)"
fi

test_expect_success 'plugin/fleet: per cluster a spoke Application (objects: cluster) and a hub one (objects: argocd)' '
	python3 - "$FLEETDIR" "$PLUGIN/plugin.yaml" <<-\EOF
	import sys, yaml
	p = yaml.safe_load(open(sys.argv[2]))
	want = {"gpusite-spokes": ("cluster", {"name": "{{ .destinationName }}",
	                                       "namespace": "{{ .alertsNamespace }}"}),
	        "gpusite-hub": ("argocd", {"server": "https://kubernetes.default.svc", "namespace": "argocd"})}
	names = set()
	for role in ("spokes", "hub"):
	    a = yaml.safe_load(open("%s/applicationset-%s.yaml" % (sys.argv[1], role)))
	    s = a["spec"]
	    objects, dest = want[a["metadata"]["name"]]
	    assert s["goTemplate"] is True and "missingkey=error" in s["goTemplateOptions"], s
	    (g,) = s["generators"]
	    assert g["plugin"]["input"]["parameters"] == {"per": "cluster"}, g
	    t = s["template"]
	    src = t["spec"]["source"]
	    assert src["plugin"]["name"] == p["metadata"]["name"]
	    assert src["plugin"]["parameters"] == [{"name": "objects", "string": objects},
	                                           {"name": "cluster", "string": "{{ .cluster }}"}], src
	    assert src["path"] == "{{ .path }}"
	    assert t["spec"]["destination"] == dest, t["spec"]["destination"]
	    # the cluster name as an object name (DNS-1123), as the directories of hydrate
	    assert "{{ .cluster | lower | replace \"_\" \"-\" }}" in t["metadata"]["name"], t["metadata"]
	    assert t["metadata"]["labels"]["gpusite.io/cluster"] == "{{ .cluster }}"
	    # never a hard-coded project: argocd.project of the sites
	    assert t["spec"]["project"] == "{{ .project }}", t["spec"]["project"]
	    if objects == "cluster":
	        assert t["spec"]["syncPolicy"]["syncOptions"] == ["CreateNamespace=true"]
	    names.add(t["metadata"]["name"])
	assert len(names) == 2, names   # the two Applications of a cluster never collide
	EOF
'

test_expect_success 'docs/argocd-fleet.svg is well-formed SVG showing the hub and its spokes' '
	python3 - "$TEST_TOP/docs/argocd-fleet.svg" <<-\EOF
	import sys, xml.etree.ElementTree as ET
	root = ET.parse(sys.argv[1]).getroot()
	assert root.tag == "{http://www.w3.org/2000/svg}svg", root.tag
	text = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
	for w in ("hub", "spoke", "gpusite serve", "objects: cluster", "objects: argocd"):
	    assert w in text, w
	EOF
'

test_done
