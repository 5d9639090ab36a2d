/*
 * cmd_verify_scope.c - `gpusite verify-scope --nodes FILE --manifests FILE`:
 * place every DaemonSet of the manifests on every node of the inventory
 * and judge the GPU stack's scope (scope/scope.h).
 */
#include <string.h>

#include "inventory/inventory.h"
#include "base/arena.h"
#include "base/buf.h"
#include "cmd/cmd.h"
#include "cli/opts_live.h"
#include "pipeline/live.h"
#include "pipeline/scope_inputs.h"
#include "cli/help.h"
#include "cli/opts.h"
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

int
cmd_verify_scope(int argc, char **argv)
{
	struct vs_args v = { .nnodes = 0 };
	struct opts_cmd cmd = {
		.name = "verify-scope",
		.usage = "--nodes FILE --manifests FILE | --live [--nodes FILE | --manifests FILE] "
			 "[--format text|json]",
		.about = cli_help_verify_scope,
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
	struct scope_inputs_paths in = { v.nodes, 0, v.manifests, 0 };
	struct kube_options ko;
	struct scope_result r;
	struct cmd_findings rf;
	struct buf out = BUF_INIT;
	int rc, code = GS_EXIT_OK;

	v.cmd = &cmd;
	rc = opts_parse(&o, &cmd, argc, argv);
	if (rc != OPTS_OK)
		return cmd_parse_exit(rc);
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
	in.nnodes = v.nnodes;
	in.nmanifests = v.nmanifests;
	if (v.lo.cluster) {
		opts_usage_error(&cmd, "--cluster does not apply: verify-scope --live"
				       " places what the context's cluster runs");
		return GS_EXIT_USAGE;
	}
	arena_init(&a);
	diags_init(&d, &a);
	if (v.live)
		live_kube_options(&ko, &v.lo, o.verbose);
	rc = scope_inputs_place(&r, &a, &d, &files, &in, v.live ? &ko : NULL);
	rf = (struct cmd_findings){ &d, &files, NULL, 0, "gpusite verify-scope", stderr };
	if (rc == SCOPE_INPUTS_EREAD) {
		/* unreadable or not YAML: the job cannot be done */
		code = cmd_fail_exit(&rf, &o, 0);
		arena_release(&a);
		return code;
	}
	if (rc < 0)
		code = GS_EXIT_FINDINGS;
	buf_init(&out, 0);
	diags_sort(&d);
	if (o.format == REPORT_JSON) {
		rc = scope_write_json(&out, &a, &r, &d);
	} else {
		rc = scope_write_text(&out, &r);
		cmd_report_exit(
			&rf, &o, REPORT_TEXT,
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
