/*
 * rules_int.h - what rule files share: the running context, reporting, and
 * helpers for positions, ordering and Kubernetes name syntax.  Private to
 * src/rules/ (the public face is rules.h).
 */
#ifndef GS_RULES_INT_H
#define GS_RULES_INT_H

#include <stdbool.h>

#include "base/diag.h"
#include "inventory/inventory.h"
#include "rules/rules.h"
#include "spec/spec.h"

struct arena;

struct rule_ctx {
	struct arena *arena;
	struct diags *diags;
	const struct rule *rule; /* the rule running now */
	const struct spec_fleet *fleet;
	size_t errors; /* error diagnostics appended */
};

/* Every descriptor of rules_table (one per rule file or family). */
extern const struct rule rule_gs004, rule_gs005, rule_gs010, rule_gs011, rule_gs012, rule_gs013,
	rule_gs020, rule_gs021, rule_gs022, rule_gs023, rule_gs030, rule_gs031, rule_gs032,
	rule_gs033, rule_gs040, rule_gs041, rule_gs042, rule_gs043, rule_gs044, rule_gs045,
	rule_gs046, rule_gs047, rule_gs050, rule_gs051, rule_gs052, rule_gs060, rule_gs061,
	rule_gs062, rule_gs063, rule_gs100, rule_gs101, rule_gs102, rule_gs103, rule_gs104,
	rule_gs105, rule_gs107, rule_gs108, rule_gs109, rule_gs110, rule_gs111, rule_gs112,
	rule_gs113, rule_gs114, rule_gs115, rule_gs116, rule_gs117, rule_gs171, rule_gs172,
	rule_gs174, rule_gs176, rule_gs178, rule_gs179, rule_gs180, rule_gs181, rule_gs182,
	rule_gs183, rule_gs184, rule_gs186, rule_gs187, rule_gs188, rule_gs189, rule_gs196;

/*
 * Append a diagnostic for the running rule (its ID, and the severity the
 * table of findings gives it) at `at`,
 * for `site` (may be NULL), with JSON path `path` ("" when none).
 */
void rule_report(struct rule_ctx *c, const struct spec_site *site, struct pos at, const char *path,
		 const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/*
 * Where to point for map[key]: its value; else the map; else, when the
 * block is absent (all defaults), the site's `spec` mapping.
 */
struct pos rule_pos(const struct spec_site *s, const struct node *map, const char *key);
/* The KEY node of map[key] (label keys, owned Helm values), else rule_pos. */
struct pos rule_key_pos(const struct spec_site *s, const struct node *map, const char *key);

/*
 * The pool blocks a pool rule checks, one the same way as the other: the
 * inventory's pools of the site (the fallback, the burst pool), with the
 * fallback block first even when it is disabled (its fields are still
 * read).  `block` names it in messages ("fallback" | "burst"), `path` is
 * its JSON path ("spec.fallback").  Returns how many were written.
 */
#define RULE_POOLS_MAX 4
struct rule_pool {
	const struct spec_fallback *f;
	const char *block;
	const char *path;
	/* its inventory entry, NULL for a disabled fallback block: what a
	 * rule says differently of one pool than of another reads it */
	const struct inv_pool *pool;
};
size_t rule_pools(struct rule_ctx *c, const struct spec_site *s,
		  struct rule_pool out[RULE_POOLS_MAX]);
/* Run `one` on every pool block of rule_pools(), in order. */
void rule_each_pool(struct rule_ctx *c, const struct spec_site *s,
		    void (*one)(struct rule_ctx *c, const struct spec_site *s,
				const struct rule_pool *p));

/* "sites/a.yaml:3:9" (or "sites/a.yaml" for whole-file positions). */
const char *rule_pos_text(struct rule_ctx *c, struct pos at);

/* Position order (file, line, column) for "second occurrence" rules. */
int rule_pos_cmp(struct pos a, struct pos b);

/*
 * Duplicate finding for the cross-file rules: fill occurrences, sort them
 * (key, then position), and every entry whose key equals its
 * predecessor's is a repeat of the run's first entry.
 */
struct rule_occurrence {
	const char *key;
	struct pos at;
	const struct spec_site *site;
	const char *path;
};
void rule_sort_occurrences(struct rule_occurrence *v, size_t n);

/* Fill one occurrence of `key` in site `s`; at the site's file when `at`
 * has none. */
void rule_occurrence_set(struct rule_occurrence *o, const struct spec_site *s, const char *key,
			 struct pos at, const char *path);

/*
 * Sort the occurrences and call `repeat` for every entry whose key an
 * earlier one (in position order) already had, with the first of them.
 */
void rule_each_repeat(struct rule_ctx *c, struct rule_occurrence *v, size_t n,
		      void (*repeat)(struct rule_ctx *c, const struct rule_occurrence *first,
				     const struct rule_occurrence *again, void *payload),
		      void *payload);

/* JSON path of a node group: "spec.nodeGroups[2]". */
const char *rule_group_path(struct rule_ctx *c, const struct spec_site *s,
			    const struct spec_node_group *g);

/*
 * Text safe to quote in a message: `text`, or "<redacted>" when it looks
 * like a secret (GS010 reports those; no other message may echo them).
 */
const char *rule_quote(const char *text);
bool rules_looks_secret(const char *text);
/* The same, for `text` as the value of the field named `key`
 * ("activationCodeEnv"): what GS010 reports there. */
bool rules_secret_in_field(const char *text, const char *key);
/* False only when `text` (a key when is_key) cannot hold a secret GS010
 * knows; the cheap first step of every check above. */
bool rules_secret_prefilter(const char *text, bool is_key);

/* Kubernetes syntax: k8s/k8s_names.h */
#include "k8s/k8s_names.h"

#endif
