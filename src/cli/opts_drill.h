/*
 * opts_drill.h - what the drill commands (`drill plan`, `run`, `report`)
 * parse alike: the names of --nodes, and SITE before the PATH arguments.
 */
#ifndef GS_OPTS_DRILL_H
#define GS_OPTS_DRILL_H

#include <stddef.h>

#include "cli/opts.h"

struct arena;
struct live_opts;

/* The ids of the drill commands' own options (the cluster options are
 * cli/opts_live.h's). */
enum drill_opt_id {
	DRILL_OPT_SCENARIO = 1,
	DRILL_OPT_NODES,
	DRILL_OPT_GROUP,
	DRILL_OPT_SINCE,
	DRILL_OPT_RECORD,
	DRILL_OPT_SVG,
	DRILL_OPT_EXECUTE,
	DRILL_OPT_RESTORE,
	DRILL_OPT_WAIT,
	DRILL_OPT_INTERVAL,
};

/* The option rows of `drill plan`, `drill report` and `drill run`. */
extern const struct opt_spec opts_drill_plan[];
extern const struct opt_spec opts_drill_report[];
extern const struct opt_spec opts_drill_run[];

/* The node names of every --nodes given, each its own malloc'd copy. */
struct opts_drill_nodes {
	const char **names; /* NULL until a name is added */
	size_t count;
};

/*
 * Add the names of one --nodes value: repeatable, and comma-separated
 * (empty names and names already given are skipped: a node is drilled
 * once).  0, or -1 out of memory.
 */
int opts_drill_nodes_add(struct opts_drill_nodes *n, const char *value);
void opts_drill_nodes_free(struct opts_drill_nodes *n);

/*
 * What names the specs and the cluster after SITE in a command the drill
 * prints for a person to run again: the PATH arguments, --repo, --ref,
 * --staged, --kubeconfig, --context and --cluster as given, each a shell
 * word with a space before it ("" when none).  A --repo URL that carries
 * credentials is shown as REPO.
 */
const char *opts_drill_again(struct arena *a, const struct opts *o, const struct live_opts *lo);

/*
 * opts_parse(), then SITE, the first argument (min_args is 1), taken off
 * o->args into *site: o->args are the PATH arguments after it.  Returns
 * what opts_parse() did.
 */
int opts_drill_parse(struct opts *o, const char **site, const struct opts_cmd *cmd, int argc,
		     char **argv);

#endif
