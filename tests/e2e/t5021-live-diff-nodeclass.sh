#!/bin/sh
# t5021: `gpusite diff --live` compares the EC2NodeClass a site renders
# (fallback.nodeClass) with the live one: an amiSelectorTerms alias
# changed in the cluster is a difference (golden, byte for byte); what
# the API server and Karpenter add (finalizers, the inferred amiFamily,
# status.amis) is not.  A stale gpusite EC2NodeClass shows whole with '-'.
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/live.sh"

if ! live_have_python; then
	test_skip "diff --live of the EC2NodeClass" "python3 or openssl not found"
	test_done
	exit
fi
nc="$LIVE/nodeclass-diff"
live_certs
live_applied "$nc/sites" seoul-dc1 >/dev/null 2>&1 || true
cp "$SCRATCH/applied.json" "$SCRATCH/applied.keep" 2>/dev/null

test_expect_success 'the site renders its EC2NodeClass (so the test means something)' '
	grep "\"kind\":\"EC2NodeClass\"" "$SCRATCH/applied.keep" &&
	grep "bottlerocket@v1.26.0" "$SCRATCH/applied.keep"
'
test_expect_success 'in sync: server-defaulted fields of the EC2NodeClass are no difference' '
	live_start healthy --applied "$SCRATCH/applied.keep" &&
	(cd "$nc" && expect_exit 0 "$GPUSITE" diff --live \
		--kubeconfig "$SCRATCH/kubeconfig" sites >"$SCRATCH/out" 2>"$SCRATCH/err") &&
	echo "0 objects changed, 0 added, 0 removed" >"$SCRATCH/want" &&
	test_cmp "$SCRATCH/want" "$SCRATCH/out"
'
test_expect_success 'amiSelectorTerms changed by hand: one diff, the defaults not in it' '
	live_start nodeclass-diff --applied "$SCRATCH/applied.keep" &&
	(cd "$nc" && expect_exit 1 "$GPUSITE" diff --live \
		--kubeconfig "$SCRATCH/kubeconfig" sites >"$SCRATCH/out" 2>"$SCRATCH/err") &&
	live_golden "$nc/expected/diff-live.txt" "$SCRATCH/out" &&
	grep "^--- live/EC2NodeClass/seoul-dc1-fallback$" "$SCRATCH/out" &&
	grep "^-  - alias: bottlerocket@v1.27.1$" "$SCRATCH/out" &&
	grep "^+  - alias: bottlerocket@v1.26.0$" "$SCRATCH/out" &&
	! grep "finalizers\|amiFamily\|ami-0a1b2c3d4e5f60718\|instanceProfile" "$SCRATCH/out" &&
	tail -1 "$SCRATCH/out" | grep "^1 objects changed, 0 added, 0 removed$" &&
	only_gets
'
test_expect_success 'an EC2NodeClass gpusite no longer renders is shown whole with -' '
	# the same site without its nodeClass block (and, like the spec that
	# rendered it, bottlerocket: no fallback plugin Application to add)
	mkdir -p "$SCRATCH/gone/sites" &&
	sed "s/^    nodeImage: al2023$/    nodeImage: bottlerocket/" "$LIVE/sites/seoul-dc1.yaml" \
		>"$SCRATCH/gone/sites/seoul-dc1.yaml" &&
	! grep -q nodeClass: "$SCRATCH/gone/sites/seoul-dc1.yaml" &&
	live_start nodeclass-diff --applied "$SCRATCH/applied.keep" &&
	(cd "$SCRATCH/gone" && expect_exit 1 "$GPUSITE" diff --live \
		--kubeconfig "$SCRATCH/kubeconfig" sites >"$SCRATCH/out" 2>"$SCRATCH/err") &&
	grep "^--- live/EC2NodeClass/seoul-dc1-fallback$" "$SCRATCH/out" &&
	grep "^@@ -1,[0-9]* +0,0 @@" "$SCRATCH/out" &&
	tail -1 "$SCRATCH/out" | grep ", 0 added, 1 removed$"
'

test_done
