/*
 * argocd_env.c - the Argo CD CMP environment: ARGOCD_APP_PARAMETERS,
 * PARAM_*, ARGOCD_ENV_* and plain variables, looked up the way real
 * plugins do, and the names gpusite refuses.  JSON goes through
 * json/json.h only.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "argocd/argocd_env.h"
#include "base/arena.h"
#include "base/strdist.h"
#include "json/json.h"
#include "node/node.h"

/* Bounds on what a hostile Application can make us hold. */
#define MAX_PARAMS 1000
#define MAX_ITEMS 10000

static bool
is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

const char *
argocd_env_get(const struct argocd_env *e, const char *name)
{
	size_t n = strlen(name);
	const char *found = NULL;

	if (!e->envp)
		return NULL;
	/* Go's exec keeps the last duplicate, so the last one wins here too. */
	for (const char *const *p = e->envp; *p; p++) {
		if (!strncmp(*p, name, n) && (*p)[n] == '=')
			found = *p + n + 1;
	}
	return found;
}

const struct argocd_param *
argocd_env_param(const struct argocd_env *e, const char *name)
{
	const struct argocd_param *found = NULL;

	for (size_t i = 0; i < e->param_count; i++) {
		if (!strcmp(e->params[i].name, name))
			found = &e->params[i];
	}
	return found;
}

char *
argocd_env_var_name(struct arena *a, const char *prefix, const char *name)
{
	char *s = arena_printf(a, "%s%s", prefix, name), *w;
	unsigned char prev = 0;

	w = s + strlen(prefix);
	for (const char *p = w; *p; p++) {
		unsigned char c = (unsigned char)*p, before = prev;

		prev = c;
		/* Go replaces per rune: one '_' for a whole UTF-8 sequence. */
		if ((c & 0xc0) == 0x80 && (before & 0x80))
			continue;
		if (c >= 'a' && c <= 'z')
			*w++ = (char)(c - 'a' + 'A');
		else if ((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')
			*w++ = (char)c;
		else
			*w++ = '_';
	}
	*w = '\0';
	return s;
}

static const char *
node_kind_name(const struct node *n)
{
	if (n->kind == NODE_SEQ)
		return "an array";
	if (n->kind == NODE_MAP)
		return "an object";
	switch (n->type) {
	case NODE_NULL: return "null";
	case NODE_BOOL: return "a boolean";
	case NODE_INT:
	case NODE_FLOAT: return "a number";
	case NODE_STR: break;
	}
	return "a string";
}

static int bad(struct diags *d, const char *where, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int
bad(struct diags *d, const char *where, const char *fmt, ...)
{
	struct pos at = { where, 0, 0 };
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = diag_vreport(d, at, ARGOCD_RULE_PARAMETERS, "", fmt, ap);
	va_end(ap);
	return ret;
}

static int
parse_array(struct argocd_param *p, struct arena *a, struct diags *d, const char *where,
	    const struct node *v)
{
	if (v->kind != NODE_SEQ)
		return bad(d, where,
			   "parameter '%s': \"array\" must be an array of strings, not %s", p->name,
			   node_kind_name(v));
	if (v->seq.count > MAX_ITEMS)
		return bad(d, where, "parameter '%s': \"array\" has more than %d items", p->name,
			   MAX_ITEMS);
	p->array = arena_alloc(a, (v->seq.count + 1) * sizeof(*p->array));
	for (size_t i = 0; i < v->seq.count; i++) {
		const char *s = node_str(v->seq.items[i]);

		if (!s)
			return bad(d, where,
				   "parameter '%s': \"array\" items must be strings, found %s",
				   p->name, node_kind_name(v->seq.items[i]));
		p->array[i] = s;
	}
	p->array_count = v->seq.count;
	return 0;
}

static int
parse_map(struct argocd_param *p, struct arena *a, struct diags *d, const char *where,
	  const struct node *v)
{
	if (v->kind != NODE_MAP)
		return bad(d, where, "parameter '%s': \"map\" must be an object of strings, not %s",
			   p->name, node_kind_name(v));
	if (v->map.count > MAX_ITEMS)
		return bad(d, where, "parameter '%s': \"map\" has more than %d keys", p->name,
			   MAX_ITEMS);
	p->map = arena_alloc(a, (v->map.count + 1) * sizeof(*p->map));
	for (size_t i = 0; i < v->map.count; i++) {
		const char *s = node_str(v->map.pairs[i].value);

		if (!s)
			return bad(d, where,
				   "parameter '%s': \"map\" values must be strings, found %s",
				   p->name, node_kind_name(v->map.pairs[i].value));
		p->map[i].key = node_text(v->map.pairs[i].key);
		p->map[i].value = s;
	}
	p->map_count = v->map.count;
	return 0;
}

static int
parse_entry(struct argocd_param *p, struct arena *a, struct diags *d, const char *where,
	    const struct node *item, size_t index)
{
	const struct node *name, *v;

	memset(p, 0, sizeof(*p));
	if (item->kind != NODE_MAP)
		return bad(d, where,
			   "entry %zu must be an object like {\"name\":\"sites\",\"array\":[...]}, "
			   "not %s",
			   index, node_kind_name(item));
	name = node_map_get(item, "name");
	if (!node_str(name) || !*node_str(name))
		return bad(d, where, "entry %zu has no \"name\": every parameter needs one", index);
	p->name = node_str(name);
	/* Go omits kinds that were not set; `null` means the same. */
	v = node_map_get(item, "string");
	if (v && !node_is_null(v)) {
		if (v->kind != NODE_SCALAR || v->type != NODE_STR)
			return bad(d, where, "parameter '%s': \"string\" must be a string, not %s",
				   p->name, node_kind_name(v));
		p->string = node_str(v);
	}
	v = node_map_get(item, "array");
	if (v && !node_is_null(v) && parse_array(p, a, d, where, v) < 0)
		return -1;
	v = node_map_get(item, "map");
	if (v && !node_is_null(v) && parse_map(p, a, d, where, v) < 0)
		return -1;
	return 0;
}

int
argocd_parameters_parse(struct argocd_param **out, size_t *count, enum argocd_params_state *state,
			struct arena *a, struct diags *d, const char *where, const char *json)
{
	const struct node *root;
	size_t len, start = 0;

	*out = NULL;
	*count = 0;
	*state = ARGOCD_PARAMS_ABSENT;
	if (!json)
		return 0;
	len = strlen(json);
	while (start < len && is_blank(json[start]))
		start++;
	while (len > start && is_blank(json[len - 1]))
		len--;
	if (start == len)
		return 0;
	if (len - start > ARGOCD_ENV_MAX_VALUE)
		return bad(d, where, "value is larger than %u bytes: Argo CD never sends that much",
			   ARGOCD_ENV_MAX_VALUE);
	if (len - start == 4 && !memcmp(json + start, "null", 4)) {
		*state = ARGOCD_PARAMS_NULL;
		return 0;
	}
	root = json_parse(a, d, ARGOCD_RULE_PARAMETERS, where, json + start, len - start);
	if (!root)
		return -1;
	if (node_is_null(root)) {
		*state = ARGOCD_PARAMS_NULL;
		return 0;
	}
	if (root->kind != NODE_SEQ)
		return bad(d, where, "must be a JSON array of parameters, not %s",
			   node_kind_name(root));
	if (root->seq.count > MAX_PARAMS)
		return bad(d, where, "holds more than %d parameters", MAX_PARAMS);
	*out = arena_alloc(a, (root->seq.count + 1) * sizeof(**out));
	for (size_t i = 0; i < root->seq.count; i++) {
		if (parse_entry(&(*out)[i], a, d, where, root->seq.items[i], i) < 0) {
			*out = NULL;
			return -1;
		}
	}
	*count = root->seq.count;
	*state = ARGOCD_PARAMS_SET;
	return 0;
}

int
argocd_env_load(struct argocd_env *out, struct arena *a, struct diags *d, const char *const *envp)
{
	memset(out, 0, sizeof(*out));
	out->envp = envp;
	return argocd_parameters_parse(&out->params, &out->param_count, &out->params_state, a, d,
				       ARGOCD_PARAMETERS_VAR,
				       argocd_env_get(out, ARGOCD_PARAMETERS_VAR));
}

static bool
has_item(const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (list[i] && *list[i])
			return true;
	}
	return false;
}

/* PARAM_<N>_0, _1, ... as Argo CD flattens an array parameter. */
static bool
lookup_param_env(struct argocd_setting *out, struct arena *a, const struct argocd_env *e,
		 const char *var)
{
	const char *v = argocd_env_get(e, arena_printf(a, "%s_0", var));

	if (v) {
		size_t n = 0, alloc = 8;
		const char **items = arena_alloc(a, alloc * sizeof(*items));

		while (v && n < MAX_ITEMS) {
			if (n + 1 >= alloc) {
				items = arena_realloc(a, items, alloc * sizeof(*items),
						      2 * alloc * sizeof(*items));
				alloc *= 2;
			}
			items[n++] = v;
			v = argocd_env_get(e, arena_printf(a, "%s_%zu", var, n));
		}
		if (has_item(items, n)) {
			out->is_array = true;
			out->array = items;
			out->array_count = n;
			out->where = arena_printf(a, "%s_0", var);
			return true;
		}
	}
	v = argocd_env_get(e, var);
	if (v && *v) {
		out->string = v;
		out->where = var;
		return true;
	}
	return false;
}

void
argocd_setting_lookup(struct argocd_setting *out, struct arena *a, const struct argocd_env *e,
		      const char *name, unsigned flags)
{
	const char *v, *var;

	memset(out, 0, sizeof(*out));
	out->name = name;
	out->where = "";
	/* An empty value counts as not set at every level: the UI sends
	 * empty strings and arrays for fields the user left alone. */
	if (!(flags & ARGOCD_LOOKUP_NO_PARAMS)) {
		const struct argocd_param *p = argocd_env_param(e, name);

		if (p && (has_item(p->array, p->array_count) || (p->string && *p->string) ||
			  p->map_count)) {
			out->origin = ARGOCD_FROM_PARAMETERS;
			out->where = ARGOCD_PARAMETERS_VAR;
			if (has_item(p->array, p->array_count)) {
				out->is_array = true;
				out->array = p->array;
				out->array_count = p->array_count;
			} else if (p->string && *p->string) {
				out->string = p->string;
			} else {
				out->is_map = true;
			}
			return;
		}
		var = argocd_env_var_name(a, "PARAM_", name);
		if (lookup_param_env(out, a, e, var)) {
			out->origin = ARGOCD_FROM_PARAM_ENV;
			return;
		}
	}
	var = argocd_env_var_name(a, "ARGOCD_ENV_", name);
	v = argocd_env_get(e, var);
	if (v && *v) {
		out->origin = ARGOCD_FROM_ARGOCD_ENV;
		out->where = var;
		out->string = v;
		return;
	}
	var = argocd_env_var_name(a, "", name);
	v = argocd_env_get(e, var);
	if (v && *v) {
		out->origin = ARGOCD_FROM_PLAIN_ENV;
		out->where = var;
		out->string = v;
	}
}

static bool
is_sep(char c)
{
	return c == ',' || is_blank(c);
}

size_t
argocd_setting_list(const char ***out, struct arena *a, const struct argocd_setting *s)
{
	size_t n = 0;
	const char **items;

	*out = NULL;
	if (s->is_array) {
		items = arena_alloc(a, (s->array_count + 1) * sizeof(*items));
		for (size_t i = 0; i < s->array_count; i++) {
			const char *b = s->array[i], *end;

			while (is_blank(*b))
				b++;
			end = b + strlen(b);
			while (end > b && is_blank(end[-1]))
				end--;
			if (end > b)
				items[n++] = arena_strndup(a, b, (size_t)(end - b));
		}
	} else if (s->string) {
		const char *p = s->string;
		size_t max = 1;

		for (const char *q = p; *q; q++)
			max += is_sep(*q);
		items = arena_alloc(a, (max + 1) * sizeof(*items));
		while (*p) {
			const char *b;

			while (*p && is_sep(*p))
				p++;
			b = p;
			while (*p && !is_sep(*p))
				p++;
			if (p > b)
				items[n++] = arena_strndup(a, b, (size_t)(p - b));
		}
	} else {
		return 0;
	}
	*out = items;
	return n;
}

struct pos
argocd_setting_pos(const struct argocd_setting *s)
{
	struct pos at = { s->where && *s->where ? s->where : "environment", 0, 0 };

	return at;
}

static bool
is_known(const char *const *known, const char *name)
{
	for (size_t i = 0; known[i]; i++) {
		if (!strcmp(known[i], name))
			return true;
	}
	return false;
}

static char *
known_list(struct arena *a, const char *const *known, const char *prefix, bool upper)
{
	char *s = arena_strdup(a, "");

	for (size_t i = 0; known[i]; i++) {
		const char *n = upper ? argocd_env_var_name(a, prefix, known[i]) : known[i];

		s = arena_printf(a, "%s%s%s", s, i ? ", " : "", n);
	}
	return s;
}

const char *
argocd_closest_name(const char *const *known, const char *name)
{
	const char *best = NULL;
	size_t best_d = 3; /* at most two edits: "site" -> "sites" */

	for (size_t i = 0; known[i]; i++) {
		size_t dist = strdist_edit(name, known[i], best_d);

		if (dist < best_d) {
			best_d = dist;
			best = known[i];
		}
	}
	return best;
}

static const char *
did_you_mean(struct arena *a, const char *const *known, const char *name)
{
	const char *m = argocd_closest_name(known, name);

	return m ? arena_printf(a, " (did you mean '%s'?)", m) : "";
}

int
argocd_env_check_names(struct diags *d, const struct argocd_env *e, const char *const *known)
{
	struct arena *a = d->arena;
	struct pos at = { ARGOCD_PARAMETERS_VAR, 0, 0 };
	static const char prefix[] = "ARGOCD_ENV_";
	int ret = 0;

	for (size_t i = 0; i < e->param_count; i++) {
		const char *name = e->params[i].name;
		bool later = false;

		for (size_t j = i + 1; j < e->param_count; j++)
			later |= !strcmp(e->params[j].name, name);
		if (!is_known(known, name))
			ret = diag_report(d, at, ARGOCD_RULE_UNKNOWN, "",
					  "parameter '%s' is not a gpusite setting%s: refusing to "
					  "render without it; the settings are %s",
					  name, did_you_mean(a, known, name),
					  known_list(a, known, "", false));
		else if (later)
			ret = diag_report(d, at, ARGOCD_RULE_UNKNOWN, "",
					  "parameter '%s' is given more than once: give it once",
					  name);
	}
	if (!e->envp)
		return ret;
	for (const char *const *p = e->envp; *p; p++) {
		const char *eq = strchr(*p, '=');
		char *var, *norm;
		const char *want = NULL;
		struct pos vat = POS_NONE;

		if (strncmp(*p, prefix, sizeof(prefix) - 1) || !eq)
			continue;
		var = arena_strndup(a, *p, (size_t)(eq - *p));
		norm = argocd_env_var_name(a, prefix, var + sizeof(prefix) - 1);
		vat.file = var;
		for (size_t i = 0; known[i]; i++) {
			if (!strcmp(norm, argocd_env_var_name(a, prefix, known[i])))
				want = known[i];
		}
		if (want && strcmp(norm, var)) {
			/* Argo CD passes plugin env names as written: refused by
			 * name rather than guessed at. */
			ret = diag_report(
				d, vat, ARGOCD_RULE_UNKNOWN, "",
				"%s is not read (plugin env names are upper case with '_'): "
				"write it as %s, or pass the parameter '%s'",
				var, norm + sizeof(prefix) - 1, want);
		} else if (!want) {
			const char *lower = arena_strdup(a, var + sizeof(prefix) - 1);
			const char *const *kp = known;
			const char *m;

			/* compare the spelling the parameter would have */
			for (char *c = (char *)lower; *c; c++) {
				if (*c >= 'A' && *c <= 'Z')
					*c = (char)(*c - 'A' + 'a');
				else if (*c == '_')
					*c = '-';
			}
			m = argocd_closest_name(kp, lower);
			ret = diag_report(d, vat, ARGOCD_RULE_UNKNOWN, "",
					  "%s is not a gpusite setting%s%s%s: refusing to render "
					  "without it; the plugin env names are %s",
					  var, m ? " (did you mean " : "",
					  m ? argocd_env_var_name(a, prefix, m) : "", m ? "?)" : "",
					  known_list(a, known, prefix, true));
		}
	}
	return ret;
}
