/*
 * report_junit.c - JUnit XML for CI test views: one <testsuite> per
 * file, one <testcase> per site (named after metadata.name); a file
 * whose YAML did not load, or findings that belong to no site, get one
 * testcase named after the file.  Errors are <failure>s; warnings go to
 * the testcase's <system-out>.
 */
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "report/report_int.h"

struct jcase {
	const char *name; /* site name, or NULL for the file's own case */
	size_t errors;
	size_t warnings;
};

struct jsuite {
	const char *file; /* "" for findings without a file */
	struct jcase *cases;
	size_t count;
	size_t failures;
};

static int
cmp_str(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static const char *
diag_file(const struct diag *d)
{
	return d->at.file ? d->at.file : "";
}

/* Does diagnostic d belong to case c of the suite for `file`? */
static int
in_case(const struct diag *d, const char *file, const struct jcase *c)
{
	if (strcmp(diag_file(d), file))
		return 0;
	if (!c->name)
		return d->site == NULL;
	return d->site && !strcmp(d->site, c->name);
}

static void
add_case(struct arena *a, struct jsuite *s, size_t *alloc, const char *name)
{
	for (size_t i = 0; i < s->count; i++) {
		const char *have = s->cases[i].name;

		if ((!have && !name) || (have && name && !strcmp(have, name)))
			return;
	}
	if (s->count == *alloc) {
		size_t na = *alloc ? *alloc * 2 : 4;

		s->cases = arena_realloc(a, s->cases, *alloc * sizeof(*s->cases),
					 na * sizeof(*s->cases));
		*alloc = na;
	}
	s->cases[s->count].name = name;
	s->cases[s->count].errors = 0;
	s->cases[s->count].warnings = 0;
	s->count++;
}

/* Suites, sorted by file: every file read and every file named by a
 * finding (a refused symlink is never read but has findings). */
static struct jsuite *
build_suites(struct arena *a, const struct report_input *in, size_t *count)
{
	size_t nf = in->files ? in->files->count : 0;
	size_t nd = in->diags ? in->diags->count : 0, k = 0, ns = 0;
	const char **paths = arena_alloc(a, (nf + nd + 1) * sizeof(*paths));
	struct jsuite *suites;

	for (size_t i = 0; i < nf; i++)
		paths[k++] = in->files->files[i].path;
	for (size_t i = 0; i < nd; i++)
		paths[k++] = diag_file(&in->diags->items[i]);
	qsort(paths, k, sizeof(*paths), cmp_str);
	suites = arena_alloc(a, (k + 1) * sizeof(*suites));
	for (size_t i = 0; i < k; i++) {
		struct jsuite *s;
		size_t alloc = 0;

		if (ns && !strcmp(suites[ns - 1].file, paths[i]))
			continue;
		s = &suites[ns++];
		s->file = paths[i];
		for (size_t j = 0; in->fleet && j < in->fleet->count; j++) {
			const struct spec_site *site = in->fleet->sites[j];

			if (site->file && site->name && !strcmp(site->file, s->file))
				add_case(a, s, &alloc, site->name);
		}
		for (size_t j = 0; j < nd; j++) {
			const struct diag *d = &in->diags->items[j];

			if (!strcmp(diag_file(d), s->file))
				add_case(a, s, &alloc, d->site);
		}
		if (s->count == 0)
			add_case(a, s, &alloc, NULL);
		for (size_t c = 0; c < s->count; c++) {
			for (size_t j = 0; j < nd; j++) {
				const struct diag *d = &in->diags->items[j];

				if (!in_case(d, s->file, &s->cases[c]))
					continue;
				if (d->level == DIAG_ERROR)
					s->cases[c].errors++;
				else if (d->level == DIAG_WARNING)
					s->cases[c].warnings++;
			}
			if (s->cases[c].errors)
				s->failures++;
		}
	}
	*count = ns;
	return suites;
}

static void
put_lines(FILE *out, const struct report_input *in, const char *file, const struct jcase *c,
	  int errors)
{
	for (size_t j = 0; j < in->diags->count; j++) {
		const struct diag *d = &in->diags->items[j];

		if (!in_case(d, file, c) || (d->level == DIAG_ERROR) != errors)
			continue;
		/* the same line the text format prints, XML-escaped */
		{
			char *line = NULL;
			size_t len = 0;
			FILE *m = open_memstream(&line, &len);

			if (!m)
				continue;
			report_put_diag_line(m, d);
			fclose(m);
			report_put_xml(out, line, 0);
			fputc('\n', out);
			free(line);
		}
	}
}

static const struct diag *
first_error(const struct report_input *in, const char *file, const struct jcase *c)
{
	for (size_t j = 0; j < in->diags->count; j++) {
		const struct diag *d = &in->diags->items[j];

		if (in_case(d, file, c) && d->level == DIAG_ERROR)
			return d;
	}
	return NULL;
}

int
report_write_junit(FILE *out, const struct report_input *in)
{
	struct arena a = ARENA_INIT;
	struct jsuite *suites;
	size_t ns, tests = 0, failures = 0;

	arena_init(&a);
	suites = build_suites(&a, in, &ns);
	for (size_t i = 0; i < ns; i++) {
		tests += suites[i].count;
		failures += suites[i].failures;
	}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	fputs("<testsuites name=\"", out);
	report_put_xml(out, in->tool_name ? in->tool_name : "gpusite", 1);
	fprintf(out, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\">\n", tests, failures);
	for (size_t i = 0; i < ns; i++) {
		const struct jsuite *s = &suites[i];
		const char *sname = *s->file ? s->file : "gpusite";

		fputs("  <testsuite name=\"", out);
		report_put_xml(out, sname, 1);
		fprintf(out, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"0\">\n",
			s->count, s->failures);
		for (size_t c = 0; c < s->count; c++) {
			const struct jcase *jc = &s->cases[c];
			const struct diag *fe = first_error(in, s->file, jc);

			fputs("    <testcase name=\"", out);
			report_put_xml(out, jc->name ? jc->name : sname, 1);
			fputs("\" classname=\"", out);
			report_put_xml(out, sname, 1);
			fputs("\"", out);
			if (!jc->errors && !jc->warnings) {
				fputs("/>\n", out);
				continue;
			}
			fputs(">\n", out);
			if (fe) {
				fputs("      <failure message=\"", out);
				report_put_xml(out, fe->msg, 1);
				fputs("\" type=\"", out);
				report_put_xml(out, fe->rule, 1);
				fputs("\">", out);
				put_lines(out, in, s->file, jc, 1);
				fputs("</failure>\n", out);
			}
			if (jc->warnings) {
				fputs("      <system-out>", out);
				put_lines(out, in, s->file, jc, 0);
				fputs("</system-out>\n", out);
			}
			fputs("    </testcase>\n", out);
		}
		fputs("  </testsuite>\n", out);
	}
	fputs("</testsuites>\n", out);
	arena_release(&a);
	return ferror(out) ? -1 : 0;
}
