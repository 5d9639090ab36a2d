#!/bin/sh
# validate.sh [BIN] [N]: time `gpusite validate` over N generated sites
# (default 1000, one file each): the median wall time of 5 runs and the
# peak memory, in one line.  Not part of `make test` (timings vary).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$top/build/gpusite}
n=${2:-1000}
runs=5
[ -x "$bin" ] || { echo "validate.sh: no binary at $bin (make first)" >&2; exit 2; }
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac

dir=$(mktemp -d "${TMPDIR:-/tmp}/gpusite-bench.XXXXXX")
trap 'rm -rf "$dir"' EXIT
sh "$top/bench/gen-fleet.sh" "$n" "$dir"
cd "$dir"
# the fleet must be valid, or the figure would time the error path
"$bin" validate -q sites || { echo "validate.sh: the generated fleet does not validate" >&2; exit 1; }
bytes=$(cat sites/*.yaml | wc -c | tr -d ' ')

times=""
for _ in $(seq "$runs"); do
	start=$(date +%s%N)
	"$bin" validate -q sites
	end=$(date +%s%N)
	times="$times $(( (end - start) / 1000 ))"	# microseconds
done
median_us=$(echo "$times" | tr ' ' '\n' | sed '/^$/d' | sort -n | sed -n "$(( (runs + 1) / 2 ))p")

rss=""
if [ -x /usr/bin/time ]; then
	kib=$(/usr/bin/time -f %M "$bin" validate -q sites 2>&1 >/dev/null | tail -n 1)
	rss=", peak RSS $((kib / 1024)) MiB"
fi
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
printf 'validate: %s sites (%s files, %s KiB) in %d.%03d s (median of %d)%s; %s CPUs%s\n' \
	"$n" "$(ls sites | wc -l | tr -d ' ')" "$((bytes / 1024))" \
	$((median_us / 1000000)) $(((median_us % 1000000) / 1000)) "$runs" "$rss" \
	"$(nproc 2>/dev/null || echo '?')" "${cpu:+, $cpu}"
