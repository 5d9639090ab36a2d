#!/bin/sh
# libs.sh TOP: each external library is included by its own module only
# (docs/design/road.md): <yaml.h> in src/yamlio, cJSON in src/json, <git2.h>
# in src/source, curl in src/kube, <pcre2.h> in src/regex.  Prints every
# offending line and fails.
set -u
cd "${1:?usage: libs.sh TOP}" || exit 2
bad=0

# check MODULE_DIR PATTERN WHAT
check() {
	dir=$1 pattern=$2 what=$3
	hits=$(grep -rnE --include='*.c' --include='*.h' "$pattern" src 2>/dev/null |
		grep -v "^$dir/" || true)
	if [ -n "$hits" ]; then
		echo "lint: $what may be included only under $dir/:" >&2
		echo "$hits" | sed 's/^/  /' >&2
		bad=1
	fi
}

check src/yamlio '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]yaml\.h[>"]' '<yaml.h>'
check src/json '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](cjson/)?cJSON(_Utils)?\.h[>"]' 'cJSON'
check src/source '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]git2(\.h|/)' '<git2.h>'
check src/kube '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]curl/' 'curl'
check src/regex '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]pcre2(posix)?\.h[>"]' '<pcre2.h>'
exit "$bad"
