/*
 * argocd_plugin.h - what the Argo CD config-management plugin runs:
 * `gpusite generate` and `gpusite parameters` (plugin/plugin.yaml).
 */
#ifndef GS_ARGOCD_PLUGIN_H
#define GS_ARGOCD_PLUGIN_H

struct arena;
struct buf;
struct diags;

/* Argo CD gives the whole request 60 s by default (docs/design/upstream.md, "Argo CD"). */
#define ARGOCD_DEADLINE_SECONDS 45
/* One gRPC message carries every manifest; its default cap is 100 MiB. */
#define ARGOCD_OUTPUT_CAP (64u << 20)

enum argocd_run_result {
	ARGOCD_RUN_OK = 0,
	ARGOCD_RUN_FINDINGS = -1, /* the specs or the output have errors */
	ARGOCD_RUN_SETTINGS = -2, /* a setting or parameter is refused */
	ARGOCD_RUN_FAILED = -3,   /* the application path could not be read, out of time */
};

/*
 * generate: read the settings from `envp` (the environment), load the
 * sites of the application path (the working directory), select and
 * render them, and append the YAML stream to `out` (cap
 * ARGOCD_OUTPUT_CAP).  Every problem is appended to `d`; `out` holds
 * the whole stream only when the result is ARGOCD_RUN_OK.  Past
 * ARGOCD_DEADLINE_SECONDS between stages it gives up (GS125).
 */
int argocd_generate(struct buf *out, struct arena *a, struct diags *d, const char *const *envp);

/*
 * parameters: the JSON array of parameter announcements, one per setting,
 * each default what generate does when the parameter is not set.
 * ARGOCD_RUN_OK, or ARGOCD_RUN_FAILED (the reason in `d`).
 */
int argocd_parameters(struct buf *out, struct arena *a, struct diags *d, const char *const *envp);

#endif
