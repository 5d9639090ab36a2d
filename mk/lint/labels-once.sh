#!/bin/sh
# labels-once.sh - every label key and value, taint key and owned name
# gpusite writes is spelled once, in src/inventory/inventory_labels.h; the
# names of owned objects are derived only by src/inventory/; and a pool
# role is an inventory entry, never a branch (docs/design/inventory.md).
# Outside src/inventory/ it fails on:
#   - a string literal that holds one of the header's names (comments may
#     name them).  The names are read from the header, not listed here:
#     a prefix ("gpusite-") fails a literal that starts with it, a suffix
#     ("-gpu-burst") or a key with '/' or '.' ("gpusite.io/pool") one that
#     holds it, any other name with a '-' ("node-type") a literal that is
#     exactly it.  Plain words ("true", "burst") are left alone: they are
#     words of messages too; so are the names the header marks as
#     upstream's name too (a Helm chart's, Kubernetes' own), and prose (a
#     literal with a space may name a label, as a comment may).  A label
#     key "gpusite.io/<key>" fails whether or not the header has it yet
#     (API groups, "gpusite.io/v1alpha1" or ".../<kind>/v1", do not);
#   - a pool role's enumerator (INV_ROLE_<...>_POOL), inventory_pool()
#     (the look-up by role) or a pool's noun compared with a literal (the
#     role by another name): modules loop over the site's pools and read
#     what the entry says;
#   - code that reads the names the spec leaves out
#     (fallback.node_pool_name / node_class_name) instead of the inventory.
# Usage: sh mk/lint/labels-once.sh [top]   (run from the top of the tree)
top=${1:-.}
cd "$top" || exit 2
[ -d src ] || exit 0
status=0
header=src/inventory/inventory_labels.h

files=$(find src -name '*.[ch]' ! -path 'src/inventory/*' | LC_ALL=C sort)
[ -n "$files" ] || { echo "labels-once: no sources under $top/src" >&2; exit 2; }
[ -f "$header" ] || header=/dev/null

# shellcheck disable=SC2086
hits=$(awk '
	# the header: #define INV_<NAME> "<value>"
	FILENAME == HDR {
		if ($1 == "#define" && $3 ~ /^"[^"]*"$/ && $0 !~ /upstream.s name/)
			names[++n] = substr($3, 2, length($3) - 2)
		next
	}
	FNR == 1 { incomment = 0 }
	{
		line = $0
		out = ""
		while (line != "") {
			if (incomment) {
				i = index(line, "*/")
				if (!i) { line = ""; break }
				line = substr(line, i + 2); incomment = 0
				continue
			}
			i = index(line, "/*")
			if (!i) { out = out line; break }
			out = out substr(line, 1, i - 1)
			line = substr(line, i + 2); incomment = 1
		}
		gsub(/\\\\/, "", out)
		gsub(/\\"/, "", out)
		hit = ""
		rest = out
		while (!hit && match(rest, /"[^"]*"/)) {
			lit = substr(rest, RSTART + 1, RLENGTH - 2)
			rest = substr(rest, RSTART + RLENGTH)
			if (index(lit, " "))
				continue
			if (match(lit, /gpusite\.io\/[a-z0-9.-]+/)) {
				key = substr(lit, RSTART, RLENGTH)
				if (key !~ /^gpusite\.io\/v[0-9]/ &&
				    substr(lit, RSTART + RLENGTH, 1) != "/")
					hit = key
			}
			for (k = 1; !hit && k <= n; k++) {
				v = names[k]
				if (v ~ /-$/)
					found = index(lit, v) == 1
				else if (v ~ /^-/ || v ~ /[\/.]/)
					found = index(lit, v) > 0
				else if (v ~ /-/)
					found = lit == v
				else
					found = 0
				if (found)
					hit = v
			}
		}
		if (hit)
			printf "%s:%d: %s (holds %s)\n", FILENAME, FNR, $0, hit
	}' HDR="$header" "$header" $files)
if [ -n "$hits" ]; then
	echo "labels-once: a label or owned name gpusite writes is spelled outside src/inventory/inventory_labels.h:" >&2
	echo "$hits" >&2
	echo "labels-once: use the INV_* names of inventory/inventory_labels.h" >&2
	status=1
fi

# shellcheck disable=SC2086
hits=$(grep -HnE '\bINV_ROLE_[A-Z0-9_]*_POOL\b|\binventory_pool\(|(strn?cmp|streq)\(([^,]*noun, *"|"[^"]*", *[^,)]*noun\b)|noun *[!=]= *"' $files)
if [ -n "$hits" ]; then
	echo "labels-once: code outside src/inventory/ branches on a pool role:" >&2
	echo "$hits" >&2
	echo "labels-once: loop over the site's pools (inventory_site()->pools) and read the entry's fields; a decision that differs by role is a field of struct inv_pool" >&2
	status=1
fi

# shellcheck disable=SC2086
hits=$(grep -HnE 'fallback\.node_(pool|class)_name|fb->node_(pool|class)_name' $files |
	grep -v '^src/spec/')
if [ -n "$hits" ]; then
	echo "labels-once: an owned object's name is read from the spec outside src/inventory/:" >&2
	echo "$hits" >&2
	echo "labels-once: read it from the site's inventory (inventory_site, inventory_pool)" >&2
	status=1
fi
exit $status
