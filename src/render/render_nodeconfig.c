/*
 * render_nodeconfig.c - nodeadm NodeConfigs (node.eks.aws/v1alpha1) with
 * the GPU taint and the node labels set at registration, and their
 * secret-free copies in the ConfigMap kube-system/gpusite-nodeconfig-<site>
 * (docs/design/artifacts.md, "NodeConfig").
 */
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "render/render_util.h"
#include "rules/rules.h"
#include "yamlio/yamlio.h"

#define NODECONFIG_API_VERSION "node.eks.aws/v1alpha1"
/* core/v1 ConfigMap validation: the keys and values of data and
 * binaryData add up to at most 1 MiB. */
#define CONFIGMAP_BYTES_CAP (1u << 20)
#define RULE_CONFIGMAP_SIZE "GS106"
#define TOTAL_OVER ((size_t)-1 / 2)
#define RULE_ACTIVATION_ENV "GS103"

/*
 * SSM CreateActivation returns ActivationCode as a string of 20 to 250
 * characters (the API's length constraint, and nodeadm's ^.{20,250}$);
 * the codes it issues are base64 text, 20 characters such as
 * "Zqr175DJ+sPQRHsmbzzf" in the API examples.  A space, a quote, a newline
 * or any other character outside base64 is therefore never a code, and
 * in a YAML file it could change what nodeadm reads.
 */
#define SSM_CODE_MIN 20
#define SSM_CODE_MAX 250

static const struct pos no_pos = POS_NONE;

/* --node-labels=k=v,... sorted by key; the tool's labels win over a group
 * label of the same key (rules forbid most such clashes). */
static const char *
node_labels_flag(struct arena *a, const struct spec_site *site, const struct spec_node_group *g)
{
	struct render_kvs kv = { NULL, 0, 0 };
	size_t len = 0, cap;
	char *out;

	kv.items = (struct spec_kv *)inventory_group_labels(a, site, g, &kv.count);

	cap = sizeof("--node-labels=");
	for (size_t i = 0; i < kv.count; i++)
		cap += strlen(kv.items[i].key) + strlen(kv.items[i].value) + 2;
	out = arena_alloc(a, cap);
	memcpy(out, "--node-labels=", 14);
	len = 14;
	for (size_t i = 0; i < kv.count; i++) {
		size_t kl = strlen(kv.items[i].key), vl = strlen(kv.items[i].value);

		if (i)
			out[len++] = ',';
		memcpy(out + len, kv.items[i].key, kl);
		len += kl;
		out[len++] = '=';
		memcpy(out + len, kv.items[i].value, vl);
		len += vl;
	}
	out[len] = '\0';
	return out;
}

/* --register-with-taints=<GPU taint>,<group taints in spec order>. */
static const char *
taints_flag(struct arena *a, const struct spec_site *site, const struct spec_node_group *g)
{
	const char *s = arena_printf(a, "--register-with-taints=%s",
				     render_taint_text(a, &site->gpu_taint));

	for (size_t i = 0; i < g->taint_count; i++)
		s = arena_printf(a, "%s,%s", s, render_taint_text(a, &g->taints[i]));
	return s;
}

struct node *
render_nodeconfig_doc(struct arena *a, const struct spec_site *site,
		      const struct spec_node_group *g, const char *node,
		      const char *activation_code)
{
	struct node *doc = node_new_map(a, no_pos), *spec, *cluster, *hybrid;
	struct node *kubelet, *flags;

	node_map_add_str(a, doc, "apiVersion", NODECONFIG_API_VERSION);
	node_map_add_str(a, doc, "kind", "NodeConfig");
	spec = node_map_add(a, doc, "spec", node_new_map(a, no_pos));
	cluster = node_map_add(a, spec, "cluster", node_new_map(a, no_pos));
	node_map_add_str(a, cluster, "name", site->cluster.name);
	node_map_add_str(a, cluster, "region", site->cluster.region);

	hybrid = node_map_add(a, spec, "hybrid", node_new_map(a, no_pos));
	if (g->credentials == CRED_IAMRA) {
		struct node *ra =
			node_map_add(a, hybrid, "iamRolesAnywhere", node_new_map(a, no_pos));

		node_map_add_str(a, ra, "nodeName", node);
		node_map_add_str(a, ra, "trustAnchorArn", g->iamra.trust_anchor_arn);
		node_map_add_str(a, ra, "profileArn", g->iamra.profile_arn);
		node_map_add_str(a, ra, "roleArn", g->iamra.role_arn);
		/* Always written: `nodeadm config check` does not default them. */
		node_map_add_str(a, ra, "certificatePath",
				 g->iamra.certificate_path ? g->iamra.certificate_path
							   : "/etc/iam/pki/server.pem");
		node_map_add_str(a, ra, "privateKeyPath",
				 g->iamra.private_key_path ? g->iamra.private_key_path
							   : "/etc/iam/pki/server.key");
	} else {
		struct node *ssm = node_map_add(a, hybrid, "ssm", node_new_map(a, no_pos));

		if (activation_code)
			node_map_add_str(a, ssm, "activationCode", activation_code);
		node_map_add_str(a, ssm, "activationId", g->ssm.activation_id);
	}

	kubelet = node_map_add(a, spec, "kubelet", node_new_map(a, no_pos));
	if (g->kubelet_config && g->kubelet_config->kind == NODE_MAP &&
	    g->kubelet_config->map.count)
		node_map_add(a, kubelet, "config", node_clone(a, g->kubelet_config));
	flags = node_map_add(a, kubelet, "flags", node_new_seq(a, no_pos));
	node_seq_push(a, flags, node_new_str(a, no_pos, node_labels_flag(a, site, g)));
	node_seq_push(a, flags, node_new_str(a, no_pos, taints_flag(a, site, g)));
	for (size_t i = 0; i < g->kubelet_flag_count; i++)
		node_seq_push(a, flags, node_new_str(a, no_pos, g->kubelet_flags[i]));
	return doc;
}

/* 0 when `code` is base64 text ('=' padding only at its end), else the
 * 1-based position of the first character that is not. */
static size_t
code_bad_char(const char *code)
{
	size_t n = strlen(code), pad = 0;

	while (pad < 2 && pad < n && code[n - 1 - pad] == '=')
		pad++;
	for (size_t i = 0; i < n - pad; i++) {
		unsigned char ch = (unsigned char)code[i];

		if (!((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') ||
		      (ch >= '0' && ch <= '9') || ch == '+' || ch == '/'))
			return i + 1;
	}
	return 0;
}

/* The activation code of an SSM group, or NULL after a diagnostic.  The
 * value itself never reaches a message, and a variable whose name GS103
 * refuses is never read. */
static const char *
activation_code(struct render_ctx *ctx, const struct spec_site *site,
		const struct spec_node_group *g)
{
	const char *env = g->ssm.activation_code_env;
	const char *code, *why;
	struct pos at = spec_field_pos(g->ssm.src, "activationCodeEnv");
	size_t n, bad;

	if (env && *env && (why = rules_activation_env_problem(env))) {
		diag_report(ctx->diags, at, RULE_ACTIVATION_ENV,
			    "spec.nodeGroups.credentials.ssm.activationCodeEnv",
			    "site '%s', node group '%s': activationCodeEnv %s cannot name"
			    " the variable of an SSM activation code: %s; it was not read",
			    site->name, g->name, env, why);
		return NULL;
	}
	code = env && ctx->opt->getenv ? ctx->opt->getenv(env) : NULL;
	if (!env || !*env) {
		diag_report(ctx->diags, at, RENDER_RULE_SECRET_ENV,
			    "spec.nodeGroups.credentials.ssm.activationCodeEnv",
			    "site '%s', node group '%s': no activationCodeEnv names the"
			    " variable that holds the SSM activation code",
			    site->name, g->name);
		return NULL;
	}
	if (!code || !*code) {
		diag_report(ctx->diags, at, RENDER_RULE_SECRET_ENV,
			    "spec.nodeGroups.credentials.ssm.activationCodeEnv",
			    "environment variable %s is not set: it must hold the SSM"
			    " activation code of node group '%s' of site '%s' to write its"
			    " NodeConfig; set it, or render without --nodeconfigs",
			    env, g->name, site->name);
		return NULL;
	}
	n = strlen(code);
	if (n < SSM_CODE_MIN || n > SSM_CODE_MAX) {
		diag_report(ctx->diags, at, RENDER_RULE_SECRET_ENV,
			    "spec.nodeGroups.credentials.ssm.activationCodeEnv",
			    "environment variable %s holds %zu characters, but an SSM"
			    " activation code has %d to %d (nodeadm rejects it): set it to"
			    " the code of the activation",
			    env, n, SSM_CODE_MIN, SSM_CODE_MAX);
		return NULL;
	}
	if ((bad = code_bad_char(code))) {
		diag_report(ctx->diags, at, RENDER_RULE_SECRET_ENV,
			    "spec.nodeGroups.credentials.ssm.activationCodeEnv",
			    "environment variable %s holds a character an SSM activation"
			    " code never has (at position %zu: codes are base64 text of"
			    " letters, digits, '+', '/' and '=' padding): set it to the"
			    " code of the activation, without spaces, quotes or newlines",
			    env, bad);
		return NULL;
	}
	return code;
}

/* The ConfigMap's value: the NodeConfig as YAML, without the secret.
 * Adds its key and value bytes to *total; one value over the cap is
 * left out and makes *total TOTAL_OVER (and NULL is returned). */
static const struct node *
add_data(struct render_ctx *ctx, struct node *data, const char *key, const struct node *doc,
	 size_t *total)
{
	struct node *v = NULL;
	struct buf b;

	buf_init(&b, CONFIGMAP_BYTES_CAP);
	/* the bytes emit_document() writes for YAML */
	if (yamlio_emit(&b, doc, 0) >= 0) {
		v = node_new_strn(ctx->arena, no_pos, b.data, b.len);
		node_map_add(ctx->arena, data, key, v);
		if (*total < TOTAL_OVER)
			*total += strlen(key) + b.len;
	} else {
		*total = TOTAL_OVER;
	}
	buf_release(&b);
	return v;
}

/* Where a site's NodeConfig findings point: spec.nodeGroups. */
static struct pos
groups_pos(const struct spec_site *site)
{
	const struct node *spec =
		site->doc && site->doc->kind == NODE_MAP ? node_map_get(site->doc, "spec") : NULL;
	const struct node_pair *p =
		spec && spec->kind == NODE_MAP ? node_map_pair(spec, "nodeGroups") : NULL;

	if (p && p->key)
		return p->key->at;
	return (struct pos){ site->file, 0, 0 };
}

static int
nodeconfig_site(struct render_ctx *ctx, const struct spec_site *site)
{
	struct arena *a = ctx->arena;
	const struct inv_object *map = inventory_object(ctx->inv, INV_ROLE_NODECONFIG_MAP);
	struct render_object *o;
	struct node *data;
	bool files = ctx->opt->files && !ctx->opt->no_nodeconfig_files;
	size_t total = 0;
	int rc = 0;

	o = render_object_add(ctx, &render_kind_nodeconfig, "v1", "ConfigMap", map->namespace,
			      map->name, site->name, site->cluster.name, NULL,
			      "the nodeadm NodeConfigs of the site's on-prem GPU nodes"
			      " (SSM activation codes left out), so reviewers and Argo CD"
			      " see them change");
	data = node_map_add(a, o->obj, "data", node_new_map(a, no_pos));

	for (size_t gi = 0; gi < site->group_count; gi++) {
		const struct spec_node_group *g = &site->groups[gi];

		if (g->credentials == CRED_IAMRA) {
			for (size_t ni = 0; ni < g->node_count; ni++) {
				const char *n = g->nodes[ni];
				struct node *doc = render_nodeconfig_doc(a, site, g, n, NULL);

				const struct node *v;

				v = add_data(ctx, data, arena_printf(a, "%s.%s.yaml", g->name, n),
					     doc, &total);
				/* no secret in it: the file is the ConfigMap's
				 * value, byte for byte, emitted once */
				if (files && v)
					render_file_add_text(ctx, RENDER_FILE_NODECONFIG,
							     arena_printf(a, "%s/%s/%s.yaml",
									  site->name, g->name, n),
							     site->name, doc, v->scalar.text,
							     v->scalar.len);
				else if (files)
					render_file_add(ctx, RENDER_FILE_NODECONFIG,
							arena_printf(a, "%s/%s/%s.yaml", site->name,
								     g->name, n),
							site->name, doc, false);
			}
		} else if (g->credentials == CRED_SSM) {
			struct node *doc = render_nodeconfig_doc(a, site, g, NULL, NULL);

			add_data(ctx, data, arena_printf(a, "%s.yaml", g->name), doc, &total);
			if (files) {
				const char *code = activation_code(ctx, site, g);

				if (!code) {
					rc = -1;
					continue;
				}
				render_file_add(ctx, RENDER_FILE_NODECONFIG,
						arena_printf(a, "%s/%s.yaml", site->name, g->name),
						site->name,
						render_nodeconfig_doc(a, site, g, NULL, code),
						true);
			}
		}
	}
	if (total > CONFIGMAP_BYTES_CAP) {
		diag_report(ctx->diags, groups_pos(site), RULE_CONFIGMAP_SIZE, "spec.nodeGroups",
			    "site '%s': the ConfigMap kube-system/gpusite-nodeconfig-%s"
			    " would hold %s bytes of NodeConfigs, over the 1048576 (1 MiB)"
			    " the API server accepts in a ConfigMap: split the site's node"
			    " groups into several sites",
			    site->name, site->name,
			    total >= TOTAL_OVER ? "more than 1048576"
						: arena_printf(a, "%zu", total));
		return -1;
	}
	/* Data keys in one order whatever the spec's group order. */
	if (data->map.count > 1) {
		for (size_t i = 1; i < data->map.count; i++) {
			struct node_pair cur = data->map.pairs[i];
			size_t j = i;

			for (; j > 0 &&
			       strcmp(node_str(data->map.pairs[j - 1].key), node_str(cur.key)) > 0;
			     j--)
				data->map.pairs[j] = data->map.pairs[j - 1];
			data->map.pairs[j] = cur;
		}
	}
	return rc;
}

const struct render_kind render_kind_nodeconfig = {
	.kind = "ConfigMap",
	.api_version = "v1",
	.rank = RENDER_RANK_CONFIGMAP,
	.render_site = nodeconfig_site,
	.render_cluster = NULL,
	.group = "",
	.version = "v1",
	.plural = "configmaps",
	.namespaced = true,
	.crd = NULL,
	.live = true,
	.unchecked = NULL,
};
