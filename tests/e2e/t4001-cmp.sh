#!/bin/sh
# t4001-cmp.sh - gpusite as an Argo CD config-management plugin, run the way
# argocd-cmp-server runs it (tests/tools/cmp-server.py): plugin.yaml's argv,
# a fresh _cmp_server/<uuid> copy of the repository, the environment the
# repo-server builds, stdin closed, own process group, 60 s deadline.  Every
# run also checks that the stream splits into Kubernetes objects the way
# Argo CD splits it and that the command wrote no file anywhere.
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

FLEET="$TEST_TOP/testdata/cmp/fleet"
APPS="$TEST_TOP/testdata/cmp/apps"
# The emulator's private directories go under the scratch directory.
TMPDIR="$SCRATCH"
export TMPDIR

# cmp_run OUT APP [emulator options...]: one plugin request; REPO overrides
# the repository.
cmp_run() {
	out=$1 app=$2
	shift 2
	python3 "$TEST_TOP/tests/tools/cmp-server.py" run \
		--plugin "$TEST_TOP/plugin/plugin.yaml" --repo "${REPO:-$FLEET}" \
		--app "$app" --gpusite "$GPUSITE" --out "$out" "$@"
}

# render_ref [render options...]: what `gpusite render` prints in the fleet.
render_ref() {
	(cd "$FLEET" && "$GPUSITE" render "$@")
}

# rc_is DIR CODE: the plugin command's exit status.
rc_is() {
	test "$(cat "$1/rc")" = "$2" || { echo "exit $(cat "$1/rc"), want $2"; cat "$1/stderr"; return 1; }
}

# sites_in FILE: the gpusite.io/site labels of the objects in manifests.json
# (objects shared by a cluster's sites carry gpusite.io/cluster instead).
sites_in() {
	python3 -c 'import json,sys
ls = [o["metadata"].get("labels", {}) for o in json.load(open(sys.argv[1]))]
print(" ".join(sorted({l["gpusite.io/site"] for l in ls if "gpusite.io/site" in l})))' "$1"
}

# kind_api FILE KIND: apiVersion of the objects of KIND in manifests.json.
kind_api() {
	python3 -c 'import json,sys
print(" ".join(sorted({o["apiVersion"] for o in json.load(open(sys.argv[1])) if o["kind"] == sys.argv[2]})))' "$1" "$2"
}

# Everything busan-dc2 (Karpenter, device plugin, MAP on 1.36, alerts) needs.
API_FULL="v1,v1/ConfigMap,v1/Pod,apps/v1,apps/v1/Deployment,karpenter.sh/v1,karpenter.sh/v1/NodePool,karpenter.sh/v1/NodeClaim,karpenter.k8s.aws/v1,karpenter.k8s.aws/v1/EC2NodeClass,argoproj.io/v1alpha1,argoproj.io/v1alpha1/Application,admissionregistration.k8s.io/v1,admissionregistration.k8s.io/v1/MutatingAdmissionPolicy,admissionregistration.k8s.io/v1/MutatingAdmissionPolicyBinding,monitoring.coreos.com/v1,monitoring.coreos.com/v1/PrometheusRule"
API_NO_KARPENTER=$(echo "$API_FULL" | tr ',' '\n' | grep -v '^karpenter\.sh/' | paste -sd, -)

test_expect_success 'all sites of three clusters, parameters null: refused, nothing on stdout' '
	cmp_run all "$APPS/fleet.yaml" --dump-env all.env &&
	rc_is all 1 &&
	grep -qx "ARGOCD_APP_PARAMETERS=null" all.env &&
	! grep -q "^PARAM_" all.env &&
	test ! -s all/stdout &&
	grep -qx "gpusite: error: the selected sites are in 3 clusters (busan-cluster, osaka-cluster and seoul-cluster), but Argo CD applies one stream to one destination: set the .cluster. setting to one of them (one Application per cluster), or objects: argocd for the hub.s GPU-stack Applications \[GS118\]" all/stderr &&
	tail -n 1 all/stderr | grep -qx "gpusite: generate failed: 1 error (GS118)"
'

test_expect_success 'one cluster through the plugin env: the stream equals gpusite render byte for byte' '
	cmp_run one1 "$APPS/fleet.yaml" --set-env ARGOCD_ENV_CLUSTER=busan-cluster &&
	rc_is one1 0 &&
	render_ref --site busan-dc2 >expect &&
	test -s expect &&
	test_cmp expect one1/stdout &&
	test "$(sites_in one1/manifests.json)" = "busan-dc2" &&
	test "$(grep -c "^---$" one1/stdout)" = "$(python3 -c "import json;print(len(json.load(open(\"one1/manifests.json\"))))")"
'

test_expect_success 'the stream read back as Argo CD reads it holds the objects render prints' '
	cmp_run back "$APPS/busan.yaml" && rc_is back 0 &&
	render_ref --site busan-dc2 >ref.yaml &&
	python3 "$TEST_TOP/tests/tools/cmp-server.py" split ref.yaml >ref.json &&
	python3 -c "import json,sys; a=json.load(open(\"ref.json\")); b=json.load(open(\"back/manifests.json\")); sys.exit(a != b or len(a) < 5)" &&
	python3 -c "import json,sys
for o in json.load(open(\"back/manifests.json\")):
    md = o[\"metadata\"]
    ann = dict(md.get(\"annotations\", {}))
    # The one Argo CD annotation gpusite writes: Prune=false on objects a
    # cluster shares, so a change of owner never prunes them.
    if \"gpusite.io/cluster\" in md.get(\"labels\", {}):
        assert ann.pop(\"argocd.argoproj.io/sync-options\") == \"Prune=false\", o[\"kind\"]
    tracking = [k for k in list(md.get(\"labels\", {})) + list(ann) if k.startswith(\"argocd.argoproj.io/\") or k == \"app.kubernetes.io/instance\"]
    assert not tracking, (o[\"kind\"], tracking)"
'

test_expect_success 'no plugin block at all (ARGOCD_APP_PARAMETERS absent): the sites of the plugin env cluster' '
	cmp_run absent "$APPS/fleet.yaml" --unset-env ARGOCD_APP_PARAMETERS --set-env ARGOCD_ENV_CLUSTER=seoul-cluster --dump-env absent.env &&
	rc_is absent 0 &&
	! grep -q "^ARGOCD_APP_PARAMETERS=" absent.env &&
	render_ref --site seoul-dc1 >expect &&
	test_cmp expect absent/stdout
'

test_expect_success 'one site through ARGOCD_APP_PARAMETERS' '
	cmp_run one "$APPS/busan.yaml" --dump-env one.env &&
	rc_is one 0 &&
	grep -qx "ARGOCD_APP_PARAMETERS=\[{\"array\":\[\"busan-dc2\"\],\"name\":\"sites\"}\]" one.env &&
	render_ref --site busan-dc2 >expect &&
	test_cmp expect one/stdout &&
	test "$(sites_in one/manifests.json)" = "busan-dc2" &&
	! grep -Eq "seoul|osaka" one/stdout
'

test_expect_success 'one site through PARAM_SITES_0 alone' '
	cmp_run param "$APPS/busan.yaml" --unset-env ARGOCD_APP_PARAMETERS --dump-env param.env &&
	rc_is param 0 &&
	grep -qx "PARAM_SITES_0=busan-dc2" param.env &&
	! grep -q "^ARGOCD_APP_PARAMETERS=" param.env &&
	render_ref --site busan-dc2 >expect &&
	test_cmp expect param/stdout
'

test_expect_success 'ARGOCD_ENV_KUBE_VERSION=1.35 (plugin env) renders the v1beta1 MutatingAdmissionPolicy' '
	cmp_run env135 "$APPS/busan-kube135.yaml" --dump-env env135.env &&
	rc_is env135 0 &&
	grep -qx "ARGOCD_ENV_KUBE_VERSION=1.35" env135.env &&
	test "$(kind_api env135/manifests.json MutatingAdmissionPolicy)" = "admissionregistration.k8s.io/v1beta1" &&
	render_ref --site busan-dc2 --kube-version 1.35 >expect &&
	test_cmp expect env135/stdout &&
	cmp_run def "$APPS/busan.yaml" && rc_is def 0 &&
	test "$(kind_api def/manifests.json MutatingAdmissionPolicy)" = "admissionregistration.k8s.io/v1" &&
	test "$(kind_api def/manifests.json MutatingAdmissionPolicyBinding)" = "admissionregistration.k8s.io/v1"
'

test_expect_success 'the cluster KUBE_VERSION picks the version; ARGOCD_ENV_KUBE_VERSION overrides it' '
	cmp_run k135 "$APPS/busan.yaml" --kube-version v1.35.2+eks --dump-env k135.env &&
	rc_is k135 0 &&
	grep -qx "KUBE_VERSION=1.35.2" k135.env &&
	test "$(kind_api k135/manifests.json MutatingAdmissionPolicy)" = "admissionregistration.k8s.io/v1beta1" &&
	cmp_run k136 "$APPS/busan.yaml" --kube-version 1.35 --set-env ARGOCD_ENV_KUBE_VERSION=1.36 &&
	rc_is k136 0 &&
	render_ref --site busan-dc2 --kube-version 1.36 >expect &&
	test_cmp expect k136/stdout
'

test_expect_success 'an invalid spec: nothing on stdout, file:line:col and rule per problem, summary last' '
	REPO="$TEST_TOP/testdata/cmp/invalid" cmp_run bad "$APPS/fleet.yaml" &&
	rc_is bad 1 &&
	test ! -s bad/stdout &&
	grep -Eq "^sites/seoul\.yaml:[0-9]+:[0-9]+: error: .*\[GS041\]$" bad/stderr &&
	grep -Eq "^sites/typo\.yaml:[0-9]+:[0-9]+: error: .*namespaceSelector.*\[GS003\]$" bad/stderr &&
	tail -n 1 bad/stderr >last &&
	grep -Eqx "gpusite: generate failed: 2 errors in sites/seoul\.yaml and sites/typo\.yaml \(GS003, GS041\)" last &&
	! grep -q osaka bad/stderr
'

test_expect_success 'the diagnostics are the ones validate reports, at the same places' '
	(cd "$TEST_TOP/testdata/cmp/invalid" && expect_exit 1 "$GPUSITE" validate --color never) >val.out 2>&1 &&
	grep -E "^sites/[a-z]+\.yaml:[0-9]+:[0-9]+: error: .*\[GS0(03|41)\]$" bad/stderr | sort >gen.lines &&
	test "$(wc -l <gen.lines)" -eq 2 &&
	grep -E "^sites/[a-z]+\.yaml:[0-9]+:[0-9]+: error: .*\[GS0(03|41)\]$" val.out | sort >val.lines &&
	test_cmp val.lines gen.lines
'

test_expect_success 'a symlink leaving the repository copy is refused (GS006)' '
	cmp_run evil "$APPS/fleet.yaml" \
		--inject-symlink "sites/evil.yaml=../../outside.yaml" \
		--outside "outside.yaml=$FLEET/staging/nagoya-dc4.yaml" &&
	test "$(cat evil/rc)" != 0 &&
	test ! -s evil/stdout &&
	grep -Eq "^sites/evil\.yaml(:[0-9]+:[0-9]+)?: error: .*\[GS006\]$" evil/stderr &&
	tail -n 1 evil/stderr | grep -q "^gpusite: generate failed: .*GS006" &&
	! grep -q nagoya evil/stderr
'

test_expect_success 'a symlink inside the repository is followed, even out of the app path' '
	cmp_run link "$APPS/nagoya.yaml" \
		--inject-symlink "sites/nagoya.yaml=../staging/nagoya-dc4.yaml" &&
	rc_is link 0 &&
	mkdir ref && cp -R "$FLEET/." ref/ &&
	ln -s ../staging/nagoya-dc4.yaml ref/sites/nagoya.yaml &&
	(cd ref && "$GPUSITE" render --site nagoya-dc4) >expect &&
	test_cmp expect link/stdout &&
	test "$(sites_in link/manifests.json)" = "nagoya-dc4"
'

test_expect_success 'ten copies at once, each in its own copy: identical output' '
	cmp_run ten "$APPS/busan.yaml" --copies 10 &&
	render_ref --site busan-dc2 >expect &&
	for i in 0 1 2 3 4 5 6 7 8 9; do
		rc_is ten/$i 0 && test_cmp expect ten/$i/stdout || exit 1
	done
'

test_expect_success 'a site name that matches nothing fails, never an empty success' '
	cmp_run none "$APPS/nowhere.yaml" &&
	rc_is none 1 &&
	test ! -s none/stdout &&
	grep -q "^ARGOCD_APP_PARAMETERS: error: no site is named '"'"'no<such>&site'"'"' under the application path (sites: busan-dc2, osaka-dc3, seoul-dc1).* \[GS124\]$" none/stderr &&
	tail -n 1 none/stderr | grep -qx "gpusite: generate failed: 1 error in ARGOCD_APP_PARAMETERS (GS124)"
'

test_expect_success 'an application path without any site fails, never an empty success' '
	mkdir -p nosites/sites &&
	echo "# no spec yet" >nosites/sites/README.md &&
	REPO=nosites cmp_run empty "$APPS/fleet.yaml" &&
	test "$(cat empty/rc)" != 0 &&
	test ! -s empty/stdout &&
	tail -n 1 empty/stderr | grep -q "^gpusite: generate failed: 1 error (GS[0-9]*)$"
'

test_expect_success 'KUBE_API_VERSIONS without karpenter.sh/v1: a warning naming the site, stream still printed' '
	cmp_run nokarp "$APPS/busan.yaml" --api-versions "$API_NO_KARPENTER" --dump-env nokarp.env &&
	rc_is nokarp 0 &&
	grep -q "^KUBE_API_VERSIONS=admissionregistration" nokarp.env &&
	grep -Eq "^sites/busan-dc2\.yaml:[0-9]+:[0-9]+: warning: site busan-dc2 needs karpenter\.sh/v1 NodePool, which the target cluster does not serve .*\[GS123\]$" nokarp/stderr &&
	test "$(grep -c GS123 nokarp/stderr)" = 1 &&
	render_ref --site busan-dc2 >expect &&
	test_cmp expect nokarp/stdout
'

test_expect_success 'the node class a NodePool points at must be served too (Karpenter vs EKS Auto Mode)' '
	api=$(echo "$API_FULL" | tr "," "\n" | grep -v "^karpenter\.k8s\.aws/" | paste -sd, -) &&
	cmp_run noclass "$APPS/busan.yaml" --api-versions "$api" &&
	rc_is noclass 0 &&
	grep -Eq "^sites/busan-dc2\.yaml:[0-9]+:[0-9]+: warning: site busan-dc2 needs karpenter\.k8s\.aws/v1 EC2NodeClass \(its NodePool.s nodeClassRef\), .*\[GS123\]$" noclass/stderr &&
	test "$(grep -c GS123 noclass/stderr)" = 1 &&
	cmp_run automode "$APPS/busan.yaml" --api-versions "$API_FULL,policies.kyverno.io/v1,kyverno.io/v1" \
		--set-env "ARGOCD_APP_PARAMETERS=[{\"array\":[\"osaka-dc3\"],\"name\":\"sites\"}]" &&
	rc_is automode 0 &&
	grep -Eq "^sites/osaka-dc3\.yaml:[0-9]+:[0-9]+: warning: site osaka-dc3 needs eks\.amazonaws\.com/v1 NodeClass .*set cluster\.provisioner: karpenter.*\[GS123\]$" automode/stderr &&
	test "$(grep -c GS123 automode/stderr)" = 1 &&
	render_ref --site osaka-dc3 >expect &&
	test_cmp expect automode/stdout
'

test_expect_success 'a cluster that serves everything: no warning at all' '
	cmp_run full "$APPS/busan.yaml" --api-versions "$API_FULL" &&
	rc_is full 0 &&
	test ! -s full/stderr
'

test_expect_success 'Kubernetes 1.35 serving only v1beta1 MutatingAdmissionPolicy: no warning, v1beta1 rendered' '
	api=$(echo "$API_FULL" | sed "s#admissionregistration.k8s.io/v1/Mutating#admissionregistration.k8s.io/v1beta1/Mutating#g; s#\$#,admissionregistration.k8s.io/v1beta1,admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy#") &&
	cmp_run k8s135 "$APPS/busan.yaml" --kube-version 1.35.4 --api-versions "$api" &&
	rc_is k8s135 0 &&
	test ! -s k8s135/stderr &&
	test "$(kind_api k8s135/manifests.json MutatingAdmissionPolicy)" = "admissionregistration.k8s.io/v1beta1" &&
	cmp_run k8s135b "$APPS/busan.yaml" --kube-version 1.35.4 --api-versions "$api" --set-env ARGOCD_ENV_KUBE_VERSION=1.36 &&
	grep -q "warning: site busan-dc2 needs admissionregistration\.k8s\.io/v1 MutatingAdmissionPolicy,.*: it serves admissionregistration\.k8s\.io/v1beta1 MutatingAdmissionPolicy: set kube-version to the cluster.s version (1\.34 or 1\.35) \[GS123\]$" k8s135b/stderr
'

test_expect_success 'with strict the missing API fails the render: stdout empty, error and summary' '
	cmp_run strict "$APPS/busan-strict.yaml" --api-versions "$API_NO_KARPENTER" &&
	rc_is strict 1 &&
	test ! -s strict/stdout &&
	grep -Eq "^sites/busan-dc2\.yaml:[0-9]+:[0-9]+: error: site busan-dc2 needs karpenter\.sh/v1 NodePool.*\[GS123\]$" strict/stderr &&
	tail -n 1 strict/stderr | grep -qx "gpusite: generate failed: 1 error in sites/busan-dc2\.yaml (GS123)"
'

test_expect_success 'strict from the plugin env (ARGOCD_ENV_STRICT) works the same' '
	cmp_run strict2 "$APPS/busan.yaml" --api-versions "$API_NO_KARPENTER" --set-env ARGOCD_ENV_STRICT=true &&
	rc_is strict2 1 &&
	test ! -s strict2/stdout &&
	cmp_run strict3 "$APPS/busan.yaml" --set-env ARGOCD_ENV_STRICT=maybe &&
	rc_is strict3 2 &&
	test ! -s strict3/stdout &&
	grep -q "^ARGOCD_ENV_STRICT: error: strict is '"'"'maybe'"'"': write true or false \[GS121\]$" strict3/stderr
'

test_expect_success 'ARGOCD_APP_PARAMETERS that is not Argo CD JSON: a clear error, nothing on stdout' '
	cmp_run garbage "$APPS/busan.yaml" --set-env "ARGOCD_APP_PARAMETERS={\"sites\":[\"busan-dc2\"]}" &&
	rc_is garbage 2 &&
	test ! -s garbage/stdout &&
	grep -qx "ARGOCD_APP_PARAMETERS: error: must be a JSON array of parameters, not an object \[GS120\]" garbage/stderr &&
	tail -n 1 garbage/stderr | grep -qx "gpusite: generate failed: 1 error in ARGOCD_APP_PARAMETERS (GS120)"
'

test_expect_success 'an SSM activation code in the sidecar environment never reaches stdout or stderr' '
	code=c0ffee-activation-code-1234567890 &&
	cmp_run secret "$APPS/busan.yaml" --sidecar-env "SSM_ACTIVATION_CODE_BUSAN=$code" --api-versions "$API_NO_KARPENTER" &&
	rc_is secret 0 &&
	grep -q "activationId: 4b2c1a3e" secret/stdout &&
	! grep -q "$code" secret/stdout secret/stderr &&
	! grep -q activationCode: secret/stdout
'

test_expect_success 'parameters: the dynamic command announces every site, in render order, with the defaults' '
	cmp_run ann "$APPS/fleet.yaml" --command parameters --kube-version 1.35 --dump-env ann.env &&
	rc_is ann 0 &&
	! grep -q "^KUBE_VERSION=" ann.env &&
	! grep -q "^ARGOCD_APP_REVISION=" ann.env &&
	render_ref | sed -n "s/^  name: gpusite-nodeconfig-//p" | paste -sd" " - >order &&
	test "$(cat order)" = "busan-dc2 osaka-dc3 seoul-dc1" &&
	python3 - ann/announcements.json "$(cat order)" <<-\EOF
	import json, sys
	ann = json.load(open(sys.argv[1]))
	by = {}
	for a in ann:
	    by.setdefault(a["name"], []).append(a)
	sites = by["sites"]
	assert len(sites) == 1, sites       # dynamic only: static would win
	assert sites[0]["collectionType"] == "array", sites
	assert sites[0]["array"] == sys.argv[2].split(), sites
	assert [a["string"] for a in by["strict"]] == ["false", "false"], by["strict"]
	assert [a["string"] for a in by["kube-version"]] == ["", ""], by["kube-version"]
	assert [a["name"] for a in ann][:6] == ["sites", "cluster", "objects", "strict", "kube-version", "shared-objects"], ann
	assert by["objects"][0]["string"] == "all" and by["cluster"][0]["array"] == [], ann
	for a in ann:
	    assert a["title"] and a["tooltip"] and a["itemType"] == "string", a
	EOF
'

test_expect_success 'parameters: defaults follow ARGOCD_ENV_* the way generate applies them' '
	cmp_run ann2 "$APPS/fleet.yaml" --command parameters \
		--set-env ARGOCD_ENV_SITES=seoul-dc1,osaka-dc3 --set-env ARGOCD_ENV_STRICT=True &&
	rc_is ann2 0 &&
	python3 -c "import json
ann = json.load(open(\"ann2/announcements.json\"))
assert ann[0][\"array\"] == [\"seoul-dc1\", \"osaka-dc3\"], ann[0]
assert ann[3][\"name\"] == \"strict\" and ann[3][\"string\"] == \"true\", ann[3]" &&
	cmp_run gen2 "$APPS/fleet.yaml" --set-env ARGOCD_ENV_SITES=seoul-dc1,osaka-dc3 &&
	rc_is gen2 1 &&
	test ! -s gen2/stdout &&
	grep -q "the selected sites are in 2 clusters (osaka-cluster and seoul-cluster).*\[GS118\]$" gen2/stderr &&
	cmp_run gen3 "$APPS/fleet.yaml" --set-env ARGOCD_ENV_SITES=seoul-dc1 &&
	rc_is gen3 0 &&
	render_ref --site seoul-dc1 >expect &&
	test_cmp expect gen3/stdout
'

test_expect_success 'parameters output is deterministic' '
	cmp_run p1 "$APPS/fleet.yaml" --command parameters && rc_is p1 0 &&
	cmp_run p2 "$APPS/fleet.yaml" --command parameters && rc_is p2 0 &&
	test_cmp p1/stdout p2/stdout
'

test_expect_success 'every Application of the fleet ApplicationSet renders exactly its site' '
	python3 "$TEST_TOP/tests/tools/cmp-server.py" expand \
		--appset "$TEST_TOP/plugin/applicationset.yaml" --repo "$FLEET" >apps.json &&
	python3 -c "import json; print(\"\n\".join(a[\"metadata\"][\"name\"] for a in json.load(open(\"apps.json\"))))" >names &&
	test "$(cat names | paste -sd" " -)" = "gpusite-busan-dc2 gpusite-osaka-dc3 gpusite-seoul-dc1" &&
	while read -r app; do
		site=${app#gpusite-}
		cmp_run "as-$site" apps.json --app-name "$app" &&
		rc_is "as-$site" 0 &&
		render_ref --site "$site" >"expect-$site" &&
		test_cmp "expect-$site" "as-$site/stdout" &&
		test "$(sites_in "as-$site/manifests.json")" = "$site" || exit 1
	done <names
'

test_expect_success 'generate takes no arguments and answers --help' '
	"$GPUSITE" generate --help >help.out &&
	grep -q "^usage: gpusite generate" help.out &&
	"$GPUSITE" parameters --help | grep -q "^usage: gpusite parameters" &&
	expect_exit 2 "$GPUSITE" generate sites 2>err.out &&
	grep -q "takes no arguments" err.out
'

test_done
