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
#include "argocd/argocd_app.h"
#include "argocd/argocd_env.h"
#include "argocd/argocd_settings.h"
#include "cmd/cmd.h"
#include "cmd/opts.h"
#include "pipeline/pipeline.h"
#include "json/json.h"
#include "node/node.h"
#include "source/source.h"

extern char **environ;

static const struct opts_cmd parameters_cmd = {
	.name = "parameters",
	.usage = "",
	.about = "Argo CD config-management plugin: print the JSON array of parameter\n"
		 "announcements (plugin.yaml spec.parameters.dynamic) for the application\n"
		 "path in the working directory: sites (default: every site found, in\n"
		 "render order), cluster (default: none named), objects (default all),\n"
		 "strict (default false), kube-version (default KUBE_VERSION) and\n"
		 "shared-objects (default owner): the settings `gpusite generate` reads,\n"
		 "from the same table.  Defaults set through ARGOCD_ENV_<NAME> or <NAME>\n"
		 "are announced as such, the way generate applies them.\n",
	.common = 0,
	.min_args = 0,
	.max_args = 0,
};

static struct node *
announce(struct arena *a, struct node *list, const struct argocd_setting_desc *desc)
{
	struct pos none = POS_NONE;
	struct node *m = node_new_map(a, none);

	node_map_add_str(a, m, "name", desc->name);
	node_map_add_str(a, m, "title", desc->title);
	node_map_add_str(a, m, "tooltip", desc->tooltip);
	node_map_add_str(a, m, "collectionType",
			 desc->type == ARGOCD_SETTING_ARRAY ? "array" : "string");
	node_map_add_str(a, m, "itemType", "string");
	node_seq_push(a, list, m);
	return m;
}

/* The value generate applies when the user sets no parameter: the
 * ARGOCD_ENV_<NAME> / <NAME> value when the setting's own parser takes
 * it, else the built-in default. */
static void
announce_value(struct arena *a, struct node *m, const struct argocd_setting_desc *desc,
	       const struct argocd_env *env, const struct spec_fleet *fleet)
{
	struct pos none = POS_NONE;
	struct argocd_setting s;
	struct argocd_settings scratch;
	struct diags ignored;

	diags_init(&ignored, a);
	memset(&scratch, 0, sizeof(scratch));
	argocd_setting_lookup(&s, a, env, desc->name, ARGOCD_LOOKUP_NO_PARAMS);
	if (desc->type == ARGOCD_SETTING_ARRAY) {
		struct node *arr = node_map_add(a, m, "array", node_new_seq(a, none));
		const char **names;
		size_t n = s.is_map ? 0 : argocd_setting_list(&names, a, &s);

		if (n) {
			for (size_t i = 0; i < n; i++)
				node_seq_push(a, arr, node_new_str(a, none, names[i]));
		} else if (desc->fallback == ARGOCD_ANNOUNCE_SITE_NAMES) {
			for (size_t i = 0; i < fleet->count; i++)
				node_seq_push(a, arr, node_new_str(a, none, fleet->sites[i]->name));
		}
		return;
	}
	/* An unusable value is generate's error; announce the default. */
	if (!s.string || desc->parse(&scratch, a, &ignored, &s) < 0)
		node_map_add_str(a, m, "string", desc->def);
	else
		node_map_add_str(a, m, "string",
				 desc->canonical ? desc->canonical(&scratch) : s.string);
}

static int
run(struct buf *out, struct arena *a, struct diags *d)
{
	struct pos none = POS_NONE;
	struct argocd_env env;
	struct pipeline p;
	struct source_set files;
	struct node *list;
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
	for (size_t i = 0; i < argocd_settings_count; i++) {
		const struct argocd_setting_desc *desc = &argocd_settings_table[i];

		announce_value(a, announce(a, list, desc), desc, &env, &p.fleet);
	}

	if (json_write(out, list, 0) < 0 || buf_addch(out, '\n') < 0) {
		struct pos at = POS_NONE;

		diag_report(d, at, ARGOCD_RULE_OUTPUT, "",
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
