/*
 * report_github.c - GitHub Actions: one workflow command per diagnostic,
 * `::error file=F,line=L,col=C,title=GS041::message`, escaped as the
 * runner requires, and the Markdown table appended to the job summary
 * ($GITHUB_STEP_SUMMARY) when the runner provides one.  Also the
 * markdown format itself.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/report_int.h"

/* The job summary takes at most 1 MiB per step; this many rows stay well
 * below it even with long messages. */
#define STEP_SUMMARY_MAX_ROWS 1000

static const char *
gh_command(enum diag_level level)
{
	switch (level) {
	case DIAG_ERROR: return "error";
	case DIAG_WARNING: return "warning";
	default: return "notice";
	}
}

static const char *
md_icon(enum diag_level level)
{
	switch (level) {
	case DIAG_ERROR: return "\xe2\x9d\x8c";               /* U+274C cross mark */
	case DIAG_WARNING: return "\xe2\x9a\xa0\xef\xb8\x8f"; /* U+26A0 U+FE0F */
	default: return "\xe2\x84\xb9\xef\xb8\x8f";           /* U+2139 U+FE0F */
	}
}

int
report_write_markdown(FILE *out, const struct report_input *in, size_t max_rows)
{
	size_t n = in->diags ? in->diags->count : 0, shown = n;

	if (max_rows && shown > max_rows)
		shown = max_rows;
	fputs("### ", out);
	report_put_md(out, in->tool_name ? in->tool_name : "gpusite");
	fputs("\n\n", out);
	if (n == 0) {
		fputs("No problems found.\n\n", out);
	} else {
		fputs("| | File | Line | Rule | Message |\n"
		      "|---|---|---|---|---|\n",
		      out);
		for (size_t i = 0; i < shown; i++) {
			const struct diag *d = &in->diags->items[i];

			fprintf(out, "| %s | ", md_icon(d->level));
			report_put_md(out, d->at.file ? d->at.file : "");
			fputs(" | ", out);
			if (d->at.line && d->at.col)
				fprintf(out, "%u:%u", d->at.line, d->at.col);
			else if (d->at.line)
				fprintf(out, "%u", d->at.line);
			fputs(" | ", out);
			report_put_md(out, d->rule ? d->rule : "");
			fputs(" | ", out);
			report_put_md(out, d->msg);
			fputs(" |\n", out);
		}
		if (shown < n)
			fprintf(out, "\n%zu more not shown; see the job log.\n", n - shown);
		fputc('\n', out);
	}
	report_summary(out, in);
	return ferror(out) ? -1 : 0;
}

FILE *
report_open_step_summary(const char *path, const char *tool)
{
	struct stat st;
	FILE *f;
	int fd;

	/* O_NONBLOCK: a FIFO with no reader fails at once (ENXIO) instead of
	 * blocking the step; anything that is not a regular file is refused */
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0666);
	if (fd < 0) {
		fprintf(stderr, "%s: warning: cannot append the job summary to '%s': %s\n", tool,
			path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		fprintf(stderr,
			"%s: warning: the job summary '%s' is not a regular file;"
			" nothing was appended (GITHUB_STEP_SUMMARY should name the"
			" runner's summary file)\n",
			tool, path);
		close(fd);
		return NULL;
	}
	f = fdopen(fd, "a");
	if (!f) {
		fprintf(stderr, "%s: warning: cannot append the job summary to '%s': %s\n", tool,
			path, strerror(errno));
		close(fd);
	}
	return f;
}

static int
append_step_summary(const char *path, const struct report_input *in)
{
	FILE *f = report_open_step_summary(path, "gpusite");
	int ret;

	if (!f)
		return 0; /* the annotations are out; the summary is extra */
	ret = report_write_markdown(f, in, STEP_SUMMARY_MAX_ROWS);
	if (fclose(f) != 0)
		ret = -1;
	if (ret < 0)
		fprintf(stderr, "gpusite: error: cannot write the job summary '%s'\n", path);
	return ret;
}

int
report_write_github(FILE *out, const struct report_input *in)
{
	size_t n = in->diags ? in->diags->count : 0;
	const char *summary = getenv("GITHUB_STEP_SUMMARY");
	int ret = 0;

	for (size_t i = 0; i < n; i++) {
		const struct diag *d = &in->diags->items[i];
		const char *sep = " ";

		fprintf(out, "::%s", gh_command(d->level));
		if (d->at.file && *d->at.file) {
			fputs(" file=", out);
			report_put_gh_prop(out, d->at.file);
			sep = ",";
			if (d->at.line) {
				fprintf(out, ",line=%u", d->at.line);
				if (d->at.col)
					fprintf(out, ",col=%u", d->at.col);
			}
		}
		if (d->rule && *d->rule) {
			fprintf(out, "%stitle=", sep);
			report_put_gh_prop(out, d->rule);
		}
		fputs("::", out);
		report_put_gh_data(out, d->msg);
		fputc('\n', out);
	}
	if (ferror(out))
		return -1;
	if (summary && *summary)
		ret = append_step_summary(summary, in);
	return ret;
}
