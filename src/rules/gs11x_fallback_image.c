/*
 * gs11x_fallback_image.c - what the fallback nodes boot and whether they
 * get a device plugin (outputs.md section 3a):
 *   GS111 fallback.nodeImage or fallback.devicePluginVersion with
 *         provisioner auto-mode, which manages its own image and plugin.
 */
#include "base/arena.h"
#include "rules/rule.h"

static void
check_gs111(struct rule_ctx *c, const struct spec_site *s)
{
	const struct node *fb = s->fallback.src;
	static const char *const keys[] = { "nodeImage", "devicePluginVersion" };

	if (s->cluster.provisioner != PROV_AUTO_MODE || !fb || fb->kind != NODE_MAP)
		return;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (node_map_get(fb, keys[i]))
			rule_report(c, s, rule_key_pos(s, fb, keys[i]),
				    arena_printf(c->arena, "spec.fallback.%s", keys[i]),
				    "fallback.%s is set with provisioner auto-mode, which"
				    " chooses the node image and runs its own device"
				    " plugin: remove it (it is for provisioner karpenter)",
				    keys[i]);
}

const struct rule rule_gs111 = {
	.id = "GS111",
	.level = DIAG_ERROR,
	.summary = "fallback.nodeImage (or devicePluginVersion) with provisioner "
		"auto-mode, which manages its own image and device plugin",
	.check_site = check_gs111,
};
