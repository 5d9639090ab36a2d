#!/bin/sh
# t1010-instance-types.sh - the committed instance-type table
# (src/rules/instance_types.c) is what mk/gen-instance-types.sh makes from
# Karpenter's table in ../shared, and the generator refuses a CSV whose
# memory column is not per GPU.
: "${TEST_TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$TEST_TOP/tests/lib.sh"

csv="$UPSTREAM/karpenter/gpu-instance-types.csv"
if ! need_upstream || [ ! -f "$csv" ]; then
	test_skip "instance_types.c is generated from the Karpenter table" \
		"../shared/upstream not found"
	test_skip "the generator refuses a total-memory column" \
		"../shared/upstream not found"
	test_done
	exit
fi

test_expect_success 'instance_types.c is generated from the Karpenter table' '
	sh "$TEST_TOP/mk/gen-instance-types.sh" "$csv" >"$SCRATCH/gen.c" &&
	test_cmp "$TEST_TOP/src/rules/instance_types.c" "$SCRATCH/gen.c"
'

test_expect_success 'the generator refuses a total-memory column' '
	# g4dn.12xlarge: 4 GPUs; a total of 65536 MiB would mean 16384 each
	sed "s/^g4dn.12xlarge,\(.*\),4,16384,4,/g4dn.12xlarge,\1,4,65536,4,/" \
		"$csv" >"$SCRATCH/total.csv" &&
	! cmp -s "$csv" "$SCRATCH/total.csv" &&
	! sh "$TEST_TOP/mk/gen-instance-types.sh" "$SCRATCH/total.csv" \
		>/dev/null 2>"$SCRATCH/err" &&
	grep -q "per GPU" "$SCRATCH/err"
'

test_expect_success 'the generator refuses a changed header' '
	sed "1s/instance_gpu_memory_mib/instance_gpu_memory_total_mib/" \
		"$csv" >"$SCRATCH/header.csv" &&
	! sh "$TEST_TOP/mk/gen-instance-types.sh" "$SCRATCH/header.csv" \
		>/dev/null 2>&1
'
test_expect_success 'the local NVMe column comes from its table, and a missing row is refused' '
	grep -q "^	{ \"p5.48xlarge\", .*, 30400 },$" "$TEST_TOP/src/rules/instance_types.c" &&
	grep -q "^	{ \"g5g.16xlarge\", .*, 0 },$" "$TEST_TOP/src/rules/instance_types.c" &&
	grep -v "^p5.48xlarge," "$UPSTREAM/karpenter/gpu-instance-local-nvme.csv" >"$SCRATCH/nvme.csv" &&
	! sh "$TEST_TOP/mk/gen-instance-types.sh" "$csv" \
		"$UPSTREAM/karpenter/gpu-on-demand-prices.csv" "$SCRATCH/nvme.csv" \
		>/dev/null 2>"$SCRATCH/nvme.err" &&
	grep -q "p5.48xlarge has no row in the NVMe table" "$SCRATCH/nvme.err"
'
test_done
