/*
 * scope_report.c - the placement table (rows DaemonSets, columns nodes)
 * as text, or everything as one JSON object.
 */
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "json/json.h"
#include "scope/scope.h"

static const char *
node_class(const struct scope_node *n)
{
	if (n->hybrid)
		return n->gpu ? "hybrid GPU" : "hybrid";
	return n->gpu ? "cloud GPU" : "cloud";
}

/* A reason of a running cell is "runtime label KEY=VALUE (by)". */
static bool
uses_label(const char *reason, const char *key)
{
	static const char prefix[] = "runtime label ";
	size_t n = strlen(key);

	return !strncmp(reason, prefix, sizeof(prefix) - 1) &&
	       !strncmp(reason + sizeof(prefix) - 1, key, n) &&
	       reason[sizeof(prefix) - 1 + n] == '=';
}

static bool
needs_runtime(const struct scope_cell *c)
{
	return c->runs && c->reason_count > 0;
}

/* One cell of the text table; `a` holds the text. */
static const char *
cell_text(struct arena *a, const struct scope_cell *c)
{
	if (c->runs)
		return needs_runtime(c) ? "yes (once labelled)" : "yes";
	if (c->reason_count > 1)
		return arena_printf(a, "no (%s) +%zu", c->reasons[0], c->reason_count - 1);
	return arena_printf(a, "no (%s)", c->reasons[0]);
}

static const char *
row_name(struct arena *a, const struct scope_ds *ds)
{
	return arena_printf(a, "%s%s%s%s", ds->namespace, *ds->namespace ? "/" : "", ds->name,
			    ds->origin ? " [operand]" : "");
}

static int
pad(struct buf *out, const char *s, size_t width, bool last)
{
	if (last)
		return buf_printf(out, "%s\n", s);
	return buf_printf(out, "%-*s  ", (int)width, s);
}

/* gpusite's pool nodes: the site taint each carries, or that its pool is
 * shared (exclusive: false) and takes any Pod that tolerates its other
 * taints. */
static int
pool_nodes_text(struct buf *out, struct arena *a, const struct scope_result *r)
{
	int rc = 0;

	if (r->pool_nodes)
		rc = buf_adds(out, "\nnodes of gpusite's pools and their site taint:\n");
	for (size_t j = 0; j < r->node_count && !rc; j++) {
		const struct scope_node *n = &r->nodes[j];

		if (!n->pool)
			continue;
		if (n->site_taint)
			rc = buf_printf(out,
					"  %s: %s of site %s, tainted %s: exclusive, only the "
					"site's scoped GPU Pods and what tolerates the key %s run "
					"there\n",
					n->name, n->pool, n->pool_site ? n->pool_site : "?",
					scope_taint_text(a, n->site_taint), INV_SITE_TAINT_KEY);
		else
			rc = buf_printf(out,
					"  %s: %s of site %s, no %s taint: the pool is shared "
					"(exclusive: false), any Pod that tolerates its other "
					"taints runs there and makes Karpenter launch its nodes\n",
					n->name, n->pool, n->pool_site ? n->pool_site : "?",
					INV_SITE_TAINT_KEY);
	}
	return rc;
}

int
scope_write_text(struct buf *out, const struct scope_result *r)
{
	struct arena a = ARENA_INIT;
	size_t cols = r->node_count + 2;
	size_t *width = arena_alloc(&a, cols * sizeof(*width));
	const char **cells = arena_alloc(&a, (r->ds_count + 2) * cols * sizeof(*cells));
	size_t hybrid_gpu = 0, stack = 0, operand = 0;
	int rc = 0;

	/* header rows: names, then node classes */
	cells[0] = "DAEMONSET";
	cells[1] = "GPU STACK";
	cells[cols] = "";
	cells[cols + 1] = "";
	for (size_t j = 0; j < r->node_count; j++) {
		cells[2 + j] = r->nodes[j].name;
		cells[cols + 2 + j] = node_class(&r->nodes[j]);
		hybrid_gpu += r->nodes[j].hybrid && r->nodes[j].gpu;
	}
	for (size_t i = 0; i < r->ds_count; i++) {
		const char **row = cells + (i + 2) * cols;

		row[0] = row_name(&a, &r->ds[i]);
		row[1] = r->ds[i].gpu_stack ? "yes" : "-";
		for (size_t j = 0; j < r->node_count; j++)
			row[2 + j] = cell_text(&a, scope_cell_at(r, i, j));
		stack += r->ds[i].gpu_stack;
		operand += r->ds[i].origin != NULL;
	}
	for (size_t k = 0; k < (r->ds_count + 2) * cols; k++) {
		size_t len = strlen(cells[k]);

		if (len > width[k % cols])
			width[k % cols] = len;
	}
	for (size_t k = 0; k < (r->ds_count + 2) * cols && !rc; k++)
		rc = pad(out, cells[k], width[k % cols], k % cols == cols - 1);

	/* the runtime labels a "yes (once labelled)" cell relied on */
	for (size_t j = 0, first = 1; j < r->node_count && !rc; j++) {
		for (size_t k = 0; k < r->nodes[j].runtime_count && !rc; k++) {
			const struct scope_label *l = &r->nodes[j].runtime[k];
			bool used = false;

			for (size_t i = 0; i < r->ds_count && !used; i++) {
				const struct scope_cell *c = scope_cell_at(r, i, j);

				for (size_t m = 0; c->runs && m < c->reason_count && !used; m++)
					used = uses_label(c->reasons[m], l->key);
			}
			if (!used)
				continue;
			if (first)
				rc = buf_adds(out,
					      "\nlabels the GPU stack adds while it runs, assumed "
					      "where a cell says \"once labelled\":\n");
			first = 0;
			if (!rc)
				rc = buf_printf(out, "  %s: %s=%s (%s)\n", r->nodes[j].name, l->key,
						l->value, l->by);
		}
	}
	if (!rc)
		rc = pool_nodes_text(out, &a, r);
	if (!rc)
		rc = buf_printf(out,
				"\n%zu DaemonSets (%zu GPU stack, %zu GPU Operator operands) on "
				"%zu nodes (%zu hybrid GPU): %zu misses, %zu leaks\n",
				r->ds_count, stack, operand, r->node_count, hybrid_gpu, r->misses,
				r->leaks);
	arena_release(&a);
	return rc;
}

static struct node *
str_seq(struct arena *a, const char *const *items, size_t count)
{
	struct node *seq = node_new_seq(a, (struct pos)POS_NONE);

	for (size_t i = 0; i < count; i++)
		node_seq_push(a, seq, node_new_str(a, (struct pos)POS_NONE, items[i]));
	return seq;
}

int
scope_write_json(struct buf *out, struct arena *a, const struct scope_result *r,
		 const struct diags *d)
{
	struct pos z = POS_NONE;
	struct node *root = node_new_map(a, z);
	struct node *nodes = node_map_add(a, root, "nodes", node_new_seq(a, z));
	struct node *dss = node_map_add(a, root, "daemonsets", node_new_seq(a, z));
	struct node *findings = node_map_add(a, root, "findings", node_new_seq(a, z));
	struct node *sum;
	size_t hybrid_gpu = 0, stack = 0;

	for (size_t j = 0; j < r->node_count; j++) {
		const struct scope_node *n = &r->nodes[j];
		struct node *o = node_new_map(a, z), *labels;

		node_map_add_str(a, o, "name", n->name);
		node_map_add_str(a, o, "class", node_class(n));
		node_map_add_bool(a, o, "hybrid", n->hybrid);
		node_map_add_bool(a, o, "gpu", n->gpu);
		if (n->gpu_why)
			node_map_add_str(a, o, "gpuSignal", n->gpu_why);
		if (n->pool) {
			struct node *p = node_map_add(a, o, "pool", node_new_map(a, z));

			node_map_add_str(a, p, "name", n->pool);
			if (n->pool_site)
				node_map_add_str(a, p, "site", n->pool_site);
			if (n->site_taint)
				node_map_add_str(a, p, "siteTaint",
						 scope_taint_text(a, n->site_taint));
			node_map_add_bool(a, p, "shared", !n->site_taint);
		}
		labels = node_map_add(a, o, "runtimeLabels", node_new_seq(a, z));
		for (size_t k = 0; k < n->runtime_count; k++) {
			struct node *l = node_new_map(a, z);

			node_map_add_str(a, l, "key", n->runtime[k].key);
			node_map_add_str(a, l, "value", n->runtime[k].value);
			node_map_add_str(a, l, "by", n->runtime[k].by);
			node_seq_push(a, labels, l);
		}
		node_seq_push(a, nodes, o);
		hybrid_gpu += n->hybrid && n->gpu;
	}
	for (size_t i = 0; i < r->ds_count; i++) {
		const struct scope_ds *ds = &r->ds[i];
		struct node *o = node_new_map(a, z), *place;

		node_map_add_str(a, o, "namespace", ds->namespace);
		node_map_add_str(a, o, "name", ds->name);
		if (ds->origin)
			node_map_add_str(a, o, "origin", ds->origin);
		node_map_add_bool(a, o, "gpuStack", ds->gpu_stack);
		/* only when true: gpusite's fallback device plugin */
		if (ds->fallback)
			node_map_add_bool(a, o, "fallback", true);
		if (ds->why)
			node_map_add_str(a, o, "why", ds->why);
		place = node_map_add(a, o, "placement", node_new_seq(a, z));
		for (size_t j = 0; j < r->node_count; j++) {
			const struct scope_cell *c = scope_cell_at(r, i, j);
			struct node *p = node_new_map(a, z);

			node_map_add_str(a, p, "node", r->nodes[j].name);
			node_map_add_bool(a, p, "runs", c->runs);
			node_map_add(a, p, c->runs ? "runtimeLabels" : "reasons",
				     str_seq(a, c->reasons, c->reason_count));
			node_seq_push(a, place, p);
		}
		node_seq_push(a, dss, o);
		stack += ds->gpu_stack;
	}
	for (size_t k = 0; d && k < d->count; k++) {
		const struct diag *g = &d->items[k];
		struct node *f = node_new_map(a, z);

		node_map_add_str(a, f, "file", g->at.file ? g->at.file : "");
		node_map_add_int(a, f, "line", g->at.line);
		node_map_add_int(a, f, "column", g->at.col);
		node_map_add_str(a, f, "severity", diag_level_name(g->level));
		node_map_add_str(a, f, "rule", g->rule);
		node_map_add_str(a, f, "path", g->path ? g->path : "");
		node_map_add_str(a, f, "message", g->msg);
		node_seq_push(a, findings, f);
	}
	sum = node_map_add(a, root, "summary", node_new_map(a, z));
	node_map_add_int(a, sum, "daemonsets", (int64_t)r->ds_count);
	node_map_add_int(a, sum, "gpuStack", (int64_t)stack);
	node_map_add_int(a, sum, "nodes", (int64_t)r->node_count);
	node_map_add_int(a, sum, "hybridGpuNodes", (int64_t)hybrid_gpu);
	node_map_add_int(a, sum, "misses", (int64_t)r->misses);
	node_map_add_int(a, sum, "leaks", (int64_t)r->leaks);
	node_map_add_int(a, sum, "poolNodes", (int64_t)r->pool_nodes);
	node_map_add_int(a, sum, "sharedPoolNodes", (int64_t)r->shared_pool_nodes);
	if (json_write(out, root, JSON_PRETTY) < 0)
		return -1;
	return buf_addch(out, '\n');
}
