/*
 * test_report.c - every report format on one fixed list of diagnostics,
 * compared byte for byte, and the escaping each destination needs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/arena.h"
#include "base/buf.h"
#include "report/report.h"
#include "report/report_diff.h"
#include "rules/rules.h"

struct fixture {
	struct arena arena;
	struct diags diags;
	struct source_set files;
	struct spec_fleet fleet;
	struct spec_site site_a;
	struct spec_site *sites[1];
	struct report_input in;
};

static const char file_a[] = "apiVersion: gpusite.io/v1alpha1\n" /* 1 */
			     "kind: GPUSite\n"
			     "metadata:\n"
			     "  name: seoul\n"
			     "spec:\n" /* 5 */
			     "  cluster: {name: c1, region: us-west-2}\n"
			     "  nodeGroups: []\n"
			     "  gpuStack: {chart: {version: 0.20.0}}\n"
			     "  fallback:\n"
			     "    instanceTypes: [g6.12xlarge]\n" /* 10 */
			     "    x: 1\n"
			     "    gpuLimit: 2\n"  /* 12 */
			     "\tplacement: {}\n"; /* 13: a tab */

static void
add(struct fixture *f, enum diag_level level, const char *file, unsigned line, unsigned col,
    const char *rule, const char *path, const char *msg, const char *site)
{
	struct pos at = { file, line, col };

	diag_add(&f->diags, level, at, rule, path, "%s", msg);
	f->diags.items[f->diags.count - 1].site = site;
}

/* The fixed list: two findings in a loaded site, one whole-file finding
 * in a file that was never read (a symlink leading out). */
static int
setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	arena_init(&f->arena);
	diags_init(&f->diags, &f->arena);
	source_set_add(&f->arena, &f->files, "sites/a.yaml", file_a, sizeof(file_a) - 1);
	add(f, DIAG_ERROR, "sites/a.yaml", 12, 15, "GS041", "spec.fallback.gpuLimit",
	    "fallback.gpuLimit 2 is below the 4 GPUs of g6.12xlarge", "seoul");
	add(f, DIAG_WARNING, "sites/a.yaml", 12, 15, "GS045", "spec.fallback.gpuLimit",
	    "fallback.gpuLimit 2 covers less than half of the 16 on-prem GPUs", "seoul");
	add(f, DIAG_ERROR, "sites/b.yaml", 0, 0, "GS006", "",
	    "symlink leads outside the repository", NULL);
	f->site_a.name = "seoul";
	f->site_a.file = "sites/a.yaml";
	f->sites[0] = &f->site_a;
	f->fleet.sites = f->sites;
	f->fleet.count = 1;
	f->fleet.files = 1;
	f->in.diags = &f->diags;
	f->in.files = &f->files;
	f->in.fleet = &f->fleet;
	f->in.sites = 2;
	f->in.tool_name = "gpusite validate";
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture *f = *state;

	arena_release(&f->arena);
	free(f);
	return 0;
}

/* Run one format into memory; returns a malloc'd string. */
static char *
render(struct fixture *f, enum report_format fmt, unsigned flags, int want_stderr)
{
	char *out_buf = NULL, *err_buf = NULL;
	size_t out_len = 0, err_len = 0;
	FILE *out = open_memstream(&out_buf, &out_len);
	FILE *err = open_memstream(&err_buf, &err_len);

	assert_non_null(out);
	assert_non_null(err);
	assert_int_equal(report_write_flags(out, err, &f->in, fmt, flags), 0);
	fclose(out);
	fclose(err);
	if (want_stderr) {
		free(out_buf);
		return err_buf;
	}
	free(err_buf);
	return out_buf;
}

static void
test_report__format_names_parse(void **state)
{
	static const char *const names[] = {
		"text", "json", "github", "sarif", "junit", "markdown"
	};
	enum report_format fmt;

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		assert_int_equal(report_format_parse(names[i], &fmt), 0);
		assert_int_equal((int)fmt, (int)i);
	}
	assert_int_equal(report_format_parse("yaml", &fmt), -1);
	assert_int_equal(report_format_parse("TEXT", &fmt), -1);
}

static void
test_report__text_is_compiler_style_on_stderr(void **state)
{
	struct fixture *f = *state;
	char *err = render(f, REPORT_TEXT, 0, 1);
	char *out = render(f, REPORT_TEXT, 0, 0);

	assert_string_equal(err,
			    "sites/a.yaml:12:15: error: fallback.gpuLimit 2 is below the 4 GPUs of "
			    "g6.12xlarge [GS041]\n"
			    "sites/a.yaml:12:15: warning: fallback.gpuLimit 2 covers less than "
			    "half of the 16 on-prem GPUs [GS045]\n"
			    "sites/b.yaml: error: symlink leads outside the repository [GS006]\n"
			    "gpusite: 2 errors, 1 warning (1 file, 2 sites)\n");
	assert_string_equal(out, "");
	free(err);
	free(out);
}

static void
test_report__text_caret_points_at_the_column(void **state)
{
	struct fixture *f = *state;
	char *err;

	f->diags.count = 1;
	err = render(f, REPORT_TEXT, REPORT_CARET, 1);
	assert_string_equal(err, "sites/a.yaml:12:15: error: fallback.gpuLimit 2 is below the 4 "
				 "GPUs of g6.12xlarge [GS041]\n"
				 "   12 |     gpuLimit: 2\n"
				 "      |               ^\n"
				 "gpusite: 1 error, 0 warnings (1 file, 2 sites)\n");
	free(err);
}

static void
test_report__text_caret_keeps_tabs_aligned(void **state)
{
	struct fixture *f = *state;
	char *err;

	f->diags.count = 0;
	add(f, DIAG_ERROR, "sites/a.yaml", 13, 2, "GS001", "", "tabs are not indentation", NULL);
	err = render(f, REPORT_TEXT, REPORT_CARET | REPORT_QUIET, 1);
	assert_string_equal(err, "sites/a.yaml:13:2: error: tabs are not indentation [GS001]\n"
				 "   13 | \tplacement: {}\n"
				 "      | \t^\n"
				 "gpusite: 1 error, 0 warnings (1 file, 2 sites)\n");
	free(err);
}

static void
test_report__text_caret_masks_a_secret_line(void **state)
{
	struct fixture *f = *state;
	char *err;

	/* line 12 holds a GS010 finding at column 5: every excerpt of that
	 * line, under GS010 or another finding, stops there */
	f->diags.count = 0;
	add(f, DIAG_ERROR, "sites/a.yaml", 12, 5, "GS003", "", "unknown field", NULL);
	add(f, DIAG_ERROR, "sites/a.yaml", 12, 5, "GS010", "", "holds a secret", NULL);
	add(f, DIAG_ERROR, "sites/a.yaml", 11, 5, "GS003", "", "other line", NULL);
	diags_sort(&f->diags);
	err = render(f, REPORT_TEXT, REPORT_CARET | REPORT_QUIET, 1);
	assert_string_equal(err, "sites/a.yaml:11:5: error: other line [GS003]\n"
				 "   11 |     x: 1\n"
				 "      |     ^\n"
				 "sites/a.yaml:12:5: error: unknown field [GS003]\n"
				 "   12 |     <redacted>\n"
				 "      |     ^\n"
				 "sites/a.yaml:12:5: error: holds a secret [GS010]\n"
				 "   12 |     <redacted>\n"
				 "      |     ^\n"
				 "gpusite: 3 errors, 0 warnings (1 file, 2 sites)\n");
	free(err);
}

static void
test_report__text_escapes_bidi_controls(void **state)
{
	struct fixture *f = *state;
	char *err;

	f->diags.count = 0;
	add(f, DIAG_ERROR, "sites/a.yaml", 0, 0, "GS003", "",
	    "a\xe2\x80\xae"
	    "b\xe2\x81\xa6"
	    "c\xe2\x81\xa9"
	    "d\xe2\x80\x8e"
	    "e\xe2\x80\x8f"
	    "f\xd8\x9c"
	    "g\xe2\x80\xaa"
	    "h \xe2\x80\x94 \xd8\xa7",
	    NULL);
	err = render(f, REPORT_TEXT, REPORT_QUIET, 1);
	/* U+2014 and U+0627 are text, not controls: they stay */
	assert_string_equal(
		err,
		"sites/a.yaml: error: a\\u202eb\\u2066c\\u2069d\\u200ee\\u200ff\\u061cg\\u202ah"
		" \xe2\x80\x94 \xd8\xa7 [GS003]\n"
		"gpusite: 1 error, 0 warnings (1 file, 2 sites)\n");
	free(err);
	unsetenv("GITHUB_STEP_SUMMARY");
	err = render(f, REPORT_GITHUB, 0, 0);
	assert_string_equal(err, "::error file=sites/a.yaml,title=GS003::a\\u202eb\\u2066c\\u2069d"
				 "\\u200ee\\u200ff\\u061cg\\u202ah \xe2\x80\x94 \xd8\xa7\n");
	free(err);
}

static void
test_report__text_colour_marks_severity(void **state)
{
	struct fixture *f = *state;
	char *err;

	f->diags.count = 1;
	err = render(f, REPORT_TEXT, REPORT_COLOR, 1);
	assert_string_equal(
		err, "\033[1msites/a.yaml:12:15:\033[0m \033[1;31merror:\033[0m fallback.gpuLimit 2"
		     " is below the 4 GPUs of g6.12xlarge [GS041]\n"
		     "gpusite: 1 error, 0 warnings (1 file, 2 sites)\n");
	free(err);
}

static void
test_report__text_quiet_prints_nothing_when_clean(void **state)
{
	struct fixture *f = *state;
	char *err;

	f->diags.count = 0;
	err = render(f, REPORT_TEXT, REPORT_QUIET, 1);
	assert_string_equal(err, "");
	free(err);
	err = render(f, REPORT_TEXT, 0, 1);
	assert_string_equal(err, "gpusite: 0 errors, 0 warnings (1 file, 2 sites)\n");
	free(err);
}

static void
test_report__text_never_passes_control_characters(void **state)
{
	struct fixture *f = *state;
	char *err;

	f->diags.count = 0;
	add(f, DIAG_ERROR, "x\n.yaml", 1, 1, "GS003", "", "key '\033[2J' \xc2\x9b and \xff\nnext",
	    NULL);
	err = render(f, REPORT_TEXT, REPORT_NO_SUMMARY, 1);
	assert_string_equal(
		err, "x\\n.yaml:1:1: error: key '\\x1b[2J' \\u009b and \\xff\\nnext [GS003]\n");
	free(err);
}

static void
test_report__json_lists_every_field(void **state)
{
	struct fixture *f = *state;
	char *out = render(f, REPORT_JSON, 0, 0);

	assert_string_equal(
		out,
		"{\"diagnostics\":["
		"{\"file\":\"sites/a.yaml\",\"line\":12,\"column\":15,\"severity\":\"error\","
		"\"rule\":\"GS041\",\"path\":\"spec.fallback.gpuLimit\","
		"\"message\":\"fallback.gpuLimit 2 is below the 4 GPUs of g6.12xlarge\"},"
		"{\"file\":\"sites/a.yaml\",\"line\":12,\"column\":15,\"severity\":\"warning\","
		"\"rule\":\"GS045\",\"path\":\"spec.fallback.gpuLimit\","
		"\"message\":\"fallback.gpuLimit 2 covers less than half of the 16 on-prem GPUs\"},"
		"{\"file\":\"sites/b.yaml\",\"line\":0,\"column\":0,\"severity\":\"error\","
		"\"rule\":\"GS006\",\"path\":\"\","
		"\"message\":\"symlink leads outside the repository\"}],"
		"\"summary\":{\"files\":1,\"sites\":2,\"errors\":2,\"warnings\":1}}\n");
	free(out);
}

static void
test_report__json_escapes_strings(void **state)
{
	struct fixture *f = *state;
	char *out;

	f->diags.count = 0;
	add(f, DIAG_ERROR, "a\"b.yaml", 1, 2, "GS003", "spec[\"x\"]",
	    "quote \" backslash \\ newline \n tab \t bell \a", NULL);
	out = render(f, REPORT_JSON, 0, 0);
	assert_non_null(strstr(
		out,
		"{\"file\":\"a\\\"b.yaml\",\"line\":1,\"column\":2,\"severity\":\"error\","
		"\"rule\":\"GS003\",\"path\":\"spec[\\\"x\\\"]\","
		"\"message\":\"quote \\\" backslash \\\\ newline \\n tab \\t bell \\u0007\"}"));
	free(out);
}

static void
test_report__github_annotations(void **state)
{
	struct fixture *f = *state;
	char *out;

	unsetenv("GITHUB_STEP_SUMMARY");
	out = render(f, REPORT_GITHUB, 0, 0);
	assert_string_equal(
		out,
		"::error file=sites/a.yaml,line=12,col=15,title=GS041::fallback.gpuLimit 2 is "
		"below the 4 GPUs of g6.12xlarge\n"
		"::warning file=sites/a.yaml,line=12,col=15,title=GS045::fallback.gpuLimit 2 "
		"covers less than half of the 16 on-prem GPUs\n"
		"::error file=sites/b.yaml,title=GS006::symlink leads outside the repository\n");
	free(out);
}

static void
test_report__github_escapes_data_and_properties(void **state)
{
	struct fixture *f = *state;
	char *out;

	unsetenv("GITHUB_STEP_SUMMARY");
	f->diags.count = 0;
	add(f, DIAG_ERROR, "we%ird,na:me\r\n.yaml", 3, 4, "GS001", "", "100% sure\r\nline two: a,b",
	    NULL);
	out = render(f, REPORT_GITHUB, 0, 0);
	assert_string_equal(out,
			    "::error file=we%25ird%2Cna%3Ame%0D%0A.yaml,line=3,col=4,title=GS001::"
			    "100%25 sure%0D%0Aline two: a,b\n");
	free(out);
}

static void
test_report__github_appends_the_step_summary(void **state)
{
	struct fixture *f = *state;
	char path[] = "/tmp/gpusite-summary-XXXXXX";
	int fd = mkstemp(path);
	char got[4096];
	ssize_t n;
	char *out;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, "earlier step\n", 13), 13);
	setenv("GITHUB_STEP_SUMMARY", path, 1);
	out = render(f, REPORT_GITHUB, 0, 0);
	unsetenv("GITHUB_STEP_SUMMARY");
	free(out);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	n = read(fd, got, sizeof(got) - 1);
	close(fd);
	unlink(path);
	assert_true(n > 0);
	got[n] = '\0';
	assert_string_equal(got,
			    "earlier step\n"
			    "### gpusite validate\n\n"
			    "| | File | Line | Rule | Message |\n"
			    "|---|---|---|---|---|\n"
			    "| \xe2\x9d\x8c | sites/a.yaml | 12:15 | GS041 | fallback.gpuLimit 2 "
			    "is below the 4 GPUs of g6.12xlarge |\n"
			    "| \xe2\x9a\xa0\xef\xb8\x8f | sites/a.yaml | 12:15 | GS045 | "
			    "fallback.gpuLimit 2 covers less than half of the 16 on-prem GPUs |\n"
			    "| \xe2\x9d\x8c | sites/b.yaml |  | GS006 | symlink leads outside the "
			    "repository |\n"
			    "\n"
			    "gpusite: 2 errors, 1 warning (1 file, 2 sites)\n");
}

static void
test_report__markdown_escapes_cells(void **state)
{
	struct fixture *f = *state;
	char *out;

	f->diags.count = 0;
	add(f, DIAG_WARNING, "a|b.yaml", 2, 1, "GS061", "", "use `x` | not *y* <b>&\nnext", NULL);
	out = render(f, REPORT_MARKDOWN, 0, 0);
	assert_string_equal(out, "### gpusite validate\n\n"
				 "| | File | Line | Rule | Message |\n"
				 "|---|---|---|---|---|\n"
				 "| \xe2\x9a\xa0\xef\xb8\x8f | a\\|b.yaml | 2:1 | GS061 | use "
				 "\\`x\\` \\| not \\*y\\* &lt;b&gt;&amp; next |\n"
				 "\n"
				 "gpusite: 0 errors, 1 warning (1 file, 2 sites)\n");
	free(out);
}

/* The one Markdown escaper: every syntax that starts inline markup is
 * text, GFM autolinks are broken, bidi controls are dropped; a code span
 * in a table cell escapes '|', and the HTML escaper drops bidi too. */
static void
test_report__markdown_escaper_neutralises_syntax(void **state)
{
	struct buf b = BUF_INIT;

	(void)state;
	buf_init(&b, 0);
	assert_int_equal(report_md_text(&b, "h<!--x</details>*a*_b_~~c~~|d|`e`[f](https://g.io)"
					    "![i](j)WWW.h.io wwwx.io @i.io #k\\l&m\xe2\x80\xae"
					    "n\xe2\x81\xa6o\xd8\x9cp\x01q\xc2\x9br"),
			 0);
	assert_string_equal(b.data, "h&lt;\\!--x&lt;/details&gt;\\*a\\*\\_b\\_\\~\\~c\\~\\~\\|d\\|"
				    "\\`e\\`\\[f\\](https&#58;&#47;/g.io)\\!\\[i\\](j)WWW&#46;h.io "
				    "wwwx.io @&#8203;i.io \\#k\\\\l&amp;mnop q r");
	buf_reset(&b);
	assert_int_equal(report_md_code(&b, "a|b`c\xe2\x80\xae", REPORT_MD_CELL), 0);
	assert_string_equal(b.data, "``a\\|b`c``");
	buf_reset(&b);
	assert_int_equal(report_md_code(&b, "`x", 0), 0);
	assert_string_equal(b.data, "`` `x ``");
	buf_reset(&b);
	assert_int_equal(report_html_text(&b, "<a href='x'>\"&\xe2\x81\xa9</a>\xff"), 0);
	assert_string_equal(b.data, "&lt;a href=&#39;x&#39;&gt;&quot;&amp;&lt;/a&gt;\xef\xbf\xbd");
	buf_release(&b);
}

static void
test_report__markdown_says_when_clean(void **state)
{
	struct fixture *f = *state;
	char *out;

	f->diags.count = 0;
	out = render(f, REPORT_MARKDOWN, 0, 0);
	assert_string_equal(out, "### gpusite validate\n\n"
				 "No problems found.\n\n"
				 "gpusite: 0 errors, 0 warnings (1 file, 2 sites)\n");
	free(out);
}

/* Cut each rule's documentation (fullDescription, helpUri, help: from
 * docs/rules.md, checked on their own below) out of a SARIF report. */
static void
strip_rule_docs(char *s)
{
	char *p;

	while ((p = strstr(s, ",\"fullDescription\":")) != NULL) {
		char *e = strstr(p, ",\"defaultConfiguration\"");

		assert_non_null(e);
		memmove(p, e, strlen(e) + 1);
	}
}

static void
test_report__sarif_rules_carry_the_docs(void **state)
{
	struct fixture *f = *state;
	char *out;

	out = render(f, REPORT_SARIF, 0, 0);
	assert_non_null(
		strstr(out, "\"informationUri\":\"https://github.com/example-org/gpusite\""));
	assert_null(strstr(out, "gpusite.io\""));
	assert_non_null(strstr(
		out,
		"{\"id\":\"GS041\",\"shortDescription\":{\"text\":\"fallback.gpuLimit is below the "
		"GPU"
		" count of the smallest listed instance type\"},\"fullDescription\":{\"text\":"
		"\"fallback.gpuLimit is below the GPU count of the smallest listed instance type. "
		"Raise"
		" fallback.gpuLimit to at least the GPU count of the smallest listed type, or list "
		"a"
		" smaller "
		"type\"},\"helpUri\":\"https://github.com/example-org/gpusite/blob/"
		"v" GPUSITE_VERSION
		"/docs/rules.md#gs041\",\"help\":{\"text\":\"Raise fallback.gpuLimit to"
		" at least the GPU count of the smallest listed type, or list a smaller type\","
		"\"markdown\":\"**GS041** (error): fallback.gpuLimit is below the GPU count of the "
		"smallest"
		" listed instance type\\n\\n**How to fix:** Raise `fallback.gpuLimit` to at least "
		"the GPU"
		" count of the smallest listed type, or list a smaller type\\n\\n[GS041 in "
		"docs/rules.md]"
		"(https://github.com/example-org/gpusite/blob/v" GPUSITE_VERSION
		"/docs/rules.md#gs041)\"},"
		"\"defaultConfiguration\":{\"level\":\"error\"}}"));
	free(out);
}

static void
test_report__sarif_has_rules_results_and_regions(void **state)
{
	struct fixture *f = *state;
	const struct finding *r006 = findings_find("GS006"), *r041 = findings_find("GS041"),
			     *r045 = findings_find("GS045");
	char *out, *want;
	size_t len;
	FILE *w;

	assert_non_null(r006);
	assert_non_null(r041);
	assert_non_null(r045);
	w = open_memstream(&want, &len);
	fprintf(w,
		"{\"$schema\":\"https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/"
		"sarif-schema-2.1.0.json\","
		"\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":\"gpusite\","
		"\"version\":\"%s\",\"informationUri\":\"https://github.com/example-org/"
		"gpusite\",\"rules\":["
		"{\"id\":\"GS006\",\"shortDescription\":{\"text\":\"%s\"},\"defaultConfiguration\":"
		"{\"level\":\"error\"}},"
		"{\"id\":\"GS041\",\"shortDescription\":{\"text\":\"%s\"},\"defaultConfiguration\":"
		"{\"level\":\"error\"}},"
		"{\"id\":\"GS045\",\"shortDescription\":{\"text\":\"%s\"},\"defaultConfiguration\":"
		"{\"level\":\"warning\"}}]}},"
		"\"columnKind\":\"unicodeCodePoints\",\"results\":["
		"{\"ruleId\":\"GS041\",\"ruleIndex\":1,\"level\":\"error\",\"message\":{\"text\":"
		"\"fallback.gpuLimit 2 is below the 4 GPUs of "
		"g6.12xlarge\"},\"locations\":[{\"physicalLocation\":"
		"{\"artifactLocation\":{\"uri\":\"sites/"
		"a.yaml\"},\"region\":{\"startLine\":12,\"startColumn\":15}}}],"
		"\"properties\":{\"path\":\"spec.fallback.gpuLimit\"}},"
		"{\"ruleId\":\"GS045\",\"ruleIndex\":2,\"level\":\"warning\",\"message\":{\"text\":"
		"\"fallback.gpuLimit 2 covers less than half of the 16 on-prem "
		"GPUs\"},\"locations\":[{\"physicalLocation\":"
		"{\"artifactLocation\":{\"uri\":\"sites/"
		"a.yaml\"},\"region\":{\"startLine\":12,\"startColumn\":15}}}],"
		"\"properties\":{\"path\":\"spec.fallback.gpuLimit\"}},"
		"{\"ruleId\":\"GS006\",\"ruleIndex\":0,\"level\":\"error\",\"message\":{\"text\":"
		"\"symlink leads outside the repository\"},\"locations\":[{\"physicalLocation\":"
		"{\"artifactLocation\":{\"uri\":\"sites/b.yaml\"}}}]}]}]}\n",
		GPUSITE_VERSION, r006->summary, r041->summary, r045->summary);
	fclose(w);
	out = render(f, REPORT_SARIF, 0, 0);
	strip_rule_docs(out);
	assert_string_equal(out, want);
	free(out);
	free(want);
}

static void
test_report__sarif_uri_is_percent_encoded(void **state)
{
	struct fixture *f = *state;
	char *out;

	f->diags.count = 0;
	add(f, DIAG_ERROR, "my sites/a#1.yaml", 1, 1, "GS001", "", "bad", NULL);
	add(f, DIAG_ERROR, "/abs/b.yaml", 1, 1, "GS001", "", "bad", NULL);
	out = render(f, REPORT_SARIF, 0, 0);
	assert_non_null(strstr(out, "\"uri\":\"my%20sites/a%231.yaml\""));
	assert_non_null(strstr(out, "\"uri\":\"file:///abs/b.yaml\""));
	free(out);
}

static void
test_report__junit_suite_per_file_case_per_site(void **state)
{
	struct fixture *f = *state;
	char *out = render(f, REPORT_JUNIT, 0, 0);

	assert_string_equal(
		out,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<testsuites name=\"gpusite validate\" tests=\"2\" failures=\"2\" errors=\"0\">\n"
		"  <testsuite name=\"sites/a.yaml\" tests=\"1\" failures=\"1\" errors=\"0\" "
		"skipped=\"0\">\n"
		"    <testcase name=\"seoul\" classname=\"sites/a.yaml\">\n"
		"      <failure message=\"fallback.gpuLimit 2 is below the 4 GPUs of g6.12xlarge\" "
		"type=\"GS041\">"
		"sites/a.yaml:12:15: error: fallback.gpuLimit 2 is below the 4 GPUs of g6.12xlarge "
		"[GS041]\n"
		"</failure>\n"
		"      <system-out>sites/a.yaml:12:15: warning: fallback.gpuLimit 2 covers less "
		"than half of the 16 on-prem GPUs [GS045]\n"
		"</system-out>\n"
		"    </testcase>\n"
		"  </testsuite>\n"
		"  <testsuite name=\"sites/b.yaml\" tests=\"1\" failures=\"1\" errors=\"0\" "
		"skipped=\"0\">\n"
		"    <testcase name=\"sites/b.yaml\" classname=\"sites/b.yaml\">\n"
		"      <failure message=\"symlink leads outside the repository\" type=\"GS006\">"
		"sites/b.yaml: error: symlink leads outside the repository [GS006]\n"
		"</failure>\n"
		"    </testcase>\n"
		"  </testsuite>\n"
		"</testsuites>\n");
	free(out);
}

static void
test_report__junit_passing_site_and_xml_escaping(void **state)
{
	struct fixture *f = *state;
	char *out;

	f->diags.count = 0;
	add(f, DIAG_ERROR, "x&<y>.yaml", 1, 1, "GS001", "",
	    "bad \"quote\" 'apos' <tag> & \x01 \xff", NULL);
	out = render(f, REPORT_JUNIT, 0, 0);
	/* the valid site of sites/a.yaml is a passing case */
	assert_non_null(strstr(out, "    <testcase name=\"seoul\" classname=\"sites/a.yaml\"/>\n"));
	assert_non_null(
		strstr(out, "<testsuite name=\"x&amp;&lt;y&gt;.yaml\" tests=\"1\" failures=\"1\""));
	assert_non_null(strstr(
		out, "<failure message=\"bad &quot;quote&quot; &apos;apos&apos; &lt;tag&gt; &amp; "
		     "\xef\xbf\xbd \xef\xbf\xbd\" type=\"GS001\">"));
	free(out);
}

/*
 * diff --base --format github goes through the one GitHub escaper: the
 * annotation's file property and message escape % CR LF (and : , in
 * properties), and a bidi control in an object name is shown as an
 * escape, never written raw into the log.
 */
static void
test_report__diff_github_uses_the_one_escaper(void **state)
{
	struct arena a = ARENA_INIT;
	struct render_object obj;
	struct diff_item it;
	struct diff_result res;
	char *buf = NULL;
	size_t len = 0;
	FILE *out;

	(void)state;
	arena_init(&a);
	memset(&obj, 0, sizeof(obj));
	obj.kind = "ConfigMap";
	obj.name = "x\xe2\x80\xae"
		   "y";
	memset(&it, 0, sizeof(it));
	it.obj = &obj;
	it.key = "ConfigMap/x\xe2\x80\xae"
		 "y";
	it.change = DIFF_ADDED;
	it.diff = "+a\n";
	it.len = 3;
	it.plus = 1;
	it.file = "sites/a,b:c.yaml";
	memset(&res, 0, sizeof(res));
	res.items = &it;
	res.count = 1;
	res.n[DIFF_ADDED] = 1;
	res.base = "main";
	res.head = "work tree";
	unsetenv("GITHUB_STEP_SUMMARY");
	out = open_memstream(&buf, &len);
	assert_non_null(out);
	assert_int_equal(report_diff_github(out, &a, &res), 0);
	fclose(out);
	assert_string_equal(buf, "::group::ConfigMap/x\\u202ey (added, +1 \xe2\x88\x92"
				 "0)\n"
				 "+a\n"
				 "::endgroup::\n"
				 "::notice file=sites/a%2Cb%3Ac.yaml,title=gpusite diff::"
				 "ConfigMap/x\\u202ey added in the rendered output (+1 -0 lines)\n"
				 "0 objects changed, 1 added, 0 removed\n");
	free(buf);
	arena_release(&a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_report__format_names_parse),
		cmocka_unit_test(test_report__diff_github_uses_the_one_escaper),
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
		T(test_report__text_is_compiler_style_on_stderr),
		T(test_report__text_caret_points_at_the_column),
		T(test_report__text_caret_keeps_tabs_aligned),
		T(test_report__text_caret_masks_a_secret_line),
		T(test_report__text_escapes_bidi_controls),
		T(test_report__text_colour_marks_severity),
		T(test_report__text_quiet_prints_nothing_when_clean),
		T(test_report__text_never_passes_control_characters),
		T(test_report__json_lists_every_field),
		T(test_report__json_escapes_strings),
		T(test_report__github_annotations),
		T(test_report__github_escapes_data_and_properties),
		T(test_report__github_appends_the_step_summary),
		T(test_report__markdown_escapes_cells),
		T(test_report__markdown_says_when_clean),
		cmocka_unit_test(test_report__markdown_escaper_neutralises_syntax),
		T(test_report__sarif_rules_carry_the_docs),
		T(test_report__sarif_has_rules_results_and_regions),
		T(test_report__sarif_uri_is_percent_encoded),
		T(test_report__junit_suite_per_file_case_per_site),
		T(test_report__junit_passing_site_and_xml_escaping),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
