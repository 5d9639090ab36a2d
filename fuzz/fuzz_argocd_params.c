/*
 * fuzz_argocd_params.c - what the Argo CD repo server hands a plugin run:
 * ARGOCD_APP_PARAMETERS (JSON), KUBE_VERSION, KUBE_API_VERSIONS and the
 * working directory, all taken from the same bytes.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/diag.h"
#include "argocd/argocd_api.h"
#include "argocd/argocd_app.h"
#include "argocd/argocd_env.h"
#include "argocd/argocd_settings.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const known[] = { "sites", "strict", "kube-version", "values-files", NULL };

static void
settings(struct arena *a, const struct argocd_env *e)
{
	for (size_t i = 0; known[i]; i++) {
		struct argocd_setting s;
		const char **list;
		size_t n;

		argocd_setting_lookup(&s, a, e, known[i], 0);
		n = argocd_setting_list(&list, a, &s);
		for (size_t j = 0; j < n; j++)
			if (!list[j] || !*list[j])
				__builtin_trap();	/* empty items are dropped */
		(void)argocd_setting_pos(&s);
		argocd_setting_lookup(&s, a, e, known[i], ARGOCD_LOOKUP_NO_PARAMS);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *sink;
	struct arena a;
	struct diags d;
	struct argocd_param *params = NULL;
	struct argocd_api_versions v;
	struct argocd_env e;
	enum argocd_params_state state;
	size_t count = 0;
	char *text, *cwd;
	const char *envp[8];
	int minor;

	if (size > ARGOCD_ENV_MAX_VALUE + 16)
		return 0;
	if (!sink)
		sink = fopen("/dev/null", "w");
	arena_init(&a);
	diags_init(&d, &a);
	text = arena_strndup(&a, (const char *)data, size);

	if (argocd_parameters_parse(&params, &count, &state, &a, &d,
				    ARGOCD_PARAMETERS_VAR, text) == 0) {
		for (size_t i = 0; i < count; i++)
			if (!params[i].name || !*params[i].name)
				__builtin_trap();	/* every entry is named */
	} else if (d.count == 0) {
		__builtin_trap();	/* a refusal says why */
	}

	/* the same text through every variable the plugin reads */
	envp[0] = arena_printf(&a, "%s=%s", ARGOCD_PARAMETERS_VAR, text);
	envp[1] = arena_printf(&a, "ARGOCD_ENV_SITES=%s", text);
	envp[2] = arena_printf(&a, "PARAM_STRICT=%s", text);
	envp[3] = arena_printf(&a, "PARAM_VALUES_FILES_0=%s", text);
	envp[4] = arena_printf(&a, "KUBE_VERSION=%s", text);
	envp[5] = arena_printf(&a, "ARGOCD_ENV_Kube-Version=%s", text);
	envp[6] = arena_printf(&a, "ARGOCD_APP_SOURCE_PATH=%s", text);
	envp[7] = NULL;
	if (argocd_env_load(&e, &a, &d, envp) == 0)
		settings(&a, &e);
	argocd_env_check_names(&d, &e, known);

	(void)argocd_parse_kube_version(&minor, text);
	{
		bool b;

		(void)argocd_parse_bool(&b, text);
	}
	argocd_api_versions_parse(&v, &a, text);
	for (size_t i = 1; i < v.count; i++)
		if (strcmp(v.items[i - 1], v.items[i]) >= 0)
			__builtin_trap();	/* sorted and deduplicated */
	(void)argocd_api_versions_serves(&v, "karpenter.sh/v1", "NodePool");
	(void)argocd_api_versions_serves(&v, text, text);
	(void)argocd_env_var_name(&a, "PARAM_", text);

	cwd = arena_printf(&a, "/%s", text);
	(void)argocd_repo_root(&a, cwd, text);
	(void)argocd_repo_root(&a, cwd, "sites");

	if (sink) {
		argocd_diags_print(sink, &d, 20);
		(void)argocd_diags_summary(&a, &d);
	}
	arena_release(&a);
	return 0;
}
