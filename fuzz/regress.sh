#!/bin/sh
# regress.sh FUZZ_O: run every built fuzz target over its seeds (files
# from testdata/) and its kept corpus (fuzz/corpus/<target>), then a short
# fresh run (FUZZ_SHORT seconds, default 10).  TAP output, one test a step.
set -u
O=${1:-build-fuzz}
short=${FUZZ_SHORT:-10}
n=0 failed=0
scratch=$(mktemp -d "${TMPDIR:-/tmp}/gpusite-fuzz.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

seed_files() {	# seed_files TARGET: paths of seed inputs, one a line
	case $1 in
	fuzz_json) find testdata -name '*.json' -size -256k ;;
	*) find testdata -name '*.yaml' -size -256k ;;
	esac
}

for t in "$O"/fuzz/fuzz_*; do
	[ -x "$t" ] || continue
	name=$(basename "$t")
	seeds="$scratch/$name-seeds"
	work="$scratch/$name-work"
	mkdir -p "$seeds" "$work"
	i=0
	for f in $(seed_files "$name"); do
		i=$((i + 1))
		cp "$f" "$seeds/$i"
	done
	mkdir -p "fuzz/corpus/$name"
	n=$((n + 1))
	if "$t" -runs=0 -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$scratch/" "$seeds" "fuzz/corpus/$name" \
		>"$scratch/$name.log" 2>&1; then
		echo "ok $n - $name replays $i seeds and its corpus"
	else
		echo "not ok $n - $name replays $i seeds and its corpus"
		tail -40 "$scratch/$name.log" | sed 's/^/#   /'
		failed=$((failed + 1))
	fi
	n=$((n + 1))
	if "$t" -max_total_time="$short" -timeout=10 -rss_limit_mb=2048 \
		-max_len=65536 -artifact_prefix="$scratch/" "$work" "$seeds" >"$scratch/$name.run" 2>&1; then
		echo "ok $n - $name survives a ${short}s run"
	else
		echo "not ok $n - $name survives a ${short}s run"
		tail -40 "$scratch/$name.run" | sed 's/^/#   /'
		ls "$scratch"/crash-* "$scratch"/timeout-* "$scratch"/leak-* 2>/dev/null | sed 's/^/#   crash: /'
		failed=$((failed + 1))
	fi
done
echo "1..$n"
[ "$n" -gt 0 ] && [ "$failed" -eq 0 ]
