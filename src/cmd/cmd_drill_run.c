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
#include "cmd/opts_drill.h"
#include "cmd/opts_live.h"
#include "pipeline/live.h"
#include "cmd/opts.h"
#include "drill/drill_run.h"
#include "kube/kube.h"
#include "spec/spec.h"

enum {
	OPT_EXECUTE = 1,
	OPT_RESTORE,
	OPT_NODES,
	OPT_GROUP,
	OPT_WAIT,
	OPT_INTERVAL,
	OPT_RECORD,
};

struct run_args {
	struct live_opts lo;
	bool execute, restore;
	struct opts_drill_nodes nodes;
	const char *group;
	double timeout; /* 0: the default */
	double interval;
	const char *record;
};

static const struct opt_spec run_opts[] = {
	{ OPT_EXECUTE, "execute", 0, NULL,
	  "really run the drill (without it: print the API calls it would make)" },
	{ OPT_RESTORE, "restore", 0, NULL,
	  "uncordon the nodes the drill of --record FILE cordoned (not those"
	  " unschedulable before it) and wait for the return condition" },
	{ OPT_NODES, "nodes", 0, "NAME[,NAME...]",
	  "the nodes to take down (repeatable; default: every hybrid node of the site);"
	  " with --restore, those of the record to uncordon" },
	{ OPT_GROUP, "group", 0, "GROUP", "the hybrid nodes of this nodeGroup" },
	{ OPT_WAIT, "timeout", 0, "DURATION",
	  "wait this long for the condition (default 30m; --restore: the"
	  " pool's consolidateAfter + 5m)" },
	{ OPT_INTERVAL, "interval", 0, "SECONDS",
	  "poll period and first eviction retry wait (default 2)" },
	{ OPT_RECORD, "record", 0, "FILE",
	  "the drill record (JSON): --execute writes it (a new file, atomically,"
	  " from before the first write on); --restore reads it and adds its steps" },
	{ LIVE_OPT_KUBECONFIG, "kubeconfig", 0, "FILE",
	  "read this kubeconfig only (default: KUBECONFIG, ~/.kube/config,"
	  " else the in-cluster service account)" },
	{ LIVE_OPT_CONTEXT, "context", 0, "CTX",
	  "the kubeconfig context to use (default: current-context)" },
	{ LIVE_OPT_CLUSTER, "cluster", 0, "NAME",
	  "the cluster.name of the site (default: from the kubeconfig)" },
	{ 0, NULL, 0, NULL, NULL },
};

static int on_option(void *payload, int id, const char *value);

static struct opts_cmd run_cmd = {
	.name = "drill run",
	.usage = "[options] SITE [PATH]",
	.about = "The node-failure drill of SITE: only its on-prem hybrid nodes\n"
		 "(eks.amazonaws.com/compute-type: hybrid, with the site's label or\n"
		 "named in its nodeGroups), never a cloud node (karpenter.sh/nodepool).\n"
		 "Without --execute a dry run: the exact API calls (method, path,\n"
		 "content type, body), one per line; only reads are sent.  With\n"
		 "--execute (it needs --record FILE): a SelfSubjectAccessReview for\n"
		 "every right first (nothing is changed when one is missing), then the\n"
		 "nodes are cordoned (a node unschedulable already is left as it is)\n"
		 "and their pods evicted through the policy/v1 Eviction API as kubectl\n"
		 "drain does (DaemonSet and mirror pods stay; a PodDisruptionBudget's\n"
		 "429 is retried with backoff, then named), and the run waits until\n"
		 "every GPU pod that moved is Ready again.  The record keeps every\n"
		 "transition and which nodes the drill cordoned; it is written before\n"
		 "the first write and after each cordon.  --restore --record FILE\n"
		 "uncordons only those, names the nodes it leaves cordoned, and adds\n"
		 "its steps to the record.  Ctrl-C, SIGTERM or a write refused for good\n"
		 "stops the run and leaves the nodes cordoned; the message names them\n"
		 "and the restore command.  Exit 0: recovered within targetRTO; 1:\n"
		 "recovered too late or not in time; 2: usage (--record missing, or\n"
		 "the file exists); 3: could not run (nodes, rights, PDB, API error,\n"
		 "interrupted).\n",
	.common = OPTS_QUIET | OPTS_VERBOSE | OPTS_SOURCE,
	.own = run_opts,
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
	case OPT_EXECUTE: ra->execute = true; return 0;
	case OPT_RESTORE: ra->restore = true; return 0;
	case OPT_NODES:
		if (opts_drill_nodes_add(&ra->nodes, value) < 0)
			return opts_usage_error(&run_cmd, "out of memory");
		if (!ra->nodes.count)
			return opts_usage_error(&run_cmd, "--nodes needs a node name");
		return 0;
	case OPT_GROUP: ra->group = value; return 0;
	case OPT_WAIT:
		if (spec_parse_duration(value, false, &dur) < 0 || dur.seconds <= 0)
			return opts_usage_error(&run_cmd,
						"--timeout '%s' is not a "
						"duration such as 15m or 90s",
						value);
		ra->timeout = (double)dur.seconds;
		return 0;
	case OPT_INTERVAL:
		ra->interval = strtod(value, &end);
		if (*end || end == value || !(ra->interval > 0 && ra->interval <= 600))
			return opts_usage_error(&run_cmd,
						"--interval '%s' is not a "
						"number of seconds from 0 to 600",
						value);
		return 0;
	case OPT_RECORD: ra->record = value; return 0;
	default: rc = live_on_option(&ra->lo, &run_cmd, id, value); return rc == 1 ? 0 : rc;
	}
}

static void
free_args(struct run_args *ra)
{
	opts_drill_nodes_free(&ra->nodes);
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

/*
 * --restore: the drill's record, of this site and cluster.  GS_EXIT_OK,
 * or GS_EXIT_FAILURE after saying why.
 */
static int
read_drilled(struct drill_record *out, struct live_run *run, struct arena *a,
	     const struct run_args *ra, const struct spec_site *site)
{
	if (drill_record_load(a, &run->errors, out, ra->record, site->name) < 0)
		return live_fail(run);
	if (out->cluster && site->cluster.name && strcmp(out->cluster, site->cluster.name)) {
		diag_report(&run->errors, (struct pos)POS_NONE, DRILL_RECORD, "",
			    "%s is a record of a drill in cluster %s, not %s: restore it against"
			    " its own cluster (--context)",
			    ra->record, out->cluster, site->cluster.name);
		return live_fail(run);
	}
	return GS_EXIT_OK;
}

static volatile sig_atomic_t stop_flag;

static void
on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

/* The site called name among the cluster's sites (the last of that
 * name), or NULL. */
static const struct spec_site *
find_site(const struct live_run *run, const char *name)
{
	const struct spec_site *site = NULL;

	for (size_t i = 0; i < run->nsites; i++)
		if (!strcmp(run->sites[i]->name, name))
			site = run->sites[i];
	return site;
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

/*
 * A drill that went to its end: recovered within targetRTO (said unless
 * --quiet), or too late or not at all (the errors printed); then the
 * command that restores what it cordoned.  Returns the exit code.
 */
static int
run_verdict(struct live_run *run, struct arena *a, const struct opts *o, const struct run_args *ra,
	    const struct drill_run_opts *dro, const struct drill_record *rec,
	    struct drill_run_result *res)
{
	const struct spec_site *site = dro->site;
	const char *hint;
	int code = GS_EXIT_OK;

	if (res->outcome == DRILL_OUTCOME_AVAILABLE && !ra->restore) {
		struct drill_budget b;
		struct drill_terms t;

		drill_budget_compute(&b, site, DRILL_NODE_FAILURE);
		drill_terms_compute(a, &t, &b, rec);
		if (t.total_known && t.target && !t.within_target) {
			diag_report(&run->errors, (struct pos)POS_NONE, DRILL_RUN_TARGET, "",
				    "site '%s' recovered in %llds, over its targetRTO "
				    "of %llds: `gpusite drill report %s --record FILE` "
				    "shows which term ran over",
				    site->name, (long long)t.total, (long long)t.target,
				    site->name);
			res->target_missed = true;
		} else if (!o->quiet) {
			fprintf(stderr, "gpusite drill run: site '%s' recovered%s%s\n", site->name,
				t.total_known ? arena_printf(a, " in %llds", (long long)t.total)
					      : "",
				t.target ? arena_printf(a, ", within its targetRTO of %llds",
							(long long)t.target)
					 : "");
		}
	}
	if (res->outcome != DRILL_OUTCOME_AVAILABLE || res->target_missed) {
		live_run_print_errors(run);
		code = GS_EXIT_FINDINGS;
	}
	hint = ra->restore ? NULL : drill_run_restore_hint(a, dro, rec);
	if (hint)
		fprintf(stderr,
			"gpusite drill run: the nodes the drill cordoned stay cordoned; restore"
			" them with `%s`\n",
			hint);
	return code;
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
	const char *site_name;
	int code, rc;

	memset(&ra, 0, sizeof(ra));
	memset(&run, 0, sizeof(run));
	run_cmd.payload = &ra;
	rc = opts_drill_parse(&o, &site_name, &run_cmd, argc, argv);
	if (rc == OPTS_OK)
		rc = check_args(&ra);
	if (rc != OPTS_OK) {
		free_args(&ra);
		return opts_exit_code(rc);
	}
	/* the client's one deadline covers the whole wait */
	ra.lo.timeout = (ra.timeout ? ra.timeout : 3600) + 120;
	arena_init(&a);
	code = live_start(&run, &a, "gpusite drill run", &o, &ra.lo);
	if (code != GS_EXIT_OK)
		goto out;
	site = find_site(&run, site_name);
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
		code = live_fail(&run);
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
	code = run_verdict(&run, &a, &o, &ra, &dro, &rec, &res);
out:
	live_finish(&run);
	arena_release(&a);
	free_args(&ra);
	return code;
}
