/*
 * gs004_duplicate_site.c - GS004: two sites share a metadata.name.
 * Reported at the second occurrence in position order, naming the first.
 */
#include <string.h>

#include "base/arena.h"
#include "rules/rules_int.h"

static void
report_repeat(struct rule_ctx *c, const struct rule_occurrence *first,
	      const struct rule_occurrence *again, void *payload)
{
	(void)payload;
	rule_report(c, again->site, again->at, again->path,
		    "site name '%s' is already used by another site: site "
		    "names must be unique in the repository, rename one "
		    "(first at %s)",
		    again->key, rule_pos_text(c, first->at));
}

static void
check_fleet(struct rule_ctx *c, const struct spec_fleet *f)
{
	struct rule_occurrence *v;

	if (!f->count)
		return;
	v = arena_alloc(c->arena, f->count * sizeof(*v));
	for (size_t i = 0; i < f->count; i++) {
		const struct spec_site *s = f->sites[i];
		const struct node *md = s->doc && s->doc->kind == NODE_MAP
						? node_map_get(s->doc, "metadata")
						: NULL;

		rule_occurrence_set(&v[i], s, s->name ? s->name : "",
				    md ? spec_field_pos(md, "name") : rule_pos(s, NULL, NULL),
				    "metadata.name");
	}
	rule_each_repeat(c, v, f->count, report_repeat, NULL);
}

/* Sites meet by metadata.name. */
static void
keys(struct rule_keys *k, const struct spec_site *s)
{
	rule_key(k, s->name);
}

const struct rule rule_gs004 = {
	.id = "GS004",
	.check_fleet = check_fleet,
	.fleet_keys = keys,
};
