#!/bin/sh
# t2210: `validate --rendered` on the real NVIDIA charts' output.  helm
# (offline) renders the saved device-plugin and GPU Operator charts with the
# values gpusite renders for the fleet; the manifests must pass with exit 0
# and no error.  The charts' own output is what the cluster gets, so a
# finding there would be a false alarm: Role, RoleBinding and Job are
# namespaced (GS132 must not call them cluster-scoped), and the `null`
# values the templates emit (revisionHistoryLimit, imagePullSecrets,
# initContainers) are absent fields, as the API server decodes them
# (GS130 must not reject them).
. "$TEST_TOP/tests/lib.sh"

helm="$TEST_TOP/.tools/bin/helm"

if ! need_upstream; then
	test_skip "validate --rendered on the real charts" "../shared/upstream not found"
	test_done
	exit
fi
if ! [ -x "$helm" ]; then
	test_skip "validate --rendered on the real charts" "helm not found in .tools/bin (run make deps)"
	test_done
	exit
fi
export HOME="$SCRATCH/home"
mkdir -p "$HOME"

test_expect_success "helm renders both charts with the fleet's values" '
	"$GPUSITE" render "$TEST_TOP/testdata/fleet" --values "$SCRATCH/values" >/dev/null &&
	cp -R "$UPSTREAM/nvidia-device-plugin/chart" "$SCRATCH/nvdp-chart" &&
	cp -R "$UPSTREAM/gpu-operator/chart" "$SCRATCH/gpuop-chart" &&
	"$helm" template nvidia-device-plugin "$SCRATCH/nvdp-chart" -n nvidia-device-plugin \
		-f "$SCRATCH/values/my-hybrid-cluster/values.yaml" >"$SCRATCH/dp.yaml" &&
	"$helm" template gpu-operator "$SCRATCH/gpuop-chart" -n gpu-operator \
		-f "$SCRATCH/values/inference-eu/values.yaml" >"$SCRATCH/op.yaml"
'

# What makes the charts a real test: both emit namespaced Role, RoleBinding
# and Job objects and null values.
for chart in dp op; do
	test_expect_success "$chart: the chart output has Role, RoleBinding, Job and null values" "
		grep -qx 'kind: Role' '$SCRATCH/$chart.yaml' &&
		grep -qx 'kind: RoleBinding' '$SCRATCH/$chart.yaml' &&
		grep -qx 'kind: Job' '$SCRATCH/$chart.yaml' &&
		grep -Eq '^ *(revisionHistoryLimit|imagePullSecrets|initContainers): *(null)?\$' '$SCRATCH/$chart.yaml'
	"
	test_expect_success "$chart: validate --rendered passes the chart output (exit 0, no error)" "
		expect_exit 0 '$GPUSITE' validate --rendered --upstream '$UPSTREAM' '$SCRATCH/$chart.yaml' \
			>'$SCRATCH/$chart.out' 2>&1 || { cat '$SCRATCH/$chart.out'; false; } &&
		cat '$SCRATCH/$chart.out' &&
		! grep -q ': error: ' '$SCRATCH/$chart.out' &&
		! grep -q 'GS130\]' '$SCRATCH/$chart.out' &&
		! grep -q 'GS132\]' '$SCRATCH/$chart.out' &&
		grep -q '^gpusite: 0 errors, ' '$SCRATCH/$chart.out'
	"
	test_expect_success "$chart: the same on standard input" "
		expect_exit 0 '$GPUSITE' validate --rendered --upstream '$UPSTREAM' - \
			<'$SCRATCH/$chart.yaml' >'$SCRATCH/$chart.stdin.out' 2>&1 ||
			{ cat '$SCRATCH/$chart.stdin.out'; false; }
	"
done

# A null is absent, not any value: a required field given as null is still
# missing, and a wrong type next to a null is still caught.
test_expect_success "a null stands for an absent field, nothing more" '
	cat >"$SCRATCH/null.yaml" <<-YAML &&
	apiVersion: apps/v1
	kind: DaemonSet
	metadata: {name: x, namespace: gpu}
	spec:
	  revisionHistoryLimit: null
	  selector: {matchLabels: {app: x}}
	  template:
	    metadata: {labels: {app: x}}
	    spec:
	      imagePullSecrets: null
	      containers: null
	YAML
	expect_exit 1 "$GPUSITE" validate --rendered --upstream "$UPSTREAM" "$SCRATCH/null.yaml" \
		>"$SCRATCH/null.out" 2>&1 &&
	cat "$SCRATCH/null.out" &&
	grep -q "containers" "$SCRATCH/null.out" && grep -q "GS130\]" "$SCRATCH/null.out" &&
	! grep -q "revisionHistoryLimit" "$SCRATCH/null.out" &&
	! grep -q "imagePullSecrets" "$SCRATCH/null.out"
'
test_done
