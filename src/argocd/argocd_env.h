/*
 * argocd_env.h - what Argo CD's config-management-plugin server hands
 * `gpusite generate` and `gpusite parameters`: environment variables only
 * (docs/design/upstream.md, "Argo CD").
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

#define ARGOCD_PARAMETERS_VAR "ARGOCD_APP_PARAMETERS"
/* Rule IDs of the Argo CD environment (docs/design/findings.md: new IDs from GS100). */
#define ARGOCD_RULE_PARAMETERS "GS120" /* ARGOCD_APP_PARAMETERS unreadable */
#define ARGOCD_RULE_SETTING "GS121"    /* a setting has a value it cannot take */
#define ARGOCD_RULE_UNKNOWN "GS122"    /* unknown parameter, misspelt ARGOCD_ENV_: refused */
#define ARGOCD_RULE_API "GS123"        /* target cluster lacks an API the output needs */
/* Nothing (or too much) to print: a `sites` name matching no site, an
 * empty stream. */
#define ARGOCD_RULE_OUTPUT "GS124"
#define ARGOCD_RULE_DEADLINE "GS125" /* ran out of time */
/* Cluster objects of more than one cluster in one stream. */
#define ARGOCD_RULE_FLEET "GS118"
/* An Application where no Argo CD runs (KUBE_API_VERSIONS lacks it). */
#define ARGOCD_RULE_HUB "GS119"
/* `cluster` names no cluster of the sites, or a `sites` name lies outside it. */
#define ARGOCD_RULE_CLUSTER "GS128"
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
 * Refuse (GS122, errors) parameters gpusite does not know, parameters
 * given twice, and ARGOCD_ENV_ variables that are no setting or spell one
 * in another case or with '-' (Argo CD passes them as written), each with
 * the closest setting name (`known` is NULL-terminated, e.g. {"sites",
 * "strict", ...}).  Returns 0, or -1 when it added an error.
 */
int argocd_env_check_names(struct diags *d, const struct argocd_env *e, const char *const *known);

/* The name of `known` at most two edits from `name`, the closest first
 * in table order; NULL when none is that close. */
const char *argocd_closest_name(const char *const *known, const char *name);

#endif
