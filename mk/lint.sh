#!/bin/sh
# lint.sh [TOP]: each external library is included by its own module only
# (architecture.md): <yaml.h> in src/yamlio, cJSON in src/json, <git2.h>
# in src/source, curl in src/kube.  Prints every offending line and fails.
# With LINT_FORMAT=1 it also runs clang-format --dry-run over src/ and
# tests/unit/ (optional: the tree is not fully formatted yet).
set -u
top=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$top" || exit 2
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

[ -d src ] || { echo "lint: no src/ under $top" >&2; exit 2; }
check src/yamlio '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]yaml\.h[>"]' '<yaml.h>'
check src/json '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](cjson/)?cJSON(_Utils)?\.h[>"]' 'cJSON'
check src/source '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]git2(\.h|/)' '<git2.h>'
check src/kube '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]curl/' 'curl'

if [ "${LINT_FORMAT:-0}" = 1 ]; then
	if command -v clang-format >/dev/null; then
		find src tests/unit -name '*.[ch]' -print | sort |
			xargs clang-format --dry-run -Werror || bad=1
	else
		echo "lint: clang-format not installed; format check skipped" >&2
	fi
fi

[ "$bad" -eq 0 ] && echo "lint: ok"
exit "$bad"
