#!/bin/sh
# t2063-render-node-limits.sh - a 2.7 MB spec of 300,000 node names passes
# the schema and every other rule, and once rendered 264 MB at 2.1 GB
# peak.  GS104 (1,000 nodes per group, 5,000 per site; docs/rules.md,
# "Limits") refuses it in validate and in render before anything is
# rendered: exit 1, nothing on stdout, no file, and the run's memory (the
# arena figure validate -v reports, exact) stays a small multiple of the
# input.  A site of 5,000 nodes in groups of 1,000 is accepted.
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

# gen DIR GROUPS NODES: one site with GROUPS IAM Roles Anywhere groups of
# NODES node names each, in flow sequences ("nodes: [g0n0,g0n1,...]")
gen() {
	mkdir -p "$1/sites" &&
	awk -v groups="$2" -v nodes="$3" 'BEGIN {
		print "apiVersion: gpusite.io/v1alpha1\nkind: GPUSite\nmetadata:\n  name: big\nspec:"
		print "  cluster:\n    name: big-cluster\n    region: us-west-2\n  nodeGroups:"
		for (g = 0; g < groups; g++) {
			printf "    - name: rack-%d\n      gpu: {model: l40s, perNode: 4}\n      nodes: [", g
			for (n = 0; n < nodes; n++)
				printf "%sg%dn%d", n ? "," : "", g, n
			print "]\n      credentials:\n        iamRolesAnywhere:"
			print "          trustAnchorArn: arn:aws:rolesanywhere:us-west-2:111122223333:trust-anchor/0a1b2c3d-0000-4000-8000-000000000001"
			print "          profileArn: arn:aws:rolesanywhere:us-west-2:111122223333:profile/0a1b2c3d-0000-4000-8000-000000000002"
			print "          roleArn: arn:aws:iam::111122223333:role/HybridNodesRole"
		}
		printf "  gpuStack:\n    chart:\n      version: 0.20.0\n  fallback:\n"
		printf "    instanceTypes: [g6e.12xlarge]\n    gpuLimit: %d\n    nodeImage: bottlerocket\n", groups * nodes * 4
		print "  placement:\n    namespaces: [inference]"
	}' >"$1/sites/big.yaml"
}

# refused DIR LINE: validate and render of DIR exit 1 with exactly LINE
# (and the summary), within two minutes, writing nothing
refused() {
	(cd "$1" && expect_exit 1 timeout 120 "$GPUSITE" validate -v >out 2>err) &&
	test ! -s "$1/out" &&
	grep -Fx "$2" "$1/err" &&
	test "$(grep -c "\[GS" "$1/err")" -eq 1 &&
	kib=$(sed -n "s/.* \([0-9][0-9]*\) KiB of memory\$/\1/p" "$1/err") &&
	bytes=$(wc -c <"$1/sites/big.yaml") &&
	echo "$bytes bytes of spec: $kib KiB of memory" &&
	test "$((kib * 1024))" -lt "$((bytes * 48))" &&
	(cd "$1" && expect_exit 1 timeout 120 "$GPUSITE" render -o stream.yaml \
		--nodeconfigs nc >out 2>err) &&
	test ! -s "$1/out" && test ! -e "$1/stream.yaml" && test ! -e "$1/nc" &&
	grep -Fx "$2" "$1/err" &&
	test "$(grep -c "\[GS" "$1/err")" -eq 1
}

test_expect_success '300,000 names in one group: GS104 for the group' '
	gen one 1 300000 &&
	test "$(wc -c <one/sites/big.yaml)" -gt 2400000 &&
	refused one "sites/big.yaml:12:7: error: node group '\''rack-0'\'' has 300000 nodes, over the limit of 1000 per group: split the servers into node groups of at most 1000 (one per rack or GPU model) [GS104]"
'

test_expect_success '300 groups of 1,000: GS104 for the site' '
	gen many 300 1000 &&
	refused many "sites/big.yaml:9:3: error: site '\''big'\'' has 300000 nodes, over the limit of 5000 per site (the node count Kubernetes is tested to for a whole cluster): split the location into several sites [GS104]"
'

test_expect_success '5 groups of 1,000: at the limits, accepted by validate' '
	gen edge 5 1000 &&
	(cd edge && "$GPUSITE" validate >out 2>err) &&
	grep -qx "gpusite: 0 errors, 0 warnings (1 file, 1 site)" edge/err
'

test_done
