#!/bin/sh
# t6420: validate keeps no file's tree once its own checks are done, and
# render of a fleet of RENDER_LEAN_FILES (2,000) files or more reads each
# batch's sites again instead of keeping every tree (src/cmd/pipeline.c,
# pipeline_load_lean; src/cmd/cmd_render.c); the stream of a large render
# waits in an unnamed temporary file, not in memory.
#   - the lean render is the same bytes (stream, NodeConfig and values
#     files, YAML and JSON) as the whole-model render that --site asks
#     for, on 2,100 sites in shared and single clusters (a 28 MB stream:
#     past SPOOL_AFTER, 16 MiB, the rest of it goes through the spool);
#   - structural memory guards, from the peak RSS (no timing): validate
#     costs under 6 KiB per extra site from 400 to 4,000 sites (it was
#     16 KiB when every tree was kept), and render's peak at 4,000 sites
#     is under 100 MB (it was 180 MB: trees, the text and a copy of it).
# The findings of the lean validate are the golden cases' (t1000), whose
# cross-file rules (GS004, GS005, GS046, GS047, GS100, GS107) read files
# again.  The lean road is taken only when every check_fleet rule in the
# table declares the keys it compares (struct rule's fleet_keys): a new
# cross-file rule that declares none turns it off, and the two
# memory guards below fail until it is.
. "$TEST_TOP/tests/lib.sh"

export SSM_ACTIVATION_CODE_RACK_B=Rb0aXw9Lq2Zt7Ke4Vn1Hs8Dc

# peak_kib CMD...: the peak resident memory of CMD, in KiB (run in the
# current directory, output discarded); fails when CMD fails.
peak_kib() {
	python3 - "$@" <<-\EOF
	import resource, subprocess, sys
	r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
	if r.returncode != 0:
	    sys.exit("exit %d from %s" % (r.returncode, " ".join(sys.argv[1:])))
	print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
	EOF
}

F="$SCRATCH/fleet"
sh "$TEST_TOP/bench/gen-fleet.sh" 2100 "$F" || exit 1
# the first 300 sites in 20 shared clusters, so batches hold whole clusters;
# each with namespaces of its own (sites of one cluster may not share a
# placement scope, GS171)
for f in "$F"/sites/site-00[0-2]*.yaml; do
	i=$(basename "$f" .yaml | sed 's/^site-0*//')
	sed -e "s/name: cluster-[0-9]*/name: shared-$((i % 20))/" \
		-e "s/namespaces: \[inference, batch\]/namespaces: [inference-$i, batch-$i]/" \
		"$f" >"$f.tmp" && mv "$f.tmp" "$f"
done
all=$(ls "$F/sites" | sed 's/\.yaml$//' | paste -sd, -)

test_expect_success 'the 2,100-site fleet is valid' '
	(cd "$F" && "$GPUSITE" validate -q sites)
'

for fmt in yaml json; do
	test_expect_success "lean render = whole-model render ($fmt)" "
		(cd \"\$F\" && \"\$GPUSITE\" render -q --format $fmt sites >\"\$SCRATCH/lean.$fmt\") &&
		(cd \"\$F\" && \"\$GPUSITE\" render -q --format $fmt --site \"\$all\" sites >\"\$SCRATCH/whole.$fmt\") &&
		test -s \"\$SCRATCH/whole.$fmt\" &&
		test_cmp \"\$SCRATCH/whole.$fmt\" \"\$SCRATCH/lean.$fmt\"
	"
done

test_expect_success 'lean render -o, --nodeconfigs and --values = whole-model render' '
	(cd "$F" && "$GPUSITE" render -q -o "$SCRATCH/l/stream.yaml" --nodeconfigs "$SCRATCH/l/nc" \
		--values "$SCRATCH/l/values" sites) &&
	(cd "$F" && "$GPUSITE" render -q -o "$SCRATCH/w/stream.yaml" --nodeconfigs "$SCRATCH/w/nc" \
		--values "$SCRATCH/w/values" --site "$all" sites) &&
	diff -r "$SCRATCH/w" "$SCRATCH/l" &&
	test_cmp "$SCRATCH/whole.yaml" "$SCRATCH/l/stream.yaml"
'

test_expect_success 'a finding stops the lean render: nothing on stdout, exit 1' '
	cp -r "$F" "$SCRATCH/bad" &&
	sed "s/name: site-02050$/name: site-00007/" "$SCRATCH/bad/sites/site-02050.yaml" \
		>"$SCRATCH/bad/sites/x.tmp" && mv "$SCRATCH/bad/sites/x.tmp" "$SCRATCH/bad/sites/site-02050.yaml" &&
	(cd "$SCRATCH/bad" && expect_exit 1 "$GPUSITE" render sites >"$SCRATCH/bad.out" 2>"$SCRATCH/bad.err") &&
	test ! -s "$SCRATCH/bad.out" &&
	grep -F "sites/site-02050.yaml:4:9: error: site name '\''site-00007'\'' is already used by another site" "$SCRATCH/bad.err" &&
	(cd "$SCRATCH/bad" && expect_exit 1 "$GPUSITE" validate -q sites 2>"$SCRATCH/badv.err") &&
	grep -c "\[GS004\]" "$SCRATCH/badv.err" >"$SCRATCH/n" && test "$(cat "$SCRATCH/n")" = 1
'

if [ -n "${GPUSITE_SANITIZE:-}${GPUSITE_VALGRIND:-}" ]; then
	# make asan / make valgrind: the figure would be the tool's shadow
	# memory and quarantine (and ARENA_DEBUG's block per allocation), not
	# gpusite's; the plain make test run keeps both guards
	test_skip "validate: under 6 KiB of peak memory per extra site" "sanitizer or valgrind run"
	test_skip "render: under 100 MB of peak memory at 4,000 sites" "sanitizer or valgrind run"
else
test_expect_success 'validate: under 6 KiB of peak memory per extra site, 400 -> 4,000 sites' '
	sh "$TEST_TOP/bench/gen-fleet.sh" 400 "$SCRATCH/f400" &&
	sh "$TEST_TOP/bench/gen-fleet.sh" 4000 "$SCRATCH/f4000" &&
	small=$(cd "$SCRATCH/f400" && peak_kib "$GPUSITE" validate -q sites) &&
	big=$(cd "$SCRATCH/f4000" && peak_kib "$GPUSITE" validate -q sites) &&
	echo "validate: $small KiB at 400 sites, $big KiB at 4,000 (over 6 KiB a site: does every check_fleet rule declare fleet_keys?)" &&
	awk -v s="$small" -v b="$big" "BEGIN { r = (b - s) / 3600; printf \"%.1f KiB per site\\n\", r; exit !(r < 6) }"
'

test_expect_success 'render: under 100 MB of peak memory at 4,000 sites' '
	kib=$(cd "$SCRATCH/f4000" && peak_kib "$GPUSITE" render -q sites) &&
	echo "render: $kib KiB at 4,000 sites (over 100 MB: does every check_fleet rule declare fleet_keys?)" &&
	test "$kib" -lt 102400
'
fi

test_done
