#!/bin/sh
# bench/live.sh [RUNS] - `gpusite drift` on the generated 5,000-node
# cluster (testdata/live/large) against `kubectl get nodes -o json` plus
# `kubectl get pods -A -o json` on the same test API server in the same
# run: wall time and peak memory side by side (best of RUNS, default 3).
# Not part of `make test`.  Needs python3, openssl, /usr/bin/time, and
# kubectl (PATH or .tools/bin/kubectl-layer from `make deps`).
set -u
runs=${1:-3}
top=$(cd "$(dirname "$0")/.." && pwd)
O=${O:-build}
GPUSITE=${GPUSITE:-$top/$O/gpusite}
TEST_TOP=$top
export TEST_TOP O GPUSITE
. "$top/tests/lib.sh"
. "$top/tests/tools/live.sh"

[ -x "$GPUSITE" ] || { echo "bench: build first: make O=$O" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time is needed" >&2; exit 2; }
KUBECTL=$(live_kubectl)
[ -n "$KUBECTL" ] || { echo "bench: kubectl not found (make deps)" >&2; exit 2; }

live_applied "$LIVE/large/sites" || exit 3
EKS_ARN=big-hybrid-cluster
live_start large --applied "$SCRATCH/applied.json" || exit 3
# warm kubectl's discovery cache once, as a user's would be
"$KUBECTL" --kubeconfig "$SCRATCH/kubeconfig" --cache-dir "$SCRATCH/kc" \
	api-resources >/dev/null 2>&1

# measure LABEL CMD...: best wall seconds and peak RSS (KiB) over $runs
measure() {
	label=$1
	shift
	best_t= best_m=
	i=0
	while [ $i -lt "$runs" ]; do
		i=$((i + 1))
		/usr/bin/time -f "%e %M" -o "$SCRATCH/t" "$@" >/dev/null 2>"$SCRATCH/e"
		# drift exits 1 on drift: time then adds a "Command exited" line
		tail -1 "$SCRATCH/t" >"$SCRATCH/t1"
		read -r t m <"$SCRATCH/t1" || { cat "$SCRATCH/e" >&2; return 1; }
		if [ -z "$best_t" ] || awk "BEGIN{exit !($t < $best_t)}"; then best_t=$t; fi
		if [ -z "$best_m" ] || [ "$m" -lt "$best_m" ]; then best_m=$m; fi
	done
	printf '%-44s %8.2f s %8.1f MB\n' "$label" "$best_t" "$(awk "BEGIN{print $best_m/1024}")"
	echo "$best_t $best_m" >"$SCRATCH/last"
}

# kubectl's two lists in one measured run: the sum of what a person would run
kubectl_both() {
	"$KUBECTL" --kubeconfig "$SCRATCH/kubeconfig" --cache-dir "$SCRATCH/kc" get nodes -o json &&
	"$KUBECTL" --kubeconfig "$SCRATCH/kubeconfig" --cache-dir "$SCRATCH/kc" get pods -A -o json
}

echo "5,000 nodes (400 hybrid), 9,600 pods; best of $runs; $(nproc) CPUs"
cd "$LIVE/large" || exit 3
measure "gpusite drift (nodes, stack pods, pools)" \
	"$GPUSITE" drift --kubeconfig "$SCRATCH/kubeconfig" sites || exit 3
read -r gt gm <"$SCRATCH/last"
measure "kubectl get nodes -o json" \
	"$KUBECTL" --kubeconfig "$SCRATCH/kubeconfig" --cache-dir "$SCRATCH/kc" get nodes -o json || exit 3
read -r nt nm <"$SCRATCH/last"
measure "kubectl get pods -A -o json" \
	"$KUBECTL" --kubeconfig "$SCRATCH/kubeconfig" --cache-dir "$SCRATCH/kc" get pods -A -o json || exit 3
read -r pt pm <"$SCRATCH/last"
awk -v gt="$gt" -v gm="$gm" -v nt="$nt" -v nm="$nm" -v pt="$pt" -v pm="$pm" 'BEGIN {
	kt = nt + pt; km = (nm > pm ? nm : pm)
	printf "%-44s %8.2f s %8.1f MB\n", "kubectl, both lists (sum / max)", kt, km / 1024
	printf "gpusite drift: %.1fx the speed, %.1fx less peak memory; under 100 MB: %s\n",
		kt / gt, km / gm, (gm < 102400 ? "yes" : "NO")
}'
