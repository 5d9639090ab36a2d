#!/bin/sh
# t2061-render-stale-temporaries.sh - a render killed before its renames
# leaves its temporaries (.NAME.gpusite-XXXXXX, SSM codes among them); the
# next successful run removes exactly those of its own output files: regular files of this user, last written before the run,
# not locked by a live writer, never through a symlink, and nothing that
# only looks like one.
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

fleet="$TEST_TOP/testdata/fleet/sites"
export SSM_ACTIVATION_CODE_RACK_B=Rb0aXw9Lq2Zt7Ke4Vn1Hs8Dc
export SSM_ACTIVATION_CODE_INCHEON=In9cH3on5Ac7Ti9Va1Ti0nCd
export SSM_ACTIVATION_CODE_INCHEON_L40S=L4s0aBcDeFgHiJkLmNoPqRs

temps() {	# temps DIR: the temporaries below DIR, sorted
	find "$1" -name '.*.gpusite-*' | sort
}

# A run killed while it writes: files are limited to 16 blocks of 512
# bytes with SIGXFSZ at its default (the process dies), and the stream,
# over 40 KB, is the last file written, after every NodeConfig and values
# file.  The kill leaves every temporary behind, as a kill at the worst
# moment would: 12 complete ones and the stream's cut short.
test_expect_success 'a run killed before its renames leaves temporaries' '
	{ (trap - XFSZ && ulimit -c 0 && ulimit -f 16 &&
	   exec "$GPUSITE" render -o out/stream.yaml --nodeconfigs out/nc --values out/values \
		"$fleet") >/dev/null 2>killed.err; rc=$?; } &&
	test $rc -gt 128 &&
	temps out >left &&
	test "$(wc -l <left)" -eq 13 &&
	grep -q "^out/\.stream\.yaml\.gpusite-[A-Za-z0-9]\{6\}$" left &&
	grep -q "^out/nc/seoul-dc1/\.rack-b\.yaml\.gpusite-[A-Za-z0-9]\{6\}$" left &&
	grep -q "^out/values/my-hybrid-cluster/\.values\.yaml\.gpusite-" left &&
	grep -rlq Rb0aXw9Lq2Zt7Ke4Vn1Hs8Dc out/nc/seoul-dc1 &&
	test ! -e out/stream.yaml && test ! -e out/nc/seoul-dc1/rack-b.yaml
'

test_expect_success 'look-alikes that are not stale temporaries of this run' '
	mkdir -p outside &&
	echo "precious" >outside/target &&
	ln -s "$SCRATCH/outside/target" out/nc/seoul-dc1/.rack-b.yaml.gpusite-Sym123 &&
	ln -s "$SCRATCH/outside" out/nc/seoul-dc1/.rack-a.gpusite-Dir123 &&
	echo other >out/nc/seoul-dc1/.notours.yaml.gpusite-Abc123 &&
	echo short >out/nc/seoul-dc1/.rack-b.yaml.gpusite-Ab12 &&
	echo dash >out/nc/seoul-dc1/.rack-b.yaml.gpusite-Ab-123 &&
	mkdir out/nc/seoul-dc1/.rack-b.yaml.gpusite-Dir456 &&
	echo future >out/values/my-hybrid-cluster/.values.yaml.gpusite-Fut123 &&
	touch -d "+1 hour" out/values/my-hybrid-cluster/.values.yaml.gpusite-Fut123 &&
	echo locked >out/values/inference-eu/.values.yaml.gpusite-Lck123 &&
	touch -d "-1 hour" out/values/inference-eu/.values.yaml.gpusite-Lck123
'

test_expect_success 'the next run removes the stale temporaries of its own files, only those' '
	flock out/values/inference-eu/.values.yaml.gpusite-Lck123 sleep 30 & holder=$! &&
	sleep 0.3 &&
	"$GPUSITE" render -v -o out/stream.yaml --nodeconfigs out/nc --values out/values \
		"$fleet" >rerun.out 2>rerun.err;
	rc=$? && { kill $holder 2>/dev/null || :; } && { wait $holder 2>/dev/null || :; } &&
	test $rc -eq 0 &&
	grep -q " 13 stale temporaries removed;" rerun.err &&
	temps out >after &&
	cat >expect <<-EOF &&
	out/nc/seoul-dc1/.notours.yaml.gpusite-Abc123
	out/nc/seoul-dc1/.rack-a.gpusite-Dir123
	out/nc/seoul-dc1/.rack-b.yaml.gpusite-Ab-123
	out/nc/seoul-dc1/.rack-b.yaml.gpusite-Ab12
	out/nc/seoul-dc1/.rack-b.yaml.gpusite-Dir456
	out/nc/seoul-dc1/.rack-b.yaml.gpusite-Sym123
	out/values/inference-eu/.values.yaml.gpusite-Lck123
	out/values/my-hybrid-cluster/.values.yaml.gpusite-Fut123
	EOF
	test_cmp expect after &&
	test "$(cat outside/target)" = precious &&
	test -L out/nc/seoul-dc1/.rack-b.yaml.gpusite-Sym123 &&
	! grep -rq Rb0aXw9Lq2Zt7Ke4Vn1Hs8Dc out/nc/seoul-dc1/.[!.]* 2>/dev/null &&
	grep -q Rb0aXw9Lq2Zt7Ke4Vn1Hs8Dc out/nc/seoul-dc1/rack-b.yaml
'

test_expect_success 'a run with nothing stale removes nothing' '
	"$GPUSITE" render -v -o out/stream.yaml --nodeconfigs out/nc --values out/values \
		"$fleet" >/dev/null 2>again.err &&
	grep -q " 0 stale temporaries removed;" again.err &&
	temps out >again &&
	test_cmp expect again
'

test_done
