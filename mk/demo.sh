#!/bin/sh
# demo.sh BIN: a short tour on the example fleet (testdata/fleet).  Each
# step is one line of the `steps` list below - a title and a command
# line, where `gpusite` is the binary under test - so adding a step is
# adding a line.  Exits 0 only when every step does.
set -eu
bin=${1:?usage: demo.sh BIN}
top=$(cd "$(dirname "$0")/.." && pwd)
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
cd "$top/testdata/fleet"

gpusite() { "$bin" "$@"; }

# Scratch space for what the tour writes; gone when it ends.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpusite-demo.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# An SSM activation code as `aws ssm create-activation` returns it (a
# made-up one): the spec names the variable, never the code, and render
# writes it only into the NodeConfig file that needs it (mode 0600).
SSM_ACTIVATION_CODE_RACK_B=Dem0aCt1vAt10nC0dEf0rRkB
export SSM_ACTIVATION_CODE_RACK_B

# The NodeConfigs written, with their modes, and where the code went.
list_nodeconfigs() {
	(cd "$tmp/nodeconfigs" && find . -type f -exec stat -c '%A %n' {} + | sort -k2) &&
	echo "files holding the activation code:" &&
	(cd "$tmp" && grep -rl "$SSM_ACTIVATION_CODE_RACK_B" . | sort) &&
	! grep -q "$SSM_ACTIVATION_CODE_RACK_B" "$tmp/seoul-dc1.yaml"
}

# The scope proof: helm renders the device-plugin chart saved beside the
# checkout with the values gpusite wrote; verify-scope places each
# DaemonSet on the reference inventory (testdata/nodes).  Skipped, saying
# so, when the chart or helm (make deps) is not there.
verify_scope() {
	chart="$top/../shared/upstream/nvidia-device-plugin/chart"
	helm="$top/.tools/bin/helm"
	if ! [ -d "$chart" ]; then
		echo "skipped: the chart is not saved beside the checkout (../shared/upstream/nvidia-device-plugin/chart)"
		return 0
	fi
	if ! [ -x "$helm" ]; then
		echo "skipped: helm is not in .tools/bin (make deps installs it)"
		return 0
	fi
	gpusite render --values "$tmp/values" -o "$tmp/stream-values.yaml" &&
	cp -R "$chart" "$tmp/nvdp-chart" && mkdir -p "$tmp/home" &&
	HOME="$tmp/home" "$helm" template nvidia-device-plugin "$tmp/nvdp-chart" \
		-n nvidia-device-plugin -f "$tmp/values/my-hybrid-cluster/values.yaml" >"$tmp/dp.yaml" &&
	gpusite verify-scope --nodes ../nodes --manifests "$tmp/dp.yaml"
}

# The cloud fallback's own stack in the example fleet: incheon-edge's
# fallback nodes boot AL2023 (fallback.nodeImage: al2023), which has no
# device plugin, so the cluster gets a pinned device plugin Application
# scoped to those nodes; seoul-dc1's boot Bottlerocket (which runs its own)
# from the EC2NodeClass its fallback.nodeClass renders: the pinned image,
# IMDSv2, and the pre-pulled images' snapshot as the data volume.
kinds_of() { awk '/^kind:/ { k = $2 } /^  name:/ { if (k) print "  " k, $2; k = "" }'; }
fallback_stack() {
	echo "incheon-edge (nodeImage: al2023) - its fallback objects:" &&
	gpusite render --site incheon-edge | kinds_of | grep -E "NodePool|fallback" &&
	echo "seoul-dc1 (nodeImage: bottlerocket, nodeClass with imageCache) - its EC2NodeClass:" &&
	gpusite render --site seoul-dc1 |
		awk '/^kind: EC2NodeClass/ { on = 1 } /^---/ { on = 0 } on' |
		grep -E "^kind:|^  name:|alias:|deviceName:|snapshotID:|httpTokens:"
}

steps='
validate the example fleet (text findings on stderr, summary line)|gpusite validate
the same check as JSON for machines|gpusite validate --format json
render the fleet into one stream and count its objects by kind|gpusite render -o "$tmp/stream.yaml" && grep "^kind:" "$tmp/stream.yaml" | sort | uniq -c
explain seoul-dc1: RTO budget, on-prem against fallback GPUs, what each object is for|gpusite explain seoul-dc1
write the NodeConfigs of seoul-dc1 (SSM code from SSM_ACTIVATION_CODE_RACK_B) and list them|gpusite render --site seoul-dc1 -o "$tmp/seoul-dc1.yaml" --nodeconfigs "$tmp/nodeconfigs" && list_nodeconfigs
the fallback stack: a device plugin of its own for AL2023 nodes, the Bottlerocket EC2NodeClass|fallback_stack
the rendered device-plugin values, templated by helm, placed on testdata/nodes|verify_scope
start the example cluster, show diff --live and drift against it, stop it|sh "$top/mk/demo-live.sh" "$bin"
'

failed=0
echo "$steps" | while IFS='|' read -r title cmd; do
	[ -n "$title" ] || continue
	printf '\n== %s\n$ %s\n' "$title" "$cmd"
	eval "$cmd" 2>&1 || { echo "demo: step failed: $cmd" >&2; exit 1; }
done || failed=1
[ "$failed" -eq 0 ] && printf '\ndemo: every step passed (run from %s)\n' "testdata/fleet"
exit "$failed"
