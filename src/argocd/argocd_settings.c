/*
 * argocd_settings.c - the plugin settings, one descriptor each: what
 * `parameters` announces and what `generate` reads come from the same
 * row (argocd_settings.h).
 */
#include <string.h>

#include "argocd/argocd_settings.h"
#include "base/arena.h"
#include "k8s/k8s_version.h"

int
argocd_parse_bool(bool *out, const char *text)
{
	static const char *const yes[] = { "1", "t", "T", "TRUE", "true", "True" };
	static const char *const no[] = { "0", "f", "F", "FALSE", "false", "False" };

	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (!strcmp(text, yes[i])) {
			*out = true;
			return 0;
		}
		if (!strcmp(text, no[i])) {
			*out = false;
			return 0;
		}
	}
	return -1;
}

int
argocd_parse_shared_objects(enum argocd_shared_objects *out, const char *text)
{
	static const struct {
		const char *name;
		enum argocd_shared_objects value;
	} modes[] = {
		{ "owner", ARGOCD_SHARED_OWNER },
		{ "all", ARGOCD_SHARED_ALL },
		{ "none", ARGOCD_SHARED_NONE },
	};

	for (size_t i = 0; text && i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (!strcmp(text, modes[i].name)) {
			*out = modes[i].value;
			return 0;
		}
	}
	return -1;
}

int
argocd_parse_objects(enum argocd_objects *out, const char *text)
{
	static const struct {
		const char *name;
		enum argocd_objects value;
	} modes[] = {
		{ "all", ARGOCD_OBJECTS_ALL },
		{ "cluster", ARGOCD_OBJECTS_CLUSTER },
		{ "argocd", ARGOCD_OBJECTS_ARGOCD },
	};

	for (size_t i = 0; text && i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (!strcmp(text, modes[i].name)) {
			*out = modes[i].value;
			return 0;
		}
	}
	return -1;
}

int
argocd_parse_kube_version(int *out, const char *text)
{
	int major, minor;

	if (!text || k8s_version_parse(text, strlen(text), &major, &minor) < 0 || major != 1)
		return -1;
	*out = minor;
	return 0;
}

static int
need_string(struct diags *d, const struct argocd_setting *s)
{
	if (!s->is_array && !s->is_map)
		return 0;
	return diag_report(
		d, argocd_setting_pos(s), ARGOCD_RULE_SETTING, "",
		"setting '%s' takes a string, not %s: pass it as {name: %s, string: \"...\"}",
		s->name, s->is_map ? "a map" : "an array", s->name);
}

static int
parse_strict(struct argocd_settings *out, struct arena *a, struct diags *d,
	     const struct argocd_setting *s)
{
	(void)a;
	if (need_string(d, s) < 0)
		return -1;
	if (s->string && argocd_parse_bool(&out->strict, s->string) < 0)
		return diag_report(d, argocd_setting_pos(s), ARGOCD_RULE_SETTING, "",
				   "strict is '%s': write true or false", s->string);
	return 0;
}

static int
parse_kube_version(struct argocd_settings *out, struct arena *a, struct diags *d,
		   const struct argocd_setting *s)
{
	(void)a;
	if (need_string(d, s) < 0)
		return -1;
	if (s->string && argocd_parse_kube_version(&out->kube_minor, s->string) < 0)
		return diag_report(
			d, argocd_setting_pos(s), ARGOCD_RULE_SETTING, "",
			"kube-version is '%s': write a Kubernetes version such as 1.35 or v1.35.2",
			s->string);
	return 0;
}

static int
parse_shared(struct argocd_settings *out, struct arena *a, struct diags *d,
	     const struct argocd_setting *s)
{
	(void)a;
	if (need_string(d, s) < 0)
		return -1;
	if (s->string && argocd_parse_shared_objects(&out->shared, s->string) < 0)
		return diag_report(d, argocd_setting_pos(s), ARGOCD_RULE_SETTING, "",
				   "shared-objects is '%s': write owner, all or none", s->string);
	return 0;
}

static int
parse_objects(struct argocd_settings *out, struct arena *a, struct diags *d,
	      const struct argocd_setting *s)
{
	(void)a;
	if (need_string(d, s) < 0)
		return -1;
	if (s->string && argocd_parse_objects(&out->objects, s->string) < 0)
		return diag_report(
			d, argocd_setting_pos(s), ARGOCD_RULE_SETTING, "",
			"objects is '%s': write cluster (what lives in the destination "
			"cluster), argocd (the Argo CD Applications, for the hub) or all",
			s->string);
	return 0;
}

/* A list setting without repeats, so each name counts once. */
static int
parse_list(const char ***names, size_t *count, struct arena *a, struct diags *d,
	   const struct argocd_setting *s, const char *what)
{
	const char **list;
	size_t n, kept = 0;

	if (s->is_map)
		return diag_report(d, argocd_setting_pos(s), ARGOCD_RULE_SETTING, "",
				   "setting '%s' takes an array of %s, not a map", s->name, what);
	n = argocd_setting_list(&list, a, s);
	for (size_t i = 0; i < n; i++) {
		bool seen = false;

		for (size_t j = 0; j < kept; j++)
			seen |= !strcmp(list[j], list[i]);
		if (!seen)
			list[kept++] = list[i];
	}
	*names = kept ? list : NULL;
	*count = kept;
	return 0;
}

static int
parse_sites(struct argocd_settings *out, struct arena *a, struct diags *d,
	    const struct argocd_setting *s)
{
	return parse_list(&out->sites, &out->site_count, a, d, s, "site names");
}

static int
parse_clusters(struct argocd_settings *out, struct arena *a, struct diags *d,
	       const struct argocd_setting *s)
{
	return parse_list(&out->clusters, &out->cluster_count, a, d, s, "cluster names");
}

static const char *
strict_text(const struct argocd_settings *parsed)
{
	return parsed->strict ? "true" : "false";
}

const struct argocd_setting_desc argocd_settings_table[] = {
	{ "sites", "Sites",
	  "metadata.name of each site to render; empty: every site under the application path",
	  ARGOCD_SETTING_ARRAY, NULL, ARGOCD_ANNOUNCE_SITE_NAMES, parse_sites, NULL },
	{ "cluster", "Clusters",
	  "spec.cluster.name of the clusters whose sites to render; empty: every cluster, which "
	  "objects cluster and all refuse when the sites span more than one",
	  ARGOCD_SETTING_ARRAY, NULL, ARGOCD_ANNOUNCE_EMPTY, parse_clusters, NULL },
	{ "objects", "Objects",
	  "cluster = only what lives in the destination cluster (no Argo CD object); argocd = "
	  "only the GPU-stack Applications, one per cluster, for the hub Argo CD; all = both, "
	  "for an Argo CD inside the one cluster",
	  ARGOCD_SETTING_STRING, ARGOCD_OBJECTS_DEFAULT, ARGOCD_ANNOUNCE_EMPTY, parse_objects,
	  NULL },
	{ "strict", "Strict",
	  "true: warnings (such as an API the cluster does not serve) fail the render",
	  ARGOCD_SETTING_STRING, "false", ARGOCD_ANNOUNCE_EMPTY, parse_strict, strict_text },
	{ "kube-version", "Kubernetes version",
	  "target cluster version such as 1.35; picks the admission policy API version; empty: "
	  "KUBE_VERSION, else each site's cluster.kubernetesVersion",
	  ARGOCD_SETTING_STRING, "", ARGOCD_ANNOUNCE_EMPTY, parse_kube_version, NULL },
	{ "shared-objects", "Shared cluster objects",
	  "which application carries what the sites of a cluster share (the GPU stack "
	  "Application): owner = only the cluster's site first by metadata.name; all = every "
	  "site's; none = no application",
	  ARGOCD_SETTING_STRING, ARGOCD_SHARED_OBJECTS_DEFAULT, ARGOCD_ANNOUNCE_EMPTY, parse_shared,
	  NULL },
};

const size_t argocd_settings_count =
	sizeof(argocd_settings_table) / sizeof(argocd_settings_table[0]);

const char *const argocd_setting_names[] = {
	"sites", "cluster", "objects", "strict", "kube-version", "shared-objects", NULL,
};

int
argocd_settings_read(struct argocd_settings *out, struct arena *a, struct diags *d,
		     const struct argocd_env *e, unsigned flags)
{
	int ret = 0;

	memset(out, 0, sizeof(*out));
	out->objects = ARGOCD_OBJECTS_ALL;
	out->shared = ARGOCD_SHARED_OWNER;
	for (size_t i = 0; i < argocd_settings_count; i++) {
		const struct argocd_setting_desc *desc = &argocd_settings_table[i];
		struct argocd_setting s;

		argocd_setting_lookup(&s, a, e, desc->name, flags);
		if (desc->parse(out, a, d, &s) < 0)
			ret = -1;
	}
	return ret;
}
