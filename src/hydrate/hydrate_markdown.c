/*
 * hydrate_markdown.c - `hydrate --dry-run --format markdown`: what the
 * commit would change, per cluster and object, for a pull-request comment.
 */
#include <stdio.h>

#include "base/arena.h"
#include "hydrate/hydrate.h"

int
hydrate_markdown(struct arena *a, const struct hydrate_options *o,
		 const struct source_branch_res *res, const struct hydrate_cluster *clusters,
		 size_t count, const struct hydrate_change *ch, size_t n)
{
	(void)a;
	(void)o;
	(void)res;
	(void)clusters;
	(void)count;
	for (size_t i = 0; i < n; i++)
		printf("- %c `%s`\n", ch[i].status, ch[i].path);
	return 0;
}
