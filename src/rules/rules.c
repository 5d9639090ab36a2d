/*
 * rules.c - the table of checks over the site specs and the driver that
 * runs it, plus the helpers every rule file uses.  What each rule means
 * and its severity are in the table of findings (base/findings.c).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "inventory/inventory.h"
#include "rules/rules_int.h"

/* Table order is run order; keep it the ID order of docs/rules.md.  GS001,
 * GS002, GS003 and GS006 are found while reading (yamlio, schema, source). */
const struct rule *const rules_table[] = {
	&rule_gs004, &rule_gs005, &rule_gs010, &rule_gs011, &rule_gs012, &rule_gs013, &rule_gs020,
	&rule_gs021, &rule_gs022, &rule_gs023, &rule_gs030, &rule_gs031, &rule_gs032, &rule_gs033,
	&rule_gs040, &rule_gs041, &rule_gs042, &rule_gs043, &rule_gs044, &rule_gs045, &rule_gs046,
	&rule_gs047, &rule_gs050, &rule_gs051, &rule_gs052, &rule_gs060, &rule_gs061, &rule_gs062,
	&rule_gs063, &rule_gs100, &rule_gs101, &rule_gs102, &rule_gs103, &rule_gs104, &rule_gs105,
	&rule_gs107, &rule_gs108, &rule_gs109, &rule_gs110, &rule_gs111, &rule_gs112, &rule_gs113,
	&rule_gs114, &rule_gs115, &rule_gs116, &rule_gs117, &rule_gs171, &rule_gs172, &rule_gs174,
	&rule_gs176, &rule_gs178, &rule_gs179, &rule_gs180, &rule_gs181, &rule_gs182, &rule_gs183,
	&rule_gs184, &rule_gs186, &rule_gs187, &rule_gs188, &rule_gs189, &rule_gs196,
};

const size_t rules_count = sizeof(rules_table) / sizeof(rules_table[0]);

int
rules_check(struct arena *a, struct diags *d, const struct spec_fleet *fleet)
{
	struct rule_ctx c = { a, d, NULL, fleet, 0 };
	size_t i, j;

	if (!fleet)
		return 0;
	for (i = 0; i < rules_count; i++) {
		c.rule = rules_table[i];
		if (c.rule->check_site)
			for (j = 0; j < fleet->count; j++)
				c.rule->check_site(&c, fleet->sites[j]);
		if (c.rule->check_fleet)
			c.rule->check_fleet(&c, fleet);
	}
	return c.errors ? -1 : 0;
}

void
rule_report(struct rule_ctx *c, const struct spec_site *site, struct pos at, const char *path,
	    const char *fmt, ...)
{
	va_list ap;
	int rc;

	if (!at.file && site)
		at.file = site->file;
	va_start(ap, fmt);
	rc = diag_vreport(c->diags, at, c->rule->id, path ? path : "", fmt, ap);
	va_end(ap);
	if (c->diags->count && site)
		c->diags->items[c->diags->count - 1].site = site->name;
	if (rc < 0)
		c->errors++;
}

size_t
rule_pools(struct rule_ctx *c, const struct spec_site *s, struct rule_pool out[RULE_POOLS_MAX])
{
	const struct inventory *inv = inventory_site(c->arena, s);
	size_t n = 0;

	if (!inventory_failover_pool(inv))
		out[n++] = (struct rule_pool){ &s->fallback, "fallback", "spec.fallback", NULL };
	for (size_t i = 0; i < inv->pool_count && n < RULE_POOLS_MAX; i++)
		out[n++] = (struct rule_pool){ inv->pools[i].spec, inv->pools[i].spec_key,
					       inv->pools[i].spec_path, &inv->pools[i] };
	return n;
}

void
rule_each_pool(struct rule_ctx *c, const struct spec_site *s,
	       void (*one)(struct rule_ctx *c, const struct spec_site *s,
			   const struct rule_pool *p))
{
	struct rule_pool pools[RULE_POOLS_MAX];
	size_t n = rule_pools(c, s, pools);

	for (size_t i = 0; i < n; i++)
		one(c, s, &pools[i]);
}

struct pos
rule_pos(const struct spec_site *s, const struct node *map, const char *key)
{
	const struct node_pair *spec;

	if (map)
		return spec_field_pos(map, key);
	/* the whole block is defaulted: point at "spec:" */
	spec = s && s->doc && s->doc->kind == NODE_MAP ? node_map_pair(s->doc, "spec") : NULL;
	if (spec && spec->key)
		return spec->key->at;
	if (s && s->doc)
		return s->doc->at;
	return (struct pos){ s ? s->file : NULL, 0, 0 };
}

struct pos
rule_key_pos(const struct spec_site *s, const struct node *map, const char *key)
{
	const struct node_pair *p = map && map->kind == NODE_MAP ? node_map_pair(map, key) : NULL;

	if (p && p->key)
		return p->key->at;
	return rule_pos(s, map, key);
}

const char *
rule_pos_text(struct rule_ctx *c, struct pos at)
{
	const char *file = at.file ? at.file : "<input>";

	if (!at.line)
		return arena_strdup(c->arena, file);
	return arena_printf(c->arena, "%s:%u:%u", file, at.line, at.col);
}

int
rule_pos_cmp(struct pos a, struct pos b)
{
	int r;

	if (a.file != b.file) {
		if (!a.file || !b.file)
			return a.file ? 1 : -1;
		if ((r = strcmp(a.file, b.file)))
			return r;
	}
	if (a.line != b.line)
		return a.line < b.line ? -1 : 1;
	if (a.col != b.col)
		return a.col < b.col ? -1 : 1;
	return 0;
}

const char *
rule_group_path(struct rule_ctx *c, const struct spec_site *s, const struct spec_node_group *g)
{
	/* the paths of the first groups, which every site has, without a
	 * printf each time a rule names one */
	static const char *const first[] = {
		"spec.nodeGroups[0]", "spec.nodeGroups[1]", "spec.nodeGroups[2]",
		"spec.nodeGroups[3]", "spec.nodeGroups[4]", "spec.nodeGroups[5]",
		"spec.nodeGroups[6]", "spec.nodeGroups[7]",
	};
	size_t i = s->groups && g >= s->groups ? (size_t)(g - s->groups) : 0;

	if (i < sizeof(first) / sizeof(first[0]))
		return first[i];
	return arena_printf(c->arena, "spec.nodeGroups[%zu]", i);
}

static int
occurrence_cmp(const void *pa, const void *pb)
{
	const struct rule_occurrence *a = pa, *b = pb;
	int r = strcmp(a->key, b->key);

	return r ? r : rule_pos_cmp(a->at, b->at);
}

void
rule_sort_occurrences(struct rule_occurrence *v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof(*v), occurrence_cmp);
}

void
rule_occurrence_set(struct rule_occurrence *o, const struct spec_site *s, const char *key,
		    struct pos at, const char *path)
{
	o->key = key;
	o->at = at;
	if (!o->at.file)
		o->at.file = s->file;
	o->site = s;
	o->path = path;
}

void
rule_each_repeat(struct rule_ctx *c, struct rule_occurrence *v, size_t n,
		 void (*repeat)(struct rule_ctx *c, const struct rule_occurrence *first,
				const struct rule_occurrence *again, void *payload),
		 void *payload)
{
	size_t first = 0;

	rule_sort_occurrences(v, n);
	for (size_t i = 1; i < n; i++) {
		if (strcmp(v[i].key, v[first].key))
			first = i;
		else
			repeat(c, &v[first], &v[i], payload);
	}
}

void
rule_key(struct rule_keys *k, const char *key)
{
	k->add(k->payload, key ? key : "");
}
