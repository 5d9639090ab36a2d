#!/bin/sh
# t2202: everything the fleet renders passes its upstream schema and the
# rules upstream enforces beyond it (validate --rendered), for every engine
# and API version the renderer can choose, and the NodeConfig files too.
. "$TEST_TOP/tests/lib.sh"

fleet="$TEST_TOP/testdata/fleet"

if ! need_upstream; then
	test_skip "the rendered fleet conforms to its upstream schemas" "../shared/upstream not found"
	test_done
	exit
fi

# clean OUT ERR: no error and no warning, and the summary says so
clean() {
	! grep -q ": \(error\|warning\): " "$2" && grep -q "0 errors, 0 warnings" "$2" ||
	{ cat "$2"; false; }
}

test_expect_success "render the fleet" '
	"$GPUSITE" render "$fleet" >"$SCRATCH/fleet.yaml"
'
test_expect_success "the stream holds every kind the renderer makes" '
	for k in ConfigMap NodePool Application MutatingPolicy MutatingAdmissionPolicy \
		 MutatingAdmissionPolicyBinding PrometheusRule; do
		grep -qx "kind: $k" "$SCRATCH/fleet.yaml" || { echo "no $k"; exit 1; }
	done
'
test_expect_success "the rendered fleet passes validate --rendered" '
	"$GPUSITE" validate --rendered --upstream "$UPSTREAM" "$SCRATCH/fleet.yaml" 2>"$SCRATCH/fleet.err" &&
	clean "$SCRATCH/fleet.yaml" "$SCRATCH/fleet.err"
'
test_expect_success "MutatingAdmissionPolicy v1 is checked against the v1beta1 schema, and says so" '
	grep -q "^apiVersion: admissionregistration.k8s.io/v1$" "$SCRATCH/fleet.yaml" &&
	grep -q "note: admissionregistration.k8s.io/v1 MutatingAdmissionPolicy checked against the admissionregistration.k8s.io/v1beta1 schema" "$SCRATCH/fleet.err"
'
test_expect_success "standard input and GPUSITE_UPSTREAM work the same" '
	GPUSITE_UPSTREAM="$UPSTREAM" "$GPUSITE" validate --rendered <"$SCRATCH/fleet.yaml" 2>"$SCRATCH/stdin.err" &&
	clean - "$SCRATCH/stdin.err"
'
# Kubernetes 1.35: MutatingAdmissionPolicy v1beta1; the legacy ClusterPolicy engine.
test_expect_success "render the other engine and API versions" '
	cp -R "$fleet" "$SCRATCH/variant" &&
	sed "s/engine: kyverno\$/engine: kyverno-clusterpolicy/" "$fleet/sites/seoul-dc1.yaml" \
		>"$SCRATCH/variant/sites/seoul-dc1.yaml" &&
	"$GPUSITE" render "$SCRATCH/variant" --kube-version 1.35 >"$SCRATCH/variant.yaml" &&
	grep -qx "kind: ClusterPolicy" "$SCRATCH/variant.yaml" &&
	grep -qx "apiVersion: admissionregistration.k8s.io/v1beta1" "$SCRATCH/variant.yaml"
'
test_expect_success "ClusterPolicy and MutatingAdmissionPolicy v1beta1 pass validate --rendered" '
	"$GPUSITE" validate --rendered --upstream "$UPSTREAM" "$SCRATCH/variant.yaml" 2>"$SCRATCH/variant.err" &&
	clean - "$SCRATCH/variant.err"
'
test_expect_success "the NodeConfig files pass nodeadm's rules, activation codes included" '
	SSM_ACTIVATION_CODE_RACK_B=Xq7vD2mNp4RtL9sKw3Bz \
	SSM_ACTIVATION_CODE_INCHEON=Hk5sPq8ZcV2nMx7Lw4Td \
	SSM_ACTIVATION_CODE_INCHEON_L40S=Rb3yTn6QwE9uKs2Jd8Vf \
		"$GPUSITE" render "$fleet" --nodeconfigs "$SCRATCH/nc" >/dev/null &&
	find "$SCRATCH/nc" -name "*.yaml" | sort >"$SCRATCH/nc.list" &&
	test -s "$SCRATCH/nc.list" &&
	grep -rl "activationCode:" "$SCRATCH/nc" >/dev/null &&
	"$GPUSITE" validate --rendered --upstream "$UPSTREAM" $(cat "$SCRATCH/nc.list") 2>"$SCRATCH/nc.err" &&
	clean - "$SCRATCH/nc.err"
'
test_expect_success "a broken object in the same stream is caught (the check is live)" '
	sed "s/consolidateAfter: 5m/consolidateAfter: five minutes/" "$SCRATCH/fleet.yaml" >"$SCRATCH/broken.yaml" &&
	! cmp -s "$SCRATCH/fleet.yaml" "$SCRATCH/broken.yaml" &&
	expect_exit 1 "$GPUSITE" validate --rendered --upstream "$UPSTREAM" "$SCRATCH/broken.yaml" 2>"$SCRATCH/broken.err" &&
	grep -q "consolidateAfter.*\[GS130\]" "$SCRATCH/broken.err"
'
# argocd.syncPolicy: automated (prune, selfHeal) with retry, and manual
test_expect_success "Applications with each sync policy pass the Argo CD Application CRD" '
	"$GPUSITE" render "$TEST_TOP/testdata/render/argocd-sync-policy/sites" \
		>"$SCRATCH/sync.yaml" 2>/dev/null &&
	grep -q "^      selfHeal: false$" "$SCRATCH/sync.yaml" &&
	grep -q "^        maxDuration: 3m$" "$SCRATCH/sync.yaml" &&
	test "$(grep -c "^    automated:$" "$SCRATCH/sync.yaml")" = 2 &&
	test "$(grep -c "^    syncOptions:$" "$SCRATCH/sync.yaml")" = 4 &&
	"$GPUSITE" validate --rendered --upstream "$UPSTREAM" "$SCRATCH/sync.yaml" 2>"$SCRATCH/sync.err" &&
	clean "$SCRATCH/sync.yaml" "$SCRATCH/sync.err" &&
	sed "s/^      selfHeal: false$/      selfHeal: nope/" "$SCRATCH/sync.yaml" >"$SCRATCH/sync-bad.yaml" &&
	expect_exit 1 "$GPUSITE" validate --rendered --upstream "$UPSTREAM" "$SCRATCH/sync-bad.yaml" \
		2>"$SCRATCH/sync-bad.err" &&
	grep -q "selfHeal" "$SCRATCH/sync-bad.err"
'

test_done
