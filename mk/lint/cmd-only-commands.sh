#!/bin/sh
# cmd-only-commands.sh TOP: src/cmd/ holds commands only - cmd_*.c,
# commands.c, opts*.c, cmd.h, opts*.h.  Library code still waiting to move
# out is listed in mk/lint/cmd-allow.txt (one file name a line, '#'
# comments); whoever moves a file deletes its line, and a line naming a
# file that is gone fails too, so the list only shrinks.
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
for b in $names; do
	if [ ! -e "src/cmd/$b" ]; then
		echo "lint: $allow names src/cmd/$b, which no longer exists: delete its line" >&2
		bad=1
	fi
done
exit "$bad"
