#!/bin/sh
# t2012-render-every-fleet.sh - what every fleet of the tree renders stays
# byte for byte what testdata/render-digests.txt records: each sites/
# directory under testdata/ and examples/, rendered as YAML and as JSON,
# with its exit code and the SHA-256 of its stdout.  A refactoring of how
# objects are derived (docs/design/inventory.md) must leave this file
# unchanged; a change meant to alter output updates it with
#   GPUSITE_UPDATE_DIGESTS=1 TEST_TOP=$PWD sh tests/e2e/t2012-render-every-fleet.sh
# and the diff of the digests shows which fleets it touched.
. "$TEST_TOP/tests/lib.sh"

cd "$SCRATCH" || exit 1
digests="$TEST_TOP/testdata/render-digests.txt"

# prints "DIR FORMAT EXIT SHA256" for every fleet, sorted
render_all() {
	(cd "$TEST_TOP" &&
		find testdata examples -type d -name sites | LC_ALL=C sort |
		while read -r dir; do
			for fmt in yaml json; do
				"$GPUSITE" render --format "$fmt" "$dir" >"$SCRATCH/out" 2>/dev/null
				rc=$?
				sum=$(sha256sum <"$SCRATCH/out") || return 1
				printf "%s %s %s %s\n" "$dir" "$fmt" "$rc" "${sum%% *}" || return 1
			done
		done)
}

test_expect_success 'every fleet renders what the digests record' '
	render_all >actual &&
	if test -n "${GPUSITE_UPDATE_DIGESTS:-}"
	then
		cp actual "$digests"
	fi &&
	test_cmp "$digests" actual
'

test_expect_success 'the digests cover fleets that render objects, and fleets that fail' '
	test "$(grep -c " 0 " "$digests")" -ge 40 &&
	grep -q " [13] " "$digests" &&
	test "$(awk "\$3 == 0" "$digests" | awk "{ print \$4 }" | sort -u | wc -l)" -ge 40
'

test_done
