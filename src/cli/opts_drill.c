/*
 * opts_drill.c - the options the drill commands parse alike.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/secret.h"
#include "cli/opts_drill.h"
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
