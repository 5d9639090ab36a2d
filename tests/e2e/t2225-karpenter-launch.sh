#!/bin/sh
# t2225: every capacity type a rendered NodePool lists can launch a node.
# tests/tools/karpenter_launch.py models Karpenter's launch decision: the
# pool's requirements met with each instance type's and each offering's
# (on-demand and Spot carry capacity-reservation-id and -type DoesNotExist,
# reserved ones In [id] and In [type]).  First the model's own answers
# against those of Karpenter's tests (pkg/scheduling/requirements_test.go,
# v1.14.1), then every NodePool of every golden render case, then each
# combination of reserved capacity with its backups and reservation types.
. "$TEST_TOP/tests/lib.sh"

tool="$TEST_TOP/tests/tools/karpenter_launch.py"
cases="$TEST_TOP/testdata/render"
K="$UPSTREAM/karpenter"
[ -f "$K/gpu-instance-types.csv" ] && test_set_prereq UPSTREAM

# pair EXISTING INCOMING WANT: the model's Compatible answer is WANT
pair() {
	got=$(python3 "$tool" --pair "$1" "$2") &&
	case $got in
	"$3"*) ;;
	*) echo "$1 / $2: want $3, got $got" >&2 && false ;;
	esac
}

# launch ARGS...: the model over NodePools with the upstream instance types
launch() {
	python3 "$tool" --instance-types "$K/gpu-instance-types.csv" \
		--local-nvme "$K/gpu-instance-local-nvme.csv" "$@"
}

Z=topology.kubernetes.io/zone
test_expect_success 'model: In meets In, never DoesNotExist; NotIn meets DoesNotExist' '
	pair "$Z In A" "$Z In A,B" compatible &&
	pair "$Z In A" "$Z In B" incompatible &&
	pair "$Z In A" "$Z DoesNotExist" incompatible &&
	pair "$Z DoesNotExist" "$Z In A" incompatible &&
	pair "$Z DoesNotExist" "$Z NotIn A" compatible &&
	pair "$Z NotIn A" "$Z DoesNotExist" compatible &&
	pair "$Z NotIn 1,2" "$Z DoesNotExist" compatible &&
	pair "$Z NotIn A" "$Z In A" incompatible &&
	pair "$Z NotIn A" "$Z In A,B" compatible
'

test_expect_success 'model: Exists against DoesNotExist and against an absent label' '
	pair "$Z Exists" "$Z DoesNotExist" incompatible &&
	pair "$Z DoesNotExist" "$Z Exists" incompatible &&
	pair "$Z Exists" "$Z -" compatible &&
	pair "$Z -" "$Z Exists" compatible &&
	pair "example.com/team -" "example.com/team Exists" incompatible &&
	pair "example.com/team -" "example.com/team NotIn a" compatible &&
	pair "example.com/team -" "example.com/team DoesNotExist" compatible
'

test_expect_success 'model: Gt, Lt and Gte bounds' '
	pair "$Z Gt 9" "$Z In 9" incompatible &&
	pair "$Z Gt 9" "$Z In 10" compatible &&
	pair "$Z Gt 9" "$Z In A" incompatible &&
	pair "$Z Gt 9" "$Z NotIn A" compatible &&
	pair "$Z Gt 9" "$Z Gt 1" compatible &&
	pair "$Z Gt 9" "$Z Lt 9" incompatible &&
	pair "$Z Lt 1" "$Z Lt 9" compatible &&
	pair "$Z Lt 1" "$Z Gt 1" incompatible &&
	pair "$Z Lt 10" "$Z In 9" compatible &&
	pair "$Z Gte 2" "$Z In 2" compatible &&
	pair "$Z Gte 2" "$Z In 1" incompatible &&
	pair "$Z Gte 10" "$Z Gt 9" compatible &&
	pair "$Z Gte 10" "$Z Lt 10" incompatible &&
	pair "$Z Gte 10" "$Z DoesNotExist" incompatible &&
	pair "$Z Gt 9223372036854775807" "$Z Exists" incompatible &&
	pair "$Z Gt 9" "$Z In 1_0" incompatible
'

test_expect_success UPSTREAM 'every golden NodePool launches each capacity type it lists' '
	: >"$SCRATCH/pools.out" &&
	for dir in "$cases"/*/; do
		name=$(basename "$dir") &&
		run_in_case "${dir%/}" render --format json >"$SCRATCH/$name.json" \
			2>"$SCRATCH/$name.err" &&
		{ launch "$SCRATCH/$name.json" || echo "exit $?"; } >"$SCRATCH/$name.out" &&
		sed "s/^/$name: /" "$SCRATCH/$name.out" >>"$SCRATCH/pools.out" || return 1
	done &&
	cat "$SCRATCH/pools.out" &&
	! grep -q ": no offering\|: exit [0-9]" "$SCRATCH/pools.out" &&
	grep -q "^fallback-reserved-al2023: lab-gpu-fallback on-demand: launches " "$SCRATCH/pools.out" &&
	grep -q "^fallback-reserved-al2023: lab-gpu-fallback reserved: launches " "$SCRATCH/pools.out" &&
	grep -q "^fallback-reserved-bottlerocket: lab-gpu-fallback reserved: launches .*-capacity-block)$" "$SCRATCH/pools.out" &&
	grep -q "^two-site-burst: seoul-dc1-gpu-burst spot: launches " "$SCRATCH/pools.out" &&
	grep -q "^auto-mode: .* reserved: launches " "$SCRATCH/pools.out" &&
	test "$(grep -c ": launches " "$SCRATCH/pools.out")" -ge 30
'

# the reserved golden site with CAPACITY and RESERVATION types, rendered
reserved_site() {
	mkdir -p "$SCRATCH/$1" &&
	sed -e "s/^    capacityType: .*/    capacityType: $2/" \
		-e "s/^    capacityReservationType: .*/    capacityReservationType: $3/" \
		"$cases/fallback-reserved-al2023/sites/lab.yaml" >"$SCRATCH/$1/lab.yaml" &&
	"$GPUSITE" render --format json "$SCRATCH/$1" >"$SCRATCH/$1.json"
}

test_expect_success UPSTREAM 'reserved with each backup and reservation type: every capacity type launches, only the listed reservations' '
	n=0 &&
	: >"$SCRATCH/combos.out" &&
	for cap in reserved "[reserved, on-demand]" "[reserved, spot]" \
		"[reserved, on-demand, spot]" "[on-demand, reserved]"; do
		for rt in default capacity-block "[default, capacity-block]"; do
			n=$((n + 1)) &&
			reserved_site "c$n" "$cap" "$rt" &&
			{ launch "$SCRATCH/c$n.json" || echo "exit $?"; } >"$SCRATCH/c$n.out" &&
			sed "s/^/$cap $rt: /" "$SCRATCH/c$n.out" >>"$SCRATCH/combos.out" &&
			case $rt in
			default) grep -q "reserved: launches .*-default)$" "$SCRATCH/c$n.out" &&
				grep -q "operator\":\"NotIn\",\"values\":\[\"capacity-block\"\]" "$SCRATCH/c$n.json" ;;
			capacity-block) grep -q "reserved: launches .*-capacity-block)$" "$SCRATCH/c$n.out" &&
				grep -q "operator\":\"NotIn\",\"values\":\[\"default\"\]" "$SCRATCH/c$n.json" ;;
			*) ! grep -q capacity-reservation-type "$SCRATCH/c$n.json" ;;
			esac || return 1
		done || return 1
	done &&
	cat "$SCRATCH/combos.out" &&
	! grep -q ": no offering\|: exit [0-9]" "$SCRATCH/combos.out" &&
	test "$(grep -c ": launches " "$SCRATCH/combos.out")" = 30 &&
	test "$n" = 15
'

test_expect_success UPSTREAM 'the model refuses the In form: on-demand has no offering once a type is required In' '
	reserved_site in "[reserved, on-demand]" default &&
	sed "s/{\"key\":\"karpenter.sh\/capacity-type\"/{\"key\":\"karpenter.k8s.aws\/capacity-reservation-type\",\"operator\":\"In\",\"values\":[\"default\"]},&/" \
		"$SCRATCH/in.json" >"$SCRATCH/in-old.json" &&
	expect_exit 1 launch "$SCRATCH/in-old.json" >"$SCRATCH/in-old.out" &&
	cat "$SCRATCH/in-old.out" &&
	grep -q "^lab-gpu-fallback reserved: launches .*-default)$" "$SCRATCH/in-old.out" &&
	grep -q "^lab-gpu-fallback on-demand: no offering: g6e.12xlarge on-demand offering: karpenter.k8s.aws/capacity-reservation-type DoesNotExist never meets karpenter.k8s.aws/capacity-reservation-type In \[default\]" "$SCRATCH/in-old.out"
'

test_expect_success UPSTREAM 'reservations of an excluded type alone drop the instance type, on-demand too' '
	reserved_site ex "[reserved, on-demand]" default &&
	printf "%s\n" "[{\"id\": \"cr-0123456789abcdef0\", \"instanceType\": \"g6e.12xlarge\"," \
		" \"zone\": \"us-west-2a\", \"type\": \"capacity-block\", \"interruptible\": false}]" \
		>"$SCRATCH/cb-only.json" &&
	expect_exit 1 launch --reservations "$SCRATCH/cb-only.json" "$SCRATCH/ex.json" >"$SCRATCH/ex.out" &&
	cat "$SCRATCH/ex.out" &&
	grep -q "^lab-gpu-fallback reserved: no offering: g6e.12xlarge: instance type: karpenter.k8s.aws/capacity-reservation-type NotIn \[capacity-block\] never meets karpenter.k8s.aws/capacity-reservation-type In \[capacity-block\]$" "$SCRATCH/ex.out" &&
	grep -q "^lab-gpu-fallback on-demand: no offering: g6e.12xlarge: instance type: " "$SCRATCH/ex.out"
'

test_expect_success UPSTREAM 'a Pod: its requirements meet the pool and the offerings' '
	reserved_site pod "[reserved, on-demand]" default &&
	T="\"tolerations\": [{\"key\": \"nvidia.com/gpu\", \"operator\": \"Exists\"}, {\"key\": \"gpusite.io/site\", \"value\": \"lab\"}]" &&
	printf "%s\n" "{\"spec\": {$T, \"nodeSelector\": {\"karpenter.sh/capacity-type\": \"on-demand\"}}}" \
		>"$SCRATCH/od-pod.json" &&
	expect_exit 1 launch --pod "$SCRATCH/od-pod.json" "$SCRATCH/pod.json" >"$SCRATCH/od.out" &&
	grep -q "^lab-gpu-fallback on-demand: launches g6e.12xlarge" "$SCRATCH/od.out" &&
	grep -q "^lab-gpu-fallback reserved: no offering: g6e.12xlarge reserved offering: karpenter.sh/capacity-type In \[reserved\] never meets karpenter.sh/capacity-type In \[on-demand\]" "$SCRATCH/od.out" &&
	printf "%s\n" "{\"spec\": {$T, \"nodeSelector\": {\"example.com/team\": \"a\"}}}" \
		>"$SCRATCH/stranger.json" &&
	expect_exit 1 launch --pod "$SCRATCH/stranger.json" "$SCRATCH/pod.json" >"$SCRATCH/stranger.out" &&
	grep -q "^lab-gpu-fallback on-demand: no offering: the Pod: label example.com/team does not have known values$" "$SCRATCH/stranger.out"
'

# the ReservedCapacity feature gate: off by default before Karpenter 1.6
test_expect_success UPSTREAM 'reserved capacity: no offering while the ReservedCapacity gate is off' '
	reserved_site gate "[reserved, on-demand]" default &&
	expect_exit 1 launch --karpenter-version 1.5 "$SCRATCH/gate.json" >"$SCRATCH/gate.out" &&
	cat "$SCRATCH/gate.out" &&
	grep -q "^lab-gpu-fallback reserved: no offering: the ReservedCapacity feature gate is off" "$SCRATCH/gate.out" &&
	grep -q "^lab-gpu-fallback on-demand: launches " "$SCRATCH/gate.out" &&
	launch --karpenter-version 1.5 --feature-gates ReservedCapacity=true "$SCRATCH/gate.json" &&
	launch --karpenter-version 1.6 "$SCRATCH/gate.json"
'

# GS189: the case of testdata/invalid is refused by render, so it is
# rendered at Karpenter 1.6, where GS189 is quiet: its NodePools have no
# requirement that depends on the release (no capacityReservationType, no
# minGpuMemoryMiB), so they are the ones 1.5 would get.  Karpenter 1.5's
# default gates give them no reserved offering; 1.6's do.
test_expect_success UPSTREAM 'GS189: each pool it names has no offering of that capacity type' '
	case189="$TEST_TOP/testdata/invalid/GS189-reserved-gate-off" &&
	grep "\[GS189\]" "$case189/expected.err" >"$SCRATCH/gs189.err" &&
	test "$(wc -l <"$SCRATCH/gs189.err")" = 2 &&
	mkdir -p "$SCRATCH/gs189/sites" &&
	sed "s/versions: {karpenter: \"1.5\"}/versions: {karpenter: \"1.6\"}/" \
		"$case189/sites/lab.yaml" >"$SCRATCH/gs189/sites/lab.yaml" &&
	"$GPUSITE" validate "$SCRATCH/gs189/sites" &&
	"$GPUSITE" render --format json "$SCRATCH/gs189/sites" >"$SCRATCH/gs189.json" &&
	! grep -q "capacity-reservation-type\|Gte\|instance-gpu-memory" "$SCRATCH/gs189.json" &&
	expect_exit 1 launch --karpenter-version 1.5 "$SCRATCH/gs189.json" >"$SCRATCH/gs189-15.out" &&
	cat "$SCRATCH/gs189-15.out" &&
	grep -q "^lab-gpu-fallback reserved: no offering: the ReservedCapacity feature gate is off" "$SCRATCH/gs189-15.out" &&
	grep -q "^lab-gpu-burst reserved: no offering: the ReservedCapacity feature gate is off" "$SCRATCH/gs189-15.out" &&
	grep -q "^lab-gpu-fallback on-demand: launches " "$SCRATCH/gs189-15.out" &&
	test "$(grep -c ": no offering" "$SCRATCH/gs189-15.out")" = 2 &&
	launch --karpenter-version 1.6 "$SCRATCH/gs189.json" >"$SCRATCH/gs189-16.out" &&
	grep -q "^lab-gpu-burst reserved: launches " "$SCRATCH/gs189-16.out"
'

test_done
