/*
 * check_nodeconfig.c - a hybrid nodeadm NodeConfig as `nodeadm config
 * check` and `nodeadm init` judge it (docs/design/upstream.md, "nodeadm
 * and EKS Hybrid Nodes"), and the kubelet flags it carries as the kubelet itself would (--node-labels
 * under NodeRestriction's rules, --register-with-taints syntax).
 *
 * In the nodeconfig ConfigMap the SSM activation code is left out on
 * purpose (the secret never goes into the cluster stream): there its
 * absence is right and its presence is the error.
 */
#include <string.h>

#include "base/arena.h"
#include "check/check_int.h"
#include "k8s/k8s_labels.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Go regexp `^.{20,250}$`: code points, none of them a newline. */
static bool
activation_code_ok(const char *s)
{
	size_t runes = 0;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '\n')
			return false;
		if ((*p & 0xc0) != 0x80)
			runes++;
	}
	return runes >= 20 && runes <= 250;
}

/* ^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$ */
static bool
uuid_ok(const char *s)
{
	static const int groups[] = { 8, 4, 4, 4, 12 };

	for (size_t g = 0; g < COUNT(groups); g++) {
		for (int i = 0; i < groups[g]; i++, s++)
			if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
				return false;
		if (g + 1 < COUNT(groups) && *s++ != '-')
			return false;
	}
	return *s == '\0';
}

static void
required(struct check_ctx *c, const struct node *parent, const char *base, const char *field,
	 const char *rule, const char *why)
{
	const struct node *f = node_map_get(parent, field);
	const char *s = check_text(f);

	if (!s || !*s)
		check_report(c, rule, f ? f : parent, check_path(c, base, field),
			     "%s is missing in the hybrid NodeConfig: %s", field, why);
}

static void
ssm(struct check_ctx *c, const struct node *s)
{
	const struct node *code = node_map_get(s, "activationCode");
	const struct node *id = node_map_get(s, "activationId");
	const char *cs = check_text(code), *is = check_text(id);

	if (c->embedded) {
		if (code)
			check_report(c, CHECK_NC_SSM, code, "spec.hybrid.ssm.activationCode",
				     "the SSM activation code is published in the cluster stream: "
				     "it is a secret and belongs only in the NodeConfig file given "
				     "to the node");
	} else if (!cs || !activation_code_ok(cs)) {
		check_report(c, CHECK_NC_SSM, code ? code : s, "spec.hybrid.ssm.activationCode",
			     "%s: nodeadm requires an SSM activation code of 20 to 250 characters "
			     "on one line",
			     cs ? "the SSM activation code has the wrong length"
				: "the SSM activation code is missing");
	}
	if (!is || !uuid_ok(is))
		check_report(c, CHECK_NC_SSM, id ? id : s, "spec.hybrid.ssm.activationId",
			     "SSM activation id \"%s\" is not a lower-case UUID "
			     "(xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx): nodeadm rejects it",
			     is ? is : "");
}

static void
iamra(struct check_ctx *c, const struct node *r)
{
	static const char base[] = "spec.hybrid.iamRolesAnywhere";
	const struct node *nn = node_map_get(r, "nodeName");
	const char *name = check_text(nn);

	if (!name || !*name)
		check_report(c, CHECK_NC_IAMRA, nn ? nn : r,
			     "spec.hybrid.iamRolesAnywhere.nodeName",
			     "nodeName is missing: nodeadm needs it for IAM Roles Anywhere (it "
			     "becomes the Node name and must match the certificate's CN)");
	else if (strlen(name) > 64)
		check_report(c, CHECK_NC_IAMRA, nn, "spec.hybrid.iamRolesAnywhere.nodeName",
			     "nodeName \"%s\" is longer than 64 characters: nodeadm rejects it",
			     name);
	else if (check_dns1123_subdomain(name) < 0)
		check_report(c, CHECK_NC_IAMRA, nn, "spec.hybrid.iamRolesAnywhere.nodeName",
			     "nodeName \"%s\" is not a lower-case DNS-1123 subdomain: the kubelet "
			     "cannot register a Node by that name",
			     name);
	required(c, r, base, "trustAnchorArn", CHECK_NC_IAMRA,
		 "nodeadm needs the IAM Roles Anywhere trust anchor");
	required(c, r, base, "profileArn", CHECK_NC_IAMRA,
		 "nodeadm needs the IAM Roles Anywhere profile");
	required(c, r, base, "roleArn", CHECK_NC_IAMRA, "nodeadm needs the Hybrid Nodes role");
	required(c, r, base, "certificatePath", CHECK_NC_IAMRA,
		 "`nodeadm config check` does not apply the /etc/iam/pki/server.pem default, so "
		 "write it out");
	required(c, r, base, "privateKeyPath", CHECK_NC_IAMRA,
		 "`nodeadm config check` does not apply the /etc/iam/pki/server.key default, so "
		 "write it out");
}

/* "--name=value" or "--name" followed by the value in the next item. */
static const char *
flag_value(const struct node *flags, size_t *i, const char *name, bool *is)
{
	const char *f = check_text(flags->seq.items[*i]);
	size_t n = strlen(name);

	*is = false;
	if (!f || strncmp(f, name, n))
		return NULL;
	if (f[n] == '=') {
		*is = true;
		return f + n + 1;
	}
	if (f[n] == '\0') {
		*is = true;
		if (*i + 1 < flags->seq.count)
			return check_text(flags->seq.items[++*i]);
		return "";
	}
	return NULL;
}

static void
node_labels(struct check_ctx *c, const struct node *at, const char *path, const char *v)
{
	char *copy = arena_strdup(c->a, v), *save = NULL;

	for (char *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '=');
		const char *val = eq ? eq + 1 : "";

		if (eq)
			*eq = '\0';
		if (!eq || check_qualified_name(item) < 0 || check_label_value(val) < 0)
			check_report(
				c, CHECK_NC_FLAGS, at, path,
				"--node-labels item \"%s%s%s\" is not key=value with a qualified "
				"name and a valid label value: the kubelet does not start",
				item, eq ? "=" : "", val);
		else if (!strcmp(item, "eks.amazonaws.com/compute-type"))
			check_report(
				c, CHECK_NC_FLAGS, at, path,
				"--node-labels sets eks.amazonaws.com/compute-type: nodeadm sets "
				"it to hybrid and a later value would override it; remove it");
		else if (k8s_kubelet_refuses_label(item))
			check_report(c, CHECK_NC_FLAGS, at, path,
				     "--node-labels sets %s: the kubelet refuses to start with "
				     "\"unknown 'kubernetes.io' or 'k8s.io' labels specified with "
				     "--node-labels\"; use another domain",
				     item);
	}
}

static void
register_taints(struct check_ctx *c, const struct node *at, const char *path, const char *v)
{
	static const char *const effects[] = { "NoSchedule", "PreferNoSchedule", "NoExecute" };
	char *copy = arena_strdup(c->a, v), *save = NULL;

	for (char *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char *colon = strrchr(item, ':'), *eq;
		const char *value = "", *effect = colon ? colon + 1 : "";
		bool ok_effect = false;
		const char *orig = arena_strdup(c->a, item);

		if (colon)
			*colon = '\0';
		eq = strchr(item, '=');
		if (eq) {
			*eq = '\0';
			value = eq + 1;
		}
		for (size_t k = 0; k < COUNT(effects); k++)
			ok_effect = ok_effect || !strcmp(effect, effects[k]);
		if (!colon || !ok_effect || check_qualified_name(item) < 0 ||
		    check_label_value(value) < 0)
			check_report(c, CHECK_NC_FLAGS, at, path,
				     "--register-with-taints item \"%s\" is not key[=value]:effect "
				     "with a qualified key, a valid value and NoSchedule, "
				     "PreferNoSchedule or NoExecute: the kubelet does not start",
				     orig);
	}
}

static void
kubelet_flags(struct check_ctx *c, const struct node *flags)
{
	for (size_t i = 0; i < check_seq_count(flags); i++) {
		const struct node *at = flags->seq.items[i];
		const char *path = check_index(c, "spec.kubelet.flags", i);
		const char *v;
		bool is;

		if (!node_is_str(at)) {
			check_report(c, CHECK_NC_FLAGS, at, path,
				     "kubelet flag is not a string: quote it");
			continue;
		}
		flag_value(flags, &i, "--hostname-override", &is);
		if (is) {
			check_report(c, CHECK_NC_FLAGS, at, path,
				     "--hostname-override is not supported for hybrid nodes: "
				     "nodeadm rejects the NodeConfig (the node name comes from "
				     "nodeName or the SSM instance id)");
			continue;
		}
		v = flag_value(flags, &i, "--node-labels", &is);
		if (is) {
			node_labels(c, at, path, v ? v : "");
			continue;
		}
		v = flag_value(flags, &i, "--register-with-taints", &is);
		if (is)
			register_taints(c, at, path, v ? v : "");
	}
}

void
check_nodeconfig(struct check_ctx *c)
{
	const struct node *spec = node_map_get(c->obj, "spec");
	const struct node *cluster = node_map_get(spec, "cluster");
	const struct node *hybrid = node_map_get(spec, "hybrid");
	const struct node *s = node_map_get(hybrid, "ssm");
	const struct node *r = node_map_get(hybrid, "iamRolesAnywhere");
	const char *name = check_text(node_map_get(cluster, "name"));
	const char *region = check_text(node_map_get(cluster, "region"));

	if (!name || !*name)
		check_report(c, CHECK_NC_CLUSTER, cluster ? cluster : spec, "spec.cluster.name",
			     "Name is missing in cluster configuration: nodeadm needs "
			     "spec.cluster.name");
	if (!region || !*region)
		check_report(c, CHECK_NC_CLUSTER, cluster ? cluster : spec, "spec.cluster.region",
			     "Region is missing in cluster configuration: nodeadm needs "
			     "spec.cluster.region");
	if (!hybrid || node_is_null(hybrid)) {
		check_report(c, CHECK_NC_CREDENTIALS, spec, "spec.hybrid",
			     "spec.hybrid is missing: without it nodeadm configures an EC2 node, "
			     "not a hybrid node");
	} else if ((s && !node_is_null(s)) == (r && !node_is_null(r))) {
		check_report(c, CHECK_NC_CREDENTIALS, hybrid, "spec.hybrid",
			     s ? "Only one of IAMRolesAnywhere or SSM must be provided for hybrid "
				 "node configuration"
			       : "Either IAMRolesAnywhere or SSM must be provided for hybrid node "
				 "configuration");
	} else if (s && !node_is_null(s)) {
		ssm(c, s);
	} else {
		iamra(c, r);
	}
	kubelet_flags(c, node_path(spec, "kubelet.flags"));
}
