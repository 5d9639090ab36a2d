/*
 * cmd_init.c - `gpusite init NAME [-o DIR]`: write a commented starter
 * site spec, DIR/NAME.yaml (DIR defaults to sites/), that validates as it
 * is, with no warning.  Never overwrites a file.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/buf.h"
#include "cmd/cmd.h"
#include "cli/opts.h"

enum { OPT_OUTPUT = 1 };

static const struct opt_spec init_opts[] = {
	{ OPT_OUTPUT, "output", 'o', "DIR", "write DIR/NAME.yaml (default: sites)" },
	{ 0, NULL, 0, NULL, NULL },
};

static int init_option(void *payload, int id, const char *value);

static const struct opts_cmd init_cmd = {
	.name = "init",
	.usage = "[-o DIR] NAME",
	.about = "Write a commented starter site spec, sites/NAME.yaml, that validates as it\n"
		 "is: edit the cluster, the node groups and the fallback, then run\n"
		 "'gpusite validate'.  NAME becomes metadata.name (a DNS-1123 label).\n"
		 "An existing file is never overwritten.\n",
	.common = 0,
	.own = init_opts,
	.on_option = init_option,
	.payload = NULL,
	.min_args = 1,
	.max_args = 1,
};

static int
init_option(void *payload, int id, const char *value)
{
	const char **dir = payload;

	if (id == OPT_OUTPUT) {
		if (!*value)
			return opts_usage_error(&init_cmd, "option '--output' needs a"
							   " directory");
		*dir = value;
	}
	return 0;
}

/* DNS-1123 label: [a-z0-9]([-a-z0-9]*[a-z0-9])?, at most 63 characters. */
static int
is_dns_label(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > 63)
		return 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'))
			return 0;
	}
	return s[0] != '-' && s[n - 1] != '-';
}

/* mkdir -p */
static int
make_dirs(struct arena *a, const char *dir)
{
	char *p = arena_strdup(a, dir);

	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0777) < 0 && errno != EEXIST)
			return -1;
		*s = '/';
	}
	if (mkdir(p, 0777) < 0 && errno != EEXIST)
		return -1;
	return 0;
}

#define SCHEMA_PATH "schemas/gpusite.v1alpha1.schema.json"

/*
 * Where the editor finds the schema, relative to the new file in `dir`:
 * SCHEMA_PATH below the directory init runs in (the repository's top,
 * where `gpusite schema > SCHEMA_PATH` puts it), for any DIR - nested,
 * absolute or with "..".  Both directories exist by now.
 */
static const char *
schema_ref(struct arena *a, const char *dir)
{
	char here[PATH_MAX], there[PATH_MAX];
	const char *up = "", *rest;
	size_t common = 0;

	if (!getcwd(here, sizeof(here)) || !realpath(dir, there))
		return NULL;
	/* the longest common directory prefix of the two */
	for (size_t i = 0;; i++) {
		if ((here[i] == '/' || !here[i]) && (there[i] == '/' || !there[i]))
			common = i;
		if (!here[i] || !there[i] || here[i] != there[i])
			break;
	}
	if (!strcmp(here, "/") || !strcmp(there, "/"))
		common = 0;
	/* up from dir to the common prefix, then down to here */
	for (const char *s = there + common; *s; s++)
		if (*s == '/')
			up = arena_printf(a, "%s../", up);
	rest = here[common] == '/' ? here + common + 1 : here + common;
	return arena_printf(a, "%s%s%s%s", up, rest, *rest ? "/" : "", SCHEMA_PATH);
}

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
static int
starter(struct buf *b, const char *name, const char *schema)
{
	if (buf_printf(
		    b,
		    "# yaml-language-server: $schema=%s\n"
		    "# Write the schema file once, where you ran gpusite init:\n"
		    "#   gpusite schema > " SCHEMA_PATH "\n"
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

int
cmd_init(int argc, char **argv)
{
	struct arena a = ARENA_INIT;
	struct buf b = BUF_INIT;
	struct opts_cmd cmd = init_cmd;
	struct opts o;
	const char *name, *dir = "sites", *path, *schema;
	int r, fd = -1, code = GS_EXIT_FAILURE;

	cmd.payload = &dir;
	r = opts_parse(&o, &cmd, argc, argv);
	if (r != OPTS_OK)
		return cmd_parse_exit(r);
	name = o.args[0];
	if (!is_dns_label(name))
		return cmd_parse_exit(opts_usage_error(
			&init_cmd,
			"'%s' is not a valid site name: use a DNS-1123 label (lower-case"
			" letters, digits and '-', starting and ending with a letter or"
			" digit, at most 63 characters)",
			name));

	arena_init(&a);
	buf_init(&b, 1u << 20);
	path = arena_printf(&a, "%s/%s.yaml", dir, name);
	if (make_dirs(&a, dir) < 0) {
		fprintf(stderr, "gpusite init: error: cannot create directory '%s': %s\n", dir,
			strerror(errno));
		goto out;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
	if (fd < 0) {
		if (errno == EEXIST)
			fprintf(stderr,
				"gpusite init: error: %s exists; pick another name"
				" or remove the file first\n",
				path);
		else
			fprintf(stderr, "gpusite init: error: cannot create '%s': %s\n", path,
				strerror(errno));
		goto out;
	}
	schema = schema_ref(&a, dir);
	if (!schema) {
		fprintf(stderr, "gpusite init: error: cannot resolve '%s': %s\n", dir,
			strerror(errno));
		goto out;
	}
	if (starter(&b, name, schema) < 0 || write(fd, b.data, b.len) != (ssize_t)b.len ||
	    close(fd) < 0) {
		fprintf(stderr, "gpusite init: error: cannot write '%s': %s\n", path,
			strerror(errno));
		fd = -1;
		unlink(path);
		goto out;
	}
	fd = -1;
	printf("%s\n", path);
	code = GS_EXIT_OK;
out:
	if (fd >= 0)
		close(fd);
	buf_release(&b);
	arena_release(&a);
	return code;
}
