#!/bin/sh
# t1110: every integer the schema accepts is the integer the model reads
# and render writes: 16.0, 16e0, !!float 16 and 6.0e1 are 16 and 60 in
# the rendered objects, and a number past the field's range is GS003,
# never a 0 or a clamp in the output.
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

# site GPU_LIMIT PER_NODE NOT_READY
site() {
	mkdir -p sites
	cat >sites/lab.yaml <<YAML
apiVersion: gpusite.io/v1alpha1
kind: GPUSite
metadata:
  name: lab
spec:
  cluster:
    name: lab-cluster
    region: us-west-2
  nodeGroups:
    - name: rack-a
      gpu: {model: l40s, perNode: $2}
      nodes: [gpu-01, gpu-02]
      credentials:
        iamRolesAnywhere:
          trustAnchorArn: arn:aws:rolesanywhere:us-west-2:111122223333:trust-anchor/0a1b2c3d-0000-4000-8000-000000000001
          profileArn: arn:aws:rolesanywhere:us-west-2:111122223333:profile/0a1b2c3d-0000-4000-8000-000000000002
          roleArn: arn:aws:iam::111122223333:role/HybridNodesRole
  gpuStack:
    chart:
      version: 0.20.0
  fallback:
    instanceTypes: [g6e.12xlarge]
    gpuLimit: $1
    nodeImage: bottlerocket
  placement:
    namespaces: [inference]
    notReadyTolerationSeconds: $3
YAML
}

site 16 8 60
test_expect_success 'the integer spelling renders (the reference)' '
	"$GPUSITE" render sites >ref.yaml &&
	grep -q "^    nvidia.com/gpu: 16\$" ref.yaml &&
	grep -q "not-ready\\\\\": 60}" ref.yaml
'
for spelling in "16.0 8.0 6.0e1" "16e0 8e0 60.000" "!!float 16 !!float 8 !!float 60" \
	"1.6e1 0.8e1 600e-1" "0x10 0o10 +60"; do
	# shellcheck disable=SC2086
	set -- $spelling
	if [ "$1" = "!!float" ]; then
		set -- "$1 $2" "$3 $4" "$5 $6"
	fi
	a=$1 b=$2 c=$3
	test_expect_success "gpuLimit: $a, perNode: $b, notReadyTolerationSeconds: $c render as 16, 8, 60" '
		site "$a" "$b" "$c" &&
		"$GPUSITE" validate sites 2>err &&
		echo "gpusite: 0 errors, 0 warnings (1 file, 1 site)" >want &&
		test_cmp want err &&
		"$GPUSITE" render sites >out.yaml &&
		test_cmp ref.yaml out.yaml
	'
done

test_expect_success 'explain counts the GPUs of perNode: 8.0' '
	site 16.0 8.0 6.0e1 &&
	"$GPUSITE" explain sites >explain.txt &&
	grep -q "on-prem GPUs: 16 (rack-a: 2 x 8 l40s)" explain.txt &&
	grep -q "gpuLimit 16 nvidia.com/gpu" explain.txt
'

test_expect_success 'gpuLimit: 2.0 below the smallest instance is GS041, exit 1' '
	site 2.0 1.0 300 &&
	expect_exit 1 "$GPUSITE" validate --format json sites >out.json &&
	grep -q "\"rule\":\"GS041\"" out.json
'

test_expect_success 'a number past int64 is GS003 and renders nothing' '
	site 99999999999999999999999999 8 60 &&
	expect_exit 1 "$GPUSITE" render sites >out.yaml 2>err &&
	test_cmp /dev/null out.yaml &&
	grep -q "sites/lab.yaml:23:15: error: spec.fallback.gpuLimit is 99999999999999999999999999; the maximum is 9223372036854775807 \[GS003\]" err
'

test_expect_success 'a fraction the double rounds away is not taken for an integer' '
	site 16.0000000000000001 8 60 &&
	expect_exit 1 "$GPUSITE" validate sites 2>err &&
	grep -q "spec.fallback.gpuLimit must be an integer (got number 16.0000000000000001) \[GS003\]" err
'

# A secret pasted as an unknown key is masked in every format, path included.
test_expect_success 'a secret-looking unknown key is masked in text, json, sarif and github' '
	site 16 8 60 &&
	sed "s|^    gpuLimit: 16|    gpuLimit: 16\\
    XYZZY_wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY: 1|" sites/lab.yaml >x &&
	mv x sites/lab.yaml && grep -q XYZZY sites/lab.yaml &&
	for f in text json sarif github junit; do
		expect_exit 1 "$GPUSITE" validate --format $f sites >out.$f 2>err.$f || return 1
		if grep -q "wJalr\|XYZZY" out.$f err.$f; then
			echo "--format $f repeats the key" >&2; return 1
		fi
	done &&
	grep -q "unknown field .<redacted>. in spec.fallback" err.text &&
	grep -q "\"path\":\"spec.fallback\[\\\\\"<redacted>\\\\\"\]\"\|\"path\":\"spec.fallback.<redacted>\"" out.json
'
test_done
