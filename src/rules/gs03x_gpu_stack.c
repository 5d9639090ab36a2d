/*
 * gs03x_gpu_stack.c - the NVIDIA stack as one pinned Helm chart:
 *   GS030 the chart version is one exact version;
 *   GS031 values may not set what the tool owns (hybrid scoping);
 *   GS032 device plugin without GFD never schedules by itself;
 *   GS033 dcgmExporter asked of the device-plugin chart, which lacks it;
 *   GS109 the chart version (or name) is one of the other stack's chart.
 */
#include <ctype.h>
#include <string.h>

#include "base/arena.h"
#include "rules/rules_int.h"

static bool
digits(const char **p)
{
	const char *s = *p;

	while (isdigit((unsigned char)**p))
		(*p)++;
	return *p != s;
}

static bool
ident_chars(const char **p)
{
	const char *s = *p;

	while (isalnum((unsigned char)**p) || **p == '.' || **p == '-')
		(*p)++;
	return *p != s;
}

/* SemVer 2.0 MAJOR.MINOR.PATCH[-pre][+build], with an optional leading
 * 'v' (NGC publishes gpu-operator as v26.7.0). */
static bool
exact_version(const char *v)
{
	const char *p = v;

	if (*p == 'v')
		p++;
	if (!digits(&p) || *p++ != '.' || !digits(&p) || *p++ != '.' || !digits(&p))
		return false;
	if (*p == '-') {
		p++;
		if (!ident_chars(&p))
			return false;
	}
	if (*p == '+') {
		p++;
		if (!ident_chars(&p))
			return false;
	}
	return *p == '\0';
}

/* A version of the chart of the site's stack type, for hints: the
 * nvidia-device-plugin chart is 0.x, gpu-operator vYY.M.P (GS109). */
static const char *
example_version(const struct spec_gpu_stack *gs)
{
	return gs->type == STACK_GPU_OPERATOR ? "v26.7.0" : "0.20.0";
}

static void
check_gs030(struct rule_ctx *c, const struct spec_site *s)
{
	const char *v = s->gpu_stack.chart.version;

	if (v && exact_version(v))
		return;
	rule_report(c, s, rule_pos(s, s->gpu_stack.chart.src, "version"),
		    "spec.gpuStack.chart.version",
		    "gpuStack.chart.version '%s' is not one exact version: pin "
		    "the chart (for example %s) so every sync installs the "
		    "same release",
		    v ? rule_quote(v) : "", example_version(&s->gpu_stack));
}

struct owned {
	enum spec_stack_type type;
	const char *path[3];
	const char *why;
	bool only_true; /* refused only when set to true */
};

static const struct owned owned_values[] = {
	{ STACK_DEVICE_PLUGIN,
	  { "nodeSelector" },
	  "it keeps the device plugin on hybrid nodes",
	  false },
	{ STACK_DEVICE_PLUGIN,
	  { "affinity" },
	  "the chart's default affinity is what matches NVIDIA nodes",
	  false },
	{ STACK_DEVICE_PLUGIN, { "tolerations" }, "they tolerate the GPU taint", false },
	{ STACK_DEVICE_PLUGIN, { "gfd", "enabled" }, "set gpuStack.gfd instead", false },
	{ STACK_DEVICE_PLUGIN,
	  { "nfd", "worker", "nodeSelector" },
	  "it keeps NFD on hybrid nodes",
	  false },
	{ STACK_DEVICE_PLUGIN,
	  { "nfd", "worker", "affinity" },
	  "it keeps NFD on hybrid nodes",
	  false },
	{ STACK_DEVICE_PLUGIN,
	  { "nfd", "worker", "tolerations" },
	  "they tolerate the GPU taint",
	  false },
	{ STACK_DEVICE_PLUGIN,
	  { "driver", "enabled" },
	  "hybrid hosts keep their own driver: nothing may install one",
	  true },
	{ STACK_GPU_OPERATOR,
	  { "driver", "enabled" },
	  "host drivers are managed on hybrid nodes, not by the operator",
	  false },
	{ STACK_GPU_OPERATOR, { "toolkit", "enabled" }, "set gpuStack.toolkit instead", false },
	{ STACK_GPU_OPERATOR,
	  { "dcgmExporter", "enabled" },
	  "set gpuStack.dcgmExporter instead",
	  false },
	{ STACK_GPU_OPERATOR, { "gfd", "enabled" }, "set gpuStack.gfd instead", false },
	{ STACK_GPU_OPERATOR,
	  { "daemonsets", "tolerations" },
	  "they tolerate the GPU taint",
	  false },
	{ STACK_GPU_OPERATOR,
	  { "node-feature-discovery", "worker", "nodeSelector" },
	  "scoping the NFD worker to hybrid nodes scopes every operand",
	  false },
	{ STACK_GPU_OPERATOR,
	  { "node-feature-discovery", "worker", "affinity" },
	  "scoping the NFD worker to hybrid nodes scopes every operand",
	  false },
	{ STACK_GPU_OPERATOR,
	  { "node-feature-discovery", "worker", "tolerations" },
	  "they tolerate the GPU taint",
	  false },
};

static void
check_gs031(struct rule_ctx *c, const struct spec_site *s)
{
	size_t i, k;

	if (!s->gpu_stack.values)
		return;
	for (i = 0; i < sizeof(owned_values) / sizeof(owned_values[0]); i++) {
		const struct owned *o = &owned_values[i];
		const struct node *map = s->gpu_stack.values;
		const struct node_pair *pair = NULL;
		const char *path = "spec.gpuStack.values";
		const char *dotted = "";

		if (o->type != s->gpu_stack.type)
			continue;
		for (k = 0; k < 3 && o->path[k]; k++) {
			if (!map || map->kind != NODE_MAP ||
			    !(pair = node_map_pair(map, o->path[k]))) {
				pair = NULL;
				break;
			}
			path = node_path_join(c->arena, path, o->path[k]);
			dotted = *dotted ? arena_printf(c->arena, "%s.%s", dotted, o->path[k])
					 : o->path[k];
			map = pair->value;
		}
		if (!pair ||
		    (o->only_true && !(node_is_bool(pair->value) && pair->value->scalar.i)))
			continue;
		rule_report(c, s, pair->key->at, path,
			    "gpuStack.values sets %s, which gpusite owns for the "
			    "%s chart (%s): remove it from values",
			    dotted, spec_stack_type_name(s->gpu_stack.type), o->why);
	}
}

static void
check_gs032(struct rule_ctx *c, const struct spec_site *s)
{
	if (s->gpu_stack.type != STACK_DEVICE_PLUGIN || s->gpu_stack.gfd)
		return;
	rule_report(c, s, rule_pos(s, s->gpu_stack.src, "gfd"), "spec.gpuStack.gfd",
		    "gpuStack.gfd is false with type device-plugin: the chart's "
		    "default affinity needs NFD's PCI labels "
		    "(feature.node.kubernetes.io/pci-10de.present), so the plugin "
		    "will not schedule unless something else labels the nodes; "
		    "keep gfd true");
}

static void
check_gs033(struct rule_ctx *c, const struct spec_site *s)
{
	if (s->gpu_stack.type != STACK_DEVICE_PLUGIN || !s->gpu_stack.dcgm_exporter_set ||
	    !s->gpu_stack.dcgm_exporter)
		return;
	rule_report(c, s, rule_pos(s, s->gpu_stack.src, "dcgmExporter"),
		    "spec.gpuStack.dcgmExporter",
		    "gpuStack.dcgmExporter is true with type device-plugin, whose "
		    "chart does not ship DCGM Exporter: install it separately, "
		    "or use type gpu-operator, and drop the field");
}

/* The major version of an exact version ("v26.7.0" -> 26), or -1. */
static long
major_version(const char *v)
{
	long m = 0;

	if (!v || !exact_version(v))
		return -1;
	if (*v == 'v')
		v++;
	for (; isdigit((unsigned char)*v) && m < 100000; v++)
		m = m * 10 + (*v - '0');
	return m;
}

/*
 * nvidia-device-plugin has only ever published 0.x releases; gpu-operator
 * publishes v1.x and, since 2022, year-based vYY.M.P (v24.9.0, v26.7.0).
 */
static void
check_gs109(struct rule_ctx *c, const struct spec_site *s)
{
	const struct spec_gpu_stack *gs = &s->gpu_stack;
	const char *name = gs->chart.src ? node_str(node_map_get(gs->chart.src, "name")) : NULL;
	long major = major_version(gs->chart.version);
	bool op = gs->type == STACK_GPU_OPERATOR;
	const char *other = op ? "nvidia-device-plugin" : "gpu-operator";

	if (name && !strcmp(name, other)) {
		rule_report(c, s, rule_pos(s, gs->chart.src, "name"), "spec.gpuStack.chart.name",
			    "gpuStack.chart.name is %s, the chart of the other "
			    "stack, but gpuStack.type is %s: set type: %s, or drop "
			    "chart.name (and the repoURL and version of that chart)",
			    other, spec_stack_type_name(gs->type),
			    op ? "device-plugin" : "gpu-operator");
		return;
	}
	if (major < 0 || (op ? major != 0 : major == 0))
		return;
	rule_report(c, s, rule_pos(s, gs->chart.src, "version"), "spec.gpuStack.chart.version",
		    "gpuStack.chart.version %s looks like a version of the %s "
		    "chart, but gpuStack.type is %s: Argo CD will not find it in "
		    "the %s chart; pin one of its versions (%s%s), or change type",
		    rule_quote(gs->chart.version), other, spec_stack_type_name(gs->type),
		    gs->chart.name ? gs->chart.name : "",
		    op ? "vYY.M.P, such as " : "0.x, such as ", example_version(gs));
}

const struct rule rule_gs030 = {
	.id = "GS030",
	.check_site = check_gs030,
};

const struct rule rule_gs031 = {
	.id = "GS031",
	.check_site = check_gs031,
};

const struct rule rule_gs032 = {
	.id = "GS032",
	.check_site = check_gs032,
};

const struct rule rule_gs033 = {
	.id = "GS033",
	.check_site = check_gs033,
};

const struct rule rule_gs109 = {
	.id = "GS109",
	.check_site = check_gs109,
};
