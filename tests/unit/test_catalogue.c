/*
 * test_catalogue.c - one table of findings for every diagnostic ID
 * (base/findings.c): every "GSnnn" literal under src/ has a row, rows are
 * unique and ordered, SARIF takes its rule descriptions from them, and
 * docs/rules.md says the same (`make docs-rules-update` rewrites it; t1144
 * checks every generated table and list byte for byte).
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/findings.h"
#include "report/report.h"
#include "report/report_findings.h"
#include "rules/rules.h"

#define BEGIN "<!-- catalogue: begin -->"
#define END "<!-- catalogue: end -->"
#define HEADER "| ID | severity | what it means | how to fix |\n|---|---|---|---|\n"

static const char *
top(void)
{
	const char *t = getenv("TEST_TOP");

	return t && *t ? t : ".";
}

static char *
slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *s;
	long n;

	if (!f)
		return NULL;
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n >= 0);
	rewind(f);
	s = malloc((size_t)n + 1);
	assert_non_null(s);
	assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
	s[n] = '\0';
	fclose(f);
	return s;
}

static void
test_catalogue__rows_unique_ordered_and_found(void **state)
{
	size_t per_source[FINDING_SOURCES] = { 0 };

	(void)state;
	/* the spec rules, the plugin, upstream checks, scope, render, drift, kube */
	assert_true(findings_count >= rules_count + 18 + 50);
	for (size_t i = 0; i < findings_count; i++) {
		const struct finding *r = &findings_table[i];
		size_t len = strlen(r->summary);

		assert_int_equal(strlen(r->id), 5);
		assert_memory_equal(r->id, "GS", 2);
		if (i)
			assert_true(strcmp(findings_table[i - 1].id, r->id) < 0);
		assert_ptr_equal(findings_find(r->id), r);
		assert_true(len > 10);
		if (r->summary[len - 1] == '.' || strchr(r->summary, '|') ||
		    strchr(r->summary, '\n'))
			fail_msg("%s: the summary is one line without '|' or a final period",
				 r->id);
		assert_true(r->source < FINDING_SOURCES);
		per_source[r->source]++;
	}
	for (size_t k = 0; k < FINDING_SOURCES; k++)
		if (!per_source[k])
			fail_msg("source %zu reports no finding", k);
	assert_int_equal(per_source[FINDING_DRIFT], 21);
	assert_int_equal(findings_find("GS123")->level, DIAG_WARNING);
	assert_int_equal(findings_find("GS290")->level, DIAG_ERROR);
	assert_int_equal(findings_find("GS213")->level, DIAG_NOTE);
	assert_int_equal(findings_find("GS160")->source, FINDING_SCOPE);
	assert_int_equal(findings_find("GS130")->source, FINDING_CHECK);
	assert_int_equal(findings_find("GS041")->source, FINDING_RULE);
	assert_int_equal(findings_find("GS001")->source, FINDING_READ);
	assert_null(findings_find("GS999"));
	assert_null(findings_find("GS200"));
	assert_null(findings_find("GS000"));
	assert_null(findings_find(NULL));
}

struct scan {
	char missing[4096];
	size_t found;
	size_t files;
};

static void
scan_text(struct scan *s, const char *path, const char *text)
{
	for (const char *p = strstr(text, "\"GS"); p; p = strstr(p + 1, "\"GS")) {
		char id[6];

		if (!(p[3] >= '0' && p[3] <= '9' && p[4] >= '0' && p[4] <= '9' && p[5] >= '0' &&
		      p[5] <= '9' && p[6] == '"'))
			continue;
		memcpy(id, p + 1, 5);
		id[5] = '\0';
		s->found++;
		if (!findings_find(id) &&
		    strlen(s->missing) + strlen(path) + 16 < sizeof(s->missing))
			snprintf(s->missing + strlen(s->missing),
				 sizeof(s->missing) - strlen(s->missing), " %s (%s)", id, path);
	}
}

static void
scan_dir(struct scan *s, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	assert_non_null(d);
	while ((e = readdir(d))) {
		char path[4096];
		struct stat st;
		size_t len = strlen(e->d_name);

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (lstat(path, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			scan_dir(s, path);
		} else if (S_ISREG(st.st_mode) && len > 2 &&
			   (!strcmp(e->d_name + len - 2, ".c") ||
			    !strcmp(e->d_name + len - 2, ".h"))) {
			char *text = slurp(path);

			assert_non_null(text);
			scan_text(s, path, text);
			s->files++;
			free(text);
		}
	}
	closedir(d);
}

static void
test_catalogue__every_id_in_the_source_is_catalogued(void **state)
{
	struct scan s;
	char dir[4096];

	(void)state;
	memset(&s, 0, sizeof(s));
	/* the scanner itself: an uncatalogued ID is reported, a near miss not */
	scan_text(&s, "self", "x = \"GS041\"; y = \"GS998\"; z = \"GS12\"; w = \"GS1234\";");
	assert_int_equal(s.found, 2);
	assert_string_equal(s.missing, " GS998 (self)");

	memset(&s, 0, sizeof(s));
	snprintf(dir, sizeof(dir), "%s/src", top());
	scan_dir(&s, dir);
	assert_true(s.files > 50);
	assert_true(s.found > 80);
	if (s.missing[0])
		fail_msg("IDs used in src/ but not in the table of findings "
			 "(src/base/findings.c):%s",
			 s.missing);
}

/* Split "| a | b | c | d |" into 4 cells (pointers into `line`, cut). */
static int
split_row(char *line, char **cells)
{
	size_t len = strlen(line), n = 0;
	char *p;

	if (len < 4 || strncmp(line, "| ", 2) || strcmp(line + len - 2, " |"))
		return -1;
	line[len - 2] = '\0';
	p = line + 2;
	while (n < 4) {
		char *bar = strstr(p, " | ");

		cells[n++] = p;
		if (!bar)
			break;
		*bar = '\0';
		p = bar + 3;
	}
	return n == 4 && !strstr(cells[3], " | ") ? 0 : -1;
}

static void
test_catalogue__docs_table_matches(void **state)
{
	const struct finding *rows = findings_table;
	size_t n = findings_count, i = 0;
	char path[4096], *text, *begin, *end, *line, *save = NULL;

	(void)state;
	snprintf(path, sizeof(path), "%s/docs/rules.md", top());
	text = slurp(path);
	if (!text)
		fail_msg("%s: cannot read it", path);
	begin = strstr(text, BEGIN);
	end = strstr(text, END);
	if (!begin || !end || end < begin)
		fail_msg("%s: no table between '%s' and '%s'", path, BEGIN, END);
	*end = '\0';
	begin += strlen(BEGIN);
	if (strncmp(begin, "\n" HEADER, strlen(HEADER) + 1))
		fail_msg("%s: the table starts with a header other than\n%s", path, HEADER);
	begin += strlen(HEADER) + 1;
	for (line = strtok_r(begin, "\n", &save); line; line = strtok_r(NULL, "\n", &save), i++) {
		char *cells[4] = { NULL };

		if (split_row(line, cells) < 0)
			fail_msg("docs/rules.md: row %zu is not '| ID | severity | meaning | fix "
				 "|': %s",
				 i + 1, line);
		if (i >= n)
			fail_msg("docs/rules.md: %s is not in the catalogue", cells[0]);
		if (strcmp(cells[0], rows[i].id))
			fail_msg(
				"docs/rules.md: row %zu is %s, the catalogue's is %s (same IDs, in "
				"ID order; make docs-rules-update)",
				i + 1, cells[0], rows[i].id);
		if (strcmp(cells[1], diag_level_name(rows[i].level)))
			fail_msg("docs/rules.md: %s is '%s', the catalogue says '%s'", cells[0],
				 cells[1], diag_level_name(rows[i].level));
		if (strcmp(cells[2], rows[i].summary))
			fail_msg("docs/rules.md: %s means '%s', the catalogue says '%s'", cells[0],
				 cells[2], rows[i].summary);
		if (strlen(cells[3]) < 10)
			fail_msg("docs/rules.md: %s has no 'how to fix'", cells[0]);
	}
	if (i < n)
		fail_msg("docs/rules.md: %s is missing (make docs-rules-update)", rows[i].id);
	free(text);
}

static void
test_catalogue__sarif_describes_ids_of_every_module(void **state)
{
	static const char *const ids[] = { "GS041", "GS123", "GS165", "GS192", "GS211", "GS290" };
	struct arena a;
	struct diags d;
	struct report_input in;
	char *out = NULL, *err = NULL;
	size_t out_len = 0, err_len = 0;
	FILE *fo, *fe;

	(void)state;
	arena_init(&a);
	diags_init(&d, &a);
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		diag_report(&d, (struct pos){ "sites/a.yaml", 3, 5 }, ids[i], "", "finding %zu", i);
	memset(&in, 0, sizeof(in));
	in.diags = &d;
	in.tool_name = "gpusite validate";
	fo = open_memstream(&out, &out_len);
	fe = open_memstream(&err, &err_len);
	assert_int_equal(report_write_flags(fo, fe, &in, REPORT_SARIF, 0), 0);
	fclose(fo);
	fclose(fe);
	assert_null(strstr(out, "gpusite rule GS"));
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		const struct finding *r = findings_find(ids[i]);
		char want[1024];

		const char *at;

		/* the rule's docs (fullDescription, helpUri, help) sit between */
		snprintf(want, sizeof(want),
			 "{\"id\":\"%s\",\"shortDescription\":{\"text\":\"%s\"},", r->id,
			 r->summary);
		if (!(at = strstr(out, want)))
			fail_msg("SARIF lacks %s in\n%s", want, out);
		snprintf(want, sizeof(want),
			 "\"helpUri\":\"https://github.com/example-org/gpusite/"
			 "blob/v%s/docs/rules.md#gs%s\"",
			 GPUSITE_VERSION, r->id + 2);
		if (!strstr(at, want))
			fail_msg("SARIF lacks %s in\n%s", want, at);
		snprintf(want, sizeof(want), "\"defaultConfiguration\":{\"level\":\"%s\"}}",
			 r->level == DIAG_NOTE ? "note" : diag_level_name(r->level));
		if (!strstr(at, want))
			fail_msg("SARIF lacks %s in\n%s", want, at);
	}
	free(out);
	free(err);
	arena_release(&a);
}

static void
test_catalogue__help_lists_come_from_the_table(void **state)
{
	static const struct report_findings_help drift = { "head\n", FINDING_DRIFT, NULL,
							   "tail\n" };
	static const struct report_findings_help plan = { "", FINDING_DRILL_PLAN,
							  "drill plan: ", "" };
	char out[8192], tiny[16];
	size_t entries = 0;

	(void)state;
	assert_int_equal(report_findings_help(out, sizeof(out), &drift), 0);
	/* the head, every drift row in ID order, the tail */
	assert_memory_equal(out,
			    "head\n  GS201  a hybrid node of a site has no GPU taint "
			    "(joined without it, or it\n         was removed)\n",
			    strlen("head\n  GS201  a hybrid node of a site has no GPU taint "
				   "(joined without it, or it\n         was removed)\n"));
	assert_non_null(strstr(out, "\n  GS205  a node of a site is not Ready\n"));
	assert_string_equal(out + strlen(out) - strlen("was not acting\ntail\n"),
			    "was not acting\ntail\n");
	for (const char *line = out; line; line = strchr(line + 1, '\n')) {
		const char *l = *line == '\n' ? line + 1 : line;

		if (strlen(l) > 0 && strcspn(l, "\n") > REPORT_FINDINGS_WIDTH)
			fail_msg("a help line over %d columns: %.*s", REPORT_FINDINGS_WIDTH,
				 (int)strcspn(l, "\n"), l);
		if (!strncmp(l, "  GS", 4))
			entries++;
	}
	assert_int_equal(entries, 21);
	/* the command's own prefix is left out; other sources stay out */
	assert_int_equal(report_findings_help(out, sizeof(out), &plan), 0);
	assert_non_null(strstr(out, "  GS235  the site's PrometheusRule is not in the cluster\n"));
	assert_null(strstr(out, "drill plan:"));
	assert_null(strstr(out, "GS236"));
	assert_null(strstr(out, "GS201"));
	/* too small: the head alone */
	assert_int_equal(report_findings_help(tiny, sizeof(tiny), &drift), -1);
	assert_string_equal(tiny, "head\n");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_catalogue__rows_unique_ordered_and_found),
		cmocka_unit_test(test_catalogue__every_id_in_the_source_is_catalogued),
		cmocka_unit_test(test_catalogue__docs_table_matches),
		cmocka_unit_test(test_catalogue__sarif_describes_ids_of_every_module),
		cmocka_unit_test(test_catalogue__help_lists_come_from_the_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
