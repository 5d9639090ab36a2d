/*
 * secret.h - the one secret policy: what text counts as a secret, and how
 * it is hidden.  GS010 reports what secret_classify() finds; every message
 * that quotes outside text passes it through secret_quote() (or
 * secret_quote_n()); diff output hides SSM activation codes with
 * secret_redact_text() and Kubernetes Secret data with SECRET_MASK.
 *
 * Strings only: the walks over node trees stay with their modules (rules,
 * schema, diff) and call these for each key and value.
 */
#ifndef GS_SECRET_H
#define GS_SECRET_H

#include <stdbool.h>
#include <stddef.h>

struct arena;

/* What a message or a diff shows in place of a secret. */
#define SECRET_REDACTED "<redacted>"
/* What a diff shows in place of each value of a Kubernetes Secret's data
 * and stringData ("*** (before)" / "*** (after)" when the value changed). */
#define SECRET_MASK "***"
/* The NodeConfig field that holds an SSM activation code. */
#define SECRET_SSM_FIELD "activationCode"

enum secret_kind {
	SECRET_NONE,
	SECRET_SSM_CODE,      /* an SSM hybrid activation code */
	SECRET_AWS_KEY,       /* an AWS secret access key */
	SECRET_SESSION_TOKEN, /* an AWS STS session token */
	SECRET_PRIVATE_KEY,   /* a -----BEGIN ... PRIVATE KEY----- block */
};

/*
 * What secret `text` is.  `key` is the mapping key the text sits under
 * ("activationCode", "aws_secret_access_key"), "" when there is none, or
 * NULL when `text` is itself a key (then a key named like a secret field,
 * "activation_code", counts).  A secret is recognised by its shape (a run
 * of base64 characters of the right length: 20 for an activation code, 40
 * for a secret access key, 100 or more for a session token) in a context
 * that names it (the key, or the text before the run), or by a marker no
 * innocent text carries (-----BEGIN ... PRIVATE KEY-----,
 * "aws_secret_access_key=<value>").
 */
enum secret_kind secret_classify(const char *text, const char *key);

/*
 * False only when `text` (a key when is_key) cannot hold a secret that
 * secret_classify() knows: one cheap pass, the first step of each check
 * here.
 */
bool secret_prefilter(const char *text, bool is_key);

/*
 * True when `text` (NUL-terminated; NULL is not a secret) is a secret
 * without any key for context: secret_classify(text, "") or the bare
 * shape of an AWS secret access key (a mixed 40-character run with a '/')
 * or of a session token (its fixed base64 header).
 */
bool secret_looks(const char *text);

/*
 * True when `text`, the value of the field named `key` (NULL: none), is
 * a secret: secret_classify(text, key) or secret_looks(text).
 */
bool secret_in_field(const char *text, const char *key);

/*
 * True when s[0..len) (not necessarily NUL-terminated) must not be echoed
 * in a message: it carries "PRIVATE KEY", a run of 16 or more base64
 * characters with upper case, lower case and digits (an activation code,
 * an access key, a token of any vendor), or secret_looks() says so.
 * Stricter than secret_looks(): a false alarm here only hides a value.
 */
bool secret_unsafe_to_echo(const char *s, size_t len);

/*
 * True when the parameter name s[0..len) (a URL query's "access_token",
 * "password", "api_key", in any case) says its value is a credential: it
 * contains "token", "pass", "secret", "auth" or "key".
 */
bool secret_name_is_credential(const char *s, size_t len);

/* `text`, or SECRET_REDACTED when secret_looks(text). */
const char *secret_quote(const char *text);

/* The noun for a kind, for messages: "an SSM activation code", ... */
const char *secret_noun(enum secret_kind k);

/*
 * `s` with the value of every "activationCode: x" (YAML) and
 * "activationCode":"x" (JSON) inside it replaced by SECRET_REDACTED (a
 * NodeConfig embedded in a ConfigMap, a diff line).  Returns `s` itself
 * when there is nothing to hide, else a copy in the arena; SECRET_REDACTED
 * alone when the copy cannot be made.
 */
const char *secret_redact_text(struct arena *a, const char *s);

#endif
