#!/bin/sh
# t4003-shared-objects.sh - one owner per shared object in Argo CD.  The
# example fleet (testdata/fleet) has two sites in one cluster (incheon-edge
# and seoul-dc1 in my-hybrid-cluster) and one alone (frankfurt-lab in
# inference-eu).  With plugin/applicationset.yaml making one Application per
# site, the cluster's GPU stack Application must be carried by exactly one
# of them: the cluster's site with the smallest metadata.name (incheon-edge),
# rendered from all of the cluster's sites.  Runs go through the CMP
# emulator (tests/tools/cmp-server.py) exactly as in t4001.
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

FLEET="$TEST_TOP/testdata/fleet"
APPSET="$TEST_TOP/plugin/applicationset.yaml"
CMP="$TEST_TOP/tests/tools/cmp-server.py"
STACK=my-hybrid-cluster-nvidia-device-plugin
TMPDIR="$SCRATCH"
export TMPDIR

# cmp_run OUT APPS APP-NAME [emulator options...]; REPO overrides the repository.
cmp_run() {
	out=$1 apps=$2 name=$3
	shift 3
	python3 "$CMP" run --plugin "$TEST_TOP/plugin/plugin.yaml" --repo "${REPO:-$FLEET}" \
		--app "$apps" --app-name "$name" --gpusite "$GPUSITE" --out "$out" "$@"
}

rc_is() {
	test "$(cat "$1/rc")" = "$2" || { echo "exit $(cat "$1/rc"), want $2"; cat "$1/stderr"; return 1; }
}

# apps_with OUT [NAME=STRING...]: the ApplicationSet's Applications over
# the repository, each with these extra plugin parameters.
apps_with() {
	out=$1
	shift
	python3 "$CMP" expand --appset "$APPSET" --repo "${REPO:-$FLEET}" >"$out.base" &&
	python3 - "$out.base" "$@" >"$out" <<-\EOF
	import json, sys
	apps = json.load(open(sys.argv[1]))
	for a in apps:
	    params = a["spec"]["source"]["plugin"]["parameters"]
	    for kv in sys.argv[2:]:
	        name, value = kv.split("=", 1)
	        params.append({"name": name, "string": value})
	json.dump(apps, sys.stdout)
	EOF
}

# has DIR KIND NAME: how many objects of KIND named NAME the run printed.
has() {
	python3 -c 'import json,sys
print(sum(1 for o in json.load(open(sys.argv[1])) if o["kind"] == sys.argv[2] and o["metadata"]["name"] == sys.argv[3]))' "$1/manifests.json" "$2" "$3"
}

# one DIR NAME: that object alone, as canonical JSON.
one() {
	python3 -c 'import json,sys
objs = [o for o in json.load(open(sys.argv[1])) if o["metadata"]["name"] == sys.argv[2]]
assert len(objs) == 1, len(objs)
print(json.dumps(objs[0], sort_keys=True))' "$1/manifests.json" "$2"
}

test_expect_success 'the cluster site first by name carries the GPU stack Application, the other does not' '
	apps_with apps.json &&
	test "$(python3 -c "import json; print(\" \".join(a[\"metadata\"][\"name\"] for a in json.load(open(\"apps.json\"))))")" = \
		"gpusite-frankfurt-lab gpusite-incheon-edge gpusite-seoul-dc1" &&
	for s in frankfurt-lab incheon-edge seoul-dc1; do
		cmp_run "$s" apps.json "gpusite-$s" && rc_is "$s" 0 || exit 1
	done &&
	test "$(has incheon-edge Application $STACK)" = 1 &&
	test "$(has seoul-dc1 Application $STACK)" = 0 &&
	test "$(has frankfurt-lab Application inference-eu-gpu-operator)" = 1 &&
	test "$(has seoul-dc1 NodePool seoul-dc1-gpu-fallback)" = 1 &&
	test "$(has seoul-dc1 ConfigMap gpusite-nodeconfig-seoul-dc1)" = 1 &&
	! grep -q "gpusite.io/cluster: my-hybrid-cluster" seoul-dc1/stdout
'

test_expect_success 'the three applications together hold every rendered object exactly once' '
	(cd "$FLEET" && "$GPUSITE" render --format json) >all.json &&
	python3 - all.json frankfurt-lab incheon-edge seoul-dc1 <<-\EOF
	import json, sys
	want = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
	got = []
	for d in sys.argv[2:]:
	    got += json.load(open(d + "/manifests.json"))
	key = lambda o: (o["apiVersion"], o["kind"], o["metadata"].get("namespace", ""), o["metadata"]["name"])
	keys = [key(o) for o in got]
	dup = {k for k in keys if keys.count(k) > 1}
	assert not dup, dup
	assert len(got) == len(want) > 10, (len(got), len(want))
	canon = lambda objs: sorted(json.dumps(o, sort_keys=True) for o in objs)
	assert canon(got) == canon(want), "the union differs from gpusite render"
	EOF
'

test_expect_success 'the shared Application: Prune=false, no finalizer; site objects carry neither' '
	python3 - incheon-edge/manifests.json <<-\EOF
	import json, sys
	n = 0
	for o in json.load(open(sys.argv[1])):
	    md = o["metadata"]
	    ann = md.get("annotations", {})
	    assert "finalizers" not in md, (o["kind"], md["name"])
	    if "gpusite.io/cluster" in md["labels"]:
	        n += 1
	        assert o["kind"] == "Application", o["kind"]
	        assert ann == {"argocd.argoproj.io/sync-options": "Prune=false"}, ann
	    else:
	        assert "argocd.argoproj.io/sync-options" not in ann, (o["kind"], md["name"])
	# the cluster stack, and the device plugin of the AL2023 fallback nodes
	# (incheon-edge has fallback.nodeImage al2023): both cluster-wide
	assert n == 2, n
	EOF
'

test_expect_success 'the owner carries the very Application gpusite render prints for the whole fleet' '
	(cd "$FLEET" && "$GPUSITE" render --format json) | grep "\"name\":\"$STACK\"" >want.json &&
	one incheon-edge $STACK >got.json &&
	python3 -c "import json,sys; print(json.dumps(json.loads(open(\"want.json\").read()), sort_keys=True))" >want.canon &&
	test_cmp want.canon got.json
'

test_expect_success 'shared-objects=all: every site of the cluster carries the same Application' '
	(cd "$FLEET" && "$GPUSITE" render --format json --site seoul-dc1) | grep "\"name\":\"$STACK\"" >solo.json &&
	python3 -c "import json; print(json.dumps(json.load(open(\"solo.json\")), sort_keys=True))" >solo.canon &&
	one incheon-edge $STACK >owner.canon &&
	! cmp -s solo.canon owner.canon &&
	apps_with all.apps shared-objects=all &&
	cmp_run all-seoul all.apps gpusite-seoul-dc1 --dump-env all.env && rc_is all-seoul 0 &&
	grep -q "^PARAM_SHARED_OBJECTS=all$" all.env &&
	cmp_run all-incheon all.apps gpusite-incheon-edge && rc_is all-incheon 0 &&
	test "$(has all-seoul Application $STACK)" = 1 &&
	one all-seoul $STACK >a.json && one all-incheon $STACK >b.json && test_cmp a.json b.json &&
	one incheon-edge $STACK >c.json && test_cmp c.json a.json
'

test_expect_success 'shared-objects=none, here from the plugin env: no application carries it' '
	for s in frankfurt-lab incheon-edge seoul-dc1; do
		cmp_run "none-$s" apps.json "gpusite-$s" --set-env ARGOCD_ENV_SHARED_OBJECTS=none &&
		rc_is "none-$s" 0 &&
		test -s "none-$s/stdout" &&
		! grep -q "gpusite.io/cluster:" "none-$s/stdout" || exit 1
	done &&
	test "$(has none-incheon-edge ConfigMap gpusite-nodeconfig-incheon-edge)" = 1
'

test_expect_success 'the parameter wins over the plugin env, as for every setting' '
	apps_with owner.apps shared-objects=owner &&
	cmp_run prec owner.apps gpusite-incheon-edge --set-env ARGOCD_ENV_SHARED_OBJECTS=none &&
	rc_is prec 0 &&
	test "$(has prec Application $STACK)" = 1
'

test_expect_success 'the owner site is deleted: the next site by name takes the Application over' '
	mkdir moved && cp -R "$FLEET/." moved/ && rm moved/sites/incheon-edge.yaml &&
	REPO=moved apps_with moved.apps &&
	REPO=moved cmp_run moved-seoul moved.apps gpusite-seoul-dc1 && rc_is moved-seoul 0 &&
	test "$(has moved-seoul Application $STACK)" = 1 &&
	(cd moved && "$GPUSITE" render --site seoul-dc1) >expect &&
	test_cmp expect moved-seoul/stdout &&
	python3 - moved-seoul/manifests.json incheon-edge/manifests.json <<-\EOF
	import json, sys
	# the cluster stack; the AL2023 fallback plugin went with incheon-edge,
	# the only site whose fallback nodes boot AL2023
	new = [o for o in json.load(open(sys.argv[1])) if o["kind"] == "Application"]
	old = [o for o in json.load(open(sys.argv[2])) if o["kind"] == "Application"
	       and not o["metadata"]["name"].endswith("-fallback")]
	assert len(new) == len(old) == 1, (len(new), len(old))
	# The same object (Argo CD adopts it), still safe to hand over.
	for k in ("name", "namespace", "annotations"):
	    assert new[0]["metadata"][k] == old[0]["metadata"][k], k
	assert "finalizers" not in new[0]["metadata"]
	EOF
'

test_expect_success 'a value shared-objects cannot take: usage error, nothing on stdout' '
	apps_with bad.apps shared-objects=Owner &&
	cmp_run bad bad.apps gpusite-seoul-dc1 &&
	rc_is bad 2 &&
	test ! -s bad/stdout &&
	grep -qx "ARGOCD_APP_PARAMETERS: error: shared-objects is '"'"'Owner'"'"': write owner, all or none \[GS121\]" bad/stderr &&
	tail -n 1 bad/stderr | grep -qx "gpusite: generate failed: 1 error in ARGOCD_APP_PARAMETERS (GS121)"
'

test_expect_success 'parameters announces shared-objects with the default generate applies' '
	cmp_run ann apps.json gpusite-seoul-dc1 --command parameters && rc_is ann 0 &&
	cmp_run ann2 apps.json gpusite-seoul-dc1 --command parameters --set-env ARGOCD_ENV_SHARED_OBJECTS=all &&
	rc_is ann2 0 &&
	(cd "$FLEET" && ARGOCD_ENV_SHARED_OBJECTS=all "$GPUSITE" parameters) >dyn.json &&
	python3 - ann/announcements.json dyn.json <<-\EOF
	import json, sys
	ann = [a for a in json.load(open(sys.argv[1])) if a["name"] == "shared-objects"]
	# dynamic, then the static copy of plugin.yaml: both say owner
	assert [a["string"] for a in ann] == ["owner", "owner"], ann
	assert ann[0]["collectionType"] == "string" and "owner" in ann[0]["tooltip"], ann[0]
	dyn = [a for a in json.load(open(sys.argv[2])) if a["name"] == "shared-objects"]
	assert [a["string"] for a in dyn] == ["all"], dyn
	EOF
'

test_expect_success 'generate --help documents the setting' '
	"$GPUSITE" generate --help >help.out &&
	grep -q "^  shared-objects " help.out &&
	grep -q "owner (default)" help.out
'

test_done
