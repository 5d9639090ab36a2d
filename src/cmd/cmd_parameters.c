/*
 * cmd_parameters.c - `gpusite parameters`: the plugin's dynamic parameter
 * announcements (plugin.yaml spec.parameters.dynamic), a JSON array of
 * Argo CD ParameterAnnouncement objects on stdout.
 *
 * Argo CD never sends the announced defaults back, so each default here is
 * exactly what `gpusite generate` does when the parameter is not set: the
 * same lookup (ARGOCD_ENV_<NAME>, then <NAME>) and the same built-in
 * default (all sites under the application path, in render order).
 */
#include <stdio.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "cmd/argocd_env.h"
#include "cmd/cmd.h"
#include "cmd/opts.h"
#include "cmd/pipeline.h"
#include "json/json.h"
#include "node/node.h"
#include "source/source.h"

extern char **environ;

static const struct opts_cmd parameters_cmd = {
	.name = "parameters",
	.usage = "",
	.about =
	"Argo CD config-management plugin: print the JSON array of parameter\n"
	"announcements (plugin.yaml spec.parameters.dynamic) for the application\n"
	"path in the working directory: sites (default: every site found, in\n"
	"render order), strict (default false), kube-version (default\n"
	"KUBE_VERSION) and shared-objects (default owner).  Defaults set through\n"
	"ARGOCD_ENV_<NAME> or <NAME> are announced as such, the way\n"
	"`gpusite generate` applies them.\n",
	.common = 0,
	.min_args = 0,
	.max_args = 0,
};

static struct node *
announce(struct arena *a, struct node *list, const char *name, const char *title,
	 const char *tooltip, const char *collection)
{
	struct pos none = { NULL, 0, 0 };
	struct node *m = node_new_map(a, none);

	node_map_add_str(a, m, "name", name);
	node_map_add_str(a, m, "title", title);
	node_map_add_str(a, m, "tooltip", tooltip);
	node_map_add_str(a, m, "collectionType", collection);
	node_map_add_str(a, m, "itemType", "string");
	node_seq_push(a, list, m);
	return m;
}

static int
run(struct buf *out, struct arena *a, struct diags *d)
{
	struct pos none = { NULL, 0, 0 };
	struct argocd_env env;
	struct argocd_setting s;
	struct pipeline p;
	struct source_set files;
	struct node *list, *m, *arr;
	const char **names;
	size_t n;
	bool strict = false;
	int ret;

	/* Parameter values play no part in defaults: a bad one is generate's
	 * business, so its diagnostic is dropped here. */
	{
		struct diags ignored;

		diags_init(&ignored, a);
		argocd_env_load(&env, a, &ignored, (const char *const *)environ);
	}
	ret = argocd_app_load(&p, &files, a, d, &env);
	if (ret == ARGOCD_LOAD_FAILED)
		return GS_EXIT_FAILURE;

	list = node_new_seq(a, none);
	m = announce(a, list, "sites", "Sites",
		     "metadata.name of each site to render; empty: every site under the "
		     "application path",
		     "array");
	arr = node_map_add(a, m, "array", node_new_seq(a, none));
	argocd_setting_lookup(&s, a, &env, "sites", ARGOCD_LOOKUP_NO_PARAMS);
	n = argocd_setting_list(&names, a, &s);
	if (n && !s.is_map) {
		for (size_t i = 0; i < n; i++)
			node_seq_push(a, arr, node_new_str(a, none, names[i]));
	} else {
		for (size_t i = 0; i < p.fleet.count; i++)
			node_seq_push(a, arr, node_new_str(a, none, p.fleet.sites[i]->name));
	}

	m = announce(a, list, "strict", "Strict",
		     "true: warnings (such as an API the cluster does not serve) fail the render",
		     "string");
	argocd_setting_lookup(&s, a, &env, "strict", ARGOCD_LOOKUP_NO_PARAMS);
	if (s.string && argocd_parse_bool(&strict, s.string) < 0)
		strict = false;
	node_map_add_str(a, m, "string", strict ? "true" : "false");

	m = announce(a, list, "kube-version", "Kubernetes version",
		     "target cluster version such as 1.35; picks the admission policy API version; "
		     "empty: KUBE_VERSION, else each site's cluster.kubernetesVersion",
		     "string");
	argocd_setting_lookup(&s, a, &env, "kube-version", ARGOCD_LOOKUP_NO_PARAMS);
	node_map_add_str(a, m, "string", s.string ? s.string : "");

	m = announce(a, list, "shared-objects", "Shared cluster objects",
		     "which application carries what the sites of a cluster share (the GPU stack "
		     "Application): owner = only the cluster's site first by metadata.name; all = "
		     "every site's; none = no application",
		     "string");
	argocd_setting_lookup(&s, a, &env, "shared-objects", ARGOCD_LOOKUP_NO_PARAMS);
	{
		enum argocd_shared_objects mode;

		/* An unusable value is generate's error; announce the default. */
		node_map_add_str(a, m, "string",
				 s.string && !s.is_array && !s.is_map &&
						 argocd_parse_shared_objects(&mode, s.string) == 0
					 ? s.string
					 : ARGOCD_SHARED_OBJECTS_DEFAULT);
	}

	if (json_write(out, list, 0) < 0 || buf_addch(out, '\n') < 0) {
		struct pos at = { NULL, 0, 0 };

		diag_add(d, DIAG_ERROR, at, ARGOCD_RULE_OUTPUT, "",
			 "the parameter announcements do not fit in %zu bytes", out->cap);
		return GS_EXIT_FAILURE;
	}
	return GS_EXIT_OK;
}

int
cmd_parameters(int argc, char **argv)
{
	struct arena a;
	struct diags d;
	struct buf out;
	struct opts o;
	int code, rc;

	rc = opts_parse(&o, &parameters_cmd, argc, argv);
	if (rc != OPTS_OK)
		return opts_exit_code(rc);
	arena_init(&a);
	diags_init(&d, &a);
	buf_init(&out, 16u << 20);
	code = run(&out, &a, &d);
	diags_sort(&d);
	argocd_diags_print(stderr, &d, 50);
	if (code != GS_EXIT_OK) {
		const char *sum = argocd_diags_summary(&a, &d);

		fprintf(stderr, "gpusite: parameters failed%s%s\n", *sum ? ": " : "", sum);
	} else {
		if (diags_count(&d, DIAG_ERROR))
			fprintf(stderr,
				"gpusite: parameters: %s; 'sites' lists the sites that loaded\n",
				argocd_diags_summary(&a, &d));
		if (fwrite(out.data, 1, out.len, stdout) != out.len)
			code = GS_EXIT_FAILURE;
	}
	buf_release(&out);
	arena_release(&a);
	return code;
}
