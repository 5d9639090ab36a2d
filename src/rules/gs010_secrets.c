/*
 * gs010_secrets.c - GS010: a literal secret in a spec, in any string,
 * keys included: an SSM activation code, an AWS secret access key or
 * session token, a private key block.  Messages never echo the secret.
 *
 * A secret is recognised by its shape (a run of base64 characters of the
 * right length) in a context that names it (the key it sits under, or the
 * text before it, such as "aws_secret_access_key=" in a kubelet flag), or
 * by a marker no innocent text carries (-----BEGIN ... PRIVATE KEY-----).
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "base/arena.h"
#include "rules/rule.h"

#define CTX_MAX 96

enum secret_kind {
	SECRET_NONE,
	SECRET_SSM_CODE,
	SECRET_AWS_KEY,
	SECRET_SESSION_TOKEN,
	SECRET_PRIVATE_KEY,
};

static bool
is_b64(char c)
{
	return isalnum((unsigned char)c) || c == '/' || c == '+';
}

/* The next run of base64 characters at or after *p: *p moved to its
 * start, its length returned (0 at the end of the text). */
static size_t
next_b64_run(const char **p)
{
	size_t n = 0;

	while (**p && !is_b64(**p))
		(*p)++;
	while ((*p)[n] && is_b64((*p)[n]))
		n++;
	return n;
}

/* Lower-case, drop separators: "activation_code", "activationCode" and
 * "ACTIVATION-CODE" all become "activationcode". */
static void
normalize(char *out, size_t size, const char *s, size_t n)
{
	size_t o = 0, i;

	for (i = 0; i < n && o + 1 < size; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '_' || c == '-' || c == '.' || c == ' ')
			continue;
		out[o++] = (char)tolower(c);
	}
	out[o] = '\0';
}

/* The credentials-file form "aws_secret_access_key = <value>" (also
 * with ':' as in YAML or JSON text), in any case. */
static bool
assigns_secret_key(const char *text)
{
	static const char needle[] = "aws_secret_access_key";
	const char *p;

	for (p = text; *p; p++) {
		const char *q;

		if (strncasecmp(p, needle, sizeof(needle) - 1))
			continue;
		q = p + sizeof(needle) - 1;
		if (*q == '"' || *q == '\'')
			q++;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q != '=' && *q != ':')
			continue;
		q++;
		while (*q == ' ' || *q == '\t' || *q == '"' || *q == '\'')
			q++;
		if (is_b64(*q))
			return true;
	}
	return false;
}

/* Random-looking: a lower-case letter and an upper-case letter or digit
 * (environment variable names, which are upper case, do not qualify). */
static bool
mixed(const char *s, size_t n)
{
	bool lower = false, other = false;
	size_t i;

	for (i = 0; i < n; i++) {
		if (islower((unsigned char)s[i]))
			lower = true;
		else if (isupper((unsigned char)s[i]) || isdigit((unsigned char)s[i]))
			other = true;
	}
	return lower && other;
}

static bool
token_prefix(const char *s)
{
	/* the base64 of the fixed header every STS session token starts with */
	static const char *const prefixes[] = {
		"IQoJb3JpZ2lu", "FwoGZXIvYXdz", "AQoDYXdz", "AQoJb3JpZ2lu",
	};
	size_t i;

	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(s, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

/* What one pass over a string found; classify() looks only where one of
 * these says a secret may be. */
enum {
	PF_SHAPE = 1 << 0, /* a mixed base64 run of 20 or 40, or one of 100+ */
	PF_BEGIN = 1 << 1, /* "-----BEGIN" */
	PF_ASSIGN = 1 << 2, /* "aws_secret_access_key", in any case */
	PF_NAME = 1 << 3,  /* a key as long as a secret field's name */
};

/*
 * The cheap pass every string gets: each flag is a necessary condition of
 * one branch of classify().  A key can be a secret field's name only if
 * it is, without separators, as long as one: "sessiontoken" (12),
 * "activationcode" (14), "secretaccesskey" or "awssessiontoken" (15),
 * "awssecretaccesskey" (18).
 */
static unsigned
prefilter(const char *text, bool is_key)
{
	static const char needle[] = "aws_secret_access_key";
	const char *p;
	size_t run = 0, name = 0;
	bool lower = false, other = false;
	unsigned f = 0;

	for (p = text;; p++) {
		unsigned char c = (unsigned char)*p;

		if (c && is_b64((char)c)) {
			run++;
			if (islower(c))
				lower = true;
			else if (isupper(c) || isdigit(c))
				other = true;
			name++;
			continue;
		}
		if (((run == 20 || run == 40) && lower && other) || run >= 100)
			f |= PF_SHAPE;
		if (!c)
			break;
		run = 0;
		lower = other = false;
		if (c != '_' && c != '-' && c != '.' && c != ' ')
			name++;
		if (c == '-' && !strncmp(p, "-----BEGIN", 10))
			f |= PF_BEGIN;
		/* the needle's first '_' is its fourth character */
		if (c == '_' && p - text >= 3 && !strncasecmp(p - 3, needle, sizeof(needle) - 1))
			f |= PF_ASSIGN;
	}
	if (is_key && (name == 12 || name == 14 || name == 15 || name == 18))
		f |= PF_NAME;
	return f;
}

bool
rules_secret_prefilter(const char *text, bool is_key)
{
	return prefilter(text, is_key) != 0;
}

/*
 * Classify one string; `key` is the mapping key it sits under (or the key
 * itself when the string is a key: then key == NULL).
 */
static enum secret_kind
classify(const char *text, const char *key)
{
	char kctx[CTX_MAX], tctx[CTX_MAX];
	const char *p;
	size_t n;
	unsigned f;

	if (!text || !(f = prefilter(text, key == NULL)))
		return SECRET_NONE;
	if ((f & PF_BEGIN) && strstr(text, "-----BEGIN") && strstr(text, "PRIVATE KEY"))
		return SECRET_PRIVATE_KEY;
	if ((f & PF_ASSIGN) && assigns_secret_key(text))
		return SECRET_AWS_KEY;
	if (!key && (f & PF_NAME)) {
		/* a key named like the secret field itself */
		normalize(tctx, sizeof(tctx), text, strlen(text));
		if (!strcmp(tctx, "activationcode"))
			return SECRET_SSM_CODE;
		if (!strcmp(tctx, "awssecretaccesskey") ||
		    !strcmp(tctx, "secretaccesskey"))
			return SECRET_AWS_KEY;
		if (!strcmp(tctx, "awssessiontoken") || !strcmp(tctx, "sessiontoken"))
			return SECRET_SESSION_TOKEN;
	}
	if (!(f & PF_SHAPE))
		return SECRET_NONE;
	normalize(kctx, sizeof(kctx), key ? key : "", key ? strlen(key) : 0);
	for (p = text; (n = next_b64_run(&p)) > 0; p += n) {
		if (n != 20 && n != 40 && n < 100)
			continue;
		/* the context: the key, and what the text says before the run */
		normalize(tctx, sizeof(tctx), text,
			  (size_t)(p - text) < CTX_MAX ? (size_t)(p - text) : CTX_MAX);
		if (n == 20 && mixed(p, n) &&
		    (strstr(kctx, "activationcode") || strstr(tctx, "activationcode")))
			return SECRET_SSM_CODE;
		if (n == 40 && mixed(p, n) &&
		    (strstr(kctx, "secret") || strstr(tctx, "secret")))
			return SECRET_AWS_KEY;
		if (n >= 100 && (token_prefix(p) || strstr(kctx, "sessiontoken") ||
				 strstr(kctx, "securitytoken") ||
				 strstr(tctx, "sessiontoken") ||
				 strstr(tctx, "securitytoken")))
			return SECRET_SESSION_TOKEN;
	}
	return SECRET_NONE;
}

bool
rules_looks_secret(const char *text)
{
	const char *p;
	size_t n;

	if (!text)
		return false;
	/* "" rather than NULL: the text is a value, not a key name */
	if (classify(text, "") != SECRET_NONE)
		return true;
	/* without a context: the bare shape of an AWS secret access key */
	for (p = text; (n = next_b64_run(&p)) > 0; p += n) {
		if (n == 40 && mixed(p, n) && memchr(p, '/', n))
			return true;
		if (n >= 100 && token_prefix(p))
			return true;
	}
	return false;
}

bool
rules_secret_in_field(const char *text, const char *key)
{
	return classify(text, key ? key : "") != SECRET_NONE || rules_looks_secret(text);
}

const char *
rule_quote(const char *text)
{
	return rules_looks_secret(text) ? "<redacted>" : text;
}

static const char *
noun(enum secret_kind k)
{
	switch (k) {
	case SECRET_SSM_CODE:
		return "an SSM activation code";
	case SECRET_AWS_KEY:
		return "an AWS secret access key";
	case SECRET_SESSION_TOKEN:
		return "an AWS session token";
	case SECRET_PRIVATE_KEY:
		return "a private key block";
	case SECRET_NONE:
		break;
	}
	return "a secret";
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
	case SECRET_NONE:
		break;
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
hit(struct scan *sc, const struct node *at, const struct step *where,
    enum secret_kind k, bool is_key)
{
	const char *path = step_path(sc->c->arena, where);
	const char *shown = *path ? path : "the document";

	sc->found++;
	if (is_key)
		rule_report(sc->c, sc->site, at->at, path,
			    "%s is a field for %s, which must not be written in "
			    "a spec: %s", shown, noun(k), advice(k));
	else
		rule_report(sc->c, sc->site, at->at, path,
			    "%s holds what looks like %s: %s", shown, noun(k),
			    advice(k));
}

static void
scan_node(struct scan *sc, const struct node *n, const struct step *path,
	  const char *key, unsigned depth)
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
		k = classify(n->scalar.text, key);
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
			enum secret_kind kk = classify(k, NULL);

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
	.level = DIAG_ERROR,
	.summary = "a literal secret in the spec: an SSM activation code, an AWS "
		"secret key or session token pattern, a private key block",
	.check_site = check_site,
};
