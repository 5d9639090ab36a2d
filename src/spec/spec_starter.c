/*
 * spec_starter.c - the commented starter site spec `gpusite init` writes:
 * valid as it is, with no warning, every default written out.
 */
#include "base/buf.h"
#include "spec/spec_starter.h"

/* The starter's second half: the stack, the fallback, placement and
 * alerts, with the defaults written out; the namespaces placed go
 * between starter_stack and starter_alerts. */
static const char starter_stack[] =
	"  # The NVIDIA stack, scoped to hybrid nodes only: EKS Auto Mode and\n"
	"  # Bottlerocket GPU nodes bring their own device plugin.\n"
	"  gpuStack:\n"
	"    type: device-plugin           # device-plugin | gpu-operator\n"
	"    chart:\n"
	"      version: 0.20.0             # one exact chart version, never a range\n"
	"    gfd: true                     # GPU Feature Discovery labels\n"
	"\n"
	"  # Karpenter fallback NodePool: zero nodes until pods cannot run on-prem;\n"
	"  # the GPU limit caps the cloud bill, consolidation hands nodes back.\n"
	"  fallback:\n"
	"    enabled: true\n"
	"    instanceTypes: [g6e.12xlarge]  # 4 x L40S, 45,776 MiB each\n"
	"    capacityType: on-demand       # on-demand | spot | reserved\n"
	"    gpuLimit: 8                   # nvidia.com/gpu the pool may launch in total\n"
	"    # Every fallback GPU must hold the served model, so this must not exceed\n"
	"    # the GPU memory of any listed type (GS042): 40000 fits the L40S but not\n"
	"    # the L4 of g6.* types such as g6.12xlarge (22,888 MiB) - lower it to\n"
	"    # 22888 or less before you list those.\n"
	"    minGpuMemoryMiB: 40000\n"
	"    expireAfter: 720h\n"
	"    consolidationPolicy: WhenEmptyOrUnderutilized\n"
	"    consolidateAfter: 5m\n"
	"    # EDIT: what the fallback nodes boot, the AMI family of their EC2NodeClass:\n"
	"    # al2023 (the EKS-optimized NVIDIA AMI has no device plugin, so gpusite\n"
	"    # renders one for those nodes) | bottlerocket (brings its own plugin)\n"
	"    nodeImage: al2023\n"
	"\n"
	"  # Which workloads prefer on-prem GPUs and fail over to the cloud.\n"
	"  placement:\n"
	"    mode: prefer-onprem           # prefer-onprem | require-onprem\n"
	"    engine: kyverno               # kyverno | kyverno-clusterpolicy |\n"
	"                                  # mutating-admission-policy | none\n"
	"    # EDIT: the namespaces of your GPU workloads.  The starter's is named\n"
	"    # after the site: two sites of one cluster must not place one namespace\n"
	"    # (GS171).\n";

static const char starter_alerts[] =
	"    notReadyTolerationSeconds: 300\n"
	"    unreachableTolerationSeconds: 300\n"
	"\n"
	"  # Optional: check the failover time against a target (GS060).\n"
	"  # recovery:\n"
	"  #   targetRTO: 20m\n"
	"  #   nodeProvisioning: 4m        # a cloud GPU node becoming Ready\n"
	"  #   imagePull: 6m               # the inference image on a cold node\n"
	"  #   modelLoad: 3m               # model weights until ready\n"
	"\n"
	"  alerts:\n"
	"    enabled: true                 # PrometheusRule: fallback active, near its "
	"limit\n"
	"    namespace: monitoring\n";

/*
 * The starter spec.  Its values are chosen to pass every rule without a
 * warning: the fallback's L40S has as much memory per GPU as the on-prem
 * model, its limit covers the on-prem GPUs, the RTO budget fits.
 */
int
spec_starter(struct buf *b, const char *name, const char *schema)
{
	if (buf_printf(
		    b,
		    "# yaml-language-server: $schema=%s\n"
		    "# Write the schema file once, where you ran gpusite init:\n"
		    "#   gpusite schema > " SPEC_SCHEMA_PATH "\n"
		    "#\n"
		    "# GPU site '%s': on-prem GPU servers joined to an EKS cluster as hybrid\n"
		    "# nodes, tainted at join time, with a cloud fallback that stays at zero\n"
		    "# nodes until the on-prem GPUs fail.  Edit the values marked EDIT, then run\n"
		    "#   gpusite validate\n"
		    "apiVersion: gpusite.io/v1alpha1\n"
		    "kind: GPUSite\n"
		    "metadata:\n"
		    "  name: %s  # a DNS-1123 label, unique across the repository\n"
		    "spec:\n"
		    "  cluster:\n"
		    "    name: your-eks-cluster        # EDIT: the EKS cluster the nodes join\n"
		    "    region: us-west-2             # EDIT: its AWS region\n"
		    "    provisioner: karpenter        # karpenter | auto-mode (EKS Auto Mode)\n"
		    "    kubernetesVersion: \"1.35\"     # EDIT: its Kubernetes version (picks"
		    " the admission policy API versions)\n"
		    "\n"
		    "  # The taint every on-prem GPU node registers with (nodeadm passes it to\n"
		    "  # the kubelet as --register-with-taints), so no pod lands there between\n"
		    "  # join and a later kubectl taint.  These are the defaults.\n"
		    "  gpuTaint:\n"
		    "    key: nvidia.com/gpu\n"
		    "    value: Exists\n"
		    "    effect: NoSchedule\n"
		    "\n"
		    "  nodeGroups:                     # on-prem GPU servers, at least one group\n"
		    "    - name: rack-a\n"
		    "      gpu:\n"
		    "        model: l40s               # EDIT: lower-case GPU name (h200, h100, "
		    "l40s, ...)\n"
		    "        perNode: 4                # GPUs per server, 1..16\n"
		    "      count: 2                    # servers in the group\n"
		    "      credentials:                # exactly one of ssm | iamRolesAnywhere\n"
		    "        ssm:\n"
		    "          # EDIT: the hybrid activation of this group (aws ssm "
		    "create-activation)\n"
		    "          activationId: 00000000-0000-4000-8000-000000000000\n"
		    "          # The activation code itself never lives in Git: render reads it\n"
		    "          # from this environment variable.\n"
		    "          activationCodeEnv: SSM_ACTIVATION_CODE_RACK_A\n"
		    "        # iamRolesAnywhere:       # the alternative; it needs `nodes: [...]`\n"
		    "        #   trustAnchorArn: arn:aws:rolesanywhere:us-west-2:000000000000:"
		    "trust-anchor/00000000-0000-4000-8000-000000000000\n"
		    "        #   profileArn: arn:aws:rolesanywhere:us-west-2:000000000000:"
		    "profile/00000000-0000-4000-8000-000000000000\n"
		    "        #   roleArn: arn:aws:iam::000000000000:role/HybridNodesRole\n"
		    "      labels:                     # extra node labels (optional)\n"
		    "        topology.example.com/rack: a\n"
		    "\n",
		    schema, name, name) < 0)
		return -1;
	/* the site's name is a DNS-1123 label, so a valid namespace name */
	return buf_printf(b, "%s    namespaces: [%s]\n%s", starter_stack, name, starter_alerts);
}
