#!/bin/sh
# t2064-render-configmap-limit.sh - the API server refuses a ConfigMap
# whose data keys and values add up to more than 1 MiB (1048576 bytes).
# A site of 1,600 IAM Roles Anywhere nodes (within GS104's limits) has
# 1.2 MB of NodeConfigs: render and generate (Argo CD) fail with GS106,
# exit 1, nothing on stdout and no file written, where they printed an
# object no cluster takes and exited 0.  1,000 nodes still render.
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

# gen DIR GROUPS NODES: one site, GROUPS groups of NODES names each
gen() {
	mkdir -p "$1/sites" &&
	awk -v groups="$2" -v nodes="$3" 'BEGIN {
		print "apiVersion: gpusite.io/v1alpha1\nkind: GPUSite\nmetadata:\n  name: big\nspec:"
		print "  cluster:\n    name: big-cluster\n    region: us-west-2\n  nodeGroups:"
		for (g = 0; g < groups; g++) {
			printf "    - name: rack-%d\n      gpu: {model: l40s, perNode: 4}\n      nodes:\n", g
			for (n = 0; n < nodes; n++)
				printf "        - gpu-%d-%04d\n", g, n
			print "      credentials:\n        iamRolesAnywhere:"
			print "          trustAnchorArn: arn:aws:rolesanywhere:us-west-2:111122223333:trust-anchor/0a1b2c3d-0000-4000-8000-000000000001"
			print "          profileArn: arn:aws:rolesanywhere:us-west-2:111122223333:profile/0a1b2c3d-0000-4000-8000-000000000002"
			print "          roleArn: arn:aws:iam::111122223333:role/HybridNodesRole"
		}
		printf "  gpuStack:\n    chart:\n      version: 0.20.0\n  fallback:\n"
		printf "    instanceTypes: [g6e.12xlarge]\n    gpuLimit: %d\n    nodeImage: bottlerocket\n", groups * nodes * 4
		print "  placement:\n    namespaces: [inference]"
	}' >"$1/sites/big.yaml"
}

LINE="sites/big.yaml:9:3: error: site 'big': the ConfigMap kube-system/gpusite-nodeconfig-big would hold 1219200 bytes of NodeConfigs, over the 1048576 (1 MiB) the API server accepts in a ConfigMap: split the site's node groups into several sites [GS106]"

test_expect_success 'the spec itself is valid (the size shows only once rendered)' '
	gen over 2 800 &&
	(cd over && "$GPUSITE" validate >out 2>err) &&
	grep -qx "gpusite: 0 errors, 0 warnings (1 file, 1 site)" over/err
'

test_expect_success 'render: GS106, exit 1, nothing on stdout, no file' '
	(cd over && expect_exit 1 "$GPUSITE" render >out 2>err) &&
	test ! -s over/out &&
	grep -Fx "$LINE" over/err &&
	(cd over && expect_exit 1 "$GPUSITE" render -o stream.yaml --nodeconfigs nc >out 2>err) &&
	test ! -e over/stream.yaml && test ! -e over/nc &&
	grep -Fx "$LINE" over/err
'

test_expect_success 'generate (Argo CD): GS106, exit 1, stdout empty' '
	(cd over && expect_exit 1 "$GPUSITE" generate >gen.out 2>gen.err) &&
	test ! -s over/gen.out &&
	grep -Fx "$LINE" over/gen.err
'

test_expect_success '1,000 nodes fit: the ConfigMap renders, under 1 MiB of data' '
	gen fits 1 1000 &&
	(cd fits && "$GPUSITE" render --format json >out 2>err) &&
	test ! -s fits/err &&
	python3 - fits/out <<-\EOF
	import json, sys
	for line in open(sys.argv[1]):
	    o = json.loads(line)
	    if o["kind"] == "ConfigMap" and o["metadata"]["name"] == "gpusite-nodeconfig-big":
	        n = sum(len(k.encode()) + len(v.encode()) for k, v in o["data"].items())
	        assert len(o["data"]) == 1000 and 700000 < n <= 1048576, (len(o["data"]), n)
	        break
	else:
	    raise SystemExit("no NodeConfig ConfigMap")
	EOF
'

test_done
