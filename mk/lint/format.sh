#!/bin/sh
# format.sh TOP: every C file of src/ and tests/unit/ is clang-format clean
# against .clang-format (the tree was reformatted once, in a commit of its
# own).  Fails, naming each file, when clang-format would change it, and
# when clang-format 14 is not installed (mk/deps.sh installs it).
set -u
cd "${1:?usage: format.sh TOP}" || exit 2
# the style lives in the tree; a tree without one (the lint tests' small
# fake trees) has no layout to check
[ -f .clang-format ] || exit 0
cf=${CLANG_FORMAT:-}
if [ -z "$cf" ]; then
	# 14 first: another major version formats a few constructs differently
	for c in clang-format-14 clang-format; do
		command -v "$c" >/dev/null 2>&1 && { cf=$c; break; }
	done
fi
if [ -z "$cf" ]; then
	echo "lint: clang-format not found: install clang-format-14 (or set CLANG_FORMAT)" >&2
	exit 1
fi
files=$(git ls-files 'src/*.c' 'src/*.h' 'tests/unit/*.c' 'tests/unit/*.h' 2>/dev/null)
[ -n "$files" ] || files=$(find src tests/unit -name '*.[ch]' 2>/dev/null | sort)
present=
for f in $files; do
	[ -f "$f" ] && present="$present $f"
done
[ -n "$present" ] || exit 0
# one clang-format for every file (a start per file was most of its time);
# only when it finds something (or cannot --dry-run), a run per file
# names each offender, as ever
# shellcheck disable=SC2086
"$cf" --style=file --dry-run -Werror $present >/dev/null 2>&1 && exit 0
bad=0
for f in $present; do
	if ! "$cf" --style=file "$f" | cmp -s - "$f"; then
		echo "lint: $f is not clang-format clean: run $cf -i --style=file $f" >&2
		bad=1
	fi
done
exit "$bad"
