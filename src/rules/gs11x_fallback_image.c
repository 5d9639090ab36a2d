/*
 * gs11x_fallback_image.c - what the fallback nodes boot and whether they
 * get a device plugin (outputs.md section 3a):
 *   GS111 fallback.nodeImage, devicePluginVersion or nodeClass with
 *         provisioner auto-mode, which manages its own image, plugin and
 *         node class.
 */
#include "base/arena.h"
#include "rules/rules_int.h"

static void
check_gs111(struct rule_ctx *c, const struct spec_site *s)
{
	const struct node *fb = s->fallback.src;
	static const char *const keys[] = { "nodeImage", "devicePluginVersion", "nodeClass" };

	if (s->cluster.provisioner != PROV_AUTO_MODE || !fb || fb->kind != NODE_MAP)
		return;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (node_map_get(fb, keys[i]))
			rule_report(c, s, rule_key_pos(s, fb, keys[i]),
				    arena_printf(c->arena, "spec.fallback.%s", keys[i]),
				    "fallback.%s is set with provisioner auto-mode, which"
				    " chooses the node image, runs its own device plugin"
				    " and has its own NodeClass: remove it (it is for"
				    " provisioner karpenter)",
				    keys[i]);
}

const struct rule rule_gs111 = {
	.id = "GS111",
	.level = DIAG_ERROR,
	.summary = "fallback.nodeImage, devicePluginVersion or nodeClass with "
		   "provisioner auto-mode, which manages its own image, device plugin "
		   "and node class",
	.check_site = check_gs111,
};
