/*
 * pipeline_diff.c - the road of `diff --base`, what a change does to the
 * rendered output: both
 * sides read (a Git revision, the work tree or the index), checked and
 * rendered, their objects matched by kind, namespace and name, and each
 * pair compared as YAML with diff_unified(), secrets masked on both sides
 * (diff_mask_secrets() for Secret data, diff_revisions_redact() for
 * activation codes).  The writers are report/report_diff.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "diff/diff.h"
#include "emit/emit.h"
#include "node/node.h"
#include "pipeline/pipeline.h"
#include "pipeline/pipeline_diff.h"
#include "render/render.h"
#include "report/report.h"
#include "source/source.h"

static const char *
no_env(const char *name)
{
	(void)name;
	return NULL; /* diff never reads activation codes */
}

/* ---- reading and rendering a side -------------------------------------- */

int
diff_revisions_cmp(const void *x, const void *y)
{
	const struct render_object *a = *(const struct render_object *const *)x;
	const struct render_object *b = *(const struct render_object *const *)y;
	int c;

	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	if ((c = strcmp(a->namespace ? a->namespace : "", b->namespace ? b->namespace : "")))
		return c;
	if ((c = strcmp(a->name, b->name)))
		return c;
	return strcmp(a->kind, b->kind);
}

static void
print_diags(const struct diags *d, const struct diff_side *s, unsigned flags, unsigned extra)
{
	struct report_input in = { d, s ? &s->files : NULL, s ? &s->p.fleet : NULL,
				   s ? s->p.docs : 0, "gpusite diff" };

	report_write_flags(stdout, stderr, &in, REPORT_TEXT, flags | extra);
}

int
diff_side_load(struct diff_side *s, struct arena *a, const struct pipeline_source *from,
	       bool is_base, unsigned flags)
{
	struct pipeline_source src = *from;
	struct render_options ropt;
	struct diags sd;

	src.ref = s->rev;
	diags_init(&sd, a);
	if (pipeline_collect(&s->files, a, &sd, &src) < 0) {
		diags_sort(&sd);
		print_diags(&sd, NULL, flags & REPORT_COLOR, REPORT_NO_SUMMARY);
		return DIFF_SIDE_EFAIL;
	}
	/* no spec file at all is a side without objects (a fleet's first
	 * commit, the last site deleted), not an error */
	pipeline_load(&s->p, a, &s->files);
	pipeline_merge_diags(&s->p.diags, &sd);
	diags_sort(&s->p.diags);
	memset(&ropt, 0, sizeof(ropt));
	ropt.getenv = no_env;
	if (!diags_count(&s->p.diags, DIAG_ERROR) && s->p.fleet.count)
		render_fleet(&s->r, a, &s->p.diags, &s->p.fleet, &ropt);
	if (diags_count(&s->p.diags, DIAG_ERROR)) {
		struct diags errs;

		/* only the errors: warnings do not stop a diff */
		diags_init(&errs, a);
		for (size_t i = 0; i < s->p.diags.count; i++) {
			const struct diag *d = &s->p.diags.items[i];

			if (d->level == DIAG_ERROR)
				diag_copy(&errs, d);
		}
		if (is_base) {
			/* not the change's fault, and no difference either: the
			 * job could not be done (a PR check must not pass on it) */
			fprintf(stderr,
				"gpusite diff: error: the base's specs %s are not valid;"
				" nothing was compared.  The base's findings:\n",
				s->where);
			print_diags(&errs, s, flags, 0);
			fprintf(stderr, "gpusite diff: fix the base's specs, or compare with"
					" a --base whose specs are valid\n");
			return DIFF_SIDE_EFAIL;
		}
		fprintf(stderr,
			"gpusite diff: the specs %s are not valid; nothing was"
			" compared\n",
			s->where);
		print_diags(&errs, s, flags, 0);
		return DIFF_SIDE_EINVALID;
	}
	s->count = s->r.count;
	s->objs = arena_alloc(a, (s->count + 1) * sizeof(*s->objs));
	for (size_t i = 0; i < s->count; i++)
		s->objs[i] = &s->r.objects[i];
	qsort(s->objs, s->count, sizeof(*s->objs), diff_revisions_cmp);
	return 0;
}

/* ---- comparing ---------------------------------------------------------- */

static const char *
obj_key(struct arena *a, const struct render_object *o)
{
	if (o->namespace && *o->namespace)
		return arena_printf(a, "%s/%s/%s", o->kind, o->namespace, o->name);
	return arena_printf(a, "%s/%s", o->kind, o->name);
}

static const char *
site_file(const struct diff_side *s, const struct render_object *o)
{
	const struct spec_site *site = o->site ? spec_fleet_find(&s->p.fleet, o->site) : NULL;

	return site ? site->file : NULL;
}

static void
count_lines(struct diff_item *it)
{
	const char *p = it->diff;
	int header = 2; /* "--- a/..." and "+++ b/..." */

	while (*p) {
		const char *nl = strchr(p, '\n');

		if (header > 0)
			header--;
		else if (*p == '+')
			it->plus++;
		else if (*p == '-')
			it->minus++;
		p = nl ? nl + 1 : p + strlen(p);
	}
}

static int
compare_one(struct diff_item *it, struct arena *a, struct diff_side *base, struct diff_side *head,
	    const struct render_object *l, const struct render_object *r)
{
	struct buf lt = BUF_INIT, rt = BUF_INIT, one = BUF_INIT;
	const char *key = obj_key(a, r ? r : l);
	int rc = -1;

	buf_init(&lt, DIFF_REVISIONS_CAP);
	buf_init(&rt, DIFF_REVISIONS_CAP);
	buf_init(&one, DIFF_REVISIONS_CAP);
	diff_mask_secrets(a, l ? l->obj : NULL, r ? r->obj : NULL);
	if (l) {
		diff_revisions_redact(a, l->obj);
		if (emit_document(&lt, l->obj, EMIT_YAML) < 0)
			goto out;
	}
	if (r) {
		diff_revisions_redact(a, r->obj);
		if (emit_document(&rt, r->obj, EMIT_YAML) < 0)
			goto out;
	}
	rc = diff_unified(&one, lt.data, lt.len, l ? arena_printf(a, "a/%s", key) : "/dev/null",
			  rt.data, rt.len, r ? arena_printf(a, "b/%s", key) : "/dev/null");
	if (rc < 0)
		goto out;
	it->obj = r ? r : l;
	it->key = key;
	it->change = !l ? DIFF_ADDED : !r ? DIFF_REMOVED : rc ? DIFF_CHANGED : DIFF_SAME;
	it->diff = arena_strndup(a, one.data, one.len);
	it->len = one.len;
	it->file = r ? site_file(head, r) : NULL;
	if (!it->file && l)
		it->file = site_file(base, l);
	count_lines(it);
	rc = 0;
out:
	buf_release(&lt);
	buf_release(&rt);
	buf_release(&one);
	return rc;
}

int
diff_revisions_compare(struct diff_result *res, struct arena *a, struct diff_side *base,
		       struct diff_side *head)
{
	size_t i = 0, j = 0;

	res->items = arena_alloc(a, (base->count + head->count + 1) * sizeof(*res->items));
	while (i < base->count || j < head->count) {
		const struct render_object *l = NULL, *r = NULL;
		struct diff_item *it = &res->items[res->count];
		int c = i >= base->count   ? 1
			: j >= head->count ? -1
					   : diff_revisions_cmp(&base->objs[i], &head->objs[j]);

		if (c <= 0)
			l = base->objs[i++];
		if (c >= 0)
			r = head->objs[j++];
		if (compare_one(it, a, base, head, l, r) < 0)
			return -1;
		res->n[it->change]++;
		res->count++;
	}
	return 0;
}
