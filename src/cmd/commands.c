#include "cmd/cmd.h"

/* Alphabetical; `gpusite --help` prints them in this order. */
const struct command commands[] = {
	{ "diff", cmd_diff,
	  "show what a change does to the rendered output, or how the cluster differs" },
	{ "drill", cmd_drill,
	  "the fallback drill: preconditions and plan, a safe run, the measured RTO" },
	{ "drift", cmd_drift,
	  "check the live cluster against the specs: taints, scope, fallback, pending GPU pods" },
	{ "explain", cmd_explain, "the RTO budget, capacity and what each rendered object is for" },
	{ "generate", cmd_generate,
	  "Argo CD plugin entry point: render the sites under the app path" },
	{ "init", cmd_init, "write a commented starter site spec" },
	{ "parameters", cmd_parameters, "Argo CD plugin: announce the parameters as JSON" },
	{ "render", cmd_render, "render the cluster stream, NodeConfig files and Helm values" },
	{ "report", cmd_report,
	  "the fleet page: capacity, recovery, what-ifs of sites failing with their cost" },
	{ "schema", cmd_schema, "print the JSON Schema of GPUSite" },
	{ "serve", cmd_serve,
	  "Argo CD ApplicationSet plugin generator: one element per cluster or site" },
	{ "validate", cmd_validate, "check site specs: YAML, schema and every rule" },
	{ "verify-scope", cmd_verify_scope,
	  "place each DaemonSet on each node and report where it runs" },
};
const size_t commands_count = sizeof(commands) / sizeof(commands[0]);
