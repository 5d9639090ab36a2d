/*
 * pipeline.c - source -> yamlio -> schema -> spec -> rules, the road of
 * every reading command, and the choice of source.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/num.h"
#include "inventory/inventory.h"
#include "pipeline/pipeline.h"
#include "render/render.h"
#include "report/report.h"
#include "rules/rules_int.h"
#include "rules/rules.h"
#include "schema/schema.h"
#include "yamlio/yamlio.h"

/* A document read, to tell which site a later finding belongs to. */
struct doc_ref {
	const char *file;
	unsigned line;    /* where the document starts */
	const char *name; /* metadata.name when it is a string, else NULL */
};

struct doc_refs {
	struct doc_ref *items;
	size_t count;
	size_t alloc;
};

static void
refs_add(struct arena *a, struct doc_refs *r, const char *file, unsigned line, const char *name)
{
	ARENA_GROW(a, r->items, r->count, r->alloc, 64);
	r->items[r->count].file = file;
	r->items[r->count].line = line;
	r->items[r->count].name = name;
	r->count++;
}

/* The site a finding at d's place belongs to: the last document of its
 * file that starts at or before its line. */
static const char *
refs_site(const struct doc_refs *r, const struct diag *d)
{
	const char *best = NULL;
	unsigned best_line = 0;

	if (!d->at.file || !d->at.line)
		return NULL;
	for (size_t i = 0; i < r->count; i++) {
		const struct doc_ref *ref = &r->items[i];

		if (ref->line <= d->at.line && ref->line >= best_line &&
		    !strcmp(ref->file, d->at.file)) {
			best = ref->name;
			best_line = ref->line;
		}
	}
	return best;
}

static void
mark_site(struct diags *d, size_t from, const char *name)
{
	for (size_t i = from; i < d->count; i++)
		if (!d->items[i].site)
			d->items[i].site = name;
}

/*
 * What a document is, before the schema sees it.  One rule for every
 * reading command: a document that names an apiVersion outside
 * gpusite.io/ (a kustomization.yaml, a Kubernetes manifest), or that has
 * none of apiVersion, kind, metadata and spec (a tool's config file such
 * as .pre-commit-config.yaml), is not a site: it is skipped with a note
 * (GS127) and not counted.  A gpusite.io/ apiVersion with a kind other
 * than GPUSite, or kind GPUSite under another API, is an error (GS126).
 * Anything else is read as a site, and the schema says what it lacks.
 */
enum doc_class { DOC_SITE, DOC_OTHER, DOC_WRONG_KIND };

static bool
has_key(const struct node *doc, const char *key)
{
	return node_path(doc, key) != NULL;
}

static enum doc_class
classify(const struct node *doc, const char **api, const char **kind)
{
	size_t n = strlen("gpusite.io/");
	bool ours;

	*api = node_str(node_path(doc, "apiVersion"));
	*kind = node_str(node_path(doc, "kind"));
	if (!has_key(doc, "apiVersion") && !has_key(doc, "kind") && !has_key(doc, "metadata") &&
	    !has_key(doc, "spec"))
		return DOC_OTHER;
	if (!*api)
		return DOC_SITE; /* the schema reports it */
	ours = !strncmp(*api, "gpusite.io/", n);
	if (!ours)
		return *kind && !strcmp(*kind, SPEC_KIND) ? DOC_WRONG_KIND : DOC_OTHER;
	if (*kind && strcmp(*kind, SPEC_KIND))
		return DOC_WRONG_KIND;
	return DOC_SITE;
}

/*
 * The lean road (validate): each file's tree, model and the temporaries of
 * its checks live in a scratch arena released once the file is checked;
 * the run keeps its findings and, per site, the keys the cross-file rules
 * compare.  Only the files of sites whose keys meet another site's are
 * read again, at the end, for the cross-file rules: whatever a finding
 * points at is then in a tree again.  Sites with keys of their own can
 * take part in no cross-file finding, so leaving them out changes none.
 */

/* The lean road needs the keys of every cross-file rule: each declares
 * them (struct rule's fleet_keys); one that does not makes it take the
 * whole road. */
static bool
lean_possible(void)
{
	for (size_t i = 0; i < rules_count; i++) {
		const struct rule *r = rules_table[i];

		if (r->check_fleet && !r->fleet_keys)
			return false;
	}
	return true;
}

/* One key a cross-file rule compares, and the file of its site. */
struct lean_key {
	const char *key;
	size_t file;
};

struct lean_keys {
	struct lean_key *items;
	size_t count;
	size_t alloc;
};

/* Where the keys of one rule for one site go. */
struct key_sink {
	struct arena *a;
	struct lean_keys *keys;
	size_t rule; /* its index in rules_table: the rules' keys never meet */
	size_t file;
};

static void
key_add(void *payload, const char *key)
{
	struct key_sink *k = payload;
	char num[NUM_U64_DIGITS + 1], *p = num + sizeof(num), *text;
	size_t r = k->rule, n = strlen(key);

	/* "<rule>:<key>", written without printf: every site declares its
	 * keys for every cross-file rule */
	*--p = ':';
	p = num_u64_text(p, r);
	text = arena_alloc(k->a, (size_t)(num + sizeof(num) - p) + n + 1);
	memcpy(text, p, (size_t)(num + sizeof(num) - p));
	memcpy(text + (num + sizeof(num) - p), key, n + 1);
	ARENA_GROW(k->a, k->keys->items, k->keys->count, k->keys->alloc, 256);
	k->keys->items[k->keys->count].key = text;
	k->keys->items[k->keys->count].file = k->file;
	k->keys->count++;
}

/* The keys every cross-file rule declares for site `s` (struct rule's
 * fleet_keys). */
static void
site_keys(struct arena *a, struct lean_keys *k, const struct spec_site *s, size_t file)
{
	struct key_sink sink = { a, k, 0, file };
	struct rule_keys rk = { a, key_add, &sink };

	for (size_t i = 0; i < rules_count; i++) {
		if (!rules_table[i]->fleet_keys)
			continue;
		sink.rule = i;
		rules_table[i]->fleet_keys(&rk, s);
	}
}

static int
lean_key_cmp(const void *pa, const void *pb)
{
	const struct lean_key *a = pa, *b = pb;

	return strcmp(a->key, b->key);
}

static void
rules_sites(struct arena *a, struct diags *d, struct spec_site *site)
{
	struct spec_site *one[1] = { site };
	struct spec_fleet f = { one, 1, 1 };
	struct rule_ctx c = { a, d, NULL, &f, 0 };

	for (size_t i = 0; i < rules_count; i++) {
		c.rule = rules_table[i];
		if (c.rule->check_site)
			c.rule->check_site(&c, site);
	}
}

static void
rules_fleet(struct arena *a, struct diags *d, const struct spec_fleet *f)
{
	struct rule_ctx c = { a, d, NULL, f, 0 };

	for (size_t i = 0; i < rules_count; i++) {
		c.rule = rules_table[i];
		if (c.rule->check_fleet)
			c.rule->check_fleet(&c, f);
	}
}

/* Findings from `from` on: the site names into the run's arena, and the
 * site of a finding without one from where it is. */
static void
keep_sites(struct arena *a, struct diags *d, size_t from, const struct doc_refs *refs)
{
	for (size_t i = from; i < d->count; i++) {
		if (!d->items[i].site)
			d->items[i].site = refs_site(refs, &d->items[i]);
		else
			d->items[i].site = arena_strdup(a, d->items[i].site);
	}
}

static int load(struct pipeline *p, struct arena *a, const struct source_set *files, bool lean);
static void reload_sites(struct spec_fleet *out, struct arena *t, const struct schema *schema,
			 const struct source_file *f);

int
pipeline_load(struct pipeline *p, struct arena *a, const struct source_set *files)
{
	return load(p, a, files, false);
}

int
pipeline_load_lean(struct pipeline *p, struct arena *a, const struct source_set *files)
{
	return load(p, a, files, lean_possible());
}

void
pipeline_reload(const struct pipeline *p, struct spec_fleet *out, struct arena *t,
		const struct source_file *f)
{
	reload_sites(out, t, p->schema, f);
}

/* A site's model and, once, what it owns (src/inventory/): every reader
 * of the run takes it from there (docs/design/inventory.md). */
static struct spec_site *
load_site(struct arena *t, struct diags *d, const struct node *doc)
{
	struct spec_site *site = spec_load(t, d, doc);

	if (site)
		site->inventory = inventory_build(t, site);
	return site;
}

/* The valid sites of file `f`, loaded again into `t` (findings dropped:
 * they were reported the first time). */
static void
reload_sites(struct spec_fleet *out, struct arena *t, const struct schema *schema,
	     const struct source_file *f)
{
	struct yamlio_docs docs = { NULL, 0 };
	struct diags quiet;

	diags_init(&quiet, t);
	yamlio_load(&docs, t, &quiet, f->path, f->data, f->len, &yamlio_default_limits);
	for (size_t j = 0; j < docs.count; j++) {
		const struct node *doc = docs.docs[j];
		const char *api, *kind;
		struct spec_site *site;

		if (doc->kind != NODE_MAP || classify(doc, &api, &kind) != DOC_SITE ||
		    schema_validate(schema, t, &quiet, "GS003", doc) != 0)
			continue;
		site = load_site(t, &quiet, doc);
		if (site) {
			site->file = f->path;
			spec_fleet_add(t, out, site);
		}
	}
}

/* The cross-file rules over the sites whose keys meet another's. */
static void
lean_fleet_rules_run(struct pipeline *p, struct arena *a, const struct source_set *files,
		     const struct schema *schema, struct lean_keys *k, const struct doc_refs *refs)
{
	struct arena t = ARENA_INIT;
	struct spec_fleet sub = { NULL, 0, files->count };
	bool *again;
	size_t before;

	if (k->count < 2)
		return;
	again = arena_alloc(a, files->count * sizeof(*again));
	qsort(k->items, k->count, sizeof(*k->items), lean_key_cmp);
	for (size_t i = 0, j; i < k->count; i = j) {
		for (j = i + 1; j < k->count && !strcmp(k->items[i].key, k->items[j].key); j++)
			;
		if (j - i > 1)
			for (size_t m = i; m < j; m++)
				again[k->items[m].file] = true;
	}
	for (size_t i = 0; i < files->count; i++)
		if (again[i])
			reload_sites(&sub, &t, schema, &files->files[i]);
	if (sub.count) {
		spec_fleet_sort(&sub);
		before = p->diags.count;
		rules_fleet(&t, &p->diags, &sub);
		keep_sites(a, &p->diags, before, refs);
	}
	arena_release(&t);
}

/* What load carries from one file to the next. */
struct load_state {
	struct pipeline *p;
	struct arena *a; /* the run's */
	bool lean;
	struct doc_refs refs;
	struct lean_keys keys;
};

/* GS127: a document of another tool, skipped. */
static void
note_not_site(struct diags *d, const struct node *doc, const char *api, const char *kind)
{
	if (api)
		diag_report(d, doc->at, "GS127", "",
			    "skipped: not a site spec (apiVersion %s%s%s);"
			    " keep other files out of the spec paths to"
			    " silence this",
			    api, kind ? ", kind " : "", kind ? kind : "");
	else
		diag_report(d, doc->at, "GS127", "",
			    "skipped: no apiVersion, kind, metadata or spec, so"
			    " not a site spec; keep other files out of the spec"
			    " paths to silence this");
}

/* GS126: a gpusite.io/ kind that is not GPUSite, or GPUSite under
 * another API; its secrets are still reported. */
static void
load_wrong_kind(struct load_state *st, struct arena *t, const struct source_file *f,
		const struct node *doc, const char *name, const char *api, const char *kind)
{
	struct diags *d = &st->p->diags;
	size_t mark = d->count;

	refs_add(st->a, &st->refs, f->path, doc->at.line, name);
	diag_report(d, doc->at, "GS126", "",
		    "'apiVersion: %s' with 'kind: %s' is not a site spec"
		    " and gpusite has no other kind: a site spec has"
		    " 'apiVersion: %s' and 'kind: %s'",
		    api ? api : "", kind ? kind : "", SPEC_API_VERSION, SPEC_KIND);
	rules_scan_secrets(t, d, doc);
	mark_site(d, mark, name);
}

/* The lean road's site: its own rules run now, while its tree is in `t`;
 * the run keeps the findings, the keys and what a report reads of it. */
static void
keep_lean_site(struct load_state *st, struct arena *t, struct spec_site *site,
	       const struct source_file *f, size_t file, const char *name, size_t mark)
{
	struct pipeline *p = st->p;
	struct spec_site *kept = arena_alloc(st->a, sizeof(*kept));
	size_t rmark;

	site->file = f->path;
	mark_site(&p->diags, mark, name);
	rmark = p->diags.count;
	rules_sites(t, &p->diags, site);
	keep_sites(st->a, &p->diags, rmark, &st->refs);
	site_keys(st->a, &st->keys, site, file);
	/* what a report reads of a site: its name and file */
	kept->name = name;
	kept->file = f->path;
	kept->cluster.name = site->cluster.name ? arena_strdup(st->a, site->cluster.name) : NULL;
	spec_fleet_add(st->a, &p->fleet, kept);
}

/* One document of file `f` (number `file`), its tree in `t`. */
static void
load_doc(struct load_state *st, struct arena *t, const struct source_file *f, size_t file,
	 const struct node *doc)
{
	struct pipeline *p = st->p;
	const char *name = node_str(node_path(doc, "metadata.name"));
	size_t mark = p->diags.count;
	struct spec_site *site;
	const char *api, *kind;

	if (st->lean && name)
		name = arena_strdup(st->a, name);

	if (doc->kind != NODE_MAP) {
		p->docs++;
		diag_report(&p->diags, doc->at, "GS001", "",
			    "document is not a mapping: a site spec starts with"
			    " 'apiVersion: %s' and 'kind: %s'",
			    SPEC_API_VERSION, SPEC_KIND);
		return;
	}
	switch (classify(doc, &api, &kind)) {
	case DOC_OTHER: note_not_site(&p->diags, doc, api, kind); return;
	case DOC_WRONG_KIND: load_wrong_kind(st, t, f, doc, name, api, kind); return;
	case DOC_SITE: break;
	}
	p->docs++;
	refs_add(st->a, &st->refs, f->path, doc->at.line, name);
	if (schema_validate(p->schema, t, &p->diags, "GS003", doc) == 0) {
		site = load_site(t, &p->diags, doc);
		if (site && st->lean) {
			keep_lean_site(st, t, site, f, file, name, mark);
			return;
		} else if (site) {
			site->file = f->path;
			spec_fleet_add(st->a, &p->fleet, site);
		}
	} else {
		/* a secret is reported even in a spec the rules never see */
		rules_scan_secrets(t, &p->diags, doc);
	}
	mark_site(&p->diags, mark, name);
}

static void
load_file(struct load_state *st, const struct source_file *f, size_t file)
{
	struct yamlio_docs docs = { NULL, 0 };
	struct arena scratch = ARENA_INIT;
	struct arena *t = st->lean ? &scratch : st->a; /* the file's trees */

	/* Findings of the loader stay with the file: the document they
	 * are in may not have loaded at all. */
	if (yamlio_load(&docs, t, &st->p->diags, f->path, f->data, f->len,
			&yamlio_default_limits) == 0 &&
	    !docs.count)
		diag_report(
			&st->p->diags, (struct pos){ f->path, 0, 0 }, PIPELINE_RULE_EMPTY_FILE, "",
			"the file holds no document (it is empty or only comments): add the site's"
			" spec or remove the file; generate and serve refuse the specs until then");
	for (size_t j = 0; j < docs.count; j++)
		load_doc(st, t, f, file, docs.docs[j]);
	if (st->lean)
		arena_release(&scratch);
}

static int
load(struct pipeline *p, struct arena *a, const struct source_set *files, bool lean)
{
	struct load_state st = { p, a, lean, { NULL, 0, 0 }, { NULL, 0, 0 } };
	const struct schema *schema;
	size_t before_rules;

	memset(p, 0, sizeof(*p));
	p->arena = a;
	p->files = files;
	diags_init(&p->diags, a);
	p->fleet.files = files->count;
	schema = schema_gpusite(a, &p->diags);
	if (!schema)
		return -1;
	p->schema = schema;
	p->lean = lean;
	for (size_t i = 0; i < files->count; i++)
		load_file(&st, &files->files[i], i);
	spec_fleet_sort(&p->fleet);
	if (lean) {
		lean_fleet_rules_run(p, a, files, schema, &st.keys, &st.refs);
		diags_sort(&p->diags);
		return diags_count(&p->diags, DIAG_ERROR) ? -1 : 0;
	}
	before_rules = p->diags.count;
	rules_check(a, &p->diags, &p->fleet);
	for (size_t i = before_rules; i < p->diags.count; i++)
		if (!p->diags.items[i].site)
			p->diags.items[i].site = refs_site(&st.refs, &p->diags.items[i]);
	diags_sort(&p->diags);
	return diags_count(&p->diags, DIAG_ERROR) ? -1 : 0;
}

int
pipeline_collect(struct source_set *out, struct arena *a, struct diags *d,
		 const struct pipeline_source *src)
{
	if (src->staged)
		return source_from_index(out, a, d, src->paths, src->npaths);
	if (src->repo || src->ref)
		return source_from_git(out, a, d, src->repo ? src->repo : ".", src->ref, src->paths,
				       src->npaths);
	return source_from_paths(out, a, d, NULL, src->paths, src->npaths);
}

int
pipeline_read(struct source_set *out, struct arena *a, struct diags *d,
	      const struct pipeline_source *src)
{
	struct pos none = POS_NONE;
	size_t before = d->count;
	int r = pipeline_collect(out, a, d, src);

	if (r < 0)
		return r;
	if (out->count == 0 && d->count == before) {
		const char *where = src->npaths == 1 ? src->paths[0]
				    : out->label     ? out->label
						     : ".";
		const char *what = src->staged ? "staged spec files" : "spec files";

		if (src->npaths > 1)
			diag_report(d, none, "GS007", "", "no %s found in the %zu paths given",
				    what, src->npaths);
		else
			diag_report(d, none, "GS007", "", "no %s found under '%s'%s%s", what, where,
				    src->repo || src->ref ? " at " : "",
				    src->repo || src->ref ? (src->ref ? src->ref : "HEAD") : "");
		return SOURCE_ENOTFOUND;
	}
	return 0;
}

void
pipeline_merge_diags(struct diags *into, const struct diags *from)
{
	for (size_t i = 0; i < from->count; i++) {
		const struct diag *d = &from->items[i];

		diag_copy(into, d);
	}
}

static int open_road(struct pipeline *p, struct source_set *files, struct arena *a,
		     const struct pipeline_source *src, const char *name, unsigned flags,
		     size_t lean_from);

int
pipeline_open(struct pipeline *p, struct source_set *files, struct arena *a,
	      const struct pipeline_source *src, const char *name, unsigned flags)
{
	return open_road(p, files, a, src, name, flags, SIZE_MAX);
}

int
pipeline_open_lean(struct pipeline *p, struct source_set *files, struct arena *a,
		   const struct pipeline_source *src, const char *name, unsigned flags,
		   size_t lean_from)
{
	return open_road(p, files, a, src, name, flags, lean_from);
}

static int
open_road(struct pipeline *p, struct source_set *files, struct arena *a,
	  const struct pipeline_source *src, const char *name, unsigned flags, size_t lean_from)
{
	struct diags sd;

	diags_init(&sd, a);
	if (pipeline_read(files, a, &sd, src) < 0) {
		struct report_input in = { &sd, NULL, NULL, 0, name };

		diags_sort(&sd);
		report_write_flags(stdout, stderr, &in, REPORT_TEXT,
				   (flags & REPORT_COLOR) | REPORT_NO_SUMMARY);
		return -1;
	}
	if (files->count >= lean_from)
		pipeline_load_lean(p, a, files);
	else
		pipeline_load(p, a, files);
	if (sd.count) {
		pipeline_merge_diags(&p->diags, &sd);
		diags_sort(&p->diags);
	}
	return 0;
}

/* Whether the render of `opt` takes site `s`. */
static bool
site_rendered(const struct render_options *opt, const struct spec_site *s)
{
	bool rendered = !opt->sites;

	for (size_t j = 0; opt->sites && j < opt->site_count; j++)
		rendered |= !strcmp(opt->sites[j], s->name);
	return rendered;
}

void
pipeline_check_kube_agrees(struct diags *d, const struct spec_fleet *fleet,
			   const struct render_options *opt, const char *what)
{
	if (opt->kube_minor <= 0)
		return;
	for (size_t i = 0; i < fleet->count; i++) {
		const struct spec_site *s = fleet->sites[i];

		if (!site_rendered(opt, s) || s->cluster.kube_version_assumed ||
		    !s->cluster.kubernetes_version || s->cluster.kube_minor == opt->kube_minor)
			continue;
		diag_report(d, spec_field_pos(s->cluster.src, "kubernetesVersion"), "GS177",
			    "spec.cluster.kubernetesVersion",
			    "cluster.kubernetesVersion is %s, but %s is 1.%d: the objects are"
			    " rendered for 1.%d; write the cluster's real version in the spec,"
			    " or point the application at cluster %s",
			    s->cluster.kubernetes_version, what, opt->kube_minor, opt->kube_minor,
			    s->cluster.name);
		d->items[d->count - 1].site = s->name;
	}
}

int
pipeline_check_kube_version(struct diags *d, const struct spec_fleet *fleet,
			    const struct render_options *opt, const char *what)
{
	int ret = 0;

	if (opt->kube_minor <= 0 || opt->kube_minor >= 34)
		return 0;
	for (size_t i = 0; i < fleet->count; i++) {
		const struct spec_site *s = fleet->sites[i];
		struct pos at;

		if (!site_rendered(opt, s) || s->placement.engine != ENGINE_MAP)
			continue;
		if (s->placement.src)
			at = spec_field_pos(s->placement.src, "engine");
		else if (s->doc)
			at = s->doc->at;
		else
			at = (struct pos){ s->file, 0, 0 };
		ret = diag_report(
			d, at, "GS062", "spec.placement.engine",
			"placement.engine mutating-admission-policy needs Kubernetes 1.34 or"
			" later, and %s is 1.%d: use kyverno, or set it to the cluster's"
			" version",
			what, opt->kube_minor);
		d->items[d->count - 1].site = s->name;
	}
	return ret;
}

void
pipeline_files_from_top(struct diags *d, struct arena *a, const struct pipeline_source *src)
{
	const char *top, *prefix;

	if (source_top_of(a, src->repo, &top, &prefix) < 0)
		return;
	for (size_t i = 0; i < d->count; i++)
		d->items[i].at.file = source_name_from_top(a, top, prefix, d->items[i].at.file);
}

const char *
pipeline_file_from_top(struct arena *a, const struct pipeline_source *src, const char *file)
{
	const char *top, *prefix;

	if (!file || source_top_of(a, src->repo, &top, &prefix) < 0)
		return file;
	return source_name_from_top(a, top, prefix, file);
}

/* Files come sorted by path (source.h), and a stub's file is one. */
static int
file_path_cmp(const void *pa, const void *pb)
{
	const struct source_file *a = pa, *b = pb;

	return strcmp(a->path, b->path);
}

static int
file_ptr_cmp(const void *pa, const void *pb)
{
	uintptr_t x = (uintptr_t) * (const struct source_file *const *)pa;
	uintptr_t y = (uintptr_t) * (const struct source_file *const *)pb;

	return x < y ? -1 : x > y;
}

void
pipeline_whole_sites(struct spec_fleet *out, struct arena *t, const struct pipeline *p,
		     const struct spec_fleet *stubs)
{
	struct spec_fleet got = { NULL, 0, 0 };
	const struct source_file **want;
	size_t nw = 0;

	out->sites = arena_alloc(t, (stubs->count + 1) * sizeof(*out->sites));
	out->count = 0;
	out->files = stubs->files;
	want = arena_alloc(t, (stubs->count + 1) * sizeof(*want));
	for (size_t j = 0; j < stubs->count; j++) {
		struct source_file key = { stubs->sites[j]->file, NULL, 0 };
		const struct source_file *hit;

		hit = bsearch(&key, p->files->files, p->files->count, sizeof(*p->files->files),
			      file_path_cmp);
		if (hit)
			want[nw++] = hit;
	}
	/* each file once, in the order they were read */
	qsort(want, nw, sizeof(*want), file_ptr_cmp);
	for (size_t i = 0; i < nw; i++)
		if (i == 0 || want[i] != want[i - 1])
			pipeline_reload(p, &got, t, want[i]);
	for (size_t j = 0; j < stubs->count; j++) {
		const struct spec_site *stub = stubs->sites[j];

		for (size_t k = 0; k < got.count; k++)
			if (got.sites[k] && got.sites[k]->file == stub->file &&
			    !strcmp(got.sites[k]->name ? got.sites[k]->name : "",
				    stub->name ? stub->name : "")) {
				out->sites[out->count++] = got.sites[k];
				got.sites[k] = NULL;
				break;
			}
	}
}

double
pipeline_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

bool
pipeline_has_error(const struct diags *d, const char *rule)
{
	for (size_t i = 0; i < d->count; i++)
		if (d->items[i].level == DIAG_ERROR && !strcmp(d->items[i].rule, rule))
			return true;
	return false;
}
