#!/bin/sh
# cmd-only-commands.sh TOP: src/cmd/ holds commands only - cmd_*.c,
# commands.c, opts*.c, cmd.h, opts*.h.  Library code still waiting to move
# out is listed in mk/lint/cmd-allow.txt (one file name a line, '#'
# comments); whoever moves a file deletes its line, and a line naming a
# file that is gone fails too, so the list only shrinks.
#
# What the files define counts too: a command parses its options, calls
# the modules and prints what they return; it does not work on the site
# model itself.  A command that reads a site's content (groups, fallback,
# recovery, placement, the GPU stack, alerts, Argo CD settings, the taint,
# the cluster beyond its name) holds module logic: move it to the module
# whose concern it is (docs/design/road.md).  A site's identity - name,
# file, cluster name - is what a command prints and selects by.
set -u
cd "${1:?usage: cmd-only-commands.sh TOP}" || exit 2
[ -d src/cmd ] || exit 0
allow=mk/lint/cmd-allow.txt
names=
[ -f "$allow" ] && names=$(sed -e 's/#.*//' -e 's/[[:space:]]//g' "$allow" | grep -v '^$')
bad=0

for f in src/cmd/*; do
	[ -e "$f" ] || continue
	b=${f#src/cmd/}
	case $b in
	cmd_*.c | commands.c | opts.c | opts*.c | cmd.h | opts*.h) continue ;;
	esac
	if printf '%s\n' "$names" | grep -qxF "$b"; then
		continue
	fi
	echo "lint: $f is not a command: move library code to its module (src/pipeline/, src/argocd/, src/diff/, ...); src/cmd/ holds cmd_*.c, commands.c, opts*.c, cmd.h and opts*.h" >&2
	bad=1
done
# shellcheck disable=SC2046
hits=$(grep -HnE '(\<s|\<site|->site|\])->(gpu_taint|groups|group_count|gpu_stack|fallback|placement|recovery|alerts|argocd|doc)\>|(\<s|\<site|->site|\])->cluster\.([a-z_]+)' \
	$(find src/cmd -name '*.c' | LC_ALL=C sort) /dev/null | grep -v -- '->cluster\.name\>')
if [ -n "$hits" ]; then
	echo "lint: a command reads the site model; move that logic to its module (a command parses options, calls modules, prints):" >&2
	echo "$hits" | sed 's/^/  /' >&2
	bad=1
fi
for b in $names; do
	if [ ! -e "src/cmd/$b" ]; then
		echo "lint: $allow names src/cmd/$b, which no longer exists: delete its line" >&2
		bad=1
	fi
done
exit "$bad"
