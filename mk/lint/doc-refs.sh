#!/bin/sh
# doc-refs.sh TOP: the documents the source cites live in the repository.
# Every Markdown page a file of src/ mentions must be a file of the tree
# (docs/design/, docs/, the top), so a comment never sends a reader to a
# page they do not have (docs/design/README.md).  SOURCES.md is the index
# of the upstream folder the tests read in place, data and not a note.
set -u
cd "${1:?usage: doc-refs.sh TOP}" || exit 2
[ -d src ] || exit 0
have=$(find . -name '*.md' ! -path './.git/*' ! -path './.tools/*' ! -path './build*' \
	-exec basename {} \; | LC_ALL=C sort -u)
bad=0
refs=$(grep -rnoE '[A-Za-z0-9_-]+\.md\b' src 2>/dev/null | grep -v ':SOURCES\.md$')
for r in $refs; do
	name=${r##*:}
	if ! printf '%s\n' "$have" | grep -qxF "$name"; then
		echo "lint: ${r%:*}: cites $name, which is not in the repository: cite docs/design/ (or write the note there)" >&2
		bad=1
	fi
done
exit "$bad"
