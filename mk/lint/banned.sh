#!/bin/sh
# banned.sh TOP: no call in the C files of src/, tests/, fuzz/, bench/ or mk/
# of a function src/base/banned.h bans
# The compiler refuses them too (the Makefile puts src/base/compat.h, and
# through it banned.h, before every C file); this check also reads the
# files no build of this machine compiles and names every call at once.
set -u
cd "${1:?usage: banned.sh TOP}" || exit 2
re='(^|[^A-Za-z0-9_.>])(strcpy|strcat|strncpy|strncat|sprintf|vsprintf|atoi|atol|atoll|gets|strtok|asctime|ctime|gmtime|localtime)[[:space:]]*\('
dirs=
for d in src tests/unit tests/tools fuzz bench mk; do [ -d "$d" ] && dirs="$dirs $d"; done
[ -n "$dirs" ] || exit 0
# shellcheck disable=SC2086
hits=$(grep -rnE --include='*.c' --include='*.h' "$re" $dirs |
	grep -v '^src/base/banned\.h:' |
	grep -vE '^[^:]*:[0-9]+:[[:space:]]*(/?\*|//)' || true)
if [ -n "$hits" ]; then
	echo "lint: banned function called (see src/base/banned.h for why and what to use):" >&2
	echo "$hits" | sed 's/^/  /' >&2
	exit 1
fi
exit 0
