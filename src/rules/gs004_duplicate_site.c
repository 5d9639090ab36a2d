/*
 * gs004_duplicate_site.c - GS004: two sites share a metadata.name.
 * Reported at the second occurrence in position order, naming the first.
 */
#include <string.h>

#include "base/arena.h"
#include "rules/rule.h"

static void
check_fleet(struct rule_ctx *c, const struct spec_fleet *f)
{
	struct rule_occurrence *v;
	size_t i, first = 0;

	if (!f->count)
		return;
	v = arena_alloc(c->arena, f->count * sizeof(*v));
	for (i = 0; i < f->count; i++) {
		const struct spec_site *s = f->sites[i];
		const struct node *md = s->doc && s->doc->kind == NODE_MAP ?
			node_map_get(s->doc, "metadata") : NULL;

		v[i].key = s->name ? s->name : "";
		v[i].at = md ? spec_field_pos(md, "name") : rule_pos(s, NULL, NULL);
		if (!v[i].at.file)
			v[i].at.file = s->file;
		v[i].site = s;
		v[i].path = "metadata.name";
	}
	rule_sort_occurrences(v, f->count);
	for (i = 1; i < f->count; i++) {
		if (strcmp(v[i].key, v[first].key)) {
			first = i;
			continue;
		}
		rule_report(c, v[i].site, v[i].at, v[i].path,
			    "site name '%s' is already used by another site: site "
			    "names must be unique in the repository, rename one "
			    "(first at %s)", v[i].key, rule_pos_text(c, v[first].at));
	}
}

const struct rule rule_gs004 = {
	.id = "GS004",
	.level = DIAG_ERROR,
	.summary = "two sites share a metadata.name in the repository",
	.check_fleet = check_fleet,
};
