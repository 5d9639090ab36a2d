#!/bin/sh
# demo.sh BIN: a short tour on the example fleet (testdata/fleet).  Each
# step is one line of the `steps` list below - a title and a command
# line, where `gpusite` is the binary under test - so adding a step is
# adding a line.  Exits 0 only when every step does.
set -eu
bin=${1:?usage: demo.sh BIN}
top=$(cd "$(dirname "$0")/.." && pwd)
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
cd "$top/testdata/fleet"

gpusite() { "$bin" "$@"; }

steps='
validate the example fleet (text findings on stderr, summary line)|gpusite validate
the same check as JSON for machines|gpusite validate --format json
start the example cluster, show diff --live and drift against it, stop it|sh "$top/mk/demo-live.sh" "$bin"
'

failed=0
echo "$steps" | while IFS='|' read -r title cmd; do
	[ -n "$title" ] || continue
	printf '\n== %s\n$ %s\n' "$title" "$cmd"
	eval "$cmd" 2>&1 || { echo "demo: step failed: $cmd" >&2; exit 1; }
done || failed=1
[ "$failed" -eq 0 ] && printf '\ndemo: every step passed (run from %s)\n' "testdata/fleet"
exit "$failed"
