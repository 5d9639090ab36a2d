#!/bin/sh
# road.sh TOP: no include points up the road.  Each module of src/ has a
# rank (below: lower first, from docs/design/road.md and the includes of the
# tree); a file may include headers of its own module and of modules of a
# lower rank only.  Known back arrows, each with its reason, are listed in
# mk/lint/road-allow.txt as "src/<file> <module>/<header>  # why"; a line
# that no longer matches an include fails too, so the list only shrinks.
# A module missing from the table fails: give it its rank here.
set -u
cd "${1:?usage: road.sh TOP}" || exit 2
[ -d src ] || exit 0

ranks='
base 0
regex 1
node 2
k8s 3
source 4
yamlio 5
json 6
kube 7
schema 8
spec 9
inventory 10
scope 11
diff 12
live 13
rules 14
render 15
emit 16
report 17
check 18
pipeline 19
drill 20
fleetpage 21
explain 22
argocd 23
hydrate 24
cli 25
cmd 26
'
allow=mk/lint/road-allow.txt
allowed=
[ -f "$allow" ] && allowed=$(sed -e 's/#.*//' "$allow" | awk 'NF >= 2 { print $1 " " $2 }')

out=$(find src -mindepth 2 -name '*.[ch]' | LC_ALL=C sort |
	xargs grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[a-z0-9_]+/' /dev/null |
	awk -v ranks="$ranks" -v allowed="$allowed" '
	BEGIN {
		n = split(ranks, r, "\n")
		for (i = 1; i <= n; i++)
			if (split(r[i], f, " ") == 2)
				rank[f[1]] = f[2] + 0
		n = split(allowed, r, "\n")
		for (i = 1; i <= n; i++)
			if (r[i] != "")
				ok[r[i]] = 0
		bad = 0
	}
	{
		file = $0; sub(/:.*/, "", file)
		hdr = $0; sub(/^[^"]*"/, "", hdr); sub(/".*/, "", hdr)
		split(file, p, "/"); from = p[2]
		split(hdr, q, "/"); to = q[1]
		if (!(from in rank)) { unknown[from] = 1; next }
		if (from == to) next
		if (!(to in rank)) { unknown[to] = 1; next }
		if (rank[to] < rank[from]) next
		key = file " " hdr
		if (key in ok) { ok[key] = 1; next }
		line = $0; sub(/^[^:]*:/, "", line); sub(/:.*/, "", line)
		printf "lint: %s:%s includes %s: %s (rank %d) is above %s (rank %d) on the road; move the code down or the call up, see mk/lint/road.sh\n", file, line, hdr, to, rank[to], from, rank[from]
		bad = 1
	}
	END {
		for (m in unknown) {
			printf "lint: module src/%s/ has no rank in mk/lint/road.sh: add it to the table\n", m
			bad = 1
		}
		for (k in ok)
			if (!ok[k]) {
				printf "lint: mk/lint/road-allow.txt lists \"%s\", which is no longer included: delete its line\n", k
				bad = 1
			}
		exit bad
	}')
rc=$?
[ -n "$out" ] && printf '%s\n' "$out" | LC_ALL=C sort >&2
exit "$rc"
