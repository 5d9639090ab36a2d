/*
 * test_schema_suite.c - the official JSON-Schema-Test-Suite (draft7) run
 * against the validator: one TAP line per test case, a per-file count,
 * and the total.  Every file of a keyword the validator implements runs,
 * and of optional/ the regular expression files (ECMA-262 patterns and
 * format: regex); every other optional file is a visible SKIP line with
 * its reason.
 *
 * The suite comes from the Debian package json-schema-test-suite
 * (override the place with JSON_SCHEMA_TEST_SUITE=DIR).  refRemote runs
 * offline: http://localhost:1234/ maps to the suite's remotes/ folder.
 *
 * Each case is checked twice: schema_accepts() must give the expected
 * verdict, and schema_validate() must agree with it (0 and no
 * diagnostic when valid, -1 and at least one diagnostic when not).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "json/json.h"
#include "node/node.h"
#include "schema/schema.h"

#define REMOTE_PREFIX "http://localhost:1234/"

static unsigned tap_n;
static unsigned total_pass, total_fail;

/* The files of optional/ that run: what the validator claims. */
static const char *const optional_run[] = {
	"optional/ecmascript-regex.json",
	"optional/format/regex.json",
};

/* Why the other files of optional/ do not run (the first prefix that
 * matches). */
static const struct {
	const char *prefix;
	const char *why;
} optional_skipped[] = {
	{ "optional/bignum.json", "arbitrary-precision numbers are not claimed" },
	{ "optional/content.json", "contentMediaType and contentEncoding are annotations" },
	{ "optional/zeroTerminatedFloats.json", "not claimed" },
	{ "optional/format/", "formats other than regex are annotations" },
	{ "optional/", "not claimed" },
};

static struct node *
load_json(struct arena *a, struct diags *d, const char *path)
{
	struct buf b;
	struct node *n = NULL;

	buf_init(&b, 16u << 20);
	if (buf_read_file(&b, path) == 0)
		n = json_parse(a, d, "TEST", arena_strdup(a, path), b.data, b.len);
	buf_release(&b);
	return n;
}

static const struct node *
resolve_remote(void *payload, struct arena *a, struct diags *d, const char *uri)
{
	const char *remotes = payload;

	if (strncmp(uri, REMOTE_PREFIX, strlen(REMOTE_PREFIX)) != 0 || strstr(uri, ".."))
		return NULL;
	return load_json(a, d, arena_printf(a, "%s/%s", remotes, uri + strlen(REMOTE_PREFIX)));
}

static int
name_cmp(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

static void
print_diags(const struct diags *d)
{
	size_t k;

	for (k = 0; k < d->count; k++)
		printf("#   %s: %s\n", d->items[k].path, d->items[k].msg);
}

/* One test file; returns the number of failed cases. */
static unsigned
run_file(const char *dir, const char *remotes, const char *name)
{
	struct arena a = ARENA_INIT;
	struct diags d;
	const struct node *groups;
	unsigned pass = 0, fail = 0;
	size_t g, t;
	char *path;

	diags_init(&d, &a);
	path = arena_printf(&a, "%s/%s", dir, name);
	groups = load_json(&a, &d, path);
	if (!groups || groups->kind != NODE_SEQ) {
		printf("not ok %u - %s: cannot read the test file\n", ++tap_n, name);
		print_diags(&d);
		arena_release(&a);
		total_fail++;
		return 1;
	}
	for (g = 0; g < groups->seq.count; g++) {
		const struct node *grp = groups->seq.items[g];
		const char *gdesc = node_str(node_map_get(grp, "description"));
		const struct node *tests = node_map_get(grp, "tests");
		struct diags cd;
		struct schema *s;

		diags_init(&cd, &a);
		s = schema_compile_with(&a, &cd, "GS003", node_map_get(grp, "schema"),
					resolve_remote, (void *)remotes);
		for (t = 0; tests && t < tests->seq.count; t++) {
			const struct node *tc = tests->seq.items[t];
			const char *tdesc = node_str(node_map_get(tc, "description"));
			const struct node *data = node_map_get(tc, "data");
			const struct node *want = node_map_get(tc, "valid");
			bool expect = node_is_bool(want) && want->scalar.i;
			bool got = false, consistent = true;
			struct diags vd;
			int rc = 0;

			diags_init(&vd, &a);
			if (s) {
				got = schema_accepts(s, data);
				rc = schema_validate(s, &a, &vd, "GS003", data);
				consistent =
					got ? (rc == 0 && vd.count == 0) : (rc < 0 && vd.count > 0);
			}
			if (s && got == expect && consistent) {
				pass++;
				printf("ok %u - %s: %s / %s\n", ++tap_n, name, gdesc, tdesc);
				continue;
			}
			fail++;
			printf("not ok %u - %s: %s / %s\n", ++tap_n, name, gdesc, tdesc);
			if (!s) {
				printf("#   the schema did not compile:\n");
				print_diags(&cd);
			} else if (got != expect) {
				printf("#   expected %s, got %s\n", expect ? "valid" : "invalid",
				       got ? "valid" : "invalid");
				print_diags(&vd);
			} else {
				printf("#   schema_validate() returned %d with %zu diagnostics,"
				       " disagreeing with schema_accepts()\n",
				       rc, vd.count);
				print_diags(&vd);
			}
		}
	}
	printf("# %s: %u/%u passed\n", name, pass, pass + fail);
	total_pass += pass;
	total_fail += fail;
	arena_release(&a);
	return fail;
}

static bool
optional_runs(const char *name)
{
	size_t k;

	for (k = 0; k < sizeof(optional_run) / sizeof(optional_run[0]); k++)
		if (strcmp(name, optional_run[k]) == 0)
			return true;
	return false;
}

/* The .json files of dir/sub (sorted, "sub/name.json"), appended to
 * *names; then those of its folders. */
static void
list_optional(const char *dir, const char *sub, char ***names, size_t *n)
{
	char path[8400];
	struct dirent *e;
	DIR *dh;

	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	dh = opendir(path);
	if (!dh)
		return;
	while ((e = readdir(dh))) {
		char child[4200];
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		snprintf(child, sizeof(child), "%s/%s", sub, e->d_name);
		snprintf(path, sizeof(path), "%s/%s", dir, child);
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
			list_optional(dir, child, names, n);
			continue;
		}
		if (strlen(e->d_name) < 6 || strcmp(e->d_name + strlen(e->d_name) - 5, ".json"))
			continue;
		*names = realloc(*names, (*n + 1) * sizeof(**names));
		if (!*names)
			exit(3);
		(*names)[(*n)++] = strdup(child);
	}
	closedir(dh);
}

/* optional/: the files in optional_run run, each other one is a SKIP
 * line with its reason.  Returns the number of files run. */
static size_t
run_optional(const char *dir, const char *remotes)
{
	char **names = NULL;
	size_t n = 0, k, j, ran = 0;

	list_optional(dir, "optional", &names, &n);
	qsort(names, n, sizeof(*names), name_cmp);
	for (k = 0; k < n; k++) {
		if (optional_runs(names[k])) {
			run_file(dir, remotes, names[k]);
			ran++;
		} else {
			for (j = 0; strncmp(names[k], optional_skipped[j].prefix,
					    strlen(optional_skipped[j].prefix));
			     j++)
				;
			printf("ok %u - draft7/%s # SKIP %s\n", ++tap_n, names[k],
			       optional_skipped[j].why);
		}
		free(names[k]);
	}
	free(names);
	if (ran < sizeof(optional_run) / sizeof(optional_run[0])) {
		/* the suite's layout changed: say so, never pass silently */
		printf("not ok %u - draft7/optional: %zu of the %zu regular expression files "
		       "found\n",
		       ++tap_n, ran, sizeof(optional_run) / sizeof(optional_run[0]));
		total_fail++;
	}
	return ran;
}

int
main(void)
{
	const char *root = getenv("JSON_SCHEMA_TEST_SUITE");
	char dir[4096], remotes[4096];
	char **names = NULL;
	size_t nnames = 0, k, files = 0;
	struct dirent *e;
	DIR *dh;

	if (!root || !*root)
		root = "/usr/share/json-schema-test-suite";
	snprintf(dir, sizeof(dir), "%s/tests/draft7", root);
	snprintf(remotes, sizeof(remotes), "%s/remotes", root);
	dh = opendir(dir);
	if (!dh) {
		printf("ok 1 - JSON-Schema-Test-Suite draft7 # SKIP %s not found "
		       "(Debian package json-schema-test-suite; make deps installs it)\n",
		       dir);
		printf("1..1\n");
		return 0;
	}
	while ((e = readdir(dh))) {
		size_t len = strlen(e->d_name);

		if (len < 6 || strcmp(e->d_name + len - 5, ".json") != 0)
			continue;
		names = realloc(names, (nnames + 1) * sizeof(*names));
		if (!names)
			return 3;
		names[nnames++] = strdup(e->d_name);
	}
	closedir(dh);
	qsort(names, nnames, sizeof(*names), name_cmp);
	if (nnames == 0) {
		printf("not ok 1 - no draft7 test files under %s\n1..1\n", dir);
		return 1;
	}
	for (k = 0; k < nnames; k++) {
		run_file(dir, remotes, names[k]);
		files++;
		free(names[k]);
	}
	free(names);
	files += run_optional(dir, remotes);
	printf("# JSON-Schema-Test-Suite draft7: %u/%u cases passed in %zu files\n", total_pass,
	       total_pass + total_fail, files);
	printf("1..%u\n", tap_n);
	return total_fail ? 1 : 0;
}
