/*
 * drill_checks.c - what the drill commands check and write beyond the
 * drill itself: the nodes a plan names, the report in its format and its
 * chart, a restore's record, and the verdict of a run.
 */
#include <stdio.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "drill/drill.h"
#include "drill/drill_run.h"
#include "kube/kube.h"

int
drill_plan_nodes_check(struct drill_plan_input *in, struct arena *a, const char **bad,
		       const char **why)
{
	const char **cordoned = arena_alloc(a, (in->node_count + 1) * sizeof(*cordoned));

	for (size_t i = 0; i < in->node_count; i++) {
		struct node *obj = NULL;

		if (kube_get(&obj, in->kube, a, "v1", "Node", NULL, in->nodes[i]) == KUBE_EFAIL)
			return DRILL_NODE_EKUBE;
		*bad = in->nodes[i];
		if (!obj)
			return DRILL_NODE_MISSING;
		*why = drill_node_refusal(a, in->site, obj, in->nodes[i]);
		if (*why)
			return DRILL_NODE_REFUSED;
		if (drill_node_unschedulable(obj))
			cordoned[in->cordoned_count++] = in->nodes[i];
	}
	*bad = NULL;
	in->cordoned = cordoned;
	return 0;
}

int
drill_report_write(struct buf *out, const struct drill_report_input *ri, enum report_format format)
{
	switch (format) {
	case REPORT_JSON: return drill_report_json(out, ri);
	case REPORT_MARKDOWN: return drill_report_markdown(out, ri);
	default: return drill_report_text(out, ri);
	}
}

int
drill_report_svg_file(const char *path, const struct drill_report_input *ri)
{
	struct buf b;
	FILE *f;
	int rc = -1;

	buf_init(&b, 0);
	if (drill_report_svg(&b, ri) < 0)
		goto out;
	f = fopen(path, "w");
	if (!f)
		goto out;
	rc = fwrite(b.data, 1, b.len, f) == b.len ? 0 : -1;
	if (fclose(f))
		rc = -1;
out:
	buf_release(&b);
	return rc;
}

int
drill_run_read_drilled(struct drill_record *out, struct arena *a, struct diags *errors,
		       const char *record, const struct spec_site *site)
{
	if (drill_record_load(a, errors, out, record, site->name) < 0)
		return -1;
	if (out->cluster && site->cluster.name && strcmp(out->cluster, site->cluster.name)) {
		diag_report(errors, (struct pos)POS_NONE, DRILL_RECORD, "",
			    "%s is a record of a drill in cluster %s, not %s: restore it against"
			    " its own cluster (--context)",
			    record, out->cluster, site->cluster.name);
		return -1;
	}
	return 0;
}

int
drill_run_verdict(struct drill_run_result *res, struct arena *a, struct diags *errors,
		  const struct drill_run_opts *dro, const struct drill_record *rec, bool quiet)
{
	const struct spec_site *site = dro->site;

	if (res->outcome == DRILL_OUTCOME_AVAILABLE && !dro->restore) {
		struct drill_budget b;
		struct drill_terms t;

		drill_budget_compute(&b, site, DRILL_NODE_FAILURE);
		drill_terms_compute(a, &t, &b, rec);
		if (t.total_known && t.target && !t.within_target) {
			diag_report(errors, (struct pos)POS_NONE, DRILL_RUN_TARGET, "",
				    "site '%s' recovered in %llds, over its targetRTO "
				    "of %llds: `gpusite drill report %s --record FILE` "
				    "shows which term ran over",
				    site->name, (long long)t.total, (long long)t.target,
				    site->name);
			res->target_missed = true;
		} else if (!quiet) {
			fprintf(dro->err, "gpusite drill run: site '%s' recovered%s%s\n",
				site->name,
				t.total_known ? arena_printf(a, " in %llds", (long long)t.total)
					      : "",
				t.target ? arena_printf(a, ", within its targetRTO of %llds",
							(long long)t.target)
					 : "");
		}
	}
	return res->outcome != DRILL_OUTCOME_AVAILABLE || res->target_missed ? -1 : 0;
}
