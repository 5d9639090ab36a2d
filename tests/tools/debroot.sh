# debroot.sh - helpers for the tests of the Debian package and the image
# (source after lib.sh): whether they can run here, the Debian root they
# start from, and the command that runs a CMP request the way
# argocd-cmp-server does inside a root.
#   debroot_why: prints why the tests cannot run here (empty: they can).
#   debroot_base: makes the one debootstrap minbase tarball both tests
#     start from, $TARBALL, when it is missing or does not match the
#     SHA-256 beside it ($TARBALL.sha256, as mk/image.sh keeps its cached
#     base: the same file name, so make image takes it as it is); prints
#     why not (empty: it is there).  Under a lock on $CACHE: the package
#     test and the image test start together and the first makes it.
#     Never through a symbolic link.
#   cmp_env_in_root ROOT REPO OUT: `gpusite generate` inside ROOT as uid
#     999, in REPO (a path inside ROOT), with the environment the
#     emulator (tests/tools/cmp-server.py) builds for testdata/cmp's
#     busan application; its stdout into OUT.  The emulator's own run
#     with $GPUSITE is in cmp/ref/ (stdout, rc), to compare with.
case $O in
/*) odir=$O ;;
*) odir=$TEST_TOP/$O ;;
esac
MIRROR=${GPUSITE_DEBIAN_MIRROR:-http://deb.debian.org/debian}
SUITE=bookworm
CACHE=$odir/e2e-cache
TARBALL=$CACHE/$SUITE-minbase-image.tgz
VERSION=$(cat "$TEST_TOP/VERSION")
CHROOT=$(command -v chroot)

debroot_reach() {
	python3 -c 'import sys, urllib.request
urllib.request.urlopen(sys.argv[1] + "/dists/" + sys.argv[2] + "/Release", timeout=15).read(64)' \
		"$MIRROR" "$SUITE" 2>/dev/null
}

debroot_why() {
	if [ "$(id -u)" -ne 0 ]; then
		echo "needs root (chroot, apt-get in the root)"
		return
	fi
	if readelf -d "$GPUSITE" 2>/dev/null | grep -q "libasan"; then
		echo "a sanitizer build: the package is built without sanitizers and tested in the plain run"
		return
	fi
	dw_missing=
	for dw_t in debootstrap dpkg-buildpackage lintian chroot python3 flock sha256sum ${DEBROOT_TOOLS:-}; do
		command -v "$dw_t" >/dev/null || dw_missing="$dw_missing $dw_t"
	done
	if [ -n "$dw_missing" ]; then
		echo "missing:$dw_missing (make deps installs them)"
	fi
}

# debroot_sum_ok: $TARBALL is a file of its own matching the SHA-256 beside it
debroot_sum_ok() {
	[ -f "$TARBALL" ] && [ ! -L "$TARBALL" ] && [ -s "$TARBALL" ] &&
		[ -f "$TARBALL.sha256" ] && [ ! -L "$TARBALL.sha256" ] &&
		[ "$(sha256sum <"$TARBALL" | cut -d" " -f1)" = "$(cut -d" " -f1 "$TARBALL.sha256")" ]
}

debroot_base() {
	mkdir -p "$CACHE" || { echo "cannot make $CACHE"; return; }
	if [ -L "$CACHE" ] || [ -L "$TARBALL" ] || [ -L "$TARBALL.sha256" ]; then
		echo "$CACHE, $TARBALL or its checksum is a symbolic link: remove it"
		return
	fi
	# the lock is the directory itself, opened for reading: nothing is
	# written to take it, and it goes with the process that holds it
	(
		flock 9 || exit 1
		debroot_sum_ok && exit 0
		# the work directory and the log are the tarball's own
		rm -rf "$TARBALL" "$TARBALL.sha256" "$TARBALL.work" "$TARBALL.tmp" &&
			debootstrap --variant=minbase --make-tarball="$TARBALL.tmp" "$SUITE" "$TARBALL.work" "$MIRROR" \
				>"$TARBALL.log" 2>&1 &&
			printf '%s  %s\n' "$(sha256sum <"$TARBALL.tmp" | cut -d" " -f1)" "$(basename "$TARBALL")" \
				>"$TARBALL.sha256" &&
			mv "$TARBALL.tmp" "$TARBALL"
		rm -rf "$TARBALL.work" "$TARBALL.tmp"
	) 9<"$CACHE"
	debroot_sum_ok && return
	if debroot_reach; then
		echo "debootstrap failed although $MIRROR answers:" >&2
		tail -20 "$TARBALL.log" >&2
		echo "debootstrap failed (see above)"
		return
	fi
	echo "debootstrap cannot reach $MIRROR"
}

cmp_env_in_root() {
	ce_root=$1 ce_repo=$2 ce_out=$3
	mkdir -p cmp &&
	(cd cmp && TMPDIR=$PWD python3 "$TEST_TOP/tests/tools/cmp-server.py" run \
		--plugin "$TEST_TOP/plugin/plugin.yaml" --repo "$TEST_TOP/testdata/cmp/fleet" \
		--app "$TEST_TOP/testdata/cmp/apps/busan.yaml" --gpusite "$GPUSITE" \
		--out ref --dump-env cmp.env) &&
	test "$(cat cmp/ref/rc)" = 0 &&
	grep -E "^(ARGOCD_|KUBE_|PARAM_|LANG=)" cmp/cmp.env >cmp/env.list &&
	echo HOME=/home/argocd >>cmp/env.list &&
	echo TMPDIR=/home/argocd/tmp >>cmp/env.list &&
	echo PATH=/usr/local/bin:/usr/bin:/bin >>cmp/env.list &&
	tr "\n" "\0" <cmp/env.list >cmp/env.nul &&
	xargs -0 sh -c 'c=$0 r=$1 p=$2 && shift 2 &&
		exec env -i "$@" "$c" --userspec=999:999 "$r" /bin/sh -c \
		"cd \"\$1\" && exec gpusite generate" sh "$p" </dev/null' \
		"$CHROOT" "$ce_root" "$ce_repo" <cmp/env.nul >"$ce_out"
}
