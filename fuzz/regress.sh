#!/bin/sh
# regress.sh FUZZ_O: run every built fuzz target over its seeds
# (fuzz/seeds.sh) and its kept regression inputs (fuzz/corpus/<target>:
# inputs that once crashed, leaked or hung), then a short fresh run
# (FUZZ_SHORT seconds, default 10).  TAP output, one test a step; a
# failing step prints the end of libFuzzer's log and keeps the crashing
# input in $FUZZ_O/artifacts/ so it can be replayed and added to the corpus.
set -u
O=${1:-build-fuzz}
short=${FUZZ_SHORT:-10}
n=0 failed=0
scratch=$(mktemp -d "${TMPDIR:-/tmp}/gpusite-fuzz.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
artifacts="$O/artifacts"
mkdir -p "$artifacts"
# libFuzzer's own limits; leaks are failures (LeakSanitizer is on)
opts="-timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048"

for t in "$O"/fuzz/fuzz_*; do
	[ -x "$t" ] || continue
	name=$(basename "$t")
	seeds="$scratch/$name-seeds"
	work="$scratch/$name-work"
	mkdir -p "$seeds" "$work" "fuzz/corpus/$name"
	i=0
	for f in $(sh fuzz/seeds.sh "$name"); do
		i=$((i + 1))
		cp "$f" "$seeds/$i"
	done
	kept=$(find "fuzz/corpus/$name" -type f | wc -l | tr -d ' ')
	n=$((n + 1))
	# shellcheck disable=SC2086
	if "$t" -runs=0 $opts -artifact_prefix="$artifacts/$name-" \
		"$seeds" "fuzz/corpus/$name" >"$scratch/$name.log" 2>&1; then
		echo "ok $n - $name replays $i seeds and $kept kept inputs"
	else
		echo "not ok $n - $name replays $i seeds and $kept kept inputs"
		tail -40 "$scratch/$name.log" | sed 's/^/#   /'
		failed=$((failed + 1))
	fi
	n=$((n + 1))
	# shellcheck disable=SC2086
	if "$t" -max_total_time="$short" $opts -max_len=65536 \
		-artifact_prefix="$artifacts/$name-" "$work" "$seeds" \
		"fuzz/corpus/$name" >"$scratch/$name.run" 2>&1; then
		echo "ok $n - $name survives a ${short}s run ($(grep -o 'Done [0-9]* runs' "$scratch/$name.run" | tr -dc 0-9) executions)"
	else
		echo "not ok $n - $name survives a ${short}s run"
		tail -40 "$scratch/$name.run" | sed 's/^/#   /'
		ls "$artifacts/$name-"* 2>/dev/null | sed 's/^/#   kept: /'
		failed=$((failed + 1))
	fi
done
echo "1..$n"
[ "$n" -gt 0 ] && [ "$failed" -eq 0 ]
