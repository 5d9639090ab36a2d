#!/bin/sh
# format.sh TOP: the files listed in mk/lint/format-files.txt (one path a
# line, '#' comments) are clang-format clean against .clang-format.  The
# list grows until the tree is reformatted once; then every file counts.
# Fails, naming each file, when clang-format would change it; fails when a
# listed file is missing or when clang-format is not installed.
set -u
cd "${1:?usage: format.sh TOP}" || exit 2
list=mk/lint/format-files.txt
[ -f "$list" ] || exit 0
files=$(sed -e 's/#.*//' -e 's/[[:space:]]//g' "$list" | grep -v '^$')
[ -n "$files" ] || exit 0
cf=${CLANG_FORMAT:-}
if [ -z "$cf" ]; then
	for c in clang-format-14 clang-format; do
		command -v "$c" >/dev/null 2>&1 && { cf=$c; break; }
	done
fi
if [ -z "$cf" ]; then
	echo "lint: clang-format not found: install clang-format 14 (or set CLANG_FORMAT)" >&2
	exit 1
fi
bad=0
for f in $files; do
	if [ ! -f "$f" ]; then
		echo "lint: $list names $f, which does not exist: delete its line" >&2
		bad=1
		continue
	fi
	if ! "$cf" --style=file "$f" | cmp -s - "$f"; then
		echo "lint: $f is not clang-format clean: run $cf -i --style=file $f" >&2
		bad=1
	fi
done
exit "$bad"
