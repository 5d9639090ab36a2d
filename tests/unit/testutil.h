/*
 * testutil.h - fixtures the cmocka unit tests share.  Header-only, as
 * every tests/unit/test_*.c is built on its own.  Include it after
 * <cmocka.h>.  It gives the test file:
 *   A, D                   an arena and its diagnostics, fresh in every
 *                          test run with testutil_setup/testutil_teardown
 *   testutil_yaml_docs()   every document of a YAML text that must load
 *   testutil_yaml_first()  its first document
 *   TESTUTIL_CASE(fn)      a test of a group with that setup and teardown
 */
#ifndef GS_TESTUTIL_H
#define GS_TESTUTIL_H

#include <string.h>

#include "base/arena.h"
#include "base/diag.h"
#include "yamlio/yamlio.h"

static struct arena A;
static struct diags D;

static inline int
testutil_setup(void **state)
{
	(void)state;
	arena_init(&A);
	diags_init(&D, &A);
	return 0;
}

static inline int
testutil_teardown(void **state)
{
	(void)state;
	arena_release(&A);
	return 0;
}

#define TESTUTIL_CASE(fn) cmocka_unit_test_setup_teardown(fn, testutil_setup, testutil_teardown)

/* Load `text` as file `file` (limits NULL: the defaults); it must load. */
static inline struct yamlio_docs
testutil_yaml_docs(const char *file, const char *text, const struct yamlio_limits *limits)
{
	struct yamlio_docs docs = { NULL, 0 };

	assert_int_equal(yamlio_load(&docs, &A, &D, file, text, strlen(text), limits), 0);
	return docs;
}

static inline struct node *
testutil_yaml_first(const char *file, const char *text, const struct yamlio_limits *limits)
{
	struct yamlio_docs docs = testutil_yaml_docs(file, text, limits);

	assert_true(docs.count >= 1);
	return docs.docs[0];
}

#endif
