/*
 * argocd_settings.h - the settings of the Argo CD plugin (`generate`,
 * `parameters`), described once: name, title, tooltip, type, default and
 * parser.  `parameters` announces from the table, `generate` reads from
 * it, so the two never disagree (docs/design/commands.md, "Argo CD environment").
 */
#ifndef GS_ARGOCD_SETTINGS_H
#define GS_ARGOCD_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "argocd/argocd_env.h"
#include "base/diag.h"

struct arena;

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
 * The `objects` setting: which objects of the sites the stream holds,
 * by where they live (docs/design/artifacts.md, "Where each object is applied").
 */
enum argocd_objects {
	ARGOCD_OBJECTS_ALL,     /* both: Argo CD runs inside the one cluster */
	ARGOCD_OBJECTS_CLUSTER, /* only what lives in the destination cluster */
	ARGOCD_OBJECTS_ARGOCD,  /* only the Argo CD Applications, for the hub */
};
#define ARGOCD_OBJECTS_DEFAULT "all"

/* "cluster", "argocd" or "all" (exact, lower case).  Returns 0, or -1. */
int argocd_parse_objects(enum argocd_objects *out, const char *text);

/* What the settings say, every default applied. */
struct argocd_settings {
	bool strict;
	enum argocd_shared_objects shared;
	enum argocd_objects objects;
	int kube_minor;     /* 0: each site's own */
	const char **sites; /* NULL: all; no repeats */
	size_t site_count;
	const char **clusters; /* NULL: all; no repeats */
	size_t cluster_count;
};

enum argocd_setting_type {
	ARGOCD_SETTING_STRING, /* announced with collectionType string */
	ARGOCD_SETTING_ARRAY,  /* array, or a string split at commas and blanks */
};

/* What an array setting announces when nothing sets it. */
enum argocd_setting_fallback {
	ARGOCD_ANNOUNCE_EMPTY,      /* [] */
	ARGOCD_ANNOUNCE_SITE_NAMES, /* every site under the application path */
};

/* One setting. */
struct argocd_setting_desc {
	const char *name;  /* "kube-version": parameter, ARGOCD_ENV_KUBE_VERSION */
	const char *title; /* the UI's label */
	const char *tooltip;
	enum argocd_setting_type type;
	const char *def;                       /* string settings: the default announced */
	enum argocd_setting_fallback fallback; /* array settings */
	/* Store the looked-up value `s` (not the default) in `out`: 0, or -1
	 * after a GS121 diagnostic. */
	int (*parse)(struct argocd_settings *out, struct arena *a, struct diags *d,
		     const struct argocd_setting *s);
	/* The value to announce once `parse` took it (strict: "true" for
	 * "True"); NULL: as written. */
	const char *(*canonical)(const struct argocd_settings *parsed);
};

/* The settings in announcement order, and their names (NULL-terminated). */
extern const struct argocd_setting_desc argocd_settings_table[];
extern const size_t argocd_settings_count;
extern const char *const argocd_setting_names[];

/*
 * Look every setting up (argocd_setting_lookup with `flags`) and parse
 * it into `out`, defaults first.  Returns 0, or -1 after GS121
 * diagnostics (every bad setting is reported).
 */
int argocd_settings_read(struct argocd_settings *out, struct arena *a, struct diags *d,
			 const struct argocd_env *e, unsigned flags);

#endif
