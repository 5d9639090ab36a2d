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

/* Append a diagnostic at node `at` (the object when NULL). */
void check_report(struct check_ctx *c, enum diag_level level, const char *rule,
		  const struct node *at, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

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

/* The NodeConfigs published in a ConfigMap: parse and check each (schema too). */
void check_configmap_nodeconfigs(struct check_ctx *c, struct check_upstream *u);

#endif
