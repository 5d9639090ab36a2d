/*
 * fleetpage_html.c - `gpusite report --format html`: one self-contained
 * page (no script, no external asset, no request), inline SVG with a
 * title and description for every chart, tables with captions and header
 * scopes, words beside every colour, a print and a phone-width layout.
 * Every outside string is escaped (fp_text); element ids are built from
 * indices only, so hostile names can neither break nor repeat them.
 * Rows carry their figures in data-* attributes a test can read back.
 */
#include <string.h>

#include "base/arena.h"
#include "fleetpage/fleetpage_int.h"

#define BAR_WIDTH 560 /* px for the longest budget or target of the fleet */

static const char *const term_colour[DRILL_TERM_COUNT] = {
	"#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#9c755f",
};
static const char term_letter[DRILL_TERM_COUNT] = { 'G', 'E', 'P', 'I', 'M' };
static const char *const term_words[DRILL_TERM_COUNT] = {
	"node monitor grace", "eviction", "node provisioning", "image pull", "model load",
};

static const char css[] =
	"body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:0 auto;"
	"max-width:72rem;padding:1rem;color:#1a1a1a;background:#fff;line-height:1.45}"
	"h1{font-size:1.6rem}h2{font-size:1.3rem;margin-top:2rem;border-bottom:1px solid #ccc}"
	"h3{font-size:1.05rem}"
	".scroll{overflow-x:auto}table{border-collapse:collapse;margin:.5rem 0 1rem;"
	"font-variant-numeric:tabular-nums}caption{text-align:left;font-weight:600;"
	"padding:.25rem 0}th,td{border:1px solid #bbb;padding:.3rem .5rem;text-align:left;"
	"vertical-align:top}td.n{text-align:right}thead th{background:#eef1f5}"
	".over{font-weight:700;color:#8b0000}.ok{color:#1d5e20}"
	"figure{margin:.5rem 0 1rem}figcaption{font-size:.95rem}svg{max-width:100%;height:auto}"
	"nav ul{padding-left:1.2rem}.note{font-size:.9rem;color:#333}"
	"@media (max-width:40rem){body{padding:.5rem;font-size:.95rem}th,td{padding:.2rem .3rem}}"
	"@media print{nav{display:none}a{color:inherit;text-decoration:none}"
	"section,figure,table{break-inside:avoid}.scroll{overflow:visible}}";

static void
head(struct fp_out *o, const struct fleetpage *fp)
{
	int64_t gpus = 0;

	for (size_t i = 0; i < fp->cluster_count; i++)
		gpus += fp->clusters[i].onprem_gpus;
	fp_put(o,
	       "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	       "<title>GPU fleet: capacity, recovery and failure what-ifs</title>\n"
	       "<style>%s</style>\n</head>\n<body>\n<header>\n<h1>GPU fleet</h1>\n"
	       "<p id=\"totals\" data-clusters=\"%zu\" data-sites=\"%zu\" "
	       "data-onprem-gpus=\"%lld\">"
	       "%zu cluster%s, %zu site%s, %lld on-prem GPUs.</p>\n",
	       css, fp->cluster_count, fp->site_count, (long long)gpus, fp->cluster_count,
	       fp->cluster_count == 1 ? "" : "s", fp->site_count, fp->site_count == 1 ? "" : "s",
	       (long long)gpus);
	if (fp->made_at) {
		fp_put(o, "<p id=\"made\">");
		fp_made(o, fp);
		fp_put(o, "</p>\n");
	}
	fp_put(o,
	       "</header>\n"
	       "<nav aria-label=\"Sections\"><ul>\n"
	       "<li><a href=\"#summary\">Fleet summary</a></li>\n"
	       "<li><a href=\"#recovery\">Recovery</a></li>\n"
	       "<li><a href=\"#whatif\">What if sites fail together</a></li>\n"
	       "<li><a href=\"#fallback\">Fallback at its limit</a></li>\n"
	       "%s</ul></nav>\n<main>\n",
	       fp->live ? "<li><a href=\"#live\">Live: drift and fallback</a></li>\n" : "");
}

static void
summary(struct fp_out *o, const struct fleetpage *fp)
{
	fp_put(o, "<section id=\"summary\" aria-labelledby=\"summary-h\">\n"
		  "<h2 id=\"summary-h\">Fleet summary</h2>\n<div class=\"scroll\">\n<table>\n"
		  "<caption>Each cluster: its sites, on-prem GPUs, how much the cloud may take"
		  " over, and what runs there</caption>\n");
	fp_head_row(o, fp_summary_cols, FP_SUMMARY_COLS);
	for (size_t i = 0; i < fp->cluster_count; i++) {
		const struct fp_cluster *c = &fp->clusters[i];

		fp_put(o, "<tr data-cluster=\"");
		fp_text(o, c->name);
		fp_put(o, "\" data-onprem-gpus=\"%lld\" data-fallback-limit=\"%lld\"",
		       (long long)c->onprem_gpus, (long long)c->fallback_limit);
		for (size_t k = 0; k < c->pool_count; k++)
			fp_put(o, " data-%s-limit=\"%lld\"", c->pools[k].noun,
			       (long long)c->pools[k].limit);
		fp_put(o, ">");
		fp_put(o, "<th scope=\"row\">");
		fp_text(o, c->name);
		fp_put(o, "</th>");
		fp_summary_cells(o, fp, c);
		fp_put(o, "</tr>\n");
	}
	fp_put(o, "</tbody>\n</table>\n</div>\n</section>\n");
}

/* The stacked bar of one site's budget against its target. */
static void
budget_chart(struct fp_out *o, const struct fp_site *s, size_t index, double pxps)
{
	const struct drill_budget *b = &s->budget;
	double x = 0;

	fp_put(o,
	       "<figure>\n<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d 64\" "
	       "width=\"%d\""
	       " height=\"64\" role=\"img\" aria-labelledby=\"rto-t-%zu rto-d-%zu\">\n"
	       "<title id=\"rto-t-%zu\">RTO budget of ",
	       BAR_WIDTH + 80, BAR_WIDTH + 80, index, index, index);
	fp_text(o, s->spec->name);
	fp_put(o, "</title>\n<desc id=\"rto-d-%zu\">", index);
	for (int t = 0; t < DRILL_TERM_COUNT; t++)
		fp_put(o, "%s %s, ", term_words[t], fp_dur(o->a, s->terms[t]));
	fp_put(o, "total %s; %s</desc>\n", fp_dur(o->a, b->real_failure_total),
	       fp_budget_status(o->a, s));
	for (int t = 0; t < DRILL_TERM_COUNT; t++) {
		double w = (double)s->terms[t] * pxps;

		if (w <= 0)
			continue;
		fp_put(o,
		       "<rect x=\"%.1f\" y=\"8\" width=\"%.1f\" height=\"26\" fill=\"%s\""
		       " stroke=\"#fff\"/>",
		       x, w, term_colour[t]);
		if (w >= 14)
			fp_put(o,
			       "<text x=\"%.1f\" y=\"26\" font-size=\"12\" fill=\"#fff\""
			       " text-anchor=\"middle\" font-family=\"sans-serif\">%c</text>",
			       x + w / 2, term_letter[t]);
		fp_put(o, "\n");
		x += w;
	}
	if (b->target) {
		double tx = (double)b->target * pxps;

		fp_put(o,
		       "<line x1=\"%.1f\" y1=\"2\" x2=\"%.1f\" y2=\"40\" stroke=\"#000\""
		       " stroke-width=\"2\" stroke-dasharray=\"4 3\"/>\n"
		       "<text x=\"%.1f\" y=\"56\" font-size=\"12\" font-family=\"sans-serif\">"
		       "target %s</text>\n",
		       tx, tx, tx > 60 ? tx - 60 : 0, fp_dur(o->a, b->target));
	}
	fp_put(o, "</svg>\n<figcaption>");
	fp_text(o, s->spec->name);
	fp_put(o, ": total %s, <span class=\"%s\">%s</span></figcaption>\n</figure>\n",
	       fp_dur(o->a, b->real_failure_total),
	       b->target && b->real_failure_total > b->target ? "over" : "ok",
	       fp_budget_status(o->a, s));
}

static void
recovery_row(struct fp_out *o, const struct fp_site *s)
{
	fp_put(o, "<tr data-site=\"");
	fp_text(o, s->spec->name);
	fp_put(o, "\" data-total-seconds=\"%lld\" data-target-seconds=\"%lld\">",
	       (long long)s->budget.real_failure_total, (long long)s->budget.target);
	fp_put(o, "<th scope=\"row\">");
	fp_text(o, s->spec->name);
	fp_put(o, "</th>");
	fp_recovery_cells(o, s);
	fp_put(o, "</tr>\n");
}

static void
recovery(struct fp_out *o, const struct fleetpage *fp)
{
	int64_t max = 1;
	double pxps;

	for (size_t i = 0; i < fp->site_count; i++) {
		const struct drill_budget *b = &fp->sites[i].budget;

		if (b->real_failure_total > max)
			max = b->real_failure_total;
		if (b->target > max)
			max = b->target;
	}
	pxps = (double)BAR_WIDTH / (double)max;
	fp_put(o, "<section id=\"recovery\" aria-labelledby=\"recovery-h\">\n"
		  "<h2 id=\"recovery-h\">Recovery</h2>\n"
		  "<p>How long the GPU Pods of a dead on-prem node take to serve again on the"
		  " fallback, term by term, against the site's target RTO. Every bar is drawn at"
		  " the same scale; the letters name the terms: G node monitor grace, E eviction,"
		  " P node provisioning, I image pull, M model load; the dashed line is the"
		  " target.</p>\n");
	for (size_t i = 0; i < fp->site_count; i++)
		budget_chart(o, &fp->sites[i], i, pxps);
	fp_put(o, "<div class=\"scroll\">\n<table>\n<caption>The RTO budget of each site, term by"
		  " term (budget / measured in the last drill, when a drill record is"
		  " given)</caption>\n");
	fp_head_row(o, fp_recovery_cols, FP_RECOVERY_COLS);
	for (size_t i = 0; i < fp->site_count; i++)
		recovery_row(o, &fp->sites[i]);
	fp_put(o, "</tbody>\n</table>\n</div>\n</section>\n");
}

static void
whatif_row(struct fp_out *o, const struct fleetpage *fp, const struct fp_whatif *w)
{
	fp_put(o, "<tr data-sites=\"");
	for (size_t j = 0; j < w->count; j++) {
		fp_put(o, "%s", j ? " " : "");
		fp_text(o, fp->sites[w->sites[j]].spec->name);
	}
	fp_put(o,
	       "\" data-lost=\"%lld\" data-launchable=\"%lld\" data-shortfall=\"%lld\""
	       " data-cost=\"%s\" data-quota-over=\"%s\"><th scope=\"row\">",
	       (long long)w->lost, (long long)w->launchable, (long long)w->shortfall,
	       w->cost_known || !w->cost_partial ? arena_printf(o->a, "%.2f", w->cost_per_hour)
						 : "unknown",
	       w->quota_over ? "true" : "false");
	fp_set_names(o, fp, w);
	fp_put(o, "</th>");
	fp_whatif_cells(o, fp, w);
	fp_put(o, "</tr>\n");
}

static void
whatif(struct fp_out *o, const struct fleetpage *fp)
{
	size_t w = 0;

	fp_put(o, "<section id=\"whatif\" aria-labelledby=\"whatif-h\">\n"
		  "<h2 id=\"whatif-h\">What if sites fail together</h2>\n");
	fp_whatif_intro(o, fp);
	for (size_t c = 0; c < fp->cluster_count; c++) {
		fp_put(o, "<h3 id=\"whatif-%zu\">Cluster ", c);
		fp_text(o, fp->clusters[c].name);
		fp_put(o, "</h3>\n<div class=\"scroll\">\n<table>\n<caption>Sites of cluster ");
		fp_text(o, fp->clusters[c].name);
		fp_put(o, " failing together</caption>\n");
		fp_head_row(o, fp_whatif_cols, FP_WHATIF_COLS);
		for (; w < fp->whatif_count && fp->whatifs[w].cluster == c; w++)
			whatif_row(o, fp, &fp->whatifs[w]);
		fp_put(o, "</tbody>\n</table>\n</div>\n");
	}
	fp_put(o, "</section>\n");
}

static void
fallback(struct fp_out *o, const struct fleetpage *fp)
{
	fp_put(o,
	       "<section id=\"fallback\" aria-labelledby=\"fallback-h\">\n"
	       "<h2 id=\"fallback-h\">Fallback at its limit</h2>\n<div class=\"scroll\">\n<table>\n"
	       "<caption>Each site's cloud fallback and what an hour of it costs at its"
	       " limit, and its burst pool, which is not failover capacity</caption>\n");
	fp_head_row(o, fp_fallback_cols, FP_FALLBACK_COLS);
	for (size_t i = 0; i < fp->site_count; i++) {
		const struct fp_site *s = &fp->sites[i];

		fp_put(o, "<tr data-site=\"");
		fp_text(o, s->spec->name);
		fp_put(o, "\" data-onprem-gpus=\"%lld\" data-gpu-limit=\"%lld\"",
		       (long long)s->onprem_gpus, (long long)s->gpu_limit);
		for (size_t k = 0; k < fp->clusters[s->cluster].pool_count; k++) {
			const char *noun = fp->clusters[s->cluster].pools[k].noun;
			int64_t limit = 0;

			for (size_t j = 0; j < s->pool_count; j++)
				if (!strcmp(s->pools[j].noun, noun))
					limit = s->pools[j].limit;
			fp_put(o, " data-%s-limit=\"%lld\"", noun, (long long)limit);
		}
		fp_put(o, ">");
		fp_put(o, "<th scope=\"row\">");
		fp_text(o, s->spec->name);
		fp_put(o, "</th>");
		fp_fallback_cells(o, s);
		fp_put(o, "</tr>\n");
	}
	fp_put(o, "</tbody>\n</table>\n</div>\n</section>\n");
}

static void
live_row(struct fp_out *o, const char *name, const struct fp_live *l)
{
	fp_put(o, "<tr data-live-site=\"");
	fp_text(o, name);
	fp_put(o, "\" data-errors=\"%zu\" data-fallback-active=\"%s\"><th scope=\"row\">",
	       l->errors, l->fallback_active ? "true" : "false");
	fp_text(o, name);
	fp_put(o, "</th>");
	fp_live_cells(o, l);
	fp_put(o, "</tr>\n");
}

static void
live(struct fp_out *o, const struct fleetpage *fp)
{
	const struct fp_live *f = &fp->live_fleet;

	if (!fp->live)
		return;
	fp_put(o, "<section id=\"live\" aria-labelledby=\"live-h\">\n"
		  "<h2 id=\"live-h\">Live: drift and fallback</h2>\n");
	fp_live_intro(o, fp);
	fp_put(o, "<div class=\"scroll\">\n<table>\n<caption>Drift findings and the fallback of"
		  " each site</caption>\n");
	fp_head_row(o, fp_live_cols, FP_LIVE_COLS);
	for (size_t i = 0; i < fp->site_count; i++)
		live_row(o, fp->sites[i].spec->name, &fp->sites[i].live);
	if (f->errors || f->warnings || f->notes || f->fallback_active)
		live_row(o, "(no site's file)", f);
	fp_put(o, "</tbody>\n</table>\n</div>\n</section>\n");
}

int
fleetpage_html(struct buf *out, struct arena *a, const struct fleetpage *fp)
{
	struct fp_out o = { out, a, true, 0 };

	head(&o, fp);
	summary(&o, fp);
	recovery(&o, fp);
	whatif(&o, fp);
	fallback(&o, fp);
	live(&o, fp);
	fp_put(&o, "</main>\n<footer><p class=\"note\">Prices: ");
	fp_text(&o, fp->price_source);
	fp_put(&o,
	       ", %s list prices of %s. Written by gpusite report.</p></footer>\n"
	       "</body>\n</html>\n",
	       fp->price_region, fp->price_date);
	return o.rc ? BUF_ETOOBIG : 0;
}
