/*
 * schema_check.c - the schema verdict of the library, per document, for
 * the ajv cross-check and the schema golden cases (tests/e2e/t11xx).
 *
 *   schema-check verdict FILE...  one line per document:
 *                                 FILE<TAB>INDEX<TAB>valid|invalid, or
 *                                 FILE<TAB>-<TAB>unparsed<TAB>WHY when the
 *                                 YAML loader refuses the file (GS001/GS002)
 *   schema-check diags FILE...    every schema diagnostic (GS003) as
 *                                 FILE:LINE:COL: PATH: MESSAGE
 *
 * Exit 0 when it could do the job (whatever the verdicts), 2 on usage
 * errors, 3 when a file cannot be read.
 */
#include <stdio.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "schema/schema.h"
#include "yamlio/yamlio.h"

static int
check_file(const char *path, bool verdict)
{
	struct arena a = ARENA_INIT;
	struct diags d;
	struct yamlio_docs docs = { NULL, 0 };
	const struct schema *s;
	struct buf b;
	size_t k;
	int rc = 0;

	diags_init(&d, &a);
	buf_init(&b, YAMLIO_MAX_BYTES);
	if (buf_read_file(&b, path) != 0) {
		fprintf(stderr, "schema-check: cannot read '%s'\n", path);
		rc = 3;
		goto out;
	}
	s = schema_gpusite(&a, &d);
	if (!s) {
		fprintf(stderr, "schema-check: the built-in schema does not compile\n");
		rc = 3;
		goto out;
	}
	if (yamlio_load(&docs, &a, &d, arena_strdup(&a, path), b.data, b.len,
			&yamlio_default_limits) != 0) {
		if (verdict)
			printf("%s\t-\tunparsed\t%s\n", path,
			       d.count ? d.items[0].msg : "load failed");
		goto out;
	}
	for (k = 0; k < docs.count; k++) {
		size_t before = d.count, j;
		int v = schema_validate(s, &a, &d, "GS003", docs.docs[k]);

		if (verdict) {
			printf("%s\t%zu\t%s\n", path, k, v == 0 ? "valid" : "invalid");
			continue;
		}
		for (j = before; j < d.count; j++)
			printf("%s:%u:%u: %s: %s\n", path, d.items[j].at.line, d.items[j].at.col,
			       d.items[j].path, d.items[j].msg);
	}
out:
	buf_release(&b);
	arena_release(&a);
	return rc;
}

int
main(int argc, char **argv)
{
	bool verdict;
	int k, rc = 0;

	if (argc < 3 || (strcmp(argv[1], "verdict") && strcmp(argv[1], "diags"))) {
		fprintf(stderr, "usage: schema-check verdict|diags FILE...\n");
		return 2;
	}
	verdict = strcmp(argv[1], "verdict") == 0;
	for (k = 2; k < argc; k++) {
		int r = check_file(argv[k], verdict);

		if (r)
			rc = r;
	}
	if (fflush(stdout) || ferror(stdout))
		return 3;
	return rc;
}
