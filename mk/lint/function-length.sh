#!/bin/sh
# function-length.sh TOP: no function in src/ runs over 100 lines, from the
# `{` that opens its body in column 0 to the `}` that closes it, so that a
# reader can hold any one of them.  A longer one is split into helpers
# named by what they do.  Data tables (a `static const` array) are no
# functions and do not count.
set -u
cd "${1:?usage: function-length.sh TOP}" || exit 2
[ -d src ] || exit 0
max=100
files=$(find src -name '*.c' | LC_ALL=C sort)
[ -n "$files" ] || exit 0
# shellcheck disable=SC2086
hits=$(awk -v max="$max" '
	FNR == 1 { open = 0; name = "" }
	/^[A-Za-z_][A-Za-z_0-9]*\(/ { name = $0; sub(/\(.*/, "", name) }
	/^\{/ && name != "" { open = FNR }
	/^\}/ && open {
		if (FNR - open > max)
			printf "%s:%d: %s: %d lines\n", FILENAME, open, name, FNR - open
		open = 0; name = ""
	}' $files)
if [ -n "$hits" ]; then
	echo "lint: functions over $max lines (split them into helpers named by what they do):" >&2
	echo "$hits" | sed 's/^/  /' >&2
	exit 1
fi
exit 0
