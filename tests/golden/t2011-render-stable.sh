#!/bin/sh
# t2011-render-stable: render of two fixed fleets is byte-identical to the
# output recorded before the restructure (tests/golden/stable/SHA256SUMS):
#   fleet/    the example fleet's sites, frozen in stable/fleet/sites with
#             the activation codes of stable/fleet.env
#   gen300/   300 sites from the frozen generator stable/gen-fleet.sh
# For each: `render -o stream.yaml --nodeconfigs nc --values values .`,
# `render --format json .` and `explain .`, run inside a copy of the fleet
# directory, outputs written beside it.
# A change in any rendered byte fails and names the first differing file.
# After a deliberate output change, regenerate the sums with
#   sh tests/golden/t2011-render-stable.sh --update
: "${TEST_TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$TEST_TOP/tests/lib.sh"

stable="$TEST_TOP/tests/golden/stable"
out="$SCRATCH/out"
update=
[ "${1:-}" = --update ] && update=1

# render_fleet NAME SPECDIR: the three outputs of SPECDIR/sites into
# $out/NAME, run in a copy of SPECDIR (outputs kept out of the spec paths)
render_fleet() {
	rf_dir="$out/$1" rf_in="$SCRATCH/in/$1"
	mkdir -p "$rf_dir" "$rf_in" && cp -R "$2/sites" "$rf_in/" || return 1
	(
		cd "$rf_in" || exit 1
		# shellcheck disable=SC2046
		# stderr (warnings) is not compared: new checks may warn; the
		# rendered bytes may not change
		env $(cat "$stable/fleet.env") "$GPUSITE" render -o "$rf_dir/stream.yaml" \
			--nodeconfigs "$rf_dir/nc" --values "$rf_dir/values" . 2>stderr ||
			{ cat stderr >&2; exit 1; }
		env $(cat "$stable/fleet.env") "$GPUSITE" render --format json . \
			>"$rf_dir/stream.json" 2>stderr || { cat stderr >&2; exit 1; }
		env $(cat "$stable/fleet.env") "$GPUSITE" explain . >"$rf_dir/explain.txt" \
			2>stderr || { cat stderr >&2; exit 1; }
	)
}

# sums: sha256 of every output file, in the layout of SHA256SUMS
sums() {
	(cd "$out" && find . -type f | LC_ALL=C sort | xargs sha256sum)
}

test_expect_success 'the example fleet renders (exit 0)' '
	render_fleet fleet "$stable/fleet"
'

test_expect_success 'the generated 300-site fleet renders (exit 0)' '
	sh "$stable/gen-fleet.sh" 300 "$SCRATCH/gen300" &&
	render_fleet gen300 "$SCRATCH/gen300"
'

if [ -n "$update" ]; then
	sums >"$stable/SHA256SUMS"
	echo "# SHA256SUMS rewritten; review with git diff"
fi

test_expect_success 'every rendered file is byte-identical to the recorded output' '
	sums >"$SCRATCH/now" &&
	if ! cmp -s "$stable/SHA256SUMS" "$SCRATCH/now"; then
		first=$(diff "$stable/SHA256SUMS" "$SCRATCH/now" |
			sed -n "s/^[<>] [0-9a-f]*  //p" | head -1)
		echo "render output changed; first differing file: $first" >&2
		diff "$stable/SHA256SUMS" "$SCRATCH/now" | head -20 >&2
		false
	fi
'

test_done
