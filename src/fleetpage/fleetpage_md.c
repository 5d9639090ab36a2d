/*
 * fleetpage_md.c - `gpusite report --format markdown`: the page's tables
 * for a wiki or a pull-request comment (GitHub-flavoured tables; the
 * charts are the recovery table's figures).  Outside strings are escaped
 * (fp_text): no cell, link, emphasis or HTML comes from a spec.
 */
#include "base/arena.h"
#include "fleetpage/fleetpage_int.h"

/* "| NAME |" opening a row */
static void
row_name(struct fp_out *o, const char *name)
{
	fp_put(o, "| ");
	fp_text(o, name);
	fp_put(o, " |");
}

static void
whatif(struct fp_out *o, const struct fleetpage *fp)
{
	size_t w = 0;

	fp_put(o, "\n## What if sites fail together\n\n");
	fp_whatif_intro(o, fp);
	for (size_t c = 0; c < fp->cluster_count; c++) {
		fp_put(o, "\n### Cluster ");
		fp_text(o, fp->clusters[c].name);
		fp_put(o, "\n\n");
		fp_head_row(o, fp_whatif_cols, FP_WHATIF_COLS);
		for (; w < fp->whatif_count && fp->whatifs[w].cluster == c; w++) {
			fp_put(o, "| ");
			fp_set_names(o, fp, &fp->whatifs[w]);
			fp_put(o, " |");
			fp_whatif_cells(o, fp, &fp->whatifs[w]);
			fp_put(o, "\n");
		}
	}
}

int
fleetpage_markdown(struct buf *out, struct arena *a, const struct fleetpage *fp)
{
	struct fp_out o = { out, a, false, 0 };
	int64_t gpus = 0;

	for (size_t i = 0; i < fp->cluster_count; i++)
		gpus += fp->clusters[i].onprem_gpus;
	fp_put(&o, "# GPU fleet\n\n%zu cluster%s, %zu site%s, %lld on-prem GPUs.\n\n",
	       fp->cluster_count, fp->cluster_count == 1 ? "" : "s", fp->site_count,
	       fp->site_count == 1 ? "" : "s", (long long)gpus);
	if (fp->made_at) {
		fp_made(&o, fp);
		fp_put(&o, "\n\n");
	}
	fp_put(&o, "## Fleet summary\n\n");
	fp_head_row(&o, fp_summary_cols, FP_SUMMARY_COLS);
	for (size_t i = 0; i < fp->cluster_count; i++) {
		row_name(&o, fp->clusters[i].name);
		fp_summary_cells(&o, fp, &fp->clusters[i]);
		fp_put(&o, "\n");
	}
	fp_put(&o, "\n## Recovery\n\nThe RTO budget of each site term by term (budget /"
		   " measured in the last drill, when a drill record is given).\n\n");
	fp_head_row(&o, fp_recovery_cols, FP_RECOVERY_COLS);
	for (size_t i = 0; i < fp->site_count; i++) {
		row_name(&o, fp->sites[i].spec->name);
		fp_recovery_cells(&o, &fp->sites[i]);
		fp_put(&o, "\n");
	}
	whatif(&o, fp);
	fp_put(&o, "\n## Fallback at its limit\n\n");
	fp_head_row(&o, fp_fallback_cols, FP_FALLBACK_COLS);
	for (size_t i = 0; i < fp->site_count; i++) {
		row_name(&o, fp->sites[i].spec->name);
		fp_fallback_cells(&o, &fp->sites[i]);
		fp_put(&o, "\n");
	}
	if (fp->live) {
		const struct fp_live *l = &fp->live_fleet;

		fp_put(&o, "\n## Live: drift and fallback\n\n");
		fp_live_intro(&o, fp);
		fp_head_row(&o, fp_live_cols, FP_LIVE_COLS);
		for (size_t i = 0; i < fp->site_count; i++) {
			row_name(&o, fp->sites[i].spec->name);
			fp_live_cells(&o, &fp->sites[i].live);
			fp_put(&o, "\n");
		}
		if (l->errors || l->warnings || l->notes || l->fallback_active) {
			row_name(&o, "(no site's file)");
			fp_live_cells(&o, l);
			fp_put(&o, "\n");
		}
	}
	return o.rc ? BUF_ETOOBIG : 0;
}
