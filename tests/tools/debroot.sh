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
#   debroot_image: `make image` as the README writes it, once per test
#     run, at the top of a copy of the checkout: the default relative
#     O=build, the base (debroot_base, which it calls) copied with its
#     checksum into the default relative build/e2e-cache.  The package
#     test takes the package this builds (make image runs make deb), the
#     image test checks the image and builds it again from that package:
#     the package and the first image are built once, not once a test.
#     In $DEBROOT_RUN/readme: tree/ the copy, cmd the README's command,
#     make.out its output, rc its status, deb the package's path in the
#     tree and deb.sha256 its checksum (taken right after the build; read
#     it through debroot_deb).  $DEBROOT_RUN is $TEST_SHARED, which
#     tests/run.sh makes afresh for each run, else the calling script's
#     own directory (set DEBROOT_RUN before calling).  Under a lock on
#     that directory: the second caller waits and reads what the first
#     left.  Prints why it could not run (empty: it ran; rc says how, and
#     no rc is a failure of the tests that read it).
#   debroot_cache_in DIR: the base and its checksum in DIR, as make image
#     keeps its cache.
#   debroot_deb DEST: copies the package debroot_image built to DEST when
#     it is a file of its own matching its checksum.
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
DEBROOT_RUN=${TEST_SHARED:-}
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
	for dw_t in debootstrap dpkg-buildpackage lintian chroot python3 flock sha256sum umoci; do
		command -v "$dw_t" >/dev/null || dw_missing="$dw_missing $dw_t"
	done
	if [ -n "$dw_missing" ]; then
		echo "missing:$dw_missing (make deps installs them)"
		return
	fi
	if ! git -C "$TEST_TOP" rev-parse --verify -q HEAD >/dev/null 2>&1; then
		echo "the tree is not a git checkout (make deb copies the files git knows)"
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

# debroot_copy_tree DIR: the files of the checkout make deb takes (git
# ls-files: tracked and untracked, not ignored) in DIR
debroot_copy_tree() {
	(cd "$TEST_TOP" && git ls-files -z --cached --others --exclude-standard |
		xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
		tar --null -T - -cf -) | tar -xf - -C "$1"
}

# debroot_cache_in DIR: the base tarball and its checksum in DIR, as make
# image leaves them in its cache
debroot_cache_in() {
	mkdir -p "$1" &&
		cp "$TARBALL" "$1/" &&
		(cd "$1" && sha256sum "$(basename "$TARBALL")" >"$(basename "$TARBALL").sha256")
}

debroot_image() {
	di_dir=${DEBROOT_RUN:?DEBROOT_RUN or TEST_SHARED names the directory of the run}/readme
	mkdir -p "$di_dir" || { echo "cannot make $di_dir"; return; }
	if [ -L "$DEBROOT_RUN" ] || [ -L "$di_dir" ]; then
		echo "$DEBROOT_RUN or $di_dir is a symbolic link: remove it"
		return
	fi
	# the base first, under its own lock (the other test may be making it)
	di_why=$(debroot_base)
	if [ -n "$di_why" ]; then
		echo "$di_why"
		return
	fi
	(
		flock 9 || exit 1
		[ -f "$di_dir/rc" ] && exit 0
		di_tree=$di_dir/tree
		sed -n "s/^\(make image\) *#.*/\1/p" "$TEST_TOP/README.md" >"$di_dir/cmd"
		di_cmd=$(cat "$di_dir/cmd")
		{
			if [ "$di_cmd" != "make image" ]; then
				echo "the README's image command is \"$di_cmd\", not make image"
				false
			else
				rm -rf "$di_tree" && mkdir -p "$di_tree" &&
					debroot_copy_tree "$di_tree" &&
					(cd "$di_tree" && git init -q && git add -A &&
						git -c user.name=t -c user.email=t@example.invalid commit -q -m tree) &&
					debroot_cache_in "$di_tree/build/e2e-cache" &&
					(cd "$di_tree" && env -u O -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES \
						DEB_BUILD_OPTIONS=nocheck $di_cmd)
			fi
		} >"$di_dir/make.out" 2>&1
		di_rc=$?
		di_deb=$di_tree/build/deb/gpusite_${VERSION}_$(dpkg --print-architecture).deb
		if [ "$di_rc" -eq 0 ] && [ -f "$di_deb" ] && [ ! -L "$di_deb" ]; then
			echo "$di_deb" >"$di_dir/deb" &&
				sha256sum <"$di_deb" | cut -d" " -f1 >"$di_dir/deb.sha256"
		fi
		echo "$di_rc" >"$di_dir/rc.tmp" && mv "$di_dir/rc.tmp" "$di_dir/rc"
	) 9<"$di_dir"
}

debroot_deb() {
	dd_dir=$DEBROOT_RUN/readme
	[ -f "$dd_dir/deb" ] && [ -f "$dd_dir/deb.sha256" ] || {
		echo "make image left no package (see $dd_dir/make.out)" >&2
		return 1
	}
	dd_deb=$(cat "$dd_dir/deb")
	if [ -L "$dd_deb" ] || [ ! -f "$dd_deb" ]; then
		echo "$dd_deb is not a file of its own" >&2
		return 1
	fi
	if [ "$(sha256sum <"$dd_deb" | cut -d" " -f1)" != "$(cat "$dd_dir/deb.sha256")" ]; then
		echo "$dd_deb does not match the checksum taken when it was built" >&2
		return 1
	fi
	cp "$dd_deb" "$1"
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
