#!/bin/sh
# commit.sh: the commit `gpusite --version` names, on stdout (nothing when
# none is known).  .commit first: `git archive` fills it in (export-subst,
# .gitattributes) and `make deb` writes it; else HEAD when the current
# directory is the top of a git checkout, "-dirty" with uncommitted changes.
c=$(head -n 1 .commit 2>/dev/null)
# git archive writes the full hash: the first 12 digits, as rev-parse --short
[ ${#c} -eq 40 ] && c=$(echo "$c" | cut -c1-12)
case $c in
*Format* | "")
	c=
	if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ]; then
		c=$(git rev-parse --short=12 HEAD 2>/dev/null) || c=
		if [ -n "$c" ] && ! git diff --quiet HEAD -- 2>/dev/null; then
			c=$c-dirty
		fi
	fi
	;;
esac
[ -z "$c" ] || echo "$c"
