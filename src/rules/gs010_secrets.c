/*
 * gs010_secrets.c - GS010: a literal secret in a spec, in any string,
 * keys included: an SSM activation code, an AWS secret access key or
 * session token, a private key block.  Messages never echo the secret.
 *
 * What counts as a secret is the policy of base/secret.h; this file walks
 * the spec and reports each one.
 */
#include <string.h>

#include "base/arena.h"
#include "base/secret.h"
#include "rules/rules_int.h"

/* The rules' names for the policy in base/secret.h. */
bool
rules_secret_prefilter(const char *text, bool is_key)
{
	return secret_prefilter(text, is_key);
}

bool
rules_looks_secret(const char *text)
{
	return secret_looks(text);
}

bool
rules_secret_in_field(const char *text, const char *key)
{
	return secret_in_field(text, key);
}

const char *
rule_quote(const char *text)
{
	return secret_quote(text);
}

static const char *
advice(enum secret_kind k)
{
	switch (k) {
	case SECRET_SSM_CODE:
		return "keep it out of Git and name the environment variable "
		       "that holds it in credentials.ssm.activationCodeEnv";
	case SECRET_AWS_KEY:
	case SECRET_SESSION_TOKEN:
		return "remove it and rotate it; hybrid nodes get their "
		       "credentials from SSM or IAM Roles Anywhere";
	case SECRET_PRIVATE_KEY:
		return "remove it and rotate the key; IAM Roles Anywhere reads "
		       "the key from privateKeyPath on the node";
	case SECRET_NONE: break;
	}
	return "remove it";
}

struct scan {
	struct rule_ctx *c;
	const struct spec_site *site;
	size_t found;
};

/* Where the scan is: one step from the parent, the root's `up` NULL.  The
 * JSON path is only written out for a finding. */
struct step {
	const struct step *up;
	const char *key; /* a mapping key, or NULL for a sequence index */
	size_t index;
};

static const char *
step_path(struct arena *a, const struct step *st)
{
	if (!st || !st->up)
		return "";
	if (st->key)
		return node_path_join(a, step_path(a, st->up), st->key);
	return node_path_index(a, step_path(a, st->up), st->index);
}

static void
hit(struct scan *sc, const struct node *at, const struct step *where, enum secret_kind k,
    bool is_key)
{
	const char *path = step_path(sc->c->arena, where);
	const char *shown = *path ? path : "the document";

	sc->found++;
	if (is_key)
		rule_report(sc->c, sc->site, at->at, path,
			    "%s is a field for %s, which must not be written in "
			    "a spec: %s",
			    shown, secret_noun(k), advice(k));
	else
		rule_report(sc->c, sc->site, at->at, path, "%s holds what looks like %s: %s", shown,
			    secret_noun(k), advice(k));
}

static void
scan_node(struct scan *sc, const struct node *n, const struct step *path, const char *key,
	  unsigned depth)
{
	struct step child;
	size_t i;

	if (!n || depth > 256)
		return;
	child.up = path;
	switch (n->kind) {
	case NODE_SCALAR: {
		enum secret_kind k;

		if (n->type != NODE_STR)
			return;
		k = secret_classify(n->scalar.text, key);
		if (k != SECRET_NONE)
			hit(sc, n, path, k, false);
		return;
	}
	case NODE_SEQ:
		child.key = NULL;
		for (i = 0; i < n->seq.count; i++) {
			child.index = i;
			scan_node(sc, n->seq.items[i], &child, key, depth + 1);
		}
		return;
	case NODE_MAP: {
		/* env-style {name: AWS_SECRET_ACCESS_KEY, value: ...}: the
		 * name says what the value is */
		const char *sibling = node_str(node_map_get(n, "name"));

		for (i = 0; i < n->map.count; i++) {
			const struct node_pair *p = &n->map.pairs[i];
			const char *k = node_text(p->key);
			const char *ctx = k;
			enum secret_kind kk = secret_classify(k, NULL);

			child.key = k;
			child.index = 0;
			if (kk != SECRET_NONE) {
				/* the key may be the secret itself: keep it
				 * out of the path; and one finding per field
				 * is enough, so its value is not scanned */
				hit(sc, p->key, rules_looks_secret(k) ? path : &child, kk, true);
				continue;
			}
			if (sibling && k && !strcmp(k, "value"))
				ctx = sibling;
			scan_node(sc, p->value, k ? &child : path, ctx, depth + 1);
		}
		return;
	}
	}
}

static size_t
scan_doc(struct rule_ctx *c, const struct spec_site *s, const struct node *doc)
{
	struct scan sc = { c, s, 0 };
	struct step root = { NULL, NULL, 0 };

	scan_node(&sc, doc, &root, NULL, 0);
	return sc.found;
}

static void
check_site(struct rule_ctx *c, const struct spec_site *s)
{
	scan_doc(c, s, s->doc);
}

int
rules_scan_secrets(struct arena *a, struct diags *d, const struct node *doc)
{
	struct rule_ctx c = { a, d, &rule_gs010, NULL, 0 };

	return scan_doc(&c, NULL, doc) ? -1 : 0;
}

const struct rule rule_gs010 = {
	.id = "GS010",
	.check_site = check_site,
};
