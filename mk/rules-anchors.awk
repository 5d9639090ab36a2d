# rules-anchors.awk - give every catalogue row of docs/rules.md whose
# "how to fix" is written an anchor, <a id="gs041"></a>, at the start of
# that cell (GitHub renders no anchor for a table row by itself).
/^<!-- catalogue: begin -->/ { table = 1 }
/^<!-- catalogue: end -->/ { table = 0 }
table && /^\| GS[0-9]+ \| / {
	n = split($0, c, / \| /)
	fix = c[n]
	sub(/ \|$/, "", fix)
	id = substr(c[1], 3)
	if (n == 4 && fix != "" && fix !~ /^<a id="/) {
		c[4] = "<a id=\"" tolower(id) "\"></a>" c[4]
		$0 = c[1] " | " c[2] " | " c[3] " | " c[4]
	}
}
{ print }
