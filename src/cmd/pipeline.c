/*
 * pipeline.c - source -> yamlio -> schema -> spec -> rules, the road of
 * every reading command, and the choice of source.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/arena.h"
#include "cmd/opts.h"
#include "cmd/pipeline.h"
#include "render/render.h"
#include "report/report.h"
#include "rules/rules.h"
#include "schema/schema.h"
#include "yamlio/yamlio.h"

/* A document read, to tell which site a later finding belongs to. */
struct doc_ref {
	const char *file;
	unsigned line;		/* where the document starts */
	const char *name;	/* metadata.name when it is a string, else NULL */
};

struct doc_refs {
	struct doc_ref *items;
	size_t count;
	size_t alloc;
};

static void
refs_add(struct arena *a, struct doc_refs *r, const char *file, unsigned line,
	 const char *name)
{
	if (r->count == r->alloc) {
		size_t n = r->alloc ? r->alloc * 2 : 64;

		r->items = arena_realloc(a, r->items, r->alloc * sizeof(*r->items),
					 n * sizeof(*r->items));
		r->alloc = n;
	}
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
	if (!has_key(doc, "apiVersion") && !has_key(doc, "kind") &&
	    !has_key(doc, "metadata") && !has_key(doc, "spec"))
		return DOC_OTHER;
	if (!*api)
		return DOC_SITE;	/* the schema reports it */
	ours = !strncmp(*api, "gpusite.io/", n);
	if (!ours)
		return *kind && !strcmp(*kind, SPEC_KIND) ? DOC_WRONG_KIND : DOC_OTHER;
	if (*kind && strcmp(*kind, SPEC_KIND))
		return DOC_WRONG_KIND;
	return DOC_SITE;
}

int
pipeline_load(struct pipeline *p, struct arena *a, const struct source_set *files)
{
	const struct schema *schema;
	struct doc_refs refs = { NULL, 0, 0 };
	size_t before_rules;

	memset(p, 0, sizeof(*p));
	p->arena = a;
	p->files = files;
	diags_init(&p->diags, a);
	p->fleet.files = files->count;
	schema = schema_gpusite(a, &p->diags);
	if (!schema)
		return -1;
	for (size_t i = 0; i < files->count; i++) {
		const struct source_file *f = &files->files[i];
		struct yamlio_docs docs = { NULL, 0 };

		/* Findings of the loader stay with the file: the document they
		 * are in may not have loaded at all. */
		yamlio_load(&docs, a, &p->diags, f->path, f->data, f->len,
			    &yamlio_default_limits);
		for (size_t j = 0; j < docs.count; j++) {
			const struct node *doc = docs.docs[j];
			const char *name = node_str(node_path(doc, "metadata.name"));
			size_t mark = p->diags.count;
			struct spec_site *site;
			const char *api, *kind;

			if (doc->kind != NODE_MAP) {
				p->docs++;
				diag_add(&p->diags, DIAG_ERROR, doc->at, "GS001", "",
					 "document is not a mapping: a site spec starts with"
					 " 'apiVersion: %s' and 'kind: %s'",
					 SPEC_API_VERSION, SPEC_KIND);
				continue;
			}
			switch (classify(doc, &api, &kind)) {
			case DOC_OTHER:
				if (api)
					diag_add(&p->diags, DIAG_NOTE, doc->at, "GS127", "",
						 "skipped: not a site spec (apiVersion %s%s%s);"
						 " keep other files out of the spec paths to"
						 " silence this",
						 api, kind ? ", kind " : "", kind ? kind : "");
				else
					diag_add(&p->diags, DIAG_NOTE, doc->at, "GS127", "",
						 "skipped: no apiVersion, kind, metadata or spec, so"
						 " not a site spec; keep other files out of the spec"
						 " paths to silence this");
				continue;
			case DOC_WRONG_KIND:
				refs_add(a, &refs, f->path, doc->at.line, name);
				diag_add(&p->diags, DIAG_ERROR, doc->at, "GS126", "",
					 "'apiVersion: %s' with 'kind: %s' is not a site spec"
					 " and gpusite has no other kind: a site spec has"
					 " 'apiVersion: %s' and 'kind: %s'",
					 api ? api : "", kind ? kind : "", SPEC_API_VERSION,
					 SPEC_KIND);
				rules_scan_secrets(a, &p->diags, doc);
				mark_site(&p->diags, mark, name);
				continue;
			case DOC_SITE:
				break;
			}
			p->docs++;
			refs_add(a, &refs, f->path, doc->at.line, name);
			if (schema_validate(schema, a, &p->diags, "GS003", doc) == 0) {
				site = spec_load(a, &p->diags, doc);
				if (site) {
					site->file = f->path;
					spec_fleet_add(a, &p->fleet, site);
				}
			} else {
				/* a secret is reported even in a spec the rules never see */
				rules_scan_secrets(a, &p->diags, doc);
			}
			mark_site(&p->diags, mark, name);
		}
	}
	spec_fleet_sort(&p->fleet);
	before_rules = p->diags.count;
	rules_check(a, &p->diags, &p->fleet);
	for (size_t i = before_rules; i < p->diags.count; i++)
		if (!p->diags.items[i].site)
			p->diags.items[i].site = refs_site(&refs, &p->diags.items[i]);
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
		return source_from_git(out, a, d, src->repo ? src->repo : ".", src->ref,
				       src->paths, src->npaths);
	return source_from_paths(out, a, d, NULL, src->paths, src->npaths);
}

int
pipeline_read(struct source_set *out, struct arena *a, struct diags *d,
	      const struct pipeline_source *src)
{
	struct pos none = { NULL, 0, 0 };
	size_t before = d->count;
	int r = pipeline_collect(out, a, d, src);

	if (r < 0)
		return r;
	if (out->count == 0 && d->count == before) {
		const char *where = src->npaths == 1 ? src->paths[0]
				  : out->label ? out->label : ".";
		const char *what = src->staged ? "staged spec files" : "spec files";

		if (src->npaths > 1)
			diag_add(d, DIAG_ERROR, none, "", "",
				 "no %s found in the %zu paths given", what, src->npaths);
		else
			diag_add(d, DIAG_ERROR, none, "", "",
				 "no %s found under '%s'%s%s", what, where,
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

		diag_add(into, d->level, d->at, d->rule, d->path, "%s", d->msg);
		into->items[into->count - 1].site = d->site;
	}
}

int
pipeline_open(struct pipeline *p, struct source_set *files, struct arena *a,
	      const struct opts *o, const char *const *paths, size_t npaths,
	      const char *name, unsigned flags)
{
	struct pipeline_source src = { o->repo, o->ref, o->staged, paths, npaths };
	struct diags sd;

	diags_init(&sd, a);
	if (pipeline_read(files, a, &sd, &src) < 0) {
		struct report_input in = { &sd, NULL, NULL, 0, name };

		diags_sort(&sd);
		report_write_flags(stdout, stderr, &in, REPORT_TEXT,
				   (flags & REPORT_COLOR) | REPORT_NO_SUMMARY);
		return -1;
	}
	pipeline_load(p, a, files);
	if (sd.count) {
		pipeline_merge_diags(&p->diags, &sd);
		diags_sort(&p->diags);
	}
	return 0;
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
		bool rendered = !opt->sites;
		struct pos at;

		for (size_t j = 0; opt->sites && j < opt->site_count; j++)
			rendered |= !strcmp(opt->sites[j], s->name);
		if (!rendered || s->placement.engine != ENGINE_MAP)
			continue;
		if (s->placement.src)
			at = spec_field_pos(s->placement.src, "engine");
		else if (s->doc)
			at = s->doc->at;
		else
			at = (struct pos){ s->file, 0, 0 };
		ret = diag_add(d, DIAG_ERROR, at, "GS062", "spec.placement.engine",
			       "placement.engine mutating-admission-policy needs Kubernetes 1.34 or"
			       " later, and %s is 1.%d: use kyverno, or set it to the cluster's"
			       " version", what, opt->kube_minor);
		d->items[d->count - 1].site = s->name;
	}
	return ret;
}

/* ---- file names from the repository's top ---------------------------- */

/* The Git work tree holding the absolute directory `dir`: the nearest
 * directory at or above it with a .git entry (directory or file), or
 * $GIT_WORK_TREE when `dir` is inside it.  NULL when there is none. */
static char *
find_top(struct arena *a, const char *dir)
{
	const char *wt = getenv("GIT_WORK_TREE");
	char *cur = arena_strdup(a, dir);

	if (wt && *wt) {
		char *real = realpath(wt, NULL);
		size_t n = real ? strlen(real) : 0;
		char *top = NULL;

		if (real && !strncmp(dir, real, n) && (dir[n] == '/' || !dir[n]))
			top = arena_strdup(a, real);
		free(real);
		if (top)
			return top;
	}
	for (;;) {
		struct stat st;
		char *git = arena_printf(a, "%s%s.git", cur, strcmp(cur, "/") ? "/" : "");
		char *slash;

		if (lstat(git, &st) == 0)
			return cur;
		slash = strrchr(cur, '/');
		if (!slash || slash == cur)
			return NULL;
		*slash = '\0';
	}
}

/* prefix + path with "." and ".." resolved, or NULL when it leaves the
 * top. */
static const char *
join_from_top(struct arena *a, const char *prefix, const char *path)
{
	size_t cap = strlen(prefix) + strlen(path) + 2, n = 0;
	char *buf = arena_alloc(a, cap);

	for (int part = 0; part < 2; part++) {
		const char *s = part ? path : prefix;

		while (*s) {
			const char *e = strchr(s, '/');
			size_t len = e ? (size_t)(e - s) : strlen(s);

			if (len == 2 && s[0] == '.' && s[1] == '.') {
				if (n == 0)
					return NULL;
				while (n > 0 && buf[n - 1] != '/')
					n--;
				if (n > 0)
					n--;
			} else if (len && !(len == 1 && s[0] == '.')) {
				if (n)
					buf[n++] = '/';
				memcpy(buf + n, s, len);
				n += len;
			}
			s += len;
			if (*s == '/')
				s++;
		}
	}
	buf[n] = '\0';
	return n ? buf : NULL;
}

/* The top of the work tree the specs come from and where the file names
 * are relative to, seen from it ("" or "sites/eu/"); -1 when there is no
 * such work tree. */
static int
top_of(struct arena *a, const struct opts *o, const char **top, const char **prefix)
{
	char here[PATH_MAX];
	const char *dir;
	struct stat st;
	size_t n;

	if (o->repo) {
		/* a URL's files are named from its top already */
		if (stat(o->repo, &st) != 0 || !S_ISDIR(st.st_mode))
			return -1;
		dir = realpath(o->repo, here);
	} else {
		dir = getcwd(here, sizeof(here));
	}
	if (!dir || !(*top = find_top(a, dir)))
		return -1;
	n = strlen(*top);
	if (!strcmp(*top, "/"))
		*prefix = arena_strdup(a, dir + 1);
	else
		*prefix = arena_strdup(a, dir[n] == '/' ? dir + n + 1 : "");
	return 0;
}

static const char *
name_from_top(struct arena *a, const char *top, const char *prefix, const char *f)
{
	size_t n = strlen(top);
	const char *named = NULL;

	if (!f || !*f)
		return f;
	if (f[0] == '/') {
		if (!strncmp(f, top, n) && f[n] == '/')
			named = join_from_top(a, "", f + n + 1);
	} else {
		named = join_from_top(a, prefix, f);
	}
	return named ? named : f;
}

void
pipeline_paths_from_top(struct diags *d, struct arena *a, const struct opts *o)
{
	const char *top, *prefix;

	if (top_of(a, o, &top, &prefix) < 0)
		return;
	for (size_t i = 0; i < d->count; i++)
		d->items[i].at.file = name_from_top(a, top, prefix, d->items[i].at.file);
}

const char *
pipeline_path_from_top(struct arena *a, const struct opts *o, const char *file)
{
	const char *top, *prefix;

	if (!file || top_of(a, o, &top, &prefix) < 0)
		return file;
	return name_from_top(a, top, prefix, file);
}

double
pipeline_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}
