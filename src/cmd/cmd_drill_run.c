/*
 * cmd_drill_run.c - `gpusite drill run SITE [PATH]`: the dry run (the
 * exact API calls, one per line), or with --execute the drill: cordon,
 * evict, wait for every GPU pod to be Ready again, the record; and
 * --restore.  The work is drill/drill_run.c; this file parses, catches
 * SIGINT and SIGTERM, and picks the exit code.
 */
#include <signal.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "cmd/cmd.h"
#include "cli/opts_drill.h"
#include "cli/opts_live.h"
#include "pipeline/live.h"
#include "cli/help.h"
#include "cli/opts.h"
#include "drill/drill_run.h"
#include "kube/kube.h"
#include "spec/spec.h"

struct run_args {
	struct live_opts lo;
	bool execute, restore;
	struct opts_drill_nodes nodes;
	const char *group;
	double timeout; /* 0: the default */
	double interval;
	const char *record;
};

static int on_option(void *payload, int id, const char *value);

static struct opts_cmd run_cmd = {
	.name = "drill run",
	.usage = "[options] SITE [PATH]",
	.about = cli_help_drill_run,
	.common = OPTS_QUIET | OPTS_VERBOSE | OPTS_SOURCE,
	.own = opts_drill_run,
	.on_option = on_option,
	.min_args = 1,
	.max_args = 2,
};

static int
on_option(void *payload, int id, const char *value)
{
	struct run_args *ra = payload;
	struct spec_duration dur;
	char *end;
	int rc;

	switch (id) {
	case DRILL_OPT_EXECUTE: ra->execute = true; return 0;
	case DRILL_OPT_RESTORE: ra->restore = true; return 0;
	case DRILL_OPT_NODES:
		if (opts_drill_nodes_add(&ra->nodes, value) < 0)
			return opts_usage_error(&run_cmd, "out of memory");
		if (!ra->nodes.count)
			return opts_usage_error(&run_cmd, "--nodes needs a node name");
		return 0;
	case DRILL_OPT_GROUP: ra->group = value; return 0;
	case DRILL_OPT_WAIT:
		if (spec_parse_duration(value, false, &dur) < 0 || dur.seconds <= 0)
			return opts_usage_error(&run_cmd,
						"--timeout '%s' is not a "
						"duration such as 15m or 90s",
						value);
		ra->timeout = (double)dur.seconds;
		return 0;
	case DRILL_OPT_INTERVAL:
		ra->interval = strtod(value, &end);
		if (*end || end == value || !(ra->interval > 0 && ra->interval <= 600))
			return opts_usage_error(&run_cmd,
						"--interval '%s' is not a "
						"number of seconds from 0 to 600",
						value);
		return 0;
	case DRILL_OPT_RECORD: ra->record = value; return 0;
	default: rc = live_on_option(&ra->lo, &run_cmd, id, value); return rc == 1 ? 0 : rc;
	}
}

/*
 * The usage errors that need more than one option: OPTS_OK, or what
 * opts_usage_error() returned.  --execute and --restore need a record
 * (the restore knows from it which nodes the drill cordoned), and a
 * drill never overwrites one: it may be that of a drill not restored.
 */
static int
check_args(const struct run_args *ra)
{
	struct stat st;

	if (ra->nodes.count && ra->group)
		return opts_usage_error(&run_cmd, "--nodes and --group exclude each other");
	if (ra->restore && ra->group)
		return opts_usage_error(&run_cmd,
					"--restore takes the nodes from the record; narrow them"
					" with --nodes, not --group");
	if (!ra->record && ra->restore)
		return opts_usage_error(
			&run_cmd, "--restore needs --record FILE, the record the drill wrote:"
				  " it says which nodes the drill cordoned (without it, uncordon"
				  " by hand only those: kubectl uncordon NODE)");
	if (!ra->record && ra->execute)
		return opts_usage_error(&run_cmd,
					"--execute needs --record FILE: the record says which nodes"
					" the drill cordoned, and --restore reads it");
	if (ra->execute && !ra->restore && lstat(ra->record, &st) == 0)
		return opts_usage_error(
			&run_cmd,
			"--record %s exists: a drill never overwrites a record (it"
			" may be that of a drill not yet restored); restore that drill"
			" (--restore --record %s) or name a new file",
			ra->record, ra->record);
	return OPTS_OK;
}

/* --restore: the drill's record, of this site and cluster. */
static int
read_drilled(struct drill_record *out, struct live_run *run, struct arena *a,
	     const struct run_args *ra, const struct spec_site *site)
{
	if (drill_run_read_drilled(out, a, &run->errors, ra->record, site) < 0)
		return cmd_live_fail(run);
	return GS_EXIT_OK;
}

static volatile sig_atomic_t stop_flag;

static void
on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

/* What drill_run() is to do, from the options; the defaults filled in. */
static void
fill_run_opts(struct drill_run_opts *dro, const struct run_args *ra, const struct spec_site *site,
	      struct kube_client *kube)
{
	memset(dro, 0, sizeof(*dro));
	dro->site = site;
	dro->kube = kube;
	dro->execute = ra->execute;
	dro->restore = ra->restore;
	dro->record = ra->record;
	dro->err = stderr;
	dro->nodes = ra->nodes.names;
	dro->node_count = ra->nodes.count;
	dro->group = ra->group;
	dro->timeout = ra->timeout ? ra->timeout : drill_default_timeout(site, ra->restore);
	dro->interval = ra->interval ? ra->interval : 2;
	dro->out = stdout;
	dro->stop = &stop_flag;
}

/* drill_run() with SIGINT and SIGTERM setting stop_flag, so the run can
 * stop between calls and still leave its record; returns what it did. */
static int
run_catching_signals(struct arena *a, struct diags *errors, struct drill_record *rec,
		     struct drill_run_result *res, const struct drill_run_opts *dro)
{
	struct sigaction sa, old_int, old_term;
	int rc;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	rc = drill_run(a, errors, rec, res, dro);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	return rc;
}

int
cmd_drill_run(int argc, char **argv)
{
	struct run_args ra;
	struct opts o;
	struct arena a;
	struct live_run run;
	struct drill_record rec, drilled;
	struct drill_run_result res;
	struct drill_run_opts dro;
	const struct spec_site *site;
	const char *site_name, *hint;
	int code, rc;

	memset(&ra, 0, sizeof(ra));
	memset(&run, 0, sizeof(run));
	run_cmd.payload = &ra;
	rc = opts_drill_parse(&o, &site_name, &run_cmd, argc, argv);
	if (rc == OPTS_OK)
		rc = check_args(&ra);
	if (rc != OPTS_OK) {
		opts_drill_nodes_free(&ra.nodes);
		return cmd_parse_exit(rc);
	}
	/* the client's one deadline covers the whole wait */
	ra.lo.timeout = (ra.timeout ? ra.timeout : 3600) + 120;
	arena_init(&a);
	code = cmd_live_open(&run, &a, "gpusite drill run", &o, &ra.lo);
	if (code != GS_EXIT_OK)
		goto out;
	site = live_run_site(&run, site_name);
	if (!site) {
		fprintf(stderr,
			"gpusite drill run: site '%s' is not among the sites "
			"of cluster '%s': check the name (gpusite explain lists "
			"them) or --cluster\n",
			site_name, run.cluster ? run.cluster : "");
		code = GS_EXIT_FAILURE;
		goto out;
	}
	fill_run_opts(&dro, &ra, site, run.kube);
	dro.again = opts_drill_again(&a, &o, &ra.lo);
	if (ra.restore) {
		code = read_drilled(&drilled, &run, &a, &ra, site);
		if (code != GS_EXIT_OK)
			goto out;
		dro.drilled = &drilled;
	}
	rc = run_catching_signals(&a, &run.errors, &rec, &res, &dro);
	fflush(stdout);
	if (res.recorded && drill_run_write_record(&run.errors, &rec, ra.record) < 0)
		rc = -1;
	if (rc < 0) {
		code = cmd_live_fail(&run);
		goto out;
	}
	if (!ra.execute) {
		if (!o.quiet)
			fprintf(stderr,
				"gpusite drill run: dry run, nothing was "
				"changed: %zu node(s); add --execute to run the %s\n",
				res.nodes, ra.restore ? "restore" : "drill");
		code = GS_EXIT_OK;
		goto out;
	}
	if (drill_run_verdict(&res, &a, &run.errors, &dro, &rec, o.quiet) < 0) {
		live_run_print_errors(&run);
		code = GS_EXIT_FINDINGS;
	}
	hint = ra.restore ? NULL : drill_run_restore_hint(&a, &dro, &rec);
	if (hint)
		fprintf(stderr,
			"gpusite drill run: the nodes the drill cordoned stay cordoned; restore"
			" them with `%s`\n",
			hint);
out:
	live_run_finish(&run);
	arena_release(&a);
	opts_drill_nodes_free(&ra.nodes);
	return code;
}
