/*
 * drill_nodes.c - which nodes a drill may take down (the site's on-prem
 * hybrid nodes, never a cloud fallback node, although the fallback
 * NodePool's template gives its nodes the site label too), and the
 * commands the drill prints for a person to run: shell words, the
 * restore command.
 */
#include <stdio.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "drill/drill.h"
#include "inventory/inventory.h"
#include "node/node.h"
#include "spec/spec.h"

#define COMPUTE_TYPE_LABEL "eks.amazonaws.com/compute-type"
#define POOL_LABEL "karpenter.sh/nodepool"

const char *
drill_pool_name(struct arena *a, const struct spec_site *s)
{
	const struct inv_pool *p = inventory_failover_pool(inventory_site(a, s));

	return p ? p->name : NULL;
}

const char *
drill_class_name(struct arena *a, const struct spec_site *s)
{
	const struct inv_pool *p = inventory_failover_pool(inventory_site(a, s));

	return p ? p->class_name : NULL;
}

static const char *
node_label(const struct node *obj, const char *key)
{
	return node_str(node_map_get(node_path(obj, "metadata.labels"), key));
}

/* name is in the nodes of group g (any group: NULL) of the spec */
static bool
named_in_groups(const struct spec_site *s, const char *name, const char *group)
{
	for (size_t g = 0; g < s->group_count; g++) {
		if (group && strcmp(s->groups[g].name, group))
			continue;
		for (size_t i = 0; i < s->groups[g].node_count; i++)
			if (!strcmp(s->groups[g].nodes[i], name))
				return true;
	}
	return false;
}

bool
drill_node_in_group(const struct spec_site *s, const struct node *obj, const char *name,
		    const char *group)
{
	const char *l = node_label(obj, INV_GROUP_LABEL);

	return (l && !strcmp(l, group)) || named_in_groups(s, name, group);
}

bool
drill_node_drillable(const struct spec_site *s, const struct node *obj, const char *name)
{
	const char *ct = node_label(obj, COMPUTE_TYPE_LABEL);
	const char *site = node_label(obj, INV_SITE_LABEL);

	return !node_label(obj, POOL_LABEL) && ct && !strcmp(ct, "hybrid") &&
	       ((site && !strcmp(site, s->name)) || named_in_groups(s, name, NULL));
}

const char *
drill_node_refusal(struct arena *a, const struct spec_site *s, const struct node *obj,
		   const char *name)
{
	const char *pool = node_label(obj, POOL_LABEL);
	const char *ct = node_label(obj, COMPUTE_TYPE_LABEL);

	if (drill_node_drillable(s, obj, name))
		return NULL;
	if (pool)
		return arena_printf(
			a,
			"node '%s' is a cloud node of Karpenter NodePool '%s' (label %s),"
			" not an on-prem hybrid node",
			name, pool, POOL_LABEL);
	if (!ct || strcmp(ct, "hybrid"))
		return arena_printf(a, "node '%s' is not a hybrid node (label %s is %s%s%s)", name,
				    COMPUTE_TYPE_LABEL, ct ? "'" : "", ct ? ct : "absent",
				    ct ? "'" : "");
	return arena_printf(a,
			    "node '%s' is not a node of site '%s' (no %s=%s label, not in a"
			    " nodeGroup)",
			    name, s->name, INV_SITE_LABEL, s->name);
}

bool
drill_node_unschedulable(const struct node *obj)
{
	const struct node *u = node_path(obj, "spec.unschedulable");

	return node_is_bool(u) && u->scalar.i;
}

const char *
drill_shell_word(struct arena *a, const char *word, const char *placeholder)
{
	struct buf b;
	bool plain = *word != 0;
	int rc = 0;

	for (const char *p = word; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (c < 0x20 || c == 0x7f)
			return placeholder;
		if (!strchr("_./:=@%+,-", c) && !(c >= '0' && c <= '9') &&
		    !((c | 0x20) >= 'a' && (c | 0x20) <= 'z'))
			plain = false;
	}
	if (plain)
		return word;
	buf_init(&b, 0);
	rc |= buf_addch(&b, '\'');
	for (const char *p = word; *p; p++)
		rc |= *p == '\'' ? buf_adds(&b, "'\\''") : buf_addch(&b, *p);
	rc |= buf_addch(&b, '\'');
	word = rc ? placeholder : arena_strndup(a, b.data, b.len);
	buf_release(&b);
	return word;
}

const char *
drill_restore_command(struct arena *a, const char *site, const char *again,
		      const char *const *nodes, size_t count, const char *record)
{
	const char *list;

	if (!count)
		return NULL;
	list = nodes[0];
	for (size_t i = 1; i < count; i++)
		list = arena_printf(a, "%s,%s", list, nodes[i]);
	return arena_printf(a, "gpusite drill run %s%s --restore --nodes %s --record %s --execute",
			    drill_shell_word(a, site, "SITE"), again ? again : "",
			    drill_shell_word(a, list, "NODES"),
			    drill_shell_word(a, record, "RECORD"));
}

const char **
drill_site_nodes(struct arena *a, const struct spec_site *s, const char *group, size_t *count,
		 bool *group_found)
{
	const char **nodes = NULL;
	size_t n = 0;

	*group_found = !group;
	for (size_t g = 0; g < s->group_count; g++) {
		if (group && strcmp(group, s->groups[g].name))
			continue;
		*group_found = true;
		for (size_t i = 0; i < s->groups[g].node_count; i++) {
			nodes = arena_realloc(a, nodes, n * sizeof(*nodes),
					      (n + 1) * sizeof(*nodes));
			nodes[n++] = s->groups[g].nodes[i];
		}
	}
	*count = n;
	return nodes;
}

double
drill_default_timeout(const struct spec_site *s, bool restore)
{
	/* a restore waits for the pool to consolidate, plus a margin */
	return restore ? (double)s->fallback.consolidate_after.seconds + 300 : 1800;
}
