#!/bin/sh
# t6900-debian-package.sh - the Debian package on a system that has never
# seen the source tree: `make deb` (lintian clean; the package the
# README's `make image` builds, once per test run for this test and the
# image test, debroot_image in tests/tools/debroot.sh), a fresh Debian 12 root
# from debootstrap (minbase), `apt-get install ./gpusite_*.deb` there with
# every dependency from the distribution, then inside it: --version with
# every library, validate and render of the example fleet, generate the way
# argocd-cmp-server runs it (uid 999, its environment), validate --rendered
# with a directory of CRDs copied in and with --live against the test API
# server (and, with only the GnuTLS libcurl that git pulls in, the line
# naming libcurl4), validate --staged
# and the shipped pre-commit hook in a Git repository, serve's /healthz,
# the man pages and the completion; a Recommends removed gives the message
# naming its package; purge leaves nothing.
#
# The debootstrap tarball is the image test's (t6902) too, made once and
# cached under the build directory (O/e2e-cache/, checked against the
# SHA-256 beside it), so a second run downloads nothing for the root
# itself; apt-get still fetches git, man-db and gpusite's dependencies
# from the archive.  Needs
# root (chroot); skips visibly when the archive cannot be reached.
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

. "$TEST_TOP/tests/tools/debroot.sh"
. "$TEST_TOP/tests/tools/live.sh"
WORK=$odir/t6900
ROOT=$WORK/root

cleanup() {
	live_stop
	if [ -d "$ROOT/proc" ] && mountpoint -q "$ROOT/proc" 2>/dev/null; then
		umount "$ROOT/proc"
	fi
	rm -rf "$WORK" "$SCRATCH"
}
trap cleanup EXIT

# in_root CMD...: CMD inside the root as root, with a clean environment
in_root() {
	env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
		DEBIAN_FRONTEND=noninteractive "$CHROOT" "$ROOT" "$@"
}

# in_root_sh SCRIPT [ARGS...]: a shell script inside the root
in_root_sh() {
	s=$1
	shift
	in_root /bin/sh -c "$s" sh "$@"
}

why=$(debroot_why) || { echo "debroot_why failed" >&2; exit 1; }
if [ -n "$why" ]; then
	test_skip 'the Debian package on a clean Debian 12' "$why"
	test_done
	exit 0
fi
rm -rf "$WORK" && mkdir -p "$WORK"
# the package: the README's make image builds it, once for this run (a
# script run alone has its own), while the root is made here from the
# debootstrap base (shared with the image test, made once under $O)
[ -n "$DEBROOT_RUN" ] || DEBROOT_RUN=$WORK/run
README=$DEBROOT_RUN/readme
debroot_image >"$SCRATCH/image.why" &
image_pid=$!
why=$(debroot_base)
if [ -n "$why" ]; then
	wait "$image_pid"
	test_skip 'the Debian package installed on a clean Debian 12' "$why"
	test_done
	exit 0
fi

# git for --staged, man-db for the pages (their Depends alone, as
# debootstrap --include would add them); the rest comes with the package
test_expect_success 'a minbase Debian 12 root from the cached debootstrap tarball, git and man-db added' '
	debootstrap --variant=minbase --unpack-tarball="$TARBALL" \
		"$SUITE" "$ROOT" "$MIRROR" >debootstrap.out 2>&1 ||
		{ tail -20 debootstrap.out; exit 1; } &&
	cp /etc/resolv.conf "$ROOT/etc/resolv.conf" &&
	{ mount -t proc proc "$ROOT/proc" 2>/dev/null || true; } &&
	test_must_fail in_root dpkg-query -W libgit2-1.5 2>/dev/null &&
	test ! -e "$ROOT/usr/bin/gpusite" &&
	in_root apt-get update -qq >apt.out 2>&1 &&
	in_root apt-get install -y -qq --no-install-recommends git man-db >>apt.out 2>&1 ||
		{ tail -20 apt.out; exit 1; } &&
	test_must_fail in_root dpkg-query -W libgit2-1.5 2>/dev/null &&
	test ! -e "$ROOT/usr/bin/gpusite"
'

wait "$image_pid"
why=$(cat "$SCRATCH/image.why")
if [ -n "$why" ]; then
	test_skip 'the Debian package installed on a clean Debian 12' "$why"
	test_done
	exit 0
fi

test_expect_success 'make deb (make image runs it, as the README writes it): gpusite_VERSION_ARCH.deb, lintian without warning or error' '
	{ test "$(cat "$README/rc")" = 0 || { tail -40 "$README/make.out"; exit 1; }; } &&
	DEB="$README/tree/build/deb/gpusite_${VERSION}_$(dpkg --print-architecture).deb" &&
	test "$(cat "$README/deb")" = "$DEB" &&
	test -s "$DEB" &&
	! grep -E "^[EW]: " "$README/tree/build/deb/lintian.log" &&
	debroot_deb "$WORK/gpusite.deb"
'

test_expect_success 'the package depends on libgit2 and recommends libcurl and libmicrohttpd' '
	dpkg-deb -f "$WORK/gpusite.deb" Depends >depends &&
	dpkg-deb -f "$WORK/gpusite.deb" Recommends >recommends &&
	grep -E "(^|, )libgit2-[0-9.]+ \(>= " depends &&
	grep -E "(^|, )libyaml-0-2" depends &&
	grep -E "(^|, )libcurl4 \(>= [^)]*\)(,|$)" recommends &&
	! grep libcurl3-gnutls recommends &&
	grep -E "(^|, )libmicrohttpd12 \(>= " recommends &&
	! grep -E "libcurl|libmicrohttpd" depends
'

test_expect_success 'apt-get install ./gpusite_*.deb: the dependencies from the distribution' '
	cp "$WORK/gpusite.deb" "$ROOT/tmp/gpusite_${VERSION}.deb" &&
	in_root apt-get install -y -qq "./tmp/gpusite_${VERSION}.deb" >>apt.out 2>&1 ||
		{ tail -20 apt.out; exit 1; } &&
	in_root dpkg-query -W -f="\${Status}\n" gpusite libgit2-1.5 libmicrohttpd12 >status &&
	test "$(grep -c "install ok installed" status)" -eq 3 &&
	in_root dpkg-query -W -f="\${db:Status-Abbrev} \${Package}\n" "libcurl*" >curl &&
	grep -E "^ii +libcurl4$" curl &&
	in_root dpkg -L gpusite >files &&
	grep -x /usr/bin/gpusite files
'

test_expect_success 'gpusite --version inside: the version and every library with its version' '
	in_root gpusite --version >out &&
	head -n 1 out >actual && echo "gpusite $VERSION" >expect && test_cmp expect actual &&
	grep -E "^libgit2 [0-9]+\.[0-9]+\.[0-9]+$" out &&
	grep -E "^libyaml [0-9]+\.[0-9]+\.[0-9]+$" out &&
	grep -E "^cJSON [0-9]+\.[0-9]+\.[0-9]+$" out &&
	grep -E "^libcurl [0-9]+\.[0-9]+\.[0-9]+" out &&
	grep -E "^PCRE2 [0-9]+\.[0-9]+$" out &&
	grep -E "^libmicrohttpd [0-9]+\.[0-9]+\.[0-9]+" out &&
	! grep "not found" out
'

test_expect_success 'validate and render the example fleet copied in: as the build tree does' '
	mkdir -p "$ROOT/srv/fleet" &&
	cp -R "$TEST_TOP/testdata/fleet/sites" "$ROOT/srv/fleet/" &&
	in_root_sh "cd /srv/fleet && gpusite validate" 2>err &&
	grep -E "0 errors" err &&
	in_root_sh "cd /srv/fleet && gpusite render" >inside.yaml &&
	(cd "$ROOT/srv/fleet" && "$GPUSITE" render) >outside.yaml &&
	test -s inside.yaml &&
	test_cmp outside.yaml inside.yaml
'

if need_upstream && live_have_python; then
	test_set_prereq SCHEMAS
fi
test_expect_success SCHEMAS 'validate --rendered inside: a directory of CRDs copied in, and --live' '
	upstream_schemas "$ROOT/srv/crds" &&
	in_root_sh "cd /srv/fleet && gpusite render >/srv/fleet.yaml" &&
	{ in_root_sh "gpusite validate --rendered --upstream /srv/crds /srv/fleet.yaml" 2>up.err ||
		{ cat up.err; false; }; } &&
	grep -q "0 errors, 0 warnings" up.err && ! grep -q ": warning: " up.err &&
	live_start healthy --schemas "$ROOT/srv/crds" &&
	mkdir -p "$ROOT/srv/kube" &&
	cp "$SCRATCH/tls/ca.crt" "$ROOT/srv/kube/ca.crt" &&
	sed "s|certificate-authority: .*|certificate-authority: /srv/kube/ca.crt|" \
		"$SCRATCH/kubeconfig" >"$ROOT/srv/kube/config" &&
	{ in_root_sh "gpusite validate --rendered --live --kubeconfig /srv/kube/config /srv/fleet.yaml" \
		2>live.err || { cat live.err; false; }; } &&
	grep -q "0 errors, 0 warnings" live.err && ! grep -q ": warning: " live.err &&
	grep -q "GET /openapi/v3" "$SCRATCH/requests.log" &&
	in_root apt-get remove -y -qq libcurl4 >>apt.out 2>&1 &&
	in_root dpkg-query -W libcurl3-gnutls >/dev/null &&
	expect_exit 3 in_root_sh \
		"gpusite validate --rendered --live --kubeconfig /srv/kube/config /srv/fleet.yaml" \
		2>gnutls.err &&
	grep "cannot take the certificate authority from memory: install the OpenSSL build of libcurl (Debian: libcurl4)" gnutls.err &&
	live_stop
'

test_expect_success 'generate as argocd-cmp-server runs it: uid 999, its environment, the same stream' '
	mkdir -p "$ROOT/home/argocd/repo" "$ROOT/home/argocd/tmp" &&
	cp -R "$TEST_TOP/testdata/cmp/fleet/." "$ROOT/home/argocd/repo/" &&
	chown -R 999:999 "$ROOT/home/argocd" &&
	touch stamp &&
	cmp_env_in_root "$ROOT" /home/argocd/repo gen.out &&
	test_cmp cmp/ref/stdout gen.out &&
	test -z "$(find "$ROOT/home/argocd" -newer stamp ! -type d)"
'

test_expect_success 'validate --staged and the shipped pre-commit hook in a Git repository' '
	in_root_sh "set -e
		mkdir /srv/repo && cd /srv/repo && git init -q
		git config user.name t && git config user.email t@example.com
		cp -R /srv/fleet/sites . && git add sites
		ln -s /usr/share/gpusite/hooks/pre-commit .git/hooks/pre-commit
		gpusite validate --staged -q
		git commit -qm fleet
		f=\$(ls sites | head -n 1)
		sed -i \"s/^kind: GPUSite/kind: NotASite/\" sites/\$f && git add sites
		if gpusite validate --staged -q; then exit 1; fi
		if git commit -qm broken 2>/dev/null; then exit 1; fi
		test \$(git rev-list --count HEAD) -eq 1" >staged.out 2>&1 ||
		{ cat staged.out; exit 1; }
'

test_expect_success 'serve inside the root answers /healthz' '
	printf "%s\n" token-0123456789abcdef0123 >"$ROOT/tmp/token" &&
	{ env -i PATH=/usr/bin:/bin LC_ALL=C.UTF-8 "$CHROOT" "$ROOT" gpusite serve \
		--listen 127.0.0.1:0 --token-file /tmp/token --repo /srv/repo 2>serve.log & } &&
	pid=$! &&
	i=0 &&
	while ! grep -q "listening on" serve.log; do
		i=$((i + 1)) &&
		if [ $i -ge 200 ] || ! kill -0 $pid; then cat serve.log; exit 1; fi &&
		sleep 0.05 || return 1
	done &&
	addr=$(sed -n "s/^gpusite serve: listening on //p" serve.log) &&
	python3 -c "import sys, urllib.request
r = urllib.request.urlopen(\"http://\" + sys.argv[1] + \"/healthz\", timeout=10)
print(r.status, r.read().decode().strip())" "$addr" >health &&
	kill -TERM $pid && wait $pid &&
	echo "200 ok" >expect && test_cmp expect health
'

test_expect_success 'a man page per command, valid troff; man gpusite-validate' '
	in_root gpusite --help | sed -n "/^commands:/,/^\$/p" | awk "/^  [a-z]/ { print \$1 }" >cmds &&
	test "$(wc -l <cmds)" -ge 10 &&
	while read -r c; do
		test -f "$ROOT/usr/share/man/man1/gpusite-$c.1.gz" || return 1
	done <cmds &&
	in_root env MANWIDTH=80 man --warnings=w gpusite-validate >man.out 2>man.err &&
	test ! -s man.err &&
	grep -E "^ +gpusite-validate - check site specs" man.out &&
	grep -E "^ +--staged" man.out &&
	in_root env MANWIDTH=80 man --warnings=w gpusite >/dev/null 2>man.err && test ! -s man.err
'

test_expect_success 'bash completion: the commands and a command options from --help' '
	in_root bash -c ". /usr/share/bash-completion/completions/gpusite
		COMP_WORDS=(gpusite val); COMP_CWORD=1; _gpusite; echo \${COMPREPLY[*]}
		COMP_WORDS=(gpusite validate --sta); COMP_CWORD=2; _gpusite; echo \${COMPREPLY[*]}" >compl &&
	printf "validate\n--staged\n" >expect && test_cmp expect compl &&
	test -f "$ROOT/usr/share/zsh/vendor-completions/_gpusite"
'

test_expect_success 'without a Recommends (libmicrohttpd12): serve names the package, validate works' '
	in_root apt-get remove -y -qq libmicrohttpd12 >apt2.out 2>&1 &&
	in_root dpkg-query -W -f="\${Status}\n" gpusite | grep -q "install ok installed" &&
	test_must_fail in_root gpusite serve --listen 127.0.0.1:0 --token-file /tmp/token \
		--repo /srv/repo 2>err &&
	grep "Debian: libmicrohttpd12" err &&
	in_root_sh "cd /srv/fleet && gpusite validate -q"
'

test_expect_success 'apt-get purge gpusite leaves none of its files' '
	in_root apt-get purge -y -qq gpusite >apt3.out 2>&1 &&
	{ in_root dpkg-query -W -f="\${Status}\n" gpusite >st 2>/dev/null || true; } &&
	! grep -q "install ok installed" st &&
	test -s files &&
	while read -r f; do
		if [ -f "$ROOT$f" ] || [ -L "$ROOT$f" ]; then echo "left: $f"; return 1; fi
	done <files &&
	test ! -e "$ROOT/usr/share/gpusite" &&
	test ! -e "$ROOT/usr/share/doc/gpusite"
'

test_done
