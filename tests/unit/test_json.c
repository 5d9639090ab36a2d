/*
 * test_json.c - JSON text <-> node trees: exact ints, bounds, errors,
 * compact and pretty writing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "json/json.h"
#include "node/node.h"

static struct arena A;
static struct diags D;
static const struct pos P0 = { NULL, 0, 0 };

static int
teardown(void **state)
{
	(void)state;
	arena_release(&A);
	return 0;
}

static struct node *
parse(const char *s)
{
	diags_init(&D, &A);
	return json_parse(&A, &D, "GS099", "body.json", s, strlen(s));
}

static const char *
write(const struct node *n, unsigned flags)
{
	struct buf b = BUF_INIT;
	char *s;

	assert_int_equal(json_write(&b, n, flags), 0);
	s = arena_strdup(&A, b.data);
	buf_release(&b);
	return s;
}

static void
expect_error(const char *text, const char *msg)
{
	struct node *n = parse(text);

	assert_null(n);
	assert_int_equal(D.count, 1);
	assert_string_equal(D.items[0].rule, "GS099");
	assert_string_equal(D.items[0].at.file, "body.json");
	assert_int_equal(D.items[0].level, DIAG_ERROR);
	if (!strstr(D.items[0].msg, msg))
		fail_msg("want '%s' in '%s'", msg, D.items[0].msg);
}

static void
test_json__parse_types(void **state)
{
	struct node *n = parse("{\"s\": \"x\\u00e9\\n\", \"i\": -12, \"f\": 1.5, "
			       "\"t\": true, \"n\": null, \"a\": [1, \"2\", false], "
			       "\"o\": {}, \"e\": []}");
	struct node *a;

	(void)state;
	assert_non_null(n);
	assert_int_equal(D.count, 0);
	assert_int_equal(n->kind, NODE_MAP);
	assert_int_equal(n->map.count, 8);
	/* Key order as in the text. */
	assert_string_equal(n->map.pairs[0].key->scalar.text, "s");
	assert_string_equal(n->map.pairs[7].key->scalar.text, "e");
	assert_string_equal(node_str(node_map_get(n, "s")), "x\xc3\xa9\n");
	assert_int_equal(node_map_get(n, "i")->type, NODE_INT);
	assert_int_equal(node_map_get(n, "i")->scalar.i, -12);
	assert_int_equal(node_map_get(n, "f")->type, NODE_FLOAT);
	assert_true(node_map_get(n, "f")->scalar.f == 1.5);
	assert_string_equal(node_map_get(n, "f")->scalar.text, "1.5");
	assert_true(node_is_bool(node_map_get(n, "t")));
	assert_true(node_is_null(node_map_get(n, "n")));
	assert_non_null(node_map_get(n, "n"));
	a = node_map_get(n, "a");
	assert_int_equal(a->seq.count, 3);
	assert_int_equal(a->seq.items[0]->scalar.i, 1);
	assert_true(node_is_str(a->seq.items[1]));
	assert_int_equal(node_map_get(n, "o")->kind, NODE_MAP);
	assert_int_equal(node_map_get(n, "e")->kind, NODE_SEQ);
	/* Line 0 positions carrying the file. */
	assert_int_equal(a->seq.items[2]->at.line, 0);
	assert_string_equal(a->seq.items[2]->at.file, "body.json");
	/* Scalars at the top are fine too. */
	assert_int_equal(parse(" 42 ")->scalar.i, 42);
	assert_string_equal(node_str(parse("\"s\"")), "s");
}

static void
test_json__ints_are_exact(void **state)
{
	struct node *n = parse("[9007199254740993, 9223372036854775807, "
			       "-9223372036854775808, 9223372036854775808, "
			       "12345678901234567890123, 1e3, 1.0, -0, 2.5e-3, 1e400, "
			       "9007199254740992.0, 18014398509481984.0]");

	(void)state;
	assert_non_null(n);
	/* Beyond 2^53 but within int64: exact, from the text. */
	assert_int_equal(n->seq.items[0]->type, NODE_INT);
	assert_true(n->seq.items[0]->scalar.i == 9007199254740993LL);
	assert_string_equal(n->seq.items[0]->scalar.text, "9007199254740993");
	assert_true(n->seq.items[1]->scalar.i == INT64_MAX);
	assert_true(n->seq.items[2]->scalar.i == INT64_MIN);
	/* Beyond int64: a float that keeps its text. */
	assert_int_equal(n->seq.items[3]->type, NODE_FLOAT);
	assert_string_equal(n->seq.items[3]->scalar.text, "9223372036854775808");
	assert_int_equal(n->seq.items[4]->type, NODE_FLOAT);
	assert_string_equal(n->seq.items[4]->scalar.text, "12345678901234567890123");
	/* Integral doubles within 2^53 are ints. */
	assert_int_equal(n->seq.items[5]->type, NODE_INT);
	assert_int_equal(n->seq.items[5]->scalar.i, 1000);
	assert_int_equal(n->seq.items[6]->type, NODE_INT);
	assert_int_equal(n->seq.items[6]->scalar.i, 1);
	assert_int_equal(n->seq.items[7]->type, NODE_INT);
	assert_string_equal(n->seq.items[7]->scalar.text, "0");
	assert_int_equal(n->seq.items[8]->type, NODE_FLOAT);
	assert_int_equal(n->seq.items[9]->type, NODE_FLOAT);
	assert_true(isinf(n->seq.items[9]->scalar.f));
	assert_int_equal(n->seq.items[10]->type, NODE_INT);
	assert_int_equal(n->seq.items[11]->type, NODE_FLOAT);
	/* ...and written back exactly. */
	assert_string_equal(write(n, 0),
			    "[9007199254740993,9223372036854775807,-9223372036854775808,"
			    "9223372036854775808,12345678901234567890123,1000,1,0,2.5e-3,null,"
			    "9007199254740992,18014398509481984.0]");
}

static void
test_json__numbers_inside_strings_do_not_confuse(void **state)
{
	struct node *n = parse("{\"1\": \"2 3\\\" 4\", \"k\": [5, {\"x-9\": 9007199254740995}]}");

	(void)state;
	assert_non_null(n);
	assert_string_equal(node_str(node_map_get(n, "1")), "2 3\" 4");
	assert_int_equal(node_map_get(n, "k")->seq.items[0]->scalar.i, 5);
	assert_true(node_map_get(node_map_get(n, "k")->seq.items[1], "x-9")->scalar.i ==
		    9007199254740995LL);
}

static void
test_json__errors(void **state)
{
	(void)state;
	expect_error("{} x", "invalid JSON at byte 3");
	expect_error("[1,2]]", "invalid JSON at byte 5");
	expect_error("{\"a\": 1,}", "invalid JSON");
	expect_error("", "JSON text is empty");
	expect_error(" \n", "JSON text is empty");
	expect_error("[1, 2", "invalid JSON: unexpected end of text");
	expect_error("{\"a\" 1}", "invalid JSON at byte 5");
	expect_error("{\"a\": tru}", "invalid JSON");
	/* The place is given as line:col too. */
	parse("{\n  \"a\": 1,\n  \"b\": ?\n}");
	assert_int_equal(D.count, 1);
	assert_int_equal(D.items[0].at.line, 3);
	assert_int_equal(D.items[0].at.col, 8);
	/* Whitespace after the value is fine. */
	assert_non_null(parse("{}\n\t "));
	assert_int_equal(D.count, 0);
	{
		static const char nul[] = "{}\0{}";

		diags_init(&D, &A);
		assert_null(json_parse(&A, &D, "GS099", "body.json", nul, sizeof(nul) - 1));
		assert_non_null(strstr(D.items[0].msg, "NUL byte"));
		assert_int_equal(D.items[0].at.col, 3);
	}
	expect_error("[\"\xff\"]", "invalid UTF-8 byte 0xff");
	expect_error("[\"\xed\xa0\x80\"]", "invalid UTF-8 byte 0xed");
}

static void
test_json__depth_is_bounded(void **state)
{
	size_t n = 100000, i;
	char *s = malloc(2 * n + 1);

	(void)state;
	assert_non_null(s);
	for (i = 0; i < n; i++) {
		s[i] = '[';
		s[n + i] = ']';
	}
	s[2 * n] = '\0';
	expect_error(s, "JSON nesting is deeper than 512 levels");
	assert_int_equal(D.items[0].at.col, JSON_MAX_DEPTH + 1);
	/* JSON_MAX_DEPTH levels are fine. */
	memmove(s + JSON_MAX_DEPTH, s + 2 * n - JSON_MAX_DEPTH, JSON_MAX_DEPTH);
	s[2 * JSON_MAX_DEPTH] = '\0';
	assert_non_null(parse(s));
	/* Brackets inside strings do not count. */
	for (i = 0; i < 600; i++)
		s[i] = '[';
	s[0] = '"';
	s[600] = '"';
	s[601] = '\0';
	assert_non_null(parse(s));
	free(s);
}

static struct node *
parse_strict(const char *s)
{
	diags_init(&D, &A);
	return json_parse_flags(&A, &D, "GS099", "body.json", s, strlen(s), JSON_STRICT);
}

static void
test_json__strict_refuses_duplicate_keys_and_nul(void **state)
{
	(void)state;
	/* by default the last of two keys is kept, as cJSON does */
	assert_non_null(parse("{\"a\": 1, \"a\": 2}"));
	assert_int_equal(D.count, 0);
	assert_non_null(parse("[\"x\\u0000y\"]"));
	/* strict: a key given twice anywhere, a \u0000 in any string */
	assert_null(parse_strict("{\"a\": 1, \"b\": {\"c\": 1, \"d\": 2, \"c\": 3}}"));
	assert_int_equal(D.count, 1);
	assert_string_equal(D.items[0].rule, "GS099");
	assert_string_equal(D.items[0].msg, "the key 'c' is given twice in one object: keep one");
	assert_null(parse_strict("[1, {\"z\": [{\"k\": 1, \"k\": 1}]}]"));
	assert_non_null(strstr(D.items[0].msg, "'k' is given twice"));
	assert_null(parse_strict("{\"a\": \"x\\u0000\"}"));
	assert_int_equal(D.count, 1);
	assert_non_null(strstr(D.items[0].msg, "\\u0000 (NUL)"));
	assert_int_equal(D.items[0].at.col, 9);
	assert_null(parse_strict("{\"a\\u0000b\": 1}"));
	/* what only looks like one is fine: an escaped backslash, other escapes */
	assert_non_null(
		parse_strict("{\"a\": \"x\\\\u0000\", \"b\": \"\\u0001\", \"c\": [\"a\", \"a\"]}"));
	assert_int_equal(D.count, 0);
	assert_non_null(parse_strict("{\"a\": {\"a\": 1}, \"b\": {\"a\": 2}}"));
	assert_int_equal(D.count, 0);
}

static void
test_json__strict_many_keys_is_fast(void **state)
{
	size_t n = 131000, o = 0;
	char *s = malloc(n * 16 + 8);

	(void)state;
	assert_non_null(s);
	s[o++] = '{';
	for (size_t i = 0; i < n; i++)
		o += (size_t)snprintf(s + o, n * 16 + 8 - o, "%s\"k%zu\":1", i ? "," : "", i);
	s[o++] = '}';
	s[o] = '\0';
	/* sorted keys: O(n log n); a pairwise check would take minutes */
	assert_non_null(parse_strict(s));
	assert_int_equal(D.count, 0);
	/* the same key at both ends */
	snprintf(s + o - 1, 16, ",\"k0\":2}");
	assert_null(parse_strict(s));
	assert_non_null(strstr(D.items[0].msg, "'k0' is given twice"));
	free(s);
}

static void
test_json__size_is_bounded(void **state)
{
	size_t n = ((size_t)64 << 20) + 1;
	char *s = malloc(n);

	(void)state;
	assert_non_null(s);
	memset(s, ' ', n);
	s[0] = '1';
	diags_init(&D, &A);
	assert_null(json_parse(&A, &D, "GS099", "big.json", s, n));
	assert_int_equal(D.count, 1);
	assert_non_null(
		strstr(D.items[0].msg, "JSON text is 67108865 bytes; the limit is 67108864"));
	free(s);
}

static void
test_json__write_compact_and_pretty(void **state)
{
	struct node *m = node_new_map(&A, P0), *l = node_new_seq(&A, P0);

	(void)state;
	node_map_add_str(&A, m, "z", "q\"b\\s/\n\t\x01\x1f\xc3\xa9");
	node_map_add(&A, m, "l", l);
	node_seq_push(&A, l, node_new_bool(&A, P0, true));
	node_seq_push(&A, l, node_new_null(&A, P0));
	node_seq_push(&A, l, node_new_int(&A, P0, -3));
	node_seq_push(&A, l, node_new_map(&A, P0));
	node_seq_push(&A, l, node_new_seq(&A, P0));
	node_map_add(&A, m, "f", node_new_scalar(&A, P0, NODE_FLOAT, ".5", 2));
	node_map_add(&A, m, "g", node_new_scalar(&A, P0, NODE_FLOAT, "-.inf", 5));
	node_map_add(&A, m, "h", node_new_scalar(&A, P0, NODE_FLOAT, "1e-7", 4));
	node_map_add_int(&A, m, "a", 1);
	assert_string_equal(write(m, 0),
			    "{\"z\":\"q\\\"b\\\\s/\\n\\t\\u0001\\u001f\xc3\xa9\","
			    "\"l\":[true,null,-3,{},[]],\"f\":0.5,\"g\":null,\"h\":1e-7,\"a\":1}");
	assert_string_equal(write(m, JSON_PRETTY),
			    "{\n"
			    "  \"z\": \"q\\\"b\\\\s/\\n\\t\\u0001\\u001f\xc3\xa9\",\n"
			    "  \"l\": [\n"
			    "    true,\n"
			    "    null,\n"
			    "    -3,\n"
			    "    {},\n"
			    "    []\n"
			    "  ],\n"
			    "  \"f\": 0.5,\n"
			    "  \"g\": null,\n"
			    "  \"h\": 1e-7,\n"
			    "  \"a\": 1\n"
			    "}");
	assert_string_equal(write(node_new_str(&A, P0, ""), 0), "\"\"");
	assert_string_equal(write(node_new_strn(&A, P0, "a\0b", 3), 0), "\"a\\u0000b\"");
	/* Bytes that are not UTF-8 (a Latin-1 file name) stay valid JSON. */
	assert_string_equal(
		write(node_new_str(&A, P0, "caf\xe9.yaml \xf0\x9f\x98\x80 \xed\xa0\x80 \xe2\x82"),
		      0),
		"\"caf\\ufffd.yaml \xf0\x9f\x98\x80 \\ufffd\\ufffd\\ufffd \\ufffd\\ufffd\"");
}

static void
test_json__round_trip(void **state)
{
	const char *text =
		"{\"apiVersion\":\"v1\",\"items\":[{\"metadata\":{\"name\":\"n\\u0001\","
		"\"labels\":{\"gpusite.io/site\":\"a\"}},\"n\":-9007199254740993,"
		"\"f\":0.1,\"e\":[],\"o\":{},\"b\":false,\"z\":null}],\"u\":\"\xe6\x97\xa5\"}";
	struct node *n = parse(text), *again;
	const char *out;

	(void)state;
	assert_non_null(n);
	out = write(n, 0);
	/* Compact output of our own parse is the same text. */
	assert_string_equal(out, text);
	again = parse(write(n, JSON_PRETTY));
	assert_non_null(again);
	assert_true(node_equal(n, again));
	assert_string_equal(write(again, 0), text);
}

static void
test_json__write_failure_leaves_buffer(void **state)
{
	struct buf b;
	struct node *l = node_new_seq(&A, P0);
	int i;

	(void)state;
	for (i = 0; i < 100; i++)
		node_seq_push(&A, l, node_new_int(&A, P0, i));
	buf_init(&b, 50);
	assert_int_equal(buf_adds(&b, "pre"), 0);
	assert_int_equal(json_write(&b, l, 0), BUF_ETOOBIG);
	assert_string_equal(b.data, "pre");
	buf_release(&b);
}

static void
test_json__library_version(void **state)
{
	const char *v = json_library_version();

	(void)state;
	assert_non_null(v);
	assert_true(v[0] >= '1' && v[0] <= '9');
	assert_non_null(strchr(v, '.'));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json__parse_types),
		cmocka_unit_test(test_json__ints_are_exact),
		cmocka_unit_test(test_json__numbers_inside_strings_do_not_confuse),
		cmocka_unit_test(test_json__errors),
		cmocka_unit_test(test_json__depth_is_bounded),
		cmocka_unit_test(test_json__size_is_bounded),
		cmocka_unit_test(test_json__strict_refuses_duplicate_keys_and_nul),
		cmocka_unit_test(test_json__strict_many_keys_is_fast),
		cmocka_unit_test(test_json__write_compact_and_pretty),
		cmocka_unit_test(test_json__round_trip),
		cmocka_unit_test(test_json__write_failure_leaves_buffer),
		cmocka_unit_test(test_json__library_version),
	};

	return cmocka_run_group_tests(tests, NULL, teardown);
}
