#!/bin/sh
# t6500: start-up stays cheap.  libcurl and its ~30 libraries are loaded
# only when a command talks to a cluster (src/kube/kube_curl.c, linked
# with --as-needed by mk/startup.mk): the binary must not need libcurl at
# start, and the commands that do use it still find it.
. "$TEST_TOP/tests/lib.sh"

bin=${GPUSITE_BINARY:-$GPUSITE}	# make valgrind: $GPUSITE is a wrapper

test_expect_success 'the binary does not need libcurl at start' '
	readelf -d "$bin" >"$SCRATCH/dyn" &&
	grep -q "(NEEDED)" "$SCRATCH/dyn" &&
	! grep "(NEEDED).*libcurl" "$SCRATCH/dyn"
'

# loaded LOG: the dynamic loader log LOG shows libyaml loaded, libcurl not.
no_curl() {
	grep -q "libyaml" "$1" && ! grep -q "libcurl" "$1"
}

test_expect_success 'validate, render and generate run without loading libcurl' '
	(cd "$TEST_TOP/testdata/fleet" && LD_DEBUG=libs "$bin" validate -q sites 2>"$SCRATCH/ld1") &&
	no_curl "$SCRATCH/ld1" &&
	(cd "$TEST_TOP/testdata/fleet" && LD_DEBUG=libs "$bin" render sites >/dev/null 2>"$SCRATCH/ld2") &&
	no_curl "$SCRATCH/ld2" &&
	(cd "$TEST_TOP/testdata/cmp/fleet" && ARGOCD_APP_PARAMETERS=null LD_DEBUG=libs \
		"$bin" generate >"$SCRATCH/stream" 2>"$SCRATCH/ld3") &&
	test -s "$SCRATCH/stream" &&
	no_curl "$SCRATCH/ld3"
'

test_expect_success '--version loads libcurl for its version' '
	"$GPUSITE" --version >"$SCRATCH/v" &&
	grep -Eq "^libcurl [0-9]+\.[0-9]+\.[0-9]+" "$SCRATCH/v"
'

test_expect_success 'a live command loads libcurl and reaches the network layer' '
	cat >"$SCRATCH/kc" <<-EOF &&
	apiVersion: v1
	kind: Config
	clusters:
	- name: c
	  cluster: {server: "https://127.0.0.1:1"}
	users:
	- name: u
	  user: {token: t6500-not-a-secret}
	contexts:
	- name: x
	  context: {cluster: c, user: u}
	current-context: x
	EOF
	cd "$TEST_TOP/testdata/live" &&
	expect_exit 3 "$GPUSITE" drift --kubeconfig "$SCRATCH/kc" --cluster my-hybrid-cluster \
		sites 2>"$SCRATCH/err" &&
	grep -q "cannot connect to the API server https://127.0.0.1:1" "$SCRATCH/err" &&
	! grep -q "libcurl" "$SCRATCH/err"
'

test_done
