/*
 * opts_drill.c - the options the drill commands parse alike.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/opts_drill.h"

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
