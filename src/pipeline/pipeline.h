/*
 * pipeline.h - the road every reading command takes:
 * file set -> yamlio -> schema -> spec -> rules.  Nothing here knows the
 * command line: a command fills struct pipeline_source from its options.
 */
#ifndef GS_PIPELINE_H
#define GS_PIPELINE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "source/source.h"
#include "spec/spec.h"

struct arena;

struct schema;

/* A site file that holds no document (empty, or only comments): a warning
 * for validate; generate and serve refuse the specs while one is there,
 * since a file emptied by mistake would prune its sites' objects. */
#define PIPELINE_RULE_EMPTY_FILE "GS173"

struct pipeline {
	struct arena *arena;
	struct diags diags; /* everything found, in file order */
	const struct source_set *files;
	struct spec_fleet fleet; /* sites that passed the schema */
	size_t docs;             /* documents read */
	bool lean;               /* pipeline_load_lean: fleet sites are stubs */
	const struct schema *schema;
};

/*
 * Run the whole road over `files`.  Sites whose document failed the
 * schema are left out of the fleet (their diagnostics are kept).
 * Returns 0 when no error diagnostic was appended, else -1.
 */
int pipeline_load(struct pipeline *p, struct arena *a, const struct source_set *files);

/*
 * The same findings with each file's tree freed once its own checks are
 * done (validate, render of a large fleet): p->lean is then set and
 * p->fleet holds stubs, each site's name, file and cluster.name only;
 * nothing may read the rest of a stub.  pipeline_reload() gives the
 * whole sites of one file again.
 */
int pipeline_load_lean(struct pipeline *p, struct arena *a, const struct source_set *files);

/* Append the valid sites of file `f` of a lean pipeline to `out`, loaded
 * again into `t` (their findings were reported the first time). */
void pipeline_reload(const struct pipeline *p, struct spec_fleet *out, struct arena *t,
		     const struct source_file *f);

/* Where a reading command takes its spec files from (common options). */
struct pipeline_source {
	const char *repo;         /* --repo URL|PATH, or NULL */
	const char *ref;          /* --ref REV, or NULL (HEAD with --repo) */
	bool staged;              /* --staged: the Git index */
	const char *const *paths; /* PATH|FILE arguments */
	size_t npaths;
};

/*
 * Collect the spec files: the work tree (source_from_paths), a Git
 * revision (--repo and/or --ref: source_from_git) or the index (--staged:
 * source_from_index).  Finding no spec file at all is SOURCE_ENOTFOUND
 * ("no spec files found under 'sites'"), never an empty success.
 * Returns 0 (findings such as GS006 may have been appended), or
 * SOURCE_EFAIL / SOURCE_ENOTFOUND after a diagnostic: exit 3.
 */
int pipeline_read(struct source_set *out, struct arena *a, struct diags *d,
		  const struct pipeline_source *src);

/* pipeline_read() for a command to which no spec file at all is a set
 * without files, not an error (diff --base: a fleet's first commit). */
int pipeline_collect(struct source_set *out, struct arena *a, struct diags *d,
		     const struct pipeline_source *src);

/*
 * The start of a reading command: collect the spec files `src` names
 * (the common source options --repo, --ref, --staged and the PATH
 * arguments, filled by the command) with pipeline_read(), then run the
 * road over them with pipeline_load().
 * Findings of the source (a symlink leading out, a file too big) join the
 * pipeline's, sorted, so every format shows them.  When the files cannot
 * be read at all, the reason goes to stderr as text whatever --format
 * says (no report that could pass for a result), coloured when `flags`
 * holds REPORT_COLOR, and the return is -1: exit 3.  Otherwise 0, errors
 * in the specs or not (see p->diags).  `name` is "gpusite validate".
 */
int pipeline_open(struct pipeline *p, struct source_set *files, struct arena *a,
		  const struct pipeline_source *src, const char *name, unsigned flags);
/* pipeline_open() with pipeline_load_lean() when at least `lean_from`
 * files were collected. */
int pipeline_open_lean(struct pipeline *p, struct source_set *files, struct arena *a,
		       const struct pipeline_source *src, const char *name, unsigned flags,
		       size_t lean_from);

/*
 * The whole sites of `stubs` (stubs of a lean pipeline's fleet), in its
 * order, read again from their files into `t`.
 */
void pipeline_whole_sites(struct spec_fleet *out, struct arena *t, const struct pipeline *p,
			  const struct spec_fleet *stubs);

struct render_options;

/*
 * GS062 for the version a render targets: opt->kube_minor (render's
 * --kube-version, generate's kube-version / KUBE_VERSION) overrides each
 * site's cluster.kubernetesVersion, which is all the rules judged.  Below
 * 1.34 no MutatingAdmissionPolicy API is served, so every rendered site
 * with engine mutating-admission-policy is an error at its engine field;
 * `what` names the setting in the message ("--kube-version").  Returns
 * -1 when it appended an error, else 0.
 */
int pipeline_check_kube_version(struct diags *d, const struct spec_fleet *fleet,
				const struct render_options *opt, const char *what);

/*
 * GS177 (a warning): every rendered site whose cluster.kubernetesVersion
 * is written and names another minor version than opt->kube_minor (the
 * destination's, from generate's KUBE_VERSION), at that field: the spec
 * or the Application's destination is wrong, and the objects follow the
 * destination.  `what` names the setting as in GS062.  Nothing when
 * opt->kube_minor is 0 (each site's own).
 */
void pipeline_check_kube_agrees(struct diags *d, const struct spec_fleet *fleet,
				const struct render_options *opt, const char *what);

/* An error of `rule` is among `d`. */
bool pipeline_has_error(const struct diags *d, const char *rule);

/* Append copies of every diagnostic of `from` to `into`. */
void pipeline_merge_diags(struct diags *into, const struct diags *from);

/*
 * Name the file of every diagnostic from the top of the Git work tree
 * the specs were read from (the one holding the current directory, or
 * the local src->repo PATH), as GitHub annotations and SARIF results need
 * whatever directory the command ran in: "eu/lab.yaml" read in sites/
 * becomes "sites/eu/lab.yaml".  Files outside it, URLs given to --repo
 * and runs outside a work tree keep their names.  Only src->repo is read.
 */
void pipeline_files_from_top(struct diags *d, struct arena *a, const struct pipeline_source *src);

/* One file name the same way (the name itself when it cannot be). */
const char *pipeline_file_from_top(struct arena *a, const struct pipeline_source *src,
				   const char *file);

/* Milliseconds on the monotonic clock, for the timings of -v. */
double pipeline_now_ms(void);

#endif
