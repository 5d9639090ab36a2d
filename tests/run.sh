#!/bin/sh
# run.sh [unit|scripts]: run every test layer and print one closing line,
# "N passed, N failed, N skipped".  Every runner speaks TAP ("ok" / "not ok"
# lines; "# SKIP why" marks a skip, which is printed, never silent).
# cmocka binaries are switched to TAP with CMOCKA_MESSAGE_OUTPUT.
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
layer=${1:-all}
logdir="$odir/test-logs"
rm -rf "$logdir" && mkdir -p "$logdir"
pass=0 fail=0 skip=0 broken=""

run_one() {	# run_one NAME CMD...
	name=$1; shift
	log="$logdir/$(echo "$name" | tr '/' '_').log"
	"$@" >"$log" 2>&1 </dev/null
	rc=$?
	# cmocka's TAP marks a skip "not ok N # SKIP": a skip, not a failure
	p=$(grep -c '^ok ' "$log" | tr -d ' ')
	s=$(grep -Ec '^(not )?ok .*# [Ss][Kk][Ii][Pp]' "$log" | tr -d ' ')
	sp=$(grep -c '^ok .*# [Ss][Kk][Ii][Pp]' "$log" | tr -d ' ')
	f=$(grep '^not ok' "$log" | grep -vc '# [Ss][Kk][Ii][Pp]' | tr -d ' ')
	p=$((p - sp))
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		echo "not ok - $name exited $rc without reporting a failure" >>"$log"
	fi
	if [ "$((p + f + s))" -eq 0 ]; then
		f=1
		echo "not ok - $name ran no test" >>"$log"
	fi
	pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
	status=ok; [ "$f" -gt 0 ] && status=FAIL
	printf '%-48s %4d passed %3d failed %3d skipped  %s\n' "$name" "$p" "$f" "$s" "$status"
	grep -E '^(not )?ok .*# [Ss][Kk][Ii][Pp]' "$log" | sed 's/^/    /'
	# headline figures a runner wants seen (conformance counts, agreement)
	grep -E '^# (JSON-Schema-Test-Suite|ajv cross-check|conformance|summary):' "$log" | sed 's/^# /    /'
	if [ "$f" -gt 0 ]; then
		broken="$broken $name"
		grep -v '^not ok .*# [Ss][Kk][Ii][Pp]' "$log" | grep -B2 -A25 '^not ok' | head -80 | sed 's/^/    | /'
	fi
}

if [ "$layer" = all ] || [ "$layer" = unit ]; then
	for t in "$odir"/tests/test_*; do
		[ -x "$t" ] || continue
		run_one "unit/$(basename "$t")" "$t"
	done
fi
# A test writes in its scratch directory, never in the checkout: the files
# git does not know of before and after the scripts must be the same.
untracked() {
	git -C "$top" ls-files --others --exclude-standard 2>/dev/null | sort
}
if [ "$layer" = all ] || [ "$layer" = scripts ]; then
	untracked >"$logdir/untracked.before"
	for t in tests/golden/t*.sh tests/e2e/t*.sh; do
		[ -f "$t" ] || continue
		run_one "$t" sh "$t"
	done
	untracked >"$logdir/untracked.after"
	left=$(comm -13 "$logdir/untracked.before" "$logdir/untracked.after")
	if [ -n "$left" ]; then
		fail=$((fail + 1))
		broken="$broken checkout-clean"
		echo "checkout-clean: the scripts left files in the checkout (write them under \$SCRATCH):"
		echo "$left" | sed 's/^/    | /'
	else
		pass=$((pass + 1))
		printf '%-48s %4d passed %3d failed %3d skipped  %s\n' "checkout-clean" 1 0 0 ok
	fi
fi

echo
[ -n "$broken" ] && echo "failing:$broken"
echo "logs: $logdir/"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
