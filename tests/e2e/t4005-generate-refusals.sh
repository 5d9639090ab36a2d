#!/bin/sh
# t4005-generate-refusals.sh - every combination that could put objects in
# the wrong cluster fails: a non-zero exit, NOTHING on stdout (an empty
# success would make Argo CD prune the app), one line with the fix, run the
# way argocd-cmp-server runs generate (tests/tools/cmp-server.py) over the
# two-cluster fleet testdata/cmp/fleet2.
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
		--plugin "$TEST_TOP/plugin/plugin.yaml" --repo "$FLEET" \
		--app "$APP" --gpusite "$GPUSITE" --out "$out" "$@"
}

# refused DIR CODE LINE: exit CODE, empty stdout, LINE (a fixed string) on
# stderr, and the summary last.
refused() {
	test "$(cat "$1/rc")" = "$2" || { echo "exit $(cat "$1/rc"), want $2"; cat "$1/stderr"; return 1; }
	test ! -s "$1/stdout" || { echo "stdout not empty"; return 1; }
	grep -qxF "$3" "$1/stderr" || { echo "missing: $3"; cat "$1/stderr"; return 1; }
	tail -n 1 "$1/stderr" | grep -q "^gpusite: generate failed: "
}

SPAN="the selected sites are in 2 clusters (busan-cluster and seoul-cluster), but Argo CD applies one stream to one destination: set the 'cluster' setting to one of them (one Application per cluster), or objects: argocd for the hub's GPU-stack Applications [GS118]"

test_expect_success 'no setting at all over two clusters (objects all): refused' '
	cmp_run none &&
	refused none 1 "gpusite: error: $SPAN"
'

test_expect_success 'objects cluster without cluster: refused' '
	cmp_run oc --param objects=cluster &&
	refused oc 1 "gpusite: error: $SPAN"
'

test_expect_success 'sites that span both clusters: refused, for objects cluster and all' '
	cmp_run span --param objects=cluster --param-array sites=seoul-dc1,busan-dc2 &&
	refused span 1 "gpusite: error: $SPAN" &&
	cmp_run span2 --param-array sites=busan-dc2,seoul-dc5 &&
	refused span2 1 "gpusite: error: $SPAN"
'

test_expect_success 'cluster naming both clusters: refused at the setting' '
	cmp_run both --param objects=cluster --param-array cluster=seoul-cluster,busan-cluster &&
	refused both 1 "ARGOCD_APP_PARAMETERS: error: $SPAN"
'

test_expect_success 'objects argocd may span the fleet (the control)' '
	cmp_run hub --param objects=argocd &&
	test "$(cat hub/rc)" = 0 &&
	test "$(grep -c "^kind: Application$" hub/stdout)" = 2
'

test_expect_success 'a misspelt parameter (site): refused with did-you-mean, not every site rendered' '
	cmp_run site --param-array site=seoul-dc1 &&
	refused site 2 "ARGOCD_APP_PARAMETERS: error: parameter '"'"'site'"'"' is not a gpusite setting (did you mean '"'"'sites'"'"'?): refusing to render without it; the settings are sites, cluster, objects, strict, kube-version, shared-objects [GS122]" &&
	cmp_run clusters --param-array clusters=seoul-cluster --param objects=cluster &&
	refused clusters 2 "ARGOCD_APP_PARAMETERS: error: parameter '"'"'clusters'"'"' is not a gpusite setting (did you mean '"'"'cluster'"'"'?): refusing to render without it; the settings are sites, cluster, objects, strict, kube-version, shared-objects [GS122]"
'

test_expect_success 'ARGOCD_ENV_sites (a setting in another case) is refused by name' '
	cmp_run envlower --plugin-env sites=seoul-dc1 --dump-env envlower.env &&
	grep -qx "ARGOCD_ENV_sites=seoul-dc1" envlower.env &&
	refused envlower 2 "ARGOCD_ENV_sites: error: ARGOCD_ENV_sites is not read (plugin env names are upper case with '"'"'_'"'"'): write it as SITES, or pass the parameter '"'"'sites'"'"' [GS122]"
'

test_expect_success 'an ARGOCD_ENV_ name that is no setting: refused with did-you-mean' '
	cmp_run envtypo --plugin-env CLUSTERS=seoul-cluster --param objects=cluster &&
	refused envtypo 2 "ARGOCD_ENV_CLUSTERS: error: ARGOCD_ENV_CLUSTERS is not a gpusite setting (did you mean ARGOCD_ENV_CLUSTER?): refusing to render without it; the plugin env names are ARGOCD_ENV_SITES, ARGOCD_ENV_CLUSTER, ARGOCD_ENV_OBJECTS, ARGOCD_ENV_STRICT, ARGOCD_ENV_KUBE_VERSION, ARGOCD_ENV_SHARED_OBJECTS [GS122]"
'

test_expect_success 'an Application for a destination without Argo CD (KUBE_API_VERSIONS): refused' '
	api="v1,v1/ConfigMap,karpenter.sh/v1,karpenter.sh/v1/NodePool,karpenter.k8s.aws/v1,karpenter.k8s.aws/v1/EC2NodeClass,policies.kyverno.io/v1,policies.kyverno.io/v1/MutatingPolicy,monitoring.coreos.com/v1,monitoring.coreos.com/v1/PrometheusRule" &&
	cmp_run spoke --param-array cluster=busan-cluster --api-versions "$api" &&
	test "$(cat spoke/rc)" = 1 &&
	test ! -s spoke/stdout &&
	grep -Eq "^sites/busan-dc2\.yaml:[0-9]+:[0-9]+: error: the stream holds the Argo CD Application argocd/busan-cluster-nvidia-device-plugin of busan-dc2, but the destination does not serve argoproj\.io/v1alpha1 Application \(KUBE_API_VERSIONS\): no Argo CD runs there: render this cluster.s objects with the setting objects: cluster, and its GPU stack from the hub Argo CD with an Application of objects: argocd \[GS119\]$" spoke/stderr &&
	test "$(grep -c "error:" spoke/stderr)" = 1 &&
	! grep -q "CRDs" spoke/stderr &&
	cmp_run spokeok --param-array cluster=busan-cluster --param objects=cluster --api-versions "$api" &&
	test "$(cat spokeok/rc)" = 0 &&
	test ! -s spokeok/stderr &&
	! grep -q "argoproj.io" spokeok/stdout &&
	cmp_run hubok --param objects=argocd --api-versions "$api,argoproj.io/v1alpha1,argoproj.io/v1alpha1/Application" &&
	test "$(cat hubok/rc)" = 0
'

test_expect_success 'a cluster name no site has, a site outside the named cluster: refused' '
	cmp_run nocluster --param-array cluster=seoul &&
	refused nocluster 1 "ARGOCD_APP_PARAMETERS: error: no site under the application path is in cluster '"'"'seoul'"'"' (clusters: busan-cluster and seoul-cluster): fix the '"'"'cluster'"'"' setting or the sites'"'"' spec.cluster.name [GS128]" &&
	cmp_run outside --param-array cluster=seoul-cluster --param-array sites=busan-dc2 &&
	refused outside 1 "ARGOCD_APP_PARAMETERS: error: site '"'"'busan-dc2'"'"' is in cluster '"'"'busan-cluster'"'"', which the '"'"'cluster'"'"' setting (seoul-cluster) does not name: drop it from '"'"'sites'"'"' or name its cluster [GS128]"
'

test_expect_success 'an objects value it does not know: refused (GS121)' '
	cmp_run badobj --param objects=hub --param-array cluster=seoul-cluster &&
	refused badobj 2 "ARGOCD_APP_PARAMETERS: error: objects is '"'"'hub'"'"': write cluster (what lives in the destination cluster), argocd (the Argo CD Applications, for the hub) or all [GS121]"
'

test_done
