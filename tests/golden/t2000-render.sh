#!/bin/sh
# t2000-render.sh - golden render cases: testdata/render/<case>/ holds the
# input (sites/, or a file `path` naming the input relative to the case),
# optional `args` (extra render/explain arguments, one line) and `env`
# (NAME=value lines for SSM activation codes), and expected/:
#   stream.yaml    gpusite render                    (always)
#   stream.json    gpusite render --format json      (when present)
#   nodeconfigs/   gpusite render --nodeconfigs DIR  (when present)
#   values/        gpusite render --values DIR       (when present)
#   explain.txt    gpusite explain                   (when present)
# Every comparison is byte for byte.  GOLDEN_UPDATE=1 rewrites expected/
# instead (make golden-update-render).
. "$TEST_TOP/tests/lib.sh"

cases="$TEST_TOP/testdata/render"

check_file() {	# check_file EXPECTED ACTUAL
	if [ "${GOLDEN_UPDATE:-}" = 1 ]; then
		mkdir -p "$(dirname "$1")" && cp "$2" "$1"
	else
		test_cmp "$1" "$2"
	fi
}

check_tree() {	# check_tree EXPECTED_DIR ACTUAL_DIR
	if [ "${GOLDEN_UPDATE:-}" = 1 ]; then
		rm -rf "$1" && mkdir -p "$1" && cp -R "$2"/. "$1"/
	else
		diff -ru "$1" "$2"
	fi
}

for dir in "$cases"/*/; do
	dir=${dir%/}
	name=$(basename "$dir")
	exp="$dir/expected"
	out="$SCRATCH/$name"
	mkdir -p "$out"

	test_expect_success "$name: stream.yaml" '
		run_in_case "$dir" render >"$out/stream.yaml" 2>"$out/stderr" &&
		test -s "$out/stream.yaml" &&
		check_file "$exp/stream.yaml" "$out/stream.yaml"
	'
	if [ -f "$exp/stream.json" ]; then
		test_expect_success "$name: stream.json" '
			run_in_case "$dir" render --format json >"$out/stream.json" &&
			check_file "$exp/stream.json" "$out/stream.json"
		'
	fi
	if [ -d "$exp/nodeconfigs" ]; then
		test_expect_success "$name: nodeconfigs/" '
			run_in_case "$dir" render -o "$out/ignored.yaml" \
				--nodeconfigs "$out/nodeconfigs" &&
			check_tree "$exp/nodeconfigs" "$out/nodeconfigs"
		'
	fi
	if [ -d "$exp/values" ]; then
		test_expect_success "$name: values/" '
			run_in_case "$dir" render -o "$out/ignored.yaml" \
				--values "$out/values" &&
			check_tree "$exp/values" "$out/values"
		'
	fi
	if [ -f "$exp/explain.txt" ]; then
		test_expect_success "$name: explain.txt" '
			run_in_case "$dir" explain >"$out/explain.txt" &&
			check_file "$exp/explain.txt" "$out/explain.txt"
		'
	fi
done

test_done
