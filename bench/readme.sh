#!/bin/sh
# readme.sh TABLE README: put TABLE (what bench/run.sh printed) into README
# between the lines "<!-- bench: begin -->" and "<!-- bench: end -->", so
# that the Performance section shows the measured run and nothing older
# (`make bench-readme`).  Fails, changing nothing, when a marker is
# missing or doubled, or when TABLE is not a whole run (no Goals table).
# readme.sh --rows FILE: the rows a table in FILE has, without figures:
# "measure | sites" of the first table and "what | goal" of the Goals,
# one a line, from the marked section of a README or from a whole table.
set -u
begin='<!-- bench: begin -->'
end='<!-- bench: end -->'

if [ "${1:-}" = --rows ]; then
	file=${2:?usage: readme.sh --rows FILE}
	awk -v begin="$begin" -v end="$end" '
		$0 == begin { inside = 1; marked = 1; next }
		$0 == end { inside = 0; next }
		{ line[NR] = $0; in_section[NR] = inside }
		END {
			for (i = 1; i <= NR; i++) {
				if (!(i in line) || (marked && !in_section[i]))
					continue
				l = line[i]
				if (l ~ /^\| what \|/) goals = 1
				if (l !~ /^\| / || l ~ /^\| *-+ *\|/ || l ~ /^\| (measure|what) \|/)
					continue
				n = split(l, f, / *\| */)
				# f[1] is empty: the line starts with "|"
				if (goals)
					print "goal | " f[2] " | " f[4]
				else
					print "row | " f[2] " | " f[3]
			}
		}' "$file"
	exit
fi

table=${1:?usage: readme.sh TABLE README}
readme=${2:?usage: readme.sh TABLE README}
[ "$(grep -cxF "$begin" "$readme")" = 1 ] && [ "$(grep -cxF "$end" "$readme")" = 1 ] || {
	echo "bench: $readme needs one line \"$begin\" and one \"$end\" around the table" >&2
	exit 1
}
grep -q '^| what | measured | goal | verdict |$' "$table" || {
	echo "bench: $table is not a whole run of bench/run.sh (no Goals table)" >&2
	exit 1
}
awk -v begin="$begin" -v end="$end" -v table="$table" '
	$0 == begin {
		print
		print ""
		while ((getline l < table) > 0)
			print l
		print ""
		skip = 1
		next
	}
	$0 == end { skip = 0 }
	!skip' "$readme" >"$readme.tmp" && mv "$readme.tmp" "$readme"
