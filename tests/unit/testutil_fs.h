/*
 * testutil_fs.h - the fixture of the unit tests that read real files
 * (test_source_dir, test_source_git): a fresh temporary directory per
 * test, the directory to go back to, an arena, its diagnostics and the
 * file set read.  Header-only, as every tests/unit/test_*.c is built on
 * its own; the test file defines _XOPEN_SOURCE 700 before any include
 * (nftw) and includes this after <cmocka.h>.
 */
#ifndef GS_TESTUTIL_FS_H
#define GS_TESTUTIL_FS_H

#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/diag.h"
#include "source/source.h"

struct fixture {
	char base[PATH_MAX]; /* the test's temporary directory */
	char old_cwd[PATH_MAX];
	struct arena arena;
	struct diags diags;
	struct source_set set;
};

/* A fixture with a new directory $TMPDIR/PREFIX-XXXXXX (default /tmp)
 * and a fresh arena; the current directory is left as it is. */
static inline struct fixture *
testutil_fs_new(const char *prefix)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	assert_non_null(getcwd(f->old_cwd, sizeof(f->old_cwd)));
	snprintf(f->base, sizeof(f->base), "%s/%s-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", prefix);
	assert_non_null(mkdtemp(f->base));
	arena_init(&f->arena);
	diags_init(&f->diags, &f->arena);
	return f;
}

static inline int
testutil_fs_remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* Back to the directory of before, the temporary tree removed. */
static inline int
testutil_fs_teardown(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(chdir(f->old_cwd), 0);
	nftw(f->base, testutil_fs_remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	arena_release(&f->arena);
	free(f);
	return 0;
}

#endif
