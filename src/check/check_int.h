/*
 * check_int.h - shared by the files of check/ (not for other modules):
 * the context of one object's checks and the kind checkers.
 */
#ifndef GS_CHECK_INT_H
#define GS_CHECK_INT_H

#include <stdbool.h>

#include "check/check.h"

struct check_ctx {
	struct arena *a;
	struct diags *d;
	const struct node *obj;
	const char *what; /* "NodePool gpu-fallback", for messages */
	bool embedded;    /* a NodeConfig copy inside the nodeconfig ConfigMap */
	int rc;           /* -1 once an error was added */
};

/* Append the finding `rule` at node `at` (the object when NULL), at the
 * level the table of findings gives it. */
void check_report(struct check_ctx *c, const char *rule, const struct node *at, const char *path,
		  const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Scalar text, NULL for absent, null or a collection. */
const char *check_text(const struct node *n);
/* A sequence's item count (0 when absent or not a sequence). */
size_t check_seq_count(const struct node *n);
/* "a.b" + "c" / + index, for diagnostic paths. */
const char *check_path(struct check_ctx *c, const char *base, const char *key);
const char *check_index(struct check_ctx *c, const char *base, size_t i);
/* Whether apiVersion `api` is of API group `group` ("" for core). */
bool check_group_is(const char *api, const char *group);

/* The kind checkers (each appends to c->d and sets c->rc). */
void check_nodepool(struct check_ctx *c);
void check_nodeconfig(struct check_ctx *c);
void check_prometheusrule(struct check_ctx *c);
void check_configmap(struct check_ctx *c);
void check_application(struct check_ctx *c);
void check_mutatingpolicy(struct check_ctx *c);
void check_admissionpolicy(struct check_ctx *c);
void check_clusterpolicy(struct check_ctx *c);

/*
 * Schema validation of one (possibly embedded) object: 0, 1 when no
 * upstream schema covers it, -1 after GS130 errors, -3 when the upstream
 * file could not be read or compiled.
 */
int check_upstream_validate(struct check_upstream *u, struct arena *a, struct diags *d,
			    const struct node *obj);

/*
 * The upstream schemas found by their content (check_index.c): the CRDs
 * by group and kind, the OpenAPI v3 components by group, version, kind.
 */
struct check_index_sources {
	const char **names; /* every file defining the kind, in the order read */
	size_t n, alloc;
};
struct check_index_crd {
	const char *group, *kind;
	const struct node *crd;
	const char *source; /* the file (or URL path) it came from: the last */
	struct check_index_sources also;
};
struct check_index_api {
	const char *group, *version, *kind;
	const char *name;              /* its key in components.schemas */
	const struct node *components; /* the document's components */
	const char *source;
	struct check_index_sources also;
};
struct check_index {
	struct check_index_crd *crds;
	size_t ncrds, crds_alloc;
	struct check_index_api *apis;
	size_t napis, apis_alloc;
	size_t nfiles; /* files read by check_index_dir */
};
/* Index one document: a CRD, a List of them, or an OpenAPI v3 document. */
void check_index_doc(struct check_index *ix, struct arena *a, const char *source,
		     const struct node *doc);
/* Index every file below `dir` (bounded; what is not a schema is passed over). */
void check_index_dir(struct check_index *ix, struct arena *a, const char *dir);
const struct check_index_crd *check_index_crd_find(const struct check_index *ix, const char *group,
						   const char *kind);
const struct check_index_api *check_index_api_find(const struct check_index *ix, const char *group,
						   const char *version, const char *kind);

/* The NodeConfigs published in a ConfigMap: parse and check each (schema too). */
void check_configmap_nodeconfigs(struct check_ctx *c, struct check_upstream *u);

#endif
