/*
 * test_source_git.c - spec files from Git: revisions of real repositories
 * made with git(1) in a temporary directory, the tree walk's selection
 * and symlink rules, the index (half-staged files, GIT_INDEX_FILE,
 * intent-to-add, conflicts), the cache of remote repositories (its key,
 * no network for a cached commit, nothing of the URL stored), URL
 * scrubbing, and the SSH known_hosts check.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/arena.h"
#include "source/source.h"
#include "source/source_int.h"

#include "testutil_fs.h"

/* Run a shell command in the current directory; it must succeed. */
static void run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void
run(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	rc = system(cmd);
	if (rc != 0)
		fail_msg("command failed (%d): %s", rc, cmd);
}

/* The temporary directory holds repo/ (the current directory),
 * remote.git, cache/ and home/. */
static int
setup(void **state)
{
	struct fixture *f = testutil_fs_new("gpusite-srcgit");
	char path[PATH_MAX + 32];

	/* git and the cache see only this directory */
	snprintf(path, sizeof(path), "%s/home", f->base);
	assert_int_equal(mkdir(path, 0700), 0);
	setenv("HOME", path, 1);
	snprintf(path, sizeof(path), "%s/cache", f->base);
	setenv("XDG_CACHE_HOME", path, 1);
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	setenv("GIT_AUTHOR_NAME", "t", 1);
	setenv("GIT_AUTHOR_EMAIL", "t@example.com", 1);
	setenv("GIT_COMMITTER_NAME", "t", 1);
	setenv("GIT_COMMITTER_EMAIL", "t@example.com", 1);
	unsetenv("GIT_DIR");
	unsetenv("GIT_WORK_TREE");
	unsetenv("GIT_INDEX_FILE");
	unsetenv("GPUSITE_GIT_TOKEN");
	unsetenv("GIT_TOKEN");
	snprintf(path, sizeof(path), "%s/repo", f->base);
	assert_int_equal(mkdir(path, 0777), 0);
	assert_int_equal(chdir(path), 0);
	run("git init -q -b main . && git config core.symlinks true");
	*state = f;
	return 0;
}

static int
from_git(struct fixture *f, const char *repo, const char *rev, const char *const *paths, size_t n)
{
	memset(&f->set, 0, sizeof(f->set));
	diags_init(&f->diags, &f->arena);
	return source_from_git(&f->set, &f->arena, &f->diags, repo, rev, paths, n);
}

static int
from_index(struct fixture *f, const char *const *paths, size_t n)
{
	memset(&f->set, 0, sizeof(f->set));
	diags_init(&f->diags, &f->arena);
	return source_from_index(&f->set, &f->arena, &f->diags, paths, n);
}

static const struct source_file *
file_named(struct fixture *f, const char *path)
{
	for (size_t i = 0; i < f->set.count; i++)
		if (!strcmp(f->set.files[i].path, path))
			return &f->set.files[i];
	return NULL;
}

/* The diagnostic about `file` (NULL: the one without a file), or fail. */
static const struct diag *
diag_for(struct fixture *f, const char *file)
{
	for (size_t i = 0; i < f->diags.count; i++) {
		const char *at = f->diags.items[i].at.file;

		if ((!file && !at) || (file && at && !strcmp(at, file)))
			return &f->diags.items[i];
	}
	fail_msg("no diagnostic for '%s'", file ? file : "(none)");
	return NULL;
}

/* ---- pure functions ---- */

static void
test_source_git__url_scrub_removes_credentials(void **state)
{
	struct fixture *f = *state;
	struct arena *a = &f->arena;

	assert_string_equal(source_url_scrub(a, "https://user:pw@host/o/r.git"),
			    "https://host/o/r.git");
	assert_string_equal(source_url_scrub(a, "https://x-access-token:p@ss@host:8443/r"),
			    "https://host:8443/r");
	/* a query or a fragment may carry a token: cut whole */
	assert_string_equal(source_url_scrub(a, "https://tok@host/r?x=a@b"),
			    "https://host/r?<redacted>");
	assert_string_equal(source_url_scrub(a, "https://host/r.git?access_token=s3cret#frag"),
			    "https://host/r.git?<redacted>");
	assert_string_equal(source_url_scrub(a, "https://host/r.git#s3cret"),
			    "https://host/r.git?<redacted>");
	assert_string_equal(source_url_scrub(a, "https://host/path@v1"), "https://host/path@v1");
	assert_string_equal(source_url_scrub(a, "git@github.com:o/r.git"),
			    "git@github.com:o/r.git");
	assert_string_equal(source_url_scrub(a, "/srv/git/fleet.git"), "/srv/git/fleet.git");
}

static void
test_source_git__is_url_follows_git(void **state)
{
	(void)state;
	assert_true(source__is_url("https://host/r.git"));
	assert_true(source__is_url("git://127.0.0.1:9418/r.git"));
	assert_true(source__is_url("file:///srv/r.git"));
	assert_true(source__is_url("git@github.com:o/r.git"));
	assert_true(source__is_url("host:r.git"));
	assert_false(source__is_url("/srv/r.git"));
	assert_false(source__is_url("./a:b"));
	assert_false(source__is_url("dir/a:b"));
	assert_false(source__is_url("repo"));
	assert_false(source__is_url(":x"));
}

static void
test_source_git__base64_rfc4648_vectors(void **state)
{
	struct fixture *f = *state;
	static const char *const in[] = { "", "f", "fo", "foo", "foob", "fooba", "foobar" };
	static const char *const out[] = { "",         "Zg==",     "Zm8=",    "Zm9v",
					   "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy" };

	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++)
		assert_string_equal(
			source__base64(&f->arena, (const unsigned char *)in[i], strlen(in[i])),
			out[i]);
}

static void
test_source_git__paths_relative_to_the_user(void **state)
{
	struct fixture *f = *state;
	struct arena *a = &f->arena;

	assert_string_equal(source__tree_path(a, "sites", "a.yaml"), "sites/a.yaml");
	assert_string_equal(source__tree_path(a, "", "./sites//x/"), "sites/x");
	assert_string_equal(source__tree_path(a, "a/b", "../c"), "a/c");
	assert_string_equal(source__tree_path(a, "a", ".."), "");
	assert_null(source__tree_path(a, "", "../x"));
	assert_null(source__tree_path(a, "a", "../../x"));
	assert_string_equal(source__shown(a, "", "sites/a.yaml"), "sites/a.yaml");
	assert_string_equal(source__shown(a, "a/b", "a/b/c.yaml"), "c.yaml");
	assert_string_equal(source__shown(a, "a/b", "a/x.yaml"), "../x.yaml");
	assert_string_equal(source__shown(a, "a/b", "x.yaml"), "../../x.yaml");
	assert_string_equal(source__shown(a, "a/b", "a/bc/x.yaml"), "../bc/x.yaml");
	assert_true(source__hidden_below("sites/.x/a.yaml", "sites"));
	assert_true(source__hidden_below(".cfg/sites/a.yaml", ""));
	assert_false(source__hidden_below(".cfg/sites/a.yaml", ".cfg/sites"));
}

static void
test_source_git__message_never_holds_a_secret(void **state)
{
	struct fixture *f = *state;
	const char *m;

	setenv("GPUSITE_GIT_TOKEN", "tok-1234567890", 1);
	git_libgit2_init();
	git_error_set_str(GIT_ERROR_NET, "failed to reach 'https://user:hunter2@host/r.git'"
					 " with tok-1234567890 in the header");
	m = source__git_message(&f->arena);
	git_libgit2_shutdown();
	unsetenv("GPUSITE_GIT_TOKEN");
	assert_null(strstr(m, "hunter2"));
	assert_null(strstr(m, "tok-1234567890"));
	assert_non_null(strstr(m, "https://host/r.git"));
	m = source__scrub(&f->arena, "cannot fetch 'https://h/r.git?token=s3cret#s3cret' now; "
				     "http://u:pw@h2/x?a=b, then ssh://h3/y#frag.");
	assert_string_equal(m, "cannot fetch 'https://h/r.git?<redacted>' now; "
			       "http://h2/x?<redacted> then ssh://h3/y?<redacted>");
}

static void
test_source_git__credentials_never_over_plain_http(void **state)
{
	struct fixture *f = *state;
	struct arena *a = &f->arena;

	assert_non_null(source__url_refusal(a, "http://x-access-token:s3cret@host/r.git"));
	assert_non_null(source__url_refusal(a, "http://s3cret@host/r.git"));
	assert_non_null(source__url_refusal(a, "HTTP://u:p@host/r.git"));
	assert_non_null(source__url_refusal(a, "http://host/r.git?access_token=s3cret"));
	assert_non_null(source__url_refusal(a, "http://host/r.git?private_token=s3cret"));
	assert_null(source__url_refusal(a, "http://host/r.git"));
	assert_null(source__url_refusal(a, "http://host/path@v1/r.git"));
	assert_null(source__url_refusal(a, "https://x-access-token:s3cret@host/r.git"));
	assert_null(source__url_refusal(a, "https://host/r.git?access_token=s3cret"));
}

/* ---- revisions ---- */

/* Three commits on main (v1 tag on the first), a branch "more". */
static void
make_history(void)
{
	run("mkdir -p sites && printf 'a: 1\\n' >sites/a.yaml && git add . &&"
	    " git commit -q -m one && git tag -a -m v1 v1");
	run("printf 'b: 1\\n' >sites/b.yaml && git add . && git commit -q -m two");
	run("printf 'a: 2\\n' >sites/a.yaml && git commit -q -am three");
	run("git branch more HEAD~1 && git checkout -q more && printf 'c: 1\\n' >sites/c.yml"
	    " && git add . && git commit -q -m more && git checkout -q main");
}

static void
test_source_git__reads_branch_tag_sha_and_ancestry(void **state)
{
	struct fixture *f = *state;
	char sha[64];
	FILE *p;

	make_history();
	assert_int_equal(from_git(f, NULL, NULL, NULL, 0), SOURCE_OK);
	assert_int_equal(f->set.count, 2);
	assert_string_equal(file_named(f, "sites/a.yaml")->data, "a: 2\n");
	assert_int_equal(from_git(f, ".", "v1", NULL, 0), SOURCE_OK);
	assert_int_equal(f->set.count, 1);
	assert_string_equal(f->set.files[0].data, "a: 1\n");
	assert_int_equal(from_git(f, ".", "more", NULL, 0), SOURCE_OK);
	assert_int_equal(f->set.count, 3);
	assert_non_null(file_named(f, "sites/c.yml"));
	assert_int_equal(from_git(f, ".", "HEAD~1", NULL, 0), SOURCE_OK);
	assert_string_equal(file_named(f, "sites/a.yaml")->data, "a: 1\n");

	p = popen("git rev-parse HEAD~2", "r");
	assert_non_null(p);
	assert_non_null(fgets(sha, sizeof(sha), p));
	pclose(p);
	sha[strcspn(sha, "\n")] = '\0';
	assert_int_equal(from_git(f, ".", sha, NULL, 0), SOURCE_OK);
	assert_int_equal(f->set.count, 1);
	sha[7] = '\0';
	assert_int_equal(from_git(f, ".", sha, NULL, 0), SOURCE_OK);
	assert_int_equal(f->set.count, 1);
	assert_string_equal(f->set.label, ".");
}

static void
test_source_git__missing_revision_says_where(void **state)
{
	struct fixture *f = *state;
	const struct diag *d;

	make_history();
	assert_int_equal(from_git(f, ".", "nope", NULL, 0), SOURCE_ENOTFOUND);
	d = diag_for(f, NULL);
	assert_string_equal(d->msg, "revision 'nope' not found in .");
	assert_string_equal(d->rule, "GS007");
	assert_int_equal(from_git(f, ".", "v1:sites", NULL, 0), SOURCE_ENOTFOUND);
	assert_non_null(strstr(diag_for(f, NULL)->msg, "is not a commit"));
	assert_int_equal(from_git(f, "../nowhere", NULL, NULL, 0), SOURCE_ENOTFOUND);
	assert_non_null(strstr(diag_for(f, NULL)->msg, "cannot open repository '../nowhere'"));
}

static void
test_source_git__walk_selects_like_the_work_tree(void **state)
{
	struct fixture *f = *state;
	static const char *const notes[] = { "notes.txt" };
	static const char *const missing[] = { "nothing-here" };

	run("mkdir -p sites/sub sites/.dot sites/dir.yaml other &&"
	    " printf 'a: 1\\n' >sites/a.yaml && printf 'b: 1\\n' >sites/b.yml &&"
	    " printf 'x\\n' >sites/c.txt && printf 'h: 1\\n' >sites/.h.yaml &&"
	    " printf 'h: 1\\n' >sites/.dot/x.yaml && printf 'd: 1\\n' >sites/sub/d.yaml &&"
	    " printf 'e: 1\\n' >sites/dir.yaml/e.yaml && printf 'o: 1\\n' >other/o.yaml &&"
	    " printf 'n: 1\\n' >notes.txt && git add . && git commit -q -m walk");
	/* no PATH: sites/ only; hidden entries and other suffixes skipped */
	assert_int_equal(from_git(f, ".", "HEAD", NULL, 0), SOURCE_OK);
	assert_int_equal(f->set.count, 3);
	assert_string_equal(f->set.files[0].path, "sites/a.yaml");
	assert_string_equal(f->set.files[1].path, "sites/b.yml");
	assert_string_equal(f->set.files[2].path, "sites/sub/d.yaml");
	/* a directory named like a spec is refused, as in the work tree */
	assert_string_equal(diag_for(f, "sites/dir.yaml")->rule, "GS006");
	/* a named file is taken whatever its suffix */
	assert_int_equal(from_git(f, ".", "HEAD", notes, 1), SOURCE_OK);
	assert_int_equal(f->set.count, 1);
	assert_string_equal(f->set.files[0].data, "n: 1\n");
	/* a PATH missing at the revision: exit 3 material, with the spelling */
	assert_int_equal(from_git(f, ".", "HEAD", missing, 1), SOURCE_ENOTFOUND);
	assert_string_equal(diag_for(f, NULL)->msg, "path 'nothing-here' does not exist at HEAD");
}

static void
test_source_git__paths_from_a_subdirectory(void **state)
{
	struct fixture *f = *state;
	static const char *const up[] = { "../other" };
	static const char *const out[] = { "../../.." };

	run("mkdir -p fleet/sites other && printf 'a: 1\\n' >fleet/sites/a.yaml &&"
	    " printf 'o: 1\\n' >other/o.yaml && git add . && git commit -q -m sub");
	assert_int_equal(chdir("fleet"), 0);
	/* the repository is found upwards; names are from here */
	assert_int_equal(from_git(f, ".", "HEAD", NULL, 0), SOURCE_OK);
	assert_int_equal(f->set.count, 1);
	assert_string_equal(f->set.files[0].path, "sites/a.yaml");
	assert_int_equal(from_git(f, ".", "HEAD", up, 1), SOURCE_OK);
	assert_int_equal(f->set.count, 1);
	assert_string_equal(f->set.files[0].path, "../other/o.yaml");
	assert_int_equal(from_git(f, ".", "HEAD", out, 1), SOURCE_ENOTFOUND);
	assert_non_null(strstr(diag_for(f, NULL)->msg, "outside the repository"));
	/* --repo PATH into the subdirectory means the same */
	assert_int_equal(chdir(".."), 0);
	assert_int_equal(from_git(f, "fleet", "HEAD", NULL, 0), SOURCE_OK);
	assert_string_equal(f->set.files[0].path, "sites/a.yaml");
}

static void
test_source_git__symlinks_stay_inside(void **state)
{
	struct fixture *f = *state;

	run("mkdir -p sites/sub && printf 'a: 1\\n' >sites/a.yaml &&"
	    " ln -s a.yaml sites/in.yaml && ln -s in.yaml sites/chain.yaml &&"
	    " ln -s ../../outside.yaml sites/out.yaml && ln -s /etc/passwd sites/abs.yaml &&"
	    " ln -s nope.yaml sites/dangling.yaml && ln -s loop2.yaml sites/loop1.yaml &&"
	    " ln -s loop1.yaml sites/loop2.yaml && ln -s sub sites/dirlink.yaml &&"
	    " printf 'x: 1\\n' >sites/sub/x.yaml && git add . && git commit -q -m links");
	assert_int_equal(from_git(f, ".", "HEAD", NULL, 0), SOURCE_OK);
	/* inside: taken with the target's bytes, under the link's name */
	assert_string_equal(file_named(f, "sites/in.yaml")->data, "a: 1\n");
	assert_string_equal(file_named(f, "sites/chain.yaml")->data, "a: 1\n");
	assert_non_null(file_named(f, "sites/sub/x.yaml"));
	assert_int_equal(f->set.count, 4);
	assert_string_equal(diag_for(f, "sites/out.yaml")->rule, "GS006");
	assert_non_null(strstr(diag_for(f, "sites/out.yaml")->msg, "outside the repository"));
	assert_non_null(strstr(diag_for(f, "sites/abs.yaml")->msg, "outside the repository"));
	assert_non_null(strstr(diag_for(f, "sites/dangling.yaml")->msg, "does not exist"));
	assert_non_null(strstr(diag_for(f, "sites/loop1.yaml")->msg, "symlink loop"));
	assert_non_null(strstr(diag_for(f, "sites/dirlink.yaml")->msg, "directory"));
}

static void
test_source_git__size_limit_before_reading(void **state)
{
	struct fixture *f = *state;
	const struct diag *d;

	run("mkdir -p sites && head -c %u /dev/zero | tr '\\0' 'x' >sites/big.yaml &&"
	    " printf 'a: 1\\n' >sites/a.yaml && git add . && git commit -q -m big",
	    SOURCE_MAX_FILE_BYTES + 1);
	assert_int_equal(from_git(f, ".", "HEAD", NULL, 0), SOURCE_OK);
	assert_int_equal(f->set.count, 1);
	d = diag_for(f, "sites/big.yaml");
	assert_string_equal(d->rule, "GS001");
	assert_non_null(strstr(d->msg, "over the 4 MiB limit"));
}

/* ---- the index ---- */

static void
test_source_git__index_is_what_will_be_committed(void **state)
{
	struct fixture *f = *state;
	static const char *const one[] = { "sites/b.yaml" };

	run("mkdir -p sites && printf 'a: 1\\n' >sites/a.yaml && printf 'b: 1\\n' >sites/b.yaml"
	    " && git add . && git commit -q -m base");
	/* staged a: 2, work tree a: 3; b deleted from the index only */
	run("printf 'a: 2\\n' >sites/a.yaml && git add sites/a.yaml &&"
	    " printf 'a: 3\\n' >sites/a.yaml && git rm -q --cached sites/b.yaml &&"
	    " printf 'n: 1\\n' >sites/new.yaml && git add -N sites/new.yaml");
	assert_int_equal(from_index(f, NULL, 0), SOURCE_OK);
	assert_int_equal(f->set.count, 1); /* -N stages no content */
	assert_string_equal(f->set.files[0].path, "sites/a.yaml");
	assert_string_equal(f->set.files[0].data, "a: 2\n");
	assert_string_equal(f->set.label, "index");
	assert_int_equal(from_index(f, one, 1), SOURCE_ENOTFOUND);
	assert_non_null(strstr(diag_for(f, NULL)->msg, "not in the index"));
	/* named from a subdirectory, as the user sees them */
	assert_int_equal(chdir("sites"), 0);
	assert_int_equal(from_index(f, NULL, 0), SOURCE_OK);
	assert_string_equal(f->set.files[0].path, "a.yaml");
}

static void
test_source_git__index_file_from_the_environment(void **state)
{
	struct fixture *f = *state;
	char path[PATH_MAX + 32];

	run("mkdir -p sites && printf 'a: 1\\n' >sites/a.yaml && git add . &&"
	    " git commit -q -m base && cp .git/index ../other-index &&"
	    " printf 'a: 2\\n' >sites/a.yaml && git add sites/a.yaml");
	assert_int_equal(from_index(f, NULL, 0), SOURCE_OK);
	assert_string_equal(f->set.files[0].data, "a: 2\n");
	/* what `git commit -a` hands its pre-commit hook */
	snprintf(path, sizeof(path), "%s/other-index", f->base);
	setenv("GIT_INDEX_FILE", path, 1);
	assert_int_equal(from_index(f, NULL, 0), SOURCE_OK);
	unsetenv("GIT_INDEX_FILE");
	assert_string_equal(f->set.files[0].data, "a: 1\n");
}

static void
test_source_git__index_conflict_is_a_finding(void **state)
{
	struct fixture *f = *state;

	run("mkdir -p sites && printf 'a: 1\\n' >sites/a.yaml && git add . && git commit -q -m base"
	    " && git checkout -q -b side && printf 'a: 2\\n' >sites/a.yaml && git commit -q -am "
	    "side"
	    " && git checkout -q main && printf 'a: 3\\n' >sites/a.yaml && git commit -q -am main"
	    " && (git merge -q side >/dev/null 2>&1 || true)");
	assert_int_equal(from_index(f, NULL, 0), SOURCE_OK);
	assert_int_equal(f->set.count, 0);
	assert_non_null(strstr(diag_for(f, "sites/a.yaml")->msg, "unmerged"));
	assert_int_equal(f->diags.count, 1);
}

static void
test_source_git__index_outside_a_repository(void **state)
{
	struct fixture *f = *state;

	run("rm -rf .git");
	setenv("GIT_CEILING_DIRECTORIES", f->base, 1);
	assert_int_equal(from_index(f, NULL, 0), SOURCE_ENOTFOUND);
	unsetenv("GIT_CEILING_DIRECTORIES");
	assert_non_null(strstr(diag_for(f, NULL)->msg, "--staged"));
}

/* ---- the cache ---- */

static void
test_source_git__cache_serves_a_known_commit_offline(void **state)
{
	struct fixture *f = *state;
	char url[PATH_MAX + 64], moved[PATH_MAX + 64], key[64], sha[64], dir[PATH_MAX * 2];
	struct stat st;
	FILE *p;

	make_history();
	run("git clone -q --bare . ../remote.git");
	snprintf(url, sizeof(url), "file://%s/remote.git", f->base);
	assert_int_equal(from_git(f, url, "more", NULL, 0), SOURCE_OK);
	assert_int_equal(f->set.count, 3);
	/* the remote's HEAD is the clone's HEAD: HEAD~1 means what it says */
	assert_int_equal(from_git(f, url, "HEAD~1", NULL, 0), SOURCE_OK);
	assert_int_equal(f->set.count, 2);
	assert_string_equal(file_named(f, "sites/a.yaml")->data, "a: 1\n");

	/* the cache is named by the URL's blob id, and keeps no URL */
	snprintf(dir, sizeof(dir), "printf %%s '%s' | git hash-object --stdin", url);
	p = popen(dir, "r");
	assert_non_null(p);
	assert_non_null(fgets(key, sizeof(key), p));
	pclose(p);
	key[strcspn(key, "\n")] = '\0';
	snprintf(dir, sizeof(dir), "%s/cache/gpusite/repos/%s.git", f->base, key);
	assert_int_equal(stat(dir, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	run("! grep -rl remote.git '%s'", dir);

	/* the server gone: a cached commit still reads, a branch cannot */
	snprintf(moved, sizeof(moved), "%s/moved.git", f->base);
	snprintf(dir, sizeof(dir), "%s/remote.git", f->base);
	assert_int_equal(rename(dir, moved), 0);
	p = popen("git rev-parse more", "r");
	assert_non_null(p);
	assert_non_null(fgets(sha, sizeof(sha), p));
	pclose(p);
	sha[12] = '\0';
	assert_int_equal(from_git(f, url, sha, NULL, 0), SOURCE_OK);
	assert_int_equal(f->set.count, 3);
	assert_int_equal(from_git(f, url, arena_printf(&f->arena, "%s~1", sha), NULL, 0),
			 SOURCE_OK);
	assert_int_equal(f->set.count, 2);
	assert_int_equal(from_git(f, url, "more", NULL, 0), SOURCE_OK);
	/* the same process fetched already: no second fetch was needed */
	assert_int_equal(f->set.count, 3);
}

static void
test_source_git__fetch_failure_names_the_url_without_secrets(void **state)
{
	struct fixture *f = *state;
	const struct diag *d;

	assert_int_equal(from_git(f, "https://user:hunter2@127.0.0.1:1/none.git", "main", NULL, 0),
			 SOURCE_EFAIL);
	d = diag_for(f, NULL);
	assert_non_null(strstr(d->msg, "cannot fetch https://127.0.0.1:1/none.git"));
	assert_null(strstr(d->msg, "hunter2"));
	run("! find '%s/cache' | grep -q hunter2", f->base);
}

/* ---- SSH host keys ---- */

static void
test_source_git__known_hosts_through_ssh_keygen(void **state)
{
	struct fixture *f = *state;
	unsigned char key[512], other[512];
	size_t n, m;
	FILE *k;

	if (system("command -v ssh-keygen >/dev/null 2>&1") != 0)
		skip();
	run("ssh-keygen -q -t ed25519 -N '' -f k1 && ssh-keygen -q -t ed25519 -N '' -f k2 &&"
	    " cut -d' ' -f2 k1.pub | base64 -d >k1.raw && cut -d' ' -f2 k2.pub | base64 -d >k2.raw"
	    " && printf 'git.example.test %%s\\n[git.example.test]:2222 %%s\\n' \"$(cut -d' ' "
	    "-f1,2 k1.pub)\""
	    " \"$(cut -d' ' -f1,2 k1.pub)\" >known && cp known hashed && ssh-keygen -q -H -f hashed"
	    " >/dev/null 2>&1 && printf '@revoked * %%s\\n' \"$(cut -d' ' -f1,2 k1.pub)\" >revoked"
	    " && cat known >>revoked");
	k = fopen("k1.raw", "rb");
	assert_non_null(k);
	n = fread(key, 1, sizeof(key), k);
	fclose(k);
	k = fopen("k2.raw", "rb");
	assert_non_null(k);
	m = fread(other, 1, sizeof(other), k);
	fclose(k);
	assert_true(n > 0 && m > 0);
	assert_int_equal(source__known_host("known", "git.example.test", 22, key, n), 1);
	assert_int_equal(source__known_host("known", "git.example.test", 2222, key, n), 1);
	assert_int_equal(source__known_host("known", "git.example.test", 22, other, m), 0);
	assert_int_equal(source__known_host("known", "evil.example.test", 22, key, n), 0);
	assert_int_equal(source__known_host("hashed", "git.example.test", 22, key, n), 1);
	assert_int_equal(source__known_host("revoked", "git.example.test", 22, key, n), 0);
	assert_int_equal(source__known_host("no-such-file", "git.example.test", 22, key, n), 0);
	(void)f;
}

int
main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, testutil_fs_teardown)
	const struct CMUnitTest tests[] = {
		T(test_source_git__url_scrub_removes_credentials),
		T(test_source_git__credentials_never_over_plain_http),
		T(test_source_git__is_url_follows_git),
		T(test_source_git__base64_rfc4648_vectors),
		T(test_source_git__paths_relative_to_the_user),
		T(test_source_git__message_never_holds_a_secret),
		T(test_source_git__reads_branch_tag_sha_and_ancestry),
		T(test_source_git__missing_revision_says_where),
		T(test_source_git__walk_selects_like_the_work_tree),
		T(test_source_git__paths_from_a_subdirectory),
		T(test_source_git__symlinks_stay_inside),
		T(test_source_git__size_limit_before_reading),
		T(test_source_git__index_is_what_will_be_committed),
		T(test_source_git__index_file_from_the_environment),
		T(test_source_git__index_conflict_is_a_finding),
		T(test_source_git__index_outside_a_repository),
		T(test_source_git__cache_serves_a_known_commit_offline),
		T(test_source_git__fetch_failure_names_the_url_without_secrets),
		T(test_source_git__known_hosts_through_ssh_keygen),
	};
#undef T
	return cmocka_run_group_tests(tests, NULL, NULL);
}
