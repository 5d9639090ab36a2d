/*
 * hydrate.h - `gpusite hydrate`: the rendered manifests of every cluster
 * of the fleet at a revision, committed to a branch of the same
 * repository (docs/design/hydrate.md).  The layout and the message are
 * pure (hydrate_layout.c); the run reads, renders and commits through
 * source/ (hydrate.c).
 */
#ifndef GS_HYDRATE_H
#define GS_HYDRATE_H

#include <stdbool.h>
#include <stddef.h>

#include "source/source.h"
#include "source/source_branch.h"

struct arena;
struct buf;
struct spec_site;

/* Two clusters on one directory (and Application) name, or a cluster
 * name that maps to no DNS-1123 label: nothing is committed (exit 1). */
#define HYDRATE_RULE_DIR "GS194"

/* The two parts of a cluster's directory. */
enum hydrate_part {
	HYDRATE_CLUSTER, /* clusters/<c>/cluster/: objects: cluster */
	HYDRATE_ARGOCD,  /* clusters/<c>/argocd/: the GPU-stack Applications, for the hub */
};

#define HYDRATE_MANIFEST "manifest.yaml"
#define HYDRATE_README "README.md"
/* {"cluster": NAME, "directory": DIR, "destinationName": DEST}: what the
 * git files generator of plugin/hydrated reads: the cluster's name, its
 * directory (DNS-1123, the Applications' names) and the Argo CD cluster
 * its objects go to (argocd.destinationName, else the cluster's name). */
#define HYDRATE_CLUSTER_JSON "cluster.json"
/* The trailer naming the source commit; a branch whose tip lacks it (in
 * its trailer block, with a full commit id) is not a hydrated branch, and
 * is never written to. */
#define HYDRATE_TRAILER_KEY "Gpusite-Source"
#define HYDRATE_TRAILER_SOURCE HYDRATE_TRAILER_KEY ": "
/* The deepest path of the layout: clusters/<dir>/<part>/<file>. */
#define HYDRATE_DEPTH 4

/* A cluster of the fleet and its sites (names sorted). */
struct hydrate_cluster {
	const char *name;
	const char *dir;              /* its directory: hydrate_dir_name(name) */
	const struct spec_site *site; /* its first site, for findings */
	const char **sites;
	size_t site_count;
	const char *text[2]; /* the rendered stream of each part, or NULL */
	size_t len[2];
};

/* "clusters/<dir>/<part>/<file>" (arena). */
const char *hydrate_path(struct arena *a, const char *dir, enum hydrate_part part,
			 const char *file);

/*
 * The directory of cluster `cluster` on the branch, which the
 * ApplicationSets of plugin/hydrated also take as the Applications' names:
 * the name as Kubernetes names objects (inventory_dns_name: lower case,
 * '_' as '-'), or NULL when that is no DNS-1123 label (EKS allows 100
 * characters; a label 63).
 */
const char *hydrate_dir_name(struct arena *a, const char *cluster);

/*
 * Whether a blob at `path` is one hydrate writes: README.md, or
 * clusters/<dir>/{cluster,argocd}/{README.md,manifest.yaml,cluster.json} (a <dir> of
 * an earlier version, any name without '/', a leading '.' or a control
 * character, counts).  A branch holding anything else is not hydrate's.
 */
bool hydrate_owns_path(const char *path);

/* The README.md of a part, and the index at the top of the branch. */
const char *hydrate_readme_part(struct arena *a, const struct hydrate_cluster *c,
				enum hydrate_part part);
const char *hydrate_readme_index(struct arena *a, const struct hydrate_cluster *clusters,
				 size_t count);

/*
 * The commit message: a subject, a paragraph, and the trailers
 * "Gpusite-Source: <source>" and "Gpusite-Version: <version>".
 */
const char *hydrate_message(struct arena *a, const char *source, const char *version,
			    size_t clusters);

/* The cluster.json of a cluster's parts (arena). */
const char *hydrate_cluster_json(struct arena *a, const struct hydrate_cluster *c);

/*
 * The files of the branch for `clusters` (sorted by name), in path
 * order: the index, then per cluster each part that has a stream, its
 * cluster.json, manifest and README.  Returns the count.
 */
size_t hydrate_files(struct source_tree_file **out, struct arena *a,
		     const struct hydrate_cluster *clusters, size_t count);

/* A path that differs between the branch's files and the new ones. */
struct hydrate_change {
	char status; /* 'A' added, 'M' modified, 'D' deleted */
	const char *path;
};

/* The changes from `old` (sorted by path) to `files` (sorted by path),
 * in path order.  Returns the count. */
size_t hydrate_changes(struct hydrate_change **out, struct arena *a, const struct source_set *old,
		       const struct source_tree_file *files, size_t count);

/* What a run is asked to do (the command's options). */
struct hydrate_options {
	const char *repo; /* --repo, or NULL: the repository of "." */
	const char *ref;  /* --ref, or NULL: HEAD */
	const char *branch;
	const char *const *paths;
	size_t npaths;
	bool dry_run;
	bool push;
	bool strict;
	bool markdown; /* --dry-run --format markdown */
	bool quiet;    /* -q: no report of what was done on stdout */
	unsigned report_flags;
};

/* What a run did. */
enum hydrate_status {
	HYDRATE_OK = 0,
	HYDRATE_EINVALID = -1,  /* the specs have errors: printed, nothing committed */
	HYDRATE_EFAIL = -2,     /* could not do the job: said why on stderr */
	HYDRATE_ECONFLICT = -3, /* the branch moved meanwhile, or the push was refused */
};

/*
 * Print, as Markdown, what the commit of `res` would change: the objects
 * of every changed manifest (`ch`, `n`) matched between the branch's
 * files (res->old) and the new ones (`files`), each named by its cluster
 * directory, through diff --base's writer (hydrate_markdown.c).  0, or
 * -1 when it could not be written.
 */
int hydrate_markdown(struct arena *a, const struct hydrate_options *o,
		     const struct source_branch_res *res, const struct hydrate_change *ch, size_t n,
		     const struct source_tree_file *files, size_t nfiles, const char *source);

/*
 * Read the specs at the revision, render every cluster, commit the files
 * to the branch (nothing when the tree is unchanged), push when asked,
 * and print what was done on stdout (with --dry-run: what would be done;
 * with markdown, as a Markdown comment).  Returns an enum hydrate_status.
 */
int hydrate_run(struct arena *a, const struct hydrate_options *o);

#endif
