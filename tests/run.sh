#!/bin/sh
# run.sh [unit|scripts]: run every test layer and print one closing line,
# "N passed, N failed, N skipped".  Every runner speaks TAP ("ok" / "not ok"
# lines; "# SKIP why" marks a skip, which is printed, never silent).
# cmocka binaries are switched to TAP with CMOCKA_MESSAGE_OUTPUT.
#
# The runners (unit binaries, golden runners, e2e scripts) are a job list
# run TEST_JOBS at a time (default: twice the CPUs, since most of a
# script's time is waiting on a server or a child, not CPU); each writes
# its own log, scratch directory and ports.  The lines come out sorted by
# runner name, each as soon as it and the ones before it are done, with
# the seconds it took.  t6999 (the sanitizer and valgrind reports of
# every other runner) runs strictly last, then the checkout-clean check.
#
# tests/budgets gives each runner a budget in seconds (a default for the
# others), scaled under the sanitizers or valgrind: a runner still going
# at its budget is stopped and is a failure naming its time and budget.
# Runners tagged "noasan" there (packaging, dist, image, tree rebuilds,
# the fuzz build) are skipped, visibly, in the sanitizer pass.
#
# What runners share within one run (a package built once for two of
# them) is under $TEST_SHARED, $O/test-shared, made afresh for each run.
#
# Internal: run.sh --job NAME runs one runner for the parent (via xargs).
set -u
O=${O:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
# O may be relative to the top of the tree or absolute
case $O in
/*) odir=$O ;;
*) odir=$top/$O ;;
esac
export GPUSITE="$odir/gpusite" TEST_TOP="$top" O
export CMOCKA_MESSAGE_OUTPUT=TAP
export LC_ALL=C TZ=UTC
logdir="$odir/test-logs"
state="$logdir/.jobs"
budgets="$top/tests/budgets"

# which pass this is: the budget table's factors and tags depend on it
if [ -n "${GPUSITE_VALGRIND:-}" ]; then
	pass_kind=valgrind
elif [ -n "${GPUSITE_SANITIZE:-}" ]; then
	pass_kind=sanitize
else
	pass_kind=plain
fi
# the seconds each runner took when this build directory last ran it in
# this pass ("SECONDS NAME" lines): the order of the next run
times="$odir/test-times.$pass_kind"

# budget_of NAME: seconds NAME may take in this pass (its row or the
# default, times the pass's factor)
budget_of() {
	[ -f "$budgets" ] || { echo 300; return; }
	awk -v n="$1" -v k="$pass_kind" '
		$1 == "default" { d = $2 }
		$1 == "factor" && $2 == k { f = $3 }
		$1 == n { b = $2 }
		END { if (b == "") b = d; if (f == "") f = 1; printf "%d\n", b * f }
	' "$budgets"
}

# tagged NAME TAG: NAME's row in the budget table carries TAG
tagged() {
	[ -f "$budgets" ] || return 1
	awk -v n="$1" -v t="$2" '
		$1 == n { for (i = 3; i <= NF; i++) if ($i == t) found = 1 }
		END { exit !found }
	' "$budgets"
}

# logname NAME: the log file of runner NAME
logname() {
	echo "$logdir/$(echo "$1" | tr '/' '_').log"
}

# job NAME: run one runner under its budget; leave its summary line(s)
# in $state/FILE.out and "passed failed skipped" in $state/FILE.res
job() {
	name=$1
	base=$(echo "$name" | tr '/' '_')
	log=$(logname "$name")
	case $name in
	unit/*) set -- "$odir/tests/${name#unit/}" ;;
	*) set -- sh "$name" ;;
	esac
	budget=$(budget_of "$name")
	# the CPU seconds (user + system) of the runner and what it waited for,
	# when /usr/bin/time is there (make deps installs it): on a shared
	# machine the wall time says little of what a runner costs
	rm -f "$state/$base.cpu"
	[ -x /usr/bin/time ] && set -- /usr/bin/time -f '%U %S' -o "$state/$base.cpu" "$@"
	t0=$(date +%s)
	# timeout stops the runner's whole process group (servers it started
	# included) at the budget; -k: KILL what ignores TERM 10 s later.  That
	# group is not the terminal's: an interrupt of the run is passed on.
	timeout -k 10 "$budget" "$@" >"$log" 2>&1 </dev/null &
	tpid=$!
	trap 'kill -TERM "$tpid" 2>/dev/null; exit 130' INT TERM HUP
	wait "$tpid"
	rc=$?
	trap - INT TERM HUP
	secs=$(($(date +%s) - t0))
	# cmocka's TAP marks a skip "not ok N # SKIP": a skip, not a failure
	p=$(grep -ac '^ok ' "$log" | tr -d ' ')
	s=$(grep -aEc '^(not )?ok .*# [Ss][Kk][Ii][Pp]' "$log" | tr -d ' ')
	sp=$(grep -ac '^ok .*# [Ss][Kk][Ii][Pp]' "$log" | tr -d ' ')
	f=$(grep -a "^not ok" "$log" | grep -vc '# [Ss][Kk][Ii][Pp]' | tr -d ' ')
	p=$((p - sp))
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ] || [ "$secs" -gt "$budget" ]; then
		f=$((f + 1))
		echo "not ok - $name over its budget: stopped after $secs s, budget $budget s (tests/budgets, $pass_kind pass)" >>"$log"
	elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		echo "not ok - $name exited $rc without reporting a failure" >>"$log"
	fi
	if [ "$((p + f + s))" -eq 0 ]; then
		f=1
		echo "not ok - $name ran no test" >>"$log"
	fi
	status=ok; [ "$f" -gt 0 ] && status=FAIL
	cpu=$(awk 'NF == 2 && $1 ~ /^[0-9.]+$/ { printf "%.1f", $1 + $2 }' "$state/$base.cpu" 2>/dev/null)
	{
		printf '%-48s %4d passed %3d failed %3d skipped %4d s %6s s CPU  %s\n' \
			"$name" "$p" "$f" "$s" "$secs" "${cpu:--}" "$status"
		grep -aE '^(not )?ok .*# [Ss][Kk][Ii][Pp]' "$log" | sed 's/^/    /'
		# headline figures a runner wants seen (conformance counts, agreement)
		grep -aE '^# (JSON-Schema-Test-Suite|ajv cross-check|conformance|summary):' "$log" | sed 's/^# /    /'
		if [ "$f" -gt 0 ]; then
			grep -av '^not ok .*# [Ss][Kk][Ii][Pp]' "$log" | grep -aB2 -A25 '^not ok' | head -80 | sed 's/^/    | /'
		fi
	} >"$state/$base.out"
	echo "$secs $name" >"$state/$base.secs"
	[ -n "$cpu" ] && echo "$cpu" >"$state/$base.cpus"
	echo "$p $f $s" >"$state/$base.res.tmp" && mv "$state/$base.res.tmp" "$state/$base.res"
}

if [ "${1:-}" = --job ]; then
	job "$2"
	exit 0
fi

layer=${1:-all}
ncpu=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
jobs=${TEST_JOBS:-$((2 * ncpu))}
rm -rf "$logdir" && mkdir -p "$state"
# what runners of this run share, made once by the first that needs it
# (tests/tools/debroot.sh: the package the README's make image builds, for
# the package and the image tests): afresh for each run, gone at its end
shared="$odir/test-shared"
rm -rf "$shared" && mkdir -p "$shared"
export TEST_SHARED="$shared"
pass=0 fail=0 skip=0 broken=""

# collect NAME: add the result of a finished runner to the totals, print it
collect() {
	base=$(echo "$1" | tr '/' '_')
	if [ -f "$state/$base.res" ]; then
		read -r p f s <"$state/$base.res"
		cat "$state/$base.out"
	else
		p=0 f=1 s=0
		printf '%-48s %4d passed %3d failed %3d skipped %15s  %s\n' "$1" 0 1 0 "" FAIL
		echo "    | not ok - $1 left no result (the runner was killed?)"
	fi
	pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
	[ "$f" -gt 0 ] && broken="$broken $1"
}

# the runners of this layer, sorted by name; t6999 apart (last of all)
names=$({
	if [ "$layer" = all ] || [ "$layer" = unit ]; then
		for t in "$odir"/tests/test_*; do
			[ -x "$t" ] && echo "unit/$(basename "$t")"
		done
	fi
	if [ "$layer" = all ] || [ "$layer" = scripts ]; then
		for t in tests/golden/t*.sh tests/e2e/t*.sh; do
			[ -f "$t" ] && echo "$t"
		done
	fi
} | LC_ALL=C sort)
last=$(echo "$names" | grep '/t6999-[^/]*\.sh$')
names=$(echo "$names" | grep -v '/t6999-[^/]*\.sh$')
# the ones this pass skips (tagged noasan under the sanitizers or valgrind)
skipped=
if [ "$pass_kind" != plain ]; then
	for n in $names; do
		tagged "$n" noasan && skipped="$skipped $n"
	done
fi
run=$(for n in $names; do
	case " $skipped " in *" $n "*) ;; *) echo "$n" ;; esac
done)

# A test writes in its scratch directory, never in the checkout: the files
# git does not know of before and after the scripts must be the same.
untracked() {
	git -C "$top" ls-files --others --exclude-standard 2>/dev/null | sort
}
[ "$layer" = unit ] || untracked >"$logdir/untracked.before"

echo "tests: $(echo "$run" | grep -c .) runners, $jobs at a time ($pass_kind pass; TEST_JOBS sets it)"
# The longest first, so the tail of the run is short ones: by the seconds
# each took when this build directory last ran it (times, below), else by
# a third of the budget of its row (budgets are two to three times a
# runner's time); a runner without a row (most take a few seconds) after
# every one with a row, so on a fresh clone the rows give the order.
if [ -n "$run" ]; then
	for n in $run; do
		echo "$n"
	done | awk -v f="$times" -v b="$budgets" '
		BEGIN {
			while ((getline l < f) > 0) { split(l, a, " "); if (a[1] ~ /^[0-9]+$/) t[a[2]] = a[1] }
			while ((getline l < b) > 0) {
				split(l, a, " ")
				if (a[1] != "default" && a[1] != "factor" && a[2] ~ /^[0-9]+$/) r[a[1]] = a[2]
			}
		}
		{ print (($1 in t) ? t[$1] : (($1 in r) ? int(r[$1] / 3) : 0)), $1 }
	' | sort -k1,1nr -k2 | cut -d' ' -f2 |
		xargs -P "$jobs" -n 1 sh "$top/tests/run.sh" --job &
	xpid=$!
else
	xpid=
fi
for n in $names; do
	case " $skipped " in
	*" $n "*)
		skip=$((skip + 1))
		printf '%-48s %4d passed %3d failed %3d skipped %15s  %s\n' "$n" 0 0 1 "" "skip: not in the $pass_kind pass (noasan in tests/budgets)"
		continue
		;;
	esac
	base=$(echo "$n" | tr '/' '_')
	while [ ! -f "$state/$base.res" ] && kill -0 "$xpid" 2>/dev/null; do
		sleep 1
	done
	collect "$n"
done
[ -n "$xpid" ] && wait "$xpid"
# t6999 reads what every other runner left: strictly after all of them
for n in $last; do
	job "$n"
	collect "$n"
done

# keep this run's times for the next one's order (the runners this run
# did not start keep theirs); a new file moved over the old, never a write
# through what is there
if [ -n "$run" ]; then
	cat "$state"/*.secs 2>/dev/null >"$state/times.new"
	[ -f "$times" ] && [ ! -L "$times" ] && awk 'NR == FNR { seen[$2] = 1; next } !($2 in seen)' \
		"$state/times.new" "$times" >>"$state/times.new"
	sort -k2 "$state/times.new" >"$state/times.sorted" && mv -f "$state/times.sorted" "$times"
fi

if [ "$layer" != unit ]; then
	untracked >"$logdir/untracked.after"
	left=$(comm -13 "$logdir/untracked.before" "$logdir/untracked.after")
	if [ -n "$left" ]; then
		fail=$((fail + 1))
		broken="$broken checkout-clean"
		echo "checkout-clean: the scripts left files in the checkout (write them under \$SCRATCH):"
		echo "$left" | sed 's/^/    | /'
	else
		pass=$((pass + 1))
		printf '%-48s %4d passed %3d failed %3d skipped %15s  %s\n' "checkout-clean" 1 0 0 "" ok
	fi
fi

rm -rf "$shared"
echo
cpus=$(cat "$state"/*.cpus 2>/dev/null | awk '{ t += $1 } END { print t + 0 }')
echo "runners: $cpus s of CPU in all"
[ -n "$broken" ] && echo "failing:$broken"
echo "logs: $logdir/"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
