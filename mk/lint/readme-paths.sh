#!/bin/sh
# readme-paths.sh TOP: the README speaks to users, who have no test layout:
# a path of it (../shared/..., shared/upstream) may appear only in a
# section that says it is for contributors (the words "for contributors"
# in the section's own text, between its heading and the next heading).
# Headings inside fenced code blocks are not headings.
set -u
cd "${1:?usage: readme-paths.sh TOP}" || exit 2
[ -f README.md ] || exit 0
awk '
function flush(i) {
	if (!marked)
		for (i = 1; i <= n; i++)
			printf "lint: README.md:%s: a path of the test layout in \"%s\", a section for users: speak of what the user downloads, or say the section is for contributors\n", hits[i], title > "/dev/stderr"
	bad = bad || (!marked && n > 0)
	n = 0; marked = 0
}
BEGIN { title = "(top)" }
/^```/ { fence = !fence }
!fence && /^#+ / { flush(); title = $0; sub(/^#+ /, "", title); next }
/[Ff]or contributors/ { marked = 1 }
/\.\.\/shared|(^|[^A-Za-z0-9_-])shared\/upstream/ { hits[++n] = NR }
END { flush(); exit bad }
' README.md
