#!/bin/sh
# run.sh - `make bench`: two tables, every figure the median of BENCH_RUNS
# runs (default 5), every comparison a ratio of two figures measured in
# this same run on this machine, the machine named on the first line.
#   validate and render of generated fleets (BENCH_SIZES, default
#   1 100 1000 10000 sites): wall time, peak memory and the share of
#   system time; validate against the libyaml parse floor and render
#   against the parse + emit floor (bench/yaml_floor.c: parse the same
#   files; emit nothing, or as many bytes as render wrote), and how the
#   per-site cost grows from 100 to 10,000 sites; the fleet page of 1,000
#   sites in 100 clusters against validate of them; `helm template` of the
#   NVIDIA device-plugin chart against one-site `gpusite generate`;
#   `gpusite drift` on the 5,000-node live scenario against
#   `kubectl get nodes` + `kubectl get pods -A` on the same server.
# A command and its peer or floor run in pairs (one, then the other, each
# time), and the ratio is the median of the pairs' ratios, so a slow
# moment of a shared machine weighs on both sides of a ratio alike.
# The second table, "Goals", has one row per performance goal, the
# figure, the goal and whether it is met.
# Every command runs pinned to one CPU (taskset, when present), the last
# one, so the figures are single-core figures.  Wall time is the command
# from its spawn to its exit (bench/spawn_time.c), process start included,
# as a user or Argo CD sees it; peak memory and CPU times come from /usr/bin/time in runs of
# their own.  Not part of `make test`.
#
# Needs: /usr/bin/time; for the helm row .tools/bin/helm (make deps) and
# ../shared/upstream; for the live rows python3, openssl and kubectl.
# Rows whose tools are missing say so and are not measured.
#
# BENCH_DRY=1 runs nothing and prints the same tables with made-up
# figures, every tool taken as present: the rows a run makes, which
# t0007 compares with the README's table (mk/bench.mk's bench-readme
# writes the measured one there).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
O=${O:-build}
runs=${BENCH_RUNS:-5}
sizes=${BENCH_SIZES:-1 100 1000 10000}
dry=${BENCH_DRY:-}
case $O in
/*) odir=$O ;;
*) odir=$top/$O ;;
esac
GPUSITE=$odir/gpusite
FLOOR=$odir/bench/yaml_floor
SPAWN=$odir/bench/spawn_time
TEST_TOP=$top
export TEST_TOP O GPUSITE
. "$top/tests/lib.sh"
. "$top/tests/tools/live.sh"
work=$SCRATCH

if [ -z "$dry" ]; then
	[ -x "$GPUSITE" ] && [ -x "$FLOOR" ] && [ -x "$SPAWN" ] || { echo "bench: build first: make O=$O bench" >&2; exit 2; }
	[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time is needed (Debian package time)" >&2; exit 2; }
fi
ncpu=$(nproc 2>/dev/null || echo 1)
pinned=
# pin this shell, and so every command it starts, to the last CPU
if [ -z "$dry" ] && command -v taskset >/dev/null 2>&1 &&
	taskset -p -c "$((ncpu - 1))" $$ >/dev/null 2>&1; then
	pinned="pinned to CPU $((ncpu - 1)), "
fi
# load: the 1-minute load average of the machine now
load() { cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo "?"; }
load_start=$(load)
# gen-fleet.sh's specs name this variable for their SSM activation code
export SSM_ACTIVATION_CODE_RACK_B=bench-not-a-secret

# timed OKCODES CMD...: run CMD once, stdout to $work/out; prints the wall
# microseconds, measured by spawn_time around the spawn and the wait (the
# shell's own $(date) forks would add about 2 ms to every run).  CMD is a
# command, or one of the shell functions below that put the words they are
# given before their command.  A run exiting with a code not in OKCODES
# ("0", "0 1") stops the benchmark.
timed() {
	ok=$1
	shift
	if [ -n "$dry" ]; then
		echo 1000
		return 0
	fi
	if [ $# -eq 1 ] && [ "$(type "$1" 2>/dev/null | sed -n "s/.* is a shell function.*/f/p")" = f ]; then
		us=$("$1" "$SPAWN" "$work/out" "$work/err")
	else
		us=$("$SPAWN" "$work/out" "$work/err" "$@")
	fi
	rc=$?
	case " $ok " in
	*" $rc "*) ;;
	*)
		echo "bench: exit $rc from: $*" >&2
		tail -5 "$work/err" >&2
		exit 3
		;;
	esac
	echo "$us"
}

# resources CMD...: one run of CMD under /usr/bin/time: "peak-KiB sys user"
resources() {
	if [ -n "$dry" ]; then
		echo "1024 0 1"
		return 0
	fi
	/usr/bin/time -f "%M %S %U" -o "$work/res1" "$@" >/dev/null 2>&1
	tail -1 "$work/res1"
}

# measure OKCODES CMD...: run CMD $runs times; sets MS (median wall
# milliseconds: the command alone, started by this shell), KB (median
# peak RSS in KiB) and SYS (median share of system time in the CPU time,
# percent), the last two from /usr/bin/time in separate runs, so its own
# start does not count in MS.
measure() {
	ok=$1
	shift
	: >"$work/times"
	: >"$work/res"
	i=0
	while [ $i -lt "$runs" ]; do
		i=$((i + 1))
		timed "$ok" "$@" >>"$work/times" || exit 3
		resources "$@" >>"$work/res"
	done
	MS=$(median "$work/times" | awk '{ printf "%.1f", $1 / 1000 }')
	KB=$(cut -d' ' -f1 "$work/res" >"$work/col" && median "$work/col")
	SYS=$(awk '{ t = $2 + $3; print (t > 0 ? 100 * $2 / t : 0) }' "$work/res" >"$work/col" &&
		median "$work/col" | awk '{ printf "%.0f", $1 }')
}

# paired OKCODES A B: the commands A and B (shell functions that run their
# command after the words they are given: a wrapper such as
# /usr/bin/time, or none) timed one after the other $runs times.  Sets
# MS_A, KB_A, SYS_A, MS_B, KB_B as measure does, and X, the median of
# the pairs' time ratios A / B.
paired() {
	ok=$1
	: >"$work/ta"
	: >"$work/tb"
	: >"$work/tx"
	: >"$work/ra"
	: >"$work/rb"
	i=0
	while [ $i -lt "$runs" ]; do
		i=$((i + 1))
		a=$(timed "$ok" "$2") || exit 3
		b=$(timed "$ok" "$3") || exit 3
		echo "$a" >>"$work/ta"
		echo "$b" >>"$work/tb"
		awk -v a="$a" -v b="$b" 'BEGIN { print a / b }' >>"$work/tx"
		resources_of "$2" >>"$work/ra"
		resources_of "$3" >>"$work/rb"
	done
	MS_A=$(median "$work/ta" | awk '{ printf "%.1f", $1 / 1000 }')
	MS_B=$(median "$work/tb" | awk '{ printf "%.1f", $1 / 1000 }')
	X=$(median "$work/tx" | awk '{ printf "%.2f", $1 }')
	KB_A=$(cut -d' ' -f1 "$work/ra" >"$work/col" && median "$work/col")
	KB_B=$(cut -d' ' -f1 "$work/rb" >"$work/col" && median "$work/col")
	SYS_A=$(awk '{ t = $2 + $3; print (t > 0 ? 100 * $2 / t : 0) }' "$work/ra" >"$work/col" &&
		median "$work/col" | awk '{ printf "%.0f", $1 }')
}

# resources_of F: resources of the command shell function F runs
resources_of() {
	if [ -n "$dry" ]; then
		resources
		return 0
	fi
	"$1" /usr/bin/time -f "%M %S %U" -o "$work/res1" >/dev/null 2>&1
	tail -1 "$work/res1"
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

# is A B: 1 when the awk condition COND holds for a=A, b=B
is() { awk -v a="$1" -v b="$2" "BEGIN { print (($3) ? 1 : 0) }"; }
# goal WHAT FIGURE GOAL MET MISSED: one row of the goals table (printed
# last); MET is 1 or 0, MISSED says by how much
goal() {
	if [ "$4" = 1 ]; then v="met"; else v="**missed** $5"; fi
	printf '| %s | %s | %s | %s |\n' "$1" "$2" "$3" "$v" >>"$work/goals"
}
# unmeasured WHAT GOAL WHY
unmeasured() { printf '| %s | not measured: %s | %s | - |\n' "$1" "$3" "$2" >>"$work/goals"; }
: >"$work/goals"

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
os=$(sed -n 's/^PRETTY_NAME="\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' /etc/os-release 2>/dev/null)
mem=$(awk '/^MemTotal:/ { printf "%.0f GB RAM", $2 / 1048576 }' /proc/meminfo 2>/dev/null)
virt=$(systemd-detect-virt 2>/dev/null) || virt=
# the commit the binary was built from, and whether its sources differ
commit=$(git -C "$top" rev-parse --short HEAD 2>/dev/null) || commit=
if [ -n "$commit" ] && ! git -C "$top" diff --quiet HEAD -- src schemas Makefile mk/embed.sh 2>/dev/null; then
	commit="$commit with local changes"
fi
echo "Latest run: gpusite $("$GPUSITE" --version | head -1 | cut -d' ' -f2)${commit:+ ($commit)}" \
	"on $ncpu CPUs (${cpu:-unknown CPU}), ${mem:-? RAM}, $(uname -sm) $(uname -r)${os:+, $os}" \
	"${virt:+(virtual: $virt)}; built with $(${CC:-cc} --version 2>/dev/null | head -1);" \
	"median of $runs runs, $pinned$(date -u +%Y-%m-%d)."
echo
row "measure" "sites" "median time" "median peak RSS" "ratio (same run)"
row "---" "---:" "---:" "---:" "---"

for n in $sizes; do
	d="$work/fleet-$n"
	w="$work/warn-$n"
	if [ -n "$dry" ]; then
		mkdir -p "$d" "$w"
		continue
	fi
	sh "$top/bench/gen-fleet.sh" "$n" "$d"
	sh "$top/bench/gen-fleet.sh" --warn "$n" "$w"
	# the fleet must be valid and clean, or the figures would time the
	# findings path; the other must draw exactly one warning per file
	(cd "$d" && "$GPUSITE" validate sites 2>"$work/err") &&
		grep -qx "gpusite: 0 errors, 0 warnings ($n files\{0,1\}, $n sites\{0,1\})" "$work/err" &&
		[ "$(wc -l <"$work/err")" -eq 1 ] ||
		{ echo "bench: the $n-site fleet is not clean:" >&2; tail -3 "$work/err" >&2; exit 3; }
	(cd "$w" && "$GPUSITE" validate sites 2>"$work/err") &&
		grep -qx "gpusite: 0 errors, $n warnings\{0,1\} ($n files\{0,1\}, $n sites\{0,1\})" "$work/err" &&
		[ "$(wc -l <"$work/err")" -eq $((n + 1)) ] ||
		{ echo "bench: the $n-site fleet with warnings draws other findings:" >&2; tail -3 "$work/err" >&2; exit 3; }
done

# the commands paired with their floors (run in the fleet's directory)
v_cmd() { "$@" "$GPUSITE" validate -q sites; }
v_floor() { "$@" "$FLOOR" 0 sites/*.yaml; }
r_cmd() { "$@" "$GPUSITE" render sites; }
r_floor() { "$@" "$FLOOR" "$bytes" sites/*.yaml; }

for n in $sizes; do
	cd "$work/fleet-$n" || exit 3
	paired 0 v_cmd v_floor
	eval "v_ms_$n=$MS_A v_kb_$n=$KB_A v_x_$n=$X v_f_$n=$MS_B"
	row "validate" "$n" "$(ms "$MS_A")" "$(mb "$KB_A")" "$X x the parse floor"
	row "libyaml floor: parse only" "$n" "$(ms "$MS_B")" "$(mb "$KB_B")" ""
done

# the same fleet with one warning in every file: the findings path
for n in $sizes; do
	cd "$work/warn-$n" || exit 3
	paired 0 v_cmd v_floor
	eval "w_ms_$n=$MS_A w_x_$n=$X w_f_$n=$MS_B"
	row "validate, one warning in every file" "$n" "$(ms "$MS_A")" "$(mb "$KB_A")" \
		"$X x the parse floor; system time $SYS_A% of CPU"
	row "libyaml floor: parse only" "$n" "$(ms "$MS_B")" "$(mb "$KB_B")" ""
done

for n in $sizes; do
	cd "$work/fleet-$n" || exit 3
	if [ -n "$dry" ]; then
		: >"$work/out"
	else
		"$GPUSITE" render sites >"$work/out" || exit 3
	fi
	bytes=$(wc -c <"$work/out" | tr -d ' ')
	paired 0 r_cmd r_floor
	eval "r_ms_$n=$MS_A r_kb_$n=$KB_A r_x_$n=$X r_f_$n=$MS_B r_sys_$n=$SYS_A"
	out=$(awk -v b="$bytes" 'BEGIN { if (b < 1048576) printf "%.0f KB", b / 1024; else printf "%.1f MB", b / 1048576 }')
	note="$out out; $X x the parse + emit floor; system time $SYS_A% of CPU"
	if [ "$n" = 1000 ]; then
		note="$note; < 1 s: $(verdict "$(is "$MS_A" 0 "a < 1000")" "by $(ms "$(awk -v m="$MS_A" 'BEGIN{print m - 1000}')")")"
		note="$note; < 64 MB: $(verdict "$(is "$KB_A" 0 "a < 65536")" "by $(mb "$((KB_A - 65536))")")"
	fi
	row "render" "$n" "$(ms "$MS_A")" "$(mb "$KB_A")" "$note"
	row "libyaml floor: parse + emit as many bytes" "$n" "$(ms "$MS_B")" "$(mb "$KB_B")" ""
done

# growth of the per-site cost from 100 sites to the largest size
big=$(echo "$sizes" | tr ' ' '\n' | sort -n | tail -1)
case " $sizes " in
*" 100 "*)
	if [ "$big" -gt 100 ]; then
		for c in v r; do
			eval "a=\$${c}_ms_100 b=\$${c}_ms_$big"
			g=$(awk -v a="$a" -v b="$b" -v n="$big" 'BEGIN { printf "%.2f", (b / n) / (a / 100) }')
			eval "${c}_growth=$g"
			name=validate
			[ $c = r ] && name=render
			row "$name growth, 100 -> $big sites" "" "" "" "per-site cost x $g (linear: 1.00)"
		done
	fi
	;;
esac

# helm template of the device-plugin chart vs one-site generate
helm="$top/.tools/bin/helm"
chart="$UPSTREAM/nvidia-device-plugin/chart"
g_what="one-site \`generate\` vs \`helm template\` of the device-plugin chart, same values"
if [ -z "$dry" ] && [ ! -x "$helm" ]; then
	row "helm template (device-plugin chart)" 1 "-" "-" "not measured: .tools/bin/helm missing (make deps)"
	unmeasured "$g_what" "**>= 30x faster**" ".tools/bin/helm missing (make deps)"
elif [ -z "$dry" ] && [ ! -d "$chart" ]; then
	row "helm template (device-plugin chart)" 1 "-" "-" "not measured: ../shared/upstream not found"
	unmeasured "$g_what" "**>= 30x faster**" "../shared/upstream not found"
else
	d="$work/one"
	if [ -z "$dry" ]; then
		sh "$top/bench/gen-fleet.sh" 1 "$d"
		cd "$d" || exit 3
		"$GPUSITE" render --values "$d/values" sites >/dev/null || exit 3
		cp -R "$chart" "$work/chart"
		mkdir -p "$work/home"
	fi
	h_cmd() {
		HOME="$work/home" "$@" "$helm" template nvidia-device-plugin "$work/chart" \
			-n nvidia-device-plugin -f "$d/values/cluster-00001/values.yaml"
	}
	# what Argo CD sets without parameters
	g_cmd() { ARGOCD_APP_PARAMETERS=null "$@" "$GPUSITE" generate; }
	paired 0 h_cmd g_cmd
	row "helm template (device-plugin chart, the site's values)" 1 "$(ms "$MS_A")" "$(mb "$KB_A")" ""
	row "gpusite generate (whole site: stack, NodePool, policies, alerts)" 1 "$(ms "$MS_B")" "$(mb "$KB_B")" \
		"helm / generate = $X"
	goal "$g_what" "${X}x faster ($(ms "$MS_B") vs $(ms "$MS_A"))" "**>= 30x faster**" \
		"$(is "$X" 30 "a >= b")" "by $(ratio 30 "$X")x"
fi

# the fleet page of 1,000 sites in 100 clusters vs validate of the same
# fleet (the page reads, loads and checks the specs as validate does)
d="$work/page"
if [ -z "$dry" ]; then
	sh "$top/bench/gen-fleet.sh" --per-cluster 10 1000 "$d"
	cd "$d" || exit 3
fi
pv_cmd() { "$@" "$GPUSITE" validate -q sites; }
pp_cmd() { "$@" "$GPUSITE" report --format html -o "$work/page.html" sites; }
paired 0 pp_cmd pv_cmd
row "report --format html (the fleet page, 100 clusters, K 2: 5,500 what-if sets)" 1000 \
	"$(ms "$MS_A")" "$(mb "$KB_A")" "page / validate = $X"
row "validate, the same fleet" 1000 "$(ms "$MS_B")" "$(mb "$KB_B")" ""
goal "the fleet page of 1,000 sites in 100 clusters" "$(ms "$MS_A") (${X}x validate of the fleet)" \
	"**<= 500 ms**" "$(is "$MS_A" 500 "a <= b")" "by $(ms "$(awk -v a="$MS_A" 'BEGIN { print a - 500 }')")"

# the goals that need the large fleets
has() { case " $sizes " in *" $1 "*) return 0 ;; esac; return 1; }
# floor_goal WHAT C N MAX: the goal that the rows C (v, w or r) of N
# sites take at most MAX times their floor
floor_goal() {
	if has "$3"; then
		eval "x=\$${2}_x_$3 a=\$${2}_ms_$3 f=\$${2}_f_$3"
		goal "$1" "${x}x the floor ($(ms "$a") vs $(ms "$f"))" "**<= ${4}x the floor**" \
			"$(is "$x" "$4" "a <= b")" "by $(ratio "$x" "$4")x"
	else
		unmeasured "$1" "**<= ${4}x the floor**" "BENCH_SIZES lacks $3"
	fi
}
floor_goal "\`validate\` of 10,000 site files vs the libyaml parse floor (\`bench/yaml_floor\`)" v 10000 1.5
floor_goal "\`validate\` of 10,000 site files with one warning in each vs the libyaml parse floor" w 10000 1.7
floor_goal "\`render\` of 1,000 sites vs the parse+emit floor" r 1000 1.0
w="\`render\` of 10,000 sites: peak memory, and linear cost 100 -> 10,000"
if has 10000 && has 100; then
	ok=$(is "$r_kb_10000" "$r_growth" "a <= 150 * 1024 && b <= 1.25")
	miss=
	[ "$(is "$r_kb_10000" 0 "a <= 150 * 1024")" = 1 ] || miss="memory by $(mb "$((r_kb_10000 - 153600))")"
	[ "$(is "$r_growth" 0 "a <= 1.25")" = 1 ] || miss="${miss:+$miss, }per-site cost x $r_growth"
	goal "$w" "$(mb "$r_kb_10000") (system time $r_sys_10000% of CPU); per-site cost x $r_growth from 100 sites" \
		"**<= 150 MB**, linear cost (x <= 1.25)" "$ok" "$miss"
else
	unmeasured "$w" "**<= 150 MB**, linear cost" "BENCH_SIZES lacks 100 or 10000"
fi
w="\`validate\` of 10,000 files: peak memory"
if has 10000; then
	goal "$w" "$(mb "$v_kb_10000")" "**<= 64 MB**" "$(is "$v_kb_10000" 0 "a <= 64 * 1024")" \
		"by $(mb "$((v_kb_10000 - 65536))")"
else
	unmeasured "$w" "**<= 64 MB**" "BENCH_SIZES lacks 10000"
fi

# drift on the 5,000-node scenario vs kubectl on the same server
KUBECTL=$(live_kubectl)
[ -n "$dry" ] && KUBECTL=kubectl
if [ -z "$dry" ] && ! live_have_python; then
	row "gpusite drift, 5,000 nodes" "" "-" "-" "not measured: python3 or openssl missing"
elif [ -z "$KUBECTL" ]; then
	row "gpusite drift, 5,000 nodes" "" "-" "-" "not measured: kubectl missing (make deps)"
else
	if [ -z "$dry" ]; then
		live_applied "$LIVE/large/sites" || exit 3
		EKS_ARN=big-hybrid-cluster
		live_start large --applied "$SCRATCH/applied.json" >/dev/null || exit 3
		# a warm discovery cache, as a user's
		"$KUBECTL" --kubeconfig "$SCRATCH/kubeconfig" --cache-dir "$work/kc" \
			api-resources >/dev/null 2>&1
		cd "$LIVE/large" || exit 3
	fi
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
	[ -n "$dry" ] || live_stop
fi

echo
echo "Goals (each figure and its peer or floor from this run):"
echo
echo "| what | measured | goal | verdict |"
echo "|---|---|---|---|"
cat "$work/goals"
echo
echo "Machine load (1-minute load average): $load_start at the start, $(load) at the end."
