/*
 * cmd_generate.c - `gpusite generate`: the Argo CD config-management
 * plugin entry point (plugin/plugin.yaml).
 *
 * Argo CD runs it in a fresh copy of the repository with the application
 * path as working directory and the inputs in the environment only
 * (cmd/argocd_env.h).  It prints the same YAML stream `gpusite render`
 * prints for the same sites, except for the objects the sites of a
 * cluster share: with one Application per site they would have several
 * owners in Argo CD, so only one site per cluster carries them (the
 * `shared-objects` setting).  Whatever goes wrong, stdout stays empty:
 * an empty success would make Argo CD prune every object of the app.
 * The output is built in memory and written only once all went well;
 * stderr is one line per problem and a summary last, which is what the
 * Argo CD UI shows.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "cmd/argocd_env.h"
#include "cmd/cmd.h"
#include "cmd/opts.h"
#include "cmd/pipeline.h"
#include "emit/emit.h"
#include "render/render.h"
#include "source/source.h"
#include "spec/spec.h"

extern char **environ;

/* Argo CD gives the whole request 60 s by default (argocd-cmp.md 3.3). */
#define DEADLINE_SECONDS 45
/* One gRPC message carries every manifest; its default cap is 100 MiB. */
#define OUTPUT_CAP (64u << 20)
/* The UI shows the whole of stderr: keep it readable. */
#define MAX_LINES 50

static const char *const settings[] = { "sites", "strict", "kube-version", "shared-objects",
					 NULL };

static const struct opts_cmd generate_cmd = {
	.name = "generate",
	.usage = "",
	.about =
	"Argo CD config-management plugin entry point (plugin/plugin.yaml).\n"
	"Renders the sites under the working directory (its sites/ when present)\n"
	"and prints the YAML stream on stdout, the bytes `gpusite render` prints,\n"
	"except that the objects a cluster's sites share go to one Application.\n"
	"Takes no arguments: every input comes from the environment Argo CD sets.\n"
	"\n"
	"Settings, each looked up as a plugin parameter (ARGOCD_APP_PARAMETERS or\n"
	"PARAM_*), then ARGOCD_ENV_<NAME> (plugin env), then <NAME>:\n"
	"  sites         array of site names (metadata.name); default all sites\n"
	"  strict        \"true\": warnings fail the render; default false\n"
	"  kube-version  target Kubernetes version, e.g. 1.35; default KUBE_VERSION,\n"
	"                else each site's cluster.kubernetesVersion\n"
	"  shared-objects  which Application carries the objects the sites of a\n"
	"                cluster share (the GPU stack Application): owner (default)\n"
	"                = only the cluster's site with the smallest metadata.name\n"
	"                among all its sites under the application path; all =\n"
	"                every site's; none = no Application (managed elsewhere)\n"
	"KUBE_API_VERSIONS (set by Argo CD) is checked for every API the output\n"
	"needs: a missing one is a warning (an error with strict).\n"
	"\n"
	"On any error stdout stays empty, stderr holds one line per problem and a\n"
	"summary last, and the exit code is not 0.\n",
	.common = 0,
	.min_args = 0,
	.max_args = 0,
};

static void
on_deadline(int sig)
{
	static const char msg[] =
		"gpusite: error: gave up after 45 s, before Argo CD's 60 s deadline:"
		" make the application path hold fewer sites [" ARGOCD_RULE_DEADLINE "]\n"
		"gpusite: generate failed: out of time (" ARGOCD_RULE_DEADLINE ")\n";
	ssize_t r;

	(void)sig;
	/* Only async-signal-safe calls here; stdout was never written. */
	r = write(STDERR_FILENO, msg, sizeof(msg) - 1);
	(void)r;
	_exit(GS_EXIT_FAILURE);
}

static void
deadline_arm(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_deadline;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	alarm(DEADLINE_SECONDS);
}

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
	struct pos at = { NULL, 0, 0 };

	if (now_seconds() - start < DEADLINE_SECONDS)
		return 0;
	return diag_add(d, DIAG_ERROR, at, ARGOCD_RULE_DEADLINE, "",
			"gave up after %s, past %d s of Argo CD's 60 s deadline", stage,
			DEADLINE_SECONDS);
}

/* Activation codes are never needed: generate writes no NodeConfig file. */
static const char *
no_env(const char *name)
{
	(void)name;
	return NULL;
}

struct gen_settings {
	bool strict;
	enum argocd_shared_objects shared;
	int kube_minor;     /* 0: each site's own */
	const char **sites; /* NULL: all */
	size_t site_count;
};

static int
setting_string(struct diags *d, const struct argocd_setting *s)
{
	if (!s->is_array && !s->is_map)
		return 0;
	return diag_add(
		d, DIAG_ERROR, argocd_setting_pos(s), ARGOCD_RULE_SETTING, "",
		"setting '%s' takes a string, not %s: pass it as {name: %s, string: \"...\"}",
		s->name, s->is_map ? "a map" : "an array", s->name);
}

static int
read_settings(struct gen_settings *out, struct arena *a, struct diags *d,
	      const struct argocd_env *e, unsigned flags)
{
	struct argocd_setting s;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	argocd_setting_lookup(&s, a, e, "strict", flags);
	if (setting_string(d, &s) < 0)
		ret = -1;
	else if (s.string && argocd_parse_bool(&out->strict, s.string) < 0)
		ret = diag_add(d, DIAG_ERROR, argocd_setting_pos(&s), ARGOCD_RULE_SETTING, "",
			       "strict is '%s': write true or false", s.string);

	argocd_setting_lookup(&s, a, e, "kube-version", flags);
	if (setting_string(d, &s) < 0)
		ret = -1;
	else if (s.string && argocd_parse_kube_version(&out->kube_minor, s.string) < 0)
		ret = diag_add(
			d, DIAG_ERROR, argocd_setting_pos(&s), ARGOCD_RULE_SETTING, "",
			"kube-version is '%s': write a Kubernetes version such as 1.35 or v1.35.2",
			s.string);

	argocd_setting_lookup(&s, a, e, "shared-objects", flags);
	if (setting_string(d, &s) < 0)
		ret = -1;
	else if (s.string && argocd_parse_shared_objects(&out->shared, s.string) < 0)
		ret = diag_add(d, DIAG_ERROR, argocd_setting_pos(&s), ARGOCD_RULE_SETTING, "",
			       "shared-objects is '%s': write owner, all or none", s.string);

	argocd_setting_lookup(&s, a, e, "sites", flags);
	if (s.is_map) {
		ret = diag_add(d, DIAG_ERROR, argocd_setting_pos(&s), ARGOCD_RULE_SETTING, "",
			       "setting 'sites' takes an array of site names, not a map");
	} else {
		const char **list;
		size_t n = argocd_setting_list(&list, a, &s), kept = 0;

		/* Drop repeats so a site is rendered once. */
		for (size_t i = 0; i < n; i++) {
			bool seen = false;

			for (size_t j = 0; j < kept; j++)
				seen |= !strcmp(list[j], list[i]);
			if (!seen)
				list[kept++] = list[i];
		}
		out->sites = kept ? list : NULL;
		out->site_count = kept;
	}
	return ret;
}

/* Every requested name must be a site: never an empty success. */
static int
check_site_names(struct arena *a, struct diags *d, const struct argocd_env *e,
		 const struct gen_settings *g, const struct spec_fleet *fleet)
{
	struct argocd_setting s;
	char *known = arena_strdup(a, "");
	int ret = 0;

	argocd_setting_lookup(&s, a, e, "sites", 0);
	for (size_t i = 0; i < fleet->count && i < 20; i++)
		known = arena_printf(a, "%s%s%s", known, i ? ", " : "", fleet->sites[i]->name);
	if (fleet->count > 20)
		known = arena_printf(a, "%s, ... (%zu in all)", known, fleet->count);
	for (size_t i = 0; i < g->site_count; i++) {
		if (spec_fleet_find(fleet, g->sites[i]))
			continue;
		ret = diag_add(d, DIAG_ERROR, argocd_setting_pos(&s), ARGOCD_RULE_OUTPUT, "",
			       "no site is named '%s' under the application path (sites: %s): fix "
			       "the 'sites' setting or the site's metadata.name",
			       g->sites[i], fleet->count ? known : "none");
	}
	return ret;
}

static const char *
cluster_of(const struct spec_site *s)
{
	return s->cluster.name ? s->cluster.name : "";
}

static bool
is_selected(const struct gen_settings *g, const char *name)
{
	if (!g->site_count)
		return true;
	for (size_t i = 0; i < g->site_count; i++) {
		if (!strcmp(g->sites[i], name))
			return true;
	}
	return false;
}

/*
 * The owner of a cluster's shared objects: the site with the smallest
 * metadata.name among all sites of the cluster under the application
 * path, selected or not, so every Application of a fleet agrees on it
 * whatever its `sites` setting.
 */
static const struct spec_site *
cluster_owner(const struct spec_fleet *fleet, const char *cluster)
{
	const struct spec_site *owner = NULL;

	for (size_t i = 0; i < fleet->count; i++) {
		const struct spec_site *s = fleet->sites[i];

		if (!strcmp(cluster_of(s), cluster) && (!owner || strcmp(s->name, owner->name) < 0))
			owner = s;
	}
	return owner;
}

/* Does this Application carry the shared objects of `cluster`? */
static bool
carries_cluster(const struct gen_settings *g, const struct spec_fleet *fleet,
		const char *cluster)
{
	const struct spec_site *owner;
	bool any = false;

	if (g->shared == ARGOCD_SHARED_NONE)
		return false;
	for (size_t i = 0; i < fleet->count && !any; i++)
		any = !strcmp(cluster_of(fleet->sites[i]), cluster) &&
		      is_selected(g, fleet->sites[i]->name);
	if (!any || g->shared == ARGOCD_SHARED_ALL)
		return any;
	owner = cluster_owner(fleet, cluster);
	return owner && is_selected(g, owner->name);
}

/*
 * The sites to render: the selected ones, plus every other site of a
 * cluster whose shared objects this Application carries, so that those
 * objects (the GPU stack's tolerations cover every site's node-group
 * taints) are the same bytes whichever Application renders them.  NULL
 * for all sites.
 */
static const char **
render_sites(size_t *count, struct arena *a, const struct gen_settings *g,
	     const struct spec_fleet *fleet)
{
	const char **names;
	size_t n = 0;

	*count = 0;
	if (!g->site_count)
		return NULL;
	names = arena_alloc(a, (fleet->count + 1) * sizeof(*names));
	for (size_t i = 0; i < fleet->count; i++) {
		const struct spec_site *s = fleet->sites[i];

		if (is_selected(g, s->name) || carries_cluster(g, fleet, cluster_of(s)))
			names[n++] = s->name;
	}
	*count = n;
	return names;
}

/*
 * Keep what this Application carries: the objects of the selected sites,
 * and the shared objects of the clusters it carries.  The stream stays
 * in render order (a subsequence of a sorted stream is sorted).  Returns
 * how many shared objects were left to other Applications.
 */
static size_t
keep_carried(struct render_result *r, const struct gen_settings *g,
	     const struct spec_fleet *fleet)
{
	size_t kept = 0, dropped = 0;

	for (size_t i = 0; i < r->count; i++) {
		const struct render_object *o = &r->objects[i];
		bool keep = o->site ? is_selected(g, o->site)
				    : carries_cluster(g, fleet, o->cluster ? o->cluster : "");

		if (keep)
			r->objects[kept++] = *o;
		else
			dropped += !o->site;
	}
	r->count = kept;
	return dropped;
}

/* Which part of a site makes an object of this kind, and what to do when
 * the cluster cannot take it. */
struct api_need {
	const char *kind;
	const char *field;
	const char *advice;
};

static const struct api_need api_needs[] = {
	{ "ConfigMap", "nodeGroups", "the core API always serves it: check KUBE_API_VERSIONS" },
	{ "NodePool", "fallback",
	  "install Karpenter v1 on the cluster, or set fallback.enabled: false" },
	{ "Application", "gpuStack",
	  "install Argo CD's CRDs there, or deploy this app to the cluster Argo CD runs in" },
	{ "MutatingPolicy", "placement",
	  "install Kyverno 1.17 or newer, or set placement.engine: kyverno-clusterpolicy for an "
	  "older Kyverno" },
	{ "ClusterPolicy", "placement", "install Kyverno, or choose another placement.engine" },
	{ "MutatingAdmissionPolicy", "placement",
	  "set kube-version to the cluster's version (v1 needs 1.36, v1beta1 1.34-1.35 with the "
	  "feature gate), or choose another placement.engine" },
	{ "MutatingAdmissionPolicyBinding", "placement",
	  "set kube-version to the cluster's version (v1 needs 1.36, v1beta1 1.34-1.35 with the "
	  "feature gate), or choose another placement.engine" },
	{ "EC2NodeClass", "fallback",
	  "install Karpenter's AWS provider and create the EC2NodeClass, or on an EKS Auto Mode "
	  "cluster set cluster.provisioner: auto-mode" },
	{ "NodeClass", "cluster",
	  "the cluster does not run EKS Auto Mode: set cluster.provisioner: karpenter, or enable "
	  "Auto Mode" },
	{ "PrometheusRule", "alerts",
	  "install the Prometheus Operator CRDs, or set alerts.enabled: false" },
};

/* The cluster may serve the policy under the other version: say which. */
static const char *
advice(struct arena *a, const struct argocd_api_versions *have, const char *api_version,
       const char *kind, const struct api_need *need)
{
	static const char *const map_versions[] = { "admissionregistration.k8s.io/v1",
						    "admissionregistration.k8s.io/v1beta1" };

	for (size_t i = 0; i < 2; i++) {
		const char *other = map_versions[1 - i];

		if (strcmp(api_version, map_versions[i]) ||
		    !argocd_api_versions_serves(have, other, kind))
			continue;
		return arena_printf(
			a, "it serves %s %s: set kube-version to the cluster's version (%s)", other,
			kind, i == 0 ? "1.34 or 1.35" : "1.36 or later");
	}
	return need ? need->advice : "install what serves it";
}

static const struct spec_site *
owner_site(const struct spec_fleet *fleet, const struct render_object *o,
	   const struct gen_settings *g)
{
	if (o->site)
		return spec_fleet_find(fleet, o->site);
	/* Shared per cluster: name the first selected site of that cluster. */
	for (size_t i = 0; i < fleet->count; i++) {
		const struct spec_site *s = fleet->sites[i];
		bool selected = !g->site_count;

		for (size_t j = 0; j < g->site_count; j++)
			selected |= !strcmp(g->sites[j], s->name);
		if (selected && o->cluster && s->cluster.name &&
		    !strcmp(o->cluster, s->cluster.name))
			return s;
	}
	return NULL;
}

struct api_check {
	struct arena *a;
	struct diags *d;
	struct argocd_api_versions have;
	const struct spec_fleet *fleet;
	const struct gen_settings *g;
	const char **said; /* "<api>/<kind>@<site>" already warned about */
	size_t nsaid;
};

/* Warn once per site when the cluster does not serve `kind` of `api`,
 * which object `o` is (`via` NULL) or refers to (`via` says how). */
static void
api_require(struct api_check *c, const struct render_object *o, const char *api, const char *kind,
	 const char *via)
{
	const struct spec_site *s;
	const struct api_need *need = NULL;
	struct pos at = { NULL, 0, 0 };
	const char *key, *who;

	if (argocd_api_versions_serves(&c->have, api, kind))
		return;
	s = owner_site(c->fleet, o, c->g);
	who = s ? s->name : o->cluster ? o->cluster : "?";
	key = arena_printf(c->a, "%s/%s@%s", api, kind, s ? s->name : "");
	for (size_t j = 0; j < c->nsaid; j++) {
		if (!strcmp(c->said[j], key))
			return;
	}
	c->said[c->nsaid++] = key;
	for (size_t j = 0; j < sizeof(api_needs) / sizeof(api_needs[0]); j++) {
		if (!strcmp(api_needs[j].kind, kind))
			need = &api_needs[j];
	}
	if (s) {
		const struct node *spec = node_map_get(s->doc, "spec");

		at = spec ? spec_field_pos(spec, need ? need->field : "cluster")
			  : (struct pos){ s->file, 0, 0 };
		if (!at.file)
			at.file = s->file;
	}
	diag_add(c->d, DIAG_WARNING, at, ARGOCD_RULE_API, "",
		 "site %s needs %s %s%s, which the target cluster does not serve "
		 "(KUBE_API_VERSIONS): %s",
		 who, api, kind, via ? via : "", advice(c->a, &c->have, api, kind, need));
}

static void
check_apis(struct arena *a, struct diags *d, const struct argocd_env *e,
	   const struct gen_settings *g, const struct spec_fleet *fleet,
	   const struct render_result *r)
{
	struct api_check c = { a, d, { NULL, 0 }, fleet, g, NULL, 0 };

	argocd_api_versions_parse(&c.have, a, argocd_env_get(e, "KUBE_API_VERSIONS"));
	if (!c.have.count)
		return; /* unknown cluster: nothing to check against */
	c.said = arena_alloc(a, (2 * r->count + 1) * sizeof(*c.said));
	for (size_t i = 0; i < r->count; i++) {
		const struct render_object *o = &r->objects[i];
		const char *group, *kind;

		api_require(&c, o, o->api_version, o->kind, NULL);
		if (strcmp(o->kind, "NodePool"))
			continue;
		/* A NodePool is useless without the node class it points at
		 * (Karpenter v1: karpenter.k8s.aws/v1, eks.amazonaws.com/v1). */
		group = node_str(node_path(o->obj, "spec.template.spec.nodeClassRef.group"));
		kind = node_str(node_path(o->obj, "spec.template.spec.nodeClassRef.kind"));
		if (group && kind)
			api_require(&c, o, arena_printf(a, "%s/v1", group), kind,
				 " (its NodePool's nodeClassRef)");
	}
}

static int
run(struct buf *out, struct arena *a, struct diags *d)
{
	struct argocd_env env;
	struct gen_settings g;
	struct pipeline p;
	struct source_set files;
	struct render_result r;
	struct render_options opt;
	double start = now_seconds();
	size_t shared_left;
	int ret;

	if (argocd_env_load(&env, a, d, (const char *const *)environ) < 0)
		return GS_EXIT_USAGE;
	argocd_env_check_names(d, &env, settings);
	if (read_settings(&g, a, d, &env, 0) < 0)
		return GS_EXIT_USAGE;

	ret = argocd_app_load(&p, &files, a, d, &env);
	if (ret == ARGOCD_LOAD_FAILED)
		return GS_EXIT_FAILURE;
	if (ret == ARGOCD_LOAD_FINDINGS)
		return GS_EXIT_FINDINGS;
	if (deadline_check(d, start, "reading the specs") < 0)
		return GS_EXIT_FAILURE;
	if (check_site_names(a, d, &env, &g, &p.fleet) < 0)
		return GS_EXIT_FINDINGS;

	memset(&r, 0, sizeof(r));
	memset(&opt, 0, sizeof(opt));
	opt.sites = render_sites(&opt.site_count, a, &g, &p.fleet);
	opt.kube_minor = g.kube_minor;
	opt.files = false;
	opt.getenv = no_env;
	/* kube-version (KUBE_VERSION: the destination's) overrides each
	 * site's kubernetesVersion, which is all the rules saw */
	if (pipeline_check_kube_version(d, &p.fleet, &opt,
					"kube-version (KUBE_VERSION, the destination's version)") < 0)
		return GS_EXIT_FINDINGS;
	if (render_fleet(&r, a, d, &p.fleet, &opt) < 0)
		return GS_EXIT_FINDINGS;
	shared_left = keep_carried(&r, &g, &p.fleet);
	if (!r.count) {
		struct pos at = { NULL, 0, 0 };

		diag_add(d, DIAG_ERROR, at, ARGOCD_RULE_OUTPUT, "",
			 "the sites rendered no object%s: refusing an empty success, which would "
			 "prune the application",
			 shared_left ? " of their own (shared-objects leaves the cluster's shared "
				       "objects to another application)"
				     : "");
		return GS_EXIT_FINDINGS;
	}
	check_apis(a, d, &env, &g, &p.fleet, &r);
	if (g.strict)
		diags_promote_warnings(d);
	if (diags_count(d, DIAG_ERROR))
		return GS_EXIT_FINDINGS;

	ret = emit_stream(out, &r, EMIT_YAML);
	if (ret < 0 || !out->len) {
		struct pos at = { NULL, 0, 0 };

		diag_add(d, DIAG_ERROR, at, ARGOCD_RULE_OUTPUT, "",
			 ret == BUF_ETOOBIG
				 ? "the rendered stream is larger than %u MiB: split the sites "
				   "over several applications with the 'sites' setting"
				 : "the rendered stream could not be written (%u MiB cap)",
			 OUTPUT_CAP >> 20);
		return GS_EXIT_FAILURE;
	}
	if (deadline_check(d, start, "rendering") < 0)
		return GS_EXIT_FAILURE;
	return GS_EXIT_OK;
}

int
cmd_generate(int argc, char **argv)
{
	struct arena a;
	struct diags d;
	struct buf out;
	struct opts o;
	int code, rc;

	rc = opts_parse(&o, &generate_cmd, argc, argv);
	if (rc != OPTS_OK)
		return opts_exit_code(rc);
	deadline_arm();
	arena_init(&a);
	diags_init(&d, &a);
	buf_init(&out, OUTPUT_CAP);

	code = run(&out, &a, &d);
	alarm(0);
	if (code == GS_EXIT_OK && diags_count(&d, DIAG_ERROR))
		code = GS_EXIT_FINDINGS;
	diags_sort(&d);
	argocd_diags_print(stderr, &d, MAX_LINES);
	if (code != GS_EXIT_OK) {
		const char *sum = argocd_diags_summary(&a, &d);

		fprintf(stderr, "gpusite: generate failed%s%s\n", *sum ? ": " : "", sum);
	} else if (fwrite(out.data, 1, out.len, stdout) != out.len) {
		code = GS_EXIT_FAILURE; /* main.c reports the write error */
	}
	buf_release(&out);
	arena_release(&a);
	return code;
}
