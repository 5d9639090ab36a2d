/*
 * check_upstream.c - the upstream schema of each rendered kind, read at
 * run time from a directory, the cluster (--live), or both.  Any
 * directory of CRDs and OpenAPI v3 documents will do: what is not found
 * at the paths below is looked up by content (check_index.c).  A
 * directory laid out like the upstream folder (docs/design/upstream.md)
 * is read at its known paths first:
 *   - custom resources: the CRD whose spec.group and spec.names.kind
 *     match, its spec.versions[name == <version>].schema.openAPIV3Schema;
 *   - built-in kinds: kubernetes/release-1.35/<api|apis__group__version>
 *     _openapi.json, the components.schemas entry whose
 *     x-kubernetes-group-version-kind matches; its #/components/schemas
 *     references are resolved inside that file (each file is whole).
 * admissionregistration.k8s.io/v1 MutatingAdmissionPolicy(Binding) is GA
 * in 1.36, and no 1.36 OpenAPI file is saved upstream: such objects are
 * checked against the v1beta1 schema (the same fields in kubernetes/api
 * 1.36) with the apiVersion swapped, and a GS131 note says so.
 * Compiled schemas are cached per apiVersion and kind.  Their evaluation
 * is bounded (schema_validate_bounded: steps per object and per run, the
 * arena's growth, --timeout): past a bound the object is not passed, one
 * GS131 error names it and its schema, and the run answers -3.
 */
#include <string.h>
#include <sys/stat.h>

#include "base/arena.h"
#include "base/buf.h"
#include "check/check_int.h"
#include "json/json.h"
#include "render/render.h"
#include "schema/schema.h"

#define K8S_DIR "kubernetes/release-1.35"
#define MAX_FILE (64u << 20)

/*
 * Custom resources: the CRD file of each group/kind.  The rendered kinds
 * name theirs in their descriptor (struct render_kind, render_api_find());
 * this lists only the CRDs of kinds gpusite does not put in the stream
 * (NodeConfig is a file nodeadm reads; the others are what a user may
 * pass to validate --rendered next to them).
 */
static const struct {
	const char *group;
	const char *kind;
	const char *file;
} other_crds[] = {
	{ "karpenter.sh", "NodeClaim", "karpenter/aws-provider/karpenter.sh_nodeclaims.yaml" },
	{ "node.eks.aws", "NodeConfig", "nodeadm/eks-hybrid.node.eks.aws_nodeconfigs.yaml" },
	{ "argoproj.io", "ApplicationSet", "argocd/applicationset-crd.yaml" },
	{ "nvidia.com", "ClusterPolicy",
	  "gpu-operator/chart/crds/nvidia.com_clusterpolicies.yaml" },
};

/* The CRD file of group/kind under the upstream directory, or NULL. */
static const char *
crd_file(const char *group, const char *kind)
{
	const struct render_api *r = render_api_find(group, kind);

	if (r)
		return r->crd;
	for (size_t i = 0; i < sizeof(other_crds) / sizeof(other_crds[0]); i++)
		if (!strcmp(other_crds[i].group, group) && !strcmp(other_crds[i].kind, kind))
			return other_crds[i].file;
	return NULL;
}

struct up_file {
	const char *rel;
	struct node **docs; /* NULL after a failed read */
	size_t count;
	int rc;
};

struct up_schema {
	const char *api;
	const char *kind;
	const struct schema *s; /* NULL: none known */
	const char *source;     /* file it came from */
	const char *standin;    /* apiVersion used instead, or NULL */
	const char *several;    /* the note when several files define it, until said */
	int rc;                 /* 0, or -3: could not be compiled */
};

struct check_upstream {
	const char *dir;   /* NULL: only documents added (--live) */
	const char *where; /* for messages: the directory or "the cluster" */
	struct check_index ix;
	bool indexed; /* dir walked into ix */
	check_upstream_fetch_fn *fetch;
	void *fetch_ctx;
	bool fetch_failed;    /* the cluster could not be read: the job cannot be done */
	const char **fetched; /* "group/version" asked of fetch */
	size_t nfetched, fetched_alloc;
	struct up_file *files;
	size_t nfiles, files_alloc;
	struct up_schema *schemas;
	size_t nschemas, schemas_alloc;
	struct schema_budget budget; /* steps per object and run, --timeout */
};

struct check_upstream *
check_upstream_open(struct arena *a, struct diags *d, const char *dir)
{
	struct stat st;
	struct check_upstream *u;

	if (!dir || stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		diag_report(
			d, (struct pos){ dir, 0, 0 }, CHECK_UNCHECKED, "",
			"upstream schema directory %s is not a directory: give --upstream DIR (a "
			"directory of CRDs and OpenAPI v3 documents, or GPUSITE_UPSTREAM) or "
			"--live",
			dir ? dir : "(none)");
		return NULL;
	}
	u = check_upstream_new(a, "");
	u->dir = arena_strdup(a, dir);
	u->where = u->dir;
	return u;
}

struct check_upstream *
check_upstream_new(struct arena *a, const char *where)
{
	struct check_upstream *u = arena_alloc(a, sizeof(*u));

	memset(u, 0, sizeof(*u));
	u->where = arena_strdup(a, where);
	u->budget.object_steps_max = SCHEMA_STEPS_PER_OBJECT;
	u->budget.run_steps_max = SCHEMA_STEPS_PER_RUN;
	return u;
}

void
check_upstream_set_timeout(struct check_upstream *u, double seconds)
{
	if (u && seconds > 0)
		u->budget.deadline = schema_clock() + seconds;
}

void
check_upstream_set_steps(struct check_upstream *u, unsigned long per_object, unsigned long per_run)
{
	u->budget.object_steps_max = per_object;
	u->budget.run_steps_max = per_run;
}

void
check_upstream_add_doc(struct check_upstream *u, struct arena *a, const char *source,
		       const struct node *doc)
{
	check_index_doc(&u->ix, a, arena_strdup(a, source), doc);
}

void
check_upstream_set_fetch(struct check_upstream *u, check_upstream_fetch_fn *fn, void *ctx)
{
	u->fetch = fn;
	u->fetch_ctx = ctx;
}

/* The index, the directory walked into it on first use. */
static struct check_index *
index_of(struct check_upstream *u, struct arena *a)
{
	if (u->dir && !u->indexed) {
		u->indexed = true;
		check_index_dir(&u->ix, a, u->dir);
	}
	return &u->ix;
}

/* The OpenAPI component of group/version/kind from the index, asking the
 * fetcher (the cluster) once per group/version when it is not there. */
static const struct check_index_api *
index_api(struct check_upstream *u, struct arena *a, struct diags *d, const char *group,
	  const char *version, const char *kind)
{
	const struct check_index_api *e =
		check_index_api_find(index_of(u, a), group, version, kind);
	const char *gv = arena_printf(a, "%s/%s", group, version);

	if (e || !u->fetch)
		return e;
	for (size_t i = 0; i < u->nfetched; i++)
		if (!strcmp(u->fetched[i], gv))
			return NULL;
	ARENA_GROW(a, u->fetched, u->nfetched, u->fetched_alloc, 8);
	u->fetched[u->nfetched++] = gv;
	if (u->fetch(u->fetch_ctx, u, a, d, group, version) < 0) {
		u->fetch_failed = true;
		return NULL;
	}
	return check_index_api_find(&u->ix, group, version, kind);
}

static bool
exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The documents of an upstream file, read once. */
static struct up_file *
load(struct check_upstream *u, struct arena *a, struct diags *d, const char *rel)
{
	const char *path = arena_printf(a, "%s/%s", u->dir, rel);
	size_t n = strlen(rel);
	struct up_file *f;

	for (size_t i = 0; i < u->nfiles; i++)
		if (!strcmp(u->files[i].rel, rel))
			return &u->files[i];
	ARENA_GROW(a, u->files, u->nfiles, u->files_alloc, 8);
	f = &u->files[u->nfiles++];
	memset(f, 0, sizeof(*f));
	f->rel = arena_strdup(a, rel);
	if (n > 5 && !strcmp(rel + n - 5, ".json")) {
		struct buf b;
		struct node *root;

		buf_init(&b, MAX_FILE);
		if (buf_read_file(&b, path) < 0) {
			buf_release(&b);
			diag_report(d, (struct pos){ arena_strdup(a, path), 0, 0 }, CHECK_UNCHECKED,
				    "", "cannot read upstream schema %s", path);
			f->rc = -3;
			return f;
		}
		root = json_parse(a, d, CHECK_UNCHECKED, arena_strdup(a, path), b.data, b.len);
		buf_release(&b);
		if (!root) {
			f->rc = -3;
			return f;
		}
		f->docs = arena_alloc(a, sizeof(*f->docs));
		f->docs[0] = root;
		f->count = 1;
	} else {
		struct yamlio_docs docs;

		if (check_read_docs(&docs, a, d, path, NULL, NULL) < 0) {
			f->rc = -3;
			return f;
		}
		f->docs = docs.docs;
		f->count = docs.count;
	}
	return f;
}

static struct up_schema *
new_entry(struct check_upstream *u, struct arena *a, const char *api, const char *kind)
{
	struct up_schema *e;

	ARENA_GROW(a, u->schemas, u->nschemas, u->schemas_alloc, 8);
	e = &u->schemas[u->nschemas++];
	memset(e, 0, sizeof(*e));
	e->api = arena_strdup(a, api);
	e->kind = arena_strdup(a, kind);
	return e;
}

/* The openAPIV3Schema of group/kind at `version` in a CRD file. */
static const struct node *
crd_schema(struct node *const *docs, size_t count, const char *group, const char *kind,
	   const char *version, const struct node **version_node)
{
	for (size_t i = 0; i < count; i++) {
		const struct node *spec = node_map_get(docs[i], "spec");
		const char *g = node_str(node_map_get(spec, "group"));
		const char *k = node_str(node_path(spec, "names.kind"));
		const struct node *versions = node_map_get(spec, "versions");

		if (!g || !k || strcmp(g, group) || strcmp(k, kind))
			continue;
		for (size_t v = 0; v < check_seq_count(versions); v++) {
			const char *name = node_str(node_map_get(versions->seq.items[v], "name"));

			if (name && !strcmp(name, version)) {
				*version_node = versions->seq.items[v];
				return node_path(versions->seq.items[v], "schema.openAPIV3Schema");
			}
		}
	}
	return NULL;
}

/* The components.schemas entry of group/version/kind in an OpenAPI v3 file. */
static const char *
openapi_component(const struct up_file *f, const char *group, const char *version, const char *kind,
		  const struct node **components)
{
	const struct node *schemas = f->count ? node_path(f->docs[0], "components.schemas") : NULL;

	*components = f->count ? node_map_get(f->docs[0], "components") : NULL;
	for (size_t i = 0; schemas && schemas->kind == NODE_MAP && i < schemas->map.count; i++) {
		const struct node *gvks = node_map_get(schemas->map.pairs[i].value,
						       "x-kubernetes-group-version-kind");

		for (size_t k = 0; k < check_seq_count(gvks); k++) {
			const struct node *gvk = gvks->seq.items[k];
			const char *g = node_str(node_map_get(gvk, "group"));
			const char *v = node_str(node_map_get(gvk, "version"));
			const char *kk = node_str(node_map_get(gvk, "kind"));

			if (g && v && kk && !strcmp(g, group) && !strcmp(v, version) &&
			    !strcmp(kk, kind))
				return node_text(schemas->map.pairs[i].key);
		}
	}
	return NULL;
}

/*
 * The API server checks CRD patterns with Go's RE2, whose \s is the ASCII
 * class [\t\n\f\r ]; JSON Schema (ECMA-262) would mean Unicode white
 * space.  Write RE2's meaning out so the validator matches what the API
 * server matches (docs/design/upstream.md, "Karpenter": budgets[].schedule).
 */
static const char *
re2_pattern(struct arena *a, const char *p)
{
	const char *s = "";
	bool in_class = false, fold = false;

	/* a leading (?i) (after ^): RE2's case-insensitive flag */
	if (!strncmp(p, "^(?i)", 5) || !strncmp(p, "(?i)", 4)) {
		fold = true;
		s = *p == '^' ? "^" : "";
		p += *p == '^' ? 5 : 4;
	} else if (!strstr(p, "\\s")) {
		return NULL;
	}
	for (const char *q = p; *q; q++) {
		char lo = (char)(*q | 0x20);

		if (*q == '\\' && q[1]) {
			if (q[1] == 's')
				s = arena_printf(a, "%s%s", s,
						 in_class ? "\\t\\n\\f\\r " : "[\\t\\n\\f\\r ]");
			else
				s = arena_printf(a, "%s%c%c", s, q[0], q[1]);
			q++;
			continue;
		}
		if (*q == '[')
			in_class = true;
		else if (*q == ']')
			in_class = false;
		if (fold && lo >= 'a' && lo <= 'z')
			s = arena_printf(a, in_class ? "%s%c%c" : "%s[%c%c]", s, lo,
					 (char)(lo - 32));
		else
			s = arena_printf(a, "%s%c", s, *q);
	}
	return s;
}

/*
 * controller-gen writes runtime.RawExtension as {type: object,
 * x-kubernetes-preserve-unknown-fields: true}, but nodeadm decodes a
 * RawExtension from any JSON value: kubelet.config holds strings and
 * numbers too (shutdownGracePeriod: 60s).  For NodeConfig, say so.
 */
static void
raw_extensions(struct arena *a, struct node *n, int depth)
{
	if (!n || n->kind != NODE_MAP || depth > 200)
		return;
	for (size_t i = 0; i < n->map.count; i++) {
		struct node_pair *p = &n->map.pairs[i];
		const struct node *pres =
			node_map_get(p->value, "x-kubernetes-preserve-unknown-fields");
		const char *type = node_str(node_map_get(p->value, "type"));

		if (!strcmp(node_text(p->key), "additionalProperties") && node_is_bool(pres) &&
		    pres->scalar.i && type && !strcmp(type, "object") &&
		    !node_map_get(p->value, "properties")) {
			struct node *any = node_new_map(a, p->value->at);

			node_map_add_bool(a, any, "x-kubernetes-preserve-unknown-fields", true);
			p->value = any;
			continue;
		}
		if (p->value && p->value->kind == NODE_MAP)
			raw_extensions(a, p->value, depth + 1);
	}
}

static void
re2_patterns(struct arena *a, struct node *n, int depth)
{
	if (!n || depth > 200)
		return;
	if (n->kind == NODE_SEQ) {
		for (size_t i = 0; i < n->seq.count; i++)
			re2_patterns(a, n->seq.items[i], depth + 1);
		return;
	}
	if (n->kind != NODE_MAP)
		return;
	for (size_t i = 0; i < n->map.count; i++) {
		struct node_pair *p = &n->map.pairs[i];
		const char *text = node_str(p->value), *fixed;

		if (text && !strcmp(node_text(p->key), "pattern") &&
		    (fixed = re2_pattern(a, text)) != NULL)
			p->value = node_new_str(a, p->value->at, fixed);
		else
			re2_patterns(a, p->value, depth + 1);
	}
}

static void
compile_entry(struct up_schema *e, struct arena *a, struct diags *d, const struct node *root,
	      const char *source)
{
	e->source = source;
	e->s = schema_compile_openapi(a, d, CHECK_SCHEMA, root);
	if (!e->s)
		e->rc = -3;
}

/* A CRD's schema at `version` into e (its source set even when the
 * version is not served, which the caller reports). */
static void
from_crd(struct up_schema *e, struct arena *a, struct diags *d, struct node *const *docs,
	 size_t count, const char *source, const char *group, const char *kind, const char *version)
{
	const struct node *vnode = NULL;
	const struct node *schema = crd_schema(docs, count, group, kind, version, &vnode);

	e->source = source;
	if (!schema)
		return;
	re2_patterns(a, (struct node *)schema, 0);
	if (!strcmp(group, "node.eks.aws"))
		raw_extensions(a, (struct node *)schema, 0);
	compile_entry(e, a, d, schema, source);
}

/* An OpenAPI v3 component into e: a root of its $ref and the components. */
static void
from_component(struct up_schema *e, struct arena *a, struct diags *d, const char *name,
	       const struct node *components, const char *source)
{
	struct node *root = node_new_map(a, (struct pos)POS_NONE);

	node_map_add_str(a, root, "$ref", arena_printf(a, "#/components/schemas/%s", name));
	node_map_add(a, root, "components", (struct node *)components);
	compile_entry(e, a, d, root, source);
}

/* When several files define the kind: the note naming them all and the
 * one used (the last, check_index.c), said once with the first object. */
static void
note_several(struct up_schema *e, struct arena *a, const struct check_index_sources *also,
	     const char *used, const char *where)
{
	const char *list = "";

	if (also->n < 2)
		return;
	for (size_t i = 0; i < also->n; i++)
		list = arena_printf(a, "%s%s%s", list, i ? ", " : "", also->names[i]);
	e->several =
		arena_printf(a,
			     "%s %s is defined by %zu files of %s (%s): the last in file-name "
			     "order, %s, is used, as `kubectl apply -f` of the directory would "
			     "leave the cluster",
			     e->api, e->kind, also->n, where, list, used);
}

/* An OpenAPI v3 component found by content. */
static void
from_index_api(struct check_upstream *u, struct up_schema *e, struct arena *a, struct diags *d,
	       const struct check_index_api *ie)
{
	note_several(e, a, &ie->also, ie->source, u->where);
	from_component(e, a, d, ie->name, ie->components, ie->source);
}

/* A CRD found by content. */
static void
from_index_crd(struct check_upstream *u, struct up_schema *e, struct arena *a, struct diags *d,
	       const struct check_index_crd *ic, const char *group, const char *kind,
	       const char *version)
{
	struct node *doc = (struct node *)ic->crd;

	note_several(e, a, &ic->also, ic->source, u->where);
	from_crd(e, a, d, &doc, 1, ic->source, group, kind, version);
}

/* A built-in kind: the saved file of its group/version, else the index. */
static void
builtin(struct check_upstream *u, struct up_schema *e, struct arena *a, struct diags *d,
	const char *group, const char *version, const char *kind)
{
	const char *rel =
		*group ? arena_printf(a, "%s/apis__%s__%s_openapi.json", K8S_DIR, group, version)
		       : arena_printf(a, "%s/api__%s_openapi.json", K8S_DIR, version);
	const struct check_index_api *ie;
	const char *name;
	const struct node *components = NULL;
	bool map = !strcmp(group, "admissionregistration.k8s.io") &&
		   (!strcmp(kind, "MutatingAdmissionPolicy") ||
		    !strcmp(kind, "MutatingAdmissionPolicyBinding"));

	if (map && !strcmp(version, "v1") &&
	    (ie = index_api(u, a, d, group, version, kind)) != NULL) {
		from_index_api(u, e, a, d, ie);
		return; /* a 1.36 cluster's (or document's) own v1 */
	}
	if (u->fetch && (ie = index_api(u, a, d, group, version, kind)) != NULL) {
		from_index_api(u, e, a, d, ie);
		return; /* what the cluster serves (--live) */
	}
	if (map && !strcmp(version, "v1")) {
		/* GA in 1.36; the saved 1.35 files have it as v1beta1 only */
		e->standin = "admissionregistration.k8s.io/v1beta1";
		rel = arena_printf(a, "%s/apis__admissionregistration.k8s.io__v1beta1_openapi.json",
				   K8S_DIR);
		version = "v1beta1";
	}
	if (u->dir && exists(arena_printf(a, "%s/%s", u->dir, rel))) {
		struct up_file *f = load(u, a, d, rel);

		if (f->rc < 0) {
			e->rc = -3;
			return;
		}
		name = openapi_component(f, group, version, kind, &components);
		if (name)
			from_component(e, a, d, name, components, rel);
		return;
	}
	if ((ie = index_api(u, a, d, group, version, kind)) != NULL)
		from_index_api(u, e, a, d, ie);
}

/* Find (and compile once) the schema of apiVersion/kind: a CRD at its
 * known path, else a CRD found by content, else a built-in kind. */
static struct up_schema *
lookup(struct check_upstream *u, struct arena *a, struct diags *d, const char *api,
       const char *kind)
{
	const char *slash = strchr(api, '/');
	const char *group = slash ? arena_strndup(a, api, (size_t)(slash - api)) : "";
	const char *version = slash ? slash + 1 : api;
	const char *crd = crd_file(group, kind);
	const struct check_index_crd *ic;
	struct up_schema *e;

	for (size_t i = 0; i < u->nschemas; i++)
		if (!strcmp(u->schemas[i].api, api) && !strcmp(u->schemas[i].kind, kind))
			return &u->schemas[i];
	e = new_entry(u, a, api, kind);
	/* the cluster's own CRD first (--live), then the directory's */
	if (u->fetch && *group && (ic = check_index_crd_find(&u->ix, group, kind)) != NULL) {
		from_index_crd(u, e, a, d, ic, group, kind, version);
		return e;
	}
	if (crd && u->dir && exists(arena_printf(a, "%s/%s", u->dir, crd))) {
		struct up_file *f = load(u, a, d, crd);

		if (f->rc < 0)
			e->rc = -3;
		else
			from_crd(e, a, d, f->docs, f->count, crd, group, kind, version);
		return e;
	}
	if (*group && (ic = check_index_crd_find(index_of(u, a), group, kind)) != NULL) {
		from_index_crd(u, e, a, d, ic, group, kind, version);
		return e;
	}
	builtin(u, e, a, d, group, version, kind);
	return e;
}

/*
 * A copy of `n` without the mapping entries whose value is null: the API
 * server decodes a null field as an absent one (typed objects), and prunes
 * it before validation (custom resources whose schema does not say
 * nullable), so `revisionHistoryLimit: null` from a chart template is
 * valid.  Positions are kept; list items are not dropped.
 */
static struct node *
without_nulls(struct arena *a, const struct node *n, int depth)
{
	struct node *out;

	if (!n || depth > 200 || n->kind == NODE_SCALAR)
		return (struct node *)n;
	if (n->kind == NODE_SEQ) {
		out = node_new_seq(a, n->at);
		for (size_t i = 0; i < n->seq.count; i++)
			node_seq_push(a, out, without_nulls(a, n->seq.items[i], depth + 1));
		return out;
	}
	out = node_new_map(a, n->at);
	for (size_t i = 0; i < n->map.count; i++) {
		const struct node_pair *p = &n->map.pairs[i];

		if (p->value && p->value->kind == NODE_SCALAR && p->value->type == NODE_NULL)
			continue;
		node_map_add_node(a, out, p->key, without_nulls(a, p->value, depth + 1));
	}
	return out;
}

int
check_upstream_validate(struct check_upstream *u, struct arena *a, struct diags *d,
			const struct node *obj)
{
	const char *api = node_str(node_map_get(obj, "apiVersion"));
	const char *kind = node_str(node_map_get(obj, "kind"));
	const struct node *doc = obj;
	struct up_schema *e;

	if (!u || !api || !kind)
		return 1;
	e = lookup(u, a, d, api, kind);
	if (e->several) {
		diag_report(d, obj->at, CHECK_STANDIN, "", "%s", e->several);
		e->several = NULL;
	}
	if (e->rc < 0 || u->fetch_failed)
		return -3;
	if (!e->s) {
		if (e->source)
			return diag_report(
				       d, obj->at, CHECK_SCHEMA, "apiVersion",
				       "%s %s is not a version the upstream CRD (%s) serves: the "
				       "API server rejects it",
				       kind, api, e->source) < 0
				       ? -1
				       : 0;
		diag_report(
			d, obj->at, CHECK_COVERAGE, "",
			"no upstream schema for %s %s in %s: the object is not checked against one "
			"(give its CRD or the OpenAPI v3 document of its group/version)",
			api, kind, u->where);
		return 1;
	}
	doc = without_nulls(a, obj, 0);
	if (e->standin) {
		struct node *copy = node_clone(a, doc);

		node_map_set(a, copy, "apiVersion", node_new_str(a, obj->at, e->standin));
		doc = copy;
		diag_report(d, obj->at, CHECK_STANDIN, "",
			    "%s %s checked against the %s schema of %s (no %s schema was found: it "
			    "is GA in Kubernetes 1.36, whose Go types have the same fields)",
			    api, kind, e->standin, e->source, api);
	}
	switch (schema_validate_bounded(e->s, a, d, CHECK_SCHEMA, doc, &u->budget)) {
	case 0: return 0;
	case -3: {
		const char *name = node_str(node_path(obj, "metadata.name"));

		diag_report(
			d, obj->at, CHECK_UNCHECKED, "",
			"%s %s%s%s could not be checked against the schema of %s: %s; a schema "
			"whose allOf, anyOf or $ref fan out is not evaluated to the end, and the "
			"object is not passed",
			api, kind, name ? " " : "", name ? name : "", e->source, u->budget.why);
		return -3;
	}
	default: return -1;
	}
}
