/*
 * rules.h - the semantic checks of docs/rules.md (GS004-GS063, GS1xx),
 * run on the typed model after the schema passed.  One file per rule or
 * family (rules/gsNNN_*.c), one row each in rules_table (rules/rules.c).
 */
#ifndef GS_RULES_H
#define GS_RULES_H

#include <stdbool.h>

#include "base/diag.h"
#include "base/findings.h"
#include "spec/spec.h"

struct arena;

/* Run every rule over every site and across the fleet; returns -1 when
 * any error was appended, else 0. */
int rules_check(struct arena *a, struct diags *d, const struct spec_fleet *fleet);

struct rule_ctx;

/*
 * One check of rules_table.  What the rule means and its severity are its
 * row in the table of findings (base/findings.h), found by `id`; the
 * checks report through rule_report() (rules/rules_int.h), which takes
 * the severity from there.
 */
/* Where a cross-file rule puts the keys it compares (rule_key()). */
struct rule_keys {
	struct arena *arena;
	void (*add)(void *payload, const char *key);
	void *payload;
};

struct rule {
	const char *id; /* "GS041" */
	void (*check_site)(struct rule_ctx *c, const struct spec_site *s);
	void (*check_fleet)(struct rule_ctx *c, const struct spec_fleet *f);
	/* With check_fleet: every key of `s` the rule compares across sites
	 * (two sites can meet in a finding only when a key is the same).
	 * validate's lean road keeps these keys instead of the trees and
	 * reads again only the files whose keys meet; a check_fleet without
	 * it makes the lean road read every file again. */
	void (*fleet_keys)(struct rule_keys *k, const struct spec_site *s);
};

/* Add `key` (NULL: "") to the keys of the rule being asked. */
void rule_key(struct rule_keys *k, const char *key);

/* The checks in ID order (GS004 ... GS063, then GS1xx); run order. */
extern const struct rule *const rules_table[];
extern const size_t rules_count;

/*
 * GS010 over one document that did NOT reach the fleet (it failed the
 * schema): a literal secret is reported wherever it sits, even under a
 * field the schema rejects.  rules_check() already scans fleet sites, so
 * call this only for the others.  Returns -1 when a secret was found.
 */
int rules_scan_secrets(struct arena *a, struct diags *d, const struct node *doc);

/*
 * Why `name` may not be the variable of an SSM activation code (GS103),
 * as a message fragment, or NULL when it may: the name must contain both
 * SSM and ACTIVATION (any case) and must not start with the prefix of a
 * credential or tool variable (AWS_, GPUSITE_, GIT_, GITHUB_, GITLAB_,
 * ARGOCD_, KUBE).  render reads no variable this refuses.
 */
const char *rules_activation_env_problem(const char *name);

/*
 * The Argo CD destination of a site's GPU-stack Application as GS174
 * compares it ("name X" or "server URL"): destinationName, else
 * destinationServer, else (*explicit_out false) the cluster's own name;
 * NULL for the in-cluster address, which every Argo CD reads as its own
 * cluster.  Allocated in `a`.
 */
const char *rules_argocd_destination(struct arena *a, const struct spec_site *s,
				     bool *explicit_out);

/*
 * Node limits (GS104): no real site comes near them, and they bound what
 * render allocates for a spec that passes every other check.
 */
#define RULES_MAX_NODES_PER_GROUP 1000
#define RULES_MAX_NODES_PER_SITE 5000

#endif
