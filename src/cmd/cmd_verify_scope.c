/*
 * cmd_verify_scope.c - `gpusite verify-scope --nodes FILE --manifests FILE`:
 * place every DaemonSet of the manifests on every node of the inventory
 * and judge the GPU stack's scope (scope/scope.h).
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/arena.h"
#include "base/buf.h"
#include "check/check.h"
#include "cmd/cmd.h"
#include "cmd/opts_live.h"
#include "pipeline/live.h"
#include "cmd/opts.h"
#include "kube/kube.h"
#include "scope/scope.h"
#include "source/source.h"

enum { OPT_NODES = 1, OPT_MANIFESTS, OPT_LIVE };

#define MAX_INPUTS 64

struct vs_args {
	const char *nodes[MAX_INPUTS];
	size_t nnodes;
	const char *manifests[MAX_INPUTS];
	size_t nmanifests;
	bool live;
	struct live_opts lo;
	const struct opts_cmd *cmd;
};

static const struct opt_spec vs_opts[] = {
	{ OPT_NODES, "nodes", 0, "FILE",
	  "Node objects: a YAML stream, a List / NodeList, or a directory of *.yaml (repeatable)" },
	{ OPT_MANIFESTS, "manifests", 0, "FILE",
	  "the manifests to place, e.g. helm template output; - reads standard input "
	  "(repeatable)" },
	{ OPT_LIVE, "live", 0, NULL,
	  "read the nodes and the DaemonSets (and GPU Operator ClusterPolicies) from"
	  " the cluster, where --nodes / --manifests are not given; GET and LIST only" },
	LIVE_OPT_SPECS,
	{ 0, NULL, 0, NULL, NULL },
};

static int
vs_option(void *payload, int id, const char *value)
{
	struct vs_args *v = payload;

	if (id == OPT_NODES) {
		if (v->nnodes == MAX_INPUTS)
			return opts_usage_error(v->cmd, "too many --nodes (at most %d)",
						MAX_INPUTS);
		v->nodes[v->nnodes++] = value;
	} else if (id == OPT_MANIFESTS) {
		if (v->nmanifests == MAX_INPUTS)
			return opts_usage_error(v->cmd, "too many --manifests (at most %d)",
						MAX_INPUTS);
		v->manifests[v->nmanifests++] = value;
	} else if (id == OPT_LIVE) {
		v->live = true;
	} else {
		int rc = live_on_option(&v->lo, v->cmd, id, value);

		return rc == 1 ? 0 : rc;
	}
	return 0;
}

/* A live list as one document scope_add_*() takes: items of built-in
 * lists carry no apiVersion and kind, so they are set. */
static struct node *
live_list_doc(struct arena *a, struct node *items, const char *api_version, const char *kind)
{
	struct node *doc = node_new_map(a, (struct pos)POS_NONE);

	for (size_t i = 0; i < items->seq.count; i++) {
		node_map_set(a, items->seq.items[i], "apiVersion",
			     node_new_str(a, (struct pos)POS_NONE, api_version));
		node_map_set(a, items->seq.items[i], "kind",
			     node_new_str(a, (struct pos)POS_NONE, kind));
	}
	node_map_add_str(a, doc, "apiVersion", "v1");
	node_map_add_str(a, doc, "kind", "List");
	node_map_add(a, doc, "items", items);
	return doc;
}

static void
docs_push(struct arena *a, struct yamlio_docs *all, struct node *doc)
{
	all->docs = arena_realloc(a, all->docs, all->count * sizeof(*all->docs),
				  (all->count + 1) * sizeof(*all->docs));
	all->docs[all->count++] = doc;
}

/* --live: what --nodes / --manifests did not give, from the cluster. */
static int
read_live(struct arena *a, struct diags *d, const struct vs_args *v, const struct opts *o,
	  struct yamlio_docs *nodes, struct yamlio_docs *manifests)
{
	struct kube_options ko;
	struct kube_client *k = NULL;
	struct node *items;
	int rc = -1;

	memset(&ko, 0, sizeof(ko));
	ko.kubeconfig = v->lo.kubeconfig;
	ko.context = v->lo.context;
	ko.timeout = v->lo.timeout;
	ko.verbose = o->verbose;
	if (kube_open(&k, a, d, &ko) < 0)
		goto out;
	if (!v->nnodes) {
		if (kube_list_nodes(&items, k, a) < 0)
			goto out;
		docs_push(a, nodes, live_list_doc(a, items, "v1", "Node"));
	}
	if (!v->nmanifests) {
		struct kube_list_query q = {
			"nvidia.com/v1", "ClusterPolicy", NULL, NULL, NULL, 0
		};

		if (kube_list_daemonsets(&items, k, a, NULL) < 0)
			goto out;
		docs_push(a, manifests, live_list_doc(a, items, "apps/v1", "DaemonSet"));
		/* the GPU Operator's operands come from its ClusterPolicy */
		rc = kube_list_all(&items, k, a, &q);
		if (rc == KUBE_EFAIL)
			goto out;
		if (rc == 0)
			docs_push(a, manifests,
				  live_list_doc(a, items, "nvidia.com/v1", "ClusterPolicy"));
	}
	rc = 0;
out:
	kube_close(k);
	return rc;
}

static int
cmp_str(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static bool
is_yaml_name(const char *n)
{
	size_t len = strlen(n);

	return n[0] != '.' && ((len > 5 && !strcmp(n + len - 5, ".yaml")) ||
			       (len > 4 && !strcmp(n + len - 4, ".yml")) ||
			       (len > 5 && !strcmp(n + len - 5, ".json")));
}

/* A directory stands for its *.yaml / *.yml / *.json files, by name. */
static int
expand(struct arena *a, struct diags *d, const char *path, const char ***out, size_t *count)
{
	struct stat st;
	DIR *dir;
	struct dirent *e;
	size_t alloc = 0;

	*out = NULL;
	*count = 0;
	if (strcmp(path, "-") && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		dir = opendir(path);
		if (!dir) {
			diag_add(d, DIAG_ERROR, (struct pos){ path, 0, 0 }, "GS001", "",
				 "cannot read directory %s", path);
			return -3;
		}
		while ((e = readdir(dir)) != NULL) {
			if (!is_yaml_name(e->d_name))
				continue;
			if (*count == alloc) {
				size_t want = alloc ? alloc * 2 : 16;

				*out = arena_realloc(a, (void *)*out, alloc * sizeof(**out),
						     want * sizeof(**out));
				alloc = want;
			}
			(*out)[(*count)++] =
				arena_printf(a, "%s%s%s", path,
					     path[strlen(path) - 1] == '/' ? "" : "/", e->d_name);
		}
		closedir(dir);
		qsort((void *)*out, *count, sizeof(**out), cmp_str);
		if (!*count) {
			diag_add(d, DIAG_ERROR, (struct pos){ path, 0, 0 }, "GS001", "",
				 "directory %s holds no *.yaml file", path);
			return -3;
		}
		return 0;
	}
	*out = arena_alloc(a, sizeof(**out));
	(*out)[0] = path;
	*count = 1;
	return 0;
}

/* Read every input; docs are appended to `all`.  0, -1 (YAML errors), -3. */
static int
read_inputs(struct arena *a, struct diags *d, struct source_set *files, const char *const *paths,
	    size_t npaths, struct yamlio_docs *all)
{
	int worst = 0;

	for (size_t i = 0; i < npaths; i++) {
		const char **list;
		size_t n;
		int rc = expand(a, d, paths[i], &list, &n);

		if (rc < 0)
			return rc;
		for (size_t k = 0; k < n; k++) {
			struct yamlio_docs docs;
			const char *data = NULL;
			size_t len = 0;

			rc = check_read_docs(&docs, a, d, list[k], &data, &len);
			if (rc == -3)
				return rc;
			if (rc < 0)
				worst = -1;
			if (data)
				source_set_add(a, files, strcmp(list[k], "-") ? list[k] : "<stdin>",
					       data, len);
			if (!docs.count)
				continue;
			all->docs = arena_realloc(a, all->docs, all->count * sizeof(*all->docs),
						  (all->count + docs.count) * sizeof(*all->docs));
			memcpy(all->docs + all->count, docs.docs, docs.count * sizeof(*docs.docs));
			all->count += docs.count;
		}
	}
	return worst;
}

static const char vs_about[] =
	"Place every DaemonSet of the manifests on every node of the inventory with\n"
	"Kubernetes' rules: nodeSelector, required node affinity (terms ORed,\n"
	"expressions ANDed; In, NotIn, Exists, DoesNotExist, Gt, Lt; matchFields\n"
	"on metadata.name), taints with effect NoSchedule or NoExecute against the\n"
	"pod's tolerations and the ones the DaemonSet controller adds to every\n"
	"daemon pod.  Prints the placement table (rows DaemonSets, columns nodes).\n"
	"\n"
	"A DaemonSet belongs to the GPU stack when its name, app.kubernetes.io/name\n"
	"or helm.sh/chart label names the NVIDIA device plugin, GPU Feature\n"
	"Discovery, Node Feature Discovery, DCGM or the GPU Operator, when it runs\n"
	"an image from nvcr.io/nvidia or registry.k8s.io/nfd, or when it selects\n"
	"on NVIDIA node labels.  A GPU Operator ClusterPolicy adds the operand\n"
	"DaemonSets the operator will create (with daemonsets.tolerations and their\n"
	"nvidia.com/gpu.deploy.* selector).  A node is hybrid with\n"
	"eks.amazonaws.com/compute-type=hybrid, and has a GPU with an NFD NVIDIA PCI\n"
	"label, nvidia.com/gpu capacity, nvidia.com/gpu.present=true, an NVIDIA\n"
	"instance-gpu-manufacturer label or gpusite's node-type label.  Labels the\n"
	"stack adds while it runs (NFD's PCI label where the NFD worker runs, the\n"
	"operator's deploy labels, MPS/MIG capability) are assumed as listed.\n"
	"\n"
	"\n"
	"gpusite's fallback device plugin (fallback.nodeImage: al2023) selects\n"
	"gpusite.io/node-image=al2023: it must run on every AL2023 fallback GPU\n"
	"node (node-type=cloud-gpu-fallback, gpusite.io/node-image=al2023) and on\n"
	"no other node; a Bottlerocket or Auto Mode fallback node brings its own\n"
	"plugin and gets none of gpusite's.  testdata/nodes/fallback/ holds an\n"
	"AL2023 and a Bottlerocket fallback node, labelled and tainted as the\n"
	"rendered NodePool makes them: with the reference inventory they prove one\n"
	"device plugin per GPU node, the cloud fallback included (t2220).\n"
	"\n"
	"Exit 1 when a GPU-stack DaemonSet misses a hybrid GPU node (GS160) or\n"
	"would run on a non-hybrid node (GS161), and when the fallback plugin\n"
	"misses an AL2023 fallback GPU node (GS160) or runs elsewhere (GS161).\n";

int
cmd_verify_scope(int argc, char **argv)
{
	struct vs_args v = { .nnodes = 0 };
	struct opts_cmd cmd = {
		.name = "verify-scope",
		.usage = "--nodes FILE --manifests FILE | --live [--nodes FILE | --manifests FILE] "
			 "[--format text|json]",
		.about = vs_about,
		.common = OPTS_FORMAT | OPTS_COLOR | OPTS_VERBOSE,
		.own = vs_opts,
		.on_option = vs_option,
		.payload = &v,
		.min_args = 0,
		.max_args = 0,
		.formats = OPTS_FMT(REPORT_TEXT) | OPTS_FMT(REPORT_JSON),
	};
	struct opts o;
	struct arena a = ARENA_INIT;
	struct diags d;
	struct source_set files = { 0 };
	struct yamlio_docs nodes = { 0 }, manifests = { 0 };
	struct scope_result r;
	struct buf out = BUF_INIT;
	int rc, code = GS_EXIT_OK;
	struct report_input in;

	v.cmd = &cmd;
	rc = opts_parse(&o, &cmd, argc, argv);
	if (rc != OPTS_OK)
		return opts_exit_code(rc);
	if (o.format != REPORT_TEXT && o.format != REPORT_JSON) {
		opts_usage_error(&cmd, "--format must be text or json");
		return GS_EXIT_USAGE;
	}
	if (!v.live && (!v.nnodes || !v.nmanifests)) {
		opts_usage_error(&cmd, "give both --nodes FILE and --manifests FILE, or --live");
		return GS_EXIT_USAGE;
	}
	if (!v.live && (v.lo.kubeconfig || v.lo.context || v.lo.timeout > 0)) {
		opts_usage_error(&cmd, "--kubeconfig, --context and --timeout go with --live");
		return GS_EXIT_USAGE;
	}
	if (v.lo.cluster) {
		opts_usage_error(&cmd, "--cluster does not apply: verify-scope --live"
				       " places what the context's cluster runs");
		return GS_EXIT_USAGE;
	}
	arena_init(&a);
	diags_init(&d, &a);
	scope_init(&r);
	rc = read_inputs(&a, &d, &files, v.nodes, v.nnodes, &nodes);
	if (rc == 0)
		rc = read_inputs(&a, &d, &files, v.manifests, v.nmanifests, &manifests);
	if (rc == 0 && v.live)
		rc = read_live(&a, &d, &v, &o, &nodes, &manifests) < 0 ? -3 : 0;
	source_set_sort(&files);
	memset(&in, 0, sizeof(in));
	in.diags = &d;
	in.files = &files;
	in.tool_name = "gpusite verify-scope";
	if (rc < 0) {
		/* unreadable or not YAML: the job cannot be done */
		diags_sort(&d);
		report_write_flags(stdout, stderr, &in, REPORT_TEXT, REPORT_NO_SUMMARY);
		arena_release(&a);
		return GS_EXIT_FAILURE;
	}
	if (scope_add_nodes(&r, &a, &d, nodes.docs, nodes.count) < 0)
		code = GS_EXIT_FINDINGS;
	if (scope_add_manifests(&r, &a, &d, manifests.docs, manifests.count) < 0)
		code = GS_EXIT_FINDINGS;
	if (scope_run(&r, &a, &d) < 0)
		code = GS_EXIT_FINDINGS;
	buf_init(&out, 0);
	diags_sort(&d);
	if (o.format == REPORT_JSON) {
		rc = scope_write_json(&out, &a, &r, &d);
	} else {
		rc = scope_write_text(&out, &r);
		report_write_flags(
			stdout, stderr, &in, REPORT_TEXT,
			REPORT_NO_SUMMARY |
				(opts_use_color(&o, stderr) ? REPORT_COLOR | REPORT_CARET : 0));
	}
	if (rc == 0)
		fwrite(out.data, 1, out.len, stdout);
	else
		code = GS_EXIT_FAILURE;
	buf_release(&out);
	arena_release(&a);
	return code;
}
