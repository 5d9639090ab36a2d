/*
 * fuzz_serve.c - the request body of `gpusite serve` (serve_parse_request)
 * and the authorization check, with a property: a body that parses yields
 * exactly the parameters it held.  The body is parsed again on its own
 * (json_parse), and input.parameters there must have the same names, in
 * the same order, with equal values; a body that does not parse must say
 * why.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "argocd/serve.h"
#include "base/arena.h"
#include "base/diag.h"
#include "json/json.h"
#include "node/node.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_params(struct arena *a, const struct serve_request *req, const char *body, size_t len)
{
	struct diags d;
	struct node *root, *params;

	diags_init(&d, a);
	root = json_parse(a, &d, "GS001", "again", body, len);
	if (!root || root->kind != NODE_MAP)
		__builtin_trap();	/* it parsed the first time */
	params = node_path(root, "input.parameters");
	if (!params || params->kind != NODE_MAP) {
		if (req->nparams)
			__builtin_trap();	/* parameters out of nowhere */
		return;
	}
	if (params->map.count != req->nparams)
		__builtin_trap();	/* one lost or made up */
	for (size_t i = 0; i < req->nparams; i++) {
		if (strcmp(node_text(params->map.pairs[i].key), req->params[i].name))
			__builtin_trap();
		if (!node_equal(params->map.pairs[i].value, req->params[i].value))
			__builtin_trap();
		for (size_t j = 0; j < i; j++)
			if (!strcmp(req->params[j].name, req->params[i].name))
				__builtin_trap();	/* duplicates are refused */
	}
	if (node_str(node_map_get(root, "applicationSetName")) && !req->appset)
		__builtin_trap();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena a;
	struct serve_request req;
	const char *why = NULL;
	const char *body = (const char *)data;
	char auth[80];

	arena_init(&a);
	if (serve_parse_request(&req, &a, body, size, &why) == 0)
		check_params(&a, &req, body, size);
	else if (!why || !*why)
		__builtin_trap();	/* a 400 always says why */

	/* the header check: the token itself matches, nothing else does */
	if (size < sizeof(auth) - 8 && !memchr(data, '\0', size)) {
		memcpy(auth, "Bearer ", 7);
		memcpy(auth + 7, data, size);
		auth[7 + size] = '\0';
		bool clean = size && data[0] != ' ' && data[size - 1] != ' ' &&
			     data[size - 1] != '\t';

		if (clean && serve_auth_check(auth, body, size) != 1)
			__builtin_trap();
		if (clean && size > 1 && serve_auth_check(auth, body, size - 1) == 1)
			__builtin_trap();
	}
	arena_release(&a);
	return 0;
}
