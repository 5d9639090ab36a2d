#!/bin/sh
# t2072-render-fleet-clusters.sh - a cluster stream that holds the objects
# of more than one cluster (spec.cluster.name) fits no single cluster:
# render says so in one line on stderr, with how many clusters and the way
# to render one; stdout and the exit code are those of before.  The Argo
# CD Applications of --objects argocd are for a hub and may span the
# fleet: no note.  One cluster, or -q: silent.  generate, which refuses
# cluster objects of several clusters (GS118, t4005), is unchanged.
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

fleet="$TEST_TOP/testdata/fleet/sites"
HOW="it fits no single cluster: render one cluster at a time (--objects cluster --cluster NAME), or --objects argocd for a hub Argo CD"

# noted N NAMES: stderr is exactly the note for N clusters named NAMES.
noted() {
	printf 'gpusite render: note: the stream holds the objects of %s clusters (%s); %s\n' \
		"$1" "$2" "$HOW" >want &&
	test_cmp want err
}

test_expect_success 'a fleet of two clusters: the stream as ever, exit 0, one note' '
	"$GPUSITE" render "$fleet" >all.yaml 2>err &&
	noted 2 "inference-eu, my-hybrid-cluster" &&
	"$GPUSITE" render -q "$fleet" >quiet.yaml 2>quiet.err &&
	cmp all.yaml quiet.yaml &&
	test "$(grep -c "^---$" all.yaml)" -gt 10 &&
	grep -q "^    gpusite.io/cluster: inference-eu$" all.yaml &&
	grep -q "^    gpusite.io/cluster: my-hybrid-cluster$" all.yaml
'

test_expect_success '-q: no note' '
	test ! -s quiet.err
'

test_expect_success 'one cluster (--site): silent' '
	"$GPUSITE" render --site seoul-dc1,incheon-edge "$fleet" >one.yaml 2>err &&
	test ! -s err &&
	"$GPUSITE" render --site frankfurt-lab "$fleet" >two.yaml 2>err &&
	test ! -s err
'

test_expect_success '--objects cluster over the fleet: noted; over one cluster: silent' '
	"$GPUSITE" render --objects cluster "$fleet" >/dev/null 2>err &&
	noted 2 "inference-eu, my-hybrid-cluster" &&
	"$GPUSITE" render --objects cluster --site frankfurt-lab "$fleet" >/dev/null 2>err &&
	test ! -s err
'

test_expect_success '--cluster NAME: that cluster'\''s sites only, silent; both clusters: the whole stream' '
	"$GPUSITE" render --objects cluster --cluster my-hybrid-cluster "$fleet" >c1.yaml 2>err &&
	test ! -s err &&
	! grep -q "gpusite.io/site: frankfurt-lab$" c1.yaml &&
	grep -q "^    gpusite.io/site: seoul-dc1$" c1.yaml &&
	"$GPUSITE" render --objects cluster --site frankfurt-lab "$fleet" >f.yaml 2>/dev/null &&
	"$GPUSITE" render --objects cluster --cluster inference-eu "$fleet" >c2.yaml 2>err &&
	test ! -s err && cmp f.yaml c2.yaml &&
	"$GPUSITE" render --objects cluster --cluster inference-eu,my-hybrid-cluster "$fleet" >both.yaml 2>err &&
	noted 2 "inference-eu, my-hybrid-cluster" &&
	"$GPUSITE" render --objects cluster "$fleet" >all-c.yaml 2>/dev/null &&
	cmp both.yaml all-c.yaml
'

test_expect_success '--cluster naming no cluster: GS190 naming the clusters there are, exit 1' '
	expect_exit 1 "$GPUSITE" render --cluster nope "$fleet" >out 2>err &&
	test ! -s out &&
	grep -F "no site is in cluster '\''nope'\'' (clusters: " err &&
	grep -F "[GS190]" err
'

test_expect_success '--objects argocd (a hub'\''s Applications, for every cluster): silent' '
	"$GPUSITE" render --objects argocd "$fleet" >hub.yaml 2>err &&
	test ! -s err &&
	grep -q "^  name: inference-eu-gpu-operator$" hub.yaml &&
	grep -q "^  name: my-hybrid-cluster-nvidia-device-plugin$" hub.yaml
'

test_expect_success '-o FILE and --format json: the note on stderr, nothing on stdout' '
	"$GPUSITE" render --format json -o all.json "$fleet" >out 2>err &&
	test ! -s out && test -s all.json &&
	noted 2 "inference-eu, my-hybrid-cluster"
'

test_expect_success 'a stream that cannot be written: the write error alone, no note' '
	if [ -w /dev/full ]; then
		expect_exit 3 "$GPUSITE" render --site frankfurt-lab,seoul-dc1 "$fleet" >/dev/full 2>err &&
		echo "gpusite: error: cannot write standard output: No space left on device" >want &&
		test_cmp want err
	fi &&
	expect_exit 3 "$GPUSITE" render --site frankfurt-lab,seoul-dc1 "$fleet" >&- 2>err &&
	echo "gpusite: error: cannot write standard output: Bad file descriptor" >want &&
	test_cmp want err
'

test_expect_success 'a fleet rendered in batches (70 clusters): each counted once, the first three named' '
	sh "$TEST_TOP/bench/gen-fleet.sh" 70 big >/dev/null &&
	SSM_ACTIVATION_CODE_RACK_B=Rb0aXw9Lq2Zt7Ke4Vn1Hs8Dc \
		"$GPUSITE" render big/sites >big.yaml 2>all.err &&
	grep -v "warning: .*\[GS110\]$" all.err | grep -v "^gpusite: 0 errors, 53 warnings" >err &&
	noted 70 "cluster-00001, cluster-00002, cluster-00003, ..." &&
	test "$(grep -c "^kind: ConfigMap$" big.yaml)" -eq 70
'

test_expect_success 'invalid specs: the findings only, no note' '
	mkdir -p bad &&
	cp "$fleet"/*.yaml bad/ &&
	sed -i "s/gpuLimit: 16 .*/gpuLimit: 2/" bad/seoul-dc1.yaml &&
	expect_exit 1 "$GPUSITE" render bad >out 2>err &&
	test ! -s out && ! grep -q "note:" err
'

# generate over the two-cluster CMP fleet, run as argocd-cmp-server runs it.
cmp_run() {
	out=$1
	shift
	TMPDIR="$SCRATCH" python3 "$TEST_TOP/tests/tools/cmp-server.py" run \
		--plugin "$TEST_TOP/plugin/plugin.yaml" --repo "$TEST_TOP/testdata/cmp/fleet2" \
		--app "$TEST_TOP/testdata/cmp/apps/fleet.yaml" --gpusite "$GPUSITE" --out "$out" "$@"
}

test_expect_success 'generate: one cluster prints its stream without a note' '
	cmp_run one --param cluster=busan-cluster &&
	test "$(cat one/rc)" = 0 && test -s one/stdout &&
	! grep -q "note:" one/stderr
'

test_expect_success 'generate: two clusters are refused as before (GS118), no note' '
	cmp_run span &&
	test "$(cat span/rc)" = 1 && test ! -s span/stdout &&
	grep -q "\[GS118\]" span/stderr && ! grep -q "note:" span/stderr
'

test_done
