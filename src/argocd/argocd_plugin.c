/*
 * argocd_plugin.c - the two runs of the Argo CD config-management plugin
 * (plugin/plugin.yaml): `generate`, the rendered stream of the sites under
 * the application path, and `parameters`, the parameter announcements.
 * Both read only the environment Argo CD sets (argocd_env.h).
 */
#include <string.h>
#include <time.h>

#include "argocd/argocd_api.h"
#include "argocd/argocd_app.h"
#include "argocd/argocd_env.h"
#include "argocd/argocd_fleet.h"
#include "argocd/argocd_plugin.h"
#include "argocd/argocd_settings.h"
#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "emit/emit.h"
#include "json/json.h"
#include "node/node.h"
#include "pipeline/pipeline.h"
#include "render/render.h"
#include "source/source.h"
#include "spec/spec.h"

static double
now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Between stages: the alarm is the hard stop, this the polite one. */
static int
deadline_check(struct diags *d, double start, const char *stage)
{
	struct pos at = POS_NONE;

	if (now_seconds() - start < ARGOCD_DEADLINE_SECONDS)
		return 0;
	return diag_report(d, at, ARGOCD_RULE_DEADLINE, "",
			   "gave up after %s, past %d s of Argo CD's 60 s deadline", stage,
			   ARGOCD_DEADLINE_SECONDS);
}

/* Activation codes are never needed: generate writes no NodeConfig file. */
/* How GS062 and GS177 name the version generate renders for. */
static const char kube_what[] = "kube-version (KUBE_VERSION, the destination's version)";

static const char *
no_env(const char *name)
{
	(void)name;
	return NULL;
}

int
argocd_generate(struct buf *out, struct arena *a, struct diags *d, const char *const *envp)
{
	struct argocd_env env;
	struct argocd_settings g;
	struct pipeline p;
	struct source_set files;
	struct render_result r;
	struct render_options opt;
	double start = now_seconds();
	size_t shared_left;
	int ret;

	if (argocd_env_load(&env, a, d, envp) < 0)
		return ARGOCD_RUN_SETTINGS;
	/* Both before any site is read: a misspelt setting must never widen
	 * what is rendered. */
	ret = argocd_env_check_names(d, &env, argocd_setting_names);
	if (argocd_settings_read(&g, a, d, &env, 0) < 0 || ret < 0)
		return ARGOCD_RUN_SETTINGS;

	ret = argocd_app_load(&p, &files, a, d, &env);
	if (ret == ARGOCD_LOAD_FAILED)
		return ARGOCD_RUN_FAILED;
	if (ret == ARGOCD_LOAD_FINDINGS)
		return ARGOCD_RUN_FINDINGS;
	if (deadline_check(d, start, "reading the specs") < 0)
		return ARGOCD_RUN_FAILED;
	if (argocd_select(&g, a, d, &env, &p.fleet) < 0)
		return ARGOCD_RUN_FINDINGS;

	memset(&r, 0, sizeof(r));
	memset(&opt, 0, sizeof(opt));
	opt.sites = argocd_render_sites(&opt.site_count, a, &g, &p.fleet);
	opt.argocd_hub = g.objects == ARGOCD_OBJECTS_ARGOCD;
	/* A hub's KUBE_VERSION is the hub's: the Applications it gets do
	 * not depend on any cluster's version. */
	opt.kube_minor = g.objects == ARGOCD_OBJECTS_ARGOCD ? 0 : g.kube_minor;
	opt.files = false;
	opt.getenv = no_env;
	/* kube-version (KUBE_VERSION: the destination's) overrides each
	 * site's kubernetesVersion, which is all the rules saw */
	if (g.objects != ARGOCD_OBJECTS_ARGOCD) {
		pipeline_check_kube_agrees(d, &p.fleet, &opt, kube_what);
		if (pipeline_check_kube_version(d, &p.fleet, &opt, kube_what) < 0)
			return ARGOCD_RUN_FINDINGS;
	}
	if (render_fleet(&r, a, d, &p.fleet, &opt) < 0)
		return ARGOCD_RUN_FINDINGS;
	shared_left = argocd_keep_carried(&r, &g, &p.fleet);
	if (!r.count) {
		struct pos at = POS_NONE;

		diag_report(
			d, at, ARGOCD_RULE_OUTPUT, "",
			"the sites rendered no object%s: refusing an empty success, which would "
			"prune the application",
			g.objects == ARGOCD_OBJECTS_ARGOCD && shared_left
				? " for the hub (shared-objects leaves the cluster's Argo CD "
				  "Applications to another application)"
			: g.objects == ARGOCD_OBJECTS_ARGOCD
				? " for the hub (objects: argocd keeps only Argo CD Applications)"
			: shared_left ? " of their own (shared-objects leaves the cluster's shared "
					"objects to another application)"
				      : "");
		return ARGOCD_RUN_FINDINGS;
	}
	if (argocd_check_apis(a, d, &env, &g, &p.fleet, &r) < 0)
		return ARGOCD_RUN_FINDINGS;
	if (g.strict)
		diags_promote_warnings(d);
	if (diags_count(d, DIAG_ERROR))
		return ARGOCD_RUN_FINDINGS;

	ret = emit_stream(out, &r, EMIT_YAML);
	if (ret < 0 || !out->len) {
		struct pos at = POS_NONE;

		diag_report(d, at, ARGOCD_RULE_OUTPUT, "",
			    ret == BUF_ETOOBIG
				    ? "the rendered stream is larger than %u MiB: split the sites "
				      "over several applications with the 'sites' setting"
				    : "the rendered stream could not be written (%u MiB cap)",
			    ARGOCD_OUTPUT_CAP >> 20);
		return ARGOCD_RUN_FAILED;
	}
	if (deadline_check(d, start, "rendering") < 0)
		return ARGOCD_RUN_FAILED;
	return ARGOCD_RUN_OK;
}

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

int
argocd_parameters(struct buf *out, struct arena *a, struct diags *d, const char *const *envp)
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
		argocd_env_load(&env, a, &ignored, envp);
	}
	ret = argocd_app_load(&p, &files, a, d, &env);
	if (ret == ARGOCD_LOAD_FAILED)
		return ARGOCD_RUN_FAILED;

	list = node_new_seq(a, none);
	for (size_t i = 0; i < argocd_settings_count; i++) {
		const struct argocd_setting_desc *desc = &argocd_settings_table[i];

		announce_value(a, announce(a, list, desc), desc, &env, &p.fleet);
	}

	if (json_write(out, list, 0) < 0 || buf_addch(out, '\n') < 0) {
		struct pos at = POS_NONE;

		diag_report(d, at, ARGOCD_RULE_OUTPUT, "",
			    "the parameter announcements do not fit in %zu bytes", out->cap);
		return ARGOCD_RUN_FAILED;
	}
	return ARGOCD_RUN_OK;
}
