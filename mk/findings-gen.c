/*
 * findings-gen.c - findings-gen TOP OUT: regenerate, from the table of
 * findings (src/base/findings.c), every findings table of the documents
 * of TOP and write them as OUT/docs/rules.md and OUT/README.md; the text
 * outside the generated sections is copied as it is.  `make
 * docs-rules-update` copies them back; t1144 compares them with the tree
 * byte for byte, so a stale table fails the tests.
 *
 * The sections, each between "<!-- NAME: begin -->" and
 * "<!-- NAME: end -->" lines:
 *   docs/rules.md  sources    which part of gpusite reports which IDs
 *   docs/rules.md  catalogue  ID, severity, what it means, how to fix
 *                             (the "how to fix" cells are kept, each
 *                             written one given its anchor, <a id="gs041">)
 *   README.md      findings: drift  the drift findings (rule, level, finding)
 * The --help lists are not files: the commands print them from the same
 * table (report/report_findings.h).
 *
 * Exit 0 written, 1 a document lacks a section, 2 usage, 3 a file could
 * not be read or written.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/diag.h"
#include "base/findings.h"

#define MAX_DOC (4u << 20) /* a document larger than this is refused */

/* Who reports the IDs of each source, in the words of docs/rules.md. */
static const char *const source_text[FINDING_SOURCES] = {
	[FINDING_READ] = "reading the specs: YAML, schema, the file walk, the repository, "
			 "documents that are not site specs, files with no document (`validate`, "
			 "and every command that reads specs)",
	[FINDING_RULE] = "the rules over the site specs (`src/rules/`, one file per rule or "
			 "family)",
	[FINDING_PLUGIN] = "the Argo CD plugin: `gpusite generate` and `gpusite parameters`",
	[FINDING_CHECK] = "the upstream checks of rendered objects (`gpusite validate "
			  "--rendered`)",
	[FINDING_SCOPE] = "`gpusite verify-scope`",
	[FINDING_RENDER] = "`gpusite render` (and `generate`, `explain`, `diff`)",
	[FINDING_DRIFT] = "`gpusite drift` against the live cluster",
	[FINDING_DRILL_RUN] = "`gpusite drill run`",
	[FINDING_DRILL_PLAN] = "`gpusite drill plan`",
	[FINDING_DRILL_REPORT] = "`gpusite drill report`",
	[FINDING_KUBE] = "every command that reads the live cluster",
};

/*
 * Whether row i+1 continues a range that row i is in: the same source and
 * the same hundred, and for GS1xx and GS2xx (numbered one by one) the next
 * number; GS0xx go by families of ten with gaps between.
 */
static int
continues(size_t i)
{
	const struct finding *a = &findings_table[i], *b = &findings_table[i + 1];
	long x = strtol(a->id + 2, NULL, 10), y = strtol(b->id + 2, NULL, 10);

	return a->source == b->source && x / 100 == y / 100 && (x < 100 || y == x + 1);
}

/* The IDs of `s` as ranges: "GS001–GS003, GS006, GS126–GS127". */
static void
put_ranges(FILE *f, enum finding_source s)
{
	const char *sep = "";

	for (size_t i = 0; i < findings_count; i++) {
		size_t j = i;

		if (findings_table[i].source != s)
			continue;
		while (j + 1 < findings_count && continues(j))
			j++;
		if (j == i)
			fprintf(f, "%s%s", sep, findings_table[i].id);
		else
			fprintf(f, "%s%s\u2013%s", sep, findings_table[i].id, findings_table[j].id);
		sep = ", ";
		i = j;
	}
}

static void
gen_sources(FILE *f, const char *old, size_t old_len)
{
	(void)old;
	(void)old_len;
	fputs("| IDs | reported by |\n|---|---|\n", f);
	for (int s = 0; s < FINDING_SOURCES; s++) {
		fputs("| ", f);
		put_ranges(f, (enum finding_source)s);
		fprintf(f, " | %s |\n", source_text[s]);
	}
}

/* The "how to fix" cell of `id` in the old table (its length in *len),
 * or NULL. */
static const char *
old_fix(const char *old, size_t old_len, const char *id, size_t *len)
{
	const char *end = old + old_len;

	for (const char *line = old; line < end;) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		const char *stop = nl ? nl : end;
		const char *cell = line;
		int bars = 0;

		if (stop - line > 9 && !strncmp(line, "| ", 2) && !strncmp(line + 2, id, 5) &&
		    !strncmp(line + 7, " | ", 3)) {
			/* the fourth cell: after the third " | ", before the final " |" */
			for (cell = line + 2; cell < stop && bars < 3; cell++)
				if (!strncmp(cell, " | ", 3)) {
					bars++;
					cell += 2;
				}
			if (bars == 3 && stop - cell >= 2 && !strncmp(stop - 2, " |", 2)) {
				*len = (size_t)(stop - 2 - cell);
				return cell;
			}
		}
		line = nl ? nl + 1 : end;
	}
	return NULL;
}

static void
gen_catalogue(FILE *f, const char *old, size_t old_len)
{
	fputs("| ID | severity | what it means | how to fix |\n|---|---|---|---|\n", f);
	for (size_t i = 0; i < findings_count; i++) {
		const struct finding *r = &findings_table[i];
		size_t len = 0;
		const char *fix = old_fix(old, old_len, r->id, &len);

		fprintf(f, "| %s | %s | %s | ", r->id, diag_level_name(r->level), r->summary);
		if (fix && len && strncmp(fix, "<a id=\"", 7))
			fprintf(f, "<a id=\"gs%s\"></a>", r->id + 2);
		fprintf(f, "%.*s |\n", (int)len, fix ? fix : "");
	}
}

static void
gen_drift(FILE *f, const char *old, size_t old_len)
{
	(void)old;
	(void)old_len;
	fputs("| rule | level | finding |\n|---|---|---|\n", f);
	for (size_t i = 0; i < findings_count; i++)
		if (findings_table[i].source == FINDING_DRIFT)
			fprintf(f, "| %s | %s | %s |\n", findings_table[i].id,
				diag_level_name(findings_table[i].level), findings_table[i].summary);
}

struct section {
	const char *doc; /* relative to TOP and OUT */
	const char *name;
	void (*gen)(FILE *f, const char *old, size_t old_len);
};

static const struct section sections[] = {
	{ "docs/rules.md", "sources", gen_sources },
	{ "docs/rules.md", "catalogue", gen_catalogue },
	{ "README.md", "findings: drift", gen_drift },
};
#define N_SECTIONS (sizeof(sections) / sizeof(sections[0]))

static char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *s = f ? malloc(MAX_DOC + 1) : NULL;

	if (!s) {
		if (f)
			fclose(f);
		return NULL;
	}
	*len = fread(s, 1, MAX_DOC + 1, f);
	if (ferror(f) || *len > MAX_DOC) {
		fclose(f);
		free(s);
		errno = EFBIG;
		return NULL;
	}
	fclose(f);
	s[*len] = '\0';
	return s;
}

/* The line "<!-- NAME: begin -->" (or end) at a line start, or NULL. */
static const char *
marker(const char *text, const char *name, const char *which)
{
	char want[128];

	snprintf(want, sizeof(want), "<!-- %s: %s -->\n", name, which);
	for (const char *p = strstr(text, want); p; p = strstr(p + 1, want))
		if (p == text || p[-1] == '\n')
			return p;
	return NULL;
}

/* Write `doc` of TOP to OUT with each of its sections regenerated. */
static int
gen_doc(const char *top, const char *out, const char *doc)
{
	char in_path[4096], out_path[4096];
	size_t len = 0;
	char *text;
	const char *at;
	FILE *f;
	int rc = 0;

	snprintf(in_path, sizeof(in_path), "%s/%s", top, doc);
	snprintf(out_path, sizeof(out_path), "%s/%s", out, doc);
	if (!(text = slurp(in_path, &len))) {
		fprintf(stderr, "findings-gen: cannot read %s: %s\n", in_path, strerror(errno));
		return 3;
	}
	if (!(f = fopen(out_path, "wb"))) {
		fprintf(stderr, "findings-gen: cannot write %s: %s\n", out_path, strerror(errno));
		free(text);
		return 3;
	}
	at = text;
	for (size_t i = 0; i < N_SECTIONS && !rc; i++) {
		const char *begin, *end;

		if (strcmp(sections[i].doc, doc))
			continue;
		begin = marker(at, sections[i].name, "begin");
		end = begin ? marker(begin, sections[i].name, "end") : NULL;
		if (!end) {
			fprintf(stderr,
				"findings-gen: %s has no section between '<!-- %s: begin -->' and "
				"'<!-- %s: end -->' lines (in this order, after the sections before "
				"it): put them where the table goes\n",
				in_path, sections[i].name, sections[i].name);
			rc = 1;
			break;
		}
		begin = strchr(begin, '\n') + 1;
		fwrite(at, 1, (size_t)(begin - at), f);
		sections[i].gen(f, begin, (size_t)(end - begin));
		at = end;
	}
	fputs(at, f);
	if (fclose(f) != 0 && !rc) {
		fprintf(stderr, "findings-gen: cannot write %s: %s\n", out_path, strerror(errno));
		rc = 3;
	}
	free(text);
	return rc;
}

int
main(int argc, char **argv)
{
	char dir[4096];
	int rc;

	if (argc != 3) {
		fputs("usage: findings-gen TOP OUT\n", stderr);
		return 2;
	}
	snprintf(dir, sizeof(dir), "%s/docs", argv[2]);
	if ((mkdir(argv[2], 0777) < 0 && errno != EEXIST) || (mkdir(dir, 0777) < 0 && errno != EEXIST)) {
		fprintf(stderr, "findings-gen: cannot make %s: %s\n", dir, strerror(errno));
		return 3;
	}
	rc = gen_doc(argv[1], argv[2], "docs/rules.md");
	if (!rc)
		rc = gen_doc(argv[1], argv[2], "README.md");
	return rc;
}
