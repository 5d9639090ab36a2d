#!/bin/sh
# run.sh - `make bench`: one table, every figure the median of BENCH_RUNS
# runs (default 5), every comparison a ratio of two figures measured in
# this same run on this machine:
#   validate and render of generated fleets (BENCH_SIZES, default
#   1 100 1000 10000 sites): wall time and peak memory, render against the
#   libyaml floor (bench/yaml_floor.c: parse the same files, emit as many
#   bytes), and how the per-site cost grows from 100 to 10,000 sites;
#   `helm template` of the NVIDIA device-plugin chart against one-site
#   `gpusite generate`; `gpusite drift` on the 5,000-node live scenario
#   against `kubectl get nodes` + `kubectl get pods -A` on the same server.
# Every command runs pinned to one CPU (taskset, when present), the last
# one, so the figures are single-core figures.  Wall time is the command
# as this shell starts it, process start included, as a user or Argo CD
# sees it; peak memory comes from /usr/bin/time in runs of their own.
# Not part of `make test`.
#
# Needs: /usr/bin/time; for the helm row .tools/bin/helm (make deps) and
# ../shared/upstream; for the live rows python3, openssl and kubectl.
# Rows whose tools are missing say so and are not measured.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
O=${O:-build}
runs=${BENCH_RUNS:-5}
sizes=${BENCH_SIZES:-1 100 1000 10000}
GPUSITE=$top/$O/gpusite
FLOOR=$top/$O/bench/yaml_floor
TEST_TOP=$top
export TEST_TOP O GPUSITE
. "$top/tests/lib.sh"
. "$top/tests/tools/live.sh"
work=$SCRATCH

[ -x "$GPUSITE" ] && [ -x "$FLOOR" ] || { echo "bench: build first: make O=$O bench" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time is needed (Debian package time)" >&2; exit 2; }
ncpu=$(nproc 2>/dev/null || echo 1)
pinned=
# pin this shell, and so every command it starts, to the last CPU
if command -v taskset >/dev/null 2>&1 && taskset -p -c "$((ncpu - 1))" $$ >/dev/null 2>&1; then
	pinned="pinned to CPU $((ncpu - 1)), "
fi
# gen-fleet.sh's specs name this variable for their SSM activation code
export SSM_ACTIVATION_CODE_RACK_B=bench-not-a-secret

# measure OKCODES CMD...: run CMD $runs times, stdout to $work/out; sets
# MS (median wall milliseconds: the command alone, started by this shell)
# and KB (median peak RSS in KiB, from /usr/bin/time in separate runs, so
# its own start does not count in MS).  A run exiting with a code not in
# OKCODES ("0", "0 1") stops the benchmark.
measure() {
	ok=$1
	shift
	: >"$work/times"
	: >"$work/rss"
	i=0
	while [ $i -lt "$runs" ]; do
		i=$((i + 1))
		t0=$(date +%s%N)
		"$@" >"$work/out" 2>"$work/err"
		rc=$?
		t1=$(date +%s%N)
		case " $ok " in
		*" $rc "*) ;;
		*)
			echo "bench: exit $rc from: $*" >&2
			tail -5 "$work/err" >&2
			exit 3
			;;
		esac
		echo $(((t1 - t0) / 1000)) >>"$work/times"
		/usr/bin/time -f "%M" -o "$work/rss1" "$@" >/dev/null 2>&1
		tail -1 "$work/rss1" >>"$work/rss"
	done
	MS=$(median "$work/times" | awk '{ printf "%.1f", $1 / 1000 }')
	KB=$(median "$work/rss")
}

median() {
	sort -n "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

mb() { awk -v k="$1" 'BEGIN { printf "%.1f MB", k / 1024 }'; }
ms() { awk -v m="$1" 'BEGIN { if (m >= 1000) printf "%.2f s", m / 1000; else printf "%.1f ms", m }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
# verdict OK TEXT: "met" or "MISSED" with the text
verdict() { if [ "$1" = 1 ]; then echo "met"; else echo "MISSED $2"; fi; }
row() { printf '| %s | %s | %s | %s | %s |\n' "$1" "$2" "$3" "$4" "$5"; }

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
echo "gpusite $("$GPUSITE" --version | head -1 | cut -d' ' -f2) benchmark: $ncpu CPUs (${cpu:-unknown CPU}), $(uname -sm)," \
	"median of $runs runs, $pinned$(date -u +%Y-%m-%d)"
echo
row "measure" "sites" "median time" "median peak RSS" "ratio / target"
row "---" "---:" "---:" "---:" "---"

for n in $sizes; do
	d="$work/fleet-$n"
	sh "$top/bench/gen-fleet.sh" "$n" "$d"
	# the fleet must be valid, or the figures would time the error path
	(cd "$d" && "$GPUSITE" validate -q sites) || { echo "bench: the $n-site fleet does not validate" >&2; exit 3; }
done

for n in $sizes; do
	cd "$work/fleet-$n" || exit 3
	measure 0 "$GPUSITE" validate -q sites
	eval "v_ms_$n=$MS v_kb_$n=$KB"
	row "validate" "$n" "$(ms "$MS")" "$(mb "$KB")" ""
done

for n in $sizes; do
	cd "$work/fleet-$n" || exit 3
	measure 0 "$GPUSITE" render sites
	bytes=$(wc -c <"$work/out" | tr -d ' ')
	r_ms=$MS r_kb=$KB
	eval "r_ms_$n=$MS"
	measure 0 "$FLOOR" "$bytes" sites/*.yaml
	f_ms=$MS
	x=$(ratio "$r_ms" "$f_ms")
	note="$x x the floor"
	if [ "$n" = 1000 ]; then
		note="$note (target <= 3: $(verdict "$(awk -v x="$x" 'BEGIN{print (x <= 3)}')" "by $(ratio "$x" 3) x"));"
		note="$note < 1 s: $(verdict "$(awk -v m="$r_ms" 'BEGIN{print (m < 1000)}')" "by $(ms "$(awk -v m="$r_ms" 'BEGIN{print m - 1000}')")");"
		note="$note < 64 MB: $(verdict "$(awk -v k="$r_kb" 'BEGIN{print (k < 65536)}')" "by $(mb "$((r_kb - 65536))")")"
	fi
	row "render ($(awk -v b="$bytes" 'BEGIN { if (b < 1048576) printf "%.0f KB", b / 1024; else printf "%.1f MB", b / 1048576 }') out)" "$n" "$(ms "$r_ms")" "$(mb "$r_kb")" "$note"
	row "libyaml floor: parse + emit as many bytes" "$n" "$(ms "$f_ms")" "$(mb "$KB")" ""
done

# growth of the per-site cost from 100 sites to the largest size
big=$(echo "$sizes" | tr ' ' '\n' | sort -n | tail -1)
case " $sizes " in
*" 100 "*)
	if [ "$big" -gt 100 ]; then
		for c in v r; do
			eval "a=\$${c}_ms_100 b=\$${c}_ms_$big"
			g=$(awk -v a="$a" -v b="$b" -v n="$big" 'BEGIN { printf "%.2f", (b / n) / (a / 100) }')
			name=validate
			[ $c = r ] && name=render
			row "$name growth, 100 -> $big sites" "" "" "" \
				"per-site cost x $g (linear: 1.00; target linear: $(verdict "$(awk -v g="$g" 'BEGIN{print (g <= 1.25)}')" "by x $g"))"
		done
	fi
	;;
esac

# helm template of the device-plugin chart vs one-site generate
helm="$top/.tools/bin/helm"
chart="$UPSTREAM/nvidia-device-plugin/chart"
if [ ! -x "$helm" ]; then
	row "helm template (device-plugin chart)" 1 "-" "-" "not measured: .tools/bin/helm missing (make deps)"
elif [ ! -d "$chart" ]; then
	row "helm template (device-plugin chart)" 1 "-" "-" "not measured: ../shared/upstream not found"
else
	d="$work/one"
	sh "$top/bench/gen-fleet.sh" 1 "$d"
	cd "$d" || exit 3
	"$GPUSITE" render --values "$d/values" sites >/dev/null || exit 3
	cp -R "$chart" "$work/chart"
	mkdir -p "$work/home"
	saved_home=$HOME
	export HOME="$work/home"	# helm's config and cache, not the user's
	measure 0 "$helm" template nvidia-device-plugin "$work/chart" \
		-n nvidia-device-plugin -f "$d/values/cluster-00001/values.yaml"
	export HOME="$saved_home"
	h_ms=$MS h_kb=$KB
	row "helm template (device-plugin chart, the site's values)" 1 "$(ms "$h_ms")" "$(mb "$h_kb")" ""
	export ARGOCD_APP_PARAMETERS=null	# what Argo CD sets without parameters
	measure 0 "$GPUSITE" generate
	unset ARGOCD_APP_PARAMETERS
	x=$(ratio "$h_ms" "$MS")
	row "gpusite generate (whole site: stack, NodePool, policies, alerts)" 1 "$(ms "$MS")" "$(mb "$KB")" \
		"helm / generate = $x (target >= 20: $(verdict "$(awk -v x="$x" 'BEGIN{print (x >= 20)}')" "by $(ratio 20 "$x") x"))"
fi

# drift on the 5,000-node scenario vs kubectl on the same server
KUBECTL=$(live_kubectl)
if ! live_have_python; then
	row "gpusite drift, 5,000 nodes" "" "-" "-" "not measured: python3 or openssl missing"
elif [ -z "$KUBECTL" ]; then
	row "gpusite drift, 5,000 nodes" "" "-" "-" "not measured: kubectl missing (make deps)"
else
	live_applied "$LIVE/large/sites" || exit 3
	EKS_ARN=big-hybrid-cluster
	live_start large --applied "$SCRATCH/applied.json" >/dev/null || exit 3
	kc() { "$KUBECTL" --kubeconfig "$SCRATCH/kubeconfig" --cache-dir "$work/kc" "$@"; }
	kc api-resources >/dev/null 2>&1	# a warm discovery cache, as a user's
	cd "$LIVE/large" || exit 3
	measure "0 1" "$GPUSITE" drift --kubeconfig "$SCRATCH/kubeconfig" sites
	d_ms=$MS d_kb=$KB
	measure 0 "$KUBECTL" --kubeconfig "$SCRATCH/kubeconfig" --cache-dir "$work/kc" get nodes -o json
	n_ms=$MS n_kb=$KB
	measure 0 "$KUBECTL" --kubeconfig "$SCRATCH/kubeconfig" --cache-dir "$work/kc" get pods -A -o json
	p_ms=$MS p_kb=$KB
	k_ms=$(awk -v a="$n_ms" -v b="$p_ms" 'BEGIN { print a + b }')
	k_kb=$((n_kb > p_kb ? n_kb : p_kb))
	row "gpusite drift (5,000 nodes, 9,600 pods; nodes, pods, pools)" "" "$(ms "$d_ms")" "$(mb "$d_kb")" \
		"kubectl / drift: time $(ratio "$k_ms" "$d_ms"), memory $(ratio "$k_kb" "$d_kb")"
	row "kubectl get nodes -o json + get pods -A -o json (sum / max)" "" "$(ms "$k_ms")" "$(mb "$k_kb")" ""
	live_stop
fi
