/*
 * test_node.c - the document tree: construction, lookups, paths,
 * JSON equality, total order, clone.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "base/arena.h"
#include "node/node.h"

static struct arena A;
static const struct pos P0 = { NULL, 0, 0 };

static int
teardown(void **state)
{
	(void)state;
	arena_release(&A);
	return 0;
}

static struct node *
flt(double f, const char *text)
{
	struct node *n = node_new_scalar(&A, P0, NODE_FLOAT, text, strlen(text));

	assert_true(n->scalar.f == f || (isnan(f) && isnan(n->scalar.f)));
	return n;
}

static void
test_node__constructors(void **state)
{
	struct node *n;

	(void)state;
	n = node_new_int(&A, P0, -42);
	assert_int_equal(n->kind, NODE_SCALAR);
	assert_int_equal(n->type, NODE_INT);
	assert_string_equal(n->scalar.text, "-42");
	assert_int_equal(n->scalar.len, 3);
	assert_true(n->scalar.f == -42.0);
	n = node_new_int(&A, P0, INT64_MIN);
	assert_string_equal(node_text(n), "-9223372036854775808");
	n = node_new_bool(&A, P0, true);
	assert_string_equal(node_text(n), "true");
	assert_int_equal(n->scalar.i, 1);
	assert_true(node_is_bool(n));
	n = node_new_null(&A, P0);
	assert_true(node_is_null(n));
	assert_string_equal(node_text(n), "null");
	assert_true(node_is_null(NULL));
	n = node_new_strn(&A, P0, "abcdef", 3);
	assert_string_equal(node_str(n), "abc");
	assert_int_equal(n->scalar.len, 3);
	n = node_new_scalar(&A, P0, NODE_INT, "123", 3);
	assert_int_equal(n->scalar.i, 123);
	assert_true(node_is_int(n) && node_is_number(n));
	assert_null(node_str(n));
	assert_string_equal(node_text(n), "123");
	n = flt(1.5, "1.5");
	assert_true(node_is_number(n) && !node_is_int(n));
	n = node_new_scalar(&A, P0, NODE_BOOL, "false", 5);
	assert_int_equal(n->scalar.i, 0);
	assert_null(node_text(node_new_map(&A, P0)));
}

static void
test_node__map_and_seq(void **state)
{
	struct pos at = { "f.yaml", 3, 4 };
	struct node *m = node_new_map(&A, at), *s = node_new_seq(&A, P0), *v;
	int i;

	(void)state;
	node_map_add_str(&A, m, "name", "gpu");
	node_map_add_int(&A, m, "count", 4);
	node_map_add_bool(&A, m, "on", false);
	node_map_add(&A, m, "list", s);
	for (i = 0; i < 100; i++)
		node_seq_push(&A, s, node_new_int(&A, P0, i));
	assert_int_equal(m->map.count, 4);
	assert_string_equal(node_str(node_map_get(m, "name")), "gpu");
	assert_int_equal(node_map_get(m, "count")->scalar.i, 4);
	assert_null(node_map_get(m, "nam"));
	assert_null(node_map_get(m, "namex"));
	assert_null(node_map_get(s, "name"));
	assert_null(node_map_get(NULL, "name"));
	assert_ptr_equal(node_map_pair(m, "list")->value, s);
	assert_string_equal(node_map_pair(m, "list")->key->scalar.text, "list");
	assert_int_equal(s->seq.count, 100);
	assert_int_equal(s->seq.items[99]->scalar.i, 99);
	/* Made-up values take the map's position. */
	assert_int_equal(node_map_get(m, "name")->at.line, 3);

	/* set replaces in place, or appends. */
	v = node_map_set(&A, m, "count", node_new_int(&A, P0, 8));
	assert_int_equal(v->scalar.i, 8);
	assert_int_equal(m->map.count, 4);
	assert_string_equal(m->map.pairs[1].key->scalar.text, "count");
	assert_int_equal(node_map_get(m, "count")->scalar.i, 8);
	node_map_set(&A, m, "new", node_new_null(&A, P0));
	assert_int_equal(m->map.count, 5);
	assert_string_equal(m->map.pairs[4].key->scalar.text, "new");
}

static void
test_node__path(void **state)
{
	struct node *root = node_new_map(&A, P0);
	struct node *spec = node_map_add(&A, root, "spec", node_new_map(&A, P0));
	struct node *fb = node_map_add(&A, spec, "fallback", node_new_map(&A, P0));

	(void)state;
	node_map_add_int(&A, fb, "gpuLimit", 16);
	assert_int_equal(node_path(root, "spec.fallback.gpuLimit")->scalar.i, 16);
	assert_ptr_equal(node_path(root, "spec.fallback"), fb);
	assert_ptr_equal(node_path(root, ""), root);
	assert_null(node_path(root, "spec.fallback.gpuLimit.x"));
	assert_null(node_path(root, "spec.nope"));
	assert_null(node_path(root, "spec.fall"));
	assert_null(node_path(NULL, "spec"));
}

static void
test_node__path_text(void **state)
{
	char *p;

	(void)state;
	p = node_path_join(&A, "", "spec");
	assert_string_equal(p, "spec");
	p = node_path_join(&A, p, "nodeGroups");
	p = node_path_index(&A, p, 0);
	p = node_path_join(&A, p, "name");
	assert_string_equal(p, "spec.nodeGroups[0].name");
	assert_string_equal(node_path_join(&A, NULL, "a_b-c9"), "a_b-c9");
	assert_string_equal(node_path_join(&A, "metadata.labels", "gpusite.io/site"),
			    "metadata.labels[\"gpusite.io/site\"]");
	assert_string_equal(node_path_join(&A, "m", "9lives"), "m[\"9lives\"]");
	assert_string_equal(node_path_join(&A, "m", "-x"), "m[\"-x\"]");
	assert_string_equal(node_path_join(&A, "m", ""), "m[\"\"]");
	assert_string_equal(node_path_join(&A, "m", "a\"b\\c"), "m[\"a\\\"b\\\\c\"]");
	assert_string_equal(node_path_join(&A, "", "a.b"), "[\"a.b\"]");
	assert_string_equal(node_path_index(&A, "", 12), "[12]");
	assert_string_equal(node_path_index(&A, "x[1]", 2), "x[1][2]");
}

static struct node *
map2(const char *k1, struct node *v1, const char *k2, struct node *v2)
{
	struct node *m = node_new_map(&A, P0);

	node_map_add(&A, m, k1, v1);
	node_map_add(&A, m, k2, v2);
	return m;
}

static void
test_node__equal_is_json_equality(void **state)
{
	struct node *a, *b;

	(void)state;
	/* 1 == 1.0, but not 1 == "1" nor true == 1. */
	assert_true(node_equal(node_new_int(&A, P0, 1), flt(1.0, "1.0")));
	assert_true(node_equal(flt(1e3, "1e3"), node_new_int(&A, P0, 1000)));
	assert_false(node_equal(node_new_int(&A, P0, 1), flt(1.5, "1.5")));
	assert_false(node_equal(node_new_int(&A, P0, 1), node_new_str(&A, P0, "1")));
	assert_false(node_equal(node_new_bool(&A, P0, true), node_new_int(&A, P0, 1)));
	assert_false(node_equal(node_new_null(&A, P0), node_new_str(&A, P0, "null")));
	assert_true(node_equal(node_new_null(&A, P0), node_new_null(&A, P0)));
	/* Exact: 2^53 + 1 is not the double 2^53. */
	assert_false(node_equal(node_new_int(&A, P0, 9007199254740993LL),
				flt(9007199254740992.0, "9007199254740992.0")));
	assert_true(node_equal(flt(NAN, ".nan"), flt(NAN, ".NaN")));
	assert_true(node_equal(flt(INFINITY, ".inf"), flt(INFINITY, "1e999")));
	/* Strings with NUL bytes compare by length too. */
	assert_false(
		node_equal(node_new_strn(&A, P0, "a\0b", 3), node_new_strn(&A, P0, "a\0c", 3)));
	assert_true(node_equal(node_new_strn(&A, P0, "a\0b", 3), node_new_strn(&A, P0, "a\0b", 3)));

	/* Maps: key order does not matter; values and key sets do. */
	a = map2("x", node_new_int(&A, P0, 1), "y", node_new_str(&A, P0, "s"));
	b = map2("y", node_new_str(&A, P0, "s"), "x", flt(1.0, "1.0"));
	assert_true(node_equal(a, b));
	b = map2("y", node_new_str(&A, P0, "t"), "x", node_new_int(&A, P0, 1));
	assert_false(node_equal(a, b));
	b = map2("x", node_new_int(&A, P0, 1), "z", node_new_str(&A, P0, "s"));
	assert_false(node_equal(a, b));
	/* Sequences: order matters. */
	a = node_new_seq(&A, P0);
	b = node_new_seq(&A, P0);
	node_seq_push(&A, a, node_new_int(&A, P0, 1));
	node_seq_push(&A, a, node_new_int(&A, P0, 2));
	node_seq_push(&A, b, node_new_int(&A, P0, 2));
	node_seq_push(&A, b, node_new_int(&A, P0, 1));
	assert_false(node_equal(a, b));
	assert_false(node_equal(a, node_new_map(&A, P0)));
	assert_true(node_equal(node_new_seq(&A, P0), node_new_seq(&A, P0)));
}

static void
test_node__compare_is_a_total_order(void **state)
{
	struct node *v[16];
	size_t n = 0, i, j, k;

	(void)state;
	v[n++] = node_new_null(&A, P0);
	v[n++] = node_new_bool(&A, P0, false);
	v[n++] = node_new_bool(&A, P0, true);
	v[n++] = node_new_int(&A, P0, -5);
	v[n++] = flt(-0.5, "-0.5");
	v[n++] = node_new_int(&A, P0, 3);
	v[n++] = flt(3.25, "3.25");
	v[n++] = node_new_int(&A, P0, INT64_MAX);
	v[n++] = flt(1e300, "1e300");
	v[n++] = flt(NAN, ".nan");
	v[n++] = node_new_str(&A, P0, "");
	v[n++] = node_new_str(&A, P0, "a");
	v[n++] = node_new_str(&A, P0, "ab");
	v[n++] = node_new_seq(&A, P0);
	v[n++] = map2("a", node_new_int(&A, P0, 1), "b", node_new_int(&A, P0, 2));
	v[n++] = map2("b", node_new_int(&A, P0, 1), "a", node_new_int(&A, P0, 2));
	/* The list above is in ascending order. */
	for (i = 0; i < n; i++) {
		for (j = 0; j < n; j++) {
			int c = node_compare(v[i], v[j]);

			assert_int_equal(c < 0, i < j);
			assert_int_equal(c > 0, i > j);
			assert_int_equal(c == 0, node_equal(v[i], v[j]));
			for (k = 0; k < n; k++)
				if (node_compare(v[i], v[j]) < 0 && node_compare(v[j], v[k]) < 0)
					assert_true(node_compare(v[i], v[k]) < 0);
		}
	}
	/* Equal as JSON means compare 0, whatever the key order. */
	assert_int_equal(node_compare(map2("a", node_new_int(&A, P0, 1), "b", v[0]),
				      map2("b", v[0], "a", flt(1.0, "1.0"))),
			 0);
	assert_int_equal(node_compare(node_new_int(&A, P0, 2), flt(2.0, "2.0")), 0);
}

static void
test_node__clone_is_deep(void **state)
{
	struct arena other = ARENA_INIT;
	struct pos at = { "x.yaml", 7, 9 };
	struct node *m = node_new_map(&A, at), *s = node_new_seq(&A, at), *c;

	(void)state;
	node_map_add(&A, m, "s", s);
	node_seq_push(&A, s, node_new_str(&A, at, "v"));
	node_map_add_int(&A, m, "i", 5);
	c = node_clone(&other, m);
	assert_true(node_equal(c, m));
	assert_ptr_not_equal(c, m);
	assert_ptr_not_equal(node_map_get(c, "s"), s);
	assert_int_equal(c->at.line, 7);
	assert_int_equal(node_map_get(c, "s")->seq.items[0]->at.col, 9);
	/* Changing the clone leaves the original alone. */
	node_map_set(&other, c, "i", node_new_int(&other, P0, 6));
	assert_int_equal(node_map_get(m, "i")->scalar.i, 5);
	assert_null(node_clone(&other, NULL));
	arena_release(&other);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_node__constructors),
		cmocka_unit_test(test_node__map_and_seq),
		cmocka_unit_test(test_node__path),
		cmocka_unit_test(test_node__path_text),
		cmocka_unit_test(test_node__equal_is_json_equality),
		cmocka_unit_test(test_node__compare_is_a_total_order),
		cmocka_unit_test(test_node__clone_is_deep),
	};

	return cmocka_run_group_tests(tests, NULL, teardown);
}
