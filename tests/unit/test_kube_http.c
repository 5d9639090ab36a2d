/*
 * test_kube_http.c - what the client reads of an HTTP answer
 * (kube/kube_http.c): header lines, LIST pages of every wrong shape, the
 * continue token limit, single objects, capped Status messages.
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
#include "base/diag.h"
#include "kube/kube_int.h"
#include "node/node.h"

#define WHERE "https://h/api/v1/nodes"

static void
hdr(struct kube_answer_meta *m, const char *line)
{
	kube_answer_header(m, line, strlen(line));
}

static void
test_kube_http__header_lines(void **state)
{
	struct kube_answer_meta m;

	(void)state;
	kube_answer_init(&m);
	assert_int_equal(m.status, 0);
	assert_true(m.retry_after < 0);
	hdr(&m, "HTTP/1.1 100 Continue\r\n");
	assert_int_equal(m.status, 100);
	hdr(&m, "Retry-After: 7\r\n");
	assert_true(m.retry_after == 7);
	/* a new status line: the interim answer's Retry-After is gone */
	hdr(&m, "HTTP/2 429 \r\n");
	assert_int_equal(m.status, 429);
	assert_true(m.retry_after < 0);
	hdr(&m, "retry-after:  2.5\r\n");
	assert_true(m.retry_after == 2.5);
	/* a date, a negative value, a year: not honoured */
	kube_answer_init(&m);
	hdr(&m, "Retry-After: Wed, 21 Oct 2015 07:28:00 GMT\r\n");
	hdr(&m, "Retry-After: -1\r\n");
	hdr(&m, "Retry-After: 31536000\r\n");
	assert_true(m.retry_after < 0);
	/* not status lines */
	hdr(&m, "HTTP/1.1 20 OK\r\n");
	hdr(&m, "HTTP/1.1 2000 OK\r\n");
	hdr(&m, "HTTPS/1.1 200 OK\r\n");
	assert_int_equal(m.status, 0);
}

/* body -> the message kube_page_parse() refuses it with, or NULL */
static const char *
page(const char *body, size_t *count, const char **cont)
{
	static struct arena a;
	struct diags d;
	struct kube_page pg;

	arena_release(&a);
	arena_init(&a);
	diags_init(&d, &a);
	if (kube_page_parse(&pg, &a, &d, WHERE, body, strlen(body)) < 0) {
		assert_int_equal(d.count, 1);
		return d.items[0].msg;
	}
	assert_int_equal(d.count, 0);
	*count = pg.items->seq.count;
	*cont = pg.cont;
	return NULL;
}

static void
test_kube_http__list_shapes(void **state)
{
	static const char *const bad[][2] = {
		{ "{\"kind\":\"NodeList\",\"items\":{\"a\":1}}", "'items' is not a list" },
		{ "{\"kind\":\"NodeList\",\"metadata\":{}}", "the list has no 'items'" },
		{ "{\"kind\":\"NodeList\",\"items\":\"[]\"}", "'items' is not a list" },
		{ "{\"kind\":\"NodeList\",\"items\":[{},1]}", "item 1 is not an object" },
		{ "{\"kind\":\"NodeList\",\"metadata\":\"x\",\"items\":[]}",
		  "'metadata' is not an object" },
		{ "{\"kind\":\"NodeList\",\"metadata\":{\"continue\":7},\"items\":[]}",
		  "'metadata.continue' is not a string" },
		{ "[{}]", "the list is not a JSON object" },
		{ "{\"kind\":\"Node\",\"items\":[]}", "'kind' is not the kind of a list" },
		{ "{\"kind\":1,\"items\":[]}", "'kind' is not the kind of a list" },
	};
	size_t n = 0;
	const char *cont = NULL, *msg;
	char want[200];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		msg = page(bad[i][0], &n, &cont);
		snprintf(want, sizeof(want),
			 "malformed answer to GET " WHERE ": %s; "
			 "is that really an API server?",
			 bad[i][1]);
		if (!msg || strcmp(msg, want))
			fail_msg("case %zu: '%s', want '%s'", i, msg ? msg : "(accepted)", want);
	}
	/* good pages: null items (Go's nil slice), no kind, a last page */
	assert_null(page("{\"kind\":\"NodeList\",\"items\":null}", &n, &cont));
	assert_int_equal(n, 0);
	assert_null(
		page("{\"items\":[{\"a\":1},{}],\"metadata\":{\"continue\":\"tok\"}}", &n, &cont));
	assert_int_equal(n, 2);
	assert_string_equal(cont, "tok");
	assert_null(page("{\"kind\":\"PodList\",\"metadata\":{\"continue\":null},\"items\":[]}", &n,
			 &cont));
	assert_null(cont);
}

static void
test_kube_http__continue_token_limit(void **state)
{
	static const char head[] = "{\"items\":[],\"metadata\":{\"continue\":\"";
	size_t len = KUBE_MAX_CONTINUE + 1, n, h = sizeof(head) - 1;
	char *body = malloc(len + 100);
	const char *cont, *msg;
	char want[200];

	(void)state;
	memcpy(body, head, h);
	memset(body + h, 'A', len);
	memcpy(body + h + len, "\"}}", sizeof("\"}}"));
	msg = page(body, &n, &cont);
	snprintf(want, sizeof(want),
		 "continue token too long in the answer to GET " WHERE
		 ": %zu bytes, the limit is %u; is that really an API server?",
		 len, KUBE_MAX_CONTINUE);
	assert_non_null(msg);
	assert_string_equal(msg, want);
	/* at the limit: followed */
	memcpy(body + h + len - 1, "\"}}", sizeof("\"}}"));
	assert_null(page(body, &n, &cont));
	assert_int_equal(strlen(cont), KUBE_MAX_CONTINUE);
	free(body);
}

static void
test_kube_http__objects_and_status(void **state)
{
	struct arena a = ARENA_INIT;
	struct diags d;
	struct node *obj;
	char *big;
	const char *msg;

	(void)state;
	diags_init(&d, &a);
	assert_int_equal(kube_object_parse(&obj, &a, &d, WHERE, "{\"metadata\":{}}", 15), 0);
	assert_int_equal(obj->kind, NODE_MAP);
	assert_int_equal(kube_object_parse(&obj, &a, &d, WHERE, "[1]", 3), KUBE_EFAIL);
	assert_int_equal(kube_object_parse(&obj, &a, &d, WHERE, "{\"metadata\":[]}", 15),
			 KUBE_EFAIL);
	assert_int_equal(d.count, 2);
	assert_null(obj);
	msg = kube_status_message(&a, "{\"kind\":\"Status\",\"message\":\"no\"}", 32);
	assert_string_equal(msg, "no");
	assert_null(kube_status_message(&a, "{\"kind\":\"Node\",\"message\":\"no\"}", 30));
	assert_null(kube_status_message(&a, "not json", 8));
	/* a huge message is capped on a character boundary */
	big = malloc(4000);
	{
		size_t at = (size_t)snprintf(big, 4000, "{\"kind\":\"Status\",\"message\":\"x");

		for (int i = 0; i < 1000; i++)
			at += (size_t)snprintf(big + at, 4000 - at, "\xc3\xa9");
		snprintf(big + at, 4000 - at, "\"}");
	}
	msg = kube_status_message(&a, big, strlen(big));
	assert_non_null(msg);
	assert_true(strlen(msg) <= KUBE_MAX_STATUS_MSG + 3);
	assert_string_equal(msg + strlen(msg) - 3, "...");
	assert_true(((unsigned char)msg[strlen(msg) - 4] & 0xc0) == 0x80);
	free(big);
	arena_release(&a);
}

static void
test_kube_http__control_characters(void **state)
{
	(void)state;
	assert_false(kube_has_ctl("plain-token.AZaz09~+/="));
	assert_false(kube_has_ctl("\xc3\xa9"));
	assert_false(kube_has_ctl(NULL));
	assert_true(kube_has_ctl("a\r\nX-Injected: yes"));
	assert_true(kube_has_ctl("a\n"));
	assert_true(kube_has_ctl("\t"));
	assert_true(kube_has_ctl("\x7f"));
	assert_true(kube_has_ctl("\x1b[2J"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kube_http__header_lines),
		cmocka_unit_test(test_kube_http__list_shapes),
		cmocka_unit_test(test_kube_http__continue_token_limit),
		cmocka_unit_test(test_kube_http__objects_and_status),
		cmocka_unit_test(test_kube_http__control_characters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
