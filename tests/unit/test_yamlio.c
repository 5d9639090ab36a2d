/*
 * test_yamlio.c - the YAML loader (positions, core schema, tags, anchors,
 * merge keys, duplicates, hostile input) and the emitter (quoting,
 * literal blocks, round trip).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <cmocka.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "json/json.h"
#include "node/node.h"
#include "yamlio/yamlio.h"

static struct arena A;
static struct diags D;
static struct yamlio_docs DOCS;

static int
teardown(void **state)
{
	(void)state;
	arena_release(&A);
	return 0;
}

static int
loadn(const char *s, size_t n, const struct yamlio_limits *lim)
{
	diags_init(&D, &A);
	return yamlio_load(&DOCS, &A, &D, "t.yaml", s, n, lim);
}

static int
load(const char *s)
{
	return loadn(s, strlen(s), NULL);
}

static double
now(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

static void
dump_diags(void)
{
	size_t i;

	for (i = 0; i < D.count; i++)
		print_message("  %s:%u:%u: %s [%s]\n", D.items[i].at.file, D.items[i].at.line,
			      D.items[i].at.col, D.items[i].msg, D.items[i].rule);
}

/* Exactly one diagnostic, at line:col, with rule and a message containing msg. */
static void
expect_one(unsigned line, unsigned col, const char *rule, const char *msg)
{
	if (D.count != 1 || D.items[0].at.line != line || D.items[0].at.col != col ||
	    strcmp(D.items[0].rule, rule) != 0 || !strstr(D.items[0].msg, msg)) {
		print_message("want %u:%u %s '%s', got %zu diagnostics:\n", line, col, rule, msg,
			      D.count);
		dump_diags();
		fail();
	}
	assert_int_equal(D.items[0].level, DIAG_ERROR);
	assert_string_equal(D.items[0].at.file, "t.yaml");
}

static struct node *
doc(size_t i)
{
	assert_true(i < DOCS.count);
	return DOCS.docs[i];
}

/* ------------------------------------------------------------ positions */

static void
test_yamlio__positions(void **state)
{
	const char *y = "a: 1\n"
			"b:\n"
			"  c: x\n"
			"  d:\n"
			"    - p\n"
			"    - q: 2\n"
			"---\n"
			"# second\n"
			"e:   [f, {g: h}]\n";
	struct node *r, *n;
	const struct node_pair *p;

	(void)state;
	assert_int_equal(load(y), 0);
	assert_int_equal(D.count, 0);
	assert_int_equal(DOCS.count, 2);
	r = doc(0);
	assert_int_equal(r->at.line, 1);
	assert_int_equal(r->at.col, 1);
	p = node_map_pair(r, "a");
	assert_int_equal(p->key->at.line, 1);
	assert_int_equal(p->key->at.col, 1);
	assert_int_equal(p->value->at.col, 4);
	p = node_map_pair(node_map_get(r, "b"), "c");
	assert_int_equal(p->key->at.line, 3);
	assert_int_equal(p->key->at.col, 3);
	assert_int_equal(p->value->at.line, 3);
	assert_int_equal(p->value->at.col, 6);
	n = node_path(r, "b.d");
	assert_int_equal(n->kind, NODE_SEQ);
	assert_int_equal(n->at.line, 5);
	assert_int_equal(n->at.col, 5);
	assert_int_equal(n->seq.items[0]->at.line, 5);
	assert_int_equal(n->seq.items[0]->at.col, 7);
	n = n->seq.items[1];
	assert_int_equal(n->at.line, 6);
	assert_int_equal(n->at.col, 7);
	p = node_map_pair(n, "q");
	assert_int_equal(p->key->at.col, 7);
	assert_int_equal(p->value->at.line, 6);
	assert_int_equal(p->value->at.col, 10);
	/* Second document. */
	r = doc(1);
	p = node_map_pair(r, "e");
	assert_int_equal(p->key->at.line, 9);
	assert_int_equal(p->key->at.col, 1);
	assert_int_equal(p->value->at.col, 6);
	assert_int_equal(p->value->seq.items[0]->at.col, 7);
	n = p->value->seq.items[1];
	assert_int_equal(n->at.col, 10);
	assert_int_equal(node_map_pair(n, "g")->value->at.col, 14);
	assert_string_equal(n->at.file, "t.yaml");
}

static void
test_yamlio__columns_count_characters(void **state)
{
	(void)state;
	/* "é" and "日本" are one column per character, and a BOM none. */
	assert_int_equal(load("\xef\xbb\xbf"
			      "k\xc3\xa9: \xe6\x97\xa5\xe6\x9c\xac: x\n"),
			 -1);
	expect_one(1, 7, "GS001", "a second ': ' on one line");
	assert_int_equal(load("\xef\xbb\xbf"
			      "a: 1\n"),
			 0);
	assert_int_equal(node_map_pair(doc(0), "a")->key->at.col, 1);
	/* CR LF line ends. */
	assert_int_equal(load("a: 1\r\nb: 2\r\nc: [\r\n"), -1);
	assert_int_equal(D.count, 1);
	assert_int_equal(D.items[0].at.line, 4);
}

/* --------------------------------------------------- scalar resolution */

struct res {
	const char *src;
	enum node_type type;
	const char *text; /* canonical text */
};

static const struct res resolution[] = {
	{ "~", NODE_NULL, "null" },
	{ "null", NODE_NULL, "null" },
	{ "Null", NODE_NULL, "null" },
	{ "NULL", NODE_NULL, "null" },
	{ "", NODE_NULL, "null" },
	{ "nULL", NODE_STR, "nULL" },
	{ "true", NODE_BOOL, "true" },
	{ "True", NODE_BOOL, "true" },
	{ "TRUE", NODE_BOOL, "true" },
	{ "false", NODE_BOOL, "false" },
	{ "False", NODE_BOOL, "false" },
	{ "FALSE", NODE_BOOL, "false" },
	{ "tRUE", NODE_STR, "tRUE" },
	/* YAML 1.1 booleans are strings in 1.2. */
	{ "yes", NODE_STR, "yes" },
	{ "no", NODE_STR, "no" },
	{ "on", NODE_STR, "on" },
	{ "off", NODE_STR, "off" },
	{ "y", NODE_STR, "y" },
	{ "0", NODE_INT, "0" },
	{ "-0", NODE_INT, "0" },
	{ "+12", NODE_INT, "12" },
	{ "007", NODE_INT, "7" },
	{ "-17", NODE_INT, "-17" },
	{ "0o17", NODE_INT, "15" },
	{ "0x1F", NODE_INT, "31" },
	{ "0xff", NODE_INT, "255" },
	{ "0o8", NODE_STR, "0o8" },
	{ "0x", NODE_STR, "0x" },
	{ "0xg", NODE_STR, "0xg" },
	{ "-0x1", NODE_STR, "-0x1" },
	{ "1_000", NODE_STR, "1_000" },
	{ "1:30", NODE_STR, "1:30" },
	{ "0b101", NODE_STR, "0b101" },
	{ "12abc", NODE_STR, "12abc" },
	{ "720h", NODE_STR, "720h" },
	{ "9223372036854775807", NODE_INT, "9223372036854775807" },
	{ "-9223372036854775808", NODE_INT, "-9223372036854775808" },
	{ "9223372036854775808", NODE_FLOAT, "9223372036854775808" },
	{ "123456789012345678901234567890", NODE_FLOAT, "123456789012345678901234567890" },
	{ "0x8000000000000000", NODE_FLOAT, "0x8000000000000000" },
	{ "1.5", NODE_FLOAT, "1.5" },
	{ "1.", NODE_FLOAT, "1." },
	{ ".5", NODE_FLOAT, ".5" },
	{ "-1e3", NODE_FLOAT, "-1e3" },
	{ "1E+3", NODE_FLOAT, "1E+3" },
	{ "2.5e-3", NODE_FLOAT, "2.5e-3" },
	{ "1e", NODE_STR, "1e" },
	{ ".", NODE_STR, "." },
	{ "1.2.3", NODE_STR, "1.2.3" },
	{ "e3", NODE_STR, "e3" },
	{ ".inf", NODE_FLOAT, ".inf" },
	{ "-.Inf", NODE_FLOAT, "-.Inf" },
	{ "+.INF", NODE_FLOAT, "+.INF" },
	{ ".nan", NODE_FLOAT, ".nan" },
	{ ".NaN", NODE_FLOAT, ".NaN" },
	{ ".NAN", NODE_FLOAT, ".NAN" },
	{ ".Nan", NODE_STR, ".Nan" },
	{ "nan", NODE_STR, "nan" },
	{ "inf", NODE_STR, "inf" },
	{ "-.nan", NODE_STR, "-.nan" },
	/* Quoted scalars and block scalars are always strings. */
	{ "'1'", NODE_STR, "1" },
	{ "\"true\"", NODE_STR, "true" },
	{ "\"\"", NODE_STR, "" },
	{ "'~'", NODE_STR, "~" },
	{ "|-\n  12", NODE_STR, "12" },
	{ ">-\n  null", NODE_STR, "null" },
	{ "a b  c", NODE_STR, "a b  c" },
};

static void
test_yamlio__scalar_resolution_table(void **state)
{
	char y[200];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(resolution) / sizeof(resolution[0]); i++) {
		const struct res *r = &resolution[i];
		struct node *v;

		snprintf(y, sizeof(y), "v: %s\n", r->src);
		if (load(y) != 0) {
			dump_diags();
			fail_msg("'%s' did not load", r->src);
		}
		v = node_map_get(doc(0), "v");
		assert_non_null(v);
		if (v->type != r->type || strcmp(v->scalar.text, r->text) != 0)
			fail_msg("'%s': want type %d text '%s', got type %d text '%s'", r->src,
				 r->type, r->text, v->type, v->scalar.text);
		assert_int_equal(v->scalar.len, strlen(r->text));
	}
}

static void
test_yamlio__scalar_values(void **state)
{
	struct node *r;

	(void)state;
	assert_int_equal(load("a: 0x1F\nb: -42\nc: 1.5e2\nd: .inf\ne: -.inf\n"
			      "f: .nan\ng: true\nh: 9223372036854775808\n"),
			 0);
	r = doc(0);
	assert_int_equal(node_map_get(r, "a")->scalar.i, 31);
	assert_int_equal(node_map_get(r, "b")->scalar.i, -42);
	assert_true(node_map_get(r, "b")->scalar.f == -42.0);
	assert_true(node_map_get(r, "c")->scalar.f == 150.0);
	assert_true(isinf(node_map_get(r, "d")->scalar.f) && node_map_get(r, "d")->scalar.f > 0);
	assert_true(isinf(node_map_get(r, "e")->scalar.f) && node_map_get(r, "e")->scalar.f < 0);
	assert_true(isnan(node_map_get(r, "f")->scalar.f));
	assert_int_equal(node_map_get(r, "g")->scalar.i, 1);
	assert_true(node_map_get(r, "h")->scalar.f == 9223372036854775808.0);
}

/* ----------------------------------------------------------------- tags */

static void
test_yamlio__tags_honoured(void **state)
{
	struct node *r;

	(void)state;
	assert_int_equal(load("a: !!str 123\n"
			      "b: !!int \"42\"\n"
			      "c: !!int 0x10\n"
			      "d: !!float 1\n"
			      "e: !!bool \"true\"\n"
			      "f: !!null ''\n"
			      "g: !!map {x: 1}\n"
			      "h: !!seq [1]\n"
			      "i: ! 12\n"
			      "j: !<tag:yaml.org,2002:str> true\n"
			      "k: !!str\n"
			      "l: !!float .inf\n"),
			 0);
	r = doc(0);
	assert_string_equal(node_str(node_map_get(r, "a")), "123");
	assert_int_equal(node_map_get(r, "b")->type, NODE_INT);
	assert_int_equal(node_map_get(r, "b")->scalar.i, 42);
	assert_int_equal(node_map_get(r, "c")->scalar.i, 16);
	assert_int_equal(node_map_get(r, "d")->type, NODE_FLOAT);
	assert_true(node_map_get(r, "d")->scalar.f == 1.0);
	assert_true(node_is_bool(node_map_get(r, "e")));
	assert_true(node_is_null(node_map_get(r, "f")));
	assert_int_equal(node_map_get(r, "g")->kind, NODE_MAP);
	assert_int_equal(node_map_get(r, "h")->kind, NODE_SEQ);
	assert_string_equal(node_str(node_map_get(r, "i")), "12");
	assert_string_equal(node_str(node_map_get(r, "j")), "true");
	assert_string_equal(node_str(node_map_get(r, "k")), "");
	assert_true(isinf(node_map_get(r, "l")->scalar.f));

	/* %TAG handles that name the core namespace are the core tags. */
	assert_int_equal(load("%TAG !e! tag:yaml.org,2002:\n---\na: !e!int \"7\"\n"), 0);
	assert_int_equal(node_map_get(doc(0), "a")->scalar.i, 7);
}

static void
test_yamlio__tags_refused(void **state)
{
	(void)state;
	assert_int_equal(load("a: 1\nb: !!python/object:os.system [ls]\n"), -1);
	expect_one(2, 4, "GS001", "unsupported tag '!!python/object:os.system'");
	assert_int_equal(load("b: !!python/object/apply:os.system\n  - ls\n"), -1);
	expect_one(1, 4, "GS001", "unsupported tag '!!python/object/apply:os.system'");
	assert_int_equal(load("a: !foo x\n"), -1);
	expect_one(1, 4, "GS001", "unsupported tag '!foo'");
	assert_int_equal(load("a: !!binary aGk=\n"), -1);
	expect_one(1, 4, "GS001", "unsupported tag '!!binary'");
	assert_int_equal(load("a: !!set {x}\n"), -1);
	expect_one(1, 4, "GS001", "unsupported tag '!!set'");
	assert_int_equal(load("!<tag:example.com,2000:app/x> {a: 1}\n"), -1);
	expect_one(1, 1, "GS001", "unsupported tag 'tag:example.com,2000:app/x'");
	assert_int_equal(load("a: !!int abc\n"), -1);
	expect_one(1, 4, "GS001", "'abc' is not a valid !!int value");
	assert_int_equal(load("a: !!bool yes\n"), -1);
	expect_one(1, 4, "GS001", "'yes' is not a valid !!bool value");
	assert_int_equal(load("a: !!null x\n"), -1);
	expect_one(1, 4, "GS001", "not a valid !!null value");
	assert_int_equal(load("a: !!float x1\n"), -1);
	expect_one(1, 4, "GS001", "not a valid !!float value");
	assert_int_equal(load("a: !!map 1\n"), -1);
	expect_one(1, 4, "GS001", "tag !!map on a scalar");
	assert_int_equal(load("a: !!seq {b: 1}\n"), -1);
	expect_one(1, 4, "GS001", "tag !!seq on a mapping");
	assert_int_equal(load("a: !!map [1]\n"), -1);
	expect_one(1, 4, "GS001", "tag !!map on a sequence");
}

/* ------------------------------------------------------ anchors, merges */

static void
test_yamlio__anchors_and_aliases(void **state)
{
	struct node *r;

	(void)state;
	assert_int_equal(load("a: &x {k: v, l: [1, 2]}\nb: *x\nc: &s str\nd: *s\n"), 0);
	r = doc(0);
	/* The alias shares the anchored subtree. */
	assert_ptr_equal(node_map_get(r, "a"), node_map_get(r, "b"));
	assert_string_equal(node_str(node_map_get(r, "d")), "str");
	/* The latest definition of an anchor wins. */
	assert_int_equal(load("a: &x 1\nb: &x 2\nc: *x\n"), 0);
	assert_int_equal(node_map_get(doc(0), "c")->scalar.i, 2);
	/* Alias as a key. */
	assert_int_equal(load("a: &k name\n*k : v\n"), 0);
	assert_string_equal(node_str(node_map_get(doc(0), "name")), "v");
	/* Anchors do not cross documents. */
	assert_int_equal(load("a: &x 1\n---\nb: *x\n"), -1);
	expect_one(3, 4, "GS001", "undefined alias '*x'");
	assert_int_equal(DOCS.count, 1);
	assert_int_equal(load("a: *nope\n"), -1);
	expect_one(1, 4, "GS001", "undefined alias '*nope'");
	/* An alias inside the node it names is a cycle. */
	assert_int_equal(load("a: &x [1, *x]\n"), -1);
	expect_one(1, 11, "GS001", "alias '*x' refers to a node that contains it");
	assert_int_equal(load("a: &x {b: *x}\n"), -1);
	expect_one(1, 11, "GS001", "refers to a node that contains it");
	/* A collection reached through an alias cannot be a key. */
	assert_int_equal(load("a: &m [1]\n*m : v\n"), -1);
	expect_one(2, 1, "GS001", "a mapping key must be a scalar");
}

static void
test_yamlio__merge_keys(void **state)
{
	const char *y = "base: &base {a: 1, b: 1, c: 1}\n"
			"over: &over {b: 2, d: 2}\n"
			"m:\n"
			"  <<: [*over, *base]\n"
			"  c: 3\n"
			"one:\n"
			"  <<: *base\n"
			"  a: 9\n"
			"inline:\n"
			"  <<: {x: 1}\n"
			"  y: 2\n"
			"quoted:\n"
			"  \"<<\": 1\n"
			"tagged:\n"
			"  !!merge <<: *over\n";
	struct node *r, *m;

	(void)state;
	assert_int_equal(load(y), 0);
	assert_int_equal(D.count, 0);
	r = doc(0);
	m = node_map_get(r, "m");
	assert_int_equal(m->map.count, 4);
	assert_null(node_map_get(m, "<<"));
	assert_int_equal(node_map_get(m, "c")->scalar.i, 3); /* explicit wins */
	assert_int_equal(node_map_get(m, "b")->scalar.i, 2); /* earlier merge wins */
	assert_int_equal(node_map_get(m, "a")->scalar.i, 1);
	assert_int_equal(node_map_get(m, "d")->scalar.i, 2);
	m = node_map_get(r, "one");
	assert_int_equal(m->map.count, 3);
	assert_int_equal(node_map_get(m, "a")->scalar.i, 9);
	assert_int_equal(node_map_get(m, "b")->scalar.i, 1);
	m = node_map_get(r, "inline");
	assert_int_equal(m->map.count, 2);
	assert_int_equal(node_map_get(m, "x")->scalar.i, 1);
	/* A quoted "<<" is an ordinary key. */
	assert_int_equal(node_map_get(node_map_get(r, "quoted"), "<<")->scalar.i, 1);
	assert_int_equal(node_map_get(node_map_get(r, "tagged"), "d")->scalar.i, 2);
	/* The anchored maps are untouched. */
	assert_int_equal(node_map_get(r, "base")->map.count, 3);

	/* Many merged keys into a small mapping. */
	{
		struct buf big = BUF_INIT;
		int i;

		assert_int_equal(buf_adds(&big, "big: &big\n"), 0);
		for (i = 0; i < 300; i++)
			assert_int_equal(buf_printf(&big, "  k%d: %d\n", i, i), 0);
		assert_int_equal(buf_adds(&big, "small:\n  k7: own\n  <<: [*big, *big]\n"), 0);
		assert_int_equal(loadn(big.data, big.len, NULL), 0);
		m = node_map_get(doc(0), "small");
		assert_int_equal(m->map.count, 300);
		assert_string_equal(node_str(node_map_get(m, "k7")), "own");
		assert_int_equal(node_map_get(m, "k299")->scalar.i, 299);
		buf_release(&big);
	}

	assert_int_equal(load("a:\n  <<: 1\n"), -1);
	expect_one(2, 7, "GS001", "merge key '<<' must be a mapping or a sequence of mappings");
	assert_int_equal(load("b: &b {x: 1}\na:\n  <<: [*b, 2]\n"), -1);
	expect_one(3, 7, "GS001", "merge key");
}

static void
test_yamlio__duplicate_keys(void **state)
{
	struct node *r;

	(void)state;
	assert_int_equal(load("a: 1\nb: 2\n\na: 3\n"), -1);
	expect_one(4, 1, "GS002", "duplicate key 'a' (first at line 1, column 1)");
	/* The document is still there, with the first value. */
	assert_int_equal(DOCS.count, 1);
	r = doc(0);
	assert_int_equal(r->map.count, 2);
	assert_int_equal(node_map_get(r, "a")->scalar.i, 1);

	assert_int_equal(load("x:\n  k: 1\n  j: 0\n  k: 2\n"), -1);
	expect_one(4, 3, "GS002", "duplicate key 'k' (first at line 2, column 3)");
	/* Keys equal after resolution: 0x1 and 1 are both "1". */
	assert_int_equal(load("{1: a, 0x1: b}\n"), -1);
	expect_one(1, 8, "GS002", "duplicate key '1' (first at line 1, column 2)");
	/* Every duplicate is reported, in one run. */
	assert_int_equal(load("a: 1\na: 2\nb: 1\nb: 2\n"), -1);
	assert_int_equal(D.count, 2);
	/* Keys that come from merges are not duplicates... */
	assert_int_equal(load("b: &b {a: 1}\nm:\n  <<: *b\n  a: 2\n"), 0);
	assert_int_equal(D.count, 0);
	/* ...but explicit keys still are. */
	assert_int_equal(load("b: &b {a: 1}\nm:\n  <<: *b\n  a: 2\n  a: 3\n"), -1);
	expect_one(5, 3, "GS002", "duplicate key 'a' (first at line 4, column 3)");
	/* Big mappings too. */
	{
		struct buf y = BUF_INIT;
		int i;

		for (i = 0; i < 5000; i++)
			assert_int_equal(buf_printf(&y, "k%d: %d\n", i, i), 0);
		assert_int_equal(buf_adds(&y, "k4321: dup\n"), 0);
		assert_int_equal(loadn(y.data, y.len, NULL), -1);
		expect_one(5001, 1, "GS002",
			   "duplicate key 'k4321' (first at line 4322, column 1)");
		buf_release(&y);
	}
}

/* -------------------------------------------------------- hostile input */

static void
test_yamlio__billion_laughs_fails_fast(void **state)
{
	struct buf y = BUF_INIT;
	double t0;
	int i, j;

	(void)state;
	assert_int_equal(
		buf_adds(&y, "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"), 0);
	for (i = 1; i < 10; i++) {
		assert_int_equal(buf_printf(&y, "a%d: &a%d [", i, i), 0);
		for (j = 0; j < 10; j++)
			assert_int_equal(buf_printf(&y, "%s*a%d", j ? ", " : "", i - 1), 0);
		assert_int_equal(buf_adds(&y, "]\n"), 0);
	}
	t0 = now();
	assert_int_equal(loadn(y.data, y.len, NULL), -1);
	assert_true(now() - t0 < 1.0);
	assert_int_equal(D.count, 1);
	assert_string_equal(D.items[0].rule, "GS001");
	assert_non_null(
		strstr(D.items[0].msg, "alias expansion exceeds the limit of 1000000 nodes"));
	/* 10 + 100 + ... : level 6 holds 10^6 strings, it is there it stops. */
	assert_int_equal(D.items[0].at.line, 6);
	assert_int_equal(DOCS.count, 0);
	buf_release(&y);

	/* A smaller limit stops earlier. */
	{
		struct yamlio_limits lim = yamlio_default_limits;

		lim.max_nodes = 50;
		assert_int_equal(load("a: &a [1, 2, 3, 4, 5, 6, 7, 8, 9]\n"
				      "b: [*a, *a, *a, *a, *a, *a]\n"),
				 0);
		assert_int_equal(loadn("a: &a [1, 2, 3, 4, 5, 6, 7, 8, 9]\n"
				       "b: [*a, *a, *a, *a, *a, *a]\n",
				       62, &lim),
				 -1);
		expect_one(2, 17, "GS001", "alias expansion exceeds the limit of 50 nodes");
	}
}

static void
test_yamlio__deep_nesting_fails_fast(void **state)
{
	size_t n = 100000, i;
	char *y = malloc(2 * n + 2);
	double t0;

	(void)state;
	assert_non_null(y);
	for (i = 0; i < n; i++) {
		y[i] = '[';
		y[n + i] = ']';
	}
	y[2 * n] = '\n';
	y[2 * n + 1] = '\0';
	t0 = now();
	assert_int_equal(load(y), -1);
	assert_true(now() - t0 < 1.0);
	expect_one(1, 65, "GS001", "nesting is deeper than 64 levels");
	/* "{{" is a mapping used as a key: refused at once. */
	for (i = 0; i < n; i++)
		y[i] = '{';
	y[n] = '\0';
	assert_int_equal(load(y), -1);
	expect_one(1, 2, "GS001", "a mapping key must be a scalar, not a mapping");
	free(y);
	/* 100,000 levels of "{a: ". */
	y = malloc(4 * n + 1);
	assert_non_null(y);
	for (i = 0; i < n; i++)
		memcpy(y + 4 * i, "{a: ", 4);
	y[4 * n] = '\0';
	t0 = now();
	assert_int_equal(load(y), -1);
	assert_true(now() - t0 < 1.0);
	expect_one(1, 257, "GS001", "nesting is deeper than 64 levels");
	free(y);
}

static void
test_yamlio__depth_limit_is_exact(void **state)
{
	struct buf y = BUF_INIT;
	int i;

	(void)state;
	/* 64 block mappings deep loads; 65 does not. */
	for (i = 0; i < 64; i++)
		assert_int_equal(buf_printf(&y, "%*sk:\n", 2 * i, ""), 0);
	assert_int_equal(buf_printf(&y, "%*sv\n", 2 * 64, ""), 0);
	assert_int_equal(loadn(y.data, y.len, NULL), 0);
	buf_reset(&y);
	for (i = 0; i < 65; i++)
		assert_int_equal(buf_printf(&y, "%*sk:\n", 2 * i, ""), 0);
	assert_int_equal(buf_printf(&y, "%*sv\n", 2 * 65, ""), 0);
	assert_int_equal(loadn(y.data, y.len, NULL), -1);
	expect_one(65, 129, "GS001", "nesting is deeper than 64 levels");
	buf_release(&y);

	/* Aliases count the depth of what they bring in. */
	{
		struct yamlio_limits lim = yamlio_default_limits;
		const char *s = "a: &a [[[1]]]\nb: [[*a]]\nc: [*a]\n";

		lim.max_depth = 5;
		assert_int_equal(loadn(s, strlen(s), &lim), -1);
		expect_one(2, 6, "GS001", "alias '*a' makes the nesting deeper than 5 levels");
		lim.max_depth = 6;
		assert_int_equal(loadn(s, strlen(s), &lim), 0);
	}
}

static void
test_yamlio__nul_byte_at_its_place(void **state)
{
	static const char y[] = "a: 1\nbb: x\0y\n";

	(void)state;
	assert_int_equal(loadn(y, sizeof(y) - 1, NULL), -1);
	expect_one(2, 6, "GS001", "NUL byte");
	assert_int_equal(DOCS.count, 0);
}

struct bad_utf8 {
	const char *bytes;
	unsigned char shown;
	const char *why;
};

static void
test_yamlio__invalid_utf8_at_its_place(void **state)
{
	static const struct bad_utf8 cases[] = {
		{ "\xc0\xaf", 0xc0, "overlong" },         { "\xc1\xbf", 0xc1, "overlong" },
		{ "\xe0\x80\xaf", 0xe0, "overlong" },     { "\xf0\x80\x80\xaf", 0xf0, "overlong" },
		{ "\xed\xa0\x80", 0xed, "surrogate" },    { "\xed\xbf\xbf", 0xed, "surrogate" },
		{ "\xf4\x90\x80\x80", 0xf4, "U+10FFFF" }, { "\xf5\x80\x80\x80", 0xf5, "U+10FFFF" },
		{ "\xff", 0xff, "never valid" },          { "\xfe", 0xfe, "never valid" },
		{ "\x80", 0x80, "continuation" },         { "\xe2\x82 x", 0xe2, "truncated" },
		{ "\xf0\x9f\x98", 0xf0, "truncated" },    { "\xc3", 0xc3, "truncated" },
	};
	char y[64], want[64];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		/* "é" before the bad bytes: columns count characters. */
		snprintf(y, sizeof(y), "a: 1\nb: \xc3\xa9%s\n", cases[i].bytes);
		snprintf(want, sizeof(want), "invalid UTF-8 byte 0x%02x", cases[i].shown);
		assert_int_equal(load(y), -1);
		expect_one(2, 5, "GS001", want);
		assert_non_null(strstr(D.items[0].msg, cases[i].why));
	}
	/* At the very end of the input. */
	assert_int_equal(loadn("a: \xe2\x82", 5, NULL), -1);
	expect_one(1, 4, "GS001", "invalid UTF-8 byte 0xe2 (truncated sequence)");
	/* The largest valid code points pass. */
	assert_int_equal(load("a: \xf4\x8f\xbf\xbf\xed\x9f\xbf\xee\x80\x80\n"), 0);
}

static void
test_yamlio__size_limits(void **state)
{
	struct yamlio_limits lim = yamlio_default_limits;
	size_t n = YAMLIO_MAX_BYTES + 1;
	char *big = malloc(n);

	(void)state;
	assert_int_equal(YAMLIO_MAX_BYTES, 4194304);
	assert_non_null(big);
	memset(big, '#', n);
	assert_int_equal(loadn(big, n, NULL), -1);
	expect_one(0, 0, "GS001", "file is 4194305 bytes; the limit is 4194304");
	/* Exactly at the limit is fine (a comment-only file). */
	assert_int_equal(loadn(big, n - 1, NULL), 0);
	assert_int_equal(DOCS.count, 0);
	free(big);

	lim.max_bytes = 10;
	assert_int_equal(loadn("a: 12345678\n", 12, &lim), -1);
	expect_one(0, 0, "GS001", "file is 12 bytes; the limit is 10");

	lim = yamlio_default_limits;
	lim.max_scalar = 10;
	assert_int_equal(loadn("a: 1234567890\nb: 12345678901\n", 29, &lim), -1);
	expect_one(2, 4, "GS001", "scalar is 11 bytes; the limit is 10");
}

static void
test_yamlio__long_keys(void **state)
{
	struct buf y = BUF_INIT;
	struct yamlio_limits lim = yamlio_default_limits;
	int i;

	(void)state;
	assert_int_equal(buf_adds(&y, "a: 1\n"), 0);
	for (i = 0; i < 10000; i++)
		assert_int_equal(buf_addch(&y, 'k'), 0);
	assert_int_equal(buf_adds(&y, ": v\n"), 0);
	assert_int_equal(loadn(y.data, y.len, NULL), -1);
	expect_one(2, 1, "GS001", "mapping key is 10000 bytes; the limit is 1024");
	/* An explicit key does not hit libyaml's limit, but ours. */
	buf_reset(&y);
	assert_int_equal(buf_adds(&y, "? "), 0);
	for (i = 0; i < 1025; i++)
		assert_int_equal(buf_addch(&y, 'k'), 0);
	assert_int_equal(buf_adds(&y, "\n: v\n"), 0);
	assert_int_equal(loadn(y.data, y.len, NULL), -1);
	expect_one(1, 3, "GS001", "mapping key is 1025 bytes; the limit is 1024");
	/* 1000 bytes is fine. */
	buf_reset(&y);
	for (i = 0; i < 1000; i++)
		assert_int_equal(buf_addch(&y, 'k'), 0);
	assert_int_equal(buf_adds(&y, ": v\n"), 0);
	assert_int_equal(loadn(y.data, y.len, NULL), 0);
	assert_int_equal(doc(0)->map.pairs[0].key->scalar.len, 1000);
	/* A lower limit of our own. */
	lim.max_key = 8;
	assert_int_equal(loadn("abcdefghi: 1\n", 13, &lim), -1);
	expect_one(1, 1, "GS001", "mapping key is 9 bytes; the limit is 8");
	buf_release(&y);
}

static void
test_yamlio__document_count(void **state)
{
	struct yamlio_limits lim = yamlio_default_limits;
	struct buf y = BUF_INIT;
	int i;

	(void)state;
	lim.max_docs = 3;
	assert_int_equal(loadn("a: 1\n---\nb: 2\n---\nc: 3\n---\nd: 4\n", 31, &lim), -1);
	expect_one(6, 1, "GS001", "more than 3 documents in one file");
	assert_int_equal(DOCS.count, 3);
	for (i = 0; i < 10001; i++)
		assert_int_equal(buf_adds(&y, "---\n"), 0);
	assert_int_equal(loadn(y.data, y.len, NULL), -1);
	expect_one(10001, 1, "GS001", "more than 10000 documents");
	buf_release(&y);
}

static void
test_yamlio__empty_documents_skipped(void **state)
{
	(void)state;
	assert_int_equal(load("---\n---\na: 1\n---\n# only a comment\n---\n"), 0);
	assert_int_equal(DOCS.count, 1);
	assert_int_equal(node_map_get(doc(0), "a")->scalar.i, 1);
	assert_int_equal(load(""), 0);
	assert_int_equal(DOCS.count, 0);
	assert_int_equal(load("# nothing\n\n"), 0);
	assert_int_equal(DOCS.count, 0);
	/* An explicit null is a document, not an empty one. */
	assert_int_equal(load("null\n"), 0);
	assert_int_equal(DOCS.count, 1);
	assert_true(node_is_null(doc(0)));
}

static void
test_yamlio__parser_errors(void **state)
{
	(void)state;
	assert_int_equal(load("a: b: c\n"), -1);
	expect_one(1, 5, "GS001", "a second ': ' on one line: quote the value");
	/* Documents before the error are kept. */
	assert_int_equal(load("a: 1\n---\nb: [1, 2\n"), -1);
	assert_int_equal(DOCS.count, 1);
	assert_int_equal(D.count, 1);
	assert_string_equal(D.items[0].rule, "GS001");
	assert_int_equal(D.items[0].at.line, 4);
	assert_int_equal(load("a:\n\tb: 1\n"), -1);
	expect_one(2, 1, "GS001", "a tab character in the indentation");
	/* Reader errors (control characters) have a place too. */
	assert_int_equal(load("a: 1\nb: \"x\x01\"\n"), -1);
	expect_one(2, 6, "GS001", "control characters are not allowed");
	/* Collections as keys. */
	assert_int_equal(load("? [a]\n: b\n"), -1);
	expect_one(1, 3, "GS001", "a mapping key must be a scalar, not a sequence");
	assert_int_equal(load("{a: 1}: x\n"), -1);
	expect_one(1, 1, "GS001", "a mapping key must be a scalar, not a mapping");
}

/* ------------------------------------------------------------- emitting */

static const char *
emit(const struct node *n, unsigned flags)
{
	static struct buf out = BUF_INIT;

	buf_reset(&out);
	assert_int_equal(yamlio_emit(&out, n, flags), 0);
	return arena_strdup(&A, out.data);
}

static struct node *
kv(const char *key, struct node *v)
{
	struct pos p0 = { NULL, 0, 0 };
	struct node *m = node_new_map(&A, p0);

	node_map_add(&A, m, key, v);
	return m;
}

static struct node *
str(const char *s)
{
	struct pos p0 = { NULL, 0, 0 };

	return node_new_str(&A, p0, s);
}

static void
test_yamlio__emit_quotes_ambiguous(void **state)
{
	static const char *const quoted[] = {
		"",
		"y",
		"Y",
		"yes",
		"Yes",
		"YES",
		"n",
		"N",
		"no",
		"No",
		"NO",
		"on",
		"On",
		"ON",
		"off",
		"Off",
		"OFF",
		"true",
		"True",
		"TRUE",
		"false",
		"False",
		"FALSE",
		"null",
		"Null",
		"NULL",
		"~",
		"=",
		"<<",
		"0777",
		"0o17",
		"0x1F",
		"0b101",
		"1e3",
		"1E3",
		"1_000",
		"1:30",
		"190:20:30",
		".5",
		"+1",
		"-1",
		"12",
		"-0",
		"1.5",
		"1.",
		"6.8523015e+5",
		".inf",
		"-.Inf",
		"+.INF",
		".NaN",
		".nan",
		"2024-01-01",
		"2001-12-14t21:59:43.10-05:00",
		" lead",
		"trail ",
		" ",
		"- x",
		"-",
		"? x",
		"?x",
		":",
		":x",
		"#c",
		"&a",
		"*a",
		"!t",
		"|x",
		">x",
		"'q",
		"\"q",
		"%p",
		"@a",
		"`b",
		"{x",
		"[x",
		"]",
		"}",
		",x",
		"a: b",
		"a #b",
		"ends:",
		"---",
		"--- x",
		"...",
		"...x",
		"1.2.3",
		".",
		"-.",
		"+.",
		"._",
		"e1",
		"E0",
		"e+12",
		"1-2",
	};
	struct buf want = BUF_INIT;
	size_t i;
	const char *p;

	(void)state;
	for (i = 0; i < sizeof(quoted) / sizeof(quoted[0]); i++) {
		buf_reset(&want);
		assert_int_equal(buf_adds(&want, "k: \""), 0);
		for (p = quoted[i]; *p; p++) {
			if (*p == '"' || *p == '\\')
				assert_int_equal(buf_addch(&want, '\\'), 0);
			assert_int_equal(buf_addch(&want, *p), 0);
		}
		assert_int_equal(buf_adds(&want, "\"\n"), 0);
		assert_string_equal(emit(kv("k", str(quoted[i])), 0), want.data);
		/* As a key too. */
		buf_reset(&want);
		assert_int_equal(buf_addch(&want, '"'), 0);
		for (p = quoted[i]; *p; p++) {
			if (*p == '"' || *p == '\\')
				assert_int_equal(buf_addch(&want, '\\'), 0);
			assert_int_equal(buf_addch(&want, *p), 0);
		}
		assert_int_equal(buf_adds(&want, "\": v\n"), 0);
		assert_string_equal(emit(kv(quoted[i], str("v")), 0), want.data);
	}
	buf_release(&want);
}

static void
test_yamlio__emit_plain_when_safe(void **state)
{
	static const char *const plain[] = {
		"gpu",
		"g6.12xlarge",
		"720h",
		"5m",
		"nvidia.com/gpu",
		"NoSchedule",
		"https://example.com/a?b=c&d",
		"a-b_c",
		"-flag",
		"--set",
		"a:b",
		"a#b",
		"key=value",
		"v1.2.3",
		"x y",
		"1.2.3a",
		"\xc3\xbcmlaut",
		"\xe6\x97\xa5\xe6\x9c\xac",
		"it's",
		"say \"hi\"",
		"a,b",
		"a[0]",
		"50%",
		"C:\\dir",
		"yes-or-no",
		"nullable",
		"Truex",
		"0xZZ",
		"e",
		"-e",
		"+",
		".git",
		"~user",
		"a~",
		"x=",
		"<<a",
	};
	char want[128];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(plain) / sizeof(plain[0]); i++) {
		snprintf(want, sizeof(want), "k: %s\n", plain[i]);
		assert_string_equal(emit(kv("k", str(plain[i])), 0), want);
	}
}

static void
test_yamlio__emit_block_layout(void **state)
{
	struct pos p0 = { NULL, 0, 0 };
	struct node *m = node_new_map(&A, p0), *s = node_new_seq(&A, p0), *item;
	char longs[600];

	(void)state;
	/* Key order as held; sequences in mappings not indented. */
	node_map_add_str(&A, m, "z", "last?");
	node_map_add(&A, m, "list", s);
	node_seq_push(&A, s, str("a"));
	item = node_new_map(&A, p0);
	node_map_add_int(&A, item, "num", 1);
	node_map_add_bool(&A, item, "b", true);
	node_map_add(&A, item, "nil", node_new_null(&A, p0));
	node_map_add(&A, item, "f", node_new_scalar(&A, p0, NODE_FLOAT, "1.5", 3));
	node_seq_push(&A, s, item);
	node_map_add(&A, m, "empty_map", node_new_map(&A, p0));
	node_map_add(&A, m, "empty_seq", node_new_seq(&A, p0));
	node_map_add(&A, m, "nested", kv("x", kv("why", str("z"))));
	assert_string_equal(emit(m, 0), "z: last?\n"
					"list:\n"
					"- a\n"
					"- num: 1\n"
					"  b: true\n"
					"  nil: null\n"
					"  f: 1.5\n"
					"empty_map: {}\n"
					"empty_seq: []\n"
					"nested:\n"
					"  x:\n"
					"    why: z\n");
	assert_string_equal(emit(kv("a", str("b")), YAMLIO_DOC_START), "---\na: b\n");
	/* No folding of long lines. */
	memset(longs, 'w', sizeof(longs) - 1);
	longs[sizeof(longs) - 1] = '\0';
	{
		size_t i;

		for (i = 5; i < sizeof(longs) - 1; i += 6)
			longs[i] = ' ';
		longs[sizeof(longs) - 2] = 'w';
	}
	{
		const char *out = emit(kv("k", str(longs)), 0);

		/* One line: "k: " + the text + "\n". */
		assert_int_equal(strlen(out), strlen(longs) + 4);
		assert_memory_equal(out + 3, longs, strlen(longs));
		assert_ptr_equal(strchr(out, '\n'), out + strlen(out) - 1);
	}
}

/* Numbers are written so that they read back as the same number. */
static void
test_yamlio__emit_numbers(void **state)
{
	struct pos p0 = { NULL, 0, 0 };
	struct node *m = node_new_map(&A, p0), *f;

	(void)state;
	node_map_add(&A, m, "i", node_new_int(&A, p0, INT64_MIN));
	/* An int whose text is not canonical is written from its value. */
	f = node_new_int(&A, p0, 31);
	f->scalar.text = "0x1F";
	f->scalar.len = 4;
	node_map_add(&A, m, "hex", f);
	node_map_add(&A, m, "kept", node_new_scalar(&A, p0, NODE_FLOAT, "1e3", 3));
	node_map_add(&A, m, "dot", node_new_scalar(&A, p0, NODE_FLOAT, ".5", 2));
	node_map_add(&A, m, "big",
		     node_new_scalar(&A, p0, NODE_FLOAT, "123456789012345678901234567890", 30));
	/* Float text that YAML would read as a string is replaced. */
	f = node_new_scalar(&A, p0, NODE_FLOAT, "inf", 3);
	f->scalar.f = INFINITY;
	node_map_add(&A, m, "inf", f);
	f = node_new_scalar(&A, p0, NODE_FLOAT, "-inf", 4);
	f->scalar.f = -INFINITY;
	node_map_add(&A, m, "ninf", f);
	f = node_new_scalar(&A, p0, NODE_FLOAT, "nan", 3);
	f->scalar.f = NAN;
	node_map_add(&A, m, "nan", f);
	f = node_new_scalar(&A, p0, NODE_FLOAT, "", 0);
	f->scalar.f = 0.1;
	node_map_add(&A, m, "empty", f);
	assert_string_equal(emit(m, 0), "i: -9223372036854775808\n"
					"hex: 31\n"
					"kept: 1e3\n"
					"dot: .5\n"
					"big: 123456789012345678901234567890\n"
					"inf: .inf\n"
					"ninf: -.inf\n"
					"nan: .nan\n"
					"empty: 0.1\n");
	assert_int_equal(load(emit(m, 0)), 0);
	assert_true(node_equal(doc(0), m));
}

static void
test_yamlio__emit_multiline(void **state)
{
	(void)state;
	assert_string_equal(emit(kv("k", str("line1\nline2\n")), 0), "k: |\n  line1\n  line2\n");
	assert_string_equal(emit(kv("k", str("a\nb")), 0), "k: |-\n  a\n  b\n");
	assert_string_equal(emit(kv("k", str("a\n  b\n\nc\n")), 0), "k: |\n  a\n    b\n\n  c\n");
	assert_string_equal(emit(kv("k", str("#!/bin/sh\nexit 0\n")), 0),
			    "k: |\n  #!/bin/sh\n  exit 0\n");
	/* A literal is impossible: double quotes. */
	assert_string_equal(emit(kv("k", str("a \nb")), 0), "k: \"a \\nb\"\n");
	assert_string_equal(emit(kv("k", str(" lead\nx")), 0), "k: \" lead\\nx\"\n");
	assert_string_equal(emit(kv("k", str("x\n\n")), 0), "k: \"x\\n\\n\"\n");
	assert_string_equal(emit(kv("k", str("\nx")), 0), "k: \"\\nx\"\n");
	assert_string_equal(emit(kv("k", str("a\tb")), 0), "k: \"a\\tb\"\n");
	assert_string_equal(emit(kv("k", str("a\r\nb")), 0), "k: \"a\\r\\nb\"\n");
	/* Multi-line keys are double-quoted (libyaml writes them as "? key"). */
	assert_string_equal(emit(kv("a\nb", str("v")), 0), "? \"a\\nb\"\n: v\n");
}

/* load(emit(tree)) is the tree again, for every string. */
static void
test_yamlio__round_trip_property(void **state)
{
	static const char *const tricky[] = {
		"",
		" ",
		"  ",
		"\n",
		"\n\n",
		"a\n",
		"a\n\n\n",
		"\t",
		"x\ty",
		"\r",
		"a\rb",
		"a\r\nb\r\n",
		"#",
		"# c",
		"a #b",
		"a: b",
		"a:",
		":",
		"-",
		"- ",
		"--",
		"---",
		"...",
		"? ",
		"?",
		"!",
		"&",
		"*",
		"|",
		">",
		"%",
		"@",
		"`",
		"'",
		"\"",
		"\\",
		"a\\nb",
		"'a'",
		"\"a\"",
		"{",
		"}",
		"[",
		"]",
		",",
		"{a: 1}",
		"[1, 2]",
		"y",
		"n",
		"yes",
		"no",
		"on",
		"off",
		"true",
		"false",
		"null",
		"~",
		"Null",
		"=",
		"<<",
		"0777",
		"0o17",
		"0x1F",
		"1e3",
		"1_000",
		"1:30",
		".5",
		"+1",
		"-1",
		"007",
		".inf",
		"-.inf",
		".nan",
		"1.0",
		"2024-01-01",
		"a\n b\n  c",
		"  indented\nfirst",
		"trailing \nspace",
		"x\n \ny",
		"\xc3\xa9t\xc3\xa9",
		"\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e",
		"\xf0\x9f\x98\x80",
		"\xc2\x85",
		"a\xe2\x80\xa8"
		"b",
		"\xe2\x80\xa9",
		"\xef\xbb\xbf"
		"bom",
		"\xc2\xa0nbsp",
		"\x01\x02\x7f",
		"\x1b[0m",
		"a\x0b"
		"b",
		"\xef\xbf\xbe",
		"key: value\nother: x\n",
		"- item\n- item\n",
		"|\n  x",
		"line with trailing spaces   \nnext",
		"a  b",
		"a\n\n\nb",
	};
	struct pos p0 = { NULL, 0, 0 };
	struct buf out = BUF_INIT, again = BUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(tricky) / sizeof(tricky[0]); i++) {
		const char *s = tricky[i];
		struct node *m = node_new_map(&A, p0), *l = node_new_seq(&A, p0);

		node_map_add(&A, m, "k", str(s));
		node_map_add(&A, m, s, str("as key"));
		node_map_add(&A, m, "l", l);
		node_seq_push(&A, l, str(s));
		node_seq_push(&A, l, kv(s, str(s)));
		buf_reset(&out);
		assert_int_equal(yamlio_emit(&out, m, YAMLIO_DOC_START), 0);
		if (loadn(out.data, out.len, NULL) != 0 || DOCS.count != 1 ||
		    !node_equal(DOCS.docs[0], m)) {
			dump_diags();
			fail_msg("round trip of tricky[%zu] failed; emitted:\n%s", i, out.data);
		}
		/* Never single-quoted: plain, literal or double-quoted only. */
		if (!strchr(s, '\''))
			assert_null(strchr(out.data, '\''));
		/* Emitting what was loaded gives the same bytes. */
		buf_reset(&again);
		assert_int_equal(yamlio_emit(&again, DOCS.docs[0], YAMLIO_DOC_START), 0);
		assert_string_equal(again.data, out.data);
	}
	buf_release(&out);
	buf_release(&again);
}

/*
 * The same property over 20,000 strings made of fragments that matter to
 * YAML (deterministic generator, so a failure is reproducible).
 */
static void
test_yamlio__round_trip_generated_strings(void **state)
{
	static const char *const frag[] = {
		" ",
		"  ",
		"\n",
		":",
		": ",
		"#",
		" #",
		"-",
		"- ",
		"?",
		"'",
		"\"",
		"a",
		"Z",
		"1",
		"0",
		".",
		"e",
		"E",
		"x",
		"o",
		"+",
		"_",
		"\xc3\xa9",
		"\t",
		"!",
		"&",
		"*",
		"{",
		"}",
		"[",
		"]",
		",",
		"~",
		"y",
		"n",
		"null",
		"true",
		"No",
		"|",
		">",
		"%",
		"@",
		"`",
		"\\",
		"\r",
		"\xc2\x85",
		"\xe2\x80\xa8",
		"---",
		"...",
		"<<",
		"=",
		".inf",
		".NaN",
		"0x",
		"0o",
		"1e3",
		"\x01",
		"\xef\xbb\xbf",
		"/",
		"=",
	};
	const size_t nfrag = sizeof(frag) / sizeof(frag[0]);
	struct pos p0 = { NULL, 0, 0 };
	struct buf out = BUF_INIT, s = BUF_INIT;
	unsigned long long seed = 0x9e3779b97f4a7c15ULL;
	int i, k, n;

	(void)state;
	for (i = 0; i < 20000; i++) {
		struct node *m = node_new_map(&A, p0);

		buf_reset(&s);
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		n = 1 + (int)((seed >> 33) % 6);
		for (k = 0; k < n; k++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			assert_int_equal(buf_adds(&s, frag[(seed >> 33) % nfrag]), 0);
		}
		node_map_add(&A, m, "k", node_new_strn(&A, p0, s.data, s.len));
		node_map_add(&A, m, s.data, str("v"));
		buf_reset(&out);
		assert_int_equal(yamlio_emit(&out, m, 0), 0);
		if (loadn(out.data, out.len, NULL) != 0 || DOCS.count != 1 ||
		    !node_equal(DOCS.docs[0], m)) {
			dump_diags();
			fail_msg("round trip %d failed; emitted:\n%s", i, out.data);
		}
		if (!strchr(s.data, '\''))
			assert_null(strchr(out.data, '\''));
		if (i % 512 == 0) {
			/* Keep the arena small. */
			arena_release(&A);
		}
	}
	buf_release(&out);
	buf_release(&s);
}

/*
 * Other readers see the strings we write: PyYAML (YAML 1.1, what many
 * tools still use) and eemeli/yaml in 1.1 and 1.2 modes, when installed.
 * One sequence of {s: s} maps is written as YAML by the emitter and as
 * JSON by json_write; each reader must find the YAML equal to the JSON.
 */
static void
test_yamlio__other_readers_agree(void **state)
{
	static const char *const frag[] = {
		" ",   "\n",  ":",    ": ",       "#",   " #",   "-",        "- ",   "?",
		"'",   "\"",  "a",    "1",        "0",   ".",    "e",        "E",    "x",
		"o",   "+",   "_",    "\xc3\xa9", "\t",  "!",    "&",        "*",    "{",
		"]",   ",",   "~",    "y",        "n",   "null", "true",     "No",   "|",
		">",   "%",   "@",    "`",        "\\",  "\r",   "\xc2\x85", "---",  "...",
		"<<",  "=",   ".inf", ".NaN",     "0x",  "0o",   "1e3",      "\x01", "2001-01-01",
		"1:2", "1_0", "0b1",  "Yes",      "off", "12",
	};
	const size_t nfrag = sizeof(frag) / sizeof(frag[0]);
	const char *top = getenv("TEST_TOP");
	const char *tmp = getenv("TMPDIR");
	char dir[256], cmd[2048];
	struct pos p0 = { NULL, 0, 0 };
	struct node *seq = node_new_seq(&A, p0);
	struct buf s = BUF_INIT, y = BUF_INIT, j = BUF_INIT;
	unsigned long long seed = 12345;
	int i, k, n, ran = 0;
	FILE *f;

	(void)state;
	for (i = 0; i < 20000; i++) {
		struct node *m = node_new_map(&A, p0);

		buf_reset(&s);
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		n = 1 + (int)((seed >> 33) % 4);
		for (k = 0; k < n; k++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			assert_int_equal(buf_adds(&s, frag[(seed >> 33) % nfrag]), 0);
		}
		node_map_add(&A, m, s.data, node_new_strn(&A, p0, s.data, s.len));
		node_seq_push(&A, seq, m);
	}
	assert_int_equal(yamlio_emit(&y, seq, 0), 0);
	assert_int_equal(json_write(&j, seq, 0), 0);
	snprintf(dir, sizeof(dir), "%s/test_yamlio.XXXXXX", tmp ? tmp : "/tmp");
	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "%s/x.yaml", dir);
	assert_non_null(f = fopen(cmd, "wb"));
	assert_int_equal(fwrite(y.data, 1, y.len, f), y.len);
	assert_int_equal(fclose(f), 0);
	snprintf(cmd, sizeof(cmd), "%s/x.json", dir);
	assert_non_null(f = fopen(cmd, "wb"));
	assert_int_equal(fwrite(j.data, 1, j.len, f), j.len);
	assert_int_equal(fclose(f), 0);
	buf_release(&s);
	buf_release(&y);
	buf_release(&j);

	if (system("python3 -c 'import yaml' >/dev/null 2>&1") == 0) {
		snprintf(cmd, sizeof(cmd),
			 "cd '%s' && python3 -c \"import json, yaml, sys\n"
			 "y = yaml.safe_load(open('x.yaml', encoding='utf-8'))\n"
			 "j = json.load(open('x.json', encoding='utf-8'))\n"
			 "bad = [b for a, b in zip(y, j) if a != b]\n"
			 "print('pyyaml differs on', bad[:5]) if bad else None\n"
			 "sys.exit(1 if bad or len(y) != len(j) else 0)\"",
			 dir);
		assert_int_equal(system(cmd), 0);
		ran++;
	}
	if (top) {
		snprintf(cmd, sizeof(cmd),
			 "test -d '%s/.tools/node_modules/yaml' && "
			 "command -v node >/dev/null",
			 top);
		if (system(cmd) == 0) {
			snprintf(cmd, sizeof(cmd),
				 "cd '%s' && NODE_PATH='%s/.tools/node_modules' node -e '"
				 "const YAML = require(\"yaml\"), fs = require(\"fs\");"
				 "const j = JSON.parse(fs.readFileSync(\"x.json\", \"utf8\"));"
				 "let bad = 0;"
				 "for (const v of [\"1.1\", \"1.2\"]) {"
				 "const y = YAML.parse(fs.readFileSync(\"x.yaml\", \"utf8\"), "
				 "{version: v});"
				 "for (let i = 0; i < j.length; i++)"
				 "if (JSON.stringify(y[i]) !== JSON.stringify(j[i])) {"
				 "if (bad++ < 5) console.log(v, JSON.stringify(j[i])); } }"
				 "process.exit(bad ? 1 : 0);'",
				 dir, top);
			assert_int_equal(system(cmd), 0);
			ran++;
		}
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	if (!ran)
		skip();
}

static void
test_yamlio__round_trip_typed(void **state)
{
	const char *y = "apiVersion: v1\n"
			"kind: ConfigMap\n"
			"data:\n"
			"  int: 42\n"
			"  neg: -7\n"
			"  big: 9223372036854775807\n"
			"  huge: 123456789012345678901234567890\n"
			"  float: 1.5\n"
			"  exp: 1e3\n"
			"  inf: -.inf\n"
			"  nan: .nan\n"
			"  bool: false\n"
			"  nil: ~\n"
			"  hex: 0x1F\n"
			"  str: \"0x1F\"\n"
			"  yes: yes\n"
			"  script: |\n"
			"    #!/bin/sh\n"
			"    echo hi\n"
			"  list: [a, 1, null, {x: y}]\n";
	struct node *first;
	const char *out;

	(void)state;
	assert_int_equal(load(y), 0);
	first = doc(0);
	out = emit(first, 0);
	assert_int_equal(load(out), 0);
	assert_true(node_equal(first, doc(0)));
	/* Canonical ints: 0x1F became 31; the string "0x1F" stays quoted. */
	assert_non_null(strstr(out, "  hex: 31\n"));
	assert_non_null(strstr(out, "  str: \"0x1F\"\n"));
	assert_non_null(strstr(out, "  \"yes\": \"yes\"\n"));
	assert_non_null(strstr(out, "  nil: null\n"));
	assert_non_null(strstr(out, "  script: |\n    #!/bin/sh\n    echo hi\n"));
}

static void
test_yamlio__emit_failure_leaves_buffer(void **state)
{
	struct buf out;
	struct pos p0 = { NULL, 0, 0 };
	struct node *m = node_new_map(&A, p0);
	char big[200];

	(void)state;
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	node_map_add_str(&A, m, "k", big);
	buf_init(&out, 100);
	assert_int_equal(buf_adds(&out, "keep"), 0);
	assert_int_equal(yamlio_emit(&out, m, 0), BUF_ETOOBIG);
	assert_string_equal(out.data, "keep");
	/* Invalid UTF-8 in a tree is refused, not written. */
	node_map_set(&A, m, "k", str("\xff"));
	assert_true(yamlio_emit(&out, m, 0) < 0);
	assert_string_equal(out.data, "keep");
	buf_release(&out);
}

static void
test_yamlio__library_version(void **state)
{
	const char *v = yamlio_library_version();

	(void)state;
	assert_non_null(v);
	assert_true(v[0] >= '0' && v[0] <= '9');
	assert_non_null(strchr(v, '.'));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_yamlio__positions),
		cmocka_unit_test(test_yamlio__columns_count_characters),
		cmocka_unit_test(test_yamlio__scalar_resolution_table),
		cmocka_unit_test(test_yamlio__scalar_values),
		cmocka_unit_test(test_yamlio__tags_honoured),
		cmocka_unit_test(test_yamlio__tags_refused),
		cmocka_unit_test(test_yamlio__anchors_and_aliases),
		cmocka_unit_test(test_yamlio__merge_keys),
		cmocka_unit_test(test_yamlio__duplicate_keys),
		cmocka_unit_test(test_yamlio__billion_laughs_fails_fast),
		cmocka_unit_test(test_yamlio__deep_nesting_fails_fast),
		cmocka_unit_test(test_yamlio__depth_limit_is_exact),
		cmocka_unit_test(test_yamlio__nul_byte_at_its_place),
		cmocka_unit_test(test_yamlio__invalid_utf8_at_its_place),
		cmocka_unit_test(test_yamlio__size_limits),
		cmocka_unit_test(test_yamlio__long_keys),
		cmocka_unit_test(test_yamlio__document_count),
		cmocka_unit_test(test_yamlio__empty_documents_skipped),
		cmocka_unit_test(test_yamlio__parser_errors),
		cmocka_unit_test(test_yamlio__emit_quotes_ambiguous),
		cmocka_unit_test(test_yamlio__emit_plain_when_safe),
		cmocka_unit_test(test_yamlio__emit_block_layout),
		cmocka_unit_test(test_yamlio__emit_numbers),
		cmocka_unit_test(test_yamlio__emit_multiline),
		cmocka_unit_test(test_yamlio__round_trip_property),
		cmocka_unit_test(test_yamlio__round_trip_generated_strings),
		cmocka_unit_test(test_yamlio__other_readers_agree),
		cmocka_unit_test(test_yamlio__round_trip_typed),
		cmocka_unit_test(test_yamlio__emit_failure_leaves_buffer),
		cmocka_unit_test(test_yamlio__library_version),
	};

	return cmocka_run_group_tests(tests, NULL, teardown);
}
