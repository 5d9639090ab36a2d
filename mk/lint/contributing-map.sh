#!/bin/sh
# contributing-map.sh TOP: CONTRIBUTING.md's module table names every
# directory under src/ and nothing else, so the map a newcomer reads is the
# tree they open.
set -u
cd "${1:?usage: contributing-map.sh TOP}" || exit 2
[ -f CONTRIBUTING.md ] || exit 0
bad=0
documented=$(sed -n 's/^| `src\/\([a-z0-9_]*\)\/` |.*/\1/p' CONTRIBUTING.md | sort -u)
for d in src/*/; do
	m=${d#src/}
	m=${m%/}
	printf '%s\n' "$documented" | grep -qxF "$m" && continue
	echo "lint: src/$m/ has no row in CONTRIBUTING.md's module table: add one (what it does, its library)" >&2
	bad=1
done
for m in $documented; do
	[ -d "src/$m" ] && continue
	echo "lint: CONTRIBUTING.md's module table names src/$m/, which does not exist: delete or rename the row" >&2
	bad=1
done
exit $bad
