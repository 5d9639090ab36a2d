/*
 * argocd_env.c - the Argo CD CMP environment: ARGOCD_APP_PARAMETERS,
 * PARAM_*, ARGOCD_ENV_*, KUBE_VERSION, KUBE_API_VERSIONS and where the
 * repository copy starts.  JSON goes through json/json.h only.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/arena.h"
#include "cmd/argocd_env.h"
#include "cmd/pipeline.h"
#include "json/json.h"
#include "node/node.h"
#include "source/source.h"

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
	ret = diag_vadd(d, DIAG_ERROR, at, ARGOCD_RULE_PARAMETERS, "", fmt, ap);
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

void
argocd_env_check_names(struct diags *d, const struct argocd_env *e, const char *const *known)
{
	struct arena *a = d->arena;
	struct pos at = { ARGOCD_PARAMETERS_VAR, 0, 0 };
	static const char prefix[] = "ARGOCD_ENV_";

	for (size_t i = 0; i < e->param_count; i++) {
		const char *name = e->params[i].name;
		bool later = false;

		for (size_t j = i + 1; j < e->param_count; j++)
			later |= !strcmp(e->params[j].name, name);
		if (!is_known(known, name))
			diag_add(d, DIAG_WARNING, at, ARGOCD_RULE_UNKNOWN, "",
				 "parameter '%s' is not a gpusite setting and is ignored: the "
				 "settings are %s",
				 name, known_list(a, known, "", false));
		else if (later)
			diag_add(d, DIAG_WARNING, at, ARGOCD_RULE_UNKNOWN, "",
				 "parameter '%s' is given more than once: the last one is used",
				 name);
	}
	if (!e->envp)
		return;
	for (const char *const *p = e->envp; *p; p++) {
		const char *eq = strchr(*p, '=');
		char *var, *norm;
		struct pos vat = { NULL, 0, 0 };
		bool match = false;

		if (strncmp(*p, prefix, sizeof(prefix) - 1) || !eq)
			continue;
		var = arena_strndup(a, *p, (size_t)(eq - *p));
		norm = argocd_env_var_name(a, prefix, var + sizeof(prefix) - 1);
		vat.file = var;
		for (size_t i = 0; known[i]; i++)
			match |= !strcmp(norm, argocd_env_var_name(a, prefix, known[i]));
		if (match && strcmp(norm, var))
			diag_add(d, DIAG_WARNING, vat, ARGOCD_RULE_UNKNOWN, "",
				 "%s is not read: write the plugin env name as %s", var,
				 norm + sizeof(prefix) - 1);
		else if (!match)
			diag_add(d, DIAG_WARNING, vat, ARGOCD_RULE_UNKNOWN, "",
				 "%s is not a gpusite setting and is ignored: the plugin env names "
				 "are %s",
				 var, known_list(a, known, "", true));
	}
}

int
argocd_parse_bool(bool *out, const char *text)
{
	static const char *const yes[] = { "1", "t", "T", "TRUE", "true", "True" };
	static const char *const no[] = { "0", "f", "F", "FALSE", "false", "False" };

	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (!strcmp(text, yes[i])) {
			*out = true;
			return 0;
		}
		if (!strcmp(text, no[i])) {
			*out = false;
			return 0;
		}
	}
	return -1;
}

int
argocd_parse_shared_objects(enum argocd_shared_objects *out, const char *text)
{
	static const struct {
		const char *name;
		enum argocd_shared_objects value;
	} modes[] = {
		{ "owner", ARGOCD_SHARED_OWNER },
		{ "all", ARGOCD_SHARED_ALL },
		{ "none", ARGOCD_SHARED_NONE },
	};

	for (size_t i = 0; text && i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (!strcmp(text, modes[i].name)) {
			*out = modes[i].value;
			return 0;
		}
	}
	return -1;
}

static bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

int
argocd_parse_kube_version(int *out, const char *text)
{
	const char *p = text;
	int minor = 0;
	size_t digits = 0;

	if (*p == 'v' || *p == 'V')
		p++;
	if (p[0] != '1' || p[1] != '.')
		return -1;
	p += 2;
	while (is_digit(*p) && digits < 4) {
		minor = minor * 10 + (*p - '0');
		p++;
		digits++;
	}
	if (!digits || is_digit(*p))
		return -1;
	/* Patch, pre-release and build parts ("+eks", "-eks-a737599") follow. */
	if (*p && *p != '.' && *p != '+' && *p != '-')
		return -1;
	*out = minor;
	return 0;
}

static int
cmp_str(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

void
argocd_api_versions_parse(struct argocd_api_versions *out, struct arena *a, const char *text)
{
	size_t max = 1, n = 0;
	const char **items;

	memset(out, 0, sizeof(*out));
	if (!text)
		return;
	for (const char *q = text; *q; q++)
		max += *q == ',';
	items = arena_alloc(a, (max + 1) * sizeof(*items));
	for (const char *p = text; *p;) {
		const char *b, *end;

		while (*p && (is_blank(*p) || *p == ','))
			p++;
		b = p;
		while (*p && *p != ',')
			p++;
		end = p;
		while (end > b && is_blank(end[-1]))
			end--;
		if (end > b)
			items[n++] = arena_strndup(a, b, (size_t)(end - b));
	}
	qsort(items, n, sizeof(*items), cmp_str);
	out->count = 0;
	for (size_t i = 0; i < n; i++) {
		if (!out->count || strcmp(items[out->count - 1], items[i]))
			items[out->count++] = items[i];
	}
	out->items = items;
}

static bool
api_has(const struct argocd_api_versions *v, const char *entry)
{
	return bsearch(&entry, v->items, v->count, sizeof(*v->items), cmp_str) != NULL;
}

bool
argocd_api_versions_serves(const struct argocd_api_versions *v, const char *api_version,
			   const char *kind)
{
	size_t n = strlen(api_version), lo = 0, hi = v->count;

	if (!v->count)
		return true;
	/* First entry >= "<gv>/": kinds of this group/version sort there. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strncmp(v->items[mid], api_version, n);

		if (c < 0 || (c == 0 && v->items[mid][n] < '/'))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < v->count; i++) {
		const char *it = v->items[i];

		if (strncmp(it, api_version, n) || it[n] != '/')
			break;
		/* A kind entry: one more segment, starting upper-case. */
		if (it[n + 1] >= 'A' && it[n + 1] <= 'Z' && !strchr(it + n + 1, '/')) {
			for (size_t j = i; j < v->count; j++) {
				const char *k = v->items[j];

				if (strncmp(k, api_version, n) || k[n] != '/')
					break;
				if (kind && !strcmp(k + n + 1, kind))
					return true;
			}
			return false;
		}
	}
	return api_has(v, api_version);
}

static bool
is_uuid(const char *s, size_t n)
{
	if (n != 36)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (c != '-')
				return false;
		} else if (!is_digit(c) && !(c >= 'a' && c <= 'f') && !(c >= 'A' && c <= 'F')) {
			return false;
		}
	}
	return true;
}

char *
argocd_repo_root(struct arena *a, const char *cwd, const char *source_path)
{
	static const char work[] = "_cmp_server";
	size_t end = strlen(cwd), sp_len;
	const char *sp = source_path ? source_path : "";

	while (end > 1 && cwd[end - 1] == '/')
		end--;
	/* Nearest ancestor A (cwd included) with A = .../_cmp_server/<uuid>. */
	for (size_t e = end; e > 0;) {
		size_t slash = e, pslash;

		while (slash > 0 && cwd[slash - 1] != '/')
			slash--;
		if (slash == 0)
			break;
		/* cwd[slash..e) is the last component; its parent ends at slash-1. */
		pslash = slash - 1;
		while (pslash > 0 && cwd[pslash - 1] != '/')
			pslash--;
		if (slash - 1 - pslash == sizeof(work) - 1 &&
		    !memcmp(cwd + pslash, work, sizeof(work) - 1) &&
		    is_uuid(cwd + slash, e - slash))
			return arena_strndup(a, cwd, e);
		e = slash - 1;
	}
	/* Else cwd minus ARGOCD_APP_SOURCE_PATH (argocd-cmp.md 2.4). */
	while (sp[0] == '.' && sp[1] == '/')
		sp += 2;
	while (*sp == '/')
		sp++;
	sp_len = strlen(sp);
	while (sp_len && sp[sp_len - 1] == '/')
		sp_len--;
	if (sp_len == 1 && sp[0] == '.')
		sp_len = 0;
	if (sp_len && sp_len < end && cwd[end - sp_len - 1] == '/' &&
	    !memcmp(cwd + end - sp_len, sp, sp_len)) {
		size_t root = end - sp_len - 1;

		return root ? arena_strndup(a, cwd, root) : arena_strdup(a, "/");
	}
	return arena_strndup(a, cwd, end);
}

/* Copy one list's diagnostics to the end of another. */
static void
diags_append(struct diags *to, const struct diags *from)
{
	for (size_t i = 0; i < from->count; i++) {
		const struct diag *g = &from->items[i];

		diag_add(to, g->level, g->at, g->rule, g->path ? g->path : "", "%s", g->msg);
		to->items[to->count - 1].site = g->site;
	}
}

int
argocd_app_load(struct pipeline *p, struct source_set *files, struct arena *a, struct diags *d,
		const struct argocd_env *e)
{
	struct pos here = { NULL, 0, 0 };
	const char *path;
	char cwd[4096];
	struct stat st;
	int ret;

	memset(p, 0, sizeof(*p));
	memset(files, 0, sizeof(*files));
	if (!getcwd(cwd, sizeof(cwd))) {
		diag_add(d, DIAG_ERROR, here, ARGOCD_RULE_OUTPUT, "",
			 "cannot read the working directory (the application path): %s",
			 strerror(errno));
		return ARGOCD_LOAD_FAILED;
	}
	/* lstat: a `sites` symlink still goes to the walker, which refuses
	 * it when it leaves the repository (GS006). */
	path = lstat("sites", &st) == 0 ? "sites" : ".";
	ret = source_from_paths(
		files, a, d, argocd_repo_root(a, cwd, argocd_env_get(e, "ARGOCD_APP_SOURCE_PATH")),
		&path, 1);
	if (ret < 0)
		return ARGOCD_LOAD_FAILED;
	ret = pipeline_load(p, a, files);
	diags_append(d, &p->diags);
	return ret < 0 ? ARGOCD_LOAD_FINDINGS : ARGOCD_LOAD_OK;
}

static void
put_clean(FILE *f, const char *s)
{
	for (; s && *s; s++)
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, f);
}

void
argocd_diags_print(FILE *err, const struct diags *d, size_t max)
{
	size_t shown = 0;

	for (size_t i = 0; i < d->count; i++) {
		const struct diag *g = &d->items[i];

		if (g->level == DIAG_NOTE)
			continue;
		if (shown++ == max) {
			fprintf(err, "gpusite: ... and %zu more\n",
				diags_count(d, DIAG_ERROR) + diags_count(d, DIAG_WARNING) - max);
			return;
		}
		put_clean(err, g->at.file ? g->at.file : "gpusite");
		if (g->at.line)
			fprintf(err, ":%u:%u", g->at.line, g->at.col);
		fprintf(err, ": %s: ", diag_level_name(g->level));
		put_clean(err, g->msg);
		fprintf(err, " [%s]\n", g->rule);
	}
}

static bool
in_list(const char *const *list, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(list[i], s))
			return true;
	}
	return false;
}

char *
argocd_diags_summary(struct arena *a, const struct diags *d)
{
	size_t errors = diags_count(d, DIAG_ERROR), nfiles = 0, nrules = 0;
	const char **files, **rules;
	char *where, *ids;

	if (!errors)
		return arena_strdup(a, "");
	files = arena_alloc(a, errors * sizeof(*files));
	rules = arena_alloc(a, errors * sizeof(*rules));
	for (size_t i = 0; i < d->count; i++) {
		const struct diag *g = &d->items[i];
		const char *file = g->at.file;

		if (g->level != DIAG_ERROR)
			continue;
		if (file && !in_list(files, nfiles, file))
			files[nfiles++] = file;
		if (!in_list(rules, nrules, g->rule))
			rules[nrules++] = g->rule;
	}
	qsort(files, nfiles, sizeof(*files), cmp_str);
	qsort(rules, nrules, sizeof(*rules), cmp_str);
	if (nfiles > 3) {
		where = arena_printf(a, " in %zu files", nfiles);
	} else {
		where = arena_strdup(a, nfiles ? " in " : "");
		for (size_t i = 0; i < nfiles; i++)
			where = arena_printf(a, "%s%s%s", where,
					     i ? (i + 1 == nfiles ? " and " : ", ") : "", files[i]);
	}
	ids = arena_strdup(a, "");
	for (size_t i = 0; i < nrules; i++)
		ids = arena_printf(a, "%s%s%s", ids, i ? ", " : "", rules[i]);
	where = arena_printf(a, "%zu error%s%s (%s)", errors, errors == 1 ? "" : "s", where, ids);
	/* File names come from the repository: keep the line one line. */
	for (char *c = where; *c; c++) {
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	}
	return where;
}
