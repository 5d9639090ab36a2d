/*
 * fleetpage_text.c - the page's figures as words, shared by the HTML and
 * Markdown writers, and their one output with its escaping: report/'s
 * HTML escaper for the page, its Markdown escaper (entities, a backslash
 * before what would start a table cell, emphasis, code or a link, GFM
 * autolinks broken, bidi controls dropped) for Markdown.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/arena.h"
#include "fleetpage/fleetpage_int.h"
#include "report/report.h"
#include "rules/quota.h"

void
fp_put(struct fp_out *o, const char *fmt, ...)
{
	va_list ap;
	char small[512];
	int n;

	if (o->rc)
		return;
	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0) {
		o->rc = BUF_ETOOBIG;
		return;
	}
	if ((size_t)n < sizeof(small)) {
		o->rc = buf_add(o->b, small, (size_t)n);
		return;
	}
	va_start(ap, fmt);
	{
		char *big = arena_alloc(o->a, (size_t)n + 1);

		vsnprintf(big, (size_t)n + 1, fmt, ap);
		o->rc = buf_add(o->b, big, (size_t)n);
	}
	va_end(ap);
}

void
fp_text(struct fp_out *o, const char *s)
{
	if (o->rc || !s)
		return;
	/* the one HTML and the one Markdown escaper of report/ */
	o->rc = o->html ? report_html_text(o->b, s) : report_md_text(o->b, s);
}

void
fp_made(struct fp_out *o, const struct fleetpage *fp)
{
	if (!fp->made_at)
		return;
	fp_put(o, "Made by gpusite %s on %s", fp->made_version, fp->made_at);
	if (fp->made_from) {
		fp_put(o, " from ");
		fp_text(o, fp->made_from);
	}
	if (fp->made_commit)
		fp_put(o, " at commit %s", fp->made_commit);
	fp_put(o, ".");
}

const char *
fp_dur(struct arena *a, int64_t seconds)
{
	char b[SPEC_DURATION_BUFSZ];

	spec_duration_format(b, sizeof(b), seconds);
	return arena_strdup(a, b);
}

const char *
fp_budget_status(struct arena *a, const struct fp_site *s)
{
	const struct drill_budget *b = &s->budget;

	if (!b->set)
		return "no recovery block";
	if (!b->target)
		return "no target";
	if (b->real_failure_total <= b->target)
		return arena_printf(a, "OK: %s within the target",
				    fp_dur(a, b->target - b->real_failure_total));
	return arena_printf(a, "OVER the target by %s",
			    fp_dur(a, b->real_failure_total - b->target));
}

/* What a known cost is made of: "2 x p5.48xlarge at $55.04/h". */
static const char *
cost_unit(struct arena *a, const struct fp_site *s)
{
	const struct fp_type *t = NULL;

	for (size_t i = 0; i < s->type_count; i++)
		if (s->types[i].name == s->cost_type)
			t = &s->types[i];
	if (!t)
		return s->cost_type;
	return arena_printf(a, "%lld x %s at $%.2f/h", (long long)t->nodes_at_limit, s->cost_type,
			    t->usd_per_hour);
}

const char *
fp_site_cost(struct arena *a, const struct fp_site *s)
{
	if (s->cost_state != FP_COST_KNOWN)
		return fleetpage_cost_reason(s);
	return arena_printf(
		a, "%s$%.2f/h (%s%s%s)", s->cost_ceiling ? "at most " : "", s->cost_per_hour,
		cost_unit(a, s), s->cost_estimate ? ", estimate" : "",
		s->cost_ceiling ? arena_printf(a, ", %s first: on-demand's price is the most",
					       spec_capacity_name(s->spec->fallback.capacity_type))
				: "");
}

const char *
fp_set_cost(struct arena *a, const struct fleetpage *fp, const struct fp_whatif *w)
{
	const char *units = NULL;

	if (!w->cost_known)
		return w->cost_partial ? "price not known" : "$0.00/h (no fallback)";
	for (size_t k = 0; k < w->count; k++) {
		const struct fp_site *s = &fp->sites[w->sites[k]];

		if (s->cost_state != FP_COST_KNOWN)
			continue;
		units = units ? arena_printf(a, "%s + %s", units, cost_unit(a, s))
			      : cost_unit(a, s);
	}
	return arena_printf(a, "%s$%.2f/h (%s%s)%s", w->cost_ceiling ? "at most " : "",
			    w->cost_per_hour, units ? units : "",
			    w->cost_estimate ? ", estimate" : "",
			    w->cost_partial ? " + a fallback whose price is not known" : "");
}

const char *
fp_drill_status(struct arena *a, const struct fp_site *s)
{
	const struct drill_terms *t = s->drill;

	if (!t)
		return "no drill record given";
	if (!t->total_known)
		return arena_printf(a, "%s drill: total not known (a term the record cannot show)",
				    drill_scenario_name(t->scenario));
	if (!t->target)
		return arena_printf(a, "%s drill: %s, no target", drill_scenario_name(t->scenario),
				    fp_dur(a, t->total));
	return arena_printf(a, "%s drill: %s, %s", drill_scenario_name(t->scenario),
			    fp_dur(a, t->total),
			    t->within_target ? "within the target" : "OVER the target");
}

const char *
fp_prices_note(struct arena *a, const struct fleetpage *fp)
{
	return arena_printf(
		a,
		"Cost per hour is the fallback running at its gpuLimit on the cheapest"
		" listed instance type that serves, at the on-demand Linux list prices of"
		" %s on %s (%s) built into gpusite. Elsewhere than %s the figure is an"
		" estimate; Spot and reserved capacity show \"price not known\", or,"
		" with on-demand listed after them, on-demand's price as the most an"
		" hour costs. No"
		" Savings Plans, tax or data transfer.",
		fp->price_region, fp->price_date, fp->price_source, fp->price_region);
}

const char *const fp_summary_cols[FP_SUMMARY_COLS] = {
	"Cluster",
	"Region",
	"Sites",
	"On-prem GPUs by model",
	"Fallback limit (GPUs)",
	"Burst limit (GPUs)",
	"GPU stack",
	"Placement engine",
	"Provisioner",
	"Kubernetes",
};
const char *const fp_recovery_cols[FP_RECOVERY_COLS] = {
	"Site",           "Node monitor grace (G)",
	"Eviction (E)",   "Node provisioning (P)",
	"Image pull (I)", "Model load (M)",
	"Total",          "Target",
	"Budget",         "Last drill",
};
const char *const fp_whatif_cols[FP_WHATIF_COLS] = {
	"Sites failing",
	"GPUs lost",
	"GPUs the fallback may launch",
	"Shortfall",
	"Instance types in the sites' zones",
	"Cost per hour at the limit",
	"EC2 vCPU quota",
};
const char *const fp_live_cols[FP_LIVE_COLS] = {
	"Site", "Drift errors", "Drift warnings", "Fallback active", "Findings (the first 20)",
};
const char *const fp_fallback_cols[FP_FALLBACK_COLS] = {
	"Site",
	"On-prem GPUs",
	"Capacity",
	"gpuLimit",
	"Instance types",
	"Cost per hour at the limit",
	"Burst pool (not failover capacity)",
};

void
fp_cell_open(struct fp_out *o, bool number)
{
	if (o->html)
		fp_put(o, number ? "<td class=\"n\">" : "<td>");
	else
		fp_put(o, " ");
}

void
fp_cell_close(struct fp_out *o)
{
	fp_put(o, o->html ? "</td>" : " |");
}

void
fp_head_row(struct fp_out *o, const char *const *cols, size_t n)
{
	fp_put(o, o->html ? "<thead><tr>" : "|");
	for (size_t i = 0; i < n; i++)
		fp_put(o, o->html ? "<th scope=\"col\">%s</th>" : " %s |", cols[i]);
	if (o->html) {
		fp_put(o, "</tr></thead>\n<tbody>\n");
		return;
	}
	fp_put(o, "\n|");
	for (size_t i = 0; i < n; i++)
		fp_put(o, "---|");
	fp_put(o, "\n");
}

/* A cell of words from the page itself (not escaped: no outside text). */
static void
cell(struct fp_out *o, bool number, const char *text)
{
	fp_cell_open(o, number);
	fp_put(o, "%s", text);
	fp_cell_close(o);
}

/* A cell of outside text. */
static void
cell_text(struct fp_out *o, const char *text)
{
	fp_cell_open(o, false);
	fp_text(o, text);
	fp_cell_close(o);
}

static void
cell_int(struct fp_out *o, int64_t n)
{
	fp_cell_open(o, true);
	fp_put(o, "%lld", (long long)n);
	fp_cell_close(o);
}

/* A cluster's normal-time pools, each kind's sum "8 (spot)", or "none (no
 * burst pool)" without one. */
static void
fp_pool_sums_cell(struct fp_out *o, const struct fp_cluster *c)
{
	const char *nouns = "";
	bool any = false;

	for (size_t k = 0; k < c->pool_count; k++)
		any |= c->pools[k].sites > 0;
	if (!any) {
		for (size_t k = 0; k < c->pool_count; k++)
			nouns = arena_printf(o->a, "%s%s%s", nouns, k ? " or " : "",
					     c->pools[k].noun);
		cell(o, false, arena_printf(o->a, "none (no %s pool)", nouns));
		return;
	}
	fp_cell_open(o, true);
	for (size_t k = 0, n = 0; k < c->pool_count; k++) {
		if (!c->pools[k].sites)
			continue;
		fp_put(o, "%s%lld (", n++ ? "; " : "", (long long)c->pools[k].limit);
		fp_text(o, c->pools[k].capacity);
		fp_put(o, ")");
	}
	fp_cell_close(o);
}

void
fp_summary_cells(struct fp_out *o, const struct fleetpage *fp, const struct fp_cluster *c)
{
	cell_text(o, c->region);
	fp_cell_open(o, false);
	for (size_t j = 0; j < c->site_count; j++) {
		fp_put(o, "%s", j ? ", " : "");
		fp_text(o, fp->sites[c->sites[j]].spec->name);
	}
	fp_cell_close(o);
	fp_cell_open(o, false);
	fp_put(o, "%lld (", (long long)c->onprem_gpus);
	for (size_t j = 0; j < c->model_count; j++) {
		fp_put(o, "%s%lld ", j ? ", " : "", (long long)c->models[j].gpus);
		fp_text(o, c->models[j].model);
	}
	fp_put(o, ")");
	fp_cell_close(o);
	cell_int(o, c->fallback_limit);
	/* the normal-time pools (the burst pool), per kind */
	fp_pool_sums_cell(o, c);
	fp_cell_open(o, false);
	fp_text(o, c->stack);
	fp_put(o, " ");
	fp_text(o, c->chart);
	fp_put(o, " ");
	fp_text(o, c->chart_version);
	fp_cell_close(o);
	cell(o, false, c->engine);
	cell(o, false, c->provisioner);
	fp_cell_open(o, false);
	fp_text(o, c->kubernetes);
	if (c->mixed)
		fp_put(o, " (the sites disagree: see validate)");
	fp_cell_close(o);
}

void
fp_recovery_cells(struct fp_out *o, const struct fp_site *s)
{
	const struct drill_budget *b = &s->budget;
	bool over = b->target && b->real_failure_total > b->target;

	for (int t = 0; t < DRILL_TERM_COUNT; t++) {
		const struct drill_term_result *r = s->drill ? &s->drill->terms[t] : NULL;

		fp_cell_open(o, true);
		fp_put(o, "%s", fp_dur(o->a, s->terms[t]));
		if (r && r->applies)
			fp_put(o, " / %s", r->known ? fp_dur(o->a, r->measured) : "not measured");
		fp_cell_close(o);
	}
	cell(o, true, fp_dur(o->a, b->real_failure_total));
	cell(o, true, b->target ? fp_dur(o->a, b->target) : "none");
	if (o->html)
		fp_put(o, "<td class=\"%s\">%s</td>", over ? "over" : "ok",
		       fp_budget_status(o->a, s));
	else
		cell(o, false, fp_budget_status(o->a, s));
	cell_text(o, fp_drill_status(o->a, s));
}

void
fp_set_names(struct fp_out *o, const struct fleetpage *fp, const struct fp_whatif *w)
{
	for (size_t j = 0; j < w->count; j++) {
		fp_put(o, "%s", j ? " + " : "");
		fp_text(o, fp->sites[w->sites[j]].spec->name);
	}
}

const char *
fp_set_quota(struct arena *a, const struct spec_quotas *q, const struct fp_whatif *w)
{
	const char *over = NULL, *need = NULL;

	if (!q)
		return "no cluster.quotas given";
	for (int m = 0; m < QUOTA_MARKETS; m++)
		for (int g = 0; g < QUOTA_GROUPS; g++) {
			int64_t v = w->quota_vcpus[m][g], lim = q->vcpus[m][g];
			const char *t;

			if (!v)
				continue;
			t = arena_printf(a, "%s %s: %lld of %s", quota_market_name(m),
					 quota_group_name(g), (long long)v,
					 lim < 0 ? "no quota given"
						 : arena_printf(a, "%lld", (long long)lim));
			if (lim >= 0 && v > lim)
				over = over ? arena_printf(a, "%s; %s", over, t) : t;
			else
				need = need ? arena_printf(a, "%s; %s", need, t) : t;
		}
	if (over)
		return arena_printf(a, "OVER the quota: %s vCPUs", over);
	return need ? arena_printf(a, "within: %s vCPUs", need) : "no vCPUs counted";
}

void
fp_whatif_cells(struct fp_out *o, const struct fleetpage *fp, const struct fp_whatif *w)
{
	const struct spec_quotas *q = fp->clusters[w->cluster].quotas;

	cell_int(o, w->lost);
	cell_int(o, w->launchable);
	fp_cell_open(o, true);
	fp_put(o, "%lld%s", (long long)w->shortfall, w->shortfall ? " short" : "");
	fp_cell_close(o);
	cell(o, false, "unknown (gpusite has no offerings per zone)");
	cell_text(o, fp_set_cost(o->a, fp, w));
	cell(o, false, fp_set_quota(o->a, q, w));
}

void
fp_fallback_cells(struct fp_out *o, const struct fp_site *s)
{
	cell_int(o, s->onprem_gpus);
	cell(o, false, s->fallback ? spec_capacity_name(s->spec->fallback.capacity_type) : "none");
	cell_int(o, s->gpu_limit);
	fp_cell_open(o, false);
	for (size_t t = 0; t < s->type_count; t++) {
		fp_put(o, "%s", t ? ", " : "");
		fp_text(o, s->types[t].name);
		if (!s->types[t].serves)
			fp_put(o, " (does not serve)");
	}
	fp_cell_close(o);
	cell_text(o, fp_site_cost(o->a, s));
	fp_cell_open(o, false);
	for (size_t i = 0; i < s->pool_count; i++) {
		fp_put(o, "%s%lld GPUs, ", i ? "; " : "", (long long)s->pools[i].limit);
		fp_text(o, s->pools[i].capacity);
	}
	if (!s->pool_count)
		fp_put(o, "none");
	fp_cell_close(o);
}

void
fp_whatif_intro(struct fp_out *o, const struct fleetpage *fp)
{
	fp_put(o,
	       "%sEvery set of up to %d sites of a cluster failing at once: the on-prem GPUs"
	       " lost, what the failed sites' fallback pools may launch (their gpuLimit), and"
	       " what is left short.%s",
	       o->html ? "<p>" : "", fp->fail, o->html ? "</p>\n<p class=\"note\">" : "\n\n");
	fp_text(o, fp_prices_note(o->a, fp));
	fp_put(o, o->html ? "</p>\n" : "\n");
	if (fp->pool_sites)
		fp_put(o,
		       "%sBurst pools are not counted here: burst capacity is Spot (unless the"
		       " spec says otherwise: see each site's burst pool below), which EC2 may"
		       " reclaim with a two-minute notice, kept for the burst scope's workloads in"
		       " normal times; it is not failover capacity.%s",
		       o->html ? "<p class=\"note\">" : "\n", o->html ? "</p>\n" : "\n");
	if (fp->whatif_truncated)
		fp_put(o,
		       o->html ? "<p><strong>Only the first %d sets are listed: lower"
				 " --fail.</strong></p>\n"
			       : "\n**Only the first %d sets are listed: lower --fail.**\n",
		       FLEETPAGE_MAX_SETS);
}

void
fp_live_cells(struct fp_out *o, const struct fp_live *l)
{
	cell_int(o, (int64_t)l->errors);
	cell_int(o, (int64_t)l->warnings);
	fp_cell_open(o, false);
	if (l->fallback_active) {
		fp_put(o, "YES: ");
		fp_text(o, l->fallback_note);
	} else {
		fp_put(o, "no");
	}
	fp_cell_close(o);
	fp_cell_open(o, false);
	for (size_t i = 0; i < l->count; i++) {
		fp_put(o, "%s", i ? "; " : "");
		fp_text(o, l->findings[i]);
	}
	if (!l->count)
		fp_put(o, "none");
	fp_cell_close(o);
}

void
fp_live_intro(struct fp_out *o, const struct fleetpage *fp)
{
	fp_put(o, "%sDrift findings per site, from ", o->html ? "<p>" : "");
	fp_text(o, fp->live_file);
	fp_put(o,
	       " (the output of gpusite drift --format json; the cluster as it was when drift"
	       " ran). Fallback active: NodeClaims or nodes of the site's pool (GS213).%s",
	       o->html ? "</p>\n" : "\n\n");
}
