/*
 * secret.c - the one secret policy (secret.h): detection by shape in a
 * context that names the secret, the stricter echo check of messages,
 * quoting and the activation-code redaction of diffs.
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/secret.h"

#define CTX_MAX 96

/*
 * The class of a byte in the C locale, the only one gpusite runs in (it
 * never calls setlocale): ASCII letters and digits only, without the
 * <ctype.h> call per byte (the secret scan reads every string of every
 * spec).
 */
enum {
	CC_B64 = 1 << 0,   /* base64: a letter, a digit, '/', '+' */
	CC_LOWER = 1 << 1, /* a lower-case letter */
	CC_OTHER = 1 << 2, /* an upper-case letter or a digit */
};

/* clang-format off */
#define LO (CC_B64 | CC_LOWER)
#define UD (CC_B64 | CC_OTHER)
static const unsigned char char_classes[256] = {
	['+'] = CC_B64, ['/'] = CC_B64,
	['0'] = UD, ['1'] = UD, ['2'] = UD, ['3'] = UD, ['4'] = UD,
	['5'] = UD, ['6'] = UD, ['7'] = UD, ['8'] = UD, ['9'] = UD,
	['A'] = UD, ['B'] = UD, ['C'] = UD, ['D'] = UD, ['E'] = UD, ['F'] = UD, ['G'] = UD,
	['H'] = UD, ['I'] = UD, ['J'] = UD, ['K'] = UD, ['L'] = UD, ['M'] = UD, ['N'] = UD,
	['O'] = UD, ['P'] = UD, ['Q'] = UD, ['R'] = UD, ['S'] = UD, ['T'] = UD, ['U'] = UD,
	['V'] = UD, ['W'] = UD, ['X'] = UD, ['Y'] = UD, ['Z'] = UD,
	['a'] = LO, ['b'] = LO, ['c'] = LO, ['d'] = LO, ['e'] = LO, ['f'] = LO, ['g'] = LO,
	['h'] = LO, ['i'] = LO, ['j'] = LO, ['k'] = LO, ['l'] = LO, ['m'] = LO, ['n'] = LO,
	['o'] = LO, ['p'] = LO, ['q'] = LO, ['r'] = LO, ['s'] = LO, ['t'] = LO, ['u'] = LO,
	['v'] = LO, ['w'] = LO, ['x'] = LO, ['y'] = LO, ['z'] = LO,
};
#undef LO
#undef UD
/* clang-format on */

static unsigned
char_class(unsigned char c)
{
	return char_classes[c];
}

static bool
is_b64(char c)
{
	return char_class((unsigned char)c) != 0;
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
	unsigned seen = 0;
	size_t i;

	for (i = 0; i < n; i++)
		seen |= char_class((unsigned char)s[i]);
	return (seen & (CC_LOWER | CC_OTHER)) == (CC_LOWER | CC_OTHER);
}

static bool
token_prefix(const char *s)
{
	/* the base64 of the fixed header every STS session token starts with */
	static const char *const prefixes[] = {
		"IQoJb3JpZ2lu",
		"FwoGZXIvYXdz",
		"AQoDYXdz",
		"AQoJb3JpZ2lu",
	};
	size_t i;

	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(s, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

/* What one pass over a string found; secret_classify() looks only where one of
 * these says a secret may be. */
enum {
	PF_SHAPE = 1 << 0,  /* a mixed base64 run of 20 or 40, or one of 100+ */
	PF_BEGIN = 1 << 1,  /* "-----BEGIN" */
	PF_ASSIGN = 1 << 2, /* "aws_secret_access_key", in any case */
	PF_NAME = 1 << 3,   /* a key as long as a secret field's name */
};

/*
 * The cheap pass every string gets: each flag is a necessary condition of
 * one branch of secret_classify().  A key can be a secret field's name only if
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
	unsigned seen = 0, f = 0;

	/* Every flag but PF_NAME needs 20 characters or more (a run of 20,
	 * "-----BEGIN" with "PRIVATE KEY", the 21 of the needle), PF_NAME
	 * 12 or more: most strings of a spec are shorter. */
	if (strnlen(text, 20) < (is_key ? 12u : 20u))
		return 0;
	for (p = text;; p++) {
		unsigned char c = (unsigned char)*p;
		unsigned k = char_class(c);

		if (k) {
			run++;
			seen |= k;
			name++;
			continue;
		}
		if (((run == 20 || run == 40) &&
		     (seen & (CC_LOWER | CC_OTHER)) == (CC_LOWER | CC_OTHER)) ||
		    run >= 100)
			f |= PF_SHAPE;
		if (!c)
			break;
		run = 0;
		seen = 0;
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
secret_prefilter(const char *text, bool is_key)
{
	return prefilter(text, is_key) != 0;
}

/*
 * Classify one string; `key` is the mapping key it sits under (or the key
 * itself when the string is a key: then key == NULL).
 */
enum secret_kind
secret_classify(const char *text, const char *key)
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
		if (!strcmp(tctx, "awssecretaccesskey") || !strcmp(tctx, "secretaccesskey"))
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
		if (n == 40 && mixed(p, n) && (strstr(kctx, "secret") || strstr(tctx, "secret")))
			return SECRET_AWS_KEY;
		if (n >= 100 && (token_prefix(p) || strstr(kctx, "sessiontoken") ||
				 strstr(kctx, "securitytoken") || strstr(tctx, "sessiontoken") ||
				 strstr(tctx, "securitytoken")))
			return SECRET_SESSION_TOKEN;
	}
	return SECRET_NONE;
}

bool
secret_looks(const char *text)
{
	const char *p;
	size_t n;

	if (!text)
		return false;
	/* "" rather than NULL: the text is a value, not a key name */
	if (secret_classify(text, "") != SECRET_NONE)
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
secret_in_field(const char *text, const char *key)
{
	return secret_classify(text, key ? key : "") != SECRET_NONE || secret_looks(text);
}

bool
secret_unsafe_to_echo(const char *s, size_t len)
{
	bool up = false, low = false, dig = false;
	size_t k, run = 0;
	char tmp[256];

	if (strstr(s, "PRIVATE KEY"))
		return true;
	for (k = 0; k <= len; k++) {
		char ch = k < len ? s[k] : '\0';

		if ((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') ||
		    (ch >= '0' && ch <= '9') || ch == '+' || ch == '/' || ch == '=') {
			up |= ch >= 'A' && ch <= 'Z';
			low |= ch >= 'a' && ch <= 'z';
			dig |= ch >= '0' && ch <= '9';
			run++;
			continue;
		}
		if (run >= 16 && up && low && dig)
			return true;
		up = low = dig = false;
		run = 0;
	}
	if (len < sizeof(tmp)) {
		memcpy(tmp, s, len);
		tmp[len] = '\0';
		return secret_looks(tmp);
	}
	return secret_looks(s);
}

bool
secret_name_is_credential(const char *s, size_t len)
{
	static const char *const words[] = { "token", "pass", "secret", "auth", "key" };
	char name[64];

	if (len == 0 || len >= sizeof(name))
		return false;
	for (size_t i = 0; i < len; i++)
		name[i] = (char)tolower((unsigned char)s[i]);
	name[len] = '\0';
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strstr(name, words[i]))
			return true;
	return false;
}

const char *
secret_quote(const char *text)
{
	return secret_looks(text) ? SECRET_REDACTED : text;
}

const char *
secret_noun(enum secret_kind k)
{
	switch (k) {
	case SECRET_SSM_CODE: return "an SSM activation code";
	case SECRET_AWS_KEY: return "an AWS secret access key";
	case SECRET_SESSION_TOKEN: return "an AWS session token";
	case SECRET_PRIVATE_KEY: return "a private key block";
	case SECRET_NONE: break;
	}
	return "a secret";
}

const char *
secret_redact_text(struct arena *a, const char *s)
{
	struct buf b = BUF_INIT;
	const char *p = s, *hit;
	char *res;

	if (!strstr(s, SECRET_SSM_FIELD))
		return s;
	buf_init(&b, 0);
	while ((hit = strstr(p, SECRET_SSM_FIELD)) != NULL) {
		const char *v = hit + strlen(SECRET_SSM_FIELD);
		size_t keep;

		if (*v == '"')
			v++;
		while (*v == ' ' || *v == '\t')
			v++;
		if (*v != ':') {
			keep = (size_t)(v - p);
			if (buf_add(&b, p, keep) < 0)
				break;
			p = v;
			continue;
		}
		v++;
		while (*v == ' ' || *v == '\t')
			v++;
		if (buf_add(&b, p, (size_t)(v - p)) < 0)
			break;
		if (*v == '"') {
			const char *end = v + 1;

			while (*end && *end != '"')
				end += end[0] == '\\' && end[1] ? 2 : 1;
			p = *end ? end + 1 : end;
			if (buf_adds(&b, "\"" SECRET_REDACTED "\"") < 0)
				break;
		} else {
			p = v + strcspn(v, "\r\n,}");
			if (p != v && buf_adds(&b, SECRET_REDACTED) < 0)
				break;
		}
	}
	if (buf_adds(&b, p) < 0) {
		buf_release(&b);
		return SECRET_REDACTED; /* cannot copy it: show nothing of it */
	}
	res = arena_strndup(a, b.data, b.len);
	buf_release(&b);
	return res;
}
