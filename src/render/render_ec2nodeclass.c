/*
 * render_ec2nodeclass.c - the EC2NodeClass (karpenter.k8s.aws/v1) of a
 * Karpenter fallback with fallback.nodeClass (docs/design/artifacts.md, "Fallback nodes"): the
 * node class the NodePool's nodeClassRef names, so that the AMI family the
 * fallback device plugin assumes (nodeImage) is the one the nodes boot.
 *   - role or instanceProfile, subnet and security-group selector terms,
 *     tags, as the spec gives them;
 *   - amiSelectorTerms: [{alias: <nodeImage>@<amiVersion or latest>}];
 *   - metadataOptions: IMDSv2 (httpTokens required, hop limit 1) unless
 *     the spec says otherwise, every field written (the CRD's defaults);
 *   - Bottlerocket with imageCache: the OS volume /dev/xvda as Karpenter's
 *     default has it, and the data volume /dev/xvdb (containerd's images)
 *     restored from the snapshot of pre-pulled images;
 *   - imageVolume: the volume that holds the images (AL2023 root, or the
 *     Bottlerocket data volume), and instanceStorePolicy RAID0 when asked
 *     or when every instance type has local NVMe;
 *   - capacityReservationSelectorTerms as the spec gives them.
 */
#include <string.h>

#include "base/arena.h"
#include "render/render_fallback.h"
#include "render/render_util.h"
#include "rules/instance_types.h"

static const struct pos no_pos = POS_NONE;

/* Bottlerocket's OS volume as Karpenter sizes it by default. */
#define BOTTLEROCKET_OS_VOLUME "4Gi"

/* One mapping; `v` (may be NULL: gp3, encrypted) is imageVolume. */
static struct node *
ebs_volume(struct arena *a, const char *device, const char *size, const char *snapshot,
	   const struct spec_image_volume *v)
{
	struct node *m = node_new_map(a, no_pos), *ebs;

	node_map_add_str(a, m, "deviceName", device);
	ebs = node_map_add(a, m, "ebs", node_new_map(a, no_pos));
	if (size)
		node_map_add_str(a, ebs, "volumeSize", size);
	node_map_add_str(a, ebs, "volumeType", v && v->type ? v->type : "gp3");
	if (v && v->iops)
		node_map_add_int(a, ebs, "iops", v->iops);
	if (v && v->throughput)
		node_map_add_int(a, ebs, "throughput", v->throughput);
	node_map_add_bool(a, ebs, "encrypted", v ? v->encrypted : true);
	if (v && v->kms_key_id)
		node_map_add_str(a, ebs, "kmsKeyID", v->kms_key_id);
	node_map_add_bool(a, ebs, "deleteOnTermination", true);
	if (snapshot)
		node_map_add_str(a, ebs, "snapshotID", snapshot);
	return m;
}

/* The volume that holds the images: AL2023's root (/dev/xvda), or
 * Bottlerocket's data volume (/dev/xvdb) beside its OS volume, restored
 * from the image cache's snapshot when there is one.  Karpenter replaces
 * its default mappings as a whole, so Bottlerocket gets both. */
static void
block_devices(struct arena *a, struct node *spec, const struct spec_fallback *fb)
{
	const struct spec_node_class *nc = &fb->node_class;
	const struct spec_image_volume *iv = nc->image_volume.set ? &nc->image_volume : NULL;
	struct node *bdm, *root;

	if (fb->node_image == IMAGE_BOTTLEROCKET && (nc->image_cache_snapshot || iv)) {
		bdm = node_map_add(a, spec, "blockDeviceMappings", node_new_seq(a, no_pos));
		node_seq_push(a, bdm,
			      ebs_volume(a, "/dev/xvda", BOTTLEROCKET_OS_VOLUME, NULL, NULL));
		node_seq_push(a, bdm,
			      ebs_volume(a, "/dev/xvdb",
					 iv ? iv->size : nc->image_cache_volume_size,
					 nc->image_cache_snapshot, iv));
	} else if (fb->node_image == IMAGE_AL2023 && iv) {
		bdm = node_map_add(a, spec, "blockDeviceMappings", node_new_seq(a, no_pos));
		root = ebs_volume(a, "/dev/xvda", iv->size, NULL, iv);
		node_map_add_bool(a, root, "rootVolume", true);
		node_seq_push(a, bdm, root);
	}
	if (render_instance_store_raid0(fb))
		node_map_add_str(a, spec, "instanceStorePolicy", "RAID0");
}

bool
render_instance_store_raid0(const struct spec_fallback *fb)
{
	return instance_types_raid0(fb->node_class.instance_store_policy, fb->instance_types,
				    fb->instance_type_count);
}

/* The node class of one pool that renders it (the fallback's; the burst
 * pool launches with it). */
static void
ec2nodeclass_one(struct render_ctx *ctx, const struct spec_site *site, const struct inv_pool *pool)
{
	const struct spec_fallback *fb;
	const struct spec_node_class *nc;
	const char *image;
	struct arena *a = ctx->arena;
	struct render_object *o;
	struct node *spec, *ami, *term, *meta;

	fb = pool->spec;
	nc = &fb->node_class;
	image = render_node_image_name(fb->node_image);
	o = render_object_add(ctx, &render_kind_ec2nodeclass, NULL, NULL, "", pool->class_name,
			      site->name, site->cluster.name, NULL,
			      nc->image_cache_snapshot
				      ? "the node class of the fallback NodePool: the pinned AMI"
					" family the fallback device plugin assumes, IMDSv2, and a"
					" data volume restored from the snapshot of pre-pulled"
					" images (recovery.imagePullCached)"
				      : "the node class of the fallback NodePool: the pinned AMI"
					" family the fallback device plugin assumes, IMDSv2");
	spec = node_map_add(a, o->obj, "spec", node_new_map(a, no_pos));
	if (nc->role)
		node_map_add_str(a, spec, "role", nc->role);
	else if (nc->instance_profile)
		node_map_add_str(a, spec, "instanceProfile", nc->instance_profile);
	ami = node_map_add(a, spec, "amiSelectorTerms", node_new_seq(a, no_pos));
	term = node_new_map(a, no_pos);
	node_map_add_str(
		a, term, "alias",
		arena_printf(a, "%s@%s", image, nc->ami_version ? nc->ami_version : "latest"));
	node_seq_push(a, ami, term);
	node_map_add(a, spec, "subnetSelectorTerms",
		     nc->subnet_terms ? node_clone(a, nc->subnet_terms) : node_new_seq(a, no_pos));
	node_map_add(a, spec, "securityGroupSelectorTerms",
		     nc->security_group_terms ? node_clone(a, nc->security_group_terms)
					      : node_new_seq(a, no_pos));
	meta = node_map_add(a, spec, "metadataOptions", node_new_map(a, no_pos));
	node_map_add_str(a, meta, "httpEndpoint", "enabled");
	node_map_add_str(a, meta, "httpProtocolIPv6", "disabled");
	node_map_add_int(a, meta, "httpPutResponseHopLimit", nc->http_put_response_hop_limit);
	node_map_add_str(a, meta, "httpTokens", nc->http_tokens ? nc->http_tokens : "required");
	block_devices(a, spec, fb);
	/* the On-Demand Capacity Reservations and Capacity Blocks that
	 * reserved capacity may use (Karpenter 1.3+, ReservedCapacity gate) */
	if (nc->reservation_terms && nc->reservation_terms->seq.count)
		node_map_add(a, spec, "capacityReservationSelectorTerms",
			     node_clone(a, nc->reservation_terms));
	if (nc->tag_count) {
		struct node *tags = node_map_add(a, spec, "tags", node_new_map(a, no_pos));

		for (size_t i = 0; i < nc->tag_count; i++)
			node_map_add_str(a, tags, nc->tags[i].key, nc->tags[i].value);
	}
}

static int
ec2nodeclass_site(struct render_ctx *ctx, const struct spec_site *site)
{
	for (size_t i = 0; i < ctx->inv->pool_count; i++)
		if (ctx->inv->pools[i].renders_class)
			ec2nodeclass_one(ctx, site, &ctx->inv->pools[i]);
	return 0;
}

const struct render_kind render_kind_ec2nodeclass = {
	.kind = "EC2NodeClass",
	.api_version = "karpenter.k8s.aws/v1",
	.rank = RENDER_RANK_EC2NODECLASS,
	.render_site = ec2nodeclass_site,
	.render_cluster = NULL,
	.group = "karpenter.k8s.aws",
	.version = "v1",
	.plural = "ec2nodeclasses",
	.namespaced = false,
	.crd = "karpenter/karpenter.k8s.aws_ec2nodeclasses.yaml",
	.live = true,
	.unchecked = "the CRD schema covers it; t2221 runs its CEL rules with cel-js",
};
