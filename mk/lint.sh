#!/bin/sh
# lint.sh [TOP]: run every check in mk/lint/*.sh (each takes TOP, prints
# what is wrong on stderr and exits non-zero) over the tree at TOP
# (default: this checkout).  Prints "lint: ok" when all pass, else names
# the checks that failed and exits 1.  A new check is one more file in
# mk/lint/.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=${1:-$(cd "$here/.." && pwd)}
[ -d "$top/src" ] || { echo "lint: no src/ under $top" >&2; exit 2; }
top=$(cd "$top" && pwd)
failed=
for check in "$here"/lint/*.sh; do
	[ -f "$check" ] || continue
	if ! sh "$check" "$top"; then
		failed="$failed $(basename "$check" .sh)"
	fi
done
if [ -n "$failed" ]; then
	echo "lint: failed:$failed" >&2
	exit 1
fi
echo "lint: ok"
