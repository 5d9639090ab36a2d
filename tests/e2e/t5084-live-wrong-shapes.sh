#!/bin/sh
# t5084: a LIST answer of the wrong shape ({"kind":"NodeList","items":{"a":1}},
# items missing, metadata not an object, ...) is exit 3 "malformed answer",
# never an empty cluster (which drift would report as nodes not registered);
# the same for a single object and for discovery.
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/live.sh"

if ! live_have_python; then
	test_skip "wrong list shapes" "python3 or openssl not found"
	test_done
	exit
fi
live_certs
live_applied "$LIVE/sites" seoul-dc1 || exit 1
cp "$SCRATCH/applied.json" "$SCRATCH/applied.keep"

drift() { (cd "$LIVE" && "$GPUSITE" drift --kubeconfig "$SCRATCH/kubeconfig" "$@" sites); }

# shape NAME WHAT: the nodes list answered in shape NAME is refused with WHAT
shape() {
	live_start healthy --applied "$SCRATCH/applied.keep" --fault "wrong-shape=$1@/api/v1/nodes" &&
	expect_exit 3 drift >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	cat "$SCRATCH/err" &&
	grep -F "gpusite drift: error: malformed answer to GET https://127.0.0.1:$PORT/api/v1/nodes: $2; is that really an API server?" "$SCRATCH/err" &&
	! grep "GS204" "$SCRATCH/out" "$SCRATCH/err" &&
	! grep "not registered" "$SCRATCH/out" "$SCRATCH/err"
}

test_expect_success '{"kind":"NodeList","items":{"a":1}}: exit 3, not three unregistered nodes' '
	shape items-map "'"'"'items'"'"' is not a list"
'
test_expect_success 'items missing: exit 3' '
	shape items-missing "the list has no '"'"'items'"'"'"
'
test_expect_success 'items a string: exit 3' '
	shape items-string "'"'"'items'"'"' is not a list"
'
test_expect_success 'an item that is not an object: exit 3 naming its index' '
	shape item-string "item 1 is not an object"
'
test_expect_success 'metadata not an object: exit 3' '
	shape metadata-string "'"'"'metadata'"'"' is not an object"
'
test_expect_success 'metadata.continue a number: exit 3' '
	shape continue-number "'"'"'metadata.continue'"'"' is not a string"
'
test_expect_success 'the answer a JSON array: exit 3' '
	shape root-array "the list is not a JSON object"
'
test_expect_success 'kind Node instead of NodeList: exit 3' '
	shape kind-other "'"'"'kind'"'"' is not the kind of a list"
'

# one_shape FAULT URL-PATH WHAT: a GET or discovery answer of the wrong shape
one_shape() {
	live_start healthy --applied "$SCRATCH/applied.keep" --fault "$1" &&
	expect_exit 3 drift >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	cat "$SCRATCH/err" &&
	grep -F "gpusite drift: error: malformed answer to GET https://127.0.0.1:$PORT$2: $3; is that really an API server?" "$SCRATCH/err"
}
test_expect_success 'a single object (GET of the fallback NodePool) that is a JSON array: exit 3, not "missing"' '
	one_shape wrong-shape=object-array@/apis/karpenter.sh/v1/nodepools/ \
		/apis/karpenter.sh/v1/nodepools/seoul-dc1-gpu-fallback "the object is not a JSON object" &&
	! grep "GS210" "$SCRATCH/out" "$SCRATCH/err"
'
test_expect_success 'a single object whose metadata is a string: exit 3' '
	one_shape wrong-shape=object-metadata-string@/apis/karpenter.sh/v1/nodepools/ \
		/apis/karpenter.sh/v1/nodepools/seoul-dc1-gpu-fallback "'"'"'metadata'"'"' is not an object"
'
test_expect_success 'discovery whose resources are a mapping: exit 3, not "kind not served"' '
	one_shape wrong-shape=resources-map@/api/v1 /api/v1 "'"'"'resources'"'"' is not a list"
'

test_done
