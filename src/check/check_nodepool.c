/*
 * check_nodepool.c - a Karpenter v1 NodePool as the AWS provider's CRD
 * (v1.14.1) and Karpenter's runtime validation judge it: every CEL rule of
 * the CRD that does not need the old object (docs/design/upstream.md, "Karpenter"),
 * and NodePool.RuntimeValidate (§4), which only sets the condition
 * ValidationSucceeded=False on a pool the API server accepted.  Each rule
 * has its own ID and carries upstream's message.
 *
 * Not here: S1 and N1/N2 compare with oldSelf (transition rules, only on
 * update); patterns, enums and ranges are the schema's (GS130).
 */
#include <string.h>

#include "base/strlist.h"
#include "base/arena.h"
#include "check/check_int.h"
#include "k8s/k8s_int.h"

#define LABELS "spec.template.metadata.labels"
#define REQS "spec.template.spec.requirements"

/* L4/K4: the karpenter.k8s.aws keys the AWS provider allows. */
static const char *const aws_allowed[] = {
	"karpenter.k8s.aws/instance-tenancy",
	"karpenter.k8s.aws/capacity-reservation-type",
	"karpenter.k8s.aws/capacity-reservation-id",
	"karpenter.k8s.aws/capacity-reservation-interruptible",
	"karpenter.k8s.aws/ec2nodeclass",
	"karpenter.k8s.aws/instance-encryption-in-transit-supported",
	"karpenter.k8s.aws/instance-category",
	"karpenter.k8s.aws/instance-hypervisor",
	"karpenter.k8s.aws/instance-family",
	"karpenter.k8s.aws/instance-generation",
	"karpenter.k8s.aws/instance-local-nvme",
	"karpenter.k8s.aws/instance-size",
	"karpenter.k8s.aws/instance-cpu",
	"karpenter.k8s.aws/instance-cpu-manufacturer",
	"karpenter.k8s.aws/instance-cpu-sustained-clock-speed-mhz",
	"karpenter.k8s.aws/instance-memory",
	"karpenter.k8s.aws/instance-ebs-bandwidth",
	"karpenter.k8s.aws/instance-network-bandwidth",
	"karpenter.k8s.aws/instance-gpu-name",
	"karpenter.k8s.aws/instance-gpu-manufacturer",
	"karpenter.k8s.aws/instance-gpu-count",
	"karpenter.k8s.aws/instance-gpu-memory",
	"karpenter.k8s.aws/instance-accelerator-name",
	"karpenter.k8s.aws/instance-accelerator-manufacturer",
	"karpenter.k8s.aws/instance-accelerator-count",
	"karpenter.k8s.aws/instance-capability-flex",
	"karpenter.k8s.aws/placement-group-id",
	"karpenter.k8s.aws/placement-group-partition",
};

static const char *const operators[] = {
	"In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt", "Gte", "Lte",
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* CEL `key.find("^([^/]+)").endsWith(domain)`: the part before the
 * first '/' (the whole key without one); a plain suffix test. */
static bool
domain_ends_with(const char *key, const char *domain)
{
	const char *slash = strchr(key, '/');
	size_t n = slash ? (size_t)(slash - key) : strlen(key), m = strlen(domain);

	return n >= m && !strncmp(key + n - m, domain, m);
}

/* L1-L4 on a template label key, K1-K4 on a requirement key. */
static void
restricted_key(struct check_ctx *c, const struct node *at, const char *path, const char *key,
	       const char *where)
{
	static const char *const sh_allowed[] = { "karpenter.sh/capacity-type",
						  "karpenter.sh/nodepool" };

	if (!str_listed(key, sh_allowed, COUNT(sh_allowed)) &&
	    domain_ends_with(key, "karpenter.sh"))
		check_report(c, CHECK_NP_DOMAIN_SH, at, path,
			     "label domain \"karpenter.sh\" is restricted: %s \"%s\" makes the API "
			     "server reject the NodePool; use another domain",
			     where, key);
	if (!strcmp(key, "karpenter.sh/nodepool"))
		check_report(c, CHECK_NP_NODEPOOL, at, path,
			     "label \"karpenter.sh/nodepool\" is restricted: %s \"%s\" makes the "
			     "API server reject the NodePool; Karpenter sets it on every node it "
			     "launches, remove it",
			     where, key);
	if (!strcmp(key, "kubernetes.io/hostname"))
		check_report(c, CHECK_NP_HOSTNAME, at, path,
			     "label \"kubernetes.io/hostname\" is restricted: %s \"%s\" makes the "
			     "API server reject the NodePool; remove it",
			     where, key);
	if (!str_listed(key, aws_allowed, COUNT(aws_allowed)) &&
	    domain_ends_with(key, "karpenter.k8s.aws"))
		check_report(c, CHECK_NP_DOMAIN_AWS, at, path,
			     "label domain \"karpenter.k8s.aws\" is restricted: %s \"%s\" is not "
			     "one of the well-known karpenter.k8s.aws labels, so the AWS "
			     "provider's CRD rejects the NodePool",
			     where, key);
}

static void
template_labels(struct check_ctx *c, const struct node *labels)
{
	for (size_t i = 0; labels && labels->kind == NODE_MAP && i < labels->map.count; i++) {
		const struct node_pair *p = &labels->map.pairs[i];
		const char *k = node_text(p->key), *v = check_text(p->value);
		const char *path = check_path(c, LABELS, k);

		restricted_key(c, p->key, path, k, "template label");
		if (check_qualified_name(k) < 0)
			check_report(
				c, CHECK_NP_LABEL_KEY, p->key, path,
				"template label key \"%s\" is not a qualified name: Karpenter "
				"marks the NodePool ValidationSucceeded=False and launches nothing",
				k);
		if (check_label_value(v ? v : "") < 0)
			check_report(
				c, CHECK_NP_LABEL_VALUE, p->value, path,
				"template label \"%s\" value \"%s\" is not a valid label value: "
				"Karpenter marks the NodePool ValidationSucceeded=False",
				k, v ? v : "");
	}
}

static const char *values_text(struct check_ctx *c, const struct node *values);

static void
requirement(struct check_ctx *c, const struct node *r, const char *path)
{
	const struct node *key_n = node_map_get(r, "key");
	const struct node *op_n = node_map_get(r, "operator");
	const struct node *values = node_map_get(r, "values");
	const struct node *minv = node_map_get(r, "minValues");
	const char *key = node_str(key_n), *op = node_str(op_n);
	const char *vpath = check_path(c, path, "values");
	size_t nvalues = check_seq_count(values);
	long long v, mv;

	if (key) {
		restricted_key(c, key_n, check_path(c, path, "key"), key, "requirement key");
		if (check_qualified_name(key) < 0)
			check_report(c, CHECK_NP_LABEL_KEY, key_n, check_path(c, path, "key"),
				     "requirement key \"%s\" is not a qualified name: Karpenter "
				     "marks the NodePool ValidationSucceeded=False",
				     key);
	}
	if (op && !str_listed(op, operators, COUNT(operators)))
		check_report(c, CHECK_NP_OPERATOR, op_n, check_path(c, path, "operator"),
			     "requirement %s has an unsupported operator %s: use In, NotIn, "
			     "Exists, DoesNotExist, Gt, Lt, Gte or Lte",
			     key ? key : "", op);
	/* RuntimeValidate: every value a label value (the CRD's array-level
	 * maxLength/pattern does not reach the items) */
	for (size_t i = 0; i < nvalues; i++) {
		const char *s = check_text(values->seq.items[i]);

		if (!node_is_str(values->seq.items[i]) || check_label_value(s) < 0)
			check_report(c, CHECK_NP_LABEL_VALUE, values->seq.items[i],
				     check_index(c, vpath, i),
				     "requirement %s value \"%s\" is not a valid label value (a "
				     "string of at most 63 characters of [A-Za-z0-9_.-], starting "
				     "and ending alphanumeric): Karpenter marks the NodePool "
				     "ValidationSucceeded=False",
				     key ? key : "", s ? s : "");
	}
	if (!op)
		return;
	/* R1 */
	if (!strcmp(op, "In") && nvalues == 0)
		check_report(c, CHECK_NP_IN_VALUES, r, path,
			     "requirements with operator 'In' must have a value defined: %s In [] "
			     "matches no instance type; list the values",
			     key ? key : "");
	/* R2: int() of a non-integer is an evaluation error, which rejects too */
	if (!strcmp(op, "Gt") || !strcmp(op, "Lt") || !strcmp(op, "Gte") || !strcmp(op, "Lte")) {
		if (nvalues != 1 || !k8s_parse_int64(check_text(values->seq.items[0]), &v) || v < 0)
			check_report(c, CHECK_NP_INT_OP, nvalues ? values : r,
				     nvalues ? vpath : path,
				     "requirements operator 'Gt', 'Lt', 'Gte', or 'Lte' must have "
				     "a single positive integer value: %s %s has %zu value%s%s",
				     key ? key : "", op, nvalues, nvalues == 1 ? "" : "s",
				     nvalues == 1 ? " that is not a non-negative integer" : "");
	}
	/* R3 */
	if (!strcmp(op, "In") && minv && !node_is_null(minv) &&
	    k8s_parse_int64(check_text(minv), &mv) && (long long)nvalues < mv)
		check_report(
			c, CHECK_NP_MIN_VALUES, minv, check_path(c, path, "minValues"),
			"requirements with 'minValues' must have at least that many values "
			"specified in the 'values' field: %s has minValues %lld but %zu value%s",
			key ? key : "", mv, nvalues, nvalues == 1 ? "" : "s");
	/* RuntimeValidate: well-known keys with a fixed vocabulary */
	if (key && !strcmp(op, "In") && nvalues) {
		static const char *const cap[] = { "on-demand", "spot", "reserved" };
		static const char *const ten[] = { "default", "dedicated" };
		bool ok = false;

		if (!strcmp(key, "karpenter.sh/capacity-type")) {
			for (size_t i = 0; i < nvalues; i++)
				ok = ok ||
				     str_listed(check_text(values->seq.items[i]), cap, COUNT(cap));
			if (!ok)
				check_report(
					c, CHECK_NP_CAPACITY, values, vpath,
					"karpenter.sh/capacity-type In %s names no capacity type "
					"Karpenter knows: include on-demand, spot or reserved",
					values_text(c, values));
		} else if (!strcmp(key, "karpenter.k8s.aws/instance-tenancy")) {
			for (size_t i = 0; i < nvalues; i++)
				ok = ok ||
				     str_listed(check_text(values->seq.items[i]), ten, COUNT(ten));
			if (!ok)
				check_report(c, CHECK_NP_TENANCY, values, vpath,
					     "karpenter.k8s.aws/instance-tenancy In %s must "
					     "include default or dedicated",
					     values_text(c, values));
		}
	}
}

static const char *
values_text(struct check_ctx *c, const struct node *values)
{
	const char *s = "";

	for (size_t i = 0; i < check_seq_count(values); i++) {
		const char *v = check_text(values->seq.items[i]);

		s = arena_printf(c->a, "%s%s%s", s, i ? ", " : "", v ? v : "null");
	}
	return arena_printf(c->a, "[%s]", s);
}

static const char *
taint_effect(const struct node *t)
{
	const char *e = check_text(node_map_get(t, "effect"));

	return e ? e : "";
}

static void
taints(struct check_ctx *c, const struct node *spec)
{
	static const char *const lists[] = { "taints", "startupTaints" };
	static const char *const effects[] = { "NoSchedule", "PreferNoSchedule", "NoExecute" };
	const struct node *seen[256];
	const char *seen_path[256];
	size_t nseen = 0;

	for (size_t l = 0; l < COUNT(lists); l++) {
		const struct node *list = node_map_get(spec, lists[l]);
		const char *base = check_path(c, "spec.template.spec", lists[l]);

		for (size_t i = 0; i < check_seq_count(list); i++) {
			const struct node *t = list->seq.items[i];
			const char *path = check_index(c, base, i);
			const char *key = check_text(node_map_get(t, "key"));
			const char *value = check_text(node_map_get(t, "value"));
			const char *effect = taint_effect(t);

			if (key && check_qualified_name(key) < 0)
				check_report(c, CHECK_NP_TAINT_KEY, node_map_get(t, "key"),
					     check_path(c, path, "key"),
					     "taint key \"%s\" is not a qualified name: Karpenter "
					     "marks the NodePool ValidationSucceeded=False",
					     key);
			if (value && *value && check_qualified_name(value) < 0)
				check_report(
					c, CHECK_NP_TAINT_VALUE, node_map_get(t, "value"),
					check_path(c, path, "value"),
					"taint %s value \"%s\" is not a qualified name (Karpenter "
					"requires one, stricter than Kubernetes): the NodePool "
					"gets ValidationSucceeded=False and launches nothing",
					key ? key : "", value);
			if (*effect && !str_listed(effect, effects, COUNT(effects)))
				check_report(c, CHECK_NP_TAINT_EFFECT, node_map_get(t, "effect"),
					     check_path(c, path, "effect"),
					     "taint %s effect \"%s\" is not NoSchedule, "
					     "PreferNoSchedule or NoExecute",
					     key ? key : "", effect);
			for (size_t k = 0; key && k < nseen; k++) {
				const char *k2 = check_text(node_map_get(seen[k], "key"));

				if (k2 && !strcmp(k2, key) &&
				    !strcmp(taint_effect(seen[k]), effect)) {
					check_report(
						c, CHECK_NP_TAINT_DUP, t, path,
						"taint %s:%s appears twice in taints and "
						"startupTaints (first at %s): Karpenter marks the "
						"NodePool ValidationSucceeded=False; keep one",
						key, effect, seen_path[k]);
					break;
				}
			}
			if (nseen < COUNT(seen)) {
				seen_path[nseen] = path;
				seen[nseen++] = t;
			}
		}
	}
}

void
check_nodepool(struct check_ctx *c)
{
	const struct node *spec = node_map_get(c->obj, "spec");
	const struct node *tspec = node_path(spec, "template.spec");
	const struct node *replicas = node_map_get(spec, "replicas");
	const struct node *limits = node_map_get(spec, "limits");
	const struct node *budgets = node_path(spec, "disruption.budgets");
	const struct node *ref = node_map_get(tspec, "nodeClassRef");
	const struct node *reqs = node_map_get(tspec, "requirements");
	static const char *const ref_fields[] = { "group", "kind", "name" };

	/* S2, S3 (static pools) */
	if (replicas && !node_is_null(replicas)) {
		size_t nl = limits && limits->kind == NODE_MAP ? limits->map.count : 0;

		if (nl && !(nl == 1 && node_map_get(limits, "nodes")))
			check_report(c, CHECK_NP_STATIC_LIMITS, limits, "spec.limits",
				     "only 'limits.nodes' is supported on static NodePools: a pool "
				     "with replicas may not limit other resources");
		if (node_map_get(spec, "weight"))
			check_report(c, CHECK_NP_STATIC_WEIGHT, node_map_get(spec, "weight"),
				     "spec.weight",
				     "'weight' is not supported on static NodePools: drop weight "
				     "or replicas");
	}
	/* B1 */
	for (size_t i = 0; i < check_seq_count(budgets); i++) {
		const struct node *b = budgets->seq.items[i];

		if ((node_map_get(b, "schedule") != NULL) != (node_map_get(b, "duration") != NULL))
			check_report(c, CHECK_NP_BUDGET, b,
				     check_index(c, "spec.disruption.budgets", i),
				     "'schedule' must be set with 'duration': a budget needs both "
				     "or neither");
	}
	template_labels(c, node_path(spec, "template.metadata.labels"));
	/* nodeClassRef group/kind/name: self != '' */
	for (size_t i = 0; ref && ref->kind == NODE_MAP && i < COUNT(ref_fields); i++) {
		const struct node *f = node_map_get(ref, ref_fields[i]);
		const char *s = check_text(f);

		if (f && (!s || !*s))
			check_report(
				c, CHECK_NP_CLASSREF, f,
				check_path(c, "spec.template.spec.nodeClassRef", ref_fields[i]),
				"%s may not be empty: nodeClassRef must name the node class (%s)",
				ref_fields[i],
				!strcmp(ref_fields[i], "group")
					? "karpenter.k8s.aws or eks.amazonaws.com"
				: !strcmp(ref_fields[i], "kind") ? "EC2NodeClass or NodeClass"
								 : "its metadata.name");
		else if (!f)
			check_report(
				c, CHECK_NP_CLASSREF, ref, "spec.template.spec.nodeClassRef",
				"nodeClassRef has no %s: group, kind and name are all required",
				ref_fields[i]);
	}
	for (size_t i = 0; i < check_seq_count(reqs); i++)
		requirement(c, reqs->seq.items[i], check_index(c, REQS, i));
	taints(c, tspec);
}
