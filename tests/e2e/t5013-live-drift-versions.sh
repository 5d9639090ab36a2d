#!/bin/sh
# t5013: `gpusite drift` reads what the cluster serves that tells its
# controller releases, only when a site declares cluster.versions: the
# upstream NodePool and EC2NodeClass CRDs (Gte: Karpenter 1.9; reservation
# terms: 1.3) and Kyverno's API groups (MutatingPolicy 1.17, ClusterPolicy
# removed in 1.20).  A declared release the cluster contradicts is GS219.
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/live.sh"

if ! live_have_python || ! python3 -c "import yaml" 2>/dev/null; then
	test_skip "declared controller releases against the cluster" "python3, python3-yaml or openssl not found (make deps)"
	test_done
	exit
fi
if ! need_upstream; then
	test_skip "declared controller releases against the cluster" "../shared/upstream not found (the Karpenter CRDs)"
	test_done
	exit
fi
live_certs
mkdir -p "$SCRATCH/spec" &&
cp -R "$LIVE/sites" "$SCRATCH/spec/"

# scenario NAME [NO-GTE] [ABSENT-GROUP]: healthy plus the upstream Karpenter
# CRDs (the NodePool's Gte operator taken out with NO-GTE=1)
scenario() {
	mkdir -p "$SCRATCH/scen/$1" &&
	python3 - "$UPSTREAM/karpenter" "$LIVE/healthy" "$2" "$3" >"$SCRATCH/scen/$1/cluster.json" <<-\PY
	import json, sys, yaml
	up, healthy, no_gte, absent = sys.argv[1:5]
	def strip(n):
	    if isinstance(n, dict):
	        return {k: strip(v) for k, v in n.items()}
	    if isinstance(n, list):
	        return [strip(v) for v in n if v != "Gte"]
	    return n
	objs = []
	for f in ("karpenter.sh_nodepools.yaml", "karpenter.k8s.aws_ec2nodeclasses.yaml"):
	    crd = yaml.safe_load(open(up + "/" + f))
	    if no_gte == "1" and crd["metadata"]["name"] == "nodepools.karpenter.sh":
	        crd = strip(crd)
	    objs.append(crd)
	print(json.dumps({"include": [healthy], "objects": objs,
	                  "absentGroups": [absent] if absent else []}))
	PY
}

# versions SED: the spec with cluster.versions set by SED
versions() {
	sed "s/^    region: us-west-2\$/&\n    versions: {$1}/" "$LIVE/sites/seoul-dc1.yaml" \
		>"$SCRATCH/spec/sites/seoul-dc1.yaml" &&
	grep -q "^    versions: " "$SCRATCH/spec/sites/seoul-dc1.yaml"
}

# drift_in SCENARIO-DIR EXIT: the cluster as the spec of now renders it
drift_in() {
	live_applied "$SCRATCH/spec/sites" seoul-dc1 >/dev/null &&
	live_start "$SCRATCH/scen/$1" --applied "$SCRATCH/applied.json" &&
	(cd "$SCRATCH/spec" && expect_exit "$2" "$GPUSITE" drift --kubeconfig "$SCRATCH/kubeconfig" \
		sites >"$SCRATCH/out" 2>"$SCRATCH/err") &&
	only_gets &&
	no_leak "$SCRATCH/out" "$SCRATCH/err"
}

test_expect_success 'scenarios: the upstream CRDs, with and without Gte' '
	scenario new "" "" &&
	scenario old 1 "" &&
	scenario nompol "" policies.kyverno.io &&
	grep -q "\"Gte\"" "$SCRATCH/scen/new/cluster.json" &&
	! grep -q "\"Gte\"" "$SCRATCH/scen/old/cluster.json" &&
	grep -q capacityReservationSelectorTerms "$SCRATCH/scen/old/cluster.json"
'

test_expect_success 'no cluster.versions: no CRD is read, no GS219' '
	drift_in new 0 &&
	! grep "customresourcedefinitions" "$SCRATCH/requests.log" &&
	! grep "GS219" "$SCRATCH/out"
'

test_expect_success 'Karpenter 1.9 and Kyverno 1.17 as the cluster serves them: no GS219' '
	versions "karpenter: \"1.9\", kyverno: \"1.17\"" &&
	drift_in new 0 &&
	grep -q "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/nodepools.karpenter.sh" "$SCRATCH/requests.log" &&
	! grep "GS219" "$SCRATCH/out"
'

test_expect_success 'Karpenter 1.9 declared, the NodePool CRD has no Gte: GS219' '
	drift_in old 1 &&
	grep "sites/seoul-dc1.yaml:16:[0-9]*: error: cluster.versions.karpenter declares 1.9, but the cluster does not serve a NodePool requirement with operator Gte (the NodePool CRD.s Gte operator): it runs Karpenter a release before 1.9.*\[GS219\]" "$SCRATCH/out" &&
	test "$(grep -c "\[GS219\]" "$SCRATCH/out")" = 1
'

test_expect_success 'Karpenter 1.2 declared, the CRDs are of 1.9 or later: GS219 twice' '
	versions "karpenter: \"1.2\"" &&
	drift_in new 1 &&
	grep "cluster.versions.karpenter declares 1.2, but the cluster serves a NodePool requirement with operator Gte .*it runs Karpenter at least 1.9" "$SCRATCH/out" &&
	grep "cluster.versions.karpenter declares 1.2, but the cluster serves karpenter.sh/capacity-type reserved .*at least 1.3" "$SCRATCH/out" &&
	test "$(grep -c "\[GS219\]" "$SCRATCH/out")" = 2
'

test_expect_success 'Kyverno 1.17 declared, no policies.kyverno.io served: GS219' '
	versions "kyverno: \"1.17\"" &&
	drift_in nompol 1 &&
	grep "cluster.versions.kyverno declares 1.17, but the cluster does not serve MutatingPolicy policies.kyverno.io/v1 .*a release before 1.17.*\[GS219\]" "$SCRATCH/out"
'

test_expect_success 'Kyverno 1.20 declared, ClusterPolicy still served: GS219' '
	versions "kyverno: \"1.20\"" &&
	drift_in new 1 &&
	grep "cluster.versions.kyverno declares 1.20, but the cluster serves ClusterPolicy kyverno.io/v1 .*it runs Kyverno a release before 1.20.*\[GS219\]" "$SCRATCH/out"
'

live_stop
test_done
