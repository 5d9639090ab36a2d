#!/bin/sh
# labels-once.sh - every label key and value gpusite writes on what it
# owns is spelled once, in src/inventory/inventory_labels.h, and the
# names of owned objects are derived only by src/inventory/
# (docs/design/inventory.md).  Fails on a string literal of one of those
# labels elsewhere in src/ (comments may name them), and on code outside
# src/inventory/ that reads the names the spec leaves out
# (fallback.node_pool_name / node_class_name) instead of the inventory.
# Usage: sh mk/lint/labels-once.sh [top]   (run from the top of the tree)
top=${1:-.}
cd "$top" || exit 2
[ -d src ] || exit 0
status=0

files=$(find src -name '*.[ch]' ! -path 'src/inventory/*' | LC_ALL=C sort)
[ -n "$files" ] || { echo "labels-once: no sources under $top/src" >&2; exit 2; }

# the literals: a gpusite.io/ label key, node-type and its values,
# gpu.model, the default pool and class names, the names of the site's
# objects (gpusite-...) and of the fallback plugin's release; strip
# comments first
# shellcheck disable=SC2086
hits=$(awk '
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
		if (out ~ /"[^"]*(gpusite\.io\/(site|cluster|node-group|node-image)|cloud-gpu-fallback|hybrid-gpu|-gpu-fallback)[^"]*"/ ||
		    out ~ /"(node-type|gpu\.model|gpu-fallback|nvidia-device-plugin-fallback)"/ ||
		    out ~ /"gpusite-[^"]*"/ || out ~ /-placement"/)
			printf "%s:%d: %s\n", FILENAME, FNR, $0
	}' $files)
if [ -n "$hits" ]; then
	echo "labels-once: a label or owned name gpusite writes is spelled outside src/inventory/inventory_labels.h:" >&2
	echo "$hits" >&2
	echo "labels-once: use the INV_* names of inventory/inventory_labels.h" >&2
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
