/*
 * report_schema.c - the field reference of docs/spec.md
 * (report_schema.h), from the embedded schema and the rule catalogue.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/findings.h"
#include "json/json.h"
#include "node/node.h"
#include "report/report_schema.h"
#include "schema/schema.h"

struct ref_ctx {
	struct arena *a;
	struct buf *out;
	const struct node *root;
	int err;
};

/* "#/definitions/x" -> the definition, else NULL */
static const struct node *
ref_target(const struct ref_ctx *c, const struct node *n, const char **name)
{
	const char *ref = node_str(node_map_get(n, "$ref"));
	const char *pre = "#/definitions/";

	*name = NULL;
	if (!ref || strncmp(ref, pre, strlen(pre)))
		return NULL;
	*name = ref + strlen(pre);
	return node_map_get(node_map_get(c->root, "definitions"), *name);
}

/* A keyword of the field, else of the definition it refers to, else of
 * the schemas its allOf lists (and their definitions). */
static const struct node *
kw(const struct ref_ctx *c, const struct node *n, const char *key)
{
	const struct node *v = node_map_get(n, key), *all, *t;
	const char *name;

	if (v)
		return v;
	if ((t = ref_target(c, n, &name)) != NULL && (v = node_map_get(t, key)) != NULL)
		return v;
	all = node_map_get(n, "allOf");
	for (size_t i = 0; all && all->kind == NODE_SEQ && i < all->seq.count; i++) {
		const struct node *s = all->seq.items[i];

		if ((v = node_map_get(s, key)) != NULL)
			return v;
		if ((t = ref_target(c, s, &name)) != NULL && (v = node_map_get(t, key)) != NULL)
			return v;
	}
	return NULL;
}

/* The property `key` of the schemas obj's allOf lists, for what obj's own
 * property leaves out (gpuTaint.key: a default here, the type there). */
static const struct node *
inherited(const struct ref_ctx *c, const struct node *obj, const char *key)
{
	const struct node *all = node_map_get(obj, "allOf"), *t;
	const char *name;

	for (size_t i = 0; all && all->kind == NODE_SEQ && i < all->seq.count; i++) {
		const struct node *s = all->seq.items[i];
		const struct node *p = node_map_get(node_map_get(s, "properties"), key);

		if (p)
			return p;
		t = ref_target(c, s, &name);
		p = t ? node_map_get(node_map_get(t, "properties"), key) : NULL;
		if (p)
			return p;
	}
	return NULL;
}

static void put(struct ref_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
put(struct ref_ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (buf_vprintf(c->out, fmt, ap) < 0)
		c->err = -1;
	va_end(ap);
}

/* Markdown table cell text: | escaped, newlines as spaces. */
static void
put_cell(struct ref_ctx *c, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '|')
			put(c, "\\|");
		else if (*s == '\n' || *s == '\r')
			put(c, " ");
		else
			put(c, "%c", *s);
	}
}

static void
put_json(struct ref_ctx *c, const struct node *v)
{
	struct buf b = BUF_INIT;

	buf_init(&b, 1u << 16);
	if (json_write(&b, v, 0) < 0)
		c->err = -1;
	else {
		put(c, "`");
		put_cell(c, b.data);
		put(c, "`");
	}
	buf_release(&b);
}

/* The type column: type, its enum or range, the definition's name. */
static void
put_type(struct ref_ctx *c, const struct node *n)
{
	const struct node *type = kw(c, n, "type"), *en = kw(c, n, "enum");
	const struct node *min = kw(c, n, "minimum"), *max = kw(c, n, "maximum");
	const struct node *items = kw(c, n, "items"), *cst = kw(c, n, "const");
	const char *def;

	ref_target(c, n, &def);
	if (type && type->kind == NODE_SEQ) {
		for (size_t i = 0; i < type->seq.count; i++)
			put(c, "%s%s", i ? " or " : "", node_text(type->seq.items[i]));
	} else if (type) {
		put(c, "%s", node_text(type));
		if (!strcmp(node_text(type), "array") && items && kw(c, items, "type"))
			put(c, " of %s", node_text(kw(c, items, "type")));
	} else {
		put(c, "any");
	}
	if (def)
		put(c, " (%s)", def);
	if (cst) {
		put(c, ": ");
		put_json(c, cst);
	}
	if (en && en->kind == NODE_SEQ) {
		put(c, ": ");
		for (size_t i = 0; i < en->seq.count; i++) {
			put(c, "%s", i ? ", " : "");
			put_json(c, en->seq.items[i]);
		}
	}
	if (min || max) {
		put(c, ", ");
		if (min)
			put(c, "%s", node_text(min));
		put(c, "..");
		if (max)
			put(c, "%s", node_text(max));
	}
}

/* Whether `text` names `word` as a whole word (letters, digits, '.'). */
static bool
mentions(const char *text, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = text; (p = strstr(p, word)) != NULL; p++) {
		char before = p == text ? ' ' : p[-1], after = p[n];
		bool b = !((before >= 'a' && before <= 'z') || (before >= 'A' && before <= 'Z') ||
			   (before >= '0' && before <= '9') || before == '.');
		bool e = !((after >= 'a' && after <= 'z') || (after >= 'A' && after <= 'Z') ||
			   (after >= '0' && after <= '9'));

		if (b && e)
			return true;
	}
	return false;
}

/*
 * The rules column: the IDs the field's description names, and the rules
 * whose summary names the field ("fallback.gpuLimit", or a camelCase key
 * such as gpuLimit on its own).  GS003, the schema itself, checks every
 * field and is not repeated.
 */
static void
put_rules(struct ref_ctx *c, const char *path, const char *key, const char *desc)
{
	const char *seen[64];
	size_t nseen = 0;
	const char *dot = strrchr(path, '.');
	const char *pair = NULL;
	bool camel = false;

	/* "parent.key" without the "[]" of arrays */
	if (dot) {
		const char *start = dot - 1;
		char *q;

		while (start > path && start[-1] != '.')
			start--;
		pair = arena_strdup(c->a, start);
		while ((q = strstr((char *)pair, "[]")) != NULL)
			memmove(q, q + 2, strlen(q + 2) + 1);
	}
	for (const char *k = key; *k; k++)
		camel |= *k >= 'A' && *k <= 'Z';
	for (const char *p = desc ? desc : ""; (p = strstr(p, "GS")) != NULL; p++) {
		char id[8];

		if (!(p[2] >= '0' && p[2] <= '9') || !(p[3] >= '0' && p[3] <= '9') ||
		    !(p[4] >= '0' && p[4] <= '9') || (p[5] >= '0' && p[5] <= '9'))
			continue;
		memcpy(id, p, 5);
		id[5] = '\0';
		if (!strcmp(id, "GS003") || !findings_find(id))
			continue;
		for (size_t i = 0; i < nseen; i++)
			if (!strcmp(seen[i], id))
				goto next;
		if (nseen < 64)
			seen[nseen++] = arena_strdup(c->a, id);
	next:;
	}
	for (size_t r = 0; r < findings_count; r++) {
		const struct finding *ru = &findings_table[r];
		bool hit = (pair && mentions(ru->summary, pair)) ||
			   (camel && strlen(key) >= 6 && mentions(ru->summary, key));

		/* only the checks of the specs themselves (GS001-GS129); the
		 * upstream checks, verify-scope and drift judge other objects */
		if (!hit || !strcmp(ru->id, "GS003") || strcmp(ru->id, "GS130") >= 0)
			continue;
		for (size_t i = 0; i < nseen; i++)
			if (!strcmp(seen[i], ru->id))
				hit = false;
		if (hit && nseen < 64)
			seen[nseen++] = ru->id;
	}
	/* ID order */
	for (size_t i = 1; i < nseen; i++)
		for (size_t j = i; j > 0 && strcmp(seen[j - 1], seen[j]) > 0; j--) {
			const char *t = seen[j];

			seen[j] = seen[j - 1];
			seen[j - 1] = t;
		}
	for (size_t i = 0; i < nseen; i++)
		put(c, "%s[%s](rules.md#%c%c%s)", i ? ", " : "", seen[i], 'g', 's', seen[i] + 2);
}

static void field_rows(struct ref_ctx *c, const struct node *obj, const char *path, unsigned depth);

static void
field_row(struct ref_ctx *c, const struct node *own, const struct node *alt, const char *path,
	  const char *key, bool required, unsigned depth)
{
	/* the property as written, completed from what it inherits */
	const struct node *n = own;
	const struct node *def, *type, *items;
	const char *desc;

	if (alt && !kw(c, own, "type") && !node_map_get(own, "$ref"))
		n = alt;
	def = node_map_get(own, "default") ? node_map_get(own, "default") : kw(c, n, "default");
	desc = node_str(node_map_get(own, "description"));
	if (!desc)
		desc = node_str(kw(c, n, "description"));
	type = kw(c, n, "type");
	items = kw(c, n, "items");
	put(c, "| `%s` | ", path);
	put_type(c, n);
	put(c, " | %s | ", required ? "yes" : "");
	if (def)
		put_json(c, def);
	put(c, " | ");
	put_rules(c, path, key, desc);
	put(c, " | ");
	put_cell(c, desc ? desc : "");
	put(c, " |\n");
	if (depth > 16)
		return;
	if (type && node_text(type) && !strcmp(node_text(type), "object"))
		field_rows(c, n, path, depth + 1);
	else if (type && node_text(type) && !strcmp(node_text(type), "array") && items &&
		 kw(c, items, "properties"))
		field_rows(c, items, arena_printf(c->a, "%s[]", path), depth + 1);
}

static void
field_rows(struct ref_ctx *c, const struct node *obj, const char *path, unsigned depth)
{
	const struct node *props = kw(c, obj, "properties"), *req = kw(c, obj, "required");

	if (!props || props->kind != NODE_MAP)
		return;
	for (size_t i = 0; i < props->map.count; i++) {
		const char *key = node_text(props->map.pairs[i].key);
		bool required = false;

		for (size_t j = 0; req && req->kind == NODE_SEQ && j < req->seq.count; j++)
			required |= !strcmp(node_text(req->seq.items[j]), key);
		field_row(c, props->map.pairs[i].value, inherited(c, obj, key),
			  *path ? arena_printf(c->a, "%s.%s", path, key) : key, key, required,
			  depth);
	}
}

int
report_schema_reference(FILE *out)
{
	struct arena a = ARENA_INIT;
	struct buf b = BUF_INIT;
	struct diags d;
	struct ref_ctx c;
	int ret;

	arena_init(&a);
	diags_init(&d, &a);
	buf_init(&b, 4u << 20);
	memset(&c, 0, sizeof(c));
	c.a = &a;
	c.out = &b;
	c.root =
		json_parse(&a, &d, "GS003", "schema", schema_gpusite_json, schema_gpusite_json_len);
	if (!c.root) {
		ret = -1;
		goto out;
	}
	put(&c, "| field | type | required | default | rules | description |\n"
		"|---|---|---|---|---|---|\n");
	field_rows(&c, c.root, "", 0);
	ret = c.err;
	if (!ret && fwrite(b.data, 1, b.len, out) != b.len)
		ret = -1;
out:
	buf_release(&b);
	arena_release(&a);
	return ret;
}
