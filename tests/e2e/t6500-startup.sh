#!/bin/sh
# t6500: start-up stays cheap.  libcurl and its ~30 libraries are loaded
# only when a command talks to a cluster (src/kube/kube_curl.c, linked
# with --as-needed by mk/startup.mk), libgit2 and its ~17 only when a
# command reads Git (src/source/source_git2.c, not linked at all): the
# binary must need neither at start, and the commands that do use them
# still find them.  t6501: a Git-reading command without libgit2.
. "$TEST_TOP/tests/lib.sh"

bin=${GPUSITE_BINARY:-$GPUSITE}	# make valgrind: $GPUSITE is a wrapper

test_expect_success 'the binary needs neither libcurl nor libgit2 at start' '
	readelf -d "$bin" >"$SCRATCH/dyn" &&
	grep -q "(NEEDED).*libyaml" "$SCRATCH/dyn" &&
	! grep "(NEEDED).*libcurl" "$SCRATCH/dyn" &&
	! grep "(NEEDED).*libgit2" "$SCRATCH/dyn"
'

# no_curl LOG: the dynamic loader log LOG shows libyaml loaded, and
# neither libcurl nor libgit2 nor a library only libgit2 needs (SSH,
# mbed TLS, the HTTP parser; PCRE2 is gpusite's own, src/regex/).
no_curl() {
	grep -q "libyaml" "$1" &&
	! grep -E "libcurl|libgit2|libssh2|libmbed|libhttp_parser" "$1"
}

test_expect_success 'validate, render and generate load neither libcurl nor libgit2' '
	(cd "$TEST_TOP/testdata/fleet" && LD_DEBUG=libs "$bin" validate -q sites 2>"$SCRATCH/ld1") &&
	no_curl "$SCRATCH/ld1" &&
	(cd "$TEST_TOP/testdata/fleet" && LD_DEBUG=libs "$bin" render sites >/dev/null 2>"$SCRATCH/ld2") &&
	no_curl "$SCRATCH/ld2" &&
	(cd "$TEST_TOP/testdata/cmp/fleet" && ARGOCD_APP_PARAMETERS=null ARGOCD_ENV_CLUSTER=busan-cluster LD_DEBUG=libs \
		"$bin" generate >"$SCRATCH/stream" 2>"$SCRATCH/ld3") &&
	test -s "$SCRATCH/stream" &&
	no_curl "$SCRATCH/ld3"
'

# The libraries a run initialised, without the loader itself and the
# sanitizer runtimes of a SANITIZE= build.
inits() {
	sed -n "s|.*calling init: .*/||p" "$1" |
		grep -Ev "^(ld-linux|lib(asan|ubsan|lsan|stdc\+\+|gcc_s)\.)" | sort
}

test_expect_success 'generate initialises only libc, libm, libyaml, cJSON and PCRE2' '
	(cd "$TEST_TOP/testdata/cmp/fleet" && ARGOCD_APP_PARAMETERS=null ARGOCD_ENV_CLUSTER=busan-cluster LD_DEBUG=libs \
		"$bin" generate >/dev/null 2>"$SCRATCH/ld4") &&
	inits "$SCRATCH/ld4" >"$SCRATCH/inits" &&
	printf "%s\n" libc.so.6 libcjson.so.1 libm.so.6 libpcre2-8.so.0 libyaml-0.so.2 >"$SCRATCH/want" &&
	test_cmp "$SCRATCH/want" "$SCRATCH/inits"
'

test_expect_success '--version loads libcurl and libgit2 for their versions' '
	"$GPUSITE" --version >"$SCRATCH/v" &&
	grep -Eq "^libcurl [0-9]+\.[0-9]+\.[0-9]+" "$SCRATCH/v" &&
	grep -Eq "^libgit2 [0-9]+\.[0-9]+\.[0-9]+$" "$SCRATCH/v"
'

test_expect_success 'a command reading Git loads libgit2 and reads the revision' '
	git init -q "$SCRATCH/repo" &&
	mkdir "$SCRATCH/repo/sites" &&
	cp "$TEST_TOP/testdata/cmp/fleet/sites/"*.yaml "$SCRATCH/repo/sites/" &&
	git -C "$SCRATCH/repo" add sites &&
	git -C "$SCRATCH/repo" -c user.name=t -c user.email=t@example.com commit -q -m one &&
	(cd "$SCRATCH/repo" && LD_DEBUG=libs "$bin" render --ref HEAD >"$SCRATCH/git.yaml" \
		2>"$SCRATCH/ld5") &&
	grep -q "calling init: .*/libgit2\.so" "$SCRATCH/ld5" &&
	(cd "$SCRATCH/repo" && "$bin" render sites) >"$SCRATCH/tree.yaml" &&
	test_cmp "$SCRATCH/tree.yaml" "$SCRATCH/git.yaml"
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
