/*
 * test_emit.c - the stream as bytes: "---" before every YAML document,
 * one JSON object per line, YAML 1.1 traps quoted, multi-line strings
 * that read back as they were, the same bytes on every run.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/arena.h"
#include "base/buf.h"
#include "emit/emit.h"
#include "json/json.h"
#include "yamlio/yamlio.h"

static const struct pos P0 = { NULL, 0, 0 };

struct fx {
	struct arena a;
	struct diags d;
	struct buf b;
};

static int
setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	arena_init(&f->a);
	diags_init(&f->d, &f->a);
	buf_init(&f->b, 0);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fx *f = *state;

	buf_release(&f->b);
	arena_release(&f->a);
	free(f);
	return 0;
}

/* A result of n ConfigMaps named cm-0 ... with one label and one data key. */
static struct render_result
result_of(struct fx *f, size_t n, const char *label_value, const char *data)
{
	struct render_result r;

	memset(&r, 0, sizeof(r));
	r.objects = arena_alloc(&f->a, n * sizeof(*r.objects));
	for (size_t i = 0; i < n; i++) {
		struct node *o = node_new_map(&f->a, P0), *m, *l;

		node_map_add_str(&f->a, o, "apiVersion", "v1");
		node_map_add_str(&f->a, o, "kind", "ConfigMap");
		m = node_map_add(&f->a, o, "metadata", node_new_map(&f->a, P0));
		node_map_add_str(&f->a, m, "name", arena_printf(&f->a, "cm-%zu", i));
		l = node_map_add(&f->a, m, "labels", node_new_map(&f->a, P0));
		node_map_add_str(&f->a, l, "v", label_value);
		node_map_add_str(&f->a, node_map_add(&f->a, o, "data", node_new_map(&f->a, P0)),
				 "k", data);
		r.objects[i].obj = o;
		r.objects[i].kind = "ConfigMap";
		r.objects[i].name = "cm";
		r.objects[i].namespace = "";
	}
	r.count = r.alloc = n;
	return r;
}

static size_t
count_lines_starting(const char *s, const char *prefix)
{
	size_t n = 0, pl = strlen(prefix);

	for (const char *p = s; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, prefix, pl) && (p[pl] == '\n' || p[pl] == ' ' || !p[pl]))
			n++;
	return n;
}

static void
test_emit__yaml_marks_every_document(void **state)
{
	struct fx *f = *state;
	struct render_result r = result_of(f, 3, "x", "y");

	assert_int_equal(emit_stream(&f->b, &r, EMIT_YAML), 0);
	assert_int_equal(strncmp(f->b.data, "---\n", 4), 0); /* the first one too */
	assert_int_equal(count_lines_starting(f->b.data, "---"), 3);
	assert_non_null(strstr(f->b.data, "name: cm-2\n"));
	assert_int_equal(f->b.data[f->b.len - 1], '\n');
}

static void
test_emit__json_one_object_per_line(void **state)
{
	struct fx *f = *state;
	struct render_result r = result_of(f, 2, "x", "line1\nline2\n");
	const char *nl;
	struct node *back;

	assert_int_equal(emit_stream(&f->b, &r, EMIT_JSON), 0);
	nl = strchr(f->b.data, '\n');
	assert_non_null(nl);
	assert_int_equal(f->b.data[0], '{');
	assert_int_equal(nl[-1], '}');
	assert_int_equal(nl[1], '{');
	assert_int_equal(f->b.data[f->b.len - 1], '\n');
	/* exactly two lines: the newline inside the data is escaped */
	assert_true(strchr(nl + 1, '\n') == f->b.data + f->b.len - 1);
	/* the first line parses back to the first object, keys in order */
	back = json_parse(&f->a, &f->d, "GS001", "line1", f->b.data, (size_t)(nl - f->b.data));
	assert_non_null(back);
	assert_true(node_equal(back, r.objects[0].obj));
	assert_string_equal(node_str(back->map.pairs[0].key), "apiVersion");
	assert_string_equal(node_str(back->map.pairs[3].key), "data");
}

static void
test_emit__yaml11_traps_are_quoted(void **state)
{
	struct fx *f = *state;
	static const char *const traps[] = { "on",   "yes",  "no", "off",  "y",     "0777", "1e3",
					     "null", "true", "",   "0x1f", "1_000", "12:30" };

	for (size_t i = 0; i < sizeof(traps) / sizeof(traps[0]); i++) {
		struct render_result r = result_of(f, 1, traps[i], "ok");
		struct yamlio_docs docs = { NULL, 0 };
		const struct node *v;

		buf_reset(&f->b);
		assert_int_equal(emit_stream(&f->b, &r, EMIT_YAML), 0);
		/* the value is never written plain */
		assert_null(strstr(f->b.data, arena_printf(&f->a, "v: %s\n", traps[i])));
		/* and reads back as the same string */
		assert_int_equal(yamlio_load(&docs, &f->a, &f->d, "t.yaml", f->b.data, f->b.len,
					     &yamlio_default_limits),
				 0);
		v = node_path(docs.docs[0], "metadata.labels.v");
		assert_true(node_is_str(v));
		assert_string_equal(node_str(v), traps[i]);
	}
}

static void
test_emit__multiline_reads_back(void **state)
{
	struct fx *f = *state;
	const char *text = "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\n"
			   "spec:\n  cluster:\n    name: c\n";
	struct render_result r = result_of(f, 1, "x", text);
	struct yamlio_docs docs = { NULL, 0 };

	assert_int_equal(emit_stream(&f->b, &r, EMIT_YAML), 0);
	assert_non_null(strstr(f->b.data, "k: |\n")); /* literal block */
	assert_int_equal(yamlio_load(&docs, &f->a, &f->d, "t.yaml", f->b.data, f->b.len,
				     &yamlio_default_limits),
			 0);
	assert_string_equal(node_str(node_path(docs.docs[0], "data.k")), text);
}

static void
test_emit__same_bytes_every_time(void **state)
{
	struct fx *f = *state;
	struct render_result r = result_of(f, 5, "on", "a\nb\n");
	struct buf again = BUF_INIT;

	buf_init(&again, 0);
	assert_int_equal(emit_stream(&f->b, &r, EMIT_YAML), 0);
	assert_int_equal(emit_stream(&again, &r, EMIT_YAML), 0);
	assert_int_equal(f->b.len, again.len);
	assert_memory_equal(f->b.data, again.data, again.len);
	buf_release(&again);
}

static void
test_emit__document_without_marker(void **state)
{
	struct fx *f = *state;
	struct render_result r = result_of(f, 1, "x", "y");

	assert_int_equal(emit_document(&f->b, r.objects[0].obj, EMIT_YAML), 0);
	assert_int_equal(strncmp(f->b.data, "apiVersion: v1\n", 15), 0);
	assert_null(strstr(f->b.data, "---"));
}

static void
test_emit__cap_is_an_error(void **state)
{
	struct fx *f = *state;
	struct render_result r = result_of(f, 50, "x", "y");
	struct buf small = BUF_INIT;

	buf_init(&small, 256);
	assert_true(emit_stream(&small, &r, EMIT_YAML) < 0);
	assert_true(small.len <= 256);
	buf_release(&small);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_emit__yaml_marks_every_document, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_emit__json_one_object_per_line, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_emit__yaml11_traps_are_quoted, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_emit__multiline_reads_back, setup, teardown),
		cmocka_unit_test_setup_teardown(test_emit__same_bytes_every_time, setup, teardown),
		cmocka_unit_test_setup_teardown(test_emit__document_without_marker, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_emit__cap_is_an_error, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
