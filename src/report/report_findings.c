/*
 * report_findings.c - the --help lists of findings (report_findings.h).
 */
#include <string.h>

#include "report/report_findings.h"

struct out {
	char *p;
	size_t len, cap;
	int err;
};

static void
put(struct out *o, const char *s, size_t n)
{
	if (o->err || o->len + n >= o->cap) {
		o->err = -1;
		return;
	}
	memcpy(o->p + o->len, s, n);
	o->len += n;
	o->p[o->len] = '\0';
}

static void
put_str(struct out *o, const char *s)
{
	put(o, s, strlen(s));
}

/* One entry: the ID, then the summary's words (less `strip`), wrapped. */
static void
put_entry(struct out *o, const struct finding *f, const char *strip)
{
	static const char indent[REPORT_FINDINGS_INDENT + 1] = "         ";
	const char *w = f->summary;
	size_t col = REPORT_FINDINGS_INDENT;

	if (strip && !strncmp(w, strip, strlen(strip)))
		w += strlen(strip);
	put_str(o, "  ");
	put_str(o, f->id);
	put_str(o, "  ");
	while (*w) {
		size_t n = strcspn(w, " ");

		if (col > REPORT_FINDINGS_INDENT && col + 1 + n > REPORT_FINDINGS_WIDTH) {
			put_str(o, "\n");
			put_str(o, indent);
			col = REPORT_FINDINGS_INDENT;
		} else if (col > REPORT_FINDINGS_INDENT) {
			put_str(o, " ");
			col++;
		}
		put(o, w, n);
		col += n;
		w += n;
		while (*w == ' ')
			w++;
	}
	put_str(o, "\n");
}

int
report_findings_help(char *out, size_t cap, const struct report_findings_help *h)
{
	struct out o = { out, 0, cap, 0 };
	const char *head = h->head ? h->head : "";

	if (!cap)
		return -1;
	out[0] = '\0';
	put_str(&o, head);
	for (size_t i = 0; i < findings_count; i++)
		if (findings_table[i].source == h->source)
			put_entry(&o, &findings_table[i], h->strip);
	put_str(&o, h->tail ? h->tail : "");
	if (!o.err)
		return 0;
	/* too small: the head alone, or nothing */
	out[0] = '\0';
	if (strlen(head) < cap)
		memcpy(out, head, strlen(head) + 1);
	return -1;
}
