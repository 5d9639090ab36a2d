/*
 * report_sarif.c - SARIF 2.1.0 (one run; tool.driver.rules holds one
 * entry per rule ID that occurs, described from the rules catalogue; results point at artifact URIs with
 * region.startLine/startColumn, in Unicode code points as libyaml counts).
 */
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "node/node.h"
#include "report/report_int.h"
#include "rules/rules.h"

#ifndef GPUSITE_VERSION
#define GPUSITE_VERSION "0.0.0"
#endif

#define SARIF_SCHEMA "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
#define SARIF_INFO_URI "https://gpusite.io"

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
	struct pos none = { NULL, 0, 0 };
	struct node *o = node_new_map(a, none);

	node_map_add_str(a, o, "text", text);
	return o;
}

int
report_write_sarif(FILE *out, const struct report_input *in)
{
	struct arena a = ARENA_INIT;
	struct pos none = { NULL, 0, 0 };
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
		const struct rule *r = rules_find(ids[i]);
		struct node *o = node_new_map(&a, none), *conf;

		node_map_add_str(&a, o, "id", ids[i]);
		node_map_add(&a, o, "shortDescription",
			     text_obj(&a, r ? r->summary
					    : arena_printf(&a, "gpusite rule %s", ids[i])));
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
				struct node *reg = node_map_add(&a, phys, "region",
								node_new_map(&a, none));

				node_map_add_int(&a, reg, "startLine", d->at.line);
				if (d->at.col)
					node_map_add_int(&a, reg, "startColumn", d->at.col);
			}
		}
		if (d->path && *d->path) {
			struct node *props = node_map_add(&a, res, "properties",
							  node_new_map(&a, none));

			node_map_add_str(&a, props, "path", d->path);
		}
		node_seq_push(&a, results, res);
	}
	ret = report_put_json(out, root);
	arena_release(&a);
	return ret;
}
