#!/bin/sh
# t6905-image-hardening.sh - mk/image.sh runs as root, so what it reads
# and writes is checked before use: the cached base tarball is used only
# when it matches the checksum kept beside it (a mismatch, a missing or
# malformed checksum, a symbolic link as the tarball, its checksum or the
# package: refused with one line, nothing built), and nothing is copied
# into the root through a symbolic link, whether the link is the
# destination (etc/resolv.conf) or a directory on the way (tmp).  A
# stand-in debootstrap plants the links, so no archive is needed.
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

VERSION=$(cat "$TEST_TOP/VERSION")
missing=
for t in umoci chroot sha256sum; do
	command -v "$t" >/dev/null || missing="$missing $t"
done
if [ "$(id -u)" -ne 0 ] || [ -n "$missing" ]; then
	test_skip 'the image build refuses links and a bad cached base' \
		"needs root and umoci, chroot, sha256sum (missing:${missing:- none})"
	test_done
	exit 0
fi

TGZ=bookworm-minbase-image.tgz
PLANT= VICTIM= HOSTDIR=
export PLANT VICTIM HOSTDIR
# the stand-in debootstrap: refuses a relative tarball as debootstrap does;
# for --unpack-tarball, a root with a link
# planted where PLANT says (etc: etc/resolv.conf to $VICTIM; tmp: tmp to
# the directory $HOSTDIR)
mkdir -p fakebin &&
cat >fakebin/debootstrap <<-\EOF_FAKE &&
	#!/bin/sh
	for a; do
		case $a in
		--unpack-tarball=/*) ;;
		--unpack-tarball=*) echo "E: Tarball must be given an absolute path" >&2 && exit 1 ;;
		esac
	done
	eval "root=\${$(($# - 1))}"
	mkdir -p "$root/etc" "$root/tmp"
	case $PLANT in
	etc) ln -s "$VICTIM" "$root/etc/resolv.conf" ;;
	tmp) rmdir "$root/tmp" && ln -s "$HOSTDIR" "$root/tmp" ;;
	esac
	EOF_FAKE
chmod +x fakebin/debootstrap || exit 1
printf 'not a real package\n' >gpusite_"$VERSION"_amd64.deb || exit 1

# good_cache DIR: a base tarball with its checksum beside it
good_cache() {
	mkdir -p "$1" &&
	printf 'base\n' >"$1/$TGZ" &&
	(cd "$1" && sha256sum "$TGZ" >"$TGZ.sha256")
}

# image OUT CACHE [DEB]: mk/image.sh with the stand-in debootstrap
image() {
	PATH="$SCRATCH/fakebin:$PATH" sh "$TEST_TOP/mk/image.sh" \
		"${3:-gpusite_${VERSION}_amd64.deb}" "$1" "$2" "$VERSION"
}

test_expect_success 'a cached base that does not match its checksum: refused, nothing built' '
	good_cache bad &&
	printf "tampered\n" >>bad/$TGZ &&
	test_must_fail image out-bad bad 2>bad.err &&
	grep -x "image.sh: $SCRATCH/bad/$TGZ does not match its checksum ($SCRATCH/bad/$TGZ.sha256): remove both to have them made again" bad.err &&
	test "$(wc -l <bad.err)" = 1 &&
	test ! -e out-bad
'

test_expect_success 'no checksum beside the cached base, or not a SHA-256: refused' '
	good_cache nosum && rm nosum/$TGZ.sha256 &&
	test_must_fail image out-nosum nosum 2>nosum.err &&
	grep "has no checksum beside it" nosum.err &&
	good_cache junk && echo "xyz  $TGZ" >junk/$TGZ.sha256 &&
	test_must_fail image out-junk junk 2>junk.err &&
	grep "holds no SHA-256" junk.err &&
	test ! -e out-nosum && test ! -e out-junk
'

test_expect_success 'a symbolic link as the cached base, its checksum or the package: refused' '
	good_cache real &&
	mkdir -p linked && ln -s ../real/$TGZ linked/$TGZ && cp real/$TGZ.sha256 linked/ &&
	test_must_fail image out-l1 linked 2>l1.err &&
	grep "linked/$TGZ is a symbolic link" l1.err &&
	mkdir -p linked2 && cp real/$TGZ linked2/ && ln -s ../real/$TGZ.sha256 linked2/$TGZ.sha256 &&
	test_must_fail image out-l2 linked2 2>l2.err &&
	grep "linked2/$TGZ.sha256 is a symbolic link" l2.err &&
	ln -s gpusite_"$VERSION"_amd64.deb link.deb &&
	test_must_fail image out-l3 real link.deb 2>l3.err &&
	grep "link.deb is a symbolic link: give the package file itself" l3.err &&
	test ! -e out-l1 && test ! -e out-l2 && test ! -e out-l3
'

test_expect_success 'a link at etc/resolv.conf in the root: refused, nothing written through it' '
	good_cache ok &&
	PLANT=etc VICTIM=$SCRATCH/victim && export PLANT VICTIM &&
	test_must_fail image out-etc ok 2>etc.err &&
	grep -x "image.sh: /etc/resolv.conf in the root is a symbolic link: nothing is copied through it" etc.err &&
	test ! -e victim && test ! -L victim
'

test_expect_success 'a link at tmp in the root: refused, the package not copied through it' '
	good_cache ok2 && mkdir -p hostdir &&
	PLANT=tmp HOSTDIR=$SCRATCH/hostdir && export PLANT HOSTDIR &&
	test_must_fail image out-tmp ok2 2>tmp.err &&
	grep -x "image.sh: /tmp in the root is a symbolic link: nothing is copied through it" tmp.err &&
	test -z "$(ls -A hostdir)"
'

test_expect_success 'relative package, output and cache: debootstrap is given absolute paths' '
	good_cache rel &&
	PLANT=etc VICTIM=$SCRATCH/victim2 && export PLANT VICTIM &&
	test_must_fail image out-rel rel 2>rel.err &&
	! grep "absolute path" rel.err &&
	grep -x "image.sh: /etc/resolv.conf in the root is a symbolic link: nothing is copied through it" rel.err &&
	test -d "$SCRATCH/out-rel/oci" && test ! -e victim2
'

test_done
