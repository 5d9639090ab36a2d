/*
 * argocd_env.h - what Argo CD's config-management-plugin server hands
 * `gpusite generate` and `gpusite parameters`: environment variables only
 * (../shared/reference/argocd-cmp.md, sections 2.2 and 2.3).
 *
 * argocd_env_load() reads them once from an environment table (the
 * process's `environ` in the CLI, a fixed table in tests), parses
 * ARGOCD_APP_PARAMETERS and then answers setting lookups in the order
 * real plugins use: parameter, then ARGOCD_ENV_<NAME>, then plain <NAME>.
 * Everything it returns lives in the arena it was given.
 */
#ifndef GS_ARGOCD_ENV_H
#define GS_ARGOCD_ENV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/diag.h"

struct arena;
struct pipeline;
struct source_set;

#define ARGOCD_PARAMETERS_VAR "ARGOCD_APP_PARAMETERS"
/* Rule IDs of the Argo CD environment (site-spec.md: new IDs from GS100). */
#define ARGOCD_RULE_PARAMETERS "GS120" /* ARGOCD_APP_PARAMETERS unreadable */
#define ARGOCD_RULE_SETTING "GS121"    /* a setting has a value it cannot take */
#define ARGOCD_RULE_UNKNOWN "GS122"    /* unknown parameter, misspelt ARGOCD_ENV_ */
#define ARGOCD_RULE_API "GS123"        /* target cluster lacks an API the output needs */
/* Nothing (or too much) to print: a `sites` name matching no site, an
 * empty stream. */
#define ARGOCD_RULE_OUTPUT "GS124"
#define ARGOCD_RULE_DEADLINE "GS125" /* ran out of time */
/* Largest ARGOCD_APP_PARAMETERS / KUBE_API_VERSIONS value read. */
#define ARGOCD_ENV_MAX_VALUE (1u << 20)

struct argocd_kv {
	const char *key;
	const char *value;
};

/* One entry of ARGOCD_APP_PARAMETERS; a kind not set is NULL. */
struct argocd_param {
	const char *name;
	const char *string;
	const char **array; /* non-NULL (maybe empty) when set */
	size_t array_count;
	struct argocd_kv *map; /* non-NULL (maybe empty) when set */
	size_t map_count;
};

enum argocd_params_state {
	ARGOCD_PARAMS_ABSENT, /* no plugin: block in the Application */
	ARGOCD_PARAMS_NULL,   /* the literal `null`: a plugin: block without parameters */
	ARGOCD_PARAMS_SET,    /* a JSON array, maybe empty */
};

struct argocd_env {
	const char *const *envp; /* "NAME=value" entries, NULL-terminated */
	enum argocd_params_state params_state;
	struct argocd_param *params; /* in the order Argo CD sent them */
	size_t param_count;
};

/* Where a setting's value was found, in lookup order. */
enum argocd_origin {
	ARGOCD_FROM_DEFAULT,    /* nowhere: the built-in default applies */
	ARGOCD_FROM_PARAMETERS, /* ARGOCD_APP_PARAMETERS */
	ARGOCD_FROM_PARAM_ENV,  /* PARAM_<NAME> or PARAM_<NAME>_<i> */
	ARGOCD_FROM_ARGOCD_ENV, /* ARGOCD_ENV_<NAME>: the Application's plugin.env */
	ARGOCD_FROM_PLAIN_ENV,  /* <NAME>: the sidecar's own environment */
};

struct argocd_setting {
	const char *name; /* "kube-version" */
	enum argocd_origin origin;
	const char *where; /* variable that held it, for messages; "" for defaults */
	bool is_array;     /* `array` form; else `string` (maybe NULL) */
	bool is_map;       /* a `map` parameter: no setting takes one */
	const char *string;
	const char **array;
	size_t array_count;
};

enum argocd_lookup_flags {
	/* Skip the parameter level: what the value is when the user sets no
	 * parameter, i.e. the default `parameters` must announce. */
	ARGOCD_LOOKUP_NO_PARAMS = 1 << 0,
};

/*
 * Read the environment table `envp` (kept, not copied) and parse
 * ARGOCD_APP_PARAMETERS.  Returns 0, or -1 after a GS120 diagnostic when
 * that variable is not the JSON Argo CD writes (the state is then ABSENT).
 */
int argocd_env_load(struct argocd_env *out, struct arena *a, struct diags *d,
		    const char *const *envp);

/* Value of variable `name`, NULL when unset (set-but-empty gives ""). */
const char *argocd_env_get(const struct argocd_env *e, const char *name);

/* The parameter called `name`, NULL when Argo CD did not send it. */
const struct argocd_param *argocd_env_param(const struct argocd_env *e, const char *name);

/*
 * Parse the text of ARGOCD_APP_PARAMETERS: absent (NULL), "", "null",
 * "[]" or an array of {name, string?, array?, map?} objects with any
 * JSON escapes.  Returns 0 and fills out/count (out may be NULL for
 * none), or -1 after appending a GS120 diagnostic at `where`.
 */
int argocd_parameters_parse(struct argocd_param **out, size_t *count,
			    enum argocd_params_state *state, struct arena *a, struct diags *d,
			    const char *where, const char *json);

/*
 * "PARAM_" / "ARGOCD_ENV_" / "" + name upper-cased, every byte outside
 * [A-Z0-9_] turned into '_' (how Argo CD names PARAM_* variables).
 */
char *argocd_env_var_name(struct arena *a, const char *prefix, const char *name);

/*
 * Look a setting up: the parameter `name` (ARGOCD_APP_PARAMETERS, else
 * PARAM_<NAME>_0.. or PARAM_<NAME>), then ARGOCD_ENV_<NAME>, then <NAME>.
 * Always fills `out`; origin ARGOCD_FROM_DEFAULT when nothing was found.
 */
void argocd_setting_lookup(struct argocd_setting *out, struct arena *a, const struct argocd_env *e,
			   const char *name, unsigned flags);

/*
 * The setting as a list of names: an array as given (empty items
 * dropped), a string split at commas and white space.  Returns the count;
 * *out is arena memory.
 */
size_t argocd_setting_list(const char ***out, struct arena *a, const struct argocd_setting *s);

/* Diagnostics position naming the variable a setting came from. */
struct pos argocd_setting_pos(const struct argocd_setting *s);

/*
 * Warn (GS122) about parameters gpusite does not know and ARGOCD_ENV_
 * variables that spell a known setting in another case or with '-'
 * (`known` is NULL-terminated, e.g. {"sites", "strict", "kube-version"}).
 */
void argocd_env_check_names(struct diags *d, const struct argocd_env *e, const char *const *known);

/* Go's strconv.ParseBool: 1 t T TRUE true True, 0 f F FALSE false False. */
int argocd_parse_bool(bool *out, const char *text);

/*
 * The `shared-objects` setting: which Application carries the objects the
 * sites of one cluster share (render_object.site == NULL, today the GPU
 * stack Application).  Two Applications rendering the same object make
 * Argo CD report SharedResourceWarning and flip its tracking annotation on
 * every sync, so by default one site per cluster owns them.
 */
enum argocd_shared_objects {
	ARGOCD_SHARED_OWNER, /* the cluster's site with the smallest metadata.name */
	ARGOCD_SHARED_ALL,   /* every site's Application (one object, many owners) */
	ARGOCD_SHARED_NONE,  /* no Application: they are managed elsewhere */
};
#define ARGOCD_SHARED_OBJECTS_DEFAULT "owner"

/* "owner", "all" or "none" (exact, lower case).  Returns 0, or -1. */
int argocd_parse_shared_objects(enum argocd_shared_objects *out, const char *text);

/*
 * Kubernetes minor version from KUBE_VERSION-style text: "1.35",
 * "v1.35.2", "1.31.2+eks", "v1.30.4-eks-a737599".  Returns 0 with the
 * minor in *out, or -1 when the text is not a 1.x version.
 */
int argocd_parse_kube_version(int *out, const char *text);

/*
 * KUBE_API_VERSIONS: a comma-joined list of "group/version" and
 * "group/version/Kind" entries ("v1", "v1/Pod", "apps/v1/Deployment").
 */
struct argocd_api_versions {
	const char **items; /* sorted, deduplicated */
	size_t count;
};

void argocd_api_versions_parse(struct argocd_api_versions *out, struct arena *a, const char *text);

/*
 * Does the cluster serve `api_version` (e.g. "karpenter.sh/v1") and, when
 * the list names kinds of that group/version at all, `kind` in it?
 * An empty list (unknown cluster) serves everything.
 */
bool argocd_api_versions_serves(const struct argocd_api_versions *v, const char *api_version,
				const char *kind);

/*
 * The repository root of a plugin run whose working directory is `cwd`
 * (absolute): the nearest ancestor that is a `_cmp_server/<uuid>` copy
 * root, else `cwd` minus `source_path` (ARGOCD_APP_SOURCE_PATH) when cwd
 * ends with it, else `cwd` itself.  Arena string.
 */
char *argocd_repo_root(struct arena *a, const char *cwd, const char *source_path);

/*
 * The sites of the application path, which is the working directory:
 * its `sites/` when that exists, else the directory itself (the rule
 * `validate` uses), read with the repository copy root as the boundary
 * symlinks may not leave (GS006).  The pipeline's diagnostics are copied
 * into `d`.  Returns 0, ARGOCD_LOAD_FINDINGS (the specs have errors; the
 * valid sites are in p->fleet) or ARGOCD_LOAD_FAILED (nothing was read).
 */
enum argocd_load_result {
	ARGOCD_LOAD_OK = 0,
	ARGOCD_LOAD_FINDINGS = -1,
	ARGOCD_LOAD_FAILED = -2,
};

int argocd_app_load(struct pipeline *p, struct source_set *files, struct arena *a, struct diags *d,
		    const struct argocd_env *e);

/*
 * Print diagnostics compiler-style, one line each, for the Argo CD UI:
 * "file:line:col: error: message [GS041]" ("file: ..." when line is 0),
 * control characters shown as '?'.  At most `max` lines, then one line
 * saying how many more there are.
 */
void argocd_diags_print(FILE *err, const struct diags *d, size_t max);

/*
 * The one-line summary that ends stderr, e.g. "2 errors in
 * sites/seoul.yaml (GS003, GS041)"; errors tied to no file are counted
 * but name none.  Arena string; "" without errors.
 */
char *argocd_diags_summary(struct arena *a, const struct diags *d);

#endif
