#!/bin/sh
# t6400: the cost of a fleet is linear in its size.  The arena memory that
# `validate -v` and `render -v` report is exact (no timing noise), so the
# memory per site at 2,000 sites must be that at 200 sites, give or take
# 15%.  Two quadratic costs were found this way: a copy of the site array
# per site loaded (400 MB at 10,000 sites) and an array of every site per
# cluster rendered (800 MB at 10,000 sites).  Times are in `make bench`.
. "$TEST_TOP/tests/lib.sh"

export SSM_ACTIVATION_CODE_RACK_B=t6400-not-a-secret

# kib N CMD: arena KiB that `gpusite CMD -v sites` reports for N sites.
kib() {
	d="$SCRATCH/fleet-$1"
	[ -d "$d" ] || sh "$TEST_TOP/bench/gen-fleet.sh" "$1" "$d" || return 1
	(cd "$d" && "$GPUSITE" "$2" -v sites 2>&1 >/dev/null) |
		sed -n 's/.* \([0-9][0-9]*\) KiB of memory$/\1/p' | tail -1
}

# linear CMD: per-site memory at 2,000 sites within 15% of that at 200.
linear() {
	small=$(kib 200 "$1") && big=$(kib 2000 "$1") &&
	test -n "$small" && test -n "$big" &&
	echo "$1: $small KiB for 200 sites, $big KiB for 2,000" &&
	awk -v s="$small" -v b="$big" 'BEGIN {
		r = (b / 2000) / (s / 200)
		printf "per-site memory grows x %.3f\n", r
		exit !(r <= 1.15)
	}'
}

test_expect_success 'validate: memory per site is the same at 200 and 2,000 sites' '
	linear validate
'
test_expect_success 'render: memory per site is the same at 200 and 2,000 sites' '
	linear render
'
test_done
