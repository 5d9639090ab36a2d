/*
 * report_sarif.c - SARIF 2.1.0 (one run; tool.driver.rules holds one
 * entry per rule ID that occurs, described from the rules catalogue and the
 * table of docs/rules.md (fullDescription, help, helpUri); results point at artifact URIs with
 * region.startLine/startColumn, in Unicode code points as libyaml counts).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/findings.h"
#include "node/node.h"
#include "report/report_int.h"

#ifndef GPUSITE_VERSION
#define GPUSITE_VERSION "0.0.0"
#endif

#ifndef GPUSITE_REPO_URL
#define GPUSITE_REPO_URL "https://github.com/example-org/gpusite"
#endif

#define SARIF_SCHEMA                                                                               \
	"https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/"                      \
	"sarif-schema-2.1.0.json"
/* The project's repository (mk/docs.mk sets it at build time), and the
 * rules' documentation at this version's tag there. */
#define SARIF_INFO_URI GPUSITE_REPO_URL
#define SARIF_RULES_URI GPUSITE_REPO_URL "/blob/v" GPUSITE_VERSION "/docs/rules.md"

/* docs/rules.md, built in (mk/docs.mk): each rule's meaning and "how to
 * fix" come from its table, the one place that text is written. */
extern const char docs_rules_md[];
extern const size_t docs_rules_md_len;

struct rule_doc {
	const char *meaning, *fix; /* cells of the table, NUL-terminated copies */
};

/* The row "| GS041 | error | meaning | fix |" of the catalogue table. */
static int
rule_doc_find(struct rule_doc *out, struct arena *a, const char *id)
{
	const char *begin = strstr(docs_rules_md, "<!-- catalogue: begin -->");
	const char *p, *end;
	char key[32], *line, *cells[4];
	size_t n = 0, len;

	out->meaning = out->fix = NULL;
	if (!begin || snprintf(key, sizeof(key), "\n| %s | ", id) >= (int)sizeof(key) ||
	    !(p = strstr(begin, key)))
		return -1;
	p++;
	end = strchr(p, '\n');
	len = end ? (size_t)(end - p) : strlen(p);
	line = arena_strndup(a, p, len);
	if (len < 4 || strcmp(line + len - 2, " |"))
		return -1;
	line[len - 2] = '\0';
	for (char *c = line + 2; n < 4; n++) {
		char *bar = strstr(c, " | ");

		cells[n] = c;
		if (!bar)
			break;
		*bar = '\0';
		c = bar + 3;
	}
	if (n != 3) /* the loop stops at the 4th cell, n == 3 */
		return -1;
	out->meaning = cells[2];
	out->fix = cells[3];
	/* the anchor that starts the fix cell is for the page, not the text */
	if (!strncmp(out->fix, "<a id=\"", 7)) {
		const char *close = strstr(out->fix, "</a>");

		if (close)
			out->fix = close + 4;
	}
	return *out->fix ? 0 : -1;
}

/* Markdown of the docs -> plain text: `code` and **bold** marks dropped,
 * [text](link) kept as its text. */
static const char *
md_plain(struct arena *a, const char *md)
{
	size_t n = strlen(md), k = 0;
	char *out = arena_alloc(a, n + 1);

	for (size_t i = 0; i < n; i++) {
		if (md[i] == '`' || (md[i] == '*' && md[i + 1] == '*')) {
			if (md[i] == '*')
				i++;
			continue;
		}
		if (md[i] == '[') {
			const char *close = strstr(md + i, "](");
			const char *paren = close ? strchr(close, ')') : NULL;

			if (close && paren) {
				memcpy(out + k, md + i + 1, (size_t)(close - md - i - 1));
				k += (size_t)(close - md - i - 1);
				i = (size_t)(paren - md);
				continue;
			}
		}
		out[k++] = md[i];
	}
	out[k] = '\0';
	return out;
}

/* "gs041": the anchor docs/rules.md gives each row (mk/rules-anchors.awk) */
static const char *
rule_anchor(struct arena *a, const char *id)
{
	char *s = arena_strdup(a, id);

	for (char *p = s; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	return s;
}

static const char *
sarif_level(enum diag_level level)
{
	switch (level) {
	case DIAG_ERROR: return "error";
	case DIAG_WARNING: return "warning";
	default: return "note";
	}
}

/* A path as a URI reference: bytes outside RFC 3986's unreserved set and
 * '/' percent-encoded; absolute paths become file:// URIs. */
static char *
path_uri(struct arena *a, const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t n = strlen(path);
	char *out = arena_alloc(a, n * 3 + sizeof("file://"));
	char *p = out;

	if (path[0] == '/') {
		memcpy(p, "file://", 7);
		p += 7;
	}
	for (const unsigned char *s = (const unsigned char *)path; *s; s++) {
		if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || strchr("-._~/", *s)) {
			*p++ = (char)*s;
		} else {
			*p++ = '%';
			*p++ = hex[*s >> 4];
			*p++ = hex[*s & 15];
		}
	}
	*p = '\0';
	return out;
}

static int
cmp_str(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* The distinct non-empty rule IDs of the report, sorted. */
static const char **
rule_ids(struct arena *a, const struct report_input *in, size_t *count)
{
	size_t n = in->diags ? in->diags->count : 0, k = 0;
	const char **ids = arena_alloc(a, (n + 1) * sizeof(*ids));

	for (size_t i = 0; i < n; i++) {
		const char *r = in->diags->items[i].rule;

		if (r && *r)
			ids[k++] = r;
	}
	qsort(ids, k, sizeof(*ids), cmp_str);
	*count = 0;
	for (size_t i = 0; i < k; i++)
		if (*count == 0 || strcmp(ids[*count - 1], ids[i]))
			ids[(*count)++] = ids[i];
	return ids;
}

static struct node *
text_obj(struct arena *a, const char *text)
{
	struct pos none = POS_NONE;
	struct node *o = node_new_map(a, none);

	node_map_add_str(a, o, "text", text);
	return o;
}

int
report_write_sarif(FILE *out, const struct report_input *in)
{
	struct arena a = ARENA_INIT;
	struct pos none = POS_NONE;
	struct node *root, *runs, *run, *tool, *driver, *rules, *results;
	const char **ids;
	size_t nids, n = in->diags ? in->diags->count : 0;
	int ret;

	arena_init(&a);
	root = node_new_map(&a, none);
	node_map_add_str(&a, root, "$schema", SARIF_SCHEMA);
	node_map_add_str(&a, root, "version", "2.1.0");
	runs = node_map_add(&a, root, "runs", node_new_seq(&a, none));
	run = node_new_map(&a, none);
	node_seq_push(&a, runs, run);
	tool = node_map_add(&a, run, "tool", node_new_map(&a, none));
	driver = node_map_add(&a, tool, "driver", node_new_map(&a, none));
	node_map_add_str(&a, driver, "name", "gpusite");
	node_map_add_str(&a, driver, "version", GPUSITE_VERSION);
	node_map_add_str(&a, driver, "informationUri", SARIF_INFO_URI);
	rules = node_map_add(&a, driver, "rules", node_new_seq(&a, none));
	ids = rule_ids(&a, in, &nids);
	for (size_t i = 0; i < nids; i++) {
		const struct finding *r = findings_find(ids[i]);
		struct node *o = node_new_map(&a, none), *conf;

		struct rule_doc doc;
		const char *summary = r ? r->summary : arena_printf(&a, "gpusite rule %s", ids[i]);

		node_map_add_str(&a, o, "id", ids[i]);
		node_map_add(&a, o, "shortDescription", text_obj(&a, summary));
		if (rule_doc_find(&doc, &a, ids[i]) == 0) {
			const char *uri =
				arena_printf(&a, "%s#%s", SARIF_RULES_URI, rule_anchor(&a, ids[i]));
			struct node *help;

			node_map_add(
				&a, o, "fullDescription",
				text_obj(&a, arena_printf(&a, "%s. %s", md_plain(&a, doc.meaning),
							  md_plain(&a, doc.fix))));
			node_map_add_str(&a, o, "helpUri", uri);
			help = node_map_add(&a, o, "help", text_obj(&a, md_plain(&a, doc.fix)));
			node_map_add_str(&a, help, "markdown",
					 arena_printf(&a,
						      "**%s** (%s): %s\n\n**How to fix:** %s\n\n"
						      "[%s in docs/rules.md](%s)",
						      ids[i],
						      diag_level_name(r ? r->level : DIAG_ERROR),
						      doc.meaning, doc.fix, ids[i], uri));
		}
		conf = node_map_add(&a, o, "defaultConfiguration", node_new_map(&a, none));
		node_map_add_str(&a, conf, "level", sarif_level(r ? r->level : DIAG_ERROR));
		node_seq_push(&a, rules, o);
	}
	node_map_add_str(&a, run, "columnKind", "unicodeCodePoints");
	results = node_map_add(&a, run, "results", node_new_seq(&a, none));
	for (size_t i = 0; i < n; i++) {
		const struct diag *d = &in->diags->items[i];
		struct node *res = node_new_map(&a, none);

		if (d->rule && *d->rule) {
			node_map_add_str(&a, res, "ruleId", d->rule);
			for (size_t j = 0; j < nids; j++)
				if (!strcmp(ids[j], d->rule))
					node_map_add_int(&a, res, "ruleIndex", (int64_t)j);
		}
		node_map_add_str(&a, res, "level", sarif_level(d->level));
		node_map_add(&a, res, "message", text_obj(&a, d->msg ? d->msg : ""));
		if (d->at.file && *d->at.file) {
			struct node *locs, *loc, *phys, *art;

			locs = node_map_add(&a, res, "locations", node_new_seq(&a, none));
			loc = node_new_map(&a, none);
			node_seq_push(&a, locs, loc);
			phys = node_map_add(&a, loc, "physicalLocation", node_new_map(&a, none));
			art = node_map_add(&a, phys, "artifactLocation", node_new_map(&a, none));
			node_map_add_str(&a, art, "uri", path_uri(&a, d->at.file));
			if (d->at.line) {
				struct node *reg =
					node_map_add(&a, phys, "region", node_new_map(&a, none));

				node_map_add_int(&a, reg, "startLine", d->at.line);
				if (d->at.col)
					node_map_add_int(&a, reg, "startColumn", d->at.col);
			}
		}
		if (d->path && *d->path) {
			struct node *props =
				node_map_add(&a, res, "properties", node_new_map(&a, none));

			node_map_add_str(&a, props, "path", d->path);
		}
		node_seq_push(&a, results, res);
	}
	ret = report_put_json(out, root);
	arena_release(&a);
	return ret;
}
