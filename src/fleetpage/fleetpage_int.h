/*
 * fleetpage_int.h - what the page's two writers share (fleetpage_text.c):
 * an output with a sticky error, text escaped for HTML or Markdown, and
 * the page's figures as words.
 */
#ifndef GS_FLEETPAGE_INT_H
#define GS_FLEETPAGE_INT_H

#include <stdbool.h>

#include "fleetpage/fleetpage.h"

struct fp_out {
	struct buf *b;
	struct arena *a;
	bool html; /* else Markdown */
	int rc;    /* the first error; writes after it do nothing */
};

void fp_put(struct fp_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Outside text (names from the spec), escaped for the output. */
void fp_text(struct fp_out *o, const char *s);
/* "Made by gpusite 0.1.0 on 2026-07-06T12:00:00Z from sites at commit
 * 0123...": what the page says of itself (nothing before fleetpage_stamp) */
void fp_made(struct fp_out *o, const struct fleetpage *fp);

/* A table cell: <td> (class "n" for a number) ... </td>, or " ... |". */
void fp_cell_open(struct fp_out *o, bool number);
void fp_cell_close(struct fp_out *o);
/* The header row (HTML: its thead, and the tbody opened). */
void fp_head_row(struct fp_out *o, const char *const *cols, size_t n);

/* The cells after the first (the row's name) of each table's row. */
void fp_summary_cells(struct fp_out *o, const struct fleetpage *fp, const struct fp_cluster *c);
void fp_recovery_cells(struct fp_out *o, const struct fp_site *s);
void fp_whatif_cells(struct fp_out *o, const struct fleetpage *fp, const struct fp_whatif *w);
void fp_fallback_cells(struct fp_out *o, const struct fp_site *s);
void fp_live_cells(struct fp_out *o, const struct fp_live *l);
/* The sentence above the live table: where the findings come from. */
void fp_live_intro(struct fp_out *o, const struct fleetpage *fp);
/* What the what-if shows and the prices it uses, and whether it stopped. */
void fp_whatif_intro(struct fp_out *o, const struct fleetpage *fp);
/* The names of a failure set, joined by " + ". */
void fp_set_names(struct fp_out *o, const struct fleetpage *fp, const struct fp_whatif *w);

/* The columns of each table. */
#define FP_SUMMARY_COLS 10
#define FP_RECOVERY_COLS 10
#define FP_WHATIF_COLS 7
#define FP_FALLBACK_COLS 7
#define FP_LIVE_COLS 5
extern const char *const fp_summary_cols[FP_SUMMARY_COLS];
extern const char *const fp_recovery_cols[FP_RECOVERY_COLS];
extern const char *const fp_whatif_cols[FP_WHATIF_COLS];
extern const char *const fp_fallback_cols[FP_FALLBACK_COLS];
extern const char *const fp_live_cols[FP_LIVE_COLS];

const char *fp_dur(struct arena *a, int64_t seconds);
/* "OK: 10s within the target", "OVER the target by 3m50s", "no target" */
const char *fp_budget_status(struct arena *a, const struct fp_site *s);
/* "$9.20/h (2 x g6.12xlarge at $4.60/h)", "$20.99/h (2 x g6e.12xlarge at
 * $10.49/h, estimate)", or why unknown */
const char *fp_site_cost(struct arena *a, const struct fp_site *s);
/* "OVER the quota: onDemand P: 384 of 300 vCPUs", "within: ...", or no quota */
const char *fp_set_quota(struct arena *a, const struct spec_quotas *q, const struct fp_whatif *w);
/* "$119.28/h (2 x p5.48xlarge at $55.04/h + 1 x g6e.12xlarge at $9.20/h)",
 * with "+ unpriced" and "estimate" when so */
const char *fp_set_cost(struct arena *a, const struct fleetpage *fp, const struct fp_whatif *w);
/* the drill's total against the target: "14m10s (within the target)" or "not given" */
const char *fp_drill_status(struct arena *a, const struct fp_site *s);
/* "1.35 ... (sites disagree)"-free summary of the fallback of a cluster */
const char *fp_prices_note(struct arena *a, const struct fleetpage *fp);

#endif
