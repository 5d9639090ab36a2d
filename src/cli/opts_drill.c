/*
 * opts_drill.c - the options the drill commands parse alike.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/secret.h"
#include "cli/opts_drill.h"
#include "cli/opts_live.h"
#include "drill/drill.h"
#include "pipeline/live.h"

/* p[0..len) is among the names already */
static bool
opts_drill_nodes_has(const struct opts_drill_nodes *n, const char *p, size_t len)
{
	for (size_t i = 0; i < n->count; i++)
		if (strlen(n->names[i]) == len && !memcmp(n->names[i], p, len))
			return true;
	return false;
}

int
opts_drill_nodes_add(struct opts_drill_nodes *n, const char *value)
{
	const char *p = value;

	while (*p) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (len && !opts_drill_nodes_has(n, p, len)) {
			char *s = malloc(len + 1);
			const char **names = realloc(n->names, (n->count + 1) * sizeof(*names));

			if (names)
				n->names = names;
			if (!s || !names) {
				free(s);
				return -1;
			}
			memcpy(s, p, len);
			s[len] = 0;
			n->names[n->count++] = s;
		}
		p += len + (e ? 1 : 0);
	}
	return 0;
}

void
opts_drill_nodes_free(struct opts_drill_nodes *n)
{
	for (size_t i = 0; i < n->count; i++)
		free((void *)n->names[i]);
	free(n->names);
	n->names = NULL;
	n->count = 0;
}

int
opts_drill_parse(struct opts *o, const char **site, const struct opts_cmd *cmd, int argc,
		 char **argv)
{
	int rc = opts_parse(o, cmd, argc, argv);

	*site = NULL;
	if (rc != OPTS_OK)
		return rc;
	*site = o->args[0];
	o->args++;
	o->nargs--;
	return OPTS_OK;
}

/* " --name WORD" when value is set, else "" */
static const char *
again_opt(struct arena *a, const char *name, const char *value, const char *placeholder)
{
	if (!value)
		return "";
	return arena_printf(a, " --%s %s", name, drill_shell_word(a, value, placeholder));
}

const char *
opts_drill_again(struct arena *a, const struct opts *o, const struct live_opts *lo)
{
	const char *s = "";
	/* https://user:token@host: the token never reaches a message */
	bool secret =
		o->repo && ((strstr(o->repo, "://") && strchr(strstr(o->repo, "://") + 3, '@')) ||
			    secret_unsafe_to_echo(o->repo, strlen(o->repo)));

	for (size_t i = 0; i < o->nargs; i++)
		s = arena_printf(a, "%s %s", s, drill_shell_word(a, o->args[i], "PATH"));
	s = arena_printf(a, "%s%s%s%s", s, again_opt(a, "repo", secret ? "REPO" : o->repo, "REPO"),
			 again_opt(a, "ref", o->ref, "REV"), o->staged ? " --staged" : "");
	return arena_printf(a, "%s%s%s%s", s, again_opt(a, "kubeconfig", lo->kubeconfig, "FILE"),
			    again_opt(a, "context", lo->context, "CONTEXT"),
			    again_opt(a, "cluster", lo->cluster, "CLUSTER"));
}

/* drill plan */
const struct opt_spec opts_drill_plan[] = {
	{ DRILL_OPT_SCENARIO, "scenario", 0, "NAME",
	  "node-failure (a drain; the default) or partition (the site cut off from the VPC)" },
	{ DRILL_OPT_NODES, "nodes", 0, "NAME[,NAME]",
	  "the nodes the drill takes down (repeatable; default: every node the spec names)" },
	{ DRILL_OPT_GROUP, "group", 0, "GROUP", "the nodes of this node group" },
	LIVE_OPT_SPECS,
	{ 0, NULL, 0, NULL, NULL },
};

/* drill report */
const struct opt_spec opts_drill_report[] = {
	{ DRILL_OPT_RECORD, "record", 0, "FILE",
	  "measure from this drill record (drill run --record) instead of the cluster" },
	{ DRILL_OPT_SINCE, "since", 0, "TIME",
	  "from the cluster: leave out what happened before this RFC 3339 time" },
	{ DRILL_OPT_SCENARIO, "scenario", 0, "NAME",
	  "from the cluster: node-failure (default) or partition (the eviction budget)" },
	{ DRILL_OPT_SVG, "svg", 0, "FILE",
	  "also write the timeline chart, budget against measured" },
	LIVE_OPT_SPECS,
	{ 0, NULL, 0, NULL, NULL },
};

/* drill run */
const struct opt_spec opts_drill_run[] = {
	{ DRILL_OPT_EXECUTE, "execute", 0, NULL,
	  "really run the drill (without it: print the API calls it would make)" },
	{ DRILL_OPT_RESTORE, "restore", 0, NULL,
	  "uncordon the nodes the drill of --record FILE cordoned (not those"
	  " unschedulable before it) and wait for the return condition" },
	{ DRILL_OPT_NODES, "nodes", 0, "NAME[,NAME...]",
	  "the nodes to take down (repeatable; default: every hybrid node of the site);"
	  " with --restore, those of the record to uncordon" },
	{ DRILL_OPT_GROUP, "group", 0, "GROUP", "the hybrid nodes of this nodeGroup" },
	{ DRILL_OPT_WAIT, "timeout", 0, "DURATION",
	  "wait this long for the condition (default 30m; --restore: the"
	  " pool's consolidateAfter + 5m)" },
	{ DRILL_OPT_INTERVAL, "interval", 0, "SECONDS",
	  "poll period and first eviction retry wait (default 2)" },
	{ DRILL_OPT_RECORD, "record", 0, "FILE",
	  "the drill record (JSON): --execute writes it (a new file, atomically,"
	  " from before the first write on); --restore reads it and adds its steps" },
	LIVE_OPT_KUBECONFIG_ROW(""),
	LIVE_OPT_CONTEXT_ROW(""),
	{ LIVE_OPT_CLUSTER, "cluster", 0, "NAME",
	  "the cluster.name of the site (default: from the kubeconfig)" },
	{ 0, NULL, 0, NULL, NULL },
};
