/*
 * gs11x_node_class.c - fallback.nodeClass, the EC2NodeClass gpusite
 * renders for a Karpenter fallback (docs/design/artifacts.md, "Fallback nodes"):
 *   GS112 nodeClass without nodeImage: amiSelectorTerms needs the family;
 *   GS113 imageCache with nodeImage al2023, which has no data volume;
 *   GS114 amiVersion absent or latest: the nodes boot an untested image;
 *   GS115 not exactly one of role and instanceProfile;
 *   GS116 two sites of one cluster render the same EC2NodeClass name;
 *   GS117 a tag key Karpenter reserves (the CRD refuses the object).
 */
#include <string.h>

#include "inventory/inventory.h"
#include "base/arena.h"
#include "rules/rules_int.h"

#define NC_PATH "spec.fallback.nodeClass"

static bool
renders_node_class(const struct spec_site *s)
{
	return s->fallback.enabled && s->cluster.provisioner == PROV_KARPENTER &&
	       s->fallback.node_class.set;
}

static void
check_gs112(struct rule_ctx *c, const struct spec_site *s)
{
	if (!renders_node_class(s) || s->fallback.node_image != IMAGE_UNSET)
		return;
	rule_report(c, s, rule_key_pos(s, s->fallback.src, "nodeClass"), NC_PATH,
		    "fallback.nodeClass is set without fallback.nodeImage: the"
		    " EC2NodeClass's amiSelectorTerms needs the AMI family; set"
		    " nodeImage: al2023 or bottlerocket");
}

static void
check_gs113(struct rule_ctx *c, const struct spec_site *s)
{
	const struct spec_node_class *nc = &s->fallback.node_class;

	if (!renders_node_class(s) || !nc->image_cache_snapshot ||
	    s->fallback.node_image != IMAGE_AL2023)
		return;
	rule_report(c, s, rule_key_pos(s, nc->src, "imageCache"), NC_PATH ".imageCache",
		    "fallback.nodeClass.imageCache is set with nodeImage al2023: the"
		    " AL2023 AMI keeps container images on its root volume and has no"
		    " separate data volume, so a snapshot of pre-pulled images cannot"
		    " be attached without replacing the OS; use nodeImage"
		    " bottlerocket (its data volume /dev/xvdb holds the images) or"
		    " remove imageCache");
}

static void
check_gs114(struct rule_ctx *c, const struct spec_site *s)
{
	const struct spec_node_class *nc = &s->fallback.node_class;
	const char *image = s->fallback.node_image == IMAGE_AL2023         ? "al2023"
			    : s->fallback.node_image == IMAGE_BOTTLEROCKET ? "bottlerocket"
									   : NULL;

	if (!renders_node_class(s) || !image ||
	    (nc->ami_version && strcmp(nc->ami_version, "latest")))
		return;
	rule_report(c, s,
		    nc->ami_version ? rule_pos(s, nc->src, "amiVersion")
				    : rule_key_pos(s, s->fallback.src, "nodeClass"),
		    NC_PATH ".amiVersion",
		    "fallback.nodeClass.amiVersion is %s: the fallback nodes boot"
		    " alias %s@latest, whatever AMI was released last, not the one"
		    " the failover was tested with; pin the tested release (such as"
		    " %s)",
		    nc->ami_version ? "latest" : "not set", image,
		    s->fallback.node_image == IMAGE_AL2023 ? "v20250101" : "v1.26.0");
}

/* KarpenterNodeRole-<cluster> (Karpenter's getting-started name), cut
 * to the 64 characters of an IAM role name: the schema's iamRoleName
 * takes it, as a cluster name holds only letters, digits, '-' and '_'. */
static const char *
example_role(struct rule_ctx *c, const struct spec_site *s)
{
	return arena_printf(c->arena, "%.64s",
			    arena_printf(c->arena, "KarpenterNodeRole-%s",
					 s->cluster.name ? s->cluster.name : ""));
}

static void
check_gs115(struct rule_ctx *c, const struct spec_site *s)
{
	const struct spec_node_class *nc = &s->fallback.node_class;

	if (!renders_node_class(s) || (!nc->role != !nc->instance_profile))
		return;
	if (nc->role)
		rule_report(c, s, rule_key_pos(s, nc->src, "instanceProfile"),
			    NC_PATH ".instanceProfile",
			    "fallback.nodeClass sets both role and instanceProfile: the"
			    " EC2NodeClass takes exactly one; keep role (Karpenter"
			    " makes the instance profile) or instanceProfile");
	else
		rule_report(c, s, rule_key_pos(s, s->fallback.src, "nodeClass"), NC_PATH,
			    "fallback.nodeClass has neither role nor instanceProfile:"
			    " the fallback nodes need an IAM identity to join the"
			    " cluster; set role (such as %s)",
			    example_role(c, s));
}

static void
gs116_repeat(struct rule_ctx *c, const struct rule_occurrence *first,
	     const struct rule_occurrence *again, void *payload)
{
	(void)payload;
	rule_report(c, again->site, again->at, again->path,
		    "site %s renders EC2NodeClass %s, which site %s (%s) renders"
		    " already in cluster %s: give one of them another"
		    " fallback.nodeClassName, or drop its nodeClass block to use the"
		    " other's",
		    again->site->name, strchr(again->key, '\n') + 1, first->site->name,
		    rule_pos_text(c, first->at), again->site->cluster.name);
}

static void
check_gs116(struct rule_ctx *c, const struct spec_fleet *f)
{
	struct rule_occurrence *v = arena_alloc(c->arena, (f->count ? f->count : 1) * sizeof(*v));
	size_t n = 0;

	for (size_t i = 0; i < f->count; i++) {
		const struct spec_site *s = f->sites[i];

		if (!renders_node_class(s))
			continue;
		rule_occurrence_set(
			&v[n++], s,
			arena_printf(
				c->arena, "%s\n%s", s->cluster.name,
				inventory_failover_pool(inventory_site(c->arena, s))->class_name),
			rule_key_pos(s, s->fallback.src, "nodeClass"), NC_PATH);
	}
	rule_each_repeat(c, v, n, gs116_repeat, NULL);
}

/* The tag keys the EC2NodeClass CRD refuses (its CEL rules on spec.tags). */
static const char *
reserved_tag(const char *k)
{
	static const char *const exact[] = {
		"eks:eks-cluster-name",
		"karpenter.sh/nodepool",
		"karpenter.sh/nodeclaim",
		"karpenter.k8s.aws/ec2nodeclass",
	};

	for (size_t i = 0; i < sizeof(exact) / sizeof(exact[0]); i++)
		if (!strcmp(k, exact[i]))
			return exact[i];
	if (!strncmp(k, "kubernetes.io/cluster", strlen("kubernetes.io/cluster")))
		return "kubernetes.io/cluster/";
	return NULL;
}

static void
check_gs117(struct rule_ctx *c, const struct spec_site *s)
{
	const struct spec_node_class *nc = &s->fallback.node_class;
	const struct node *tags = nc->src ? node_map_get(nc->src, "tags") : NULL;

	if (!renders_node_class(s))
		return;
	for (size_t i = 0; i < nc->tag_count; i++) {
		const char *r = reserved_tag(nc->tags[i].key);

		if (r)
			rule_report(c, s, rule_key_pos(s, tags, nc->tags[i].key),
				    arena_printf(c->arena, NC_PATH ".tags.%s", nc->tags[i].key),
				    "fallback.nodeClass.tags sets '%s': Karpenter reserves"
				    " %s for itself and the EC2NodeClass CRD refuses it;"
				    " remove the tag",
				    rule_quote(nc->tags[i].key), r);
	}
}

const struct rule rule_gs112 = {
	.id = "GS112",
	.check_site = check_gs112,
};

const struct rule rule_gs113 = {
	.id = "GS113",
	.check_site = check_gs113,
};

const struct rule rule_gs114 = {
	.id = "GS114",
	.check_site = check_gs114,
};

const struct rule rule_gs115 = {
	.id = "GS115",
	.check_site = check_gs115,
};

/* Sites of one cluster meet by its name. */
static void
keys_gs116(struct rule_keys *k, const struct spec_site *s)
{
	rule_key(k, s->cluster.name);
}

const struct rule rule_gs116 = {
	.id = "GS116",
	.check_fleet = check_gs116,
	.fleet_keys = keys_gs116,
};

const struct rule rule_gs117 = {
	.id = "GS117",
	.check_site = check_gs117,
};
