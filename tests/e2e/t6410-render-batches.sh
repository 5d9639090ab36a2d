#!/bin/sh
# t6410: render keeps a large fleet's objects as text, a few whole clusters
# at a time (src/cmd/cmd_render.c, RENDER_BATCH): the stream, the NodeConfig
# files and the values files are the same bytes as one render of the whole
# fleet (which --site naming every site asks for), for clusters of one
# site and clusters of 25 sites that cross any batch boundary, in YAML and
# JSON; and a finding in one batch is still reported with every other.
. "$TEST_TOP/tests/lib.sh"

export SSM_ACTIVATION_CODE_RACK_B=Rb0aXw9Lq2Zt7Ke4Vn1Hs8Dc
F="$SCRATCH/fleet"

# 300 sites: the first 200 in 12 shared clusters (i mod 12 keeps their
# stack and provisioner alike), each with namespaces of its own (GS171),
# the rest one cluster each.
sh "$TEST_TOP/bench/gen-fleet.sh" 300 "$F" || exit 1
for f in "$F"/sites/*.yaml; do
	i=$(basename "$f" .yaml | sed 's/^site-0*//')
	if [ "$i" -le 200 ]; then
		sed -e "s/name: cluster-[0-9]*/name: shared-$((i % 12))/" \
			-e "s/namespaces: \[inference, batch\]/namespaces: [inference-$i, batch-$i]/" \
			"$f" >"$f.tmp" && mv "$f.tmp" "$f"
	fi
done
all=$(ls "$F/sites" | sed 's/\.yaml$//' | paste -sd, -)

test_expect_success 'the test fleet is valid and shares clusters' '
	(cd "$F" && "$GPUSITE" validate -q sites) &&
	test "$(grep -l "name: shared-3$" "$F"/sites/*.yaml | wc -l)" -ge 16
'

for fmt in yaml json; do
	test_expect_success "batched render = one render of the fleet ($fmt)" "
		(cd \"\$F\" && \"\$GPUSITE\" render --format $fmt sites >\"\$SCRATCH/batched.$fmt\") &&
		(cd \"\$F\" && \"\$GPUSITE\" render --format $fmt --site \"\$all\" sites >\"\$SCRATCH/whole.$fmt\") &&
		test -s \"\$SCRATCH/whole.$fmt\" &&
		test_cmp \"\$SCRATCH/whole.$fmt\" \"\$SCRATCH/batched.$fmt\"
	"
done

test_expect_success 'batched --nodeconfigs and --values files = one render of the fleet' '
	(cd "$F" && "$GPUSITE" render -o "$SCRATCH/b/stream.yaml" --nodeconfigs "$SCRATCH/b/nc" \
		--values "$SCRATCH/b/values" sites) &&
	(cd "$F" && "$GPUSITE" render -o "$SCRATCH/w/stream.yaml" --nodeconfigs "$SCRATCH/w/nc" \
		--values "$SCRATCH/w/values" --site "$all" sites) &&
	diff -r "$SCRATCH/w" "$SCRATCH/b" &&
	test "$(find "$SCRATCH/b/values" -type f | wc -l)" -eq 168 &&
	test "$(stat -c %a "$SCRATCH/b/nc/site-00001/rack-b.yaml")" = 600
'

test_expect_success 'one Application per shared cluster, whichever batch its sites were in' '
	test "$(grep -c "^  name: shared-3-" "$SCRATCH/batched.yaml")" -eq 1
'

test_expect_success 'findings from several batches are all reported, nothing printed' '
	unset SSM_ACTIVATION_CODE_RACK_B &&
	(cd "$F" && expect_exit 3 "$GPUSITE" render --nodeconfigs "$SCRATCH/x" sites \
		>"$SCRATCH/out" 2>"$SCRATCH/err") &&
	test ! -s "$SCRATCH/out" &&
	test "$(grep -c "\[GS192\]$" "$SCRATCH/err")" -eq 300 &&
	test ! -e "$SCRATCH/x"
'

test_done
