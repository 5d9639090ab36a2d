/*
 * fleetpage_live.c - the page's live section from `gpusite drift --format
 * json` output (--drift-json FILE): per site the drift findings, and
 * whether its fallback is active (GS213).  A finding belongs to the site
 * whose spec file it names (the same path, or one a suffix of the other:
 * drift may have been run from another directory); others are counted as
 * the fleet's.  The file is bounded (16 MiB, at most FLEETPAGE_LIVE_MAX
 * findings kept per site) and every string from it is escaped on output
 * like the spec's.
 */
#include <errno.h>
#include <string.h>

#include "base/arena.h"
#include "fleetpage/fleetpage.h"
#include "json/json.h"
#include "live/drift.h"

#define DRIFT_JSON_MAX (16u * 1024 * 1024)

static bool
suffix_of(const char *longer, const char *shorter)
{
	size_t l = strlen(longer), s = strlen(shorter);

	return s && l > s && longer[l - s - 1] == '/' && !strcmp(longer + l - s, shorter);
}

static struct fp_site *
site_of_file(struct fleetpage *fp, const char *file)
{
	for (size_t i = 0; i < fp->site_count; i++) {
		const char *f = fp->sites[i].spec->file;

		if (f && (!strcmp(f, file) || suffix_of(f, file) || suffix_of(file, f)))
			return &fp->sites[i];
	}
	return NULL;
}

static void
live_add(struct arena *a, struct fp_live *l, const char *severity, const char *rule,
	 const char *msg)
{
	if (!strcmp(rule, DRIFT_FALLBACK_ACTIVE)) {
		l->fallback_active = true;
		l->fallback_note = msg;
		return;
	}
	if (!strcmp(severity, "error"))
		l->errors++;
	else if (!strcmp(severity, "warning"))
		l->warnings++;
	else
		l->notes++;
	if (l->count < FLEETPAGE_LIVE_MAX) {
		size_t alloc = l->count;

		ARENA_GROW(a, l->findings, l->count, alloc, 4);
		l->findings[l->count++] = arena_printf(a, "%s %s: %s", severity, rule, msg);
	}
}

int
fleetpage_read_drift(struct fleetpage *fp, struct arena *a, const char *path, const char **why)
{
	struct buf b;
	struct diags d;
	const struct node *root, *list;
	int rc;

	buf_init(&b, DRIFT_JSON_MAX);
	rc = buf_read_file(&b, path);
	if (rc < 0) {
		*why = rc == BUF_ETOOBIG ? "over the 16 MiB a drift report may have"
		       : errno == EISDIR ? "a directory"
		       : errno == EINVAL ? "not a regular file"
					 : "no such file, or not readable";
		buf_release(&b);
		return -1;
	}
	diags_init(&d, a);
	root = json_parse(a, &d, "GS001", path, b.data, b.len);
	buf_release(&b);
	list = root ? node_map_get(root, "diagnostics") : NULL;
	if (!list || list->kind != NODE_SEQ) {
		*why = "not the output of gpusite drift --format json (no diagnostics list)";
		return -1;
	}
	fp->live = true;
	fp->live_file = path;
	for (size_t i = 0; i < list->seq.count; i++) {
		const struct node *o = list->seq.items[i];
		const char *file = node_str(node_map_get(o, "file"));
		const char *sev = node_str(node_map_get(o, "severity"));
		const char *rule = node_str(node_map_get(o, "rule"));
		const char *msg = node_str(node_map_get(o, "message"));
		struct fp_site *s;

		if (!sev || !rule || !msg) {
			*why = "a diagnostic without severity, rule or message";
			return -1;
		}
		if (strcmp(sev, "error") && strcmp(sev, "warning") && strcmp(sev, "note")) {
			/* the value is not echoed: it is outside text */
			*why = arena_printf(a,
					    "diagnostic %zu has an unknown severity (gpusite"
					    " drift writes error, warning or note)",
					    i + 1);
			return -1;
		}
		s = file ? site_of_file(fp, file) : NULL;
		live_add(a, s ? &s->live : &fp->live_fleet, sev, rule, msg);
	}
	return 0;
}
