#!/bin/sh
# gen-fleet.sh [--warn] [--per-cluster M] N DIR: write N site specs to
# DIR/sites/ - distinct site names, clusters (or M sites a cluster, each with
# namespaces of its own, the cluster's sites on one provisioner and GPU
# stack) and node names, a mix of IAM Roles Anywhere and SSM
# node groups, of both GPU stacks, both provisioners and both fallback node
# images - for the benchmark and load tests.  They validate with no
# finding at all, as a real fleet would.  With --warn every site draws one
# warning, GS045 (its fallback gpuLimit covers less than half of its
# on-prem GPUs), and nothing else: the same fleet on the findings path.
set -eu
usage="usage: gen-fleet.sh [--warn] [--per-cluster M] N DIR"
limit=16
per=1
if [ "${1:-}" = --warn ]; then
	limit=4
	shift
fi
if [ "${1:-}" = --per-cluster ]; then
	per=${2:?$usage}
	shift 2
fi
n=${1:?$usage}
dir=${2:?$usage}
mkdir -p "$dir/sites"

awk -v n="$n" -v dir="$dir/sites" -v limit="$limit" -v per="$per" 'BEGIN {
	for (i = 1; i <= n; i++) {
		site = sprintf("site-%05d", i)
		f = dir "/" site ".yaml"
		c = int((i - 1) / per) + 1	# the cluster: i itself when per is 1
		auto = (c % 4 == 0)		# every fourth cluster on EKS Auto Mode
		print "apiVersion: gpusite.io/v1alpha1" > f
		print "kind: GPUSite" > f
		print "metadata:" > f
		print "  name: " site > f
		print "spec:" > f
		print "  cluster:" > f
		printf "    name: cluster-%05d\n", c > f
		print "    region: us-west-2" > f
		print "    provisioner: " (auto ? "auto-mode" : "karpenter") > f
		print "    kubernetesVersion: \"1.35\"" > f
		print "  nodeGroups:" > f
		print "    - name: rack-a" > f
		print "      gpu: {model: l40s, perNode: 4}" > f
		printf "      nodes: [%s-gpu-01, %s-gpu-02]\n", site, site > f
		print "      credentials:" > f
		print "        iamRolesAnywhere:" > f
		print "          trustAnchorArn: arn:aws:rolesanywhere:us-west-2:111122223333:trust-anchor/1f2e3d4c-aaaa-bbbb-cccc-111122223333" > f
		print "          profileArn: arn:aws:rolesanywhere:us-west-2:111122223333:profile/9a8b7c6d-aaaa-bbbb-cccc-111122223333" > f
		print "          roleArn: arn:aws:iam::111122223333:role/HybridNodesRole" > f
		print "      labels:" > f
		print "        topology.example.com/rack: a" > f
		print "    - name: rack-b" > f
		print "      gpu: {model: l40s, perNode: 4}" > f
		print "      count: 2" > f
		print "      credentials:" > f
		print "        ssm:" > f
		printf "          activationId: 4b2c1a3e-5d6f-4a7b-8c9d-%012d\n", i > f
		print "          activationCodeEnv: SSM_ACTIVATION_CODE_RACK_B" > f
		print "  gpuStack:" > f
		print "    type: " (c % 2 ? "device-plugin" : "gpu-operator") > f
		print "    chart: {version: " (c % 2 ? "0.20.0" : "v25.3.0") "}" > f
		print "  fallback:" > f
		print "    instanceTypes: [g6e.12xlarge, g6e.24xlarge]" > f
		print "    gpuLimit: " limit > f
		print "    minGpuMemoryMiB: 40000" > f
		print "    expireAfter: " (auto ? "336h" : "720h") > f
		print "    consolidateAfter: 5m" > f
		if (!auto)			# auto-mode brings its own image
			print "    nodeImage: " (i % 3 ? "al2023" : "bottlerocket") > f
		print "  placement:" > f
		print "    mode: prefer-onprem" > f
		if (per == 1)
			print "    namespaces: [inference, batch]" > f
		else
			printf "    namespaces: [inference-%s, batch-%s]\n", site, site > f
		print "  recovery:" > f
		print "    targetRTO: 20m" > f
		print "    nodeProvisioning: 4m" > f
		print "    imagePull: 6m" > f
		print "    modelLoad: 3m" > f
		close(f)
	}
}'
