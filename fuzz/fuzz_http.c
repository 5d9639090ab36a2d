/*
 * fuzz_http.c - the HTTP answer the Kubernetes client reads, through the
 * functions the client itself uses (kube/kube_http.c): the status line
 * and header lines as curl hands them over (Retry-After), then the body
 * as a LIST page (items, metadata, continue token, which is URL-escaped
 * for the next request as kube_list does), as a single object and as a
 * Status error.
 *
 * Input: header lines up to the first empty line ("\r\n\r\n" or "\n\n"),
 * then the body.  Without an empty line the whole input is the body.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "kube/kube_int.h"
#include "node/node.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t
header_end(const char *s, size_t n, size_t *body)
{
	for (size_t i = 0; i + 1 < n; i++) {
		if (s[i] == '\n' && s[i + 1] == '\n') {
			*body = i + 2;
			return i + 1;
		}
		if (i + 3 < n && !memcmp(s + i, "\r\n\r\n", 4)) {
			*body = i + 4;
			return i + 2;
		}
	}
	*body = 0;
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	struct kube_answer_meta meta;
	struct kube_page page;
	struct node *obj;
	struct arena a;
	struct diags d;
	size_t body, hlen = header_end(s, size, &body);

	kube_answer_init(&meta);
	for (size_t i = 0; i < hlen;) {
		const char *nl = memchr(s + i, '\n', hlen - i);
		size_t n = nl ? (size_t)(nl - (s + i)) + 1 : hlen - i;

		kube_answer_header(&meta, s + i, n);
		i += n;
	}
	if (meta.retry_after > 86400 || (meta.retry_after < 0 && meta.retry_after != -1))
		__builtin_trap();	/* the client sleeps this long */
	if (meta.status < 0 || meta.status > 999)
		__builtin_trap();

	arena_init(&a);
	diags_init(&d, &a);
	if (kube_page_parse(&page, &a, &d, "https://fuzz/api/v1/nodes", s + body,
			    size - body) == 0) {
		if (!page.items || page.items->kind != NODE_SEQ)
			__builtin_trap();
		for (size_t i = 0; i < page.items->seq.count; i++)
			if (page.items->seq.items[i]->kind != NODE_MAP)
				__builtin_trap();
		if (page.cont) {
			struct buf q = BUF_INIT;

			if (page.cont_len > KUBE_MAX_CONTINUE ||
			    strlen(page.cont) != page.cont_len)
				__builtin_trap();
			buf_init(&q, 0);
			if (kube_url_escape(&q, page.cont) == 0 &&
			    q.len < page.cont_len)
				__builtin_trap();
			buf_release(&q);
		}
	} else if (d.count == 0) {
		__builtin_trap();	/* a refusal always says why */
	}
	if (kube_object_parse(&obj, &a, &d, "https://fuzz/api/v1/nodes/x",
			      s + body, size - body) == 0 && obj->kind != NODE_MAP)
		__builtin_trap();
	{
		const char *msg = kube_status_message(&a, s + body, size - body);

		if (msg && strlen(msg) > KUBE_MAX_STATUS_MSG + 3)
			__builtin_trap();
	}
	arena_release(&a);
	return 0;
}
