#!/bin/sh
# regex-once.sh TOP: regular expressions run through src/regex/ (PCRE2)
# only.  Fails on <regex.h> (or PCRE2's POSIX wrapper) anywhere in src/,
# on a call of regcomp, regexec, regerror or regfree, and on a function
# whose name says it translates a pattern into another syntax: a pattern
# is compiled in its own dialect (regex_compile), never rewritten into
# POSIX regular expressions again.
set -u
cd "${1:?usage: regex-once.sh TOP}" || exit 2
[ -d src ] || exit 0
bad=0

# report HITS WHAT: print grep -n lines HITS under the heading WHAT
report() {
	[ -n "$1" ] || return 0
	echo "lint: $2:" >&2
	echo "$1" | sed 's/^/  /' >&2
	bad=1
}

hits=$(grep -rnE --include='*.c' --include='*.h' \
	'^[[:space:]]*#[[:space:]]*include[[:space:]]*<(regex|pcre2posix)\.h>' src || true)
report "$hits" "<regex.h> in src/: match patterns through src/regex/regex.h"

hits=$(grep -rnE --include='*.c' --include='*.h' \
	'(^|[^A-Za-z0-9_.>])(regcomp|regexec|regerror|regfree)[[:space:]]*\(' src |
	grep -vE '^[^:]*:[0-9]+:[[:space:]]*(/?\*|//)' || true)
report "$hits" "POSIX regex call in src/: match patterns through src/regex/regex.h"

# a translator by its name: an identifier called like a function with
# "translat" or "xlat" in it and a word of it regex, re, pattern, ere,
# ecma or posix (schema_regex_translate, ere_translate, xlat_pattern)
hits=$(grep -rnoiE --include='*.c' --include='*.h' \
	'[A-Za-z0-9_]*(translat|xlat)[A-Za-z0-9_]*[[:space:]]*\(' src |
	awk -F: '{ id = tolower($3); sub(/[[:space:]]*\($/, "", id)
		n = split(id, w, "_")
		for (i = 1; i <= n; i++)
			if (w[i] ~ /^(regex|re|pattern|ere|ecma|posix)$/) { print; next } }' || true)
report "$hits" "a regex translator in src/: compile the pattern in its own dialect with regex_compile()"

exit "$bad"
