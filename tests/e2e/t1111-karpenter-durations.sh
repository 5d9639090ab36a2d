#!/bin/sh
# t1111: expireAfter and consolidateAfter reach the NodePool only in the
# form Karpenter's CRD pattern takes, ^(([0-9]+(s|m|h))+|Never)$: a Go
# duration of whole seconds is normalised to one exact unit (1.5h is
# 90m), text already of that form is kept as written, and a duration that
# is not whole seconds is GS003 with the reason, with nothing rendered.
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

# site EXPIRE CONSOLIDATE
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
      gpu: {model: l40s, perNode: 4}
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
    gpuLimit: 8
    expireAfter: $1
    consolidateAfter: $2
  placement:
    namespaces: [inference]
YAML
}

# rendered EXPIRE CONSOLIDATE: the two lines of the rendered NodePool
rendered() {
	"$GPUSITE" render sites >out.yaml &&
	grep -E "^ +(expireAfter|consolidateAfter):" out.yaml | sed "s/^ *//" >got &&
	printf 'expireAfter: %s\nconsolidateAfter: %s\n' "$1" "$2" >want &&
	test_cmp want got
}

for c in "1.5h 2.5m 90m 150s" "720h 5m 720h 5m" "1h30m 90s 1h30m 90s" \
	"7200000ms 0.5m 2h 30s" "336h0m0s 1m0s 336h0m0s 1m0s" "Never Never Never Never" \
	"1.25h 60000ms 75m 1m" "3600s 86400000000000ns 3600s 24h" \
	"1h3h3h303001h3h30001h3h300m 5m 1h3h3h303001h3h30001h3h300m 5m"; do
	# shellcheck disable=SC2086
	set -- $c
	e=$1 k=$2 we=$3 wk=$4
	test_expect_success "expireAfter: $e, consolidateAfter: $k render as $we, $wk" '
		site "$e" "$k" && rendered "$we" "$wk"
	'
done

test_expect_success 'every rendered duration matches the CRD pattern' '
	site 1.5h 2.5m && "$GPUSITE" render sites >out.yaml &&
	grep -E "^ +(expireAfter|consolidateAfter):" out.yaml >lines &&
	test "$(wc -l <lines)" -eq 2 &&
	! sed "s/^ *[a-zA-Z]*: //" lines | grep -Ev "^(([0-9]+(s|m|h))+|Never)\$"
'

for bad in 500ms 2m30.5s 1h0m0.5s 1.0000000001h 999us; do
	test_expect_success "consolidateAfter: $bad is GS003 with the reason, nothing rendered" '
		site 720h "$bad" &&
		expect_exit 1 "$GPUSITE" render sites >out.yaml 2>err &&
		test_cmp /dev/null out.yaml &&
		grep -qF "sites/lab.yaml:25:23: error: fallback.consolidateAfter is $bad: the Karpenter NodePool CRD takes whole seconds only" err
	'
done

if need_upstream; then
	test_expect_success 'the normalised NodePool passes the upstream CRD schema' '
		site 1.5h 7200000ms && "$GPUSITE" render sites >out.yaml &&
		"$GPUSITE" validate --rendered --upstream "$UPSTREAM" out.yaml
	'
else
	test_skip 'the normalised NodePool passes the upstream CRD schema' '../shared/upstream not found'
fi
test_done
