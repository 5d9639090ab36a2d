#!/bin/sh
# t5082: one whole LIST is bounded across its pages, not only each page.
# A server that sends 20,000 nodes a page with a new continue token every
# time stops at the object cap (100,000 by default, GPUSITE_LIST_MAX_OBJECTS)
# or the byte cap (256 MiB, GPUSITE_LIST_MAX_MIB) with exit 3, bounded
# memory and a bounded number of requests; a server that repeats its
# continue token is refused at the first repeat.
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/live.sh"

if ! live_have_python; then
	test_skip "list bounds" "python3 or openssl not found"
	test_done
	exit
fi
live_certs
live_applied "$LIVE/sites" seoul-dc1 || exit 1
cp "$SCRATCH/applied.json" "$SCRATCH/applied.keep"

drift() { (cd "$LIVE" && "$GPUSITE" drift --kubeconfig "$SCRATCH/kubeconfig" "$@" sites); }
node_lists() { grep -c "^GET /api/v1/nodes?" "$SCRATCH/requests.log"; }

if [ -n "${GPUSITE_SANITIZE:-}${GPUSITE_VALGRIND:-}" ]; then
	test_skip "endless continue tokens: peak memory bounded" "sanitizer or valgrind run"
else
test_expect_success 'endless distinct continue tokens, 20,000 nodes a page: exit 3 at 100,000 objects, RSS and requests bounded' '
	if [ ! -x /usr/bin/time ]; then echo "/usr/bin/time missing" >&2; exit 1; fi &&
	live_start healthy --applied "$SCRATCH/applied.keep" --fault continue-endless=20000@/api/v1/nodes &&
	(cd "$LIVE" && timeout 120 /usr/bin/time -f "%M" -o "$SCRATCH/rss" \
		"$GPUSITE" drift --kubeconfig "$SCRATCH/kubeconfig" sites >"$SCRATCH/out" 2>"$SCRATCH/err"
	 echo $? >"$SCRATCH/rc") &&
	[ "$(cat "$SCRATCH/rc")" -eq 3 ] &&
	grep "error: the list of nodes from https://127.0.0.1:$PORT/api/v1/nodes has more than 100000 objects over its pages; refusing to read on (raise GPUSITE_LIST_MAX_OBJECTS if the cluster really is that large)$" "$SCRATCH/err" &&
	[ "$(node_lists)" -eq 6 ] &&
	kib=$(tail -1 "$SCRATCH/rss") &&
	echo "peak RSS $kib KiB" &&
	test "$kib" -lt 1048576
'
fi
test_expect_success 'GPUSITE_LIST_MAX_OBJECTS lowers the object cap' '
	live_start healthy --applied "$SCRATCH/applied.keep" --fault continue-endless=2000@/api/v1/nodes &&
	GPUSITE_LIST_MAX_OBJECTS=5000 expect_exit 3 drift >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	grep "has more than 5000 objects over its pages" "$SCRATCH/err" &&
	[ "$(node_lists)" -eq 3 ]
'
test_expect_success 'GPUSITE_LIST_MAX_MIB caps the bytes of the whole list' '
	live_start healthy --applied "$SCRATCH/applied.keep" --fault continue-endless=2000@/api/v1/nodes &&
	GPUSITE_LIST_MAX_MIB=10 expect_exit 3 drift >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	grep "error: the list of nodes from https://127.0.0.1:$PORT/api/v1/nodes is larger than 10 MiB over its pages; refusing to read on (raise GPUSITE_LIST_MAX_MIB if the cluster really is that large)$" "$SCRATCH/err" &&
	[ "$(node_lists)" -le 4 ]
'
test_expect_success 'a bad cap value is exit 3 naming the variable' '
	live_start healthy --applied "$SCRATCH/applied.keep" &&
	GPUSITE_LIST_MAX_OBJECTS=lots expect_exit 3 drift >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	grep "GPUSITE_LIST_MAX_OBJECTS=.lots. is not a positive whole number" "$SCRATCH/err" &&
	GPUSITE_LIST_MAX_MIB=0 expect_exit 3 drift >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	grep "GPUSITE_LIST_MAX_MIB=.0. is not a positive whole number" "$SCRATCH/err"
'
test_expect_success 'the same continue token again: exit 3 at the first repeat, two requests' '
	live_start healthy --applied "$SCRATCH/applied.keep" --fault continue-repeat@/api/v1/nodes &&
	expect_exit 3 drift >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	grep "error: the API server sent the same continue token twice in the list of nodes from https://127.0.0.1:$PORT/api/v1/nodes (after 2 objects): the list would never end; is that really an API server?$" "$SCRATCH/err" &&
	[ "$(node_lists)" -eq 2 ] &&
	no_leak "$SCRATCH/out" "$SCRATCH/err"
'
test_expect_success 'an ordinary paged list (5,000 nodes in 10 pages) is still read whole' '
	live_start large &&
	drift >"$SCRATCH/out" 2>"$SCRATCH/err"; rc=$? &&
	[ "$rc" -le 1 ] &&
	! grep -e "refusing to read on" -e "continue token" "$SCRATCH/err" &&
	[ "$(node_lists)" -ge 10 ]
'

test_done
