/*
 * hydrate.c - one `gpusite hydrate` run: resolve the revision to its
 * commit, read the specs there (never the work tree), check them as
 * validate does, render each cluster twice (`objects: cluster` and, for
 * the hub, `objects: argocd`) exactly as `render --objects ... --cluster
 * NAME` prints it, commit the tree (source/source_branch.c), push when
 * asked, and say what was done.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/buf.h"
#include "argocd/argocd_fleet.h"
#include "argocd/argocd_settings.h"
#include "emit/emit.h"
#include "hydrate/hydrate.h"
#include "inventory/inventory.h"
#include "pipeline/pipeline.h"
#include "render/render.h"
#include "report/report.h"

#ifndef GPUSITE_VERSION
#define GPUSITE_VERSION "0.0.0"
#endif

#define NAME "gpusite hydrate"
#define HYDRATE_STREAM_CAP ((size_t)256 << 20) /* one part of one cluster */

/*
 * For tests of concurrent runs only: with GPUSITE_TEST_HYDRATE_PAUSE
 * naming a FIFO, a run that has read the branch and written its commit
 * creates "<FIFO>.ready", then opens the FIFO and reads it to its end
 * before it moves the branch: the test starts two runs, waits until both
 * are ready, and lets them go.
 */
static void
test_pause(void *ctx)
{
	const char *fifo = getenv("GPUSITE_TEST_HYDRATE_PAUSE");
	char ready[4096], sink[64];
	int fd;

	(void)ctx;
	if (!fifo || !*fifo ||
	    (size_t)snprintf(ready, sizeof(ready), "%s.ready", fifo) >= sizeof(ready))
		return;
	fd = open(ready, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd >= 0)
		close(fd);
	fd = open(fifo, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return;
	while (read(fd, sink, sizeof(sink)) > 0 || errno == EINTR)
		errno = 0;
	close(fd);
}

static const char *
env_lookup(const char *name)
{
	return getenv(name);
}

static bool
keep_part(const struct render_object *o, const void *arg)
{
	return argocd_objects_keep(*(const enum argocd_objects *)arg, o);
}

static void
print_diags(const struct diags *d, const struct source_set *files, const struct pipeline *p,
	    unsigned flags)
{
	struct report_input in = { d, files, p ? &p->fleet : NULL, p ? p->docs : 0, NAME };

	report_write_flags(stdout, stderr, &in, REPORT_TEXT, flags);
}

/*
 * The stream of one part of one cluster, as `render --objects cluster|argocd
 * --cluster NAME` writes it; NULL text when the part renders nothing.
 */
static int
render_part(struct hydrate_cluster *c, struct arena *a, struct diags *d,
	    const struct spec_fleet *fleet, enum hydrate_part part)
{
	static const enum argocd_objects which[] = { ARGOCD_OBJECTS_CLUSTER,
						     ARGOCD_OBJECTS_ARGOCD };
	struct render_options ro;
	struct render_result r;
	struct diags scratch;
	struct buf b = BUF_INIT;
	int rc = 0;

	memset(&ro, 0, sizeof(ro));
	memset(&r, 0, sizeof(r));
	diags_init(&scratch, a);
	ro.clusters = &c->name;
	ro.cluster_count = 1;
	ro.getenv = env_lookup;
	ro.keep = keep_part;
	ro.keep_arg = &which[part];
	ro.argocd_hub = part == HYDRATE_ARGOCD;
	if (render_fleet(&r, a, &scratch, fleet, &ro) < 0) {
		/* a part with nothing in it is no directory; anything else is an error */
		for (size_t i = 0; i < scratch.count; i++)
			if (scratch.items[i].level == DIAG_ERROR &&
			    strcmp(scratch.items[i].rule, RENDER_RULE_EMPTY))
				rc = -1;
		if (rc < 0)
			pipeline_merge_diags(d, &scratch);
		return rc;
	}
	buf_init(&b, HYDRATE_STREAM_CAP);
	if (emit_stream(&b, &r, EMIT_YAML) < 0 || b.len > SOURCE_MAX_FILE_BYTES) {
		/* the next run reads the branch back under the limits of a file */
		if (b.len > SOURCE_MAX_FILE_BYTES)
			fprintf(stderr,
				NAME ": error: the %s stream of cluster '%s' is %zu bytes, over"
				     " the %u MiB a file of the branch may hold\n",
				part == HYDRATE_CLUSTER ? "cluster" : "argocd", c->name, b.len,
				SOURCE_MAX_FILE_BYTES >> 20);
		else
			fprintf(stderr,
				NAME ": error: the stream of cluster '%s' could not be formatted\n",
				c->name);
		buf_release(&b);
		return -2;
	}
	c->text[part] = arena_strndup(a, b.data, b.len);
	c->len[part] = b.len;
	buf_release(&b);
	return 0;
}

static int
name_cmp(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static int
cluster_cmp(const void *x, const void *y)
{
	return strcmp(((const struct hydrate_cluster *)x)->name,
		      ((const struct hydrate_cluster *)y)->name);
}

/* The clusters of the fleet, sorted by name, each with its sites. */
static size_t
list_clusters(struct hydrate_cluster **out, struct arena *a, const struct spec_fleet *fleet)
{
	struct hydrate_cluster *cs = arena_alloc(a, (fleet->count + 1) * sizeof(*cs));
	size_t n = 0;

	for (size_t i = 0; i < fleet->count; i++) {
		const struct spec_site *s = fleet->sites[i];
		size_t k = 0;

		while (k < n && strcmp(cs[k].name, s->cluster.name))
			k++;
		if (k == n) {
			memset(&cs[n], 0, sizeof(cs[n]));
			cs[n].name = s->cluster.name;
			cs[n].dir = hydrate_dir_name(a, s->cluster.name);
			cs[n].site = s;
			cs[n].sites = arena_alloc(a, fleet->count * sizeof(*cs[n].sites));
			n++;
		}
		cs[k].sites[cs[k].site_count++] = s->name;
	}
	for (size_t k = 0; k < n; k++)
		qsort(cs[k].sites, cs[k].site_count, sizeof(*cs[k].sites), name_cmp);
	qsort(cs, n, sizeof(*cs), cluster_cmp);
	*out = cs;
	return n;
}

/* Where the (first) site of a cluster names it. */
static struct pos
name_pos(const struct hydrate_cluster *c)
{
	return spec_field_pos(c->site->cluster.src, "name");
}

/*
 * Every cluster has a directory of its own, named as Kubernetes names
 * objects: the Applications of plugin/hydrated take the directory's name,
 * so two clusters on one name would be one Application.
 */
static void
check_dirs(struct arena *a, struct diags *d, const struct hydrate_cluster *cs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!cs[i].dir) {
			diag_report(
				d, name_pos(&cs[i]), HYDRATE_RULE_DIR, cs[i].site->file,
				"cluster name '%s' becomes '%s' as a directory and Application"
				" name, which is no DNS-1123 label (a-z, 0-9 and '-', at most 63"
				" characters)",
				cs[i].name, inventory_dns_name(a, cs[i].name));
			continue;
		}
		for (size_t k = 0; k < i; k++)
			if (cs[k].dir && !strcmp(cs[k].dir, cs[i].dir))
				diag_report(
					d, name_pos(&cs[i]), HYDRATE_RULE_DIR, cs[i].site->file,
					"cluster '%s' becomes the directory and Application name"
					" '%s', as cluster '%s' does: rename one of them",
					cs[i].name, cs[i].dir, cs[k].name);
	}
}

/* Read, check and render: the clusters with their streams.  Returns the
 * count, or a negative hydrate_status after saying why. */
static long
render_fleet_parts(struct hydrate_cluster **out, struct arena *a, const struct hydrate_options *o,
		   const char *source)
{
	struct pipeline_source src = { o->repo, source, false, o->paths, o->npaths };
	struct source_set files = { NULL, 0, 0, NULL };
	struct render_options ropt;
	struct pipeline p;
	size_t n;
	int rc = 0;

	if (pipeline_open(&p, &files, a, &src, NAME, o->report_flags) < 0)
		return HYDRATE_EFAIL;
	memset(&ropt, 0, sizeof(ropt));
	pipeline_check_kube_version(&p.diags, &p.fleet, &ropt, "--kube-version");
	if (o->strict)
		diags_promote_warnings(&p.diags);
	n = list_clusters(out, a, &p.fleet);
	check_dirs(a, &p.diags, *out, n);
	for (size_t i = 0; i < n && !diags_count(&p.diags, DIAG_ERROR) && rc > -2; i++) {
		for (int part = 0; part < 2 && rc > -2; part++)
			rc = render_part(&(*out)[i], a, &p.diags, &p.fleet,
					 (enum hydrate_part)part);
	}
	diags_sort(&p.diags);
	if (p.diags.count)
		print_diags(&p.diags, &files, &p, o->report_flags);
	if (rc == -2)
		return HYDRATE_EFAIL;
	if (diags_count(&p.diags, DIAG_ERROR))
		return HYDRATE_EINVALID;
	return (long)n;
}

/* A failure of source/: its diagnostics on stderr, the status. */
static int
source_failed(const struct diags *d, unsigned flags, int rc)
{
	print_diags(d, NULL, NULL, flags | REPORT_NO_SUMMARY);
	return rc == SOURCE_ECONFLICT ? HYDRATE_ECONFLICT : HYDRATE_EFAIL;
}

static void
print_changes(const struct hydrate_change *ch, size_t n)
{
	for (size_t i = 0; i < n; i++)
		printf("%c %s\n", ch[i].status, ch[i].path);
}

/* What the run did, or would do, on stdout. */
static void
print_result(const struct hydrate_options *o, const struct source_branch_res *res,
	     const char *source, const struct hydrate_change *ch, size_t n)
{
	if (o->markdown || o->quiet)
		return; /* the comment says it all; -q: nothing */
	if (!res->changed) {
		printf(NAME ": branch '%s' already holds the render of %.12s: nothing to commit\n",
		       o->branch, source);
		return;
	}
	print_changes(ch, n);
	if (o->dry_run)
		printf(NAME ": would commit %zu changed file%s to branch '%s'%s%.12s"
			    " (dry run: nothing written)\n",
		       n, n == 1 ? "" : "s", o->branch, res->parent[0] ? " on " : " (new)",
		       res->parent);
	else
		printf(NAME ": committed %s to branch '%s' (%zu file%s changed, from %.12s)\n",
		       res->commit, o->branch, n, n == 1 ? "" : "s", source);
}

int
hydrate_run(struct arena *a, const struct hydrate_options *o)
{
	struct diags d;
	char source[SOURCE_OID_HEX];
	struct hydrate_cluster *clusters = NULL;
	struct source_tree_file *files;
	struct source_branch_req req;
	struct source_branch_res res;
	struct hydrate_change *ch;
	size_t nfiles, nch;
	long count;
	int rc;

	diags_init(&d, a);
	rc = source_resolve(source, a, &d, o->repo, o->ref);
	if (rc)
		return source_failed(&d, o->report_flags, rc);
	count = render_fleet_parts(&clusters, a, o, source);
	if (count < 0)
		return (int)count;
	nfiles = hydrate_files(&files, a, clusters, (size_t)count);
	memset(&req, 0, sizeof(req));
	req.repo = o->repo;
	req.source = source;
	req.branch = o->branch;
	req.files = files;
	req.count = nfiles;
	req.message = hydrate_message(a, source, GPUSITE_VERSION, (size_t)count);
	req.owner_trailer = HYDRATE_TRAILER_KEY;
	req.owns_path = hydrate_owns_path;
	req.max_depth = HYDRATE_DEPTH;
	/* a local repository builds on its origin's branch: what is pushed */
	req.fetch_origin = o->push;
	req.dry_run = o->dry_run;
	req.before_update = test_pause;
	rc = source_branch_commit(&res, a, &d, &req);
	if (rc)
		return source_failed(&d, o->report_flags, rc);
	nch = hydrate_changes(&ch, a, &res.old, files, nfiles);
	if (o->markdown)
		rc = hydrate_markdown(a, o, &res, ch, nch, files, nfiles, source);
	print_result(o, &res, source, ch, nch);
	if (rc || o->dry_run || !o->push)
		return rc ? HYDRATE_EFAIL : HYDRATE_OK;
	rc = source_push(a, &d, o->repo, source, o->branch);
	if (rc)
		return source_failed(&d, o->report_flags, SOURCE_ECONFLICT);
	if (!o->quiet)
		printf(NAME ": pushed branch '%s'\n", o->branch);
	return HYDRATE_OK;
}
