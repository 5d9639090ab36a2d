/*
 * gs02x_node_labels.c - what a hybrid node may say about itself:
 *   GS020 NodeRestriction: kubernetes.io / k8s.io label keys a kubelet
 *         may not set on its own Node;
 *   GS021 eks.amazonaws.com/compute-type (nodeadm's) and
 *         --hostname-override (rejected for hybrid nodes);
 *   GS022 --node-labels / --register-with-taints written by hand;
 *   GS023 label and taint syntax.
 */
#include <string.h>

#include "base/arena.h"
#include "k8s/k8s_labels.h"
#include "rules/rules_int.h"

#define COMPUTE_TYPE_LABEL "eks.amazonaws.com/compute-type"

static const struct node *
labels_map(const struct spec_node_group *g)
{
	const struct node *n =
		g->src && g->src->kind == NODE_MAP ? node_map_get(g->src, "labels") : NULL;

	return n && n->kind == NODE_MAP ? n : NULL;
}

static const char *
label_path(struct rule_ctx *c, const struct spec_site *s, const struct spec_node_group *g,
	   const char *key)
{
	return node_path_join(c->arena,
			      arena_printf(c->arena, "%s.labels", rule_group_path(c, s, g)), key);
}

static void
check_gs020(struct rule_ctx *c, const struct spec_site *s)
{
	size_t i, j;

	for (i = 0; i < s->group_count; i++) {
		const struct spec_node_group *g = &s->groups[i];

		for (j = 0; j < g->label_count; j++) {
			const char *key = g->labels[j].key;

			if (!k8s_node_restriction_forbids(key))
				continue;
			rule_report(c, s, rule_key_pos(s, labels_map(g), key),
				    label_path(c, s, g, key),
				    "node label '%s' is in a kubernetes.io / k8s.io "
				    "namespace that a kubelet may not set on its own "
				    "Node (NodeRestriction; the kubelet refuses to "
				    "start): use your own prefix, or "
				    "node.kubernetes.io/ or kubelet.kubernetes.io/",
				    rule_quote(key));
		}
	}
}

/* The flag's name without dashes and value: "--node-labels=a=b" -> "node-labels". */
static const char *
flag_name(struct rule_ctx *c, const char *flag)
{
	const char *p = flag, *eq;

	if (*p == '-')
		p++;
	if (*p == '-')
		p++;
	if (p == flag)
		return "";
	eq = strchr(p, '=');
	return eq ? arena_strndup(c->arena, p, (size_t)(eq - p)) : p;
}

/* Does a --node-labels / --register-with-taints value name `key`? */
static bool
flag_sets_key(const char *flag, const char *key)
{
	const char *v = strchr(flag, '=');
	size_t kl = strlen(key);

	if (!v)
		return false;
	for (v++; *v;) {
		if (!strncmp(v, key, kl) &&
		    (v[kl] == '=' || v[kl] == ':' || v[kl] == ',' || !v[kl]))
			return true;
		v = strchr(v, ',');
		if (!v)
			break;
		v++;
	}
	return false;
}

static void
check_gs021(struct rule_ctx *c, const struct spec_site *s)
{
	size_t i, j;

	if (!strcmp(s->gpu_taint.key, COMPUTE_TYPE_LABEL))
		rule_report(c, s, rule_pos(s, s->gpu_taint.src, "key"), "spec.gpuTaint.key",
			    "gpuTaint.key %s is nodeadm's "
			    "label for hybrid nodes: pick another taint key such "
			    "as nvidia.com/gpu",
			    COMPUTE_TYPE_LABEL);
	for (i = 0; i < s->group_count; i++) {
		const struct spec_node_group *g = &s->groups[i];
		const char *gp = rule_group_path(c, s, g);

		for (j = 0; j < g->label_count; j++)
			if (!strcmp(g->labels[j].key, COMPUTE_TYPE_LABEL))
				rule_report(c, s,
					    rule_key_pos(s, labels_map(g), COMPUTE_TYPE_LABEL),
					    label_path(c, s, g, COMPUTE_TYPE_LABEL),
					    "node label %s is set by nodeadm "
					    "(hybrid): remove it from labels",
					    COMPUTE_TYPE_LABEL);
		for (j = 0; j < g->taint_count; j++)
			if (!strcmp(g->taints[j].key, COMPUTE_TYPE_LABEL))
				rule_report(c, s, rule_pos(s, g->taints[j].src, "key"),
					    arena_printf(c->arena, "%s.taints[%zu].key", gp, j),
					    "taint key %s is nodeadm's label for "
					    "hybrid nodes: pick another key",
					    COMPUTE_TYPE_LABEL);
		for (j = 0; j < g->kubelet_flag_count; j++) {
			const char *f = g->kubelet_flags[j];
			const char *name = flag_name(c, f);
			const char *path = arena_printf(c->arena, "%s.kubelet.flags[%zu]", gp, j);

			if (!strcmp(name, "hostname-override"))
				rule_report(c, s, g->kubelet_flag_srcs[j]->at, path,
					    "kubelet flag --hostname-override is "
					    "rejected by nodeadm for hybrid nodes: the "
					    "node name comes from nodes "
					    "(iamRolesAnywhere) or from SSM, remove "
					    "the flag");
			else if ((!strcmp(name, "node-labels") ||
				  !strcmp(name, "register-with-taints")) &&
				 flag_sets_key(f, COMPUTE_TYPE_LABEL))
				rule_report(c, s, g->kubelet_flag_srcs[j]->at, path,
					    "kubelet flag --%s sets %s, which "
					    "nodeadm owns for hybrid nodes: remove it",
					    name, COMPUTE_TYPE_LABEL);
		}
	}
}

static void
check_gs022(struct rule_ctx *c, const struct spec_site *s)
{
	size_t i, j;

	for (i = 0; i < s->group_count; i++) {
		const struct spec_node_group *g = &s->groups[i];

		for (j = 0; j < g->kubelet_flag_count; j++) {
			const char *name = flag_name(c, g->kubelet_flags[j]);
			const char *use;

			if (!strcmp(name, "node-labels"))
				use = "labels";
			else if (!strcmp(name, "register-with-taints"))
				use = "taints";
			else
				continue;
			rule_report(c, s, g->kubelet_flag_srcs[j]->at,
				    arena_printf(c->arena, "%s.kubelet.flags[%zu]",
						 rule_group_path(c, s, g), j),
				    "kubelet flag --%s is written by gpusite from "
				    "the spec: move its contents to the node "
				    "group's %s so the GPU taint and labels stay "
				    "consistent",
				    name, use);
		}
	}
}

static void
labels_syntax(struct rule_ctx *c, const struct spec_site *s, const struct node *map,
	      const char *path, const char *what)
{
	size_t i;

	if (!map || map->kind != NODE_MAP)
		return;
	for (i = 0; i < map->map.count; i++) {
		const struct node_pair *p = &map->map.pairs[i];
		const char *key = node_text(p->key);
		const char *value = node_is_null(p->value) ? "" : node_text(p->value);
		const char *why;

		if (!key)
			continue;
		if ((why = k8s_qualified_name_problem(key)))
			rule_report(c, s, p->key->at, node_path_join(c->arena, path, key),
				    "%s key '%s' is not a valid label key: %s", what,
				    rule_quote(key), why);
		if (value && (why = k8s_label_value_problem(value)))
			rule_report(c, s, p->value->at, node_path_join(c->arena, path, key),
				    "%s value '%s' of %s is not a valid label "
				    "value: %s",
				    what, rule_quote(value), rule_quote(key), why);
	}
}

static void
taint_syntax(struct rule_ctx *c, const struct spec_site *s, const struct spec_taint *t,
	     const char *path)
{
	const char *why;

	if (!t->src)
		return; /* defaults */
	if ((why = k8s_qualified_name_problem(t->key)))
		rule_report(c, s, rule_pos(s, t->src, "key"),
			    arena_printf(c->arena, "%s.key", path),
			    "taint key '%s' is not valid: %s", rule_quote(t->key), why);
	if ((why = k8s_label_value_problem(t->value)))
		rule_report(c, s, rule_pos(s, t->src, "value"),
			    arena_printf(c->arena, "%s.value", path),
			    "taint value '%s' is not valid: %s", rule_quote(t->value), why);
	if (strcmp(t->effect, "NoSchedule") && strcmp(t->effect, "PreferNoSchedule") &&
	    strcmp(t->effect, "NoExecute"))
		rule_report(c, s, rule_pos(s, t->src, "effect"),
			    arena_printf(c->arena, "%s.effect", path),
			    "taint effect '%s' is not valid: use NoSchedule, "
			    "PreferNoSchedule or NoExecute",
			    rule_quote(t->effect));
}

static void
check_gs023(struct rule_ctx *c, const struct spec_site *s)
{
	const struct node *sel;
	size_t i, j;

	taint_syntax(c, s, &s->gpu_taint, "spec.gpuTaint");
	for (i = 0; i < s->group_count; i++) {
		const struct spec_node_group *g = &s->groups[i];
		const char *gp = rule_group_path(c, s, g);

		labels_syntax(c, s, labels_map(g), arena_printf(c->arena, "%s.labels", gp),
			      "node label");
		for (j = 0; j < g->taint_count; j++)
			taint_syntax(c, s, &g->taints[j],
				     arena_printf(c->arena, "%s.taints[%zu]", gp, j));
	}
	labels_syntax(c, s, s->alerts.src ? node_map_get(s->alerts.src, "labels") : NULL,
		      "spec.alerts.labels", "alert label");
	sel = s->placement.pod_selector;
	labels_syntax(c, s, sel ? node_map_get(sel, "matchLabels") : NULL,
		      "spec.placement.podSelector.matchLabels", "pod selector");
}

const struct rule rule_gs020 = {
	.id = "GS020",
	.check_site = check_gs020,
};

const struct rule rule_gs021 = {
	.id = "GS021",
	.check_site = check_gs021,
};

const struct rule rule_gs022 = {
	.id = "GS022",
	.check_site = check_gs022,
};

const struct rule rule_gs023 = {
	.id = "GS023",
	.check_site = check_gs023,
};
