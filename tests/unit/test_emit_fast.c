/*
 * test_emit_fast.c - yamlio_emit() writes the trees it can without
 * libyaml's emitter; the bytes (and the result) must be those of
 * yamlio_emit_libyaml() for every tree.  Compared here on every short
 * string over an alphabet of YAML's troublemakers, placed as a value, a
 * key and a sequence item at several depths, on random trees of every
 * node type, and on literal blocks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/arena.h"
#include "base/buf.h"
#include "node/node.h"
#include "yamlio/yamlio.h"

static const struct pos P0 = { NULL, 0, 0 };

/* Both writers on doc, with and without "---": the same result and bytes. */
static void
same(const struct node *doc, const char *what)
{
	for (unsigned flags = 0; flags <= YAMLIO_DOC_START; flags += YAMLIO_DOC_START) {
		struct buf fast, slow;
		int rf, rs;

		buf_init(&fast, 0);
		buf_init(&slow, 0);
		/* something before: each writer starts as on a fresh line */
		assert_int_equal(buf_adds(&fast, "x"), 0);
		assert_int_equal(buf_adds(&slow, "x"), 0);
		rf = yamlio_emit(&fast, doc, flags);
		rs = yamlio_emit_libyaml(&slow, doc, flags);
		if (rf != rs || fast.len != slow.len || memcmp(fast.data, slow.data, fast.len)) {
			print_error("%s (flags %u): fast %d [%.*s] libyaml %d [%.*s]\n", what,
				    flags, rf, (int)fast.len, fast.data ? fast.data : "", rs,
				    (int)slow.len, slow.data ? slow.data : "");
			fail();
		}
		buf_release(&fast);
		buf_release(&slow);
	}
}

/* The string as a value, a key, an item, in a mapping in a sequence and
 * in a sequence in a sequence, beside plain neighbours. */
static void
same_everywhere(struct arena *a, const char *s, size_t n)
{
	struct node *m = node_new_map(a, P0), *q = node_new_seq(a, P0);
	struct node *inner = node_new_map(a, P0), *qq = node_new_seq(a, P0);
	struct node *deep = node_new_map(a, P0);

	node_map_add_str(a, m, "a", "b");
	node_map_add(a, m, "v", node_new_strn(a, P0, s, n));
	node_map_add_node(a, m, node_new_strn(a, P0, s, n), node_new_str(a, P0, "k"));
	node_seq_push(a, q, node_new_strn(a, P0, s, n));
	node_map_add(a, inner, "x", node_new_strn(a, P0, s, n));
	node_map_add_str(a, inner, "y", "z");
	node_seq_push(a, q, inner);
	node_seq_push(a, qq, node_new_strn(a, P0, s, n));
	node_seq_push(a, qq, node_new_str(a, P0, "after"));
	node_seq_push(a, q, qq);
	node_map_add(a, m, "list", q);
	node_map_add(a, deep, "in", node_map_add(a, node_new_map(a, P0), "deeper", m));
	same(m, "string in a mapping");
	same(q, "string in a sequence");
	same(deep, "string deep down");
}

static void
t_every_short_string(void **state)
{
	/* one of each kind of byte YAML treats specially, and ordinary ones */
	static const char alpha[] = "a1 :#-\n'\"\\.,[{!|>%@`?&*~=\t\x01\x7f";
	const size_t na = sizeof(alpha) - 1;
	char s[4];

	(void)state;
	for (size_t len = 0; len <= 3; len++) {
		size_t total = 1;

		for (size_t i = 0; i < len; i++)
			total *= na;
		for (size_t code = 0; code < total; code++) {
			struct arena a = ARENA_INIT;
			size_t c = code;

			for (size_t i = 0; i < len; i++, c /= na)
				s[i] = alpha[c % na];
			same_everywhere(&a, s, len);
			arena_release(&a);
		}
	}
}

static uint64_t rng = 0x9e3779b97f4a7c15u;

static unsigned
rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

static const char *const words[] = {
	"",
	"a",
	"yes",
	"No",
	"null",
	"~",
	"1.35",
	"0777",
	"1e3",
	"-",
	"- x",
	"key: v",
	"a #b",
	"#c",
	"x:",
	":x",
	"---",
	"...",
	" lead",
	"trail ",
	"line\n",
	"two\nlines",
	"two\nlines\n",
	"end\n\n",
	"\nlead",
	"sp \nx",
	"tab\tx",
	"q\"uote",
	"back\\slash",
	"caf\xc3\xa9",
	"\xe2\x80\xa8",
	"arn:aws:iam::111122223333:role/HybridNodesRole",
	"kubernetes.io/os",
	"--node-labels=a=b,c=d",
	"{x}",
	"[y]",
	"*z",
	"&w",
	"!t",
	"%p",
	"@q",
	"a,b",
	"x?",
	"?x",
	"1:30",
	"2001-12-14",
	".inf",
	"-.NaN",
	"0x1F",
	"=",
	"<<",
	"on",
	"OFF",
	"y",
	"N",
	"true",
	"False",
	"\x01ctl",
	"del\x7f",
};

static struct node *
random_tree(struct arena *a, unsigned depth)
{
	unsigned k = depth >= 4 ? 0 : rnd(5);

	if (k == 1 || k == 2) {
		struct node *m = node_new_map(a, P0);
		unsigned n = rnd(4);

		for (unsigned i = 0; i < n; i++) {
			struct node *key =
				rnd(6) ? node_new_str(a, P0,
						      words[rnd(sizeof(words) / sizeof(words[0]))])
				       : random_tree(a, 4);

			node_map_add_node(a, m, key, random_tree(a, depth + 1));
		}
		return m;
	}
	if (k == 3) {
		struct node *q = node_new_seq(a, P0);
		unsigned n = rnd(4);

		for (unsigned i = 0; i < n; i++)
			node_seq_push(a, q, random_tree(a, depth + 1));
		return q;
	}
	switch (rnd(6)) {
	case 0: return node_new_int(a, P0, (int64_t)rnd(100000) - 50000);
	case 1: return node_new_bool(a, P0, rnd(2));
	case 2: return node_new_null(a, P0);
	default: return node_new_str(a, P0, words[rnd(sizeof(words) / sizeof(words[0]))]);
	}
}

static void
t_random_trees(void **state)
{
	(void)state;
	for (unsigned i = 0; i < 20000; i++) {
		struct arena a = ARENA_INIT;
		struct node *root = rnd(4) ? node_new_map(&a, P0) : node_new_seq(&a, P0);
		unsigned n = 1 + rnd(4);

		for (unsigned j = 0; j < n; j++) {
			if (root->kind == NODE_MAP)
				node_map_add(&a, root, words[rnd(sizeof(words) / sizeof(words[0]))],
					     random_tree(&a, 1));
			else
				node_seq_push(&a, root, random_tree(&a, 1));
		}
		same(root, "random tree");
		arena_release(&a);
	}
}

/* Documents the direct writer leaves to libyaml: the same either way. */
static void
t_left_to_libyaml(void **state)
{
	struct arena a = ARENA_INIT;
	struct node *m = node_new_map(&a, P0);
	char longkey[200];

	(void)state;
	memset(longkey, 'k', sizeof(longkey) - 1);
	longkey[sizeof(longkey) - 1] = '\0';
	node_map_add_str(&a, m, longkey, "v");
	same(m, "a key over 128 bytes");
	same(node_new_map(&a, P0), "an empty mapping");
	same(node_new_seq(&a, P0), "an empty sequence");
	same(node_new_str(&a, P0, "scalar"), "a scalar document");
	m = node_new_map(&a, P0);
	node_map_add_str(&a, m, "k", "caf\xc3\xa9 \xf0\x9f\x98\x80");
	same(m, "non-ASCII text");
	m = node_new_map(&a, P0);
	node_map_add(&a, m, "bad", node_new_strn(&a, P0, "\x80\xff", 2));
	same(m, "text that is not UTF-8");
	/* nesting at emit_node's limit and past it (map, indentless seq) */
	for (unsigned depth = 9998; depth <= 10002; depth++) {
		struct node *root = node_new_map(&a, P0), *cur = root;

		for (unsigned i = 1; i < depth; i++) {
			struct node *next = i % 2 ? node_new_seq(&a, P0) : node_new_map(&a, P0);

			if (cur->kind == NODE_MAP)
				node_map_add(&a, cur, "k", next);
			else
				node_seq_push(&a, cur, next);
			cur = next;
		}
		if (cur->kind == NODE_MAP)
			node_map_add_str(&a, cur, "leaf", "x");
		else
			node_seq_push(&a, cur, node_new_str(&a, P0, "x"));
		same(root, "deep nesting");
	}
	arena_release(&a);
}

/* A NodeConfig inside a ConfigMap, as render nests them. */
static void
t_literal_blocks(void **state)
{
	struct arena a = ARENA_INIT;
	struct node *o = node_new_map(&a, P0), *d, *q;

	(void)state;
	d = node_map_add(&a, o, "data", node_new_map(&a, P0));
	node_map_add_str(&a, d, "rack-a.yaml",
			 "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n"
			 "  cluster:\n    name: c\n\n  flags:\n  - --x=y\n");
	node_map_add_str(&a, d, "no-final-break", "a\nb");
	q = node_map_add(&a, o, "items", node_new_seq(&a, P0));
	node_seq_push(&a, q, node_new_str(&a, P0, "x\ny\n"));
	d = node_new_map(&a, P0);
	node_map_add_str(&a, d, "k", "p\n\nq\n");
	node_map_add_str(&a, d, "j", "plain");
	node_seq_push(&a, q, d);
	same(o, "literal blocks");
	arena_release(&a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_every_short_string),
		cmocka_unit_test(t_random_trees),
		cmocka_unit_test(t_left_to_libyaml),
		cmocka_unit_test(t_literal_blocks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
