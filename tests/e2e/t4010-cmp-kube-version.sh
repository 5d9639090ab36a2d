#!/bin/sh
# t4010-cmp-kube-version: `generate` judges engine mutating-admission-policy
# by the Kubernetes version it renders for.  Argo CD's KUBE_VERSION (or the
# kube-version parameter, or ARGOCD_ENV_KUBE_VERSION) below 1.34 names a
# cluster that serves no MutatingAdmissionPolicy API: GS062, nothing on
# stdout, a non-zero exit - not v1beta1 objects the cluster cannot apply.
# A KUBE_VERSION that disagrees with a site's written kubernetesVersion is
# GS177, a warning: the spec or the Application's destination is wrong.
# Run through the CMP emulation (tests/tools/cmp-server.py), as t4001.
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

FLEET="$TEST_TOP/testdata/cmp/fleet"
APPS="$TEST_TOP/testdata/cmp/apps"
TMPDIR="$SCRATCH"
export TMPDIR
ENGINE_LINE=$(grep -n "engine: mutating-admission-policy" "$FLEET/sites/busan-dc2.yaml" | cut -d: -f1)
OSAKA_KV_LINE=$(grep -n "kubernetesVersion: \"1.35\"" "$FLEET/sites/osaka-dc3.yaml" | cut -d: -f1)

cmp_run() {
	out=$1 app=$2
	shift 2
	python3 "$TEST_TOP/tests/tools/cmp-server.py" run \
		--plugin "$TEST_TOP/plugin/plugin.yaml" --repo "$FLEET" \
		--app "$app" --gpusite "$GPUSITE" --out "$out" "$@"
}

rc_is() {
	test "$(cat "$1/rc")" = "$2" || { echo "exit $(cat "$1/rc"), want $2"; cat "$1/stderr"; return 1; }
}

# gs062 DIR: the run failed with GS062 at busan-dc2's engine, stdout empty
gs062() {
	rc_is "$1" 1 &&
	test ! -s "$1/stdout" &&
	grep -q "^sites/busan-dc2.yaml:$ENGINE_LINE:[0-9]*: error: placement.engine mutating-admission-policy needs Kubernetes 1.34 or later, and kube-version (KUBE_VERSION, the destination's version) is 1.$2: use kyverno, or set it to the cluster's version \[GS062\]\$" "$1/stderr" &&
	grep -q "^gpusite: generate failed" "$1/stderr"
}

test_expect_success 'the spec alone (1.36) renders: exit 0' '
	cmp_run def "$APPS/busan.yaml" && rc_is def 0 &&
	grep -q "^kind: MutatingAdmissionPolicy$" def/stdout
'

test_expect_success 'KUBE_VERSION 1.33 from the destination: GS062, nothing on stdout' '
	cmp_run k133 "$APPS/busan.yaml" --kube-version v1.33.4+eks &&
	gs062 k133 33
'

test_expect_success 'ARGOCD_ENV_KUBE_VERSION=1.32 (plugin env): GS062 too' '
	cmp_run e132 "$APPS/busan.yaml" --kube-version 1.36 --set-env ARGOCD_ENV_KUBE_VERSION=1.32 &&
	gs062 e132 32
'

test_expect_success 'KUBE_VERSION 1.34: the v1beta1 objects, exit 0' '
	cmp_run k134 "$APPS/busan.yaml" --kube-version 1.34.1 && rc_is k134 0 &&
	grep -q "^apiVersion: admissionregistration.k8s.io/v1beta1$" k134/stdout
'

test_expect_success 'sites without the engine render on 1.33, whatever the others say' '
	cmp_run all "$APPS/fleet.yaml" --kube-version 1.33 --set-env ARGOCD_ENV_CLUSTER=busan-cluster &&
	gs062 all 33 &&
	test "$(grep -c "\[GS062\]" all/stderr)" = 1 &&
	(cd "$FLEET" && "$GPUSITE" render --site osaka-dc3 --site seoul-dc1 --kube-version 1.33 >/dev/null)
'

test_expect_success 'render --kube-version 1.33: the same GS062, nothing on stdout' '
	(cd "$FLEET" && expect_exit 1 "$GPUSITE" render --site busan-dc2 --kube-version 1.33 \
		>"$SCRATCH/r.yaml" 2>"$SCRATCH/r.err") &&
	test ! -s r.yaml &&
	grep -q "^sites/busan-dc2.yaml:$ENGINE_LINE:[0-9]*: error: placement.engine mutating-admission-policy needs Kubernetes 1.34 or later, and --kube-version is 1.33: use kyverno, or set it to the cluster.s version \[GS062\]\$" r.err &&
	(cd "$FLEET" && "$GPUSITE" render --site busan-dc2 --kube-version 1.34 >"$SCRATCH/r.yaml") &&
	grep -q "^apiVersion: admissionregistration.k8s.io/v1beta1$" r.yaml
'

test_expect_success 'KUBE_VERSION 1.33 for a site written 1.35: GS177 warns, the objects still render' '
	cmp_run o133 "$APPS/osaka.yaml" --kube-version v1.33.4+eks && rc_is o133 0 &&
	grep -q "^kind: ConfigMap$" o133/stdout &&
	grep -q "^sites/osaka-dc3.yaml:$OSAKA_KV_LINE:[0-9]*: warning: cluster.kubernetesVersion is 1.35, but kube-version (KUBE_VERSION, the destination.s version) is 1.33: the objects are rendered for 1.33; write the cluster.s real version in the spec, or point the application at cluster osaka-cluster \[GS177\]\$" o133/stderr &&
	test "$(grep -c "\[GS177\]" o133/stderr)" = 1
'

test_expect_success 'KUBE_VERSION 1.35.2 for a site written 1.35: no GS177' '
	cmp_run o135 "$APPS/osaka.yaml" --kube-version 1.35.2 && rc_is o135 0 &&
	! grep -q "GS177" o135/stderr
'

test_expect_success 'a site without kubernetesVersion takes KUBE_VERSION silently (no GS177)' '
	cmp_run b134 "$APPS/busan.yaml" --kube-version 1.34.1 && rc_is b134 0 &&
	! grep -q "GS177" b134/stderr
'

test_expect_success 'strict makes GS177 an error: nothing on stdout' '
	cmp_run o133s "$APPS/osaka.yaml" --kube-version 1.33 --set-env ARGOCD_ENV_STRICT=true &&
	rc_is o133s 1 && test ! -s o133s/stdout &&
	grep -q "error: cluster.kubernetesVersion is 1.35, but kube-version .* \[GS177\]\$" o133s/stderr
'

test_done
