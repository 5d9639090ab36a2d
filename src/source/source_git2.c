/*
 * source_git2.c - libgit2, loaded when a command first reads Git.
 *
 * libgit2 and the libraries it depends on (SSH, TLS, HTTP parsing,
 * compression, PCRE) were loaded and relocated at every start, most of
 * what a one-site `gpusite generate` spent, for commands that never open a
 * repository.  The binary therefore does not link libgit2 (the Makefile
 * leaves it off the link line; its headers still give the types): each
 * function below loads the libgit2 of the headers' soname on first use and
 * calls the real one.  Only the functions source/ calls are here; a
 * prototype that drifts from <git2.h> fails to compile, and
 * tests/e2e/t6500-startup.sh fails when the binary needs libgit2 at start
 * again.
 *
 * The commands that read Git check first (source__git_load), so that a
 * missing library is one clear error (exit 3) instead of a failure deep in
 * a walk.  Without the library every function fails as libgit2 itself
 * fails: a negative code or NULL, and git_error_last() says why.
 */
#include <dlfcn.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <git2.h>

#include "base/diag.h"
#include "source/source.h"
#include "source/source_int.h"
#include "source/source_util.h"

/* The soname of the libgit2 whose headers the build used: the ABI. */
#define GIT2_SONAME SOURCE_GIT2_SONAME

#define GIT2_INSTALL                                                                               \
	"install libgit2 " LIBGIT2_SOVERSION " (Debian: libgit2-" LIBGIT2_SOVERSION                \
	") to read specs from Git"

static void *git2_lib;
static const char *git2_error;
static char git2_reason[512]; /* why dlopen failed: a dependency may be the one missing */

/* A libgit2 function, loading libgit2 on first use; NULL (and a reason in
 * git2_error) when it cannot be had. */
static void (*git2_sym(const char *name))(void)
{
	void (*fn)(void) = NULL;
	void *p;

	if (!git2_lib && !git2_error) {
		git2_lib = dlopen(GIT2_SONAME, RTLD_NOW | RTLD_LOCAL);
		if (!git2_lib) {
			const char *why = dlerror();

			snprintf(git2_reason, sizeof(git2_reason),
				 GIT2_SONAME " cannot be loaded (%s): " GIT2_INSTALL,
				 why ? why : "not found");
			git2_error = git2_reason;
		}
	}
	if (!git2_lib)
		return NULL;
	p = dlsym(git2_lib, name);
	if (!p) {
		git2_error =
			"the " GIT2_SONAME " found lacks a function gpusite calls: " GIT2_INSTALL;
		return NULL;
	}
	/* POSIX: dlsym's object pointer holds the function's address */
	memcpy(&fn, &p, sizeof(fn));
	return fn;
}

int
source__git_load(struct diags *d)
{
	/* git_libgit2_version is in every libgit2: loads and proves the library */
	if (git2_sym("git_libgit2_version"))
		return SOURCE_OK;
	return source__fail(d, SOURCE_EFAIL, "%s", git2_error);
}

/*
 * One wrapper per function: the real one, looked up once (a walk of
 * thousands of files calls some of them per entry), or `fail` without it.
 * The parameter list is the header's, so the compiler checks the match.
 */
#define GIT2_FN(ret, name, params, args, fail)                                                     \
	ret name params                                                                            \
	{                                                                                          \
		static ret(*fn) params;                                                            \
		if (!fn)                                                                           \
			fn = (ret(*) params)git2_sym(#name);                                       \
		return fn ? fn args : (fail);                                                      \
	}
#define GIT2_VOID(name, params, args)                                                              \
	void name params                                                                           \
	{                                                                                          \
		static void(*fn) params;                                                           \
		if (!fn)                                                                           \
			fn = (void(*) params)git2_sym(#name);                                      \
		if (fn)                                                                            \
			fn args;                                                                   \
	}

/* Errors: without the library, the reason it is missing is the error. */
const git_error *
git_error_last(void)
{
	static git_error none = { NULL, GIT_ERROR_OS };
	static const git_error *(*fn)(void);

	if (!fn)
		fn = (const git_error *(*)(void))git2_sym("git_error_last");
	if (fn)
		return fn();
	none.message = (char *)(git2_error ? git2_error : GIT2_SONAME " cannot be loaded");
	return &none;
}
GIT2_VOID(git_error_clear, (void), ())
GIT2_FN(int, git_error_set_str, (int error_class, const char *string), (error_class, string), -1)

/* The library */
GIT2_FN(int, git_libgit2_init, (void), (), GIT_ERROR)
GIT2_FN(int, git_libgit2_shutdown, (void), (), GIT_ERROR)

int
git_libgit2_version(int *major, int *minor, int *rev)
{
	static int (*fn)(int *, int *, int *);

	if (!fn)
		fn = (int (*)(int *, int *, int *))git2_sym("git_libgit2_version");
	if (fn)
		return fn(major, minor, rev);
	*major = *minor = *rev = 0;
	return GIT_ERROR;
}

/*
 * The arguments' types follow from the option.  Only the options source/
 * sets are passed on; any other is refused rather than guessed.
 */
int
git_libgit2_opts(int option, ...)
{
	static int (*fn)(int, ...);
	const char *file, *path;
	va_list ap;

	if (!fn)
		fn = (int (*)(int, ...))git2_sym("git_libgit2_opts");
	if (!fn)
		return GIT_ERROR;
	if (option != GIT_OPT_SET_SSL_CERT_LOCATIONS) {
		git_error_set_str(GIT_ERROR_INVALID,
				  "git_libgit2_opts: option not passed on by gpusite");
		return GIT_ERROR;
	}
	va_start(ap, option);
	file = va_arg(ap, const char *);
	path = va_arg(ap, const char *);
	va_end(ap);
	return fn(option, file, path);
}

/* Repositories */
GIT2_FN(int, git_repository_open_ext,
	(git_repository * *out, const char *path, unsigned int flags, const char *ceiling_dirs),
	(out, path, flags, ceiling_dirs), GIT_ERROR)
GIT2_FN(int, git_repository_open_bare, (git_repository * *out, const char *bare_path),
	(out, bare_path), GIT_ERROR)
GIT2_FN(int, git_repository_init, (git_repository * *out, const char *path, unsigned is_bare),
	(out, path, is_bare), GIT_ERROR)
GIT2_VOID(git_repository_free, (git_repository * repo), (repo))
GIT2_FN(int, git_repository_index, (git_index * *out, git_repository *repo), (out, repo), GIT_ERROR)
GIT2_FN(int, git_repository_odb, (git_odb * *out, git_repository *repo), (out, repo), GIT_ERROR)
GIT2_FN(const char *, git_repository_path, (const git_repository *repo), (repo), NULL)
GIT2_FN(const char *, git_repository_workdir, (const git_repository *repo), (repo), NULL)
GIT2_FN(int, git_repository_set_workdir,
	(git_repository * repo, const char *workdir, int update_gitlink),
	(repo, workdir, update_gitlink), GIT_ERROR)
GIT2_FN(int, git_repository_set_head_detached, (git_repository * repo, const git_oid *committish),
	(repo, committish), GIT_ERROR)
GIT2_FN(int, git_revparse_single, (git_object * *out, git_repository *repo, const char *spec),
	(out, repo, spec), GIT_ERROR)

/* References and remotes */
GIT2_FN(int, git_reference_lookup, (git_reference * *out, git_repository *repo, const char *name),
	(out, repo, name), GIT_ERROR)
GIT2_FN(const git_oid *, git_reference_target, (const git_reference *ref), (ref), NULL)
GIT2_VOID(git_reference_free, (git_reference * ref), (ref))
GIT2_FN(int, git_remote_create_anonymous,
	(git_remote * *out, git_repository *repo, const char *url), (out, repo, url), GIT_ERROR)
GIT2_FN(int, git_remote_fetch,
	(git_remote * remote, const git_strarray *refspecs, const git_fetch_options *opts,
	 const char *reflog_message),
	(remote, refspecs, opts, reflog_message), GIT_ERROR)
GIT2_VOID(git_remote_free, (git_remote * remote), (remote))
GIT2_FN(int, git_fetch_options_init, (git_fetch_options * opts, unsigned int version),
	(opts, version), GIT_ERROR)
GIT2_FN(int, git_credential_ssh_key_from_agent, (git_credential * *out, const char *username),
	(out, username), GIT_ERROR)
GIT2_FN(int, git_credential_username_new, (git_credential * *out, const char *username),
	(out, username), GIT_ERROR)
GIT2_FN(int, git_credential_userpass_plaintext_new,
	(git_credential * *out, const char *username, const char *password),
	(out, username, password), GIT_ERROR)

/* Objects */
GIT2_VOID(git_object_free, (git_object * object), (object))
GIT2_FN(const git_oid *, git_object_id, (const git_object *obj), (obj), NULL)
GIT2_FN(git_object_t, git_object_type, (const git_object *obj), (obj), GIT_OBJECT_INVALID)
GIT2_FN(int, git_object_peel,
	(git_object * *peeled, const git_object *object, git_object_t target_type),
	(peeled, object, target_type), GIT_ERROR)
GIT2_FN(int, git_oid_cpy, (git_oid * out, const git_oid *src), (out, src), GIT_ERROR)
GIT2_FN(char *, git_oid_tostr, (char *out, size_t n, const git_oid *id), (out, n, id), NULL)
GIT2_VOID(git_commit_free, (git_commit * commit), (commit))
GIT2_FN(int, git_commit_tree, (git_tree * *tree_out, const git_commit *commit), (tree_out, commit),
	GIT_ERROR)
GIT2_VOID(git_blob_free, (git_blob * blob), (blob))
GIT2_FN(int, git_blob_lookup, (git_blob * *blob, git_repository *repo, const git_oid *id),
	(blob, repo, id), GIT_ERROR)
GIT2_FN(const void *, git_blob_rawcontent, (const git_blob *blob), (blob), NULL)
GIT2_FN(git_object_size_t, git_blob_rawsize, (const git_blob *blob), (blob), 0)

/* The object database */
GIT2_VOID(git_odb_free, (git_odb * db), (db))
GIT2_FN(int, git_odb_hash, (git_oid * out, const void *data, size_t len, git_object_t type),
	(out, data, len, type), GIT_ERROR)
GIT2_FN(int, git_odb_read_header,
	(size_t * len_out, git_object_t *type_out, git_odb *db, const git_oid *id),
	(len_out, type_out, db, id), GIT_ERROR)

/* Trees */
GIT2_FN(int, git_tree_lookup, (git_tree * *out, git_repository *repo, const git_oid *id),
	(out, repo, id), GIT_ERROR)
GIT2_VOID(git_tree_free, (git_tree * tree), (tree))
GIT2_FN(int, git_tree_walk,
	(const git_tree *tree, git_treewalk_mode mode, git_treewalk_cb callback, void *payload),
	(tree, mode, callback, payload), GIT_ERROR)
GIT2_FN(int, git_tree_entry_bypath, (git_tree_entry * *out, const git_tree *root, const char *path),
	(out, root, path), GIT_ERROR)
GIT2_VOID(git_tree_entry_free, (git_tree_entry * entry), (entry))
GIT2_FN(git_filemode_t, git_tree_entry_filemode, (const git_tree_entry *entry), (entry),
	GIT_FILEMODE_UNREADABLE)
GIT2_FN(const git_oid *, git_tree_entry_id, (const git_tree_entry *entry), (entry), NULL)
GIT2_FN(const char *, git_tree_entry_name, (const git_tree_entry *entry), (entry), NULL)

/* The index */
GIT2_FN(int, git_index_open, (git_index * *out, const char *index_path), (out, index_path),
	GIT_ERROR)
GIT2_VOID(git_index_free, (git_index * index), (index))
GIT2_FN(size_t, git_index_entrycount, (const git_index *index), (index), 0)
GIT2_FN(const git_index_entry *, git_index_get_byindex, (git_index * index, size_t n), (index, n),
	NULL)
GIT2_FN(const git_index_entry *, git_index_get_bypath,
	(git_index * index, const char *path, int stage), (index, path, stage), NULL)
GIT2_FN(int, git_index_find_prefix, (size_t * at_pos, git_index *index, const char *prefix),
	(at_pos, index, prefix), GIT_ERROR)
GIT2_FN(int, git_index_entry_stage, (const git_index_entry *entry), (entry), 0)

/* Diffs of two buffers */
GIT2_FN(int, git_diff_options_init, (git_diff_options * opts, unsigned int version),
	(opts, version), GIT_ERROR)
GIT2_FN(int, git_diff_buffers,
	(const void *old_buffer, size_t old_len, const char *old_as_path, const void *new_buffer,
	 size_t new_len, const char *new_as_path, const git_diff_options *options,
	 git_diff_file_cb file_cb, git_diff_binary_cb binary_cb, git_diff_hunk_cb hunk_cb,
	 git_diff_line_cb line_cb, void *payload),
	(old_buffer, old_len, old_as_path, new_buffer, new_len, new_as_path, options, file_cb,
	 binary_cb, hunk_cb, line_cb, payload),
	GIT_ERROR)

/* Writing: a tree in an index in memory, a commit, a branch, a push */
GIT2_FN(int, git_reference_name_is_valid, (int *valid, const char *refname), (valid, refname),
	GIT_ERROR)
GIT2_FN(int, git_index_new, (git_index * *out), (out), GIT_ERROR)
GIT2_FN(int, git_index_add, (git_index * index, const git_index_entry *source_entry),
	(index, source_entry), GIT_ERROR)
GIT2_FN(int, git_index_write_tree_to, (git_oid * out, git_index *index, git_repository *repo),
	(out, index, repo), GIT_ERROR)
GIT2_FN(int, git_blob_create_from_buffer,
	(git_oid * id, git_repository *repo, const void *buffer, size_t len),
	(id, repo, buffer, len), GIT_ERROR)
GIT2_FN(int, git_commit_lookup, (git_commit * *commit, git_repository *repo, const git_oid *id),
	(commit, repo, id), GIT_ERROR)
GIT2_FN(const git_signature *, git_commit_author, (const git_commit *commit), (commit), NULL)
GIT2_FN(const git_signature *, git_commit_committer, (const git_commit *commit), (commit), NULL)
GIT2_FN(const git_oid *, git_commit_id, (const git_commit *commit), (commit), NULL)
GIT2_FN(const char *, git_commit_message, (const git_commit *commit), (commit), NULL)
GIT2_FN(const git_oid *, git_commit_tree_id, (const git_commit *commit), (commit), NULL)
GIT2_FN(int, git_commit_create,
	(git_oid * id, git_repository *repo, const char *update_ref, const git_signature *author,
	 const git_signature *committer, const char *message_encoding, const char *message,
	 const git_tree *tree, size_t parent_count, const git_commit *parents[]),
	(id, repo, update_ref, author, committer, message_encoding, message, tree, parent_count,
	 parents),
	GIT_ERROR)
GIT2_FN(int, git_reference_create,
	(git_reference * *out, git_repository *repo, const char *name, const git_oid *id, int force,
	 const char *log_message),
	(out, repo, name, id, force, log_message), GIT_ERROR)
GIT2_FN(int, git_reference_create_matching,
	(git_reference * *out, git_repository *repo, const char *name, const git_oid *id, int force,
	 const git_oid *current_id, const char *log_message),
	(out, repo, name, id, force, current_id, log_message), GIT_ERROR)
GIT2_FN(int, git_oid_fromstr, (git_oid * out, const char *str), (out, str), GIT_ERROR)
GIT2_FN(int, git_oid_equal, (const git_oid *a, const git_oid *b), (a, b), 0)
GIT2_FN(int, git_remote_lookup, (git_remote * *out, git_repository *repo, const char *name),
	(out, repo, name), GIT_ERROR)
GIT2_FN(const char *, git_remote_url, (const git_remote *remote), (remote), NULL)
GIT2_FN(const char *, git_remote_pushurl, (const git_remote *remote), (remote), NULL)
GIT2_FN(int, git_push_options_init, (git_push_options * opts, unsigned int version),
	(opts, version), GIT_ERROR)
GIT2_FN(int, git_remote_push,
	(git_remote * remote, const git_strarray *refspecs, const git_push_options *opts),
	(remote, refspecs, opts), GIT_ERROR)

/* Reading a branch's tip under limits; who owns a branch */
GIT2_FN(size_t, git_tree_entrycount, (const git_tree *tree), (tree), 0)
GIT2_FN(const git_tree_entry *, git_tree_entry_byindex, (const git_tree *tree, size_t idx),
	(tree, idx), NULL)
GIT2_FN(int, git_message_trailers, (git_message_trailer_array * arr, const char *message),
	(arr, message), GIT_ERROR)
GIT2_VOID(git_message_trailer_array_free, (git_message_trailer_array * arr), (arr))
GIT2_FN(int, git_repository_is_bare, (const git_repository *repo), (repo), 0)
GIT2_FN(const char *, git_repository_commondir, (const git_repository *repo), (repo), NULL)
GIT2_FN(int, git_worktree_list, (git_strarray * out, git_repository *repo), (out, repo), GIT_ERROR)
GIT2_FN(int, git_repository_head_for_worktree,
	(git_reference * *out, git_repository *repo, const char *name), (out, repo, name),
	GIT_ERROR)
GIT2_VOID(git_strarray_dispose, (git_strarray * array), (array))
GIT2_FN(const char *, git_reference_symbolic_target, (const git_reference *ref), (ref), NULL)
GIT2_FN(const char *, git_reference_name, (const git_reference *ref), (ref), NULL)
