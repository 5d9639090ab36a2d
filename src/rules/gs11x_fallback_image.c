/*
 * gs11x_fallback_image.c - what the fallback nodes boot and whether they
 * get a device plugin (docs/design/artifacts.md, "Fallback nodes"):
 *   GS110 a Karpenter fallback without fallback.nodeImage: gpusite cannot
 *         tell whether the nodes need its device plugin, so either risk
 *         is open (none: GPU pods Pending; two on Bottlerocket: doubled).
 *   GS111 fallback.nodeImage, devicePluginVersion or nodeClass with
 *         provisioner auto-mode, which manages its own image, plugin and
 *         node class.
 */
#include "base/arena.h"
#include "rules/rules_int.h"

static void
check_gs110(struct rule_ctx *c, const struct spec_site *s)
{
	const struct node *spec =
		s->doc && s->doc->kind == NODE_MAP ? node_map_get(s->doc, "spec") : NULL;

	/* with a nodeClass block, GS112 already asks for nodeImage */
	if (s->cluster.provisioner != PROV_KARPENTER || !s->fallback.enabled ||
	    s->fallback.node_image != IMAGE_UNSET || s->fallback.node_class.set)
		return;
	/* at "fallback:", or at "spec:" when the whole block is defaulted */
	rule_report(c, s,
		    s->fallback.src ? rule_key_pos(s, spec, "fallback") : rule_pos(s, NULL, NULL),
		    "spec.fallback.nodeImage",
		    "fallback.nodeImage is not set, so gpusite cannot tell whether the"
		    " fallback nodes need its device plugin: on an AL2023 NVIDIA AMI no"
		    " plugin runs and GPU pods stay Pending exactly when the site is"
		    " down; on Bottlerocket, which brings its own, a second plugin"
		    " would double-advertise the GPUs. Set nodeImage to the AMI family"
		    " of the fallback EC2NodeClass (al2023 or bottlerocket)");
}

const struct rule rule_gs110 = {
	.id = "GS110",
	.check_site = check_gs110,
};

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
	.check_site = check_gs111,
};
