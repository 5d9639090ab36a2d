/*
 * pipeline_diff_write.c - `diff --base`'s sides named and its result
 * written in the format asked for (report/report_diff.c's writers).
 */
#include <stdio.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "pipeline/pipeline.h"
#include "pipeline/pipeline_diff.h"
#include "report/report_diff.h"

int
diff_format_parse(enum diff_format *out, const char *s)
{
	static const char *const names[] = { "text", "json", "markdown", "github" };

	if (!s) {
		*out = DIFF_FORMAT_TEXT;
		return 0;
	}
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(s, names[i])) {
			*out = (enum diff_format)i;
			return 0;
		}
	}
	return -1;
}

void
diff_side_name_head(struct diff_side *hs, struct arena *a, const char *head, bool staged, bool repo)
{
	hs->rev = head;
	if (head) {
		hs->label = head;
		hs->where = arena_printf(a, "at %s", head);
	} else if (staged) {
		hs->label = "index";
		hs->where = "in the index";
	} else if (repo) {
		hs->label = "HEAD";
		hs->where = "at HEAD";
	} else {
		hs->label = "work tree";
		hs->where = "in the work tree";
	}
}

int
diff_revisions_write(enum diff_format fmt, struct arena *a, struct diff_result *res,
		     const struct pipeline_source *src, bool quiet)
{
	int code = -1; /* -1 until a writer ran: the switch covers every format */

	switch (fmt) {
	case DIFF_FORMAT_TEXT: code = report_diff_text(stdout, a, res, quiet); break;
	case DIFF_FORMAT_JSON: code = report_diff_json(stdout, a, res); break;
	case DIFF_FORMAT_MARKDOWN: {
		struct buf b = BUF_INIT;

		buf_init(&b, DIFF_REVISIONS_CAP);
		code = report_diff_markdown(&b, a, res, REPORT_DIFF_COMMENT_BUDGET);
		if (!code)
			fwrite(b.data, 1, b.len, stdout);
		buf_release(&b);
		break;
	}
	case DIFF_FORMAT_GITHUB:
		/* annotations name the spec file from the repository's top */
		for (size_t i = 0; i < res->count; i++)
			res->items[i].file = pipeline_file_from_top(a, src, res->items[i].file);
		code = report_diff_github(stdout, a, res);
		break;
	}
	return code;
}
