/*
 * cmd_diff_live.c - `gpusite diff --live`: the rendered objects of the
 * cluster's sites against their live counterparts, normalised, one
 * unified diff per object (pipeline/live_diff.h compares and writes the
 * text or the JSON; this prints it and picks the exit code).  GET and
 * LIST only.
 */
#include <stdio.h>

#include "base/arena.h"
#include "base/buf.h"
#include "cmd/cmd.h"
#include "cli/opts_live.h"
#include "pipeline/live.h"
#include "pipeline/live_diff.h"
#include "kube/kube.h"

#define DIFF_CAP ((size_t)1 << 30)

int
diff_live_run(const struct opts *o, const struct live_opts *lo, bool json)
{
	struct arena a = ARENA_INIT;
	struct live_run run;
	struct buf out = BUF_INIT;
	struct live_diff_tally t;
	const struct render_object *failed = NULL;
	int code;

	arena_init(&a);
	buf_init(&out, DIFF_CAP);
	code = cmd_live_open(&run, &a, "gpusite diff", o, lo);
	if (code != GS_EXIT_OK)
		goto out;
	switch (live_diff_write(&out, &t, &failed, &run, DIFF_CAP, json, o->quiet)) {
	case 0: break;
	case LIVE_DIFF_EKUBE: code = cmd_live_fail(&run); goto out;
	case LIVE_DIFF_ECOMPARE:
		fprintf(stderr, "gpusite diff: error: cannot compare %s/%s\n", failed->kind,
			failed->name);
		code = GS_EXIT_FAILURE;
		goto out;
	default:
		fprintf(stderr, "gpusite diff: error: the diff is larger than %zu MiB\n",
			DIFF_CAP >> 20);
		code = GS_EXIT_FAILURE;
		goto out;
	}
	if (fwrite(out.data, 1, out.len, stdout) != out.len)
		code = GS_EXIT_FAILURE;
	else
		code = t.changed || t.added || t.removed ? GS_EXIT_FINDINGS : GS_EXIT_OK;
	if (o->verbose)
		fprintf(stderr, "gpusite diff: %u requests, %zu KiB of memory\n",
			kube_request_count(run.kube), a.total >> 10);
out:
	live_run_finish(&run);
	buf_release(&out);
	arena_release(&a);
	return code;
}
